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

namespace detail {
class KernelModule;  // the kernel's interface and its module as bitcode; ir/kernel_module.hpp
}

class KernelDef {
 public:
  KernelDef() = default;
  explicit KernelDef(std::shared_ptr<const detail::KernelModule> module);

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

  const detail::KernelModule& module() const;

 private:
  std::shared_ptr<const detail::KernelModule> module_;
};

}  // namespace spvjit

SPVJIT_API_END
