// A time step of the 1-D Schrödinger equation on ComplexF32 and ComplexF64 arrays, in
// KernelAbstractions' style (issue #51, item 5: kernels on complex numbers), ported line for
// line; many steps against the same arithmetic in C++ with std::complex, bit for bit.
//
// KernelAbstractions.jl (commit 9bf8fd59) has no complex-number example to quote. The Julia
// below is a KA-style sketch written for this test, not a quotation (explicit Euler in time, the
// second difference in space, a potential V; i ħ ∂ψ/∂t = -½ ∂²ψ/∂x² + V ψ):
/*
@kernel function schrodinger_step!(ψnew, @Const(ψ), @Const(V), dt, dx)
    i = @index(Global)
    n = length(ψ)
    if 1 < i < n
        lap = (ψ[i - 1] - 2ψ[i] + ψ[i + 1]) / dx^2
        ψnew[i] = ψ[i] + im * dt * (lap / 2 - V[i] * ψ[i])
    else
        ψnew[i] = zero(eltype(ψ))
    end
end

step! = schrodinger_step!(backend, 64)
for _ in 1:steps
    step!(ψnew, ψ, V, dt, dx, ndrange = length(ψ))
    ψ, ψnew = ψnew, ψ
end
*/
// Indices are 0-based: `1 < i < n` is `0 < i && i < n - 1`. `im * dt` is Complex(0, dt), as
// Julia makes it; every product here has finite operands, where Julia's plain formula, C++'s
// and spvjit's Annex G multiplication agree bit for bit. This file is compiled with
// -ffp-contract=off (test/CMakeLists.txt): the reference rounds each multiply and add, as
// builder kernels do.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <utility>
#include <vector>

#include "test/coarsen_support.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

template <class T>
KernelDef schrodinger_step() {
  KernelBuilder kb(std::is_same_v<T, float> ? "schrodinger_step_f32" : "schrodinger_step_f64");
  auto psinew = kb.param<Global<std::complex<T>>>("psinew");
  auto psi = kb.param<Const<std::complex<T>>>("psi");  // @Const(ψ)
  auto V = kb.param<Const<T>>("V");
  auto dt = kb.param<T>("dt");
  auto dx = kb.param<T>("dx");
  auto i = kb.global_index();   // @index(Global)
  auto n = length(psi);         // length(ψ)
  kb.workgroup(WorkGroup{64});  // schrodinger_step!(backend, 64)
  kb.if_(kb.in_ndrange(), [&] {
    kb.if_else(
        0 < i && i < n - 1,  // 1 < i < n
        [&] {
          const Complex<T> lap = (psi[i - 1] - T(2) * psi[i] + psi[i + 1]) / (dx * dx);
          const Complex<T> im_dt(kb.lit(T(0)), dt);  // im * dt
          psinew[i] = psi[i] + im_dt * (lap / T(2) - V[i] * psi[i]);
        },
        [&] { psinew[i] = Complex<T>(kb, std::complex<T>(0, 0)); });  // zero(eltype(ψ))
  });
  return kb.finish();
}

template <class T>
void reference_step(std::vector<std::complex<T>>& psinew, const std::vector<std::complex<T>>& psi,
                    const std::vector<T>& V, T dt, T dx) {
  const std::size_t n = psi.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (0 < i && i < n - 1) {
      const std::complex<T> lap = (psi[i - 1] - T(2) * psi[i] + psi[i + 1]) / (dx * dx);
      psinew[i] = psi[i] + std::complex<T>(0, dt) * (lap / T(2) - V[i] * psi[i]);
    } else {
      psinew[i] = 0;
    }
  }
}

// A Gaussian wave packet moving right, in a harmonic well.
template <class T>
std::pair<std::vector<std::complex<T>>, std::vector<T>> initial(std::size_t n, T dx) {
  std::vector<std::complex<T>> psi(n);
  std::vector<T> V(n);
  for (std::size_t i = 0; i < n; ++i) {
    const T x = (T(i) - T(n) / 2) * dx;
    psi[i] = std::exp(-x * x) * std::complex<T>(std::cos(T(5) * x), std::sin(T(5) * x));
    V[i] = x * x / 2;
  }
  psi.front() = psi.back() = 0;
  return {psi, V};
}

template <class T>
void check_steps(Jit& jit) {
  auto& rt = test::runtime();
  const KernelDef def = schrodinger_step<T>();
  Kernel step = jit.compile(def);
  for (const std::size_t n : {std::size_t{3}, std::size_t{100}, std::size_t{1031}}) {
    CAPTURE(n);
    const T dx = T(10) / T(n), dt = T(0.1) * dx * dx;
    auto [psi, V] = initial<T>(n, dx);
    std::vector<std::complex<T>> psinew(n);
    auto a = rt.upload(psi), b = rt.zeros<std::complex<T>>(n);
    const auto potential = rt.upload(V);
    for (int s = 0; s < 20; ++s) {
      step.launch(NDRange{n}, b, a, potential, dt, dx);  // padded to groups of 64
      reference_step(psinew, psi, V, dt, dx);
      std::swap(a, b);
      std::swap(psi, psinew);
    }
    rt.synchronize();
    const auto got = a.to_vector();
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) differ += got[i] != psi[i];
    CHECK(differ == 0);
    if (n > 3) CHECK(std::abs(psi[n / 2]) > T(0.5));  // the packet is still there, not zero
  }
}

}  // namespace

TEST_CASE(
    "KA port: a Schrödinger step on ComplexF32 and ComplexF64 equals std::complex bit for "
    "bit, under both Jits (complex arrays stay scalar)") {
  test::compile_checked(schrodinger_step<float>());  // spirv-val
  test::compile_checked(schrodinger_step<double>());
  // Arrays of complex numbers are arrays of structs, which the coarsener leaves alone (yet):
  // both Jits run the same scalar kernel, and this says so, so that the day it coarsens, the
  // test is read again.
  CHECK_FALSE(test::is_coarsened(test::coarse_jit(), schrodinger_step<float>(),
                                 test::static_workgroup(WorkGroup{64})));
  for (Jit* jit : {&test::scalar_jit(), &test::coarse_jit()}) {
    CAPTURE(jit == &test::scalar_jit());
    check_steps<float>(*jit);
    check_steps<double>(*jit);
  }
}
