// The compile pipeline: every pass spvjit runs on a kernel's LLVM IR after its definition, in
// order, in one place (jit/pipeline.cpp). A kernel's IR goes through four stages:
//
//  1. Definition. A builder kernel: KernelBuilder::finish (ir/builder.cpp), whose list of steps
//     closes the function and fixes its interface, the hidden arguments included
//     (ir/kernel_module.hpp); it checks (values defined where used, LLVM's verifier, barriers
//     uniform) but optimizes nothing. The builder's layer cannot call this file, so that list is
//     the one place outside it; both run their steps through ir/pass_runner.hpp. A raw module:
//     kernel_from_bitcode (jit/raw_module.cpp) parses it and runs
//     legalize_raw_module() below.
//  2. Lowering, at each compile of a specialization: lower_and_translate() below, from the
//     definition's bitcode to the module the translator takes.
//  3. Translation, in the same call: jit/spirv (validate, then the translator's own program),
//     and the check of whether the SPIR-V may run split with offsets.
//  4. Build and cache: JitCore (jit/compiler.cpp) — memory table, disk cache, clBuildProgram.
//
// SPVJIT_LOG=debug logs each step and its time; SPVJIT_DUMP_IR=<dir> writes the module after
// each pass to <dir>/<module>.<id>.<NN>-<pass>.ll (a builder kernel's module is named after it),
// the definition's steps and each compile's under an <id> of their own (docs/contributing.md,
// "Reading a compile").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/error_report.hpp"
#include "ir/kernel_module.hpp"
#include "jit/cache/cache_entry.hpp"
#include "jit/coarsen/coarsen.hpp"
#include "jit/coarsen/plans.hpp"
#include "runtime/float_atomics.hpp"
#include "spvjit/fast_math.hpp"
#include "spvjit/kernel.hpp"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// What the lowering needs to know of the device and the Jit's options, settled once per Jit.
struct LoweringTarget {
  bool fma_f32 = false;  ///< llvm.fmuladd becomes llvm.fma on float (the device has CL_FP_FMA)
  bool fma_f64 = false;
  bool bounds_checks = true;  ///< checks kept (the option, and a record the host can read)
  bool coarsen = false;       ///< a CPU device and coarsening on
  CoarsenTarget coarsening;   ///< widths, the options' width and vectors, vector math
  /// With coarsening, a kernel that reads get_global_id(1) and cannot be coarsened in dimension
  /// 0 is tried in dimension 1 (jit/coarsen/swap_dimensions.hpp; on unless
  /// SPVJIT_COARSEN_DIMENSION_1 is off).
  bool coarsen_dimension_1 = false;
  /// With coarsening, the plan (the device's work-items, vectors or strips, dimension 0 or 1)
  /// is the cheapest by jit/coarsen/plans.hpp's prices rather than the first the coarsener
  /// makes in that order (on unless SPVJIT_PLAN=order; issue #65, step 2).
  bool plan_by_cost = false;
  /// With plan_by_cost, a plan taken where legal whatever its price, else the cheapest
  /// (SPVJIT_PLAN=device, vectors, strips, vectors-1, strips-1: for measuring plans).
  std::optional<PlanKind> wanted_plan;
  unsigned wanted_plan_dimension = 0;
  FloatAtomicAdd float_atomics;  ///< what the device adds natively
  /// A CPU device and JitOptions::group_loops: a work-group per work-item where it applies.
  bool group_loops = false;
  /// With group loops, loops the whole group runs alike iterate outside the loop over work-items
  /// (jit/workgroup/uniform_loops.hpp; on unless SPVJIT_GROUP_UNIFORM_LOOPS is off).
  bool group_uniform_loops = false;
  /// With uniform loops cut, grid-stride loops are moved first so that they are cut too
  /// (jit/workgroup/grid_stride.hpp; on unless SPVJIT_GROUP_GRID_STRIDE is off).
  bool group_grid_stride = false;
  bool split_wide_builtins =
      false;  ///< PoCL's wide-builtin bug (jit/device/split_vector_calls.hpp)
  /// Fast-math flags for every floating-point operation, from the OpenCL fast-math build
  /// options (jit/fast_math_options.hpp).
  FastMath fast_math = FastMath::none;
  /// Calls to exp, log and erfc with the approximate-functions flag become inline arithmetic
  /// (ir/approximate_math.hpp; on unless SPVJIT_APPROXIMATE_FUNCTIONS is off).
  bool approximate_functions = false;
};

/// "(workgroup (64,), ndrange dynamic)", for log lines and messages.
std::string describe(const Specialization& spec);

/// Stage 1 for raw modules: the foreign IR made translatable (jit/legalize/). Throws UserError,
/// starting with `where`, for what it refuses.
void legalize_raw_module(llvm::Module& m, Where where);

/// What lower_and_translate makes: the SPIR-V, and what its launch follows.
struct Lowered {
  std::vector<std::uint32_t> words;
  EntryLaunch launch;
};

/// Stages 2 and 3, as a compile runs them: `def` specialized for `spec` and lowered for
/// `target`, then `refuse` shown the lowered module (the step `device-refusals`: the compile's
/// refusals of what the device would run wrong: it throws), then translated
/// (jit/spirv/translate.hpp; `other_kernels`: a raw module's other entry points) and the SPIR-V
/// checked for offsets (jit/spirv/offset_safety.hpp). The launch facts say what the launch geometry
/// follows: how many indices one work-item runs (1: not coarsened), whether one work-item runs a
/// whole group, whether the kernel may run split with offsets. Each step is logged and dumped as
/// the passes are; the SPIR-V is dumped as <module>.<id>.<NN>-translate.spv.
Lowered lower_and_translate(llvm::LLVMContext& context, const KernelModule& def,
                            const Specialization& spec, const LoweringTarget& target,
                            std::span<const std::string> other_kernels,
                            const std::function<void(const llvm::Module&)>& refuse);

}  // namespace spvjit::detail
