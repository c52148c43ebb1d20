// Masked coarsening: kernels whose control flow differs between the W indices one coarsened
// work-item runs (boundary-guarded stencils, early returns, data-dependent branches, clamps and
// selects, guarded integer division) are if-converted, and still write exactly the bytes the
// scalar kernel writes — every element type, odd sizes, every width, 1D to 3D, bounds checks
// raised for active lanes only. Each kernel is also asked to be coarsened; when it is not, the
// failure quotes the reason compiling it declared elementwise() gives (the debug log's).
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "spvjit/spvjit.hpp"
#include "test/coarsen_support.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

// 1029 = 1024 + 5 leaves a tail for every width.
const std::size_t sizes[] = {1, 7, 31, 1000, 1029};
// The widths spvjit picks on x86 (SSE 4, AVX2 8, AVX-512 16 lanes of f32): whatever the machine,
// every one of them runs, the machine's own among them (so not again as "the device's", 0).
const unsigned widths[] = {4, 8, 16};

// Every width for f32, f64 and i8 (the widest vectors: 1024 bits of f64; the most lanes in a
// register: i8), and 2 for f64 (SSE's double width); the device's and one other for the rest,
// so that each width meets several types while a case stays short.
template <class T>
std::vector<unsigned> widths_for() {
  if constexpr (std::is_same_v<T, double>) {
    return {2, 4, 8, 16};
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, std::int8_t>) {
    return {std::begin(widths), std::end(widths)};
  } else {
    const unsigned other = std::is_same_v<T, half> || std::is_same_v<T, std::int32_t> ? 16
                           : std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint32_t> ? 8
                           : std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint64_t>
                               ? 4
                               : 2;
    return {0, other};
  }
}

// A kernel as written, and the same declared elementwise(): compiling that one with coarsening
// on throws a UserError saying why the kernel is not coarsened.
struct Kernels {
  KernelDef def;
  KernelDef declared;
};

template <class Body>
Kernels build(const std::string& name, Body&& body) {
  KernelBuilder plain(name);
  body(plain);
  KernelBuilder declared(name);
  body(declared);
  declared.elementwise();
  return {plain.finish(), declared.finish()};
}

// The 1-D kernels here: parameters Z (written), X, Y (read) and an i64 in compare_runs' order,
// handed to `body` with global_index(0).
template <class T, class Body>
Kernels build_1d(const std::string& name, Body body) {
  return build(name, [&body](KernelBuilder& kb) {
    auto z = kb.param<Global<T>>("Z");
    auto x = kb.param<Const<T>>("X");
    auto y = kb.param<Const<T>>("Y");
    auto n = kb.param<std::int64_t>("n");
    auto i = kb.global_index();
    body(kb, z, x, y, n, i);
  });
}

