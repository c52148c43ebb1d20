// The saxpy demo behind `make bench` until the full suite lands: compiles saxpy for Float16,
// Float32 and Float64, runs it over several sizes, checks every result against the CPU, and
// prints the cold compile, warm compile and launch + synchronize times.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

using namespace spvjit;
using Clock = std::chrono::steady_clock;

namespace {

double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

template <class T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, half>) return to_half(static_cast<float>(v));
  else return static_cast<T>(v);
}
template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, half>) return to_float(v);
  else return static_cast<double>(v);
}

template <class T>
bool run_type(Runtime& rt, Jit& jit, const char* type_name) {
  using A = arithmetic_t<T>;
  auto def = examples::saxpy(scalar_of<T>);
  auto t0 = Clock::now();
  Kernel k = jit.compile(def);
  const double cold = us_since(t0);
  t0 = Clock::now();
  k = jit.compile(def);
  const double warm = us_since(t0);
  std::printf("saxpy %-8s compile: first %.1f ms, cached %.2f us\n", type_name, cold / 1e3, warm);
  bool all_ok = true;
  for (std::size_t n : {std::size_t{64}, std::size_t{1024}, std::size_t{65536}, std::size_t{1048576}}) {
    std::vector<T> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = from_double<T>(static_cast<double>(i % 17));
      y[i] = from_double<T>(static_cast<double>(i % 13) * 0.5);
    }
    auto X = rt.upload(x);
    auto Y = rt.upload(y);
    auto Z = rt.zeros<T>(n);
    t0 = Clock::now();
    k.launch(NDRange{n}, Z, X, Y, A(2));
    rt.synchronize();
    const double first = us_since(t0);
    std::vector<double> times;
    for (int rep = 0; rep < 50; ++rep) {
      t0 = Clock::now();
      k.launch(NDRange{n}, Z, X, Y, A(2));
      rt.synchronize();
      times.push_back(us_since(t0));
    }
    std::sort(times.begin(), times.end());
    auto z = Z.to_vector();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (to_double(z[i]) != 2.0 * to_double(x[i]) + to_double(y[i])) ++wrong;
    }
    all_ok = all_ok && wrong == 0;
    std::printf("  n=%-8zu check %-4s first launch %8.1f us, launch+sync median %8.1f us, min %8.1f us\n",
                n, wrong == 0 ? "ok" : "FAIL", first, times[times.size() / 2], times[0]);
  }
  return all_ok;
}

}  // namespace

int main() {
  try {
    auto t0 = Clock::now();
    Runtime rt;
    std::printf("device: %s (ready in %.1f ms)\n", rt.device().summary().c_str(), us_since(t0) / 1e3);
    Jit jit(rt);
    bool ok = run_type<half>(rt, jit, "Float16");
    ok = run_type<float>(rt, jit, "Float32") && ok;
    ok = run_type<double>(rt, jit, "Float64") && ok;
    std::printf("%s\n", ok ? "all results verified" : "SOME RESULTS WRONG");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spvjit_saxpy_demo: %s\n", e.what());
    return 1;
  }
}
