// Fast math's "approximate functions" (`afn`, KernelAbstractions' `@fastmath`, OpenCL's
// -cl-fast-relaxed-math) given a meaning for calls: the SPIR-V translator drops the flag on
// calls, so the device computes every builtin exactly whatever the kernel asked, and PoCL's exact
// erfc alone took 68 % of Black-Scholes' time (docs/performance.md, issue #63). This step
// replaces each such call to exp, log or erfc by inline arithmetic: a few multiply-adds, no
// table, no branch, so that coarsening vectorizes it with the rest of the kernel and a lane's
// result never depends on its neighbours (coarsened = scalar, bit for bit).
//
// The algorithms (the coefficients of erfc's fit come from tools/math_fits/fit_erfc.cpp):
//   exp(y)   y = n ln2 + r (|r| <= ln2/2, Cody-Waite with an FMA), e^r by its Taylor series
//            (degree 7 for float, 13 for double), times 2^n in two halves so that results in
//            the subnormals round once.
//   log(x)   x = 2^e m with m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s) for
//            s = (m - 1) / (m + 1), the odd series of atanh in s (to s^9 for float, s^21 for
//            double), plus e ln2 in two parts.
//   erfc(x)  |x| < 1/2: 1 - x E(x^2), E erf's Taylor series over x; else
//            e^(-x^2) t P(t) with t = 1 / (1 + p |x|), P a polynomial fitted to
//            erfc(x) e^(x^2) / t (degree 9 for float, p = 1/2; 19 for double, p = 0.3), and
//            x^2 kept as a sum of two (an FMA gives its rounding error) so that the tail keeps
//            its digits; 2 - erfc(-x) for x <= -1/2.
// Their worst errors over the whole range (test/math_sweep.cpp --approximate, the ctest
// math/sweep_approximate) are in docs/language.md, "Fast math".
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Replaces each call in `function` to OpenCL's exp, log or erfc (`_Z3expf`, `_Z4erfcDv8_d`,
/// ...; float or double, scalar or vector) that carries the approximate-functions flag by inline
/// arithmetic computing the same function to a few ulps (above). Calls without the flag, and
/// other functions, are left as they are. Returns how many calls were replaced.
unsigned approximate_math_calls(llvm::Function& function);

/// Whether `function` has such a call: the pipeline runs the step only where it changes something
/// (a kernel without fast math keeps its steps' numbers in SPVJIT_DUMP_IR).
bool has_approximable_math_calls(const llvm::Function& function);

}  // namespace spvjit::detail
