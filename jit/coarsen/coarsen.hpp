// SIMD coarsening for CPU devices: an element-wise kernel (every global memory access an element
// of a uniform pointer, at get_global_id(0) plus or minus a uniform value — W consecutive
// elements — or at any other index computed from it — one element per lane, a gather or a
// scatter) is rewritten so that each work-item handles W
// consecutive indices with W-wide vector loads, arithmetic and stores; branches on which the W
// lanes may disagree run under lane masks (jit/coarsen/masks.hpp). PoCL compiles each work-item's
// code as scalar code; explicit vectors per work-item measured 2.1x faster for saxpy on this
// machine.
//
// The rewritten kernel keeps its name and signature. Work-item g runs indices W*g .. W*g+W-1:
// the vector body when all W are inside the ndrange, else (the tail) the original scalar body
// once per index still inside it (a kernel that pads safely without knowing its ndrange has no
// tail: every lane runs). With U vectors per work-item (JitOptions::coarsen_vectors, kernels
// without a static workgroup) it runs U*W indices, U vector bodies in turn, and at the
// ndrange's end the whole vectors below it before the tail. The launch path divides dimension 0
// of the ndrange by U*W (ceil) — KernelFacts::coarsen (runtime/launch_state.hpp) — or dimension 1
// for a kernel coarsened there (coarsen_dimension_1).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ir/kernel_module.hpp"
#include "jit/coarsen/math.hpp"
#include "spvjit/kernel.hpp"

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// The device's preferred vector widths (CL_DEVICE_PREFERRED_VECTOR_WIDTH_*), per element size.
struct VectorWidths {
  unsigned i8 = 1, i16 = 1, i32 = 1, i64 = 1, f32 = 1, f64 = 1;
};

/// What coarsening may use of the device and the options.
struct CoarsenTarget {
  VectorWidths widths;            ///< the device's preferred widths
  unsigned forced_width = 0;      ///< > 1: overrides them (JitOptions::coarsen_width)
  unsigned vectors_per_item = 1;  ///< > 1: U vectors per work-item (JitOptions::coarsen_vectors)
  /// Which math builtins run as vectors; the rest are called once per lane.
  VectorMath math = VectorMath::exact_only;
  /// The fast body also leaves out checks of a global id against any argument (the dispatcher
  /// tests them once per work-item) and an array parameter's offset check that follows from
  /// them (jit/coarsen/vector.hpp, FastChecks); else only get_global_id(0)'s against the
  /// buffers' extents, which fast_end covers.
  bool work_item_checks = false;
  /// Grid-stride loops (`for (i = get_global_id(0); i < n; i += ndrange(0))`) are coarsened:
  /// their counter is consecutive across the lanes, and the exit `for_` adds before a counter
  /// stepped by a run-time value would overflow is folded into the loop's test
  /// (jit/coarsen/masked_loops.hpp). Else such a loop keeps the kernel scalar.
  bool grid_stride_loops = false;
  /// > 1: a kernel without a static workgroup whose body is guarded by an interior test on
  /// get_global_id(0) runs strips of that many vectors per work-item, the test split off
  /// (jit/coarsen/strips.hpp); 0 or 1: one vector (or vectors_per_item) per work-item.
  unsigned strip_vectors = 0;
  /// A kernel with barriers and a static workgroup is coarsened in groups (coarsen.cpp,
  /// coarsen_in_groups): each work-item stands for W consecutive work-items of its group, the
  /// group's dimension 0 divided by W; else such a kernel stays scalar ("reads get_local_id(0)",
  /// "calls barrier").
  bool groups = false;
};

/// What coarsening did to one kernel.
struct CoarsenResult {
  unsigned width = 1;  ///< indices per work-item; 1: the kernel was left alone
  std::string reason;  ///< why it was left alone (empty when coarsened)
  /// Left alone for the device's or the options' sake (no useful width), or because coarsening
  /// would not pay (per-lane accesses with no loop to make up for them), not the kernel's.
  bool device_limited = false;
  /// Vectors of `width` lanes each work-item runs in turn (U): the launch divides dimension 0
  /// by width * vectors.
  unsigned vectors = 1;
  /// 31 or 32: the kernel narrowed get_global_id(0) to a 32-bit int and was coarsened as if it
  /// had not (jit/coarsen/narrow_index.hpp): launches need ndrange(0) <= 2^index_bits. 0: none.
  unsigned index_bits = 0;
  /// Loads and stores of one element per lane (gathers and scatters: x[4 * i + c]).
  unsigned lane_accesses = 0;
  /// Math builtins called once per lane (their vector forms differ on this device).
  unsigned lane_calls = 0;
  /// The dimension whose indices a work-item runs: 0, or 1 (coarsen_dimension_1).
  unsigned dimension = 0;
  /// The tests of global ids against arguments the dispatcher makes once per work-item beside
  /// fast_end, for a fast body without them (CoarsenTarget::work_item_checks).
  unsigned work_item_tests = 0;
  /// Each work-item runs a strip of `vectors` vectors as one loop from the interior test's
  /// first index (CoarsenTarget::strip_vectors).
  bool strips = false;
  /// Why an interior-tested kernel runs no strips (CoarsenTarget::strip_vectors set); else empty.
  std::string strips_refused{};
  /// Coarsened in groups (CoarsenTarget::groups): the launch divides the static workgroup's
  /// dimension 0 by `width` too, and pads nothing.
  bool groups = false;
};

/// Rewrites `def`'s kernel in `m` (already specialized for `spec`) when it is element-wise, at
/// `target`'s width; `target.vectors_per_item` > 1 makes each work-item of a kernel without a
/// static workgroup run that many consecutive vectors. Conservative: anything the analysis does
/// not understand leaves the kernel untouched. Takes the kernel in the canonicalize step's form
/// (ir/canonical_form.hpp: variables as phis, no unreachable block, one return; checked in
/// debug builds).
CoarsenResult coarsen_elementwise(llvm::Module& m, const KernelModule& def,
                                  const Specialization& spec, const CoarsenTarget& target);

/// Whether coarsen_elementwise could run `def`'s kernel in strips (CoarsenTarget::strip_vectors):
/// no static workgroup, a body under an interior test of get_global_id(0), lanes that may run
/// twice. Necessary, not sufficient (the strip's body may still fail to vectorize); reads the
/// kernel and leaves it as it was. For pricing plans (plans.hpp) without making them.
bool may_run_strips(llvm::Module& m, const KernelModule& def, const Specialization& spec,
                    const CoarsenTarget& target);

/// coarsen_elementwise along dimension 1 instead of 0 (jit/coarsen/swap_dimensions.hpp): each
/// work-item runs consecutive indices of get_global_id(1), and the launch divides dimension 1
/// of the ndrange. For kernels whose contiguous index is get_global_id(1), where dimension 0
/// could not be coarsened. The module is left as it was when the result says it was left alone.
CoarsenResult coarsen_dimension_1(llvm::Module& m, const KernelModule& def,
                                  const Specialization& spec, const CoarsenTarget& target);

}  // namespace spvjit::detail
