// The plans a kernel could run by on a CPU device, priced, the cheapest made (issue #65, step 2;
// LoopVectorize's legality / plan / cost / codegen split is the model):
// - the device's own work-items, one index each (PoCL's work-group loop);
// - vectors: W lanes per work-item (U vectors in turn without a static workgroup), the partial
//   vectors at a row's ends under lane masks;
// - strips: U vectors per work-item from an interior test's first index (strips.hpp);
// the coarsened plans in dimension 0 and, for a kernel that reads get_global_id(1), dimension 1.
//
// Legality is the coarsener's own: each coarsened plan is made on a copy of the module
// (coarsen_elementwise, coarsen_dimension_1) and priced from the code made (path_cost.hpp), so
// a plan is offered exactly when the coarsener can make it. Where it can make one plan at most
// (no interior test for strips, no get_global_id(1) beyond a comparison for dimension 1),
// nothing is made on a copy and that plan is made as the order makes it. The price is per index
// of the launch: the body a full vector runs over W, the dispatcher's own work over the indices
// of a work-item, and for vectors in a kernel with an interior test, the two partial vectors of
// each row at the checked body's dearest path (a row's length is the static ndrange's, else
// `nominal_row`). The cheapest coarsened plan is chosen; the device's is priced beside them but
// made only where no coarsened plan is legal (every kernel measured ran faster coarsened). The
// chosen plan is then made again on the module itself: the coarsener is deterministic, so it
// makes the code that was priced.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "jit/coarsen/coarsen.hpp"

namespace llvm {
class Module;
}

namespace spvjit::detail {

enum class PlanKind { device, vectors, strips };

struct PricedPlan {
  PlanKind kind = PlanKind::device;
  unsigned dimension = 0;
  /// What the coarsener made of the copy (width 1 for the device's plan).
  CoarsenResult made;
  double cost = 0;  ///< per index of the launch, in path_cost's units
};

struct PlanChoice {
  /// Every plan the kernel may run by, the chosen first, then by price (the device's always
  /// among them unless the kernel is declared elementwise and a coarsened plan exists).
  std::vector<PricedPlan> plans;
  /// The coarsener's results in dimension 0 and 1 where it made nothing (their reasons), for
  /// the log and for a kernel declared elementwise.
  CoarsenResult dimension_0, dimension_1;
  bool tried_dimension_1 = false;
  double row = 0;  ///< the row length the partial vectors were priced at
  /// The coarsener can make one plan at most (vectors in dimension 0: no strips, no dimension 1
  /// to try): nothing to choose among, so nothing was made on a copy. The caller makes it on the
  /// module and may price it there (price_made); `plans` holds the device's alone, unpriced.
  bool one_plan = false;
  /// The device's plan priced below every coarsened one; the cheapest coarsened was chosen
  /// anyway (the device's is made only where nothing else is legal, or asked for).
  bool device_priced_lower = false;
  /// The plan the order would make: the coarsener's first in dimension 0 (strips where it makes
  /// them), else in dimension 1, else the device's.
  PricedPlan by_order;
  const PricedPlan& chosen() const { return plans.front(); }
};

/// Indices per row assumed where the ndrange is dynamic.
inline constexpr double nominal_row = 1024;

/// What the pricing may offer, and a plan wanted whatever its price where it is legal (for
/// measuring one plan against another: SPVJIT_PLAN=device, vectors, strips, vectors-1,
/// strips-1); where it is not, the cheapest is chosen as without it.
struct PlanRequest {
  /// Dimension 1 priced too, where get_global_id(1) reaches more than a comparison.
  bool dimension_1 = false;
  bool declared_elementwise = false;  ///< the device's plan only where nothing else is legal
  std::optional<PlanKind> wanted;     ///< chosen where legal, before any cheaper plan
  unsigned wanted_dimension = 0;
};

/// The plans `def`'s kernel in `m` (specialized for `spec`) could run by under `target`, priced.
/// `m` is left as it was.
PlanChoice price_plans(llvm::Module& m, const KernelModule& def, const Specialization& spec,
                       const CoarsenTarget& target, const PlanRequest& request);

/// The device's plan for `def`'s kernel in `m`, priced (before coarsening).
PricedPlan price_device(const llvm::Module& m, const KernelModule& def);

/// The plan the coarsener made on `m` (`made`, from coarsen_elementwise in dimension 0), priced
/// there: for PlanChoice::one_plan.
PricedPlan price_made(const llvm::Module& m, const KernelModule& def, const Specialization& spec,
                      const CoarsenResult& made);

/// The coarsener's target that makes `plan` (strips off for vectors).
CoarsenTarget target_for(const PricedPlan& plan, CoarsenTarget target);

/// "strips in dimension 0 at 0.41 per index; vectors in dimension 0 at 0.62; the device's
/// work-items at 5.10 (rows of 1024 indices assumed)", for the log.
std::string describe(const PlanChoice& choice);

}  // namespace spvjit::detail