std::string refusal(Jit& jit, const Kernels& k, const Specialization& spec) {
  try {
    (void)jit.compile(k.declared, spec);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(declared elementwise(), it compiles without a reason)";
}

void check_coarsened(Jit& jit, const Kernels& k, const Specialization& spec = {}) {
  if (!is_coarsened(jit, k.def, spec)) {
    FAIL_CHECK(k.def.name() << " is not coarsened: " << refusal(jit, k, spec));
  }
}

// For kernels that may go either way: what the SPIR-V shows and what compiling the declared
// kernel says must agree.
bool check_told(Jit& jit, const Kernels& k) {
  const bool coarsened = is_coarsened(jit, k.def);
  if (coarsened) {
    CHECK_NOTHROW((void)jit.compile(k.declared));
  } else {
    // Refused for the kernel's sake: the declaration is an error naming why. Left alone because
    // coarsening would not pay (per-lane accesses and no loop): it compiles.
    try {
      (void)jit.compile(k.declared);
    } catch (const UserError& e) {
      CHECK(std::string(e.what()).find("declared elementwise() but cannot be coarsened: it ") !=
            std::string::npos);
    }
  }
  return coarsened;
}

// Runs f.operator()<T>() for each type, the type's name captured for failure messages.
template <class... Ts, class F>
void for_types(F&& f) {
  auto one = [&]<class T>() {
    const std::string type(name(scalar_of<T>));
    CAPTURE(type);
    f.template operator()<T>();
  };
  (one.template operator()<Ts>(), ...);
}

template <class F>
void for_all_types(F&& f) {
  for_types<float, double, half, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
            std::int32_t, std::uint32_t, std::int64_t, std::uint64_t>(f);
}

template <class T>
std::string type_name() {
  return std::string(name(scalar_of<T>));
}

template <class T>
std::string named(const char* what) {
  return std::string("masked_") + what + "_" + type_name<T>();
}

// A threshold near the middle of T's random values, so that lanes disagree about it.
template <class A>
A middle() {
  if constexpr (std::is_unsigned_v<A>) return std::numeric_limits<A>::max() / 2;
  return A(0);
}

// At the widths for T: the kernel is coarsened and bit-identical on every size; `scalar(n)` gives
// the scalar parameter of a launch of n.
template <class T, class S>
void identical_everywhere(const Kernels& k, S scalar) {
  for (unsigned width : widths_for<T>()) {
    CAPTURE(width);
    check_coarsened(coarse_jit(width), k);
    for (std::size_t n : sizes) compare_runs<T>(k.def, n, scalar(n), coarse_jit(width));
  }
}

// The launch's n, and a smaller one: active lanes end inside the ndrange as well as at its end;
// and launches in groups of 32, padded past n where 32 does not divide it.
template <class T>
void identical_with_n(const Kernels& k) {
  identical_everywhere<T>(k, [](std::size_t n) { return std::int64_t(n); });
  const WorkGroup given{32};
  for (unsigned width : {0u, widths_for<T>().back()}) {
    CAPTURE(width);
    for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{1029}}) {
      compare_runs<T>(k.def, n, std::int64_t(n - n / 3), coarse_jit(width));
      compare_runs<T>(k.def, n, std::int64_t(n), coarse_jit(width), {}, &given);
    }
  }
}

// ---- 1D stencils: x[i - 1] + x[i] + x[i + 1] inside, and at the edges nothing or x[i] ----

enum class Edges { Skip, Copy, InBounds };

template <class T>
Kernels stencil(Edges edges) {
  const char* what = edges == Edges::Skip   ? "stencil_skip"
                     : edges == Edges::Copy ? "stencil_copy"
                                            : "stencil_inbounds";
  return build_1d<T>(named<T>(what),
                     [edges](KernelBuilder& kb, auto& z, auto& x, auto&, auto& n, auto& i) {
                       auto interior = 0 < i && i < n - 1;
                       auto sum = [&] { z[i] = x[i - 1] + x[i] + x[i + 1]; };
                       switch (edges) {
                         case Edges::Skip:
                           kb.allow_padding();
                           kb.if_(interior, sum);
                           break;
                         case Edges::Copy:
                           kb.allow_padding();
                           kb.if_(i < n, [&] { kb.if_else(interior, sum, [&] { z[i] = x[i]; }); });
                           break;
                         case Edges::InBounds:
                           kb.if_(kb.in_ndrange() && interior, sum);
                           break;
                       }
                     });
}

// ---- early return ----

template <class T>
Kernels early_return(bool on_data) {
  using A = arithmetic_t<T>;
  return build_1d<T>(named<T>(on_data ? "return_data" : "return_range"),
                     [on_data](KernelBuilder& kb, auto& z, auto& x, auto& y, auto& n, auto& i) {
                       kb.allow_padding();
                       kb.if_(!(i < n), [&] { kb.return_(); });
                       if (on_data) kb.if_(x[i] < y[i], [&] { kb.return_(); });
                       Val<A> a = x[i], b = y[i];
                       z[i] = max(a, b) - min(a, b);
                     });
}

// ---- data-dependent branches ----

template <class T>
Kernels branch_both_sides() {
  return build_1d<T>(named<T>("branch"),
                     [](KernelBuilder& kb, auto& z, auto& x, auto& y, auto&, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         kb.if_else(
                             x[i] > y[i], [&] { z[i] = x[i] - y[i]; }, [&] { z[i] = y[i] + y[i]; });
                       });
                     });
}

template <class T>
Kernels branch_sqrt() {
  return build_1d<T>(
      named<T>("sqrt"), [](KernelBuilder& kb, auto& z, auto& x, auto&, auto&, auto& i) {
        kb.if_(kb.in_ndrange(), [&] {
          kb.if_else(
              x[i] > 0, [&] { z[i] = sqrt(x[i].get()); }, [&] { z[i] = -x[i].get(); });
        });
      });
}

