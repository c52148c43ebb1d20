// Fast-math flags on a kernel's floating-point code: FastMath (the public set) as LLVM's flags,
// and the step that puts them on every floating-point operation of a function. The builder's
// kernel-wide switch (KernelBuilder::fastmath()) and the OpenCL fast-math build options
// (jit/fast_math_options.hpp) both end here; the scoped switch sets the IRBuilder's flags.
#pragma once

#include <llvm/IR/FMF.h>

#include "spvjit/fast_math.hpp"

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace spvjit::detail {

llvm::FastMathFlags to_llvm(FastMath flags);

/// Adds `flags` to every floating-point operation of `function` (what LLVM calls an
/// FPMathOperator: arithmetic, negation, comparisons, and calls, selects and phis of
/// floating-point values), keeping the flags each already has. Returns how many changed.
unsigned add_fast_math_flags(llvm::Function& function, llvm::FastMathFlags flags);
/// The same over every function `module` defines.
unsigned add_fast_math_flags(llvm::Module& module, llvm::FastMathFlags flags);

}  // namespace spvjit::detail
