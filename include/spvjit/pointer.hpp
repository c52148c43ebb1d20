// Pointers inside a kernel: `Ptr<T, Space>` indexes into memory; `Ptr<const T, Space>` is
// read-only (KernelAbstractions' @Const), so a store through it does not compile.
#pragma once

#include "spvjit/struct_layout.hpp"
#include "spvjit/value.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// A dynamically typed pointer. Loads and stores check the element and value types, and, where
/// the pointer knows how many elements it reaches (`extent`), the index against it at run time.
class Pointer {
 public:
  Pointer() = default;

  Scalar element() const noexcept { return element_; }
  AddressSpace space() const noexcept { return space_; }
  bool read_only() const noexcept { return read_only_; }
  /// Whether an index is checked against the elements the pointer reaches (see inbounds()).
  bool checked() const noexcept { return extent_ != nullptr; }
  /// Which array of the kernel this points into, for bounds messages (-1: unchecked).
  int array() const noexcept { return array_; }
  /// The struct each element is (element() is then unused), or null for scalars.
  const StructLayout* layout() const noexcept { return layout_; }
  /// The same pointer, read-only.
  Pointer as_read_only() const noexcept {
    Pointer p = *this;
    p.read_only_ = true;
    return p;
  }
  /// The same pointer without bounds checks (see inbounds()).
  Pointer unchecked() const noexcept {
    Pointer p = *this;
    p.extent_ = nullptr;
    p.array_ = -1;
    return p;
  }

 private:
  friend struct detail::BuilderAccess;
  friend struct detail::HandleFactory;
  Pointer(detail::BuilderState* state, llvm::Value* value, Scalar element, AddressSpace space,
          bool read_only, llvm::Value* extent, int array, const StructLayout* layout) noexcept
      : state_(state),
        value_(value),
        extent_(extent),
        layout_(layout),
        element_(element),
        space_(space),
        read_only_(read_only),
        array_(array) {}

  detail::BuilderState* state_ = nullptr;
  llvm::Value* value_ = nullptr;
  llvm::Value* extent_ = nullptr;  ///< the elements an index may reach (i64), or null
  const StructLayout* layout_ = nullptr;
  Scalar element_ = Scalar::F32;
  AddressSpace space_ = AddressSpace::Global;
  bool read_only_ = false;
  int array_ = -1;
};

namespace detail {
inline BuilderState* state_of(const Pointer& p) noexcept { return BuilderAccess::state(p); }
inline llvm::Value* llvm_of(const Pointer& p) noexcept { return BuilderAccess::llvm_value(p); }
inline llvm::Value* extent_of(const Pointer& p) noexcept { return BuilderAccess::extent(p); }

/// A view's indices and extents (i64 values in the kernel), checked before its linear offset.
struct ViewIndex {
  llvm::Value* index[3] = {nullptr, nullptr, nullptr};
  llvm::Value* extent[3] = {nullptr, nullptr, nullptr};
  unsigned rank = 0;
};
/// A scalar inside a struct element: the GEP indices after the element's (struct members and
/// array elements, all constants) and the scalar there.
struct FieldPath {
  static constexpr unsigned max_depth = 8;
  std::uint32_t index[max_depth] = {};
  unsigned depth = 0;
  Scalar type = Scalar::U8;
  bool pointer = false;  ///< a pointer member (`float* data`), not a scalar
};
/// load/store through a view: `view` (or null) is checked along with the linear index. With
/// `field`, `p` points to structs and the access is to that scalar of element `index`.
Value load_element(const Pointer& p, Value index, const ViewIndex* view,
                   const FieldPath* field = nullptr);
void store_element(const Pointer& p, Value index, Value value, const ViewIndex* view,
                   const FieldPath* field = nullptr);
}  // namespace detail

/// Loads element `index` (an i64 or i32). An f16 element is widened to f32.
Value load(const Pointer& p, Value index);
/// Stores `value` at element `index`; throws UserError through a read-only pointer or when the
/// value's type is not the element's (f32 for an f16 element, rounded to nearest even).
void store(const Pointer& p, Value index, Value value);

