// Arrays in every address space, indexed in 1 to 3 dimensions, and work-group barriers.
//
//   auto tile = local_array<float>(kb, {16, 16});      // @localmem Float32 (16, 16)
//   auto acc  = private_array<float>(kb, {4});         // @private Float32 (4,)
//   auto A    = view(a, {n, m});                       // a global pointer seen as n x m
//   auto B    = kb.param<ConstArray<float, 2>>("B");   // a parameter that knows its shape
//   tile(ty, tx) = A(row, col) + B(row, col);
//   auto rows = size(B, 0), total = length(B);         // KA's size(B, 1), length(B)
//   B(I) = B(I + delta<2>(0));                           // I: a CartesianIndex<2> (index.hpp)
//   barrier(kb, Fence::Local);                         // @synchronize
//
// Arrays are ROW-MAJOR (C order) by default: the LAST index varies fastest, so A(i, j) is
// element i * m + j. Julia and KernelAbstractions are column-major: port their indices as they
// are with the ColumnMajor layout (`view<ColumnMajor>(p, n, m)`, `GlobalArray<float, 2,
// ColumnMajor>`, `local_array<float, ColumnMajor>(kb, {16, 16})`), where A(i, j) is element
// i + j * n. A wrong number of indices is a UserError when the kernel is built.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <utility>

#include "spvjit/builder.hpp"
#include "spvjit/index.hpp"
#include "spvjit/structs.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// Which memory a barrier orders (OpenCL's CLK_LOCAL_MEM_FENCE / CLK_GLOBAL_MEM_FENCE).
enum class Fence : unsigned { Local = 1, Global = 2 };
constexpr Fence operator|(Fence a, Fence b) {
  return static_cast<Fence>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}

/// Waits until every work-item of the group reaches this barrier (KA's `@synchronize`). Every
/// work-item must reach it: do not put it under a condition that differs between work-items,
/// nor after a return_/break_/continue_ that only some take; KernelBuilder::finish() throws
/// UserError naming such a condition. Throws UserError inside a device function or after finish().
void barrier(KernelBuilder& kb, Fence fence = Fence::Local);

/// Layout tags for arrays, views and array parameters (the Layout enum as a type).
struct RowMajor {
  static constexpr Layout layout = Layout::RowMajor;
};
struct ColumnMajor {
  static constexpr Layout layout = Layout::ColumnMajor;
};
template <class L>
concept ArrayLayout = std::is_same_v<L, RowMajor> || std::is_same_v<L, ColumnMajor>;

namespace detail {
/// Shape of an array: 1 to 3 extents (i64 values), in index order, and the element order.
struct Shape {
  std::array<Value, 3> extent;
  unsigned rank = 0;
  Layout layout = Layout::RowMajor;
};
/// The element offset of `indices` in `shape`; throws UserError naming `what` when the count
/// of indices differs from the rank or an index is not an integer. Fills `view` (if given) with
/// the indices and extents for the bounds check.
Value offset(const Shape& shape, const Value* indices, unsigned count, const char* what,
             ViewIndex* view = nullptr);
Shape make_shape(detail::BuilderState* s, std::initializer_list<std::int64_t> extents,
                 const char* what, Layout layout = Layout::RowMajor);
/// A shape from run-time extents (integers of any width); throws UserError otherwise.
Shape make_shape(const Value* extents, unsigned count, const char* what,
                 Layout layout = Layout::RowMajor);
Value extent(const Shape& shape, unsigned d);
/// The product of the extents (an i64).
Value element_count(const Shape& shape);
/// An array parameter: the pointer (checked against what the launch passed, like a Global<T>)
/// and its shape, whose extents are hidden arguments the launch fills in from the argument.
struct ShapedPointer {
  Pointer data;
  Shape shape;
};
ShapedPointer array_param(KernelBuilder& kb, std::string_view name, Scalar element, bool read_only,
                          unsigned rank, Layout layout);
/// The elements the launch passed for the kernel parameter `p` points to; throws UserError for
/// a pointer that is no kernel parameter (a private or local array's, a device function's).
Value param_length(const Pointer& p);
Pointer make_local_array(KernelBuilder& kb, Scalar element, std::uint64_t count,
                         std::string_view name);
Pointer make_private_array(KernelBuilder& kb, Scalar element, std::uint64_t count);
std::uint64_t element_count(std::initializer_list<std::int64_t> extents, const char* what);

template <class I>
Value index_value(detail::BuilderState* s, const I& i) {
  if constexpr (std::is_integral_v<I>) {
    return literal(s, static_cast<std::int64_t>(i));
  } else if constexpr (std::is_convertible_v<const I&, const Value&>) {
    return static_cast<const Value&>(i);
  } else {
    // A variable or an element (KA indexes with both: `shared[bin]`): read it first.
    return static_cast<const Value&>(i.get());
  }
}
}  // namespace detail

