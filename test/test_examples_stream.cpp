// examples::stream_copy, _scale, _add, _triad, stream_dot, the grid-stride kernels and
// sum_squares_columns (the apps/stream benchmark's kernels) against C++ loops: the element-wise
// ones bit for bit on sizes their workgroup must divide (and the refusal of one it does not), the
// reductions' partial sums group by group against the same order on the host, on 1 to 64 groups
// and at several group sizes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "spvjit/examples.hpp"
#include "test/full_mantissa.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

// One group's sum in the kernel's order: halves folded onto the first half, level by level.
double tree_sum(std::vector<double> values) {
  for (std::size_t s = values.size() / 2; s > 0; s /= 2) {
    for (std::size_t i = 0; i < s; ++i) values[i] += values[i + s];
  }
  return values[0];
}

}  // namespace

TEST_CASE("examples::stream_copy, _scale, _add and _triad against C++ loops, bit for bit") {
  auto& rt = test::runtime();
  const double s = 3.0;
  for (std::size_t n : {std::size_t{1}, std::size_t{64}, std::size_t{4096}, std::size_t{65536}}) {
    CAPTURE(n);
    const auto a = test::full_mantissa_values<double>(n, 1),
               b = test::full_mantissa_values<double>(n, 2),
               c = test::full_mantissa_values<double>(n, 3);
    auto A = rt.upload(a), B = rt.upload(b), C = rt.upload(c);
    std::vector<double> expected(n);

    auto out = rt.zeros<double>(n);
    test::compile_checked(examples::stream_copy()).launch(NDRange{n}, out, A);
    CHECK(out.to_vector() == a);

    test::compile_checked(examples::stream_scale()).launch(NDRange{n}, out, C, s);
    for (std::size_t i = 0; i < n; ++i) expected[i] = s * c[i];
    CHECK(out.to_vector() == expected);

    test::compile_checked(examples::stream_add()).launch(NDRange{n}, out, A, B);
    for (std::size_t i = 0; i < n; ++i) expected[i] = a[i] + b[i];
    CHECK(out.to_vector() == expected);

    test::compile_checked(examples::stream_triad()).launch(NDRange{n}, out, B, C, s);
    for (std::size_t i = 0; i < n; ++i) expected[i] = b[i] + s * c[i];
    CHECK(out.to_vector() == expected);
  }
}

TEST_CASE(
    "examples::stream_copy takes a static workgroup that does not divide the ndrange, and "
    "its padding work-items copy nothing") {
  Kernel copy = test::jit().compile(examples::stream_copy(), test::static_workgroup(WorkGroup{64}));
  auto& rt = test::runtime();
  std::vector<double> values(100);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) + 0.5;
  auto a = rt.upload(values);
  auto whole = rt.upload(std::vector<double>(256, -7.0));
  copy.launch(NDRange{100}, view(whole, 0, 100), a);
  rt.synchronize();
  const auto after = whole.to_vector();
  for (std::size_t i = 0; i < after.size(); ++i) {
    CAPTURE(i);
    REQUIRE(after[i] == (i < 100 ? values[i] : -7.0));
  }
}

TEST_CASE("examples::stream_dot: each group's tree sum, as the host computes it in that order") {
  auto& rt = test::runtime();
  for (std::int64_t group : {std::int64_t{1}, std::int64_t{64}, std::int64_t{1024}}) {
    Kernel dot =
        test::compile_checked(examples::stream_dot(group),
                              test::static_workgroup(WorkGroup{static_cast<std::size_t>(group)}));
    for (std::size_t groups : {std::size_t{1}, std::size_t{3}, std::size_t{64}}) {
      const std::size_t g = static_cast<std::size_t>(group), n = g * groups;
      CAPTURE(group);
      CAPTURE(groups);
      const auto a = test::full_mantissa_values<double>(n, 4),
                 b = test::full_mantissa_values<double>(n, 5);
      auto partial = rt.zeros<double>(groups);
      dot.launch(NDRange{n}, partial, rt.upload(a), rt.upload(b));
      std::vector<double> expected(groups);
      for (std::size_t k = 0; k < groups; ++k) {
        std::vector<double> products(g);
        for (std::size_t i = 0; i < g; ++i) products[i] = a[k * g + i] * b[k * g + i];
        expected[k] = tree_sum(products);
      }
      CHECK(partial.to_vector() == expected);
    }
  }
  CHECK_THROWS_WITH_AS(examples::stream_dot(48),
                       "examples::stream_dot: group 48; expected a power of two from 1 to 4096",
                       UserError);
}

