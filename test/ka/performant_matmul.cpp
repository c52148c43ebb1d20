// KernelAbstractions' examples/performant_matmul.jl ported line for line: 16 x 16 tiles in local
// memory (one row of padding against bank conflicts), barriers in the tile loop, launched by
// number of groups. Smaller than KA's 1024 x 512 x 2048, with sizes 16 does and does not divide.
//
// The KA kernel, quoted from JuliaGPU/KernelAbstractions.jl, examples/performant_matmul.jl at
// commit 9bf8fd59 (MIT license, Copyright (c) 2018-2021: Valentin Churavy, and other
// contributors):
/*
const TILE_DIM = 16

function coalesced_matmul_kernel!(
        output, input1, input2, N, R, M,
        ::Val{TDIM}, ::Val{BANK} = Val(1)
    ) where {TDIM, BANK}
    gi, gj, _ = KI.get_group_id()
    i, j, _ = KI.get_local_id()

    # +1 to avoid bank conflicts on shared memory
    tile1 = KI.localmemory(eltype(output), (TDIM + BANK, TDIM))
    tile2 = KI.localmemory(eltype(output), (TDIM + BANK, TDIM))

    # variable for tile output
    outval = -zero(eltype(output))

    N = size(output, 1)
    # number of tiles depends on inner dimension
    NUM_TILES = div(R + TDIM - 1, TDIM)

    # loop over all tiles needed for this calculation
    for t in 0:(NUM_TILES - 1)
        # Can't use @index(Global), because we use a smaller ndrange
        I = (gi - 1) * TDIM + i
        J = (gj - 1) * TDIM + j

        # load inputs into tiles, with bounds checking for non-square matrices
        if I <= N && t * TDIM + j <= R
            @inbounds tile1[i, j] = input1[I, t * TDIM + j]
        else
            @inbounds tile1[i, j] = 0.0
        end
        if t * TILE_DIM + i <= R && J <= M
            @inbounds tile2[i, j] = input2[t * TDIM + i, J]
        else
            @inbounds tile2[i, j] = 0.0
        end

        # wait for all tiles to be loaded
        KI.barrier()

        # get global values again
        I = (gi - 1) * TDIM + i
        J = (gj - 1) * TDIM + j

        # calculate value of spot in output, use temporary value to allow for vectorization
        out = zero(eltype(output))
        @simd for k in 1:TDIM
            @inbounds out += tile1[i, k] * tile2[k, j]
        end
        outval += out

        KI.barrier()
    end

    # get global indices again
    I = (gi - 1) * TDIM + i
    J = (gj - 1) * TDIM + j

    # save if inbounds
    if I <= N && J <= M
        @inbounds output[I, J] = outval
    end
    return
end

workgroupsize = (TILE_DIM, TILE_DIM)
numworkgroups = (cld(size(C, 1), TILE_DIM), cld(size(C, 2), TILE_DIM))

KI.@kernel backend workgroupsize numworkgroups coalesced_matmul_kernel!(C, A, B, N, R, M,
Val(TILE_DIM))
*/
// Indices are 0-based: gi, gj, i, j, I, J, k are one less than KA's, so `(gi - 1) * TDIM + i`
// is `gi * TDIM + i` and a bound `I <= N` is `I < N`. The tile counter t is 0-based in KA too.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "test/lang_support.hpp"
#include "test/matmul_reference.hpp"

using namespace spvjit;

