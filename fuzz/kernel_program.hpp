// A random, well-typed kernel read from fuzzer bytes, built twice at once: with the
// KernelBuilder, and as a CPU model that computes, for every work-item, what each value must
// be. The fuzzer then checks the built kernel verifies, translates, builds, runs and agrees
// with the model wherever the model is exact.
//
// Only operations whose result is defined for every input are generated: no integer division
// (division by zero, INT_MIN / -1), no float-to-integer casts (out-of-range is poison). Float
// arithmetic is built and run but not compared: PoCL may contract a*b+c into an fma.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "spvjit/builder.hpp"

namespace spvjit::fuzz {

inline constexpr std::size_t work_items = 64;

/// Reads the fuzzer's bytes; an exhausted input reads as zeros, so every input is a program.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return size_ ? (--size_, *data_++) : 0; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | byte();
    return v;
  }
  bool empty() const { return size_ == 0; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
};

/// One value of the kernel and its model: per work-item bits (integers truncated to their
/// width, bool 0/1, floats as the bits of a double holding the value).
struct Slot {
  Value value;
  std::array<std::uint64_t, work_items> model{};
  bool exact = true;  ///< false once float arithmetic touched it
};

/// The inputs every generated kernel reads, identical for the device and the model.
struct Inputs {
  std::vector<std::int32_t> ints;
  std::vector<float> floats;
  std::int32_t scalar = 0;
};
Inputs make_inputs(std::int32_t scalar);

/// What generate() leaves: the value the kernel stores to `out[i]` (cast to i64).
struct Program {
  Slot result;
  int operations = 0;
};

/// Builds the body of `kernel(out i64*, outf f32*, ints const i32*, floats const f32*, s i32)`
/// from the bytes, inside an if_(in_ndrange()).
Program generate(KernelBuilder& kb, ByteReader& bytes, const Inputs& inputs);

}  // namespace spvjit::fuzz
