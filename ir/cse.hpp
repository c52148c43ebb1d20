// Promote a function's variables to registers, then make equal computations one value (LLVM's
// mem2reg and EarlyCSE, run by the new pass manager with only the analyses they read): the tidy
// a pass runs between its own rewrites when it needs them as one value (the bounds-check merge,
// jit/bounds/merge_bounds.hpp).
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

void promote_and_cse(llvm::Function& f);

}  // namespace spvjit::detail