namespace {

using i64 = std::int64_t;

constexpr i64 TILE_DIM = 16;

// ::Val{TDIM} and ::Val{BANK} are static in KA: C++ numbers here.
KernelDef coalesced_matmul_kernel(i64 TDIM, i64 BANK = 1) {
  KernelBuilder kb("coalesced_matmul_kernel");
  auto output = kb.param<GlobalArray<float, 2, ColumnMajor>>("output");
  auto input1 = kb.param<GlobalArray<float, 2, ColumnMajor>>("input1");
  auto input2 = kb.param<GlobalArray<float, 2, ColumnMajor>>("input2");
  auto N = kb.param<i64>("N");
  auto R = kb.param<i64>("R");
  auto M = kb.param<i64>("M");
  auto [gi, gj] = group_indices<2>(kb);  // gi, gj, _ = KI.get_group_id()
  auto [i, j] = local_indices<2>(kb);    // i, j, _ = KI.get_local_id()

  // +1 to avoid bank conflicts on shared memory
  auto tile1 = local_array<float, ColumnMajor>(kb, {TDIM + BANK, TDIM}, "tile1");
  auto tile2 = local_array<float, ColumnMajor>(kb, {TDIM + BANK, TDIM}, "tile2");

  // variable for tile output
  auto outval = kb.var(-0.0f);  // -zero(eltype(output))

  N = size(output, 0);  // N = size(output, 1)
  // number of tiles depends on inner dimension
  auto NUM_TILES = (R + TDIM - 1) / TDIM;  // div(R + TDIM - 1, TDIM)

  // loop over all tiles needed for this calculation
  kb.for_(range(0, NUM_TILES - 1), [&](Val<i64> t) {
    // Can't use @index(Global), because we use a smaller ndrange
    auto I = gi * TDIM + i;  // (gi - 1) * TDIM + i
    auto J = gj * TDIM + j;  // (gj - 1) * TDIM + j

    // load inputs into tiles, with bounds checking for non-square matrices
    kb.if_else(
        I < N && t * TDIM + j < R,
        [&] { inbounds(tile1)(i, j) = inbounds(input1)(I, t * TDIM + j); },
        [&] { inbounds(tile1)(i, j) = 0.0f; });
    kb.if_else(
        t * TILE_DIM + i < R && J < M,
        [&] { inbounds(tile2)(i, j) = inbounds(input2)(t * TDIM + i, J); },
        [&] { inbounds(tile2)(i, j) = 0.0f; });

    // wait for all tiles to be loaded
    barrier(kb, Fence::Local);

    // get global values again
    I = gi * TDIM + i;
    J = gj * TDIM + j;

    // calculate value of spot in output, use temporary value to allow for vectorization
    auto out = kb.var(0.0f);            // zero(eltype(output))
    kb.for_(0, TDIM, [&](Val<i64> k) {  // @simd for k in 1:TDIM
      out += inbounds(tile1)(i, k) * inbounds(tile2)(k, j);
    });
    outval += out;

    barrier(kb, Fence::Local);
  });

  // get global indices again
  auto I = gi * TDIM + i;
  auto J = gj * TDIM + j;

  // save if inbounds
  kb.if_(I < N && J < M, [&] { inbounds(output)(I, J) = outval; });
  return kb.finish();
}

}  // namespace

TEST_CASE("KA port performant_matmul.jl: tiles in local memory, launched by groups") {
  auto& rt = test::runtime();
  const std::size_t tile = TILE_DIM;
  for (i64 bank : {1, 0}) {
    CAPTURE(bank);
    // workgroupsize = (TILE_DIM, TILE_DIM), static as KI.@kernel's.
    Kernel kernel = test::compile_checked(coalesced_matmul_kernel(TILE_DIM, bank),
                                          test::static_workgroup(WorkGroup{tile, tile}));
    for (auto [N, R, M] : {std::array<std::size_t, 3>{64, 32, 48}, {40, 37, 50}, {1, 20, 17}}) {
      CAPTURE(N);
      CAPTURE(R);
      CAPTURE(M);
      const auto host_a = test::small_ints(N * R, 3), host_b = test::small_ints(R * M, 4);
      auto A = rt.upload(host_a), B = rt.upload(host_b);
      auto C = rt.zeros<float>(N * M);
      // numworkgroups = (cld(size(C, 1), TILE_DIM), cld(size(C, 2), TILE_DIM))
      const Groups numworkgroups{(N + tile - 1) / tile, (M + tile - 1) / tile};
      kernel.launch(numworkgroups, shaped(C, {N, M}), shaped(A, {N, R}), shaped(B, {R, M}),
                    static_cast<i64>(N), static_cast<i64>(R), static_cast<i64>(M));
      rt.synchronize();
      CHECK(C.to_vector() == test::matmul_reference(host_a, host_b, N, R, M, true));
    }
  }
}
