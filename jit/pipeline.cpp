// The passes, in order (jit/pipeline.hpp says where each stage starts). Each pass is a function
// in a file of its own; this file alone decides which run, when, and in what order.
#include "jit/pipeline.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <utility>

#include "common/error_report.hpp"
#include "common/log.hpp"
#include "ir/analysis/group_stack.hpp"
#include "ir/bounds.hpp"
#include "ir/canonical_form.hpp"
#include "ir/cse.hpp"
#include "ir/approximate_math.hpp"
#include "ir/fast_math.hpp"
#include "ir/pass_runner.hpp"
#include "ir/promote_variables.hpp"
#include "ir/unroll_array_loops.hpp"
#include "jit/bounds/bounds_lowering.hpp"
#include "jit/bounds/hoist_bounds.hpp"
#include "jit/bounds/merge_bounds.hpp"
#include "jit/bounds/proven_bounds.hpp"
#include "jit/coarsen/swap_dimensions.hpp"
#include "jit/device/float_atomics.hpp"
#include "jit/device/fuse_fmuladd.hpp"
#include "jit/device/split_vector_calls.hpp"
#include "jit/legalize/bool_bitcasts.hpp"
#include "jit/legalize/drop_freeze.hpp"
#include "jit/legalize/drop_unused_intrinsics.hpp"
#include "jit/legalize/expand_intrinsics.hpp"
#include "jit/legalize/promote_integers.hpp"
#include "jit/legalize/scalarize_vectors.hpp"
#include "jit/specialize.hpp"
#include "jit/steps.hpp"
#include "jit/spirv/offset_safety.hpp"
#include "jit/spirv/translate.hpp"
#include "jit/workgroup/group_loops.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

std::string describe(const Specialization& spec) {
  return "(workgroup " + (spec.workgroup ? spec.workgroup->to_string() : std::string("dynamic")) +
         ", ndrange " + (spec.ndrange ? spec.ndrange->to_string() : std::string("dynamic")) + ")";
}

void legalize_raw_module(llvm::Module& m, Where where) {
  PassRunner passes(m, where.to_string());
  passes.run(step::drop_freeze, drop_freeze);
  passes.run(step::expand_intrinsics, [](llvm::Module& m) { expand_untranslatable_intrinsics(m); });
  passes.run(step::expand_bool_vector_bitcasts,
             [](llvm::Module& m) { expand_bool_vector_bitcasts(m); });
  passes.run(step::scalarize_odd_vectors,
             [&](llvm::Module& m) { scalarize_odd_vectors(m, where); });
  passes.run(step::promote_odd_integers, [&](llvm::Module& m) { promote_odd_integers(m, where); });
  passes.run(step::drop_unused_intrinsics, [](llvm::Module& m) { drop_unused_intrinsics(m); });
}

