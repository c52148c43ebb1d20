// Structs kernels take: the layout of a C++ aggregate of scalars (offsets, size and alignment
// taken from the real type with offsetof, sizeof and alignof), described once at namespace scope
// next to the struct:
//
//   struct Particle { float x, y; std::int32_t id; double mass; };
//   SPVJIT_STRUCT(Particle, x, y, id, mass)
//
// Members are kernel scalars, fixed arrays of them (`float v[3]`), structs described the same
// way, fixed arrays of those (`Neighbour nei[26]`), or pointers into global memory (`float* data`,
// `const Node* next`: 8 bytes; the kernel reads them as Global/Const pointers, unchecked, and the
// device must share the host's memory, see structs.hpp). Shared by the builder (ir/), the argument
// packer (runtime/) and raw modules (jit/): no LLVM, no OpenCL.
#pragma once

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "spvjit/types.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

class StructLayout;

/// A described struct's layout, fetched when first needed (what struct_layout<T> is).
using StructLayoutOf = const std::shared_ptr<const StructLayout>& (*)();

/// Bytes of a pointer member: spvjit kernels are spir64.
inline constexpr std::uint32_t pointer_member_bytes = 8;

/// One member of a struct.
struct StructField {
  std::string name;
  std::uint32_t offset = 0;  ///< bytes from the start of the struct
  Scalar type = Scalar::U8;  ///< the scalar, an array's element or a pointer's scalar pointee
  std::uint32_t count = 1;   ///< an array's elements (`float v[3]`: 3); 1 otherwise
  bool array = false;
  /// A nested struct, or an array's element struct (`Neighbour nei[26]`: array, count 26), or null.
  std::shared_ptr<const StructLayout> nested = nullptr;
  /// A pointer into global memory (`float* data`, 8 bytes): to `type`, or to the structs of
  /// `pointee` / `pointee_name`.
  bool pointer = false;
  bool pointee_const = false;  ///< `const float* data`: the kernel only reads through it
  /// A pointer to described structs: their layout, fetched lazily so that a struct may point to
  /// its own type (`const Node* next`).
  StructLayoutOf pointee = nullptr;
  /// A pointer to structs of a raw module (no layout kept: the module's code is its own).
  std::string pointee_name = {};

  /// Whether this is a pointer to structs rather than to scalars.
  bool points_to_struct() const noexcept { return pointer && (pointee || !pointee_name.empty()); }
};

/// One scalar or pointer of a struct once nested structs and arrays are spelled out.
struct StructLeaf {
  std::uint32_t offset = 0;
  Scalar type = Scalar::U8;  ///< a pointer's scalar pointee (u8 for structs)
  bool pointer = false;
  friend bool operator==(const StructLeaf&, const StructLeaf&) = default;
};

/// A struct's layout. Built once per C++ type (SPVJIT_STRUCT) or per raw-module parameter.
class StructLayout {
 public:
  /// Checks that the fields lie inside `size` in increasing offsets without overlapping and
  /// spells out its leaves; throws UserError naming the struct otherwise. `by_shape`: a layout
  /// read from a raw module, whose names mean nothing, so any C++ struct of the same shape fits.
  StructLayout(std::string name, std::uint32_t size, std::uint32_t align,
               std::vector<StructField> fields, bool by_shape = false);

  const std::string& name() const noexcept { return name_; }
  std::uint32_t size() const noexcept { return size_; }
  std::uint32_t align() const noexcept { return align_; }
  const std::vector<StructField>& fields() const noexcept { return fields_; }
  const std::vector<StructLeaf>& leaves() const noexcept { return leaves_; }
  bool by_shape() const noexcept { return by_shape_; }

  /// "struct Particle{f32,f32,i32,f64} (24 bytes)"; a pointer member reads "global f32*".
  std::string describe() const;
  /// Every scalar and its offset, and the size: "f32@0,f32@4,i32@8,f64@16/24" (cache keys);
  /// a pointer member reads "global const f32*@0".
  std::string signature() const;
  /// The first pointer member, nested structs included ("Segment::data"), or "" when none:
  /// a kernel taking such a struct reads memory the launch does not pass.
  std::string first_pointer_member() const;
  /// The same size and the same scalars at the same offsets, names aside.
  bool same_shape(const StructLayout& other) const noexcept;
  /// Whether a launch may pass a C++ struct of layout `given` for this one: the same shape and
  /// name; for a raw module's layout, the same size and scalars of the same size and kind (LLVM
  /// types carry no signedness) at the same offsets.
  bool accepts(const StructLayout& given) const noexcept {
    return this == &given || accepts_other(given);
  }

