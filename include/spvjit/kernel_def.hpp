// KernelDef: a finished kernel definition — an immutable LLVM module plus its signature and a
// content hash. What the builder produces and what the JIT specializes and compiles.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "spvjit/signature.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

class KernelDef;

namespace detail {
class KernelModule;  // the kernel's interface and its module as bitcode; ir/kernel_module.hpp
// spvjit's own access to a definition (not exported).
SPVJIT_INTERNAL const KernelModule& kernel_module(const KernelDef& def);
SPVJIT_INTERNAL KernelDef make_kernel_def(std::shared_ptr<const KernelModule> module);
}  // namespace detail

/// A finished kernel: made by KernelBuilder::finish(), kernel_from_bitcode() or
/// module_from_bitcode(), compiled by Jit::compile. Cheap to copy (it shares its definition).
class KernelDef {
 public:
  KernelDef() = default;

  const std::string& name() const;
  /// The user's parameters, in order (hidden parameters excluded).
  std::span<const Param> params() const;
  /// A content hash of the module's IR: equal across processes for equal kernels.
  std::uint64_t hash() const;
  /// Whether the kernel reads the dynamic ndrange through spvjit's hidden parameters.
  bool has_hidden_ndrange() const;
  /// Whether launches may pad the ndrange to whole work-groups (see
  /// KernelBuilder::allow_padding); otherwise every workgroup must divide the ndrange.
  bool pads_safely() const;
  /// The module as LLVM IR text.
  std::string to_string() const;
  bool valid() const noexcept { return module_ != nullptr; }

 private:
  explicit KernelDef(std::shared_ptr<const detail::KernelModule> module);
  friend const detail::KernelModule& detail::kernel_module(const KernelDef& def);
  friend KernelDef detail::make_kernel_def(std::shared_ptr<const detail::KernelModule> module);
  std::shared_ptr<const detail::KernelModule> module_;
};

}  // namespace spvjit

SPVJIT_API_END
