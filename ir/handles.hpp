// The kernel handles a user holds (Value, VecValue, Pointer) made from the LLVM values the
// builder emits. Inside the library only: the public headers declare HandleFactory and each
// handle befriends it, but no user code can name what it makes (a handle from an LLVM value of
// the application's own is no kernel value; test/compile_checks/fail_make_value.cpp and
// fail_handle_factory.cpp).
#pragma once

#include "spvjit/pointer.hpp"
#include "spvjit/value.hpp"
#include "spvjit/vector.hpp"

namespace spvjit::detail {

struct HandleFactory {
  template <class Handle, class... Parts>
  static Handle make(Parts... parts) noexcept {
    return Handle(parts...);
  }
};

inline Value make_value(BuilderState* state, llvm::Value* value, Scalar type) noexcept {
  return HandleFactory::make<Value>(state, value, type);
}

inline VecValue make_vec(BuilderState* state, llvm::Value* value, Scalar element,
                         unsigned lanes) noexcept {
  return HandleFactory::make<VecValue>(state, value, element, lanes);
}

/// `extent`: the elements an index may reach (an i64 in the kernel), or null (unchecked);
/// `array`: which array of the kernel it points into, for bounds messages (-1: unchecked).
inline Pointer make_pointer(BuilderState* state, llvm::Value* value, Scalar element,
                            AddressSpace space, bool read_only, llvm::Value* extent = nullptr,
                            int array = -1, const StructLayout* layout = nullptr) noexcept {
  return HandleFactory::make<Pointer>(state, value, element, space, read_only, extent, array,
                                      layout);
}

}  // namespace spvjit::detail
