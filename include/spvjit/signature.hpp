// A kernel's parameter list as both layers see it: the builder records it, the argument packer
// checks launch arguments against it. No LLVM, no OpenCL.
#pragma once

#include <string>
#include <string_view>

#include "spvjit/struct_layout.hpp"
#include "spvjit/types.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

enum class ParamKind : std::uint8_t {
  Scalar,      ///< passed by value
  Pointer,     ///< a buffer in global or constant memory
  LocalArray,  ///< local memory whose size is given at launch (LocalMemory{bytes})
  Struct,      ///< a struct passed by value (`layout`)
};

/// One kernel parameter as the user declared it.
struct Param {
  std::string name;
  ParamKind kind = ParamKind::Scalar;
  Scalar type = Scalar::I32;  ///< the scalar, or the pointee of a pointer
  AddressSpace space = AddressSpace::Private;
  bool read_only = false;  ///< a Const pointer: noalias readonly, stores rejected
  /// A struct by value, or the struct a pointer points to (then `type` is unused); else null.
  std::shared_ptr<const StructLayout> struct_layout = nullptr;
  /// An array parameter (GlobalArray<T, N>): N = 1 to 3 extents the launch passes from the
  /// argument's shape (common/shape_args.hpp), and the order its elements lie in. 0: a plain
  /// pointer.
  std::uint8_t rank = 0;
  Layout layout = Layout::RowMajor;
  /// Raw modules' pointers to vectors (`__global float4*`, `__local int2*`): the lanes, 2, 3, 4,
  /// 8 or 16, of `type`; the memory passed holds `type`, element_scalars() per vector. 0: a
  /// pointer to scalars.
  std::uint8_t lanes = 0;

  /// Scalars per element the kernel indexes: 1, or the lanes (a 3-lane vector takes the room
  /// of 4, as OpenCL C's float3 does).
  unsigned element_scalars() const noexcept { return lanes == 0 ? 1u : lanes == 3 ? 4u : lanes; }

  /// e.g. "global const f32*", "f64", "local f32[]", "global f32[2-d]",
  /// "global const f32[3-d column-major]", "global struct Particle*", "global f32x4*",
  /// "struct Particle{f32,f32,i32,f64} (24 bytes)".
  std::string describe() const;
};

/// Number of hidden i64 parameters spvjit appends after the user's (the dynamic ndrange).
inline constexpr unsigned hidden_ndrange_params = 3;

}  // namespace spvjit

SPVJIT_API_END
