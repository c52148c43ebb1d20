// The builder's check for barriers that only some work-items of a group reach. Such a kernel
// compiles, and every later synchronize() hangs: the work-items that reached the barrier wait
// forever for those that did not. finish() finds it with the divergence analysis
// (ir/analysis/divergence.hpp): which values may differ between the work-items of a group, and
// which blocks run under a branch on one.
#pragma once

#include <string>

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Throws UserError naming the first barrier in `kernel` whose execution depends on a branch
/// whose condition may differ between work-items of a group (under an if_ or a loop on such a
/// condition, or after a return_/break_/continue_ that only some work-items take), with the
/// condition and the work-item index it depends on.
void check_barriers_uniform(llvm::Function& kernel, const std::string& kernel_name);

}  // namespace spvjit::detail
