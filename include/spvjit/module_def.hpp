// ModuleDef: the kernels of one raw module, taken together (module_from_bitcode in
// spvjit/raw_module.hpp), so that Jit::compile translates and builds the module once for all of
// them. Holds no LLVM: the module itself is shared by its KernelDefs.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spvjit/kernel_def.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

class ModuleDef {
 public:
  ModuleDef() = default;
  /// Every KernelDef must come from the same module (module_from_bitcode makes them).
  explicit ModuleDef(std::vector<KernelDef> kernels);

  /// One KernelDef per kernel (spir_kernel function) of the module, in module order. Each may
  /// also be compiled alone (Jit::compile(KernelDef)): it still shares the module's program.
  std::span<const KernelDef> kernels() const { return kernels_; }
  /// The kernel named `name`; throws UserError listing the module's kernels when it has none.
  const KernelDef& kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  /// A content hash of the module's IR, as KernelDef::hash() of each of its kernels.
  std::uint64_t hash() const;
  bool valid() const noexcept { return !kernels_.empty(); }

 private:
  std::vector<KernelDef> kernels_;
};

}  // namespace spvjit

SPVJIT_API_END
