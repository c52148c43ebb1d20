// The form the lowering's passes take a builder kernel in, made once by the `canonicalize` step
// (jit/pipeline.cpp, first after specialize) instead of by each pass that needs it:
// - variables as SSA values (promote_variables): the loop counters ScalarEvolution reads when
//   checks are tested once before a loop (jit/bounds/hoist_bounds.hpp), the phis the coarsening
//   analysis reads (jit/coarsen/analysis.hpp);
// - no unreachable block: the builder leaves one after each return_(), a predecessor of the code
//   after the `if`, which would make every early return's region look entered from outside
//   (if-conversion, jit/coarsen/masks.hpp);
// - one return: if-conversion and the coarsened body's dispatcher take the body's one exit.
// The passes that read it say so in their headers and check it in debug builds
// (canonical_form_lacks); the passes between keep it.
#pragma once

#include <string>

namespace llvm {
class Function;
}

namespace spvjit::detail {

void canonicalize(llvm::Function& kernel);

/// What of the form `f` lacks, named for an internal error ("a variable in memory: %i.addr"), or
/// empty when it has it. Promotable allocas, unreachable blocks and returns are looked for.
std::string canonical_form_lacks(const llvm::Function& f);

/// In debug builds (no NDEBUG), an internal error naming `pass` and what `f` lacks of the form;
/// nothing otherwise.
void assert_canonical(const llvm::Function& f, const char* pass);

/// Every `ret void` of `f` becomes a branch to one new exit block (nothing for one return or a
/// non-void function), so that every branch has a block where its sides join.
void unify_returns(llvm::Function& f);

}  // namespace spvjit::detail
