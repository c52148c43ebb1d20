// If-conversion for coarsening: where the W lanes of a coarsened work-item may disagree on a
// branch (`0 < col && col < n - 1`, `x[i] > 0`), the vector body runs both sides one after the
// other and each lane keeps what its own side computed. The region below such a branch (up to
// the block where its sides join) becomes one chain of blocks; every block gets a lane mask, a
// scalar i1 that is varying like any other value (the vectorizer widens it to <W x i1>):
//   mask(block) = OR over its predecessors of (mask(pred) AND the edge's condition)
// Phis become selects on the edges' masks. What must not happen for an inactive lane (loads,
// stores, bounds checks and their reports) is listed with its mask for the vectorizer, and an
// integer division's divisor becomes 1 in inactive lanes (a trap otherwise).
//
// Supported: acyclic regions entered only through their branch (what structured code makes:
// if_, if_else, early return_(), bounds checks), also inside a loop every lane runs alike (the
// region one iteration's: it neither holds a loop nor leaves its own), and loops left on a
// varying condition (jit/coarsen/masked_loops.hpp). A loop inside such a region, a varying
// branch out of a loop (break_ under an if) or inside a loop left on a varying condition, is
// left to the scalar kernel.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

namespace llvm {
class BasicBlock;
class BranchInst;
class CallInst;
class Function;
class Instruction;
class Module;
class Value;
}  // namespace llvm

namespace spvjit::detail {

/// Why the regions below `divergent` branches of `f` cannot be if-converted; empty if they can.
/// `fold_overflow_exits`: a loop's second exit before its counter would overflow is folded into
/// its header's (jit/coarsen/masked_loops.hpp); else such a loop, left on a varying condition,
/// is refused.
std::string divergent_region_problem(llvm::Function& f,
                                     const std::vector<llvm::BranchInst*>& divergent,
                                     bool fold_overflow_exits);

/// The mask an instruction of an if-converted function acts under (its block's), and for an
/// access behind a bounds check, the check: where it shows the whole vector inside the buffer,
/// a load may read every lane (the inactive lanes' values are never used).
struct LaneMask {
  llvm::Value* mask = nullptr;
  llvm::CallInst* check = nullptr;
};

/// Loads, stores, vload_half/vstore_half, bounds checks and reports under a mask.
using LaneMasks = std::unordered_map<llvm::Instruction*, LaneMask>;

/// Records in `masks` what in `b` must act only for the lanes of `mask` (loads, stores, bounds
/// checks and reports, calls that touch memory), and makes its integer divisions safe for the
/// other lanes (divisor 1). Nothing for a constant true mask.
void mask_block(llvm::BasicBlock& b, llvm::Value* mask, LaneMasks& masks);

/// The markers a versioned region tests its branch's condition with: true when every lane of
/// the i1 argument is true (false), answered by the vectorizer (jit/coarsen/vector.cpp).
inline constexpr const char* every_lane_marker = "__spvjit.coarsen.every_lane";
inline constexpr const char* no_lane_marker = "__spvjit.coarsen.no_lane";
/// Declares one of them in `m`: i1 (i1), readnone.
llvm::Function* lane_test(llvm::Module& m, const char* name);

/// If-converts the regions below `divergent` (which divergent_region_problem accepted). Each
/// region is first copied, unmasked, for the work-items whose lanes all take the same side.
LaneMasks if_convert(llvm::Function& f, const std::vector<llvm::BranchInst*>& divergent,
                     bool fold_overflow_exits);

}  // namespace spvjit::detail