 private:
  bool accepts_other(const StructLayout& given) const noexcept;
  std::string describe_fields() const;
  void sign_fields(std::uint32_t base, std::string& out) const;
  std::string name_;
  std::uint32_t size_ = 0;
  std::uint32_t align_ = 1;
  std::vector<StructField> fields_;
  std::vector<StructLeaf> leaves_;
  bool by_shape_ = false;
};

namespace detail {
template <class T>
inline constexpr bool is_std_complex_v = false;
template <class T>
inline constexpr bool is_std_complex_v<std::complex<T>> =
    std::is_same_v<T, float> || std::is_same_v<T, double>;

// std::complex<T> as the struct {T re; T im;}: [complex.numbers.general] guarantees that
// layout (an array of two T), as Julia's Complex{T} has it.
template <class T>
const std::shared_ptr<const StructLayout>& complex_layout() {
  static const std::shared_ptr<const StructLayout> layout = [] {
    StructField re, im;
    re.name = "re";
    re.type = scalar_of<T>;
    im.name = "im";
    im.offset = sizeof(T);
    im.type = scalar_of<T>;
    return std::make_shared<const StructLayout>(
        std::is_same_v<T, float> ? "std::complex<float>" : "std::complex<double>",
        static_cast<std::uint32_t>(sizeof(std::complex<T>)),
        static_cast<std::uint32_t>(alignof(std::complex<T>)), std::vector<StructField>{re, im});
  }();
  return layout;
}
}  // namespace detail

/// std::complex<float> and std::complex<double> are kernel structs of two members, re and im
/// (complex.hpp gives them their arithmetic in kernels).
inline const std::shared_ptr<const StructLayout>& spvjit_struct_layout(const std::complex<float>*) {
  return detail::complex_layout<float>();
}
inline const std::shared_ptr<const StructLayout>& spvjit_struct_layout(
    const std::complex<double>*) {
  return detail::complex_layout<double>();
}

namespace detail {
template <class T>
concept HasStructLayout = requires(const T* p) {
  { spvjit_struct_layout(p) } -> std::same_as<const std::shared_ptr<const StructLayout>&>;
};
}  // namespace detail

/// A C++ struct described with SPVJIT_STRUCT.
template <class T>
concept KernelStruct = detail::HasStructLayout<std::remove_cv_t<T>>;

/// What a buffer, a view or a shared array can hold: kernel scalars and described structs.
template <class T>
concept KernelElement = KernelScalar<T> || KernelStruct<T>;

/// The layout of a described struct (one object per type, made on first use).
template <KernelStruct T>
const std::shared_ptr<const StructLayout>& struct_layout() {
  return spvjit_struct_layout(static_cast<const std::remove_cv_t<T>*>(nullptr));
}

namespace detail {
template <class>
inline constexpr bool unsupported_member = false;

/// A member of type M at `offset`, as a StructField.
template <class M>
StructField describe_member(const char* name, std::size_t offset) {
  using F = std::remove_cv_t<M>;
  StructField f;
  f.name = name;
  f.offset = static_cast<std::uint32_t>(offset);
  if constexpr (KernelScalar<F>) {
    f.type = scalar_of<F>;
  } else if constexpr (std::rank_v<F> == 1 && KernelScalar<std::remove_extent_t<F>>) {
    f.type = scalar_of<std::remove_extent_t<F>>;
    f.count = static_cast<std::uint32_t>(std::extent_v<F>);
    f.array = true;
  } else if constexpr (KernelStruct<F>) {
    f.nested = struct_layout<F>();
  } else if constexpr (std::rank_v<F> == 1 &&
                       KernelStruct<std::remove_cv_t<std::remove_extent_t<F>>>) {
    f.nested = struct_layout<std::remove_cv_t<std::remove_extent_t<F>>>();
    f.count = static_cast<std::uint32_t>(std::extent_v<F>);
    f.array = true;
  } else if constexpr (std::is_pointer_v<F> && KernelScalar<std::remove_pointer_t<F>>) {
    f.pointer = true;
    f.type = scalar_of<std::remove_cv_t<std::remove_pointer_t<F>>>;
    f.pointee_const = std::is_const_v<std::remove_pointer_t<F>>;
  } else if constexpr (std::is_pointer_v<F> && KernelStruct<std::remove_pointer_t<F>>) {
    f.pointer = true;
    f.pointee = &struct_layout<std::remove_cv_t<std::remove_pointer_t<F>>>;
    f.pointee_const = std::is_const_v<std::remove_pointer_t<F>>;
  } else {
    static_assert(unsupported_member<M>,
                  "SPVJIT_STRUCT: a member must be a kernel scalar, a struct described with "
                  "SPVJIT_STRUCT, a fixed one-dimensional array of either (arrays of arrays are "
                  "not supported: flatten `float m[3][4]` to `float m[12]`), or a pointer to a "
                  "scalar or a described struct (T*, const T*)");
  }
  return f;
}

template <class T>
std::shared_ptr<const StructLayout> make_struct_layout(const char* name,
                                                       std::initializer_list<StructField> fields) {
  static_assert(std::is_standard_layout_v<T> && std::is_trivially_copyable_v<T>,
                "SPVJIT_STRUCT: the struct must be standard-layout and trivially copyable");
  return std::make_shared<const StructLayout>(name, static_cast<std::uint32_t>(sizeof(T)),
                                              static_cast<std::uint32_t>(alignof(T)),
                                              std::vector<StructField>(fields));
}

/// The byte offset of `member` inside S (what offsetof says for it).
template <class S, class M>
std::size_t member_offset(M S::*member) {
  const S probe{};
  return static_cast<std::size_t>(reinterpret_cast<const char*>(&(probe.*member)) -
                                  reinterpret_cast<const char*>(&probe));
}
}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END