/// The type arithmetic sees when an element of type T is loaded: float for half, else T.
template <class T>
using arithmetic_t =
    std::conditional_t<std::is_same_v<std::remove_cv_t<T>, half>, float, std::remove_cv_t<T>>;

/// An element of memory: reads as a Val, and assigns when the pointer is writable.
template <class T>
class Ref {
 public:
  using value_type = arithmetic_t<T>;
  Ref(const Pointer& p, Value index, const detail::ViewIndex& view = {})
      : ptr_(p), index_(index), view_(view) {}
  /// A scalar member of struct element `index` of `p` (see structs.hpp).
  Ref(const Pointer& p, Value index, const detail::FieldPath& field)
      : ptr_(p), index_(index), field_(field), is_field_(true) {}

  operator Val<value_type>() const {
    return Val<value_type>(detail::load_element(ptr_, index_, view_.rank ? &view_ : nullptr,
                                                is_field_ ? &field_ : nullptr));
  }
  Val<value_type> get() const { return *this; }
  /// Where the element lives (for atomics): the pointer and the element index.
  const Pointer& pointer() const { return ptr_; }
  const Value& index() const { return index_; }
  const detail::ViewIndex& view() const { return view_; }
  /// Whether this is a member of a struct element (atomics do not take those).
  bool is_field() const { return is_field_; }

  const Ref& operator=(Val<value_type> v) const requires(!std::is_const_v<T>) {
    detail::store_element(ptr_, index_, v, view_.rank ? &view_ : nullptr,
                          is_field_ ? &field_ : nullptr);
    return *this;
  }
  const Ref& operator=(const Ref& other) const requires(!std::is_const_v<T>) {
    return *this = other.get();
  }
  const Ref& operator=(value_type v) const requires(!std::is_const_v<T>) {
    return *this = Val<value_type>(detail::literal(detail::state_of(ptr_), v));
  }
  /// Read-modify-write (not atomic): `y[i] += a * x[i]`, `o[i] += 1.0f`, `bits[i] >>= 1`. Takes
  /// a Val, a Var or an element of the element's arithmetic type, or a plain number.
#define SPVJIT_REF_COMPOUND(assign, sym, allowed)                                                  \
  const Ref& operator assign(Val<value_type> v) const requires(!std::is_const_v<T> && (allowed)) { \
    return *this = get() sym v;                                                                    \
  }                                                                                                \
  const Ref& operator assign(value_type v) const requires(!std::is_const_v<T> && (allowed)) {      \
    return *this = get() sym v;                                                                    \
  }
  SPVJIT_REF_COMPOUND(+=, +, true)
  SPVJIT_REF_COMPOUND(-=, -, true)
  SPVJIT_REF_COMPOUND(*=, *, true)
  SPVJIT_REF_COMPOUND(/=, /, true)
  SPVJIT_REF_COMPOUND(%=, %, true)
  SPVJIT_REF_COMPOUND(&=, &, detail::bitwise_type_v<value_type>)
  SPVJIT_REF_COMPOUND(|=, |, detail::bitwise_type_v<value_type>)
  SPVJIT_REF_COMPOUND(^=, ^, detail::bitwise_type_v<value_type>)
  SPVJIT_REF_COMPOUND(<<=, <<, detail::shift_type_v<value_type>)
  SPVJIT_REF_COMPOUND(>>=, >>, detail::shift_type_v<value_type>)
#undef SPVJIT_REF_COMPOUND

 private:
  Pointer ptr_;
  Value index_;
  detail::ViewIndex view_;
  detail::FieldPath field_;
  bool is_field_ = false;
};

/// An element of an array of structs: its members by member pointer, `ps[i][&Particle::x]`
/// (structs.hpp).
template <class T>
class StructRef;
/// Complex numbers (complex.hpp): the part types, a value, an element of an array of
/// std::complex<float|double>, a private variable.
template <class T>
concept ComplexPart = std::is_same_v<T, float> || std::is_same_v<T, double>;
template <ComplexPart T>
class Complex;
template <class T>
class ComplexRef;
template <ComplexPart T>
class ComplexVar;
namespace detail {
template <class T>
using ElementRef = std::conditional_t<is_std_complex_v<std::remove_const_t<T>>, ComplexRef<T>,
                                      std::conditional_t<KernelStruct<T>, StructRef<T>, Ref<T>>>;
}  // namespace detail

