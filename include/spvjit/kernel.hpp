// Kernel: a compiled, specialized kernel ready to launch. `launch` checks each argument against
// the signature and hands it to OpenCL straight from the caller's stack: a warm launch allocates
// nothing.
#pragma once

#include <concepts>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "spvjit/event.hpp"
#include "spvjit/ndrange.hpp"
#include "spvjit/runtime.hpp"
#include "spvjit/shaped.hpp"
#include "spvjit/shared_array.hpp"
#include "spvjit/signature.hpp"
#include "spvjit/view.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
class LaunchState;
struct KernelAccess;  ///< internal: the LaunchState behind a Kernel (tests, benchmarks)

/// One launch argument as the packer sees it, built on the caller's stack.
struct ArgView {
  ParamKind kind = ParamKind::Scalar;
  Scalar type = Scalar::I32;
  bool any_type = false;               ///< LocalMemory: fits any local element type
  std::size_t size = 0;                ///< bytes passed to clSetKernelArg (local: bytes reserved)
  const void* data = nullptr;          ///< scalars: the value
  _cl_mem* mem = nullptr;              ///< buffers: the handle
  const void* svm = nullptr;           ///< shared arrays: the pointer (clSetKernelArgSVMPointer)
  const RuntimeCore* owner = nullptr;  ///< buffers, views, shared arrays: their Runtime
  std::size_t count = 0;  ///< buffers, views, shared arrays: elements (for bounds checks)
  const StructLayout* struct_layout = nullptr;  ///< structs, and memory of structs: their layout
  const std::uint64_t* shape = nullptr;         ///< shaped(...): the extents, for array parameters
  unsigned rank = 0;                            ///< shaped(...): how many; 0 for unshaped memory
  /// A plain `int` or `unsigned` (what a C++ literal is): taken for any integer parameter whose
  /// type holds its value, `8` for an int64_t or a uint8_t.
  bool plain_integer = false;
};

/// What the packer compares for an element type: its scalar (structs: u8 and their layout).
template <KernelElement T>
Scalar element_scalar() {
  if constexpr (KernelStruct<T>) {
    return Scalar::U8;
  } else {
    return scalar_of<T>;
  }
}
template <KernelElement T>
const StructLayout* element_layout() {
  if constexpr (KernelStruct<T>) {
    return struct_layout<T>().get();
  } else {
    return nullptr;
  }
}

template <KernelElement T>
ArgView arg_view(const Buffer<T>& b) {
  return ArgView{ParamKind::Pointer,
                 element_scalar<T>(),
                 false,
                 sizeof(_cl_mem*),
                 nullptr,
                 b.handle(),
                 nullptr,
                 b.owner(),
                 b.size(),
                 element_layout<T>()};
}
template <KernelElement T>
ArgView arg_view(const BufferView<T>& v) {
  return ArgView{ParamKind::Pointer,
                 element_scalar<T>(),
                 false,
                 sizeof(_cl_mem*),
                 nullptr,
                 v.handle(),
                 nullptr,
                 &v.core(),
                 v.size(),
                 element_layout<T>()};
}
template <KernelElement T>
ArgView arg_view(const SharedSpan<T>& s) {
  return ArgView{
      ParamKind::Pointer, element_scalar<T>(), false,    sizeof(void*),      nullptr, nullptr,
      s.data(),           s.owner(),           s.size(), element_layout<T>()};
}
template <KernelElement T>
ArgView arg_view(const SharedArray<T>& a) {
  return ArgView{
      ParamKind::Pointer, element_scalar<T>(), false,    sizeof(void*),      nullptr, nullptr,
      a.data(),           a.owner(),           a.size(), element_layout<T>()};
}
template <class S>
ArgView arg_view(const Shaped<S>& s) {
  ArgView view = arg_view(s.source());
  view.shape = s.extents();
  view.rank = s.rank();
  return view;
}
template <KernelScalar T>
ArgView arg_view(const T& v) {
  ArgView view{ParamKind::Scalar, scalar_of<T>, false, sizeof(T), &v, nullptr};
  view.plain_integer = std::is_same_v<T, int> || std::is_same_v<T, unsigned>;
  return view;
}
/// A struct by value: its bytes, padding included, as OpenCL copies them.
template <KernelStruct T>
ArgView arg_view(const T& v) {
  return ArgView{ParamKind::Struct, Scalar::U8, false,   sizeof(T), &v,
                 nullptr,           nullptr,    nullptr, 0,         struct_layout<T>().get()};
}
inline ArgView arg_view(const LocalMemory& l) {
  return ArgView{ParamKind::LocalArray, Scalar::U8, true, l.bytes, nullptr, nullptr};
}
template <class A>
ArgView arg_view(const A&) {
  static_assert(sizeof(A) == 0,
                "launch argument: expected a Buffer<T>, a BufferView<T>, a SharedArray<T>, a "
                "SharedSpan<T>, one of them shaped(...), a kernel scalar (float, int32_t, half, "
                "...), a struct described with SPVJIT_STRUCT or LocalMemory");
  return {};
}
}  // namespace detail