// Nested ifs, a variable set on some paths only, and a path that writes nothing.
template <class T>
Kernels nested() {
  using A = arithmetic_t<T>;
  return build_1d<T>(named<T>("nested"),
                     [](KernelBuilder& kb, auto& z, auto& x, auto& y, auto&, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         Val<A> a = x[i], b = y[i];
                         auto s = kb.lit(middle<A>());
                         auto v = kb.var(a);
                         kb.if_else(
                             a > b,
                             [&] {
                               kb.if_else(
                                   b > s, [&] { v = a - b; }, [&] { v = b; });
                               z[i] = v;
                             },
                             [&] {
                               kb.if_(a > s, [&] {
                                 kb.if_(b < s, [&] { v = b + b; });
                                 z[i] = v;
                               });
                             });
                       });
                     });
}

// A variable set before a varying if_else, changed on one side only and read after the join:
// the other side's copy hands the join the value from before the branch (the fuzzer found a
// null operand there).
template <class T>
Kernels keep_value() {
  using A = arithmetic_t<T>;
  return build_1d<T>(named<T>("keep"),
                     [](KernelBuilder& kb, auto& z, auto& x, auto& y, auto&, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         Val<A> a = x[i], b = y[i];
                         auto v = kb.var(a);
                         kb.if_else(
                             a > b, [&] { v = b; }, [&] { z[i] = b; });
                         z[i] = v;
                       });
                     });
}

// Writes in one branch only, after an unconditional store: the later store must win where it
// runs, and elements it skips keep the first.
template <class T>
Kernels overwrite() {
  using A = arithmetic_t<T>;
  return build_1d<T>(named<T>("overwrite"),
                     [](KernelBuilder& kb, auto& z, auto& x, auto& y, auto&, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         kb.if_(x[i] != y[i], [&] { z[i] = x[i]; });
                         kb.if_(y[i] > kb.lit(middle<A>()), [&] { z[i] = y[i]; });
                       });
                     });
}

// ---- clamps and selects, behind i < n without in_ndrange() ----

template <class T>
Kernels clamps() {
  using A = arithmetic_t<T>;
  return build_1d<T>(
      named<T>("clamp"), [](KernelBuilder& kb, auto& z, auto& x, auto& y, auto& n, auto& i) {
        kb.allow_padding();
        kb.if_(i < n, [&] {
          Val<A> a = x[i], b = y[i];
          auto s = kb.lit(middle<A>());
          auto lo = min(b, s), hi = max(b, s);
          auto chain = select(a < b, max(a, s), select(a > s, min(b, a), select(a == b, s, b)));
          kb.if_else(
              a != b, [&] { z[i] = clamp(a, lo, hi); }, [&] { z[i] = chain; });
        });
      });
}

// ---- integer division where the guard keeps the divisor safe ----

template <class T>
Kernels division(bool by_return) {
  return build_1d<T>(named<T>(by_return ? "div_return" : "div"),
                     [by_return](KernelBuilder& kb, auto& z, auto& x, auto& y, auto&, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         Val<T> a = x[i], b = y[i];
                         auto safe =
                             b != T(0) && !(a == std::numeric_limits<T>::min() && b == T(-1));
                         if (by_return) {
                           kb.if_(!safe, [&] { kb.return_(); });
                           z[i] = a / b - a % b;
                         } else {
                           kb.if_else(
                               safe, [&] { z[i] = a / b + a % b; }, [&] { z[i] = a; });
                         }
                       });
                     });
}

// Dividends with the type's least value in a third of the lanes; divisors 0, -1 and 1 in half.
template <class T>
std::vector<T> edgy(std::size_t n, unsigned seed, bool divisor) {
  std::vector<T> out = spvjit::test::random_data<T>(n, seed);
  std::mt19937_64 gen(seed + 100);
  for (auto& v : out) {
    const auto pick = gen() % 6;
    if (divisor) {
      if (pick == 0) v = T(0);
      if (pick == 1) v = T(-1);
      if (pick == 2) v = T(1);
    } else if (pick < 2) {
      v = std::numeric_limits<T>::min();
    }
  }
  return out;
}

// ---- loops ----

