// Program: the kernels of one ModuleDef, compiled together (Jit::compile(ModuleDef)): one
// translation, one OpenCL program, one cache entry; each Kernel launches as any other.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "spvjit/kernel.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

class Program {
 public:
  Program() = default;
  explicit Program(std::vector<Kernel> kernels);

  /// The kernel named `name`, ready to launch; throws UserError listing the program's kernels
  /// when it has none. Allocation-free when found.
  Kernel kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  /// Every kernel, in module order.
  std::span<const Kernel> kernels() const { return kernels_; }
  bool valid() const noexcept { return !kernels_.empty(); }

 private:
  std::vector<Kernel> kernels_;
};

}  // namespace spvjit

SPVJIT_API_END