namespace {

// The coarsening steps with the plan chosen by cost (jit/coarsen/plans.hpp): every plan the
// coarsener can make priced on copies, the cheapest made on `module` (in the coarsen step, or
// the dimension-1 step for a plan there). What the steps made, as the order's steps report it.
CoarsenResult coarsen_by_cost(PassRunner& passes, const std::string& subject,
                              const KernelModule& def, const Specialization& spec,
                              const LoweringTarget& target) {
  PlanChoice choice;
  CoarsenResult r;
  passes.run(step::coarsen, [&](llvm::Module& m) {
    PlanRequest request;
    request.dimension_1 = target.coarsen_dimension_1;
    request.declared_elementwise = def.declared_elementwise;
    request.wanted = target.wanted_plan;
    request.wanted_dimension = target.wanted_plan_dimension;
    choice = price_plans(m, def, spec, target.coarsening, request);
    if (choice.one_plan) {
      // Priced for the log only: a 1000-statement kernel's prices cost 11-14 ms.
      const bool logged = log_enabled(LogLevel::Debug);
      const PricedPlan device = logged ? price_device(m, def) : PricedPlan{};
      r = coarsen_elementwise(m, def, spec, target.coarsening);
      if (r.width > 1 && logged) {
        choice.plans = {price_made(m, def, spec, r), device};
        choice.by_order = choice.plans.front();
        SPVJIT_LOG_DEBUG(subject + ": plans by cost: " + describe(choice) +
                         "; the only plan the coarsener makes, made without a copy");
      }
      return;
    }
    SPVJIT_LOG_DEBUG(subject + ": plans by cost: " + describe(choice));
    const PricedPlan& best = choice.chosen();
    if (best.kind != PlanKind::device && best.dimension == 0) {
      r = coarsen_elementwise(m, def, spec, target_for(best, target.coarsening));
    }
  });
  if (choice.one_plan) return r;  // made as the order makes it, or left with its reason
  const PricedPlan& best = choice.chosen();
  if (best.kind != PlanKind::device && best.dimension == 1) {
    passes.run(step::coarsen_dimension_1, [&](llvm::Module& m) {
      r = coarsen_dimension_1(m, def, spec, target_for(best, target.coarsening));
    });
  }
  if (best.kind != PlanKind::device) return r;
  // Left to the device: asked for (a coarsened plan was legal), or the coarsener's reasons where
  // it made nothing, as the order says them.
  if (choice.plans.size() > 1 && target.wanted_plan == PlanKind::device) {
    r = {1, "was asked to run as the device's work-items (SPVJIT_PLAN=device)", true};
    return r;
  }
  r = choice.dimension_0;
  if (choice.tried_dimension_1) {
    r.reason += "; nor in dimension 1, where (dimensions 0 and 1 exchanged) it " +
                choice.dimension_1.reason;
  }
  return r;
}

// Stage 2 after specialize: the passes on `module`, run by `passes`; what they decided for the
// launch (all but runs_with_offsets, which the SPIR-V tells).
EntryLaunch lower(llvm::Module& module, PassRunner& passes, const std::string& subject,
                  const KernelModule& def, const Specialization& spec,
                  const LoweringTarget& target) {
  EntryLaunch launch;
  // First: every pass after it, coarsening included, keeps the flags it puts on.
  if (target.fast_math != FastMath::none) {
    passes.run(step::fast_math_build_options,
               [&](llvm::Module& m) { add_fast_math_flags(m, to_llvm(target.fast_math)); });
  }
  // The form the passes below take a builder kernel in (ir/canonical_form.hpp); a raw module's
  // kernels come from compilers that leave their own.
  if (!def.raw) {
    passes.run(step::canonicalize, [&](llvm::Module& m) {
      if (auto* kernel = m.getFunction(def.name)) canonicalize(*kernel);
    });
  }
  // Before coarsening, which then vectorizes the arithmetic with the rest of the kernel; only
  // where a call carries the flag, so that other kernels keep their steps' numbers.
  const auto approximable = [](const llvm::Module& m) {
    return std::any_of(m.begin(), m.end(), [](const llvm::Function& f) {
      return !f.isDeclaration() && has_approximable_math_calls(f);
    });
  };
  if (target.approximate_functions && approximable(module)) {
    passes.run(step::approximate_functions, [&](llvm::Module& m) {
      unsigned n = 0;
      for (llvm::Function& f : m) {
        if (!f.isDeclaration()) n += approximate_math_calls(f);
      }
      if (n)
        SPVJIT_LOG_DEBUG(subject + ": " + std::to_string(n) +
                         " exp, log and erfc calls approximated inline");
    });
  }
  passes.run(step::fuse_fmuladd,
             [&](llvm::Module& m) { fuse_fmuladd(m, target.fma_f32, target.fma_f64); });
  if (!target.bounds_checks) {
    passes.run(step::remove_bounds_checks, remove_bounds_checks);
  } else {
    passes.run(step::hoist_loop_bounds_checks, [&](llvm::Module& m) {
      if (auto* kernel = m.getFunction(def.name)) hoist_loop_bounds_checks(*kernel);
    });
    // Before coarsening: a check it drops costs neither the full vectors nor the partial ones
    // at a row's ends (docs/performance.md, "Stencils at loop speed").
    if (!def.raw) {
      passes.run(step::drop_proven_bounds_checks, [&](llvm::Module& m) {
        llvm::Function* kernel = m.getFunction(def.name);
        if (!kernel) return;
        const unsigned dropped = drop_proven_bounds_checks(*kernel, shaped_params(*kernel, def));
        SPVJIT_LOG_DEBUG(subject + ": " + std::to_string(dropped) +
                         " bounds checks proven by the kernel's conditions");
      });
    }
  }
  // A raw module's kernels share one program: none is rewritten for its own geometry (nor
  // could be: they read get_global_size, not spvjit's ndrange).
  if (target.coarsen && !def.raw) {
    // Before promoting them: a loop of a few trips over a work-item's private arrays (KA's
    // `@simd for i in 1:PPWI`) leaves each access at a constant element once unrolled.
    passes.run(step::unroll_private_array_loops, [&](llvm::Module& m) {
      llvm::Function* kernel = m.getFunction(def.name);
      if (!kernel || kernel->isDeclaration()) return;
      if (const unsigned n = unroll_private_array_loops(*kernel)) {
        SPVJIT_LOG_DEBUG(subject + ": " + std::to_string(n) +
                         " loops over private arrays unrolled");
      }
    });
    // Before coarsening, which takes private variables but not private arrays: an array read and
    // written only at constant elements is variables (a work-item's poses, KA's MArray).
    passes.run(step::promote_private_arrays, [&](llvm::Module& m) {
      llvm::Function* kernel = m.getFunction(def.name);
      if (!kernel || kernel->isDeclaration()) return;
      if (const unsigned n = promote_constant_indexed_arrays(*kernel)) {
        SPVJIT_LOG_DEBUG(subject + ": " + std::to_string(n) +
                         " private arrays of constant indices made variables");
      }
    });
    CoarsenResult r;
    if (target.plan_by_cost) {
      r = coarsen_by_cost(passes, subject, def, spec, target);
    } else {
      passes.run(step::coarsen, [&](llvm::Module& m) {
        r = coarsen_elementwise(m, def, spec, target.coarsening);
      });
    }
    // OpenCL C's row-major habit: dimension 0 walks the rows and get_global_id(1) is the
    // contiguous index, so dimension 0 would load one element per lane (issue #65, step 3).
    if (!target.plan_by_cost && r.width == 1 && target.coarsen_dimension_1 &&
        queries_dimension(module, 1)) {
      CoarsenResult along_1;
      passes.run(step::coarsen_dimension_1, [&](llvm::Module& m) {
        along_1 = coarsen_dimension_1(m, def, spec, target.coarsening);
      });
      if (along_1.width > 1) {
        r = along_1;
      } else {
        // The reason as the coarsener read the kernel: with dimensions 0 and 1 exchanged.
        r.reason +=
            "; nor in dimension 1, where (dimensions 0 and 1 exchanged) it " + along_1.reason;
      }
    }
    launch.coarsen = r.width * r.vectors;
    launch.coarsen_dimension = r.dimension;
    launch.coarsen_groups = r.groups;
    launch.index_bits = r.index_bits;
    if (r.width > 1) {
      SPVJIT_LOG_DEBUG(
          subject + ": coarsened" +
          (r.dimension ? " in dimension " + std::to_string(r.dimension) : "") + ", " +
          std::to_string(r.width * r.vectors) + " indices per work-item (" +
          std::to_string(r.vectors) + " x " + std::to_string(r.width) + " lanes)" +
          (r.lane_accesses ? ", " + std::to_string(r.lane_accesses) +
                                 " loads and stores of one element per lane"
                           : std::string()) +
          (r.lane_calls ? ", " + std::to_string(r.lane_calls) + " math calls once per lane"
                        : std::string()) +
          (r.work_item_tests ? ", " + std::to_string(r.work_item_tests) +
                                   " global-id checks tested once per work-item"
                             : std::string()) +
          (r.strips ? ", strips from the interior test's first index" : std::string()) +
          (r.groups ? ", in groups: each work-item stands for " + std::to_string(r.width) +
                          " of its group, whose dimension 0 is divided by as many"
                    : std::string()) +
          (!r.strips_refused.empty() ? ", no strips: it " + r.strips_refused : std::string()) +
          (r.index_bits ? "; its 32-bit narrowing of the coarsened dimension's "
                          "global id taken for the id: its ndrange at most 2^" +
                              std::to_string(r.index_bits)
                        : std::string()));
    } else if (def.declared_elementwise && !r.device_limited) {
      // The user's declaration against what the pass found: a decision of the compile, not a
      // step of the list, so it is taken after the step (logged and dumped as it ran).
      user_error({"compile", def.name})
          << "as specialized " << describe(spec)
          << ", the kernel is declared elementwise() but cannot be coarsened: it " << r.reason
          << ". Index memory by global_index(0) plus values uniform across work-items and "
             "guard stores with in_ndrange(), or drop the declaration";
    } else {
      // At info, as docs/environment.md says: the reason is what a port needs to change.
      SPVJIT_LOG_INFO(subject + ": not coarsened: " + r.reason);
    }
  }
  passes.run(step::merge_bounds_checks, merge_bounds_checks);
  // Equal computations the merged checks no longer separate, and those coarsening repeats in
  // its bodies, made one value each (ir/cse.hpp).
  passes.run(step::cse, [](llvm::Module& m) {
    for (auto& f : m) {
      if (!f.isDeclaration()) promote_and_cse(f);
    }
  });
  passes.run(step::lower_bounds_checks,
             [&](llvm::Module& m) { lower_bounds_checks(m, launch.coarsen_dimension); });
  // After the checks are lowered: merging them treats a kernel without barriers as one whose
  // work-items may stop at a failing access, which the group's loop must not.
  // A kernel coarsened in groups runs its groups of coarsened work-items so (its dimension 0
  // divided by the coarsening).
  if (target.group_loops && !def.raw && (launch.coarsen == 1 || launch.coarsen_groups) &&
      spec.workgroup) {
    WorkGroup group = *spec.workgroup;
    if (launch.coarsen_groups) group.size[0] /= launch.coarsen;
    passes.run(step::group_loops, [&](llvm::Module& m) {
      llvm::Function* kernel = m.getFunction(def.name);
      if (!kernel) return;
      GroupLoopOptions options;
      options.cut_uniform_loops = target.group_uniform_loops;
      options.grid_stride = target.group_grid_stride;
      const GroupLoopsResult r = run_group_in_one_item(*kernel, group, options);
      launch.group_per_item = r.applied;
      for (const std::string& refusal : r.grid_stride_refusals) {
        SPVJIT_LOG_DEBUG(subject + ": grid-stride " + refusal + "; left to each work-item");
      }
      if (!r.applied) {
        SPVJIT_LOG_DEBUG(subject + ": work-group left to the device: it " + r.reason);
        return;
      }
      // How the group runs: what a port reading the log needs to place its time.
      std::string how = ": one work-item per work-group, " + std::to_string(r.regions) +
                        " loops over its work-items (one per region between barriers), " +
                        std::to_string(r.slots) + " values kept per work-item across barriers (" +
                        std::to_string(r.slot_bytes) + " bytes per group), " +
                        std::to_string(r.kept_once) + " kept once per group";
      if (r.uniform_loops_cut) {
        how += ", " + std::to_string(r.uniform_loops_cut) + " uniform loops outside its work-items";
      }
      if (r.grid_stride_loops) {
        how += " (" + std::to_string(r.grid_stride_loops) +
               " of them grid-stride loops, versioned on their counter not wrapping)";
      }
      SPVJIT_LOG_DEBUG(subject + how);
    });
    if (launch.group_per_item && target.bounds_checks) {
      passes.run(step::hoist_region_bounds_checks, [&](llvm::Module& m) {
        if (auto* kernel = m.getFunction(def.name)) {
          const unsigned loops = hoist_loop_bounds_checks(*kernel, CheckForm::Lowered);
          SPVJIT_LOG_DEBUG(subject + ": bounds checks tested once before " + std::to_string(loops) +
                           " of its work-group loops");
        }
      });
    }
  }
  passes.run(step::lower_float_atomics,
             [&](llvm::Module& m) { lower_float_atomics(m, target.float_atomics); });
  if (target.split_wide_builtins) {
    passes.run(step::split_wide_builtin_calls,
               [](llvm::Module& m) { split_wide_builtin_calls(m, max_builtin_vector_bits); });
  }
  // A coarsened body holds W-lane values and lane buffers where the builder's kernel held
  // scalars: the group's size must fit what PoCL will keep per work-item of the lowered kernel,
  // not the builder's (issue #46: 8.9 MB groups on an 8 MiB stack).
  if (launch.coarsen > 1) {
    std::uint64_t bytes = stack_bytes_per_work_item(module, def.name);
    // In groups, a lowered work-item stands for W of the kernel's, or for its whole group once
    // the group loops run it (their slots for every work-item on its stack), and the geometry
    // counts the kernel's own work-items: per one of those (G = 512 at 8 lanes would otherwise
    // count a group's 14 KiB of slots 512 times, past an 8 MiB stack's budget).
    if (launch.coarsen_groups) {
      const std::uint64_t items = launch.group_per_item ? spec.workgroup->total() : launch.coarsen;
      bytes = (bytes + items - 1) / items;
    }
    launch.stack_bytes_per_item = static_cast<std::uint32_t>(
        std::min<std::uint64_t>((bytes + 15) / 16 * 16, entry_max_stack_bytes));
  }
  return launch;
}

}  // namespace