/// An array of T in `Space`, with 1 to 3 dimensions, row- or column-major.
template <class T, AddressSpace Space>
class Array {
 public:
  Array() = default;
  Array(Ptr<T, Space> base, detail::Shape shape) : base_(base), shape_(shape) {}

  /// The element at (i, j, ...): as many indices as the array has dimensions.
  /// Each index is checked against its extent, then the offset against the memory, unless the
  /// array was made with inbounds().
  template <class... I>
  auto operator()(const I&... indices) const {
    const Value values[sizeof...(I) + 1] = {
        detail::index_value(detail::state_of(base_), indices)..., {}};
    detail::ViewIndex view;
    Value linear = detail::offset(shape_, values, sizeof...(I), "array index",
                                  detail::extent_of(base_) ? &view : nullptr);
    if constexpr (KernelStruct<std::remove_const_t<T>>) {
      // A struct element's members are checked by the element's linear index.
      return StructRef<T>(base_, linear);
    } else {
      return Ref<T>(base_, linear, view);
    }
  }
  /// The element at a Cartesian index (KA's `A[I]`), or at one followed by more indices
  /// (WaterLily's `L[I, i]`): its N indices first, as A(i, j, k) takes them.
  template <unsigned N, class... More>
  Ref<T> operator()(const CartesianIndex<N>& index, const More&... more) const {
    return [&]<std::size_t... D>(std::index_sequence<D...>) {
      return (*this)(index[D]..., more...);
    }
    (std::make_index_sequence<N>{});
  }
  /// The element at a linear offset (in the array's layout).
  template <class I>
  detail::ElementRef<T> operator[](const I& linear) const {
    static_assert(!detail::is_cartesian_index<I>,
                  "spvjit: A[I] with a CartesianIndex; write A(I) (A[k] takes one linear offset)");
    return detail::ElementRef<T>(base_, detail::index_value(detail::state_of(base_), linear));
  }
  unsigned rank() const { return shape_.rank; }
  Layout layout() const { return shape_.layout; }
  /// The extent of dimension `d` (0-based: KA's size(A, 1) is extent(0)); throws UserError past
  /// the rank.
  Val<std::int64_t> extent(unsigned d) const {
    return Val<std::int64_t>(detail::extent(shape_, d));
  }
  /// The number of elements: the product of the extents.
  Val<std::int64_t> length() const { return Val<std::int64_t>(detail::element_count(shape_)); }
  const Ptr<T, Space>& data() const { return base_; }
  const detail::Shape& shape() const { return shape_; }

 private:
  Ptr<T, Space> base_;
  detail::Shape shape_;
};

/// A statically sized array in local memory, shared by the work-group (KA's `@localmem`).
/// Its bytes are checked against the device's local memory when the kernel is compiled.
/// `local_array<float, ColumnMajor>(kb, {16, 16})` indexes it as Julia does.
template <KernelScalar T, ArrayLayout L = RowMajor>
Array<T, AddressSpace::Local> local_array(KernelBuilder& kb,
                                          std::initializer_list<std::int64_t> extents,
                                          std::string_view name = "local") {
  auto shape = detail::make_shape(detail::state_of(kb), extents, "local_array", L::layout);
  auto p = detail::make_local_array(kb, scalar_of<T>, detail::element_count(extents, "local_array"),
                                    name);
  return {Ptr<T, AddressSpace::Local>(p), shape};
}

/// A statically sized array private to each work-item (KA's `@private`).
template <KernelScalar T, ArrayLayout L = RowMajor>
Array<T, AddressSpace::Private> private_array(KernelBuilder& kb,
                                              std::initializer_list<std::int64_t> extents) {
  auto shape = detail::make_shape(detail::state_of(kb), extents, "private_array", L::layout);
  auto p =
      detail::make_private_array(kb, scalar_of<T>, detail::element_count(extents, "private_array"));
  return {Ptr<T, AddressSpace::Private>(p), shape};
}

