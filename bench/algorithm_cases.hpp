// What the algorithms/* cases share: their sizes, names and the Algorithms they run on.
// Each case is `algorithms/<name>/<T>/<N>/<who>`, who = spvjit, tbb (the std:: algorithm with
// std::execution::par: GCC's parallel algorithms run on Debian's libtbb-dev) or std (the
// sequential std:: algorithm). Every case checks its result against the std:: one and reports
// a wrong one with SkipWithError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "bench/suite.hpp"
#include "bench/wall_rate.hpp"
#include "spvjit/algorithms.hpp"

namespace spvjit::bench {

/// Issue #18's sizes: a tiny input (the host route's case) and two large ones.
inline constexpr std::size_t algorithm_sizes[] = {std::size_t{1} << 10, std::size_t{1} << 20,
                                                  std::size_t{1} << 24};

/// Julia's name of a scalar type: Float32, Float64, Int32, Int64, UInt32, UInt64, ...
template <class T>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<T, float>) {
    return "Float32";
  } else if constexpr (std::is_same_v<T, double>) {
    return "Float64";
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return "Int32";
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return "Int64";
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    return "UInt32";
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return "UInt64";
  } else {
    static_assert(sizeof(T) == 0, "type_name: add the type");
  }
}

template <class T>
std::string algorithm_case(const char* algorithm, std::size_t n, const char* who) {
  return std::string("algorithms/") + algorithm + "/" + type_name<T>() + "/" + std::to_string(n) +
         "/" + who;
}

/// The measured loop of every algorithms case: `run` once untimed (it compiles spvjit's
/// kernels and starts TBB's threads), then once an iteration; sets `allocs`, `bytes`, `wall_us`
/// and `bytes_per_second` (`bytes` read per iteration).
template <class Run>
void measure_algorithm(benchmark::State& state, double bytes, Run&& run) {
  run();
  AllocMeter meter;
  WallRate rate;
  for (auto _ : state) {
    run();
    benchmark::ClobberMemory();
  }
  meter.report(state);
  rate.report(state, "bytes_per_second", bytes);
}

/// The Algorithms every case uses, on the suite's Runtime and Jit.
Algorithms& shared_algorithms();

}  // namespace spvjit::bench