Lowered lower_and_translate(llvm::LLVMContext& context, const KernelModule& def,
                            const Specialization& spec, const LoweringTarget& target,
                            std::span<const std::string> other_kernels,
                            const std::function<void(const llvm::Module&)>& refuse) {
  const std::string subject = "kernel '" + def.name + "' " + describe(spec);
  // Parsing the definition and applying the static sizes is the stage's first pass: it makes
  // the module the others rewrite, so it is logged and dumped once that module exists.
  const auto specialize_started = PassRunner::start();
  std::unique_ptr<llvm::Module> module = specialize(context, def, spec);
  PassRunner passes(*module, subject);
  passes.ran(step::specialize, specialize_started);
  Lowered out;
  out.launch = lower(*module, passes, subject, def, spec, target);
  passes.step(step::device_refusals, [&] { refuse(*module); });
  passes.step(step::translate,
              [&] { out.words = translate_to_spirv(*module, def.name, other_kernels); });
  passes.dump_spirv(step::translate, out.words);
  passes.step(step::offset_safety, [&] {
    const std::span<const std::uint8_t> bytes(
        reinterpret_cast<const std::uint8_t*>(out.words.data()),
        out.words.size() * sizeof(out.words[0]));
    out.launch.runs_with_offsets = runs_with_offsets(bytes);
    out.launch.free_of_atomics = free_of_atomics(bytes);
  });
  return out;
}

}  // namespace spvjit::detail