/// A statically sized array of structs (described with SPVJIT_STRUCT) private to each
/// work-item: `auto poses = private_array<Pose>(kb, {4}); poses(j)[&Pose::angle] = a;`, a whole
/// struct `poses(j) = ps[i]`. Each element index is checked against the element count.
template <KernelStruct S, ArrayLayout L = RowMajor>
Array<S, AddressSpace::Private> private_array(KernelBuilder& kb,
                                              std::initializer_list<std::int64_t> extents) {
  auto shape = detail::make_shape(detail::state_of(kb), extents, "private_array", L::layout);
  auto p = detail::private_struct_array(detail::state_of(kb), *struct_layout<S>(),
                                        detail::element_count(extents, "private_array"));
  return {Ptr<S, AddressSpace::Private>(p), shape};
}

/// The array with its bounds checks turned off (KernelAbstractions' `@inbounds`).
template <class T, AddressSpace Space>
Array<T, Space> inbounds(const Array<T, Space>& a) {
  return {inbounds(a.data()), a.shape()};
}

/// Views a pointer as an array with run-time extents (sizes given as kernel values), row-major
/// unless asked otherwise: `view<ColumnMajor>(p, n, m)`.
template <ArrayLayout L = RowMajor, class T, AddressSpace Space, class... E>
Array<T, Space> view(const Ptr<T, Space>& p, const E&... extents) {
  static_assert(sizeof...(E) >= 1 && sizeof...(E) <= 3, "view: 1 to 3 extents");
  const Value values[] = {detail::index_value(detail::state_of(p), extents)...};
  return {p, detail::make_shape(values, sizeof...(E), "view", L::layout)};
}
/// The memory of an array seen with other extents (KA's `reshape`): `view(A, length(A))`.
template <ArrayLayout L = RowMajor, class T, AddressSpace Space, class... E>
Array<T, Space> view(const Array<T, Space>& a, const E&... extents) {
  return view<L>(a.data(), extents...);
}

/// Array parameters, declared with `kb.param<GlobalArray<float, 2>>("A")`: a pointer that knows
/// its extents, which the launch passes from the argument (`shaped(buffer, {n, m})`, or a
/// plain buffer for rank 1). The product of the extents must equal the elements passed.
template <class T, unsigned Rank, ArrayLayout L>
struct ArrayParam {
  static_assert(Rank >= 1 && Rank <= 3, "GlobalArray<T, N>: N must be 1, 2 or 3");
  static_assert(KernelScalar<T>, "GlobalArray<T, N>: T must be a kernel scalar");
};
/// A writable global array of N dimensions (KA: an `AbstractArray{T, N}` argument).
template <class T, unsigned Rank, ArrayLayout L = RowMajor>
using GlobalArray = ArrayParam<T, Rank, L>;
/// A read-only one (KA's `@Const`).
template <class T, unsigned Rank, ArrayLayout L = RowMajor>
using ConstArray = ArrayParam<const T, Rank, L>;

namespace detail {
template <class T, unsigned Rank, class L>
struct ParamTraits<ArrayParam<T, Rank, L>> {
  static Array<T, AddressSpace::Global> declare(KernelBuilder& kb, std::string_view name) {
    auto a = array_param(kb, name, scalar_of<std::remove_const_t<T>>, std::is_const_v<T>, Rank,
                         L::layout);
    return {Ptr<T, AddressSpace::Global>(a.data), a.shape};
  }
};
}  // namespace detail

/// KernelAbstractions' size(A, d), 0-based: the extent of dimension `d`.
template <class T, AddressSpace Space>
Val<std::int64_t> size(const Array<T, Space>& a, unsigned d) {
  return a.extent(d);
}
/// KernelAbstractions' length(A): the number of elements.
template <class T, AddressSpace Space>
Val<std::int64_t> length(const Array<T, Space>& a) {
  return a.length();
}
/// The elements the launch passed for a pointer parameter (`length(input)` on a Global<T>,
/// Const<T> or Local<T> parameter); a UserError for any other pointer.
template <class T, AddressSpace Space>
Val<std::int64_t> length(const Ptr<T, Space>& p) {
  return Val<std::int64_t>(detail::param_length(p));
}

}  // namespace spvjit

SPVJIT_API_END
