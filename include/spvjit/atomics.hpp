// Atomic read-modify-write on global and local memory (KernelAbstractions' Atomix.@atomic).
// Each returns the value the element held before the operation.
//
//   atomic_add(hist[bin], 1u);                  // u32 counter
//   atomic_add(sum[0], x);                      // f32/f64 too
//   Val<int> seen = atomic_cmpxchg(flag[0], 0, 1);
//
// Integer operations take i32, u32, i64 and u64 elements; min/max compare as the element's
// signedness. Float add and sub take f32 and f64: the device's own float atomic add where it has
// one (cl_ext_float_atomics, as PoCL does), else a compare-exchange loop on the element's bits,
// chosen when the kernel is compiled (JitOptions::native_float_atomics turns the native one off).
// Float exchange swaps the bits.
#pragma once

#include "spvjit/pointer.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

enum class AtomicOp : std::uint8_t { Add, Sub, Min, Max, And, Or, Xor, Exchange };

/// The dynamically typed form: `op` on element `index` of `p` with operand `value`.
Value atomic(AtomicOp op, const Pointer& p, Value index, Value value);
/// If the element equals `expected`, replaces it by `desired`; returns the old element.
Value atomic_cmpxchg(const Pointer& p, Value index, Value expected, Value desired);

#define SPVJIT_ATOMIC(fn, op)                                                              \
  template <class T>                                                                       \
  Val<arithmetic_t<T>> fn(const Ref<T>& r, Val<arithmetic_t<T>> v) {                       \
    return Val<arithmetic_t<T>>(atomic(AtomicOp::op, r.pointer(), r.index(), v));          \
  }                                                                                        \
  template <class T>                                                                       \
  Val<arithmetic_t<T>> fn(const Ref<T>& r, std::type_identity_t<arithmetic_t<T>> v) {      \
    return fn(r, Val<arithmetic_t<T>>(detail::literal(detail::state_of(r.pointer()), v))); \
  }
SPVJIT_ATOMIC(atomic_add, Add)
SPVJIT_ATOMIC(atomic_sub, Sub)
SPVJIT_ATOMIC(atomic_min, Min)
SPVJIT_ATOMIC(atomic_max, Max)
SPVJIT_ATOMIC(atomic_and, And)
SPVJIT_ATOMIC(atomic_or, Or)
SPVJIT_ATOMIC(atomic_xor, Xor)
SPVJIT_ATOMIC(atomic_xchg, Exchange)
#undef SPVJIT_ATOMIC

template <class T>
Val<T> atomic_cmpxchg(const Ref<T>& r, Val<T> expected, Val<T> desired) {
  return Val<T>(atomic_cmpxchg(r.pointer(), r.index(), expected, desired));
}
template <class T>
Val<T> atomic_cmpxchg(const Ref<T>& r, std::type_identity_t<T> expected,
                      std::type_identity_t<T> desired) {
  auto* s = detail::state_of(r.pointer());
  return atomic_cmpxchg(r, Val<T>(detail::literal(s, expected)),
                        Val<T>(detail::literal(s, desired)));
}

}  // namespace spvjit

SPVJIT_API_END
