// The names of the lowering's steps, one list: jit/pipeline.cpp runs each under its name (the
// SPVJIT_DUMP_IR files, the SPVJIT_LOG lines) and spvjit_pass (test/pass_runner.cpp) takes the
// same name, so that a FileCheck test under test/passes/ runs the step the pipeline runs. A
// variant of a step that only spvjit_pass offers is the step's name and a suffix naming what it
// fixes (`group-loops-8x2`, `lower-float-atomics-none`).
#pragma once

namespace spvjit::detail::step {

// A raw module's legalization (legalize_raw_module), in this order; spvjit_pass runs them all as
// `legalize-raw-module`, and each alone.
inline constexpr const char* legalize_raw_module = "legalize-raw-module";
inline constexpr const char* drop_freeze = "drop-freeze";
inline constexpr const char* expand_intrinsics = "expand-intrinsics";
inline constexpr const char* expand_bool_vector_bitcasts = "expand-bool-vector-bitcasts";
inline constexpr const char* scalarize_odd_vectors = "scalarize-odd-vectors";
inline constexpr const char* promote_odd_integers = "promote-odd-integers";
inline constexpr const char* drop_unused_intrinsics = "drop-unused-intrinsics";

// A kernel's lowering (lower_and_translate), in this order.
inline constexpr const char* specialize = "specialize";
inline constexpr const char* fast_math_build_options = "fast-math-build-options";
inline constexpr const char* canonicalize = "canonicalize";
inline constexpr const char* approximate_functions = "approximate-functions";
inline constexpr const char* fuse_fmuladd = "fuse-fmuladd";
inline constexpr const char* remove_bounds_checks = "remove-bounds-checks";
inline constexpr const char* hoist_loop_bounds_checks = "hoist-loop-bounds-checks";
inline constexpr const char* drop_proven_bounds_checks = "drop-proven-bounds-checks";
inline constexpr const char* unroll_private_array_loops = "unroll-private-array-loops";
inline constexpr const char* promote_private_arrays = "promote-private-arrays";
inline constexpr const char* coarsen = "coarsen";
inline constexpr const char* coarsen_dimension_1 = "coarsen-dimension-1";
inline constexpr const char* merge_bounds_checks = "merge-bounds-checks";
inline constexpr const char* cse = "cse";
inline constexpr const char* lower_bounds_checks = "lower-bounds-checks";
inline constexpr const char* group_loops = "group-loops";
inline constexpr const char* hoist_region_bounds_checks = "hoist-region-bounds-checks";
inline constexpr const char* lower_float_atomics = "lower-float-atomics";
inline constexpr const char* split_wide_builtin_calls = "split-wide-builtin-calls";
// What the compile refuses on this device, shown the lowered module (JitCore's barrier-tail
// check, jit/device/barrier_tails.hpp): a step that reads the module.
inline constexpr const char* device_refusals = "device-refusals";
inline constexpr const char* translate = "translate";
inline constexpr const char* offset_safety = "offset-safety";

}  // namespace spvjit::detail::step