// A loop with a uniform trip count before a varying branch (coarsened), and one inside it
// (either way).
template <class T>
Kernels loop(bool inside_branch) {
  using A = arithmetic_t<T>;
  return build_1d<T>(
      named<T>(inside_branch ? "loop_inside" : "loop_before"),
      [inside_branch](KernelBuilder& kb, auto& z, auto& x, auto& y, auto& m, auto& i) {
        kb.if_(kb.in_ndrange(), [&] {
          auto acc = kb.var(kb.lit(A(0)));
          auto add = [&] { kb.for_(0, m, [&](Val<std::int64_t>) { acc += x[i]; }); };
          if (inside_branch) {
            kb.if_(x[i] > y[i], add);
            z[i] = acc;
          } else {
            add();
            kb.if_else(
                acc > y[i], [&] { z[i] = acc; }, [&] { z[i] = y[i]; });
          }
        });
      });
}

// A loop whose exit differs between the lanes: run under lane masks until no lane stays.
template <class T>
Kernels halving() {
  using A = arithmetic_t<T>;
  return build_1d<T>(named<T>("halving"),
                     [](KernelBuilder& kb, auto& z, auto& x, auto&, auto&, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         auto v = kb.var(x[i].get());
                         // Infinities would never get there.
                         kb.while_([&] { return v > A(1) && v < std::numeric_limits<A>::max(); },
                                   [&] { v = v / A(2); });
                         z[i] = v;
                       });
                     });
}

// A masked loop's side effects and loads: the exit test loads y[i] (masked by the lanes still
// iterating), the body stores each step's value (masked by the lanes that stay), an integer
// division by a loaded divisor (1 for finished lanes), a counter uniform inside the loop and
// each lane's own after it, and a branch on it after the loop.
template <class T>
Kernels stepping() {
  using A = arithmetic_t<T>;
  return build_1d<T>(named<T>("stepping"),
                     [](KernelBuilder& kb, auto& z, auto& x, auto& y, auto& n, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         auto v = kb.var(x[i].get());
                         auto steps = kb.var(std::int64_t{0});
                         kb.while_([&] { return v > Val<A>(y[i]) && steps < n; },
                                   [&] {
                                     if constexpr (std::is_floating_point_v<A>) {
                                       v = v * A(0.75) - A(1);
                                     } else {
                                       // A divisor of 2 to 7, never 0 or -1 (INT_MIN / -1 traps).
                                       v = v / ((Val<A>(y[i]) & A(7)) | A(2)) - A(1);
                                     }
                                     z[i] = v;
                                     steps += 1;
                                   });
                         kb.if_(steps == std::int64_t{0}, [&] { z[i] = x[i] + y[i]; });
                       });
                     });
}

// A branch on each lane's own value inside a loop every lane runs alike (a conditional
// accumulation): if-converted inside the loop, one iteration's region at a time.
template <class T>
Kernels branch_in_loop() {
  using A = arithmetic_t<T>;
  return build_1d<T>(named<T>("branch_in_loop"), [](KernelBuilder& kb, auto& z, auto& x, auto& y,
                                                    auto& n, auto& i) {
    kb.if_(kb.in_ndrange(), [&] {
      auto v = kb.var(x[i].get());
      kb.for_(0, n, [&](Val<std::int64_t> k) {
        kb.if_else(
            v > Val<A>(y[i]), [&] { v = v - Val<A>(y[i]); }, [&] { v = v + cast<A>(k); });
        kb.if_(v < Val<A>(x[i]), [&] { z[i] = v; });  // a masked store
      });
      z[i] = z[i] + v;
    });
  });
}

// Loops masking does not take: a second varying exit (break_), a varying exit of a loop holding
// another loop, and a varying branch inside a loop left on a varying condition. Each says why,
// and stays correct.
template <class T>
Kernels loop_refused(int which) {
  using A = arithmetic_t<T>;
  const char* names[] = {"loop_break", "loop_nest", "loop_masked_branch"};
  return build_1d<T>(named<T>(names[which]),
                     [which](KernelBuilder& kb, auto& z, auto& x, auto& y, auto& n, auto& i) {
                       kb.if_(kb.in_ndrange(), [&] {
                         auto v = kb.var(x[i].get());
                         auto k = kb.var(std::int64_t{0});
                         switch (which) {
                           case 0:
                             kb.while_([&] { return k < n; },
                                       [&] {
                                         kb.if_(v > Val<A>(y[i]), [&] { kb.break_(); });
                                         v = v + A(1);
                                         k += 1;
                                       });
                             break;
                           case 1:
                             kb.while_([&] { return v > Val<A>(y[i]) && k < n; },
                                       [&] {
                                         kb.for_(0, 2, [&](Val<std::int64_t>) { v = v - A(1); });
                                         k += 1;
                                       });
                             break;
                           default:
                             kb.while_([&] { return v > Val<A>(y[i]) && k < n; },
                                       [&] {
                                         kb.if_(v > A(0), [&] { v = v - A(1); });
                                         k += 1;
                                       });
                             break;
                         }
                         z[i] = v;
                       });
                     });
}

