// Which values of a kernel differ between the W indices one coarsened work-item handles, and
// whether the kernel is element-wise enough to rewrite. Only get_global_id(0) differs at the
// start; what is computed from it differs too ("varying"); everything else is the same for all
// W indices ("uniform") and stays scalar.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "ir/work_item_builtins.hpp"
#include "jit/coarsen/math.hpp"

namespace llvm {
class BranchInst;
class Function;
class Instruction;
class Type;
class Value;
}  // namespace llvm

namespace spvjit::detail {

enum class Role {
  Index,  ///< get_global_id(0) itself
  /// get_local_id(0) itself, in a kernel coarsened in groups (CoarsenTarget::groups): the
  /// lanes are W consecutive work-items of one group, consecutive like Index
  LocalIndex,
  Offset,    ///< get_global_id(0) + uniform: consecutive across the lanes, like Index
  InBounds,  ///< get_global_id(0) < ndrange(0): true for every lane of a full vector
  Address,   ///< &p[Index or Offset] with p uniform: W consecutive elements
  Gather,    ///< &p[i] with p uniform, i varying otherwise (4 * gid + 1): an element per lane
  Vector,    ///< any other varying value: one W-wide vector
  Store,     ///< a store (or vstore_half) to an Address
  Check,     ///< a bounds check of consecutive or uniform indices: one scalar test for W lanes
  Report,    ///< a failed check's report: made for the first failing lane
  LaneTest,  ///< every_lane / no_lane of a varying condition (jit/coarsen/masks.hpp): uniform
};

struct CoarsenPlan {
  std::unordered_map<llvm::Instruction*, Role> roles;  ///< varying instructions only
  std::vector<llvm::Instruction*> order;  ///< the varying instructions, defs before uses
  /// Conditional branches on a varying condition: the lanes may take both sides, so the vector
  /// body runs both, under masks (jit/coarsen/masks.hpp).
  std::vector<llvm::BranchInst*> divergent_branches;
  llvm::Type* widest = nullptr;   ///< widest element type read or written
  unsigned widest_call_bits = 0;  ///< widest element of a vectorized builtin call
  std::string reason;             ///< non-empty: not element-wise, and why
  bool ok() const { return reason.empty(); }
};

/// Analyses `kernel`. `extent0` is the ndrange's dimension 0 inside the kernel (hidden argument
/// or constant; null for a kernel that pads safely without knowing it). `exact_without_check`: the
/// launch runs exactly ndrange(0) indices in dimension 0 even without a bounds check (static
/// workgroup dividing a static ndrange); otherwise every side effect must sit behind
/// `get_global_id(0) < extent0`, so that indices past the end do nothing and the tail may skip
/// them.
/// `counters`: a loop counter that starts at a consecutive value and steps by a uniform one
/// (`for (i = get_global_id(0); i < n; i += ndrange(0))`) is consecutive too, its lanes' elements
/// one W-element access each pass (CoarsenTarget::grid_stride_loops); else it varies.
/// `groups`: the kernel has barriers and a static workgroup whose dimension 0 W divides, and its
/// lanes will be W consecutive work-items of one group (CoarsenTarget::groups): get_local_id(0)
/// is consecutive, get_group_id(0) uniform, barriers allowed where the lanes cannot branch apart.
CoarsenPlan analyse_elementwise(llvm::Function& kernel, llvm::Value* extent0,
                                bool exact_without_check, VectorMath math, bool counters,
                                bool groups = false);

/// Whether `v` is a call of get_global_id(0) (an i64): the value coarsening widens to W lanes,
/// as its analysis and the 32-bit index pass (narrow_index.hpp) both recognise it.
bool is_global_id0(const llvm::Value* v);

}  // namespace spvjit::detail
