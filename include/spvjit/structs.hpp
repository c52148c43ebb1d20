// Structs inside a kernel: parameters by value and pointers to arrays of them, their members
// by member pointer, private struct variables, and whole-struct copies. The struct is a C++
// aggregate described with SPVJIT_STRUCT (struct_layout.hpp); the kernel lays it out exactly
// as the host does (a mismatch is a UserError when the kernel is built).
//
//   struct Particle { float x, y; std::int32_t id; double mass; };
//   SPVJIT_STRUCT(Particle, x, y, id, mass)
//
//   auto ps = kb.param<Global<Particle>>("ps");   // launched with a Buffer<Particle>
//   auto q = kb.param<Particle>("q");              // launched with a Particle
//   auto i = kb.global_index();
//   ps[i][&Particle::mass] += q.get(&Particle::mass);
//   ps[i][&Particle::x] = ps[i][&Particle::x] + q[&Particle::x];
//   auto copy = kb.var(ps[i]);                     // a private copy; members assign
//   copy[&Particle::id] = copy[&Particle::id] + 1;
//   ps[i] = copy;                                  // the whole struct
//
// A pointer member reads as the global pointer it holds, unchecked (the launch cannot know how
// far it reaches); the device must share host memory (fine-grained system SVM, or pointers into
// SharedArrays), which the kernel's Runtime checks when it is built:
//
//   struct Segment { float* data; std::int64_t n; double scale; };
//   SPVJIT_STRUCT(Segment, data, n, scale)
//
//   auto seg = kb.param<Segment>("seg");           // launched with a Segment
//   auto d = seg.get(&Segment::data);              // a Global<float> (`const float*`:
//   Const<float>) kb.for_(0, seg.get(&Segment::n), [&](Val<std::int64_t> k) { sum += d[k]; });
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
/// `prefix` (a path to a struct of `within`, possibly empty) extended to the member at `offset`
/// bytes, which must be `expected` (its type, array length or nested struct); throws UserError
/// when `within` has no such member.
FieldPath member_path(const Pointer& p, const FieldPath& prefix, const StructLayout& within,
                      std::size_t offset, const StructField& expected);
/// Copies every scalar of the struct (of `layout`) at element `src_index` of `src` (then
/// `src_path`) to the one of `dst`, member by member.
void copy_struct(const Pointer& dst, Value dst_index, const FieldPath& dst_path, const Pointer& src,
                 Value src_index, const FieldPath& src_path, const StructLayout& layout);
/// A private struct of `layout`, uninitialised (the pointer to it; index 0).
Pointer private_struct(BuilderState* state, const StructLayout& layout);
/// A private array of `count` structs of `layout` (private_array<S>), uninitialised.
Pointer private_struct_array(BuilderState* state, const StructLayout& layout, std::uint64_t count);
/// A private scalar slot (device functions' results).
Pointer private_slot(BuilderState* state, Scalar type);
/// The constant member index `k` of an array member at `path` (`count` elements) of `p`.
FieldPath array_element(const Pointer& p, const FieldPath& path, std::size_t k, std::size_t count);
/// The pointer member at `path` of struct element `index` of `p`, loaded: a global pointer to
/// `element` (or to structs of `pointee`), without bounds checks.
Pointer pointer_member(const Pointer& p, Value index, const FieldPath& path, Scalar element,
                       bool read_only, const StructLayout* pointee);

/// The scalar or struct a pointer member points to, as an element type.
template <class F>
using Pointee = std::remove_pointer_t<F>;
template <class F>
Scalar pointee_scalar() {
  if constexpr (KernelScalar<Pointee<F>>) {
    return scalar_of<Pointee<F>>;
  } else {
    return Scalar::U8;
  }
}
template <class F>
const StructLayout* pointee_layout() {
  if constexpr (KernelStruct<Pointee<F>>) {
    return struct_layout<std::remove_cv_t<Pointee<F>>>().get();
  } else {
    return nullptr;
  }
}