// Neighbours at clamped indices (clamp-to-edge): not x[i + k], so either way.
template <class T>
Kernels clamped_index() {
  return build_1d<T>(named<T>("clamped_index"),
                     [](KernelBuilder& kb, auto& z, auto& x, auto&, auto& n, auto& i) {
                       kb.allow_padding();
                       kb.if_(i < n, [&] {
                         auto left = max(i - 1, kb.lit(std::int64_t{0})), right = min(i + 1, n - 1);
                         z[i] = x[left] + x[i] + x[right];
                       });
                     });
}

// ---- 2D and 3D stencils over column-major arrays, KernelAbstractions' way ----

// A heat step: allow_padding() and an interior check (edges untouched), or in_ndrange() and the
// Jacobi step of test/ka/stencil.cpp (edges copied).
template <class T>
Kernels heat2d(bool copy_edges) {
  return build(named<T>(copy_edges ? "jacobi2d" : "heat2d"), [copy_edges](KernelBuilder& kb) {
    auto unew = kb.param<GlobalArray<T, 2, ColumnMajor>>("unew");
    auto u = kb.param<ConstArray<T, 2, ColumnMajor>>("u");
    auto a = kb.param<T>("a");
    auto index = global_indices<2>(kb);
    auto i = index[0], j = index[1];
    auto n = size(u, 0), m = size(u, 1);
    auto interior = 0 < i && i < n - 1 && 0 < j && j < m - 1;
    if (copy_edges) {
      kb.if_(kb.in_ndrange(), [&] {
        kb.if_else(
            interior,
            [&] { unew(i, j) = (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1)) * a; },
            [&] { unew(i, j) = u(i, j); });
      });
    } else {
      kb.allow_padding();
      kb.if_(interior, [&] {
        unew(i, j) =
            u(i, j) + a * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - T(4) * u(i, j));
      });
    }
  });
}

template <class T>
Kernels heat3d() {
  return build(named<T>("heat3d"), [](KernelBuilder& kb) {
    auto unew = kb.param<GlobalArray<T, 3, ColumnMajor>>("unew");
    auto u = kb.param<ConstArray<T, 3, ColumnMajor>>("u");
    auto a = kb.param<T>("a");
    kb.allow_padding();
    auto index = global_indices<3>(kb);
    auto i = index[0], j = index[1], k = index[2];
    auto interior =
        0 < i && i < size(u, 0) - 1 && 0 < j && j < size(u, 1) - 1 && 0 < k && k < size(u, 2) - 1;
    kb.if_(interior, [&] {
      unew(i, j, k) =
          u(i, j, k) + a * (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) +
                            u(i, j, k - 1) + u(i, j, k + 1) - T(6) * u(i, j, k));
    });
  });
}

// Two steps, the grids swapped between them, with each Jit; the final grids' bytes compared.
template <class T>
void compare_grids(const Kernels& k, std::array<std::size_t, 3> dims, unsigned rank, Jit& coarse,
                   const Specialization& spec) {
  auto& rt = runtime();
  const std::size_t total = dims[0] * dims[1] * dims[2];
  const auto start = spvjit::test::random_data<T>(total, 7),
             other = spvjit::test::random_data<T>(total, 8);
  std::vector<T> out[2];
  Jit* jits[2] = {&scalar_jit(), &coarse};
  for (int j = 0; j < 2; ++j) {
    Kernel kernel = jits[j]->compile(k.def, spec);
    auto u = rt.upload(start), unew = rt.upload(other);
    for (int step = 0; step < 2; ++step) {
      if (rank == 2) {
        kernel.launch(NDRange{dims[0], dims[1]}, shaped(unew, dims[0], dims[1]),
                      shaped(u, dims[0], dims[1]), T(0.125));
      } else {
        kernel.launch(NDRange{dims[0], dims[1], dims[2]}, shaped(unew, dims[0], dims[1], dims[2]),
                      shaped(u, dims[0], dims[1], dims[2]), T(0.125));
      }
      std::swap(u, unew);
    }
    rt.synchronize();
    out[j] = u.to_vector();
  }
  CAPTURE(dims[0]);
  CAPTURE(dims[1]);
  CAPTURE(dims[2]);
  // Sums of five or seven random bit patterns meet two NaNs now and then, and LLVM keeps no
  // promise on which payload such a sum carries (it may commute an fadd in one build and not in
  // the other): both NaN is equal here.
  check_same_bits(out[0], out[1], start, other, /*nan_payloads_may_differ=*/true);
}

