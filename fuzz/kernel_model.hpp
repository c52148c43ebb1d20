// The CPU model of kernel values the kernel-builder fuzzer compares against: what each
// integer operation and conversion of the kernel language yields, bit for bit. Values are
// held as 64-bit patterns: integers truncated to their width, bool 0/1, floats as the bits of
// a double holding the (f32-rounded where f32) value.
#pragma once

#include <cstdint>

#include "spvjit/value.hpp"

namespace spvjit::fuzz::model {

unsigned width(Scalar t);                           ///< bits; bool: 1
std::uint64_t truncate(std::uint64_t v, Scalar t);  ///< to t's width
std::int64_t as_signed(std::uint64_t v, Scalar t);  ///< sign-extended from t's width
double as_double(std::uint64_t v);
std::uint64_t from_double(double d);
std::uint64_t float_bits(double d, Scalar t);  ///< d as a value of float type t

/// An integer BinaryOp as the builder emits it (wrapping; shifts modulo the width).
std::uint64_t integer_op(BinaryOp op, Scalar t, std::uint64_t x, std::uint64_t y);
/// cast(): sign/zero extension or truncation, int->float rounding, !=0 for bool.
std::uint64_t cast_value(std::uint64_t x, Scalar from, Scalar to);

}  // namespace spvjit::fuzz::model
