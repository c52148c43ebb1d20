// Loops under lane masks, for coarsening: a loop whose exit test differs between the W lanes of a
// coarsened work-item (Mandelbrot's escape test, a `while_` halving each lane's own value) runs
// until no lane stays in it, each lane's side effects masked to the iterations it would have run
// alone. In the scalar IR, before vectorizing (jit/coarsen/masks.hpp does the same for branches):
//
//   header:  active = phi [true, preheader], [stay, latch]       the lanes still iterating
//            last.v = phi [poison, preheader], [v.exit, latch]   per value used after the loop
//            ...                                                 (blocks before the exit test:
//                                                                 masked by `active`)
//   exiting: stay    = active ? <the lane's test to go on> : false
//            leaving = active ? !<that test> : false
//            v.exit  = leaving ? v : last.v                      the value the lane left with
//            br no_lane(stay), exit, body                        uniform: all lanes together
//   body ... latch                                               masked by `stay`
//
// Lanes that left keep computing on values nobody reads (their stores and loads masked off,
// their divisors 1); `select` rather than `and` keeps a finished lane's poison (an overflowed
// counter) out of the exit test. Uses after the loop read v.exit.
//
// Supported: innermost loops with one preheader, one latch and one exiting block that dominates
// the latch, no other branch on a varying condition inside (the loops `for_` and `while_` make,
// with bounds checks). Anything else is left to the scalar kernel, as before. (A varying branch
// inside a loop every lane leaves alike is if-converted as any other: jit/coarsen/masks.hpp.)
//
// One second exit is folded into the header's first: the one `for_` adds before `i + step`
// would overflow when the step is known only at run time (a grid-stride loop's `i += ndrange`),
// a test just before the latch. The lane that takes it goes round once more, the header's test
// then failing for it:
//
//   header:  taken = phi [false, preheader], [leave, latch]
//            x.at  = phi [poison, preheader], [x's value on the folded edge, latch]
//            ...
//            br select(taken, false, <the header's test>), body, exit    (x: the exit's phis,
//   test:    br latch                                                     now select(taken, x.at,
//   latch:   ...  br header                                               x's header value))
//
// which needs the header and the latch to compute only (isSafeToSpeculativelyExecute: the
// counter may have wrapped) and the loop's values read after it only through the exit's phis.
//
// Such a loop (a grid-stride loop: its lanes' counters consecutive, so that every lane stays in
// it on all passes but the last) first runs as an unmasked copy, while every lane stays:
//
//   run:         br every_lane(<the header's test>), <the body, copied>, masked.entry
//   run latch:   br no_lane(leave), run, masked.entry
//   masked.entry: the loop's phis as the run left them; br header     (the masked loop)
//
// Its tests are scalar where the lanes' counters are consecutive (mask_algebra.hpp's sure_all,
// sure_none): the first and last lane's counters against n, against the overflow bound.
#pragma once

#include <string>
#include <vector>

#include "jit/coarsen/masks.hpp"

namespace llvm {
class BranchInst;
class Function;
class Loop;
class PHINode;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// The branch of `loop` that leaves it on a test just before its latch, which
/// fold_overflow_exit can move into the header's exit test (see above); null if there is none
/// or the loop is not in that form.
llvm::BranchInst* foldable_overflow_exit(const llvm::Loop& loop);

/// What fold_overflow_exit made of a loop's exits.
struct FoldedExit {
  llvm::Value* header_test;  ///< the header's own test, before the fold
  bool stays_on_true;        ///< the header's test is true for a lane that stays
  llvm::Value* leave;        ///< true for a lane that takes the folded exit (before the latch)
  llvm::PHINode* taken;      ///< the header's flag: the lane took it the pass before
};

/// Folds `test` (foldable_overflow_exit's answer for `loop`) into the header's exit. The
/// dominator tree and the loop's blocks stay valid.
FoldedExit fold_overflow_exit(llvm::Loop& loop, llvm::BranchInst* test);

/// Puts before a folded loop a copy of it that runs unmasked while every lane stays (see above)
/// and leaves for the loop itself, in the state it stopped in, at the first pass where a lane
/// would leave.
void add_unmasked_run(llvm::Loop& loop, const FoldedExit& folded);

/// Moves from `divergent` to `loop_exits` the branches that leave a loop on a varying condition
/// and can run under lane masks; the others stay (for if-conversion, which refuses those inside
/// loops). Returns why such a loop cannot be masked, or empty. `fold_overflow_exits`: a loop
/// with a foldable second exit is taken (its header's exit recorded), else refused.
std::string take_masked_loop_exits(llvm::Function& f, std::vector<llvm::BranchInst*>& divergent,
                                   std::vector<llvm::BranchInst*>& loop_exits,
                                   bool fold_overflow_exits);

/// Rewrites the loops `loop_exits` leave (take_masked_loop_exits accepted them) to run under
/// lane masks, recording what is masked in `masks`.
void mask_loops(llvm::Function& f, const std::vector<llvm::BranchInst*>& loop_exits,
                LaneMasks& masks);

}  // namespace spvjit::detail