template <class T, class F>
using LikeConst = std::conditional_t<std::is_const_v<T>, const F, F>;
}  // namespace detail

template <KernelStruct S>
class StructVal;
template <class T>
class StructRef;

/// A fixed array member of a struct element: `ps[i][&Shape::v][2]`, a Ref to a scalar, or
/// `box[&Box::nei][3]`, a StructRef to a struct. Constant indices only, checked when the kernel
/// is built.
template <class E, std::size_t N>
class MemberArray {
 public:
  MemberArray(const Pointer& p, Value index, const detail::FieldPath& path)
      : ptr_(p), index_(index), path_(path) {}
  auto operator[](std::size_t k) const {
    if constexpr (KernelStruct<E>) {
      return StructRef<E>(ptr_, index_, detail::array_element(ptr_, path_, k, N));
    } else {
      return Ref<E>(ptr_, index_, detail::array_element(ptr_, path_, k, N));
    }
  }
  static constexpr std::size_t size() { return N; }

 private:
  Pointer ptr_;
  Value index_;
  detail::FieldPath path_;
};

/// A struct in memory: element `index` of an array of structs (`ps[i]`), a struct member of one
/// (`ps[i][&Outer::inner]`), a by-value parameter or a private variable. T is const for
/// read-only memory.
template <class T>
class StructRef {
 public:
  using struct_type = std::remove_const_t<T>;
  static_assert(KernelStruct<struct_type>, "StructRef<T>: T must be described with SPVJIT_STRUCT");

  StructRef() = default;
  StructRef(const StructRef&) = default;
  StructRef(const Pointer& p, Value index, const detail::FieldPath& path = {})
      : ptr_(p), index_(index), path_(path) {}
  /// A writable struct reads as a read-only one.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_const_v<U>) StructRef(const StructRef<U>& other)
      : ptr_(other.pointer()), index_(other.index()), path_(other.path()) {}

  /// The member `member` of this struct: a Ref for a scalar (reads as a Val, assigns when
  /// writable), a MemberArray for an array (of scalars or of structs), a StructRef for a nested
  /// struct, and for a pointer member (`float* data`) the pointer it holds, read: a Global<float>
  /// (Const<float> for `const float*`), indexed without bounds checks: `seg[&Segment::data][k]`.
  template <class M>
  auto operator[](M struct_type::*member) const {
    using F = std::remove_cv_t<M>;
    const detail::FieldPath path = detail::member_path(
        ptr_, path_, layout(), detail::member_offset(member), detail::describe_member<F>("", 0));
    if constexpr (std::is_pointer_v<F>) {
      using E = detail::Pointee<F>;
      return Ptr<E, AddressSpace::Global>(
          detail::pointer_member(ptr_, index_, path, detail::pointee_scalar<F>(),
                                 std::is_const_v<E>, detail::pointee_layout<F>()));
    } else if constexpr (KernelScalar<F>) {
      return Ref<detail::LikeConst<T, F>>(ptr_, index_, path);
    } else if constexpr (std::is_array_v<F>) {
      return MemberArray<detail::LikeConst<T, std::remove_extent_t<F>>, std::extent_v<F>>(
          ptr_, index_, path);
    } else {
      return StructRef<detail::LikeConst<T, F>>(ptr_, index_, path);
    }
  }
  /// The value of a scalar member: `q.get(&Particle::mass)` is a Val<double>.
  template <class M>
  requires KernelScalar<M> Val<arithmetic_t<M>> get(M struct_type::*member)
  const { return (*this)[member].get(); }
  /// The pointer a pointer member holds: `auto d = seg.get(&Segment::data);` is a
  /// Global<float>, read and written as `d[k]` (through `const float*`, a Const<float>).
  template <class M>
  requires std::is_pointer_v<M>
  auto get(M struct_type::*member) const { return (*this)[member]; }
  /// A private copy of the whole struct, as a value.
  StructVal<struct_type> get() const;