template <class T, AddressSpace Space>
class Ptr : public Pointer {
 public:
  using element_type = T;
  static constexpr AddressSpace space_v = Space;
  Ptr() = default;
  explicit Ptr(const Pointer& p) : Pointer(p) {}
  /// A writable pointer converts to a read-only one (Global<T> -> Const<T>), never back.
  template <class U>
  requires(std::is_same_v<const U, T> && !std::is_const_v<U>) Ptr(const Ptr<U, Space>& p)
      : Pointer(p.as_read_only()) {}

  template <class I>
  requires(std::is_integral_v<I>) detail::ElementRef<T>
  operator[](Val<I> index) const { return detail::ElementRef<T>(*this, index); }
  detail::ElementRef<T> operator[](std::int64_t index) const {
    return detail::ElementRef<T>(*this, detail::literal(detail::state_of(*this), index));
  }
  /// An index held in a variable or an element is read first: `hist[bin]`, `out[perm[i]]`.
  template <class I>
  requires requires(const I& i) { requires std::is_integral_v<typename decltype(i.get())::type>; }
  detail::ElementRef<T> operator[](const I& index) const { return (*this)[index.get()]; }
};

/// `p` with its bounds checks turned off (KernelAbstractions' `@inbounds`): the author vouches
/// that every index through it is inside what the launch passed. Also takes arrays and views.
template <class T, AddressSpace Space>
Ptr<T, Space> inbounds(const Ptr<T, Space>& p) {
  return Ptr<T, Space>(p.unchecked());
}

template <class T>
using Global = Ptr<T, AddressSpace::Global>;
/// A read-only global pointer (KernelAbstractions' `@Const`).
template <class T>
using Const = Ptr<const T, AddressSpace::Global>;
template <class T>
using Local = Ptr<T, AddressSpace::Local>;
/// A pointer into OpenCL's constant address space (read-only, possibly cached differently);
/// launched with a Buffer like a global pointer.
template <class T>
using Constant = Ptr<const T, AddressSpace::Constant>;

// Arithmetic directly on elements: X[i] * a reads X[i] first.
#define SPVJIT_REF_OPERATOR(sym)                                                      \
  template <class T, class U>                                                         \
  requires requires(Val<arithmetic_t<T>> a, Val<arithmetic_t<U>> b) { a sym b; }      \
  auto operator sym(const Ref<T>& a, const Ref<U>& b) { return a.get() sym b.get(); } \
  template <class T, class U>                                                         \
  requires requires(Val<arithmetic_t<T>> a, U b) { a sym b; }                         \
  auto operator sym(const Ref<T>& a, const U& b) { return a.get() sym b; }            \
  template <class U, class T>                                                         \
  requires requires(U a, Val<arithmetic_t<T>> b) { a sym b; }                         \
  auto operator sym(const U& a, const Ref<T>& b) { return a sym b.get(); }
SPVJIT_REF_OPERATOR(+)
SPVJIT_REF_OPERATOR(-)
SPVJIT_REF_OPERATOR(*)
SPVJIT_REF_OPERATOR(/)
SPVJIT_REF_OPERATOR(%)
SPVJIT_REF_OPERATOR(&)
SPVJIT_REF_OPERATOR(|)
SPVJIT_REF_OPERATOR(^)
SPVJIT_REF_OPERATOR(<<)
SPVJIT_REF_OPERATOR(>>)
SPVJIT_REF_OPERATOR(<)
SPVJIT_REF_OPERATOR(>)
SPVJIT_REF_OPERATOR(<=)
SPVJIT_REF_OPERATOR(>=)
SPVJIT_REF_OPERATOR(==)
SPVJIT_REF_OPERATOR(!=)
#undef SPVJIT_REF_OPERATOR

/// cast<To>(a[i]) reads the element first, like cast<To>(a[i].get()).
template <KernelScalar To, class T>
Val<To> cast(const Ref<T>& element) {
  return cast<To>(element.get());
}

}  // namespace spvjit

SPVJIT_API_END
