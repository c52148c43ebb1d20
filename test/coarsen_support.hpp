// What the coarsening tests share: a Jit that never coarsens, Jits that do (at the device's
// width or a forced one), random input bits, and a look at whether a kernel was coarsened.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "spvjit/debug.hpp"
#include "test/shared_runtime.hpp"

namespace spvjit::test {

inline JitOptions options(bool coarsen, unsigned width = 0) {
  JitOptions o;
  o.disk_cache = false;
  o.coarsen = coarsen;
  o.coarsen_width = width;
  return o;
}

inline Jit& scalar_jit() {
  static Jit j(test::runtime(), options(false));
  return j;
}
inline Jit& coarse_jit(unsigned width = 0) {
  static std::unique_ptr<Jit> by_width[17];
  if (!by_width[width]) {
    by_width[width] = std::make_unique<Jit>(test::runtime(), options(true, width));
  }
  return *by_width[width];
}

// Coarsened at `width` lanes with `vectors` vectors per work-item (JitOptions::coarsen_vectors).
inline Jit& multi_vector_jit(unsigned width, unsigned vectors) {
  static std::unique_ptr<Jit> by_shape[17][9];
  auto& jit = by_shape[width][vectors];
  if (!jit) {
    JitOptions o = options(true, width);
    o.coarsen_vectors = vectors;
    jit = std::make_unique<Jit>(test::runtime(), o);
  }
  return *jit;
}

// Random bits: every float class (subnormals, infinities, NaNs) as well as ordinary values.
template <class T>
inline std::vector<T> random_data(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::vector<T> out(n);
  for (auto& v : out) {
    std::uint64_t bits = gen();
    if (gen() % 4 != 0) bits &= 0x3fffffffffffffffULL;  // mostly moderate magnitudes
    if constexpr (std::is_same_v<T, half>) {
      v = to_half(static_cast<float>(static_cast<std::int64_t>(bits % 20001) - 10000) / 64.0f);
      if (bits % 17 == 0) v.bits = static_cast<std::uint16_t>(bits);
    } else {
      std::memcpy(&v, &bits, sizeof v);
    }
  }
  return out;
}

inline bool is_coarsened(Jit& jit, const KernelDef& def, const Specialization& spec = {}) {
  // The vector bodies are functions of their own, named after the kernel: the checked one, or
  // only a strip's (jit/coarsen/strips.hpp) where strips leave the checked one unreachable (no
  // global-id test that could fail) or unused (no checks).
  const std::string text = spirv_text(jit, def, spec);
  return text.find(def.name() + ".vector.w") != std::string::npos ||
         text.find(def.name() + ".interior.strip.w") != std::string::npos;
}

// Fails the check at the first element whose bytes differ between the scalar kernel's output
// and the coarsened one's, quoting both and the inputs there (`a`, `b`: empty when there are none
// element by element).
template <class T>
inline void check_same_bits(const std::vector<T>& scalar_out, const std::vector<T>& coarse_out,
                            const std::vector<T>& a = {}, const std::vector<T>& b = {},
                            bool nan_payloads_may_differ = false) {
  REQUIRE(scalar_out.size() == coarse_out.size());
  const std::size_t n = scalar_out.size();
  std::size_t first_difference = n;
  for (std::size_t i = 0; i < n && first_difference == n; ++i) {
    if (std::memcmp(&scalar_out[i], &coarse_out[i], sizeof(T)) == 0) continue;
    if constexpr (std::is_floating_point_v<T>) {
      if (nan_payloads_may_differ && scalar_out[i] != scalar_out[i] &&
          coarse_out[i] != coarse_out[i])
        continue;
    }
    first_difference = i;
  }
  if (first_difference != n) {
    std::uint64_t bits[4] = {};
    std::memcpy(&bits[0], &scalar_out[first_difference], sizeof(T));
    std::memcpy(&bits[1], &coarse_out[first_difference], sizeof(T));
    if (first_difference < a.size()) std::memcpy(&bits[2], &a[first_difference], sizeof(T));
    if (first_difference < b.size()) std::memcpy(&bits[3], &b[first_difference], sizeof(T));
    char text[160];
    std::snprintf(
        text, sizeof text,
        "element %zu: scalar kernel %#llx, coarsened %#llx (inputs %#llx, %#llx)", first_difference,
        static_cast<unsigned long long>(bits[0]), static_cast<unsigned long long>(bits[1]),
        static_cast<unsigned long long>(bits[2]), static_cast<unsigned long long>(bits[3]));
    FAIL_CHECK(text);
  }
}

// Runs `def` (parameters: out, in1, in2, scalar) on the inputs `a` and `b` with both Jits and
// compares the outputs' bytes.
template <class T, class S>
inline void compare_runs_on(const KernelDef& def, const std::vector<T>& a, const std::vector<T>& b,
                            S scalar, Jit& coarse, const Specialization& spec = {},
                            const WorkGroup* given = nullptr) {
  auto& rt = test::runtime();
  const std::size_t n = a.size();
  std::vector<T> outputs[2];
  Jit* jits[2] = {&scalar_jit(), &coarse};
  for (int k = 0; k < 2; ++k) {
    Kernel kernel = jits[k]->compile(def, spec);
    auto A = rt.upload(a), B = rt.upload(b);
    auto Z = rt.upload(random_data<T>(n, 3));  // untouched elements must stay as they were
    if (given) {
      kernel.launch(NDRange{n}, *given, Z, A, B, scalar);
    } else {
      kernel.launch(NDRange{n}, Z, A, B, scalar);
    }
    rt.synchronize();
    outputs[k] = Z.to_vector();
  }
  CAPTURE(def.name());
  CAPTURE(n);
  check_same_bits(outputs[0], outputs[1], a, b);
}

// The same on random inputs of `n` elements.
template <class T, class S>
inline void compare_runs(const KernelDef& def, std::size_t n, S scalar, Jit& coarse,
                         const Specialization& spec = {}, const WorkGroup* given = nullptr) {
  compare_runs_on<T>(def, random_data<T>(n, 1), random_data<T>(n, 2), scalar, coarse, spec, given);
}

}  // namespace spvjit::test
