#include "jit/coarsen/plans.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include "jit/coarsen/path_cost.hpp"
#include "jit/coarsen/swap_dimensions.hpp"

namespace spvjit::detail {
namespace {

// What PoCL's work-group loop adds to each index of the device's plan: its counter's step and
// test (a work-item of the coarsened plans pays the same, counted in the dispatcher's cost).
constexpr double device_item_overhead = 2;

// The function of `m` whose name is `kernel` + `suffix`; null when the coarsener made none.
const llvm::Function* helper(const llvm::Module& m, const std::string& kernel,
                             const std::string& suffix) {
  const llvm::Function* f = m.getFunction(kernel + suffix);
  return f && !f->isDeclaration() ? f : nullptr;
}

struct Trial {
  std::unique_ptr<llvm::Module> module;
  CoarsenResult made;
};

Trial make_on_copy(const llvm::Module& m, const KernelModule& def, const Specialization& spec,
                   const CoarsenTarget& target, unsigned dimension) {
  Trial t;
  t.module = llvm::CloneModule(m);
  t.made = dimension == 0 ? coarsen_elementwise(*t.module, def, spec, target)
                          : coarsen_dimension_1(*t.module, def, spec, target);
  return t;
}

// The price per index of the coarsened plan `made` in `copy`; `interior`: the kernel has an
// interior test, so a plan of plain vectors runs each row's end vectors masked.
double coarsened_cost(const llvm::Module& copy, const std::string& name, const CoarsenResult& made,
                      bool interior, double row) {
  const double width = made.width;
  const double vectors = std::max(made.vectors, 1u);
  const std::string w = ".w" + std::to_string(made.width);
  const llvm::Function* dispatcher = copy.getFunction(name);
  PathCostOptions own;
  own.follow_calls = false;
  own.loop_trips = vectors;
  const double dispatch = dispatcher ? path_cost(*dispatcher, own).working : 0;
  const double per_item = dispatch / (vectors * width);
  if (made.strips) {
    const llvm::Function* strip = helper(copy, name, ".interior.strip" + w);
    const double body = strip ? path_cost(*strip).working : 0;
    // The last vector of a strip overlaps its neighbour: U + 1 vectors for U vectors' indices.
    return body * (vectors + 1) / (vectors * width) + per_item;
  }
  const llvm::Function* checked = helper(copy, name, ".vector" + w);
  const llvm::Function* fast = helper(copy, name, ".fast" + w);
  const double full = fast ? path_cost(*fast).working : checked ? path_cost(*checked).working : 0;
  double per_index = full / width;
  if (interior && checked) {
    const double partial = std::min(1.0, 2 * width / row);
    per_index = ((1 - partial) * full + partial * path_cost(*checked).dearest) / width;
  }
  return per_index + per_item;
}

// The plan the coarsener made in `m` (`made`), priced.
PricedPlan priced(const llvm::Module& m, const std::string& name, const CoarsenResult& made,
                  bool interior, double row) {
  PricedPlan plan;
  plan.kind = made.strips ? PlanKind::strips : PlanKind::vectors;
  plan.dimension = made.dimension;
  plan.made = made;
  plan.cost = coarsened_cost(m, name, made, interior, row);
  return plan;
}

const char* kind_name(PlanKind kind) {
  switch (kind) {
    case PlanKind::device:
      return "the device's work-items";
    case PlanKind::vectors:
      return "vectors";
    case PlanKind::strips:
      return "strips";
  }
  return "?";
}

double row_length(const Specialization& spec, unsigned dimension) {
  return spec.ndrange && spec.ndrange->size[dimension] ? double(spec.ndrange->size[dimension])
                                                       : nominal_row;
}

}  // namespace

PlanChoice price_plans(llvm::Module& m, const KernelModule& def, const Specialization& spec,
                       const CoarsenTarget& target, const PlanRequest& request) {
  const bool dimension_1 = request.dimension_1 && global_id_reaches_beyond_compares(m, 1);
  PlanChoice choice;
  choice.row = row_length(spec, 0);
  if (!request.wanted && !dimension_1 && !may_run_strips(m, def, spec, target)) {
    choice.one_plan = true;
    choice.plans = {PricedPlan{}};  // the device's, not priced
    return choice;
  }
  const PricedPlan device = price_device(m, def);
  std::vector<PricedPlan> coarsened;
  const unsigned dimensions = dimension_1 ? 2 : 1;
  choice.tried_dimension_1 = dimension_1;
  for (unsigned d = 0; d < dimensions; ++d) {
    const double row = row_length(spec, d);
    Trial first = make_on_copy(m, def, spec, target, d);
    if (first.made.width < 2) {
      (d == 0 ? choice.dimension_0 : choice.dimension_1) = first.made;
      continue;
    }
    // An interior test: strips were made, or refused for the kernel's sake (its lanes may not
    // run twice); either way plain vectors mask each row's first and last.
    const bool interior = first.made.strips || !first.made.strips_refused.empty();
    coarsened.push_back(priced(*first.module, def.name, first.made, interior, row));
    if (first.made.strips) {
      CoarsenTarget plain = target;
      plain.strip_vectors = 0;
      Trial vectors = make_on_copy(m, def, spec, plain, d);
      if (vectors.made.width > 1) {
        coarsened.push_back(priced(*vectors.module, def.name, vectors.made, interior, row));
      }
    }
  }
  choice.by_order = coarsened.empty() ? device : coarsened.front();
  choice.plans = coarsened;
  if (!request.declared_elementwise || coarsened.empty()) choice.plans.push_back(device);
  // Ties keep the order above: strips before vectors, dimension 0 before 1, the device last.
  std::stable_sort(choice.plans.begin(), choice.plans.end(),
                   [](const PricedPlan& a, const PricedPlan& b) { return a.cost < b.cost; });
  if (request.wanted) {
    const auto wanted = std::find_if(choice.plans.begin(), choice.plans.end(), [&](const auto& p) {
      return p.kind == *request.wanted &&
             (p.kind == PlanKind::device || p.dimension == request.wanted_dimension);
    });
    if (wanted != choice.plans.end()) {
      std::rotate(choice.plans.begin(), wanted, wanted + 1);
      return choice;
    }
  }
  // The device's plan is made only where no coarsened plan is legal (or asked for): every
  // measured kernel ran faster coarsened (docs/performance.md, "Step 2"), and where the prices
  // put the device first (2-lane vectors under lane masks) the times were not measured.
  if (choice.plans.front().kind == PlanKind::device && choice.plans.size() > 1) {
    std::rotate(choice.plans.begin(), choice.plans.begin() + 1, choice.plans.begin() + 2);
    choice.device_priced_lower = true;
  }
  return choice;
}

PricedPlan price_device(const llvm::Module& m, const KernelModule& def) {
  PricedPlan device;
  if (const llvm::Function* kernel = m.getFunction(def.name); kernel && !kernel->isDeclaration()) {
    device.cost = path_cost(*kernel).working + device_item_overhead;
  }
  return device;
}

PricedPlan price_made(const llvm::Module& m, const KernelModule& def, const Specialization& spec,
                      const CoarsenResult& made) {
  return priced(m, def.name, made, false, row_length(spec, made.dimension));
}

CoarsenTarget target_for(const PricedPlan& plan, CoarsenTarget target) {
  if (plan.kind == PlanKind::vectors) target.strip_vectors = 0;
  return target;
}

std::string describe(const PlanChoice& choice) {
  std::string text;
  char cost[32];
  for (const PricedPlan& plan : choice.plans) {
    if (!text.empty()) text += "; ";
    std::snprintf(cost, sizeof cost, "%.2f", plan.cost);
    text += kind_name(plan.kind);
    if (plan.kind != PlanKind::device) {
      text += " in dimension " + std::to_string(plan.dimension) + " (" +
              std::to_string(plan.made.vectors) + " x " + std::to_string(plan.made.width) + ")";
    }
    text += std::string(" at ") + cost;
  }
  std::snprintf(cost, sizeof cost, "%.0f", choice.row);
  text += std::string(" per index (rows of ") + cost + " indices)";
  if (choice.device_priced_lower) {
    text += ", the device's priced lowest but made only where nothing else is legal";
  }
  const PricedPlan& chosen = choice.chosen();
  if (chosen.kind != choice.by_order.kind || chosen.dimension != choice.by_order.dimension) {
    text += std::string(", not the order's ") + kind_name(choice.by_order.kind);
    if (choice.by_order.kind != PlanKind::device) {
      text += " in dimension " + std::to_string(choice.by_order.dimension);
    }
  }
  return text;
}

}  // namespace spvjit::detail
