// The combines the algorithms know by name (std::plus<> and friends for kernel values): each
// works on kernel scalars (Val<T>), vectors (Vec<T, N>) and host values alike, so a reduction
// with one of them vectorizes, and runs on the calling thread when its input is small and in
// host memory. A user's functor may say the same of itself with
// `static constexpr bool host_callable = true;` when it compiles for plain T.
#pragma once

#include <cmath>
#include <type_traits>

#include "spvjit/value.hpp"
#include "spvjit/vector.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
/// Host integers wrap as the device's do (two's complement), instead of overflowing into
/// undefined behaviour: the host route must give the kernels' answer.
template <class V>
using wrapping_t =
    std::conditional_t<std::is_integral_v<V> && std::is_signed_v<V>, std::make_unsigned_t<V>, V>;
}  // namespace detail

struct plus {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V a, V b) const {
    if constexpr (std::is_integral_v<V>) {
      using U = detail::wrapping_t<V>;
      return static_cast<V>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
      return a + b;
    }
  }
};
struct multiplies {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V a, V b) const {
    if constexpr (std::is_integral_v<V>) {
      using U = detail::wrapping_t<V>;
      return static_cast<V>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
    } else {
      return a * b;
    }
  }
};
/// The smaller of two values; for floats fmin's rule on the device and the host alike (a NaN
/// operand yields the other).
struct minimum {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V a, V b) const {
    if constexpr (std::is_floating_point_v<V>) {
      return std::fmin(a, b);
    } else if constexpr (std::is_arithmetic_v<V>) {
      return b < a ? b : a;
    } else {
      return min(a, b);
    }
  }
};
struct maximum {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V a, V b) const {
    if constexpr (std::is_floating_point_v<V>) {
      return std::fmax(a, b);
    } else if constexpr (std::is_arithmetic_v<V>) {
      return a < b ? b : a;
    } else {
      return max(a, b);
    }
  }
};
struct bit_and {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V a, V b) const {
    return a & b;
  }
};
struct bit_or {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V a, V b) const {
    return a | b;
  }
};
struct bit_xor {
  static constexpr bool host_callable = true;
  template <class V>
  V operator()(V a, V b) const {
    return a ^ b;
  }
};

namespace detail {
/// Whether the functor declares itself callable on host values.
template <class F>
constexpr bool declares_host_callable() {
  if constexpr (requires { F::host_callable; }) {
    return F::host_callable;
  } else {
    return false;
  }
}
}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
