#include "fuzz/kernel_model.hpp"

#include <bit>

namespace spvjit::fuzz::model {

unsigned width(Scalar t) { return t == Scalar::Bool ? 1 : 8 * size_of(t); }
std::uint64_t truncate(std::uint64_t v, Scalar t) {
  const unsigned w = width(t);
  return w == 64 ? v : v & ((std::uint64_t{1} << w) - 1);
}
std::int64_t as_signed(std::uint64_t v, Scalar t) {
  const unsigned w = width(t);
  if (w == 64) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = std::uint64_t{1} << (w - 1);
  return static_cast<std::int64_t>((v ^ sign) - sign);
}
double as_double(std::uint64_t v) { return std::bit_cast<double>(v); }
std::uint64_t from_double(double d) { return std::bit_cast<std::uint64_t>(d); }
std::uint64_t float_bits(double d, Scalar t) {
  return from_double(t == Scalar::F32 ? static_cast<double>(static_cast<float>(d)) : d);
}

std::uint64_t integer_op(BinaryOp op, Scalar t, std::uint64_t x, std::uint64_t y) {
  const bool sign = is_signed(t);
  const unsigned w = width(t);
  switch (op) {
    case BinaryOp::Add:
      return truncate(x + y, t);
    case BinaryOp::Sub:
      return truncate(x - y, t);
    case BinaryOp::Mul:
      return truncate(x * y, t);
    case BinaryOp::And:
      return x & y;
    case BinaryOp::Or:
      return x | y;
    case BinaryOp::Xor:
      return x ^ y;
    case BinaryOp::Shl:
      return truncate(x << (y & (w - 1)), t);
    case BinaryOp::Shr:
      return sign ? truncate(static_cast<std::uint64_t>(as_signed(x, t) >> (y & (w - 1))), t)
                  : x >> (y & (w - 1));
    case BinaryOp::Min:
      return sign ? (as_signed(x, t) < as_signed(y, t) ? x : y) : (x < y ? x : y);
    case BinaryOp::Max:
      return sign ? (as_signed(x, t) < as_signed(y, t) ? y : x) : (x < y ? y : x);
    default:
      return 0;
  }
}

std::uint64_t cast_value(std::uint64_t x, Scalar from, Scalar to) {
  if (from == to) return x;
  if (to == Scalar::Bool) return is_float(from) ? as_double(x) != 0.0 : x != 0;
  if (is_float(from)) return float_bits(as_double(x), to);  // float -> float
  if (is_float(to)) {
    const double d =
        is_signed(from) ? static_cast<double>(as_signed(x, from)) : static_cast<double>(x);
    // Integer -> f32 rounds once, from the integer, not through double.
    if (to == Scalar::F32) {
      const float f =
          is_signed(from) ? static_cast<float>(as_signed(x, from)) : static_cast<float>(x);
      return from_double(static_cast<double>(f));
    }
    return from_double(d);
  }
  const std::uint64_t widened =
      is_signed(from) ? static_cast<std::uint64_t>(as_signed(x, from)) : x;
  return truncate(widened, to);
}

}  // namespace spvjit::fuzz::model