/// Static sizes a kernel is specialized for (KernelAbstractions' static workgroup/ndrange).
/// Designated initializers may name any subset: `{.workgroup = WorkGroup{256}}` (each member
/// has a default initializer, so GCC's -Wmissing-field-initializers stays quiet).
struct Specialization {
  std::optional<WorkGroup> workgroup = {};
  std::optional<NDRange> ndrange = {};
};

class Kernel {
 public:
  Kernel() = default;
  explicit Kernel(std::shared_ptr<detail::LaunchState> state);

  /// Enqueues the kernel over `ndrange` with work-groups of `workgroup`. Does not wait: call
  /// Runtime::synchronize(). An ndrange of 0 in any dimension is a no-op.
  template <class... A>
  void launch(const NDRange& ndrange, const WorkGroup& workgroup, const A&... args) {
    const detail::ArgView views[sizeof...(A) + 1] = {detail::arg_view(args)..., {}};
    launch_packed(ndrange, &workgroup, views, sizeof...(A), nullptr);
  }
  /// As above, with the static workgroup, or one chosen from the device's limits.
  template <class... A>
  void launch(const NDRange& ndrange, const A&... args) {
    const detail::ArgView views[sizeof...(A) + 1] = {detail::arg_view(args)..., {}};
    launch_packed(ndrange, nullptr, views, sizeof...(A), nullptr);
  }
  /// KernelAbstractions' `kernel(args...)` for a kernel compiled with a static ndrange
  /// (Specialization::ndrange): a launch over it, with the static or a chosen workgroup. A
  /// kernel without one throws UserError saying to launch with an NDRange.
  template <class... A>
  void operator()(const A&... args) {
    const detail::ArgView views[sizeof...(A) + 1] = {detail::arg_view(args)..., {}};
    launch_packed(static_ndrange(), nullptr, views, sizeof...(A), nullptr);
  }
  /// As launch, and returns an Event for this launch alone (costs PoCL an event object).
  template <class... A>
  [[nodiscard]] Event launch_event(const NDRange& ndrange, const WorkGroup& workgroup,
                                   const A&... args) {
    const detail::ArgView views[sizeof...(A) + 1] = {detail::arg_view(args)..., {}};
    _cl_event* event = nullptr;
    launch_packed(ndrange, &workgroup, views, sizeof...(A), &event);
    return make_event(event);
  }
  template <class... A>
  [[nodiscard]] Event launch_event(const NDRange& ndrange, const A&... args) {
    const detail::ArgView views[sizeof...(A) + 1] = {detail::arg_view(args)..., {}};
    _cl_event* event = nullptr;
    launch_packed(ndrange, nullptr, views, sizeof...(A), &event);
    return make_event(event);
  }

  /// Launches by number of groups (KernelAbstractions' `numworkgroups`): the ndrange is
  /// `groups` x `workgroup` in each dimension, so every work-item of every group runs. Without
  /// a workgroup, the kernel's static one; with neither, or when the product overflows, a
  /// UserError. `k.launch(Groups{g}, WorkGroup{256}, args...)`.
  template <std::same_as<Groups> G, class... A>
  void launch(const G& groups, const WorkGroup& workgroup, const A&... args) {
    launch(ndrange_of(groups, &workgroup), workgroup, args...);
  }
  template <std::same_as<Groups> G, class... A>
  void launch(const G& groups, const A&... args) {
    launch(ndrange_of(groups, nullptr), args...);
  }
  template <std::same_as<Groups> G, class... A>
  [[nodiscard]] Event launch_event(const G& groups, const WorkGroup& workgroup, const A&... args) {
    return launch_event(ndrange_of(groups, &workgroup), workgroup, args...);
  }
  template <std::same_as<Groups> G, class... A>
  [[nodiscard]] Event launch_event(const G& groups, const A&... args) {
    return launch_event(ndrange_of(groups, nullptr), args...);
  }
  /// The ndrange a launch by `groups` covers: groups x the given workgroup (nullptr: the
  /// static one). Throws UserError without a workgroup or when the product overflows.
  NDRange ndrange_of(const Groups& groups, const WorkGroup* workgroup) const;
  /// The static ndrange (Specialization::ndrange); UserError for a kernel compiled without one.
  const NDRange& static_ndrange() const;

  const std::string& name() const;
  std::span<const Param> params() const;
  const Specialization& specialization() const;
  /// The work-group size a launch over `ndrange` would use (static, given, or chosen).
  WorkGroup workgroup_for(const NDRange& ndrange) const;
  bool valid() const noexcept { return state_ != nullptr; }

 private:
  void launch_packed(const NDRange& ndrange, const WorkGroup* workgroup,
                     const detail::ArgView* args, std::size_t count, _cl_event** event);
  /// The Event of a launch, tied to this kernel's runtime for its bounds checks.
  Event make_event(_cl_event* event) const;
  friend struct detail::KernelAccess;
  std::shared_ptr<detail::LaunchState> state_;
};

}  // namespace spvjit

SPVJIT_API_END