TEST_CASE(
    "examples::stream_dot_grid_stride: each work-item's strided sum, then its group's tree "
    "sum, as the host computes them in that order") {
  auto& rt = test::runtime();
  for (std::int64_t group : {std::int64_t{1}, std::int64_t{64}, std::int64_t{1024}}) {
    Kernel dot =
        test::compile_checked(examples::stream_dot_grid_stride(group),
                              test::static_workgroup(WorkGroup{static_cast<std::size_t>(group)}));
    const std::size_t g = static_cast<std::size_t>(group);
    for (std::size_t groups : {std::size_t{1}, std::size_t{3}}) {
      const std::size_t items = g * groups;
      // Fewer elements than work-items, one round and a part, several rounds and a part.
      for (std::size_t n : {items / 2, items + items / 3 + 1, 5 * items + 7}) {
        CAPTURE(group);
        CAPTURE(groups);
        CAPTURE(n);
        const auto a = test::full_mantissa_values<double>(n, 4),
                   b = test::full_mantissa_values<double>(n, 5);
        auto partial = rt.zeros<double>(groups);
        dot.launch(NDRange{items}, partial, rt.upload(a), rt.upload(b),
                   static_cast<std::int64_t>(n));
        std::vector<double> expected(groups);
        for (std::size_t k = 0; k < groups; ++k) {
          std::vector<double> sums(g, 0.0);
          for (std::size_t i = 0; i < g; ++i) {
            for (std::size_t j = k * g + i; j < n; j += items) sums[i] += a[j] * b[j];
          }
          expected[k] = tree_sum(sums);
        }
        CHECK(partial.to_vector() == expected);
      }
    }
  }
  CHECK_THROWS_WITH_AS(
      examples::stream_dot_grid_stride(48),
      "examples::stream_dot_grid_stride: group 48; expected a power of two from 1 to 4096",
      UserError);
}

TEST_CASE(
    "examples::stream_sum_grid_stride: each work-item's strided sum of one array, then its "
    "group's tree sum, as the host computes them in that order") {
  auto& rt = test::runtime();
  for (std::int64_t group : {std::int64_t{1}, std::int64_t{64}, std::int64_t{1024}}) {
    Kernel sum =
        test::compile_checked(examples::stream_sum_grid_stride(group),
                              test::static_workgroup(WorkGroup{static_cast<std::size_t>(group)}));
    const std::size_t g = static_cast<std::size_t>(group);
    for (std::size_t groups : {std::size_t{1}, std::size_t{3}}) {
      const std::size_t items = g * groups;
      // Fewer elements than work-items, exactly as many, several rounds and a part.
      for (std::size_t n : {items / 2, items, 5 * items + 7}) {
        CAPTURE(group);
        CAPTURE(groups);
        CAPTURE(n);
        const auto a = test::full_mantissa_values<double>(std::max<std::size_t>(n, 1), 6);
        auto partial = rt.zeros<double>(groups);
        sum.launch(NDRange{items}, partial, rt.upload(a), static_cast<std::int64_t>(n));
        std::vector<double> expected(groups);
        for (std::size_t k = 0; k < groups; ++k) {
          std::vector<double> sums(g, 0.0);
          for (std::size_t i = 0; i < g; ++i) {
            for (std::size_t j = k * g + i; j < n; j += items) sums[i] += a[j];
          }
          expected[k] = tree_sum(sums);
        }
        CHECK(partial.to_vector() == expected);
      }
    }
  }
}

TEST_CASE("examples::stream_triad_grid_stride: the triad written grid-stride, bit for bit") {
  auto& rt = test::runtime();
  Kernel triad = test::compile_checked(examples::stream_triad_grid_stride());
  const double s = 3.0;
  for (std::size_t items : {std::size_t{1}, std::size_t{64}, std::size_t{1000}}) {
    for (std::size_t n : {items / 2, items, 5 * items + 7}) {
      CAPTURE(items);
      CAPTURE(n);
      const std::size_t size = std::max<std::size_t>(n, 1);
      const auto b = test::full_mantissa_values<double>(size, 7),
                 c = test::full_mantissa_values<double>(size, 8);
      auto a = rt.zeros<double>(size);
      triad.launch(NDRange{items}, a, rt.upload(b), rt.upload(c), s, static_cast<std::int64_t>(n));
      std::vector<double> expected(size, 0.0);
      for (std::size_t j = 0; j < n; ++j) expected[j] = b[j] + s * c[j];
      CHECK(a.to_vector() == expected);
    }
  }
}

TEST_CASE(
    "examples::sum_squares_columns: KA's mapreduce of abs2 with + along dimension 1, each column's "
    "work-items striding down it, then the group's tree, as the host computes them") {
  auto& rt = test::runtime();
  for (std::int64_t group : {std::int64_t{1}, std::int64_t{64}, std::int64_t{256}}) {
    Kernel columns_kernel =
        test::compile_checked(examples::sum_squares_columns(group),
                              test::static_workgroup(WorkGroup{static_cast<std::size_t>(group)}));
    const std::size_t g = static_cast<std::size_t>(group);
    // Fewer rows than work-items, as many, several rounds and a part.
    for (std::size_t rows : {g / 2, g, 5 * g + 7}) {
      const std::size_t columns = 3;
      CAPTURE(group);
      CAPTURE(rows);
      const auto a =
          test::full_mantissa_values<double>(std::max<std::size_t>(rows, 1) * columns, 9);
      auto out = rt.zeros<double>(columns);
      columns_kernel.launch(NDRange{columns * g}, out, rt.upload(a),
                            static_cast<std::int64_t>(rows));
      std::vector<double> expected(columns);
      for (std::size_t col = 0; col < columns; ++col) {
        std::vector<double> sums(g, 0.0);
        for (std::size_t i = 0; i < g; ++i) {
          for (std::size_t r = i; r < rows; r += g) {
            const double x = a[col * rows + r];
            sums[i] += x * x;
          }
        }
        expected[col] = tree_sum(sums);
      }
      CHECK(out.to_vector() == expected);
    }
  }
  CHECK_THROWS_WITH_AS(
      examples::sum_squares_columns(48),
      "examples::sum_squares_columns: group 48; expected a power of two from 1 to 4096", UserError);
}
