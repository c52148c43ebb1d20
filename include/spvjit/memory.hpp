// Arrays in every address space, indexed in 1 to 3 dimensions, and work-group barriers.
//
//   auto tile = local_array<float>(kb, {16, 16});      // @localmem Float32 (16, 16)
//   auto acc  = private_array<float>(kb, {4});         // @private Float32 (4,)
//   auto A    = view(a, {n, m});                       // a global pointer seen as n x m
//   tile(ty, tx) = A(row, col);
//   barrier(kb, Fence::Local);                         // @synchronize
//
// Arrays are ROW-MAJOR (C order): the LAST index varies fastest, so A(i, j) is element
// i * m + j. (Julia and KernelAbstractions are column-major; swap the indices when porting.)
// A wrong number of indices is a UserError when the kernel is built.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "spvjit/builder.hpp"
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

namespace detail {
/// Shape of an array: 1 to 3 extents, row-major.
struct Shape {
  std::array<Value, 3> extent;
  unsigned rank = 0;
};
/// The element offset of `indices` in `shape`; throws UserError naming `what` when the count
/// of indices differs from the rank or an index is not an integer. Fills `view` (if given) with
/// the indices and extents for the bounds check.
Value offset(const Shape& shape, const Value* indices, unsigned count, const char* what,
             ViewIndex* view = nullptr);
Shape make_shape(detail::BuilderState* s, std::initializer_list<std::int64_t> extents,
                 const char* what);
/// A shape from run-time extents (integers of any width); throws UserError otherwise.
Shape make_shape(const Value* extents, unsigned count, const char* what);
Value extent(const Shape& shape, unsigned d);
Pointer make_local_array(KernelBuilder& kb, Scalar element, std::uint64_t count,
                         std::string_view name);
Pointer make_private_array(KernelBuilder& kb, Scalar element, std::uint64_t count);
std::uint64_t element_count(std::initializer_list<std::int64_t> extents, const char* what);

template <class I>
Value index_value(detail::BuilderState* s, const I& i) {
  if constexpr (std::is_integral_v<I>) {
    return literal(s, static_cast<std::int64_t>(i));
  } else {
    return static_cast<const Value&>(i);
  }
}
}  // namespace detail

/// An array of T in `Space`, with 1 to 3 row-major dimensions.
template <class T, AddressSpace Space>
class Array {
 public:
  Array() = default;
  Array(Ptr<T, Space> base, detail::Shape shape) : base_(base), shape_(shape) {}

  /// The element at (i, j, ...): as many indices as the array has dimensions.
  /// Each index is checked against its extent, then the offset against the memory, unless the
  /// array was made with inbounds().
  template <class... I>
  Ref<T> operator()(const I&... indices) const {
    const Value values[sizeof...(I) + 1] = {detail::index_value(base_.state(), indices)..., {}};
    detail::ViewIndex view;
    Value linear = detail::offset(shape_, values, sizeof...(I), "array index",
                                  base_.extent() ? &view : nullptr);
    return Ref<T>(base_, linear, view);
  }
  /// The element at a linear (row-major) offset.
  template <class I>
  Ref<T> operator[](const I& linear) const {
    return Ref<T>(base_, detail::index_value(base_.state(), linear));
  }
  unsigned rank() const { return shape_.rank; }
  /// The extent of dimension `d` (0 = the slowest); throws UserError past the rank.
  Val<std::int64_t> extent(unsigned d) const { return Val<std::int64_t>(detail::extent(shape_, d)); }
  const Ptr<T, Space>& data() const { return base_; }
  const detail::Shape& shape() const { return shape_; }

 private:
  Ptr<T, Space> base_;
  detail::Shape shape_;
};

/// A statically sized array in local memory, shared by the work-group (KA's `@localmem`).
/// Its bytes are checked against the device's local memory when the kernel is compiled.
template <KernelScalar T>
Array<T, AddressSpace::Local> local_array(KernelBuilder& kb,
                                          std::initializer_list<std::int64_t> extents,
                                          std::string_view name = "local") {
  auto shape = detail::make_shape(kb.state(), extents, "local_array");
  auto p = detail::make_local_array(kb, scalar_of<T>, detail::element_count(extents, "local_array"), name);
  return {Ptr<T, AddressSpace::Local>(p), shape};
}

/// A statically sized array private to each work-item (KA's `@private`).
template <KernelScalar T>
Array<T, AddressSpace::Private> private_array(KernelBuilder& kb,
                                              std::initializer_list<std::int64_t> extents) {
  auto shape = detail::make_shape(kb.state(), extents, "private_array");
  auto p = detail::make_private_array(kb, scalar_of<T>, detail::element_count(extents, "private_array"));
  return {Ptr<T, AddressSpace::Private>(p), shape};
}

/// The array with its bounds checks turned off (KernelAbstractions' `@inbounds`).
template <class T, AddressSpace Space>
Array<T, Space> inbounds(const Array<T, Space>& a) {
  return {inbounds(a.data()), a.shape()};
}

/// Views a pointer as a row-major array with run-time extents (sizes given as kernel values).
template <class T, AddressSpace Space, class... E>
Array<T, Space> view(const Ptr<T, Space>& p, const E&... extents) {
  static_assert(sizeof...(E) >= 1 && sizeof...(E) <= 3, "view: 1 to 3 extents");
  const Value values[] = {detail::index_value(p.state(), extents)...};
  return {p, detail::make_shape(values, sizeof...(E), "view")};
}

}  // namespace spvjit

SPVJIT_API_END