template <class T>
void grids_identical(const Kernels& k, unsigned rank) {
  const std::array<std::size_t, 3> grids2[] = {
      {37, 23, 1}, {3, 50, 1}, {1, 1, 1}, {17, 1, 1}, {1029, 3, 1}};
  const std::array<std::size_t, 3> grids3[] = {{9, 7, 5}, {33, 4, 3}, {1, 1, 1}, {2, 3, 4}};
  const Specialization dynamic;
  Specialization grouped;
  grouped.workgroup = rank == 2 ? WorkGroup{16, 16} : WorkGroup{8, 4, 2};
  const std::span<const std::array<std::size_t, 3>> grids =
      rank == 2 ? std::span<const std::array<std::size_t, 3>>(grids2)
                : std::span<const std::array<std::size_t, 3>>(grids3);
  // f64 at two widths: the f32 runs cover the others.
  const std::vector<unsigned> grid_widths =
      std::is_same_v<T, double> ? std::vector<unsigned>{0, 8} : widths_for<T>();
  for (unsigned width : grid_widths) {
    CAPTURE(width);
    for (const Specialization* spec : {&dynamic, static_cast<const Specialization*>(&grouped)}) {
      const bool static_group = spec == &grouped;
      CAPTURE(static_group);
      check_coarsened(coarse_jit(width), k, *spec);
      for (const auto& dims : grids) compare_grids<T>(k, dims, rank, coarse_jit(width), *spec);
    }
  }
}

// ---- bounds checks ----

// The BoundsError the launch raises at synchronize ("" when none).
template <class F>
std::string bounds_message(F&& launch) {
  launch();
  try {
    runtime().synchronize();
  } catch (const BoundsError& e) {
    return e.what();
  }
  return {};
}

// z[i] = y[i + shift] where x[i] > 0: the lanes x switches off may reach outside y.
Kernels masked_reach() {
  return build("masked_reach", [](KernelBuilder& kb) {
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    auto y = kb.param<Const<float>>("Y");
    auto shift = kb.param<std::int64_t>("shift");
    auto i = kb.global_index();
    kb.if_(kb.in_ndrange(), [&] { kb.if_(x[i] > 0.0f, [&] { z[i] = y[i + shift]; }); });
  });
}

// Neighbours one step left or right, behind the guard that keeps them inside.
Kernels guarded_neighbour(bool left) {
  return build(left ? "masked_left" : "masked_right", [left](KernelBuilder& kb) {
    auto z = kb.param<Global<float>>("Z");
    auto x = kb.param<Const<float>>("X");
    (void)kb.param<Const<float>>("Y");
    auto n = kb.param<std::int64_t>("n");
    kb.allow_padding();
    auto i = kb.global_index();
    if (left) {
      kb.if_(0 < i && i < n, [&] { z[i] = x[i - 1]; });
    } else {
      kb.if_(i + 1 < n, [&] { z[i] = x[i + 1]; });
    }
  });
}

}  // namespace

TEST_CASE("masked coarsening: a 1D 3-point stencil behind 0 < i < n - 1, with allow_padding()") {
  for_all_types([]<class T>() { identical_with_n<T>(stencil<T>(Edges::Skip)); });
}

TEST_CASE("masked coarsening: a 1D 3-point stencil that copies x[i] at the edges (if_else)") {
  for_all_types([]<class T>() { identical_with_n<T>(stencil<T>(Edges::Copy)); });
}

TEST_CASE("masked coarsening: a 1D 3-point stencil behind in_ndrange() and the interior check") {
  for_all_types([]<class T>() { identical_with_n<T>(stencil<T>(Edges::InBounds)); });
}

