// The kernel language's scalar an LLVM type stands for, for IR the builder did not write (a raw
// module's parameters and fields, a pass test's kernel): the reverse of BuilderState's
// memory_type() for the types both know.
#pragma once

#include <llvm/IR/Type.h>

#include "spvjit/types.hpp"

namespace spvjit::detail {

/// i8, i16, i32, i64, half, float or double; false for any other type (i1 included: a bool in
/// memory is an i8).
inline bool scalar_of_type(llvm::Type* t, Scalar& out) {
  if (t->isHalfTy()) return out = Scalar::F16, true;
  if (t->isFloatTy()) return out = Scalar::F32, true;
  if (t->isDoubleTy()) return out = Scalar::F64, true;
  if (!t->isIntegerTy()) return false;
  switch (t->getIntegerBitWidth()) {
    case 8:
      return out = Scalar::I8, true;
    case 16:
      return out = Scalar::I16, true;
    case 32:
      return out = Scalar::I32, true;
    case 64:
      return out = Scalar::I64, true;
    default:
      return false;
  }
}

}  // namespace spvjit::detail