  /// Copies a whole struct in, member by member: `ps[i] = q`.
  template <class U>
  requires(std::is_same_v<std::remove_const_t<U>, struct_type> &&
           !std::is_const_v<T>) const StructRef&
  operator=(const StructRef<U>& other) const {
    detail::copy_struct(ptr_, index_, path_, other.pointer(), other.index(), other.path(),
                        layout());
    return *this;
  }
  const StructRef& operator=(const StructRef& other) const requires(!std::is_const_v<T>) {
    return this->operator=<T>(other);
  }

  const Pointer& pointer() const { return ptr_; }
  const Value& index() const { return index_; }
  const detail::FieldPath& path() const { return path_; }
  static const StructLayout& layout() { return *struct_layout<struct_type>(); }

 private:
  Pointer ptr_;
  Value index_;
  detail::FieldPath path_;
};

/// A struct value: a by-value parameter, a device function's struct result or argument, or a
/// copy taken with StructRef::get(). Its members read; nothing writes it.
template <KernelStruct S>
class StructVal : public StructRef<const S> {
 public:
  StructVal() = default;
  StructVal(const StructVal&) = default;
  /// Adopts a private struct nothing else writes (the library's own constructors use this).
  explicit StructVal(const Pointer& p)
      : StructRef<const S>(p, detail::literal(detail::state_of(p), std::int64_t{0})) {}
};

/// A private struct variable (`kb.var(ps[i])`): its members assign, and so does the whole.
template <KernelStruct S>
class StructVar : public StructRef<S> {
 public:
  StructVar() = default;
  StructVar(const StructVar&) = default;
  explicit StructVar(const Pointer& p)
      : StructRef<S>(p, detail::literal(detail::state_of(p), std::int64_t{0})) {}
  template <class U>
  requires(std::is_same_v<std::remove_const_t<U>, S>) const StructVar& operator=(
      const StructRef<U>& other) const {
    StructRef<S>::operator=(other);
    return *this;
  }
  const StructVar& operator=(const StructVar& other) const {
    StructRef<S>::operator=(static_cast<const StructRef<S>&>(other));
    return *this;
  }
};

template <class T>
StructVal<typename StructRef<T>::struct_type> StructRef<T>::get() const {
  const Pointer copy = detail::private_struct(detail::state_of(ptr_), layout());
  detail::copy_struct(copy, detail::literal(detail::state_of(ptr_), std::int64_t{0}), {}, ptr_,
                      index_, path_, layout());
  return StructVal<struct_type>(copy.as_read_only());
}

namespace detail {
/// A member of `s` as members() gives it: a scalar read, anything else its reference.
template <class T, class M>
auto member_value(const StructRef<T>& s, M StructRef<T>::struct_type::*member) {
  if constexpr (KernelScalar<std::remove_cv_t<M>>) {
    return s[member].get();
  } else {
    return s[member];
  }
}
}  // namespace detail

/// Every member of the struct `s`, in SPVJIT_STRUCT's order, at once: scalars read as Vals, an
/// array member as its MemberArray, a nested struct as its StructRef, a pointer member as the
/// pointer. KA's `atom.x, atom.y` as `auto [x, y, z, type] = members(atom);`.
template <class T>
auto members(const StructRef<T>& s) {
  using S = typename StructRef<T>::struct_type;
  return std::apply([&](auto... member) { return std::tuple{detail::member_value(s, member)...}; },
                    spvjit_struct_members(static_cast<const S*>(nullptr)));
}

template <class R>
requires requires { typename R::struct_type; }
auto KernelBuilder::var(const R& init) {
  using S = typename R::struct_type;
  StructVar<S> v(detail::private_struct(state(), *struct_layout<S>()));
  v = init;
  return v;
}

namespace detail {
template <class P>
requires(KernelStruct<P> && !is_std_complex_v<P>) struct ParamTraits<P> {
  static StructVal<P> declare(KernelBuilder& kb, std::string_view name) {
    return StructVal<P>(kb.struct_param(name, struct_layout<P>()));
  }
};
}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