TEST_CASE("masked coarsening: early return_() for lanes past n, and for lanes the data picks") {
  for_all_types([]<class T>() {
    identical_with_n<T>(early_return<T>(false));
    identical_with_n<T>(early_return<T>(true));
  });
}

TEST_CASE("masked coarsening: data-dependent if_else, lanes disagreeing at random") {
  for_all_types([]<class T>() {
    identical_everywhere<T>(branch_both_sides<T>(), [](std::size_t) { return std::int64_t{0}; });
  });
  for_types<float, double, half>([]<class T>() {
    identical_everywhere<T>(branch_sqrt<T>(), [](std::size_t) { return std::int64_t{0}; });
  });
}

TEST_CASE("masked coarsening: nested ifs, variables set on some paths, elements left untouched") {
  for_all_types([]<class T>() {
    identical_everywhere<T>(nested<T>(), [](std::size_t) { return std::int64_t{0}; });
    identical_everywhere<T>(overwrite<T>(), [](std::size_t) { return std::int64_t{0}; });
    identical_everywhere<T>(keep_value<T>(), [](std::size_t) { return std::int64_t{0}; });
  });
}

TEST_CASE("masked coarsening: clamps and select chains behind i < n") {
  for_all_types([]<class T>() { identical_with_n<T>(clamps<T>()); });
}

TEST_CASE(
    "masked coarsening: integer division by zero and INT_MIN / -1 in masked-off lanes does not "
    "trap") {
  for_types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t,
            std::int64_t, std::uint64_t>([]<class T>() {
    for (bool by_return : {false, true}) {
      CAPTURE(by_return);
      const Kernels k = division<T>(by_return);
      for (unsigned width : widths_for<T>()) {
        CAPTURE(width);
        check_coarsened(coarse_jit(width), k);
        for (std::size_t n : sizes) {
          compare_runs_on<T>(k.def, edgy<T>(n, 11, false), edgy<T>(n, 12, true), std::int64_t{0},
                             coarse_jit(width));
        }
      }
    }
  });
}

TEST_CASE("masked coarsening: a loop with a uniform trip count before a varying branch") {
  // Four types (each compile is a loop's worth of code): float, half storage, the narrowest and
  // the widest integers.
  for_types<float, half, std::int8_t, std::uint64_t>([]<class T>() {
    identical_everywhere<T>(loop<T>(false), [](std::size_t n) { return std::int64_t(n % 4); });
    // Inside a varying branch it may be left alone; either way the log must say which, and the
    // bits must agree.
    const Kernels inside = loop<T>(true);
    for (unsigned width : widths_for<T>()) {
      CAPTURE(width);
      (void)check_told(coarse_jit(width), inside);
      for (std::size_t n : sizes)
        compare_runs<T>(inside.def, n, std::int64_t(n % 4), coarse_jit(width));
    }
  });
}

TEST_CASE(
    "masked coarsening: 2D heat step (global_indices<2>, ColumnMajor, allow_padding, interior "
    "check)") {
  for_types<float, double>([]<class T>() { grids_identical<T>(heat2d<T>(false), 2); });
}

TEST_CASE("masked coarsening: 2D Jacobi step (in_ndrange, interior if_else copying the edges)") {
  for_types<float, double>([]<class T>() { grids_identical<T>(heat2d<T>(true), 2); });
}

TEST_CASE("masked coarsening: 3D 7-point heat step (global_indices<3>, allow_padding)") {
  for_types<float, double>([]<class T>() { grids_identical<T>(heat3d<T>(), 3); });
}

TEST_CASE("masked coarsening: lanes masked off outside the buffer raise no BoundsError") {
  for (bool left : {true, false}) {
    const Kernels k = guarded_neighbour(left);
    CAPTURE(k.def.name());
    for (unsigned width : widths) {
      CAPTURE(width);
      check_coarsened(coarse_jit(width), k);
      for (std::size_t n : sizes) {
        CHECK_NOTHROW(compare_runs<float>(k.def, n, std::int64_t(n), coarse_jit(width)));
      }
    }
  }
}

