// Strips of a row per coarsened work-item, the interior test split off (issue #65, step 1).
//
// A stencil guards its body with an interior test, `0 < i && i < n - 1 && ...`. Coarsened one
// vector per work-item, the vectors at each row's two ends hold lanes on both sides of it and
// run the partial-mask path: lane masks as <W x i64> compares, stores in pieces through a lane
// buffer (docs/performance.md, "Where heat3d/128's kernel time goes"). The loop a C++ compiler
// makes of the same formula starts its vectors at the interior's first index instead, and ends
// with one vector (or a scalar remainder) at its last.
//
// With strips, a work-item runs U*W consecutive indices [s, e) (the launch divides dimension 0
// by U*W, as for U vectors per work-item) as one loop of whole vectors over the part of them the
// interior test accepts, [max(s, lo), min(e, hi)) where the test's range conjuncts on
// get_global_id(0) give lo and hi. The first vector starts at that part's first index, the next
// ones at multiples of W, and the last one ends at the part's last index; the first and the last
// overlap their neighbours, whose shared lanes run again. That is safe only for a kernel whose
// lanes compute the same stores when run twice (lanes_rerun_problem): nothing it stores is read
// back, no atomics. The vectors run a copy of the kernel whose range conjuncts are true
// (interior_copy): inside the part they hold, so the body needs no lane masks for them. A part
// narrower than W runs index by index through the scalar body.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class IRBuilderBase;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// The range conjuncts on get_global_id(0) of the test that guards a kernel's whole body: the
/// branch on an `and` of conditions that ends the entry block (or a chain of blocks from it)
/// with no effect before it, and whose other side does nothing. The bounds
/// are values of the kernel made of its arguments and constants only (so that the dispatcher can
/// compute them again): get_global_id(0) >= each of `lows` and < each of `highs`, signed.
struct GuardBound {
  llvm::Value* value;
  bool plus_one;  ///< the bound is value + 1 (from `>` and `<=`)
};
struct GuardRange {
  std::vector<GuardBound> lows;   ///< get_global_id(0) >= each
  std::vector<GuardBound> highs;  ///< get_global_id(0) < each
  /// The comparisons they come from: true for every index of a strip's vectors, which lie
  /// inside all the bounds (interior_copy).
  std::vector<llvm::Instruction*> conjuncts;
  /// A test that bounds the index otherwise than by the ndrange: what strips are for.
  bool interior = false;
};

/// The guard's range conjuncts of `kernel` (canonical form, before coarsening); `extent0` is
/// the ndrange's dimension 0 in the kernel (a bound that is only it makes no interior test).
GuardRange find_guard_range(llvm::Function& kernel, const llvm::Value* extent0);

/// A copy of `kernel` (in its module, named `name`) whose guard's range conjuncts are `true`:
/// the kernel as a strip's vectors run it, every lane inside the bounds. `map` maps the kernel's
/// values to the copy's. The caller erases the copy.
llvm::Function* interior_copy(llvm::Function& kernel, const GuardRange& guard,
                              llvm::ValueToValueMapTy& map);

/// Why running a lane of `kernel` twice could store other values than running it once; empty
/// when it cannot: every load reads a `noalias readonly` argument, private memory or a
/// constant, and nothing else but stores and bounds reports has an effect (no atomics, fences
/// or calls that write memory).
std::string lanes_rerun_problem(llvm::Function& kernel);

/// `bound` (of the kernel find_guard_range read it from) computed again at the builder's point
/// from the same arguments and constants. An upper bound's `+ 1` saturates at the largest i64.
llvm::Value* emit_bound(llvm::IRBuilderBase& b, const GuardBound& bound, bool upper);

/// Makes a vectorized body (jit/coarsen/vector.hpp) take its first lane's index as its last
/// argument instead of the coarsened work-item index g (lanes W*g ..): a vector may then start
/// at any index. False (and `body` unchanged) where the body uses g otherwise.
bool index_first_lane(llvm::Function& body, unsigned width);

/// Calls a body (vector or scalar) with the index its last argument takes, at b's point.
using CallBody = llvm::function_ref<void(llvm::IRBuilderBase&, llvm::Function*, llvm::Value*)>;

/// The part of [first, stop) (i64 indices) the guard's bounds `lows` and `highs` (emit_bound's
/// values) accept, as [from, to) (signed; empty when to <= from).
std::pair<llvm::Value*, llvm::Value*> accepted_part(llvm::IRBuilderBase& b, llvm::Value* first,
                                                    llvm::Value* stop,
                                                    const std::vector<llvm::Value*>& lows,
                                                    const std::vector<llvm::Value*>& highs);

/// Emits at b's point a work-item's strip over [from, to) (accepted_part's): whole vectors of
/// `vector_body` (index_first_lane's form), the first at `from`, the next ones at multiples of
/// `width` and the last ending at `to` (each of those two overlapping its neighbour), or index
/// by index through `scalar_body` when fewer than `width` indices are left. Leaves b in a new
/// block after them.
void emit_strip(llvm::IRBuilderBase& b, llvm::Value* from, llvm::Value* to,
                llvm::Function* vector_body, llvm::Function* scalar_body, unsigned width,
                CallBody call);

/// A loop at b's point calling `scalar_body` on each index of [from, to) (signed), then going to
/// `after`; b is left in the loop's body block (terminated).
void emit_index_loop(llvm::IRBuilderBase& b, llvm::Value* from, llvm::Value* to,
                     llvm::Function* scalar_body, CallBody call, llvm::BasicBlock* after);

}  // namespace spvjit::detail
