// The scalar types a kernel can use, their C++ spellings, and the address spaces of pointers.
// Shared by the builder (ir/) and the argument packer (runtime/): neither LLVM nor OpenCL here.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// IEEE binary16 held as its bits. On devices without cl_khr_fp16 (PoCL 6.0 on LLVM 15) kernels
/// load and store it with vload_half/vstore_half and compute in float.
struct half {
  std::uint16_t bits = 0;
  friend bool operator==(half, half) = default;
};

/// Converts with round-to-nearest-even, the rounding vstore_half uses.
half to_half(float value) noexcept;
float to_float(half value) noexcept;

enum class Scalar : std::uint8_t { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, F32, F64 };

/// Where a pointer points. Numbers are the OpenCL/SPIR address spaces.
enum class AddressSpace : std::uint8_t { Private = 0, Global = 1, Constant = 2, Local = 3 };

/// How an N-d array lays out its elements: RowMajor (C order, the last index varies fastest) or
/// ColumnMajor (Julia and Fortran order, the first index varies fastest).
enum class Layout : std::uint8_t { RowMajor, ColumnMajor };

std::string_view name(Scalar s) noexcept;        ///< "f32", "i64", ...
std::string_view name(AddressSpace a) noexcept;  ///< "global", "local", ...
unsigned size_of(Scalar s) noexcept;             ///< bytes in memory (bool: 1)
bool is_float(Scalar s) noexcept;                ///< f16, f32, f64
bool is_signed(Scalar s) noexcept;               ///< i8..i64 (not bool, not unsigned)
bool is_integer(Scalar s) noexcept;              ///< every integer type, bool excluded

namespace detail {
template <class T>
struct ScalarOf;
template <>
struct ScalarOf<bool> {
  static constexpr Scalar value = Scalar::Bool;
};
template <>
struct ScalarOf<std::int8_t> {
  static constexpr Scalar value = Scalar::I8;
};
template <>
struct ScalarOf<std::uint8_t> {
  static constexpr Scalar value = Scalar::U8;
};
template <>
struct ScalarOf<std::int16_t> {
  static constexpr Scalar value = Scalar::I16;
};
template <>
struct ScalarOf<std::uint16_t> {
  static constexpr Scalar value = Scalar::U16;
};
template <>
struct ScalarOf<std::int32_t> {
  static constexpr Scalar value = Scalar::I32;
};
template <>
struct ScalarOf<std::uint32_t> {
  static constexpr Scalar value = Scalar::U32;
};
template <>
struct ScalarOf<std::int64_t> {
  static constexpr Scalar value = Scalar::I64;
};
template <>
struct ScalarOf<std::uint64_t> {
  static constexpr Scalar value = Scalar::U64;
};
template <>
struct ScalarOf<half> {
  static constexpr Scalar value = Scalar::F16;
};
template <>
struct ScalarOf<float> {
  static constexpr Scalar value = Scalar::F32;
};
template <>
struct ScalarOf<double> {
  static constexpr Scalar value = Scalar::F64;
};
}  // namespace detail

/// True for the C++ types that name a kernel scalar type.
template <class T>
concept KernelScalar = requires {
  detail::ScalarOf<std::remove_cv_t<T>>::value;
};

/// The Scalar enumerator of a C++ type: scalar_of<float> == Scalar::F32.
template <KernelScalar T>
inline constexpr Scalar scalar_of = detail::ScalarOf<std::remove_cv_t<T>>::value;

}  // namespace spvjit

SPVJIT_API_END
