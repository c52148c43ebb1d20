// A kernel's interface, as every layer sees it (no LLVM, no OpenCL): what its definition fixed
// (KernelBuilder::finish, or kernel_from_bitcode) and every later stage reads — the pipeline's
// passes, the disk cache's key and the launch. ir/kernel_module.hpp adds the module itself;
// runtime/launch_state.hpp's KernelFacts add what one compile learned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/bounds.hpp"
#include "common/shape_args.hpp"
#include "spvjit/ndrange.hpp"
#include "spvjit/signature.hpp"

namespace spvjit::detail {

/// One hidden argument of a kernel, and what a launch passes in it.
struct HiddenArg {
  enum class Kind : std::uint8_t {
    NdRange,  ///< the ndrange's extent in dimension `of`
    Extent,   ///< the elements pointer or local parameter `of` reaches (bounds checks)
    Record,   ///< the bounds record's address (common/bounds.hpp), set once per kernel
    FastEnd,  ///< the least Extent and the ndrange's extent in the coarsened dimension (0 unless
              ///< EntryLaunch::coarsen_dimension says 1; common/bounds.hpp)
    Shape,    ///< shape_args[of] (common/shape_args.hpp)
  };
  Kind kind;
  unsigned of = 0;
};

/// Where the hidden arguments sit in the kernel's OpenCL signature, after the user's
/// parameters, in this order: the dynamic ndrange (3 x i64), the bounds checks' extents (one i64
/// per pointer or local parameter, in parameter order), the record's address and the fast end
/// (common/bounds.hpp), then the shape arguments (common/shape_args.hpp). Computed once, by
/// layout(), where the definition is made; the builder adds the arguments in `sequence`'s
/// order, the launch fills them in that order, and every stage reads the indices from here.
struct HiddenArgs {
  static constexpr unsigned none = ~0u;
  unsigned ndrange = none;       ///< the first of hidden_ndrange_params
  unsigned first_extent = none;  ///< bounds-checked kernels only, as are the next two
  unsigned record = none;
  unsigned fast_end = none;
  unsigned first_shape = none;  ///< where the shape arguments start (also when there are none)
  unsigned count = 0;           ///< every argument, the user's included
  /// Every hidden argument in order: sequence[k] is argument params.size() + k.
  std::vector<HiddenArg> sequence;

  /// The layout for `params` and the hidden arguments a definition adds.
  static HiddenArgs layout(std::span<const Param> params, bool ndrange, bool bounds_checked,
                           std::size_t shape_args) {
    HiddenArgs h;
    const auto add = [&h](HiddenArg::Kind kind, unsigned of) { h.sequence.push_back({kind, of}); };
    const auto user = static_cast<unsigned>(params.size());
    if (ndrange) {
      h.ndrange = user;
      for (unsigned d = 0; d < hidden_ndrange_params; ++d) add(HiddenArg::Kind::NdRange, d);
    }
    if (bounds_checked) {
      h.first_extent = user + static_cast<unsigned>(h.sequence.size());
      for (unsigned p = 0; p < params.size(); ++p) {
        if (has_extent(params[p])) add(HiddenArg::Kind::Extent, p);
      }
      h.record = user + static_cast<unsigned>(h.sequence.size());
      add(HiddenArg::Kind::Record, 0);
      h.fast_end = user + static_cast<unsigned>(h.sequence.size());
      add(HiddenArg::Kind::FastEnd, 0);
    }
    h.first_shape = user + static_cast<unsigned>(h.sequence.size());
    for (unsigned k = 0; k < shape_args; ++k) add(HiddenArg::Kind::Shape, k);
    h.count = user + static_cast<unsigned>(h.sequence.size());
    return h;
  }

  /// A device function's layout (ir/function.cpp), after its `user` parameters: the extent of
  /// each pointer parameter (`pointer[p]`), in parameter order, then the record's address. A
  /// device function has no ndrange, fast end or shapes of its own: its kernel has those.
  static HiddenArgs device_function(const std::vector<bool>& pointer) {
    HiddenArgs h;
    const auto user = static_cast<unsigned>(pointer.size());
    h.first_extent = user;
    for (unsigned p = 0; p < user; ++p) {
      if (pointer[p]) h.sequence.push_back({HiddenArg::Kind::Extent, p});
    }
    h.record = user + static_cast<unsigned>(h.sequence.size());
    h.sequence.push_back({HiddenArg::Kind::Record, 0});
    h.count = user + static_cast<unsigned>(h.sequence.size());
    return h;
  }

  /// The index of parameter `param`'s bounds extent (has_extent(params[param]) must hold).
  unsigned extent_of(std::span<const Param> params, unsigned param) const {
    unsigned index = first_extent;
    for (unsigned i = 0; i < param; ++i) index += has_extent(params[i]);
    return index;
  }
};

/// What a kernel's definition says about it, for every stage after it.
struct KernelInterface {
  std::string name;
  std::vector<Param> params;
  /// Work-items past the ndrange do no harm (the kernel reads in_ndrange()/ndrange(), or
  /// declared allow_padding()): launches may pad the ndrange to whole work-groups; else every
  /// workgroup must divide it.
  bool pads_safely = false;
  /// KernelBuilder::work_per_item: how many indices' work one work-item does, for dispatch.
  std::size_t work_per_item = 1;
  /// Bytes of the kernel's own local arrays (local_array). PoCL's CPU device puts them after the
  /// LocalMemory arguments in one region of the device's local memory and aborts the process
  /// when they do not fit (pocl_setup_kernel_arg_array_with_locals), so the compile and each
  /// launch check the sum. CL_KERNEL_LOCAL_MEM_SIZE would say it, but PoCL 6.0 reports 0.
  std::uint64_t static_local_bytes = 0;
  /// KernelBuilder::workgroup: the workgroup the kernel was built for (its local arrays may be
  /// sized from it), which Jit::compile takes as the static one.
  std::optional<WorkGroup> declared_workgroup;
  /// Describes each bounds check of a bounds_checked() kernel, for the host's message.
  std::vector<BoundsSite> bounds_sites;
  /// The hidden shape arguments, in order, which each launch fills in from its arguments.
  std::vector<ShapeArg> shape_args;
  /// Raw modules: the parameters every work-item indexes at get_global_id(0), whose extent a
  /// launch checks against the ndrange (jit/bounds/raw_bounds.hpp).
  std::vector<unsigned> extent_covers_ndrange;
  /// The kernel calls printf (print()): a launch flushes the host's buffered stdout first, so
  /// that PoCL's output, written straight to file descriptor 1, keeps the program's order.
  bool prints = false;
  /// The hidden arguments' indices (layout() of the fields above).
  HiddenArgs hidden;

  /// The kernel reads its ndrange (ndrange(), in_ndrange()): it takes it as hidden arguments.
  bool hidden_ndrange() const { return hidden.ndrange != HiddenArgs::none; }
  /// The kernel checks its accesses: it takes the hidden extents, record and fast end
  /// (common/bounds.hpp).
  bool bounds_checked() const { return hidden.record != HiddenArgs::none; }
};

}  // namespace spvjit::detail
