// KernelAbstractions' test/convert.jl ported line for line: ceil, floor and round of a Float64
// to each integer type, stored back into a Float64 matrix, with KA's static workgroup of 4.
// Julia's `round` rounds halves to even: spvjit's `rint`, not `round` (halves away from zero).
// spvjit has no 128-bit integers: KA's Int128 and UInt128 columns (5, 10, 15, ... 1-based) are
// left out, the other 24 kept in their places. KA's inputs are rand() * 3; these add the halves
// (0.5, 1.5, 2.5), where rint and round differ, and values just beside the integers.
//
// The KA kernel, quoted from JuliaGPU/KernelAbstractions.jl, test/convert.jl at commit 44fd1119
// (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other contributors):
/*
@kernel function convert_kernel!(A, B)
    tid = @index(Global, Linear)

    # Int -> Int
    tid = Int64(Int32(tid))

    @inbounds B[tid, 1] = ceil(Int8, A[tid])
    @inbounds B[tid, 2] = ceil(Int16, A[tid])
    ...                                           # Int32, Int64, Int128, UInt8 ... UInt128
    @inbounds B[tid, 11] = floor(Int8, A[tid])
    ...
    @inbounds B[tid, 21] = round(Int8, A[tid])
    ...
    @inbounds B[tid, 30] = round(UInt128, A[tid])
end

    N = 32
    d_A = ArrayT([rand()*3 for i = 1:N])
    d_B = ArrayT(zeros(N, 30))
    kernel = convert_kernel!(backend(), 4)
    kernel(d_A, d_B, ndrange=(N),)
    synchronize(backend())
    for i = 1:10
        @test d_B[:,i] == ceil.(d_A)
        @test d_B[:,i+10] == floor.(d_A)
        @test d_B[:,i+20] == round.(d_A)
    end
*/
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;
constexpr std::size_t columns = 30;

// B[tid, column] = round_fn(T, A[tid]) for the eight integer types of KA's ten that spvjit has,
// each in KA's column (0-based here); Int128 (column 4) and UInt128 (column 9) are left out.
template <class Matrix, class Round>
void store_each_type(const Matrix& B, Val<i64> tid, unsigned first, Round round_fn) {
  const Val<double> r = round_fn();
  inbounds(B)(tid, first + 0) = cast<double>(cast<std::int8_t>(r));
  inbounds(B)(tid, first + 1) = cast<double>(cast<std::int16_t>(r));
  inbounds(B)(tid, first + 2) = cast<double>(cast<std::int32_t>(r));
  inbounds(B)(tid, first + 3) = cast<double>(cast<std::int64_t>(r));
  inbounds(B)(tid, first + 5) = cast<double>(cast<std::uint8_t>(r));
  inbounds(B)(tid, first + 6) = cast<double>(cast<std::uint16_t>(r));
  inbounds(B)(tid, first + 7) = cast<double>(cast<std::uint32_t>(r));
  inbounds(B)(tid, first + 8) = cast<double>(cast<std::uint64_t>(r));
}

KernelDef convert_kernel() {
  KernelBuilder kb("convert_kernel");
  auto A = kb.param<GlobalArray<double, 1>>("A");
  auto B = kb.param<GlobalArray<double, 2, ColumnMajor>>("B");
  Val<i64> tid = global_linear(kb);          // @index(Global, Linear), 0-based
  tid = cast<i64>(cast<std::int32_t>(tid));  // tid = Int64(Int32(tid))
  const Val<double> a = inbounds(A)[tid];
  store_each_type(B, tid, 0, [&] { return ceil(a); });    // ceil(T, A[tid])
  store_each_type(B, tid, 10, [&] { return floor(a); });  // floor(T, A[tid])
  store_each_type(B, tid, 20, [&] { return rint(a); });   // round(T, A[tid]): halves to even
  return kb.finish();
}

}  // namespace

TEST_CASE("KA port convert.jl: ceil, floor and round to each integer type, workgroup 4") {
  auto& rt = test::runtime();
  Kernel kernel = test::compile_checked(convert_kernel(), test::static_workgroup(WorkGroup{4}));
  constexpr std::size_t N = 32;
  std::vector<double> host_a = {0.5,
                                1.5,
                                2.5,
                                0.0,
                                1.0,
                                2.0,
                                std::nextafter(1.0, 0.0),
                                std::nextafter(2.0, 3.0),
                                2.999999,
                                0.49999999999999994};
  std::mt19937_64 gen(48);
  std::uniform_real_distribution<double> rand3(0.0, 3.0);  // rand() * 3
  while (host_a.size() < N) host_a.push_back(rand3(gen));
  auto d_A = rt.upload(host_a);
  auto d_B = rt.zeros<double>(N * columns);                                // zeros(N, 30)
  kernel.launch(NDRange{N}, shaped(d_A, {N}), shaped(d_B, {N, columns}));  // ndrange = N
  rt.synchronize();
  const std::vector<double> B = d_B.to_vector();
  for (unsigned i = 0; i < 10; ++i) {
    if (i == 4 || i == 9) continue;  // Int128, UInt128
    CAPTURE(i);
    for (std::size_t t = 0; t < N; ++t) {
      CAPTURE(host_a[t]);
      CHECK(B[i * N + t] == std::ceil(host_a[t]));              // d_B[:,i] == ceil.(d_A)
      CHECK(B[(i + 10) * N + t] == std::floor(host_a[t]));      // d_B[:,i+10] == floor.(d_A)
      CHECK(B[(i + 20) * N + t] == std::nearbyint(host_a[t]));  // round.(d_A): halves to even
    }
  }
  // The halves themselves, as Julia rounds them: round(0.5) = 0, round(1.5) = 2, round(2.5) = 2.
  CHECK(B[20 * N + 0] == 0.0);
  CHECK(B[20 * N + 1] == 2.0);
  CHECK(B[20 * N + 2] == 2.0);
}