TEST_CASE(
    "masked coarsening: an active lane outside the buffer raises the scalar kernel's BoundsError") {
  auto& rt = runtime();
  const Kernels k = masked_reach();
  for (unsigned width : widths) {
    CAPTURE(width);
    check_coarsened(coarse_jit(width), k);
  }
  struct Case {
    std::size_t n;
    std::int64_t shift;
    std::size_t failing;  // the one active lane that reaches outside Y
  };
  // In a tail (1000 = 62 * 16 + 8), inside a full vector, and below 0.
  for (const Case c :
       {Case{1000, 5, 997}, Case{1024, 3, 1021}, Case{1024, 9, 1017}, Case{64, -3, 1}}) {
    CAPTURE(c.n);
    CAPTURE(c.shift);
    // Lanes that would reach outside are switched off, except `failing`.
    std::vector<float> flags(c.n, 1.0f);
    for (std::size_t i = 0; i < c.n; ++i) {
      const auto reach = static_cast<std::int64_t>(i) + c.shift;
      if (reach < 0 || reach >= static_cast<std::int64_t>(c.n)) flags[i] = -1.0f;
    }
    const auto data = spvjit::test::random_data<float>(c.n, 2);
    for (bool fails : {false, true}) {
      CAPTURE(fails);
      flags[c.failing] = fails ? 1.0f : -1.0f;
      const std::string expected =
          fails ? "kernel 'masked_reach': Y[" +
                      std::to_string(static_cast<std::int64_t>(c.failing) + c.shift) +
                      "] is out of bounds: Y holds " + std::to_string(c.n) + " f32 (work-item " +
                      std::to_string(c.failing) + " of ndrange (" + std::to_string(c.n) + "))"
                : "";
      std::vector<float> out[2];
      for (unsigned width : widths) {
        CAPTURE(width);
        Jit* jits[2] = {&scalar_jit(), &coarse_jit(width)};
        for (int j = 0; j < 2; ++j) {
          CAPTURE(j);
          Kernel kernel = jits[j]->compile(k.def);
          auto X = rt.upload(flags), Y = rt.upload(data);
          auto Z = rt.upload(spvjit::test::random_data<float>(c.n, 3));
          CHECK(bounds_message([&] { kernel.launch(NDRange{c.n}, Z, X, Y, c.shift); }) == expected);
          out[j] = Z.to_vector();
        }
        if (!fails) check_same_bits(out[0], out[1], flags, data);
      }
    }
  }
}

TEST_CASE("masked coarsening: a loop whose exit differs between lanes runs under lane masks") {
  for_types<float, double, std::int32_t, std::uint64_t>([]<class T>() {
    identical_everywhere<T>(halving<T>(), [](std::size_t) { return std::int64_t{0}; });
  });
}

TEST_CASE(
    "masked coarsening: a masked loop's loads, stores, divisions and exit values are each "
    "lane's own") {
  for_types<float, double, std::int32_t, std::uint64_t, std::int16_t>([]<class T>() {
    // At most 40 steps: the bound makes lanes leave at different iterations.
    identical_everywhere<T>(stepping<T>(), [](std::size_t) { return std::int64_t{40}; });
  });
}

TEST_CASE("masked coarsening: a varying branch inside a loop every lane runs alike") {
  for_types<float, double, std::int32_t, std::uint8_t>([]<class T>() {
    identical_everywhere<T>(branch_in_loop<T>(), [](std::size_t) { return std::int64_t{6}; });
  });
}

TEST_CASE("masked coarsening: loops masking does not take say why, and stay correct") {
  const char* reasons[] = {
      "leaves a loop at more than one place",
      "leaves a loop holding other loops on a varying condition",
      "branches on a varying condition inside a loop whose exit also differs between lanes"};
  for_types<float, std::int32_t>([&]<class T>() {
    for (int which = 0; which < 3; ++which) {
      CAPTURE(which);
      const Kernels k = loop_refused<T>(which);
      CHECK_FALSE(is_coarsened(coarse_jit(), k.def));
      CHECK(refusal(coarse_jit(), k, {}).find(reasons[which]) != std::string::npos);
      for (std::size_t n : {std::size_t{31}, std::size_t{1029}}) {
        compare_runs<T>(k.def, n, std::int64_t{5}, coarse_jit());
      }
    }
  });
}

TEST_CASE("masked coarsening: neighbours at clamped indices, coarsened or not, stay correct") {
  for_types<float, half, std::int16_t>([]<class T>() {
    const Kernels k = clamped_index<T>();
    for (unsigned width : widths_for<T>()) {
      CAPTURE(width);
      (void)check_told(coarse_jit(width), k);
      for (std::size_t n : sizes) compare_runs<T>(k.def, n, std::int64_t(n), coarse_jit(width));
    }
  });
}