// Describes each member name in turn (one rescan per member: up to 81 members).
#define SPVJIT_STRUCT_PARENS ()
#define SPVJIT_STRUCT_EXPAND(...) \
  SPVJIT_STRUCT_EXPAND4(SPVJIT_STRUCT_EXPAND4(SPVJIT_STRUCT_EXPAND4(__VA_ARGS__)))
#define SPVJIT_STRUCT_EXPAND4(...) \
  SPVJIT_STRUCT_EXPAND3(SPVJIT_STRUCT_EXPAND3(SPVJIT_STRUCT_EXPAND3(__VA_ARGS__)))
#define SPVJIT_STRUCT_EXPAND3(...) \
  SPVJIT_STRUCT_EXPAND2(SPVJIT_STRUCT_EXPAND2(SPVJIT_STRUCT_EXPAND2(__VA_ARGS__)))
#define SPVJIT_STRUCT_EXPAND2(...) \
  SPVJIT_STRUCT_EXPAND1(SPVJIT_STRUCT_EXPAND1(SPVJIT_STRUCT_EXPAND1(__VA_ARGS__)))
#define SPVJIT_STRUCT_EXPAND1(...) __VA_ARGS__
#define SPVJIT_STRUCT_MEMBERS(Type, ...) \
  __VA_OPT__(SPVJIT_STRUCT_EXPAND(SPVJIT_STRUCT_MEMBERS_NEXT(Type, __VA_ARGS__)))
#define SPVJIT_STRUCT_MEMBERS_NEXT(Type, member, ...)                                         \
  ::spvjit::detail::describe_member<decltype(Type::member)>(#member, offsetof(Type, member)), \
      __VA_OPT__(SPVJIT_STRUCT_MEMBERS_AGAIN SPVJIT_STRUCT_PARENS(Type, __VA_ARGS__))
#define SPVJIT_STRUCT_MEMBERS_AGAIN() SPVJIT_STRUCT_MEMBERS_NEXT
#define SPVJIT_STRUCT_POINTERS(Type, ...) \
  __VA_OPT__(SPVJIT_STRUCT_EXPAND(SPVJIT_STRUCT_POINTERS_NEXT(Type, __VA_ARGS__)))
#define SPVJIT_STRUCT_POINTERS_NEXT(Type, member, ...) \
  &Type::member, __VA_OPT__(SPVJIT_STRUCT_POINTERS_AGAIN SPVJIT_STRUCT_PARENS(Type, __VA_ARGS__))
#define SPVJIT_STRUCT_POINTERS_AGAIN() SPVJIT_STRUCT_POINTERS_NEXT

/// Describes the struct `Type` and its members, in declaration order, to spvjit. At namespace
/// scope, in the struct's namespace: `SPVJIT_STRUCT(Particle, x, y, id, mass)`.
#define SPVJIT_STRUCT(Type, ...)                                                                \
  [[maybe_unused]] inline const std::shared_ptr<const ::spvjit::StructLayout>&                  \
  spvjit_struct_layout(const Type*) {                                                           \
    static const std::shared_ptr<const ::spvjit::StructLayout> layout =                         \
        ::spvjit::detail::make_struct_layout<Type>(#Type,                                       \
                                                   {SPVJIT_STRUCT_MEMBERS(Type, __VA_ARGS__)}); \
    return layout;                                                                              \
  }                                                                                             \
  /* The members as member pointers, in the same order (members() reads them all at once). */   \
  [[maybe_unused]] constexpr auto spvjit_struct_members(const Type*) {                          \
    return std::tuple{SPVJIT_STRUCT_POINTERS(Type, __VA_ARGS__)};                               \
  }
