// KernelAbstractions' test/specialfunctions.jl ported line for line: gamma, erf and erfc on
// Float32, KA's inputs, checked as KA checks them (≈) and, more strictly, each element within
// OpenCL's bound for the function (16 ulp) of the host's <cmath> in long double.
//
// The KA kernels, quoted from JuliaGPU/KernelAbstractions.jl, test/specialfunctions.jl at commit
// b56ecc77 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other contributors):
/*
@kernel function gamma_knl(A, @Const(B))
    I = @index(Global)
    @inbounds A[I] = SpecialFunctions.gamma(B[I])
end

@kernel function erf_knl(A, @Const(B))
    I = @index(Global)
    @inbounds A[I] = SpecialFunctions.erf(B[I])
end

@kernel function erfc_knl(A, @Const(B))
    I = @index(Global)
    @inbounds A[I] = SpecialFunctions.erfc(B[I])
end

    x = Float32[1.0,2.0,3.0,5.5]                      # gamma
    x = Float32[-1.0,-0.5,0.0,1e-3,1.0,2.0,5.5]       # erf, erfc
    ...
    gamma_knl(backend)(cy, cx; ndrange=length(x))
    synchronize(backend)
    @test Array(cy) ≈ SpecialFunctions.gamma.(x)
*/
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

enum class Special { Gamma, Erf, Erfc };

// One kernel per function, as KA writes them: A[I] = f(B[I]) over a @Const B.
KernelDef special_kernel(Special which) {
  const char* names[] = {"gamma_knl", "erf_knl", "erfc_knl"};
  KernelBuilder kb(names[static_cast<int>(which)]);
  auto A = kb.param<GlobalArray<float, 1>>("A");
  auto B = kb.param<ConstArray<float, 1>>("B");
  auto I = global_linear(kb);  // @index(Global): the linear index, 0-based
  const Val<float> b = inbounds(B)[I];
  switch (which) {
    case Special::Gamma:
      inbounds(A)[I] = tgamma(b);
      break;  // SpecialFunctions.gamma
    case Special::Erf:
      inbounds(A)[I] = erf(b);
      break;
    case Special::Erfc:
      inbounds(A)[I] = erfc(b);
      break;
  }
  return kb.finish();
}

long double reference(Special which, float x) {
  const long double v = x;
  switch (which) {
    case Special::Gamma:
      return std::tgamma(v);
    case Special::Erf:
      return std::erf(v);
    case Special::Erfc:
      return std::erfc(v);
  }
  return 0;
}

// Julia's isapprox on arrays: norm(x - y) <= sqrt(eps(Float32)) * max(norm(x), norm(y)).
bool approx(const std::vector<float>& got, const std::vector<float>& want) {
  double diff = 0, a = 0, b = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    diff += (double(got[k]) - want[k]) * (double(got[k]) - want[k]);
    a += double(got[k]) * got[k];
    b += double(want[k]) * want[k];
  }
  return std::sqrt(diff) <= std::sqrt(double(std::numeric_limits<float>::epsilon())) *
                                std::max(std::sqrt(a), std::sqrt(b));
}

// Units in the last place of float between got and the exact value.
double ulps(float got, long double exact) {
  const float rounded = static_cast<float>(exact);
  const float next = std::nextafter(rounded, std::numeric_limits<float>::infinity());
  const long double unit = static_cast<long double>(next) - rounded;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / unit);
}

void check_special(Special which, const std::vector<float>& x) {
  auto& rt = test::runtime();
  Kernel knl = test::compile_checked(special_kernel(which));
  auto cx = rt.upload(x);                 // allocate + copyto!
  auto cy = rt.zeros<float>(x.size());    // similar(cx)
  knl.launch(NDRange{x.size()}, cy, cx);  // ndrange = length(x)
  rt.synchronize();
  const std::vector<float> got = cy.to_vector();
  std::vector<float> want(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) want[k] = static_cast<float>(reference(which, x[k]));
  CHECK(approx(got, want));  // @test Array(cy) ≈ SpecialFunctions.f.(x)
  for (std::size_t k = 0; k < x.size(); ++k) {
    CAPTURE(x[k]);
    CAPTURE(got[k]);
    CHECK(ulps(got[k], reference(which, x[k])) <= 16.0);  // OpenCL 1.2: erf, erfc, tgamma 16 ulp
  }
}

}  // namespace

TEST_CASE("KA port specialfunctions.jl: gamma, erf and erfc on KA's Float32 inputs") {
  SUBCASE("gamma") { check_special(Special::Gamma, {1.0f, 2.0f, 3.0f, 5.5f}); }
  SUBCASE("erf") { check_special(Special::Erf, {-1.0f, -0.5f, 0.0f, 1e-3f, 1.0f, 2.0f, 5.5f}); }
  SUBCASE("erfc") { check_special(Special::Erfc, {-1.0f, -0.5f, 0.0f, 1e-3f, 1.0f, 2.0f, 5.5f}); }
}
