// Rodinia 3.1's OpenCL kernels (test/corpus/rodinia, ORIGIN there): each benchmark's kernels
// run in the order, with the argument values and the work-group sizes, of its host code, on
// small problems with seeded random data in place of the benchmarks' input files.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "test/corpus_case.hpp"

using namespace spvjit::corpus;

namespace {

constexpr std::size_t up(long extent, std::size_t group) {
  return (static_cast<std::size_t>(extent) + group - 1) / group * group;
}

}  // namespace

CORPUS_CASE(rodinia_nn, "rodinia nn: NearestNeighbor") {
  constexpr int records = 1000;
  std::mt19937 gen(1);
  std::uniform_real_distribution<float> lat(0.0f, 90.0f), lng(0.0f, 180.0f);
  std::vector<LatLong> locations(records);
  for (auto& l : locations) l = {lat(gen), lng(gen)};
  Case c("rodinia/nn/nearestNeighbor_kernel.cl");
  c.buffer("locations", values(locations)).buffer("distances", zeros<float>(records));
  c.launch("NearestNeighbor", {up(records, 64)}, {64},
           {"locations", "distances", records, 30.0f, 90.0f});
  return c.compare({"distances"});
}

CORPUS_CASE(rodinia_bfs, "rodinia bfs: BFS_1, BFS_2") {
  // A random graph of degree 1..6; 12 rounds of the host's loop cover its depth (later rounds
  // change nothing, as the host's would not run).
  constexpr int nodes = 2048, rounds = 12;
  std::mt19937 gen(2);
  std::uniform_int_distribution<int> degree(1, 6), target(0, nodes - 1);
  std::vector<Node> graph(nodes);
  std::vector<std::int32_t> edges;
  for (auto& node : graph) {
    node = {static_cast<std::int32_t>(edges.size()), degree(gen)};
    for (int e = 0; e < node.no_of_edges; ++e) edges.push_back(target(gen));
  }
  std::vector<std::int8_t> mask(nodes, 0), visited(nodes, 0);
  std::vector<std::int32_t> cost(nodes, -1);
  mask[0] = visited[0] = 1;
  cost[0] = 0;
  Case c("rodinia/bfs/Kernels.cl");
  c.buffer("nodes", values(graph)).buffer("edges", values(edges)).buffer("mask", values(mask));
  c.buffer("updating", zeros<std::int8_t>(nodes)).buffer("visited", values(visited));
  c.buffer("cost", values(cost)).buffer("over", zeros<std::int8_t>(1));
  for (int r = 0; r < rounds; ++r) {
    c.launch("BFS_1", {up(nodes, 256)}, {256},
             {"nodes", "edges", "mask", "updating", "visited", "cost", nodes});
    c.launch("BFS_2", {up(nodes, 256)}, {256}, {"mask", "updating", "visited", "over", nodes});
  }
  return c.compare({"mask", "updating", "visited", "cost", "over"});
}

CORPUS_CASE(rodinia_gaussian, "rodinia gaussian: Fan1, Fan2") {
  constexpr int size = 64;
  // Diagonally dominant, so that no pivot is near 0.
  HostData a = pattern<float>(size * size, [](std::size_t i) {
    return i % (size + 1) == 0 ? 2.0f * size : static_cast<float>((i * 7919) % 17) / 17.0f;
  });
  Case c("rodinia/gaussian/gaussianElim_kernels.cl");
  c.buffer("m", zeros<float>(size * size))
      .buffer("a", std::move(a))
      .buffer("b", random<float>(size, -1, 1, 3));
  for (int t = 0; t < size - 1; ++t) {
    c.launch("Fan1", {up(size, 16)}, {16}, {"m", "a", "b", size, t});
    c.launch("Fan2", {up(size, 16), up(size, 16)}, {16, 16}, {"m", "a", "b", size, t});
  }
  return c.compare({"m", "a", "b"});
}

CORPUS_CASE(rodinia_kmeans, "rodinia kmeans: kmeans_swap, kmeans_kernel_c") {
  constexpr int points = 1000, features = 8, clusters = 5;
  Case c("rodinia/kmeans/kmeans.cl");
  c.buffer("feature", random<float>(points * features, 0, 1, 4))
      .buffer("feature_swap", zeros<float>(points * features));
  c.buffer("clusters", random<float>(clusters * features, 0, 1, 5))
      .buffer("membership", zeros<std::int32_t>(points));
  c.launch("kmeans_swap", {up(points, 256)}, {256}, {"feature", "feature_swap", points, features});
  c.launch("kmeans_kernel_c", {up(points, 256)}, {256},
           {"feature_swap", "clusters", "membership", points, clusters, features, 0, 0});
  return c.compare({"feature_swap", "membership"});
}

CORPUS_CASE(rodinia_streamcluster, "rodinia streamcluster: memset_kernel, pgain_kernel") {
  constexpr int num = 1024, dim = 8, k = 4;
  std::mt19937 gen(6);
  std::uniform_real_distribution<float> weight(0.5f, 2.0f), cost(0.0f, 4.0f);
  std::uniform_int_distribution<std::int64_t> assign(0, num - 1);
  std::vector<PointStruct> points(num);
  for (auto& p : points) p = {weight(gen), assign(gen), cost(gen)};
  Case c("rodinia/streamcluster/Kernels.cl");
  c.buffer("p", values(points)).buffer("coord", random<float>(num * dim, 0, 1, 7));
  c.buffer("work_mem", zeros<float>(num * (k + 1)))
      .buffer("center_table", random<std::int32_t>(num, 0, k - 1, 8));
  c.buffer("switch_membership", random<std::int8_t>(num, 0, 100, 9));
  c.launch("memset_kernel", {num}, {256}, {"switch_membership", std::int16_t{0}, num});
  c.launch("pgain_kernel", {up(num, 256)}, {256},
           {"p", "coord", "work_mem", "center_table", "switch_membership",
            Arg::local(dim * sizeof(float)), num, dim, std::int64_t{17}, k});
  return c.compare({"work_mem", "switch_membership"});
}

CORPUS_CASE(rodinia_backprop, "rodinia backprop: bpnn_layerforward_ocl, bpnn_adjust_weights_ocl") {
  constexpr int blocks = 4, in = 16 * blocks, hid = 16;
  constexpr std::size_t weights = (in + 1) * (hid + 1);
  Case c("rodinia/backprop/backprop_kernel.cl");
  c.buffer("input", random<float>(in + 1, 0, 1, 10)).buffer("output_hidden", zeros<float>(hid + 1));
  c.buffer("input_hidden", random<float>(weights, -1, 1, 11))
      .buffer("partial_sum", zeros<float>(blocks * 16));
  c.buffer("hidden_delta", random<float>(hid + 1, -1, 1, 12))
      .buffer("prev_weights", random<float>(weights, -1, 1, 13));
  c.launch("bpnn_layerforward_ocl", {16, 16 * blocks}, {16, 16},
           {"input", "output_hidden", "input_hidden", "partial_sum", Arg::local(16 * sizeof(float)),
            Arg::local(16 * 16 * sizeof(float)), in, hid});
  c.launch("bpnn_adjust_weights_ocl", {16, 16 * blocks}, {16, 16},
           {"hidden_delta", hid, "input", in, "input_hidden", "prev_weights"});
  return c.compare({"input_hidden", "partial_sum", "prev_weights"});
}

CORPUS_CASE(rodinia_pathfinder, "rodinia pathfinder: dynproc_kernel") {
  // The host launches rows x cols work-items, most of which find nothing to do; 8 groups of 256
  // cover 1024 columns with a pyramid of 4.
  constexpr int rows = 32, cols = 1024, pyramid = 4, halo = 1, group = 256;
  Case c("rodinia/pathfinder/kernels.cl");
  c.buffer("wall", random<std::int32_t>(rows * cols, 0, 9, 14));
  c.buffer("result0", random<std::int32_t>(cols, 0, 9, 15))
      .buffer("result1", zeros<std::int32_t>(cols));
  c.buffer("debug", zeros<std::int32_t>(16384));
  int src = 1, dst = 0;
  const char* results[2] = {"result0", "result1"};
  for (int t = 0; t < rows - 1; t += pyramid) {
    std::swap(src, dst);
    const int iteration = std::min(pyramid, rows - t - 1);
    c.launch("dynproc_kernel", {8 * group}, {group},
             {iteration, "wall", results[src], results[dst], cols, rows, t, pyramid * halo, halo,
              Arg::local(group * sizeof(std::int32_t)), Arg::local(group * sizeof(std::int32_t)),
              "debug"});
  }
  return c.compare({"result0", "result1", "debug"});
}

CORPUS_CASE(rodinia_hotspot, "rodinia hotspot: hotspot") {
  constexpr int grid = 64, pyramid = 2, total_iterations = 4, block = 16;
  constexpr int border = pyramid;  // pyramid_height * EXPAND_RATE / 2
  constexpr int small_block = block - pyramid * 2;
  constexpr int blocks = grid / small_block + (grid % small_block == 0 ? 0 : 1);
  // hotspot.c's constants, computed as it computes them (double, then float).
  const double chip = 0.016, t_chip = 0.0005, cell = chip / grid;
  const float cap = static_cast<float>(0.5 * 1.75e6 * t_chip * cell * cell);
  const float rx = static_cast<float>(cell / (2.0 * 100 * t_chip * cell));
  const float ry = rx;
  const float rz = static_cast<float>(t_chip / (100 * cell * cell));
  const float step = static_cast<float>(0.001 / (3.0e6 / (0.5 * t_chip * 1.75e6)));
  Case c("rodinia/hotspot/hotspot_kernel.cl");
  c.buffer("power", random<float>(grid * grid, 0, 1, 16));
  c.buffer("temp0", random<float>(grid * grid, 320, 340, 17))
      .buffer("temp1", zeros<float>(grid * grid));
  const char* temps[2] = {"temp0", "temp1"};
  int src = 0, dst = 1;
  for (int t = 0; t < total_iterations; t += pyramid) {
    const int iterations = std::min(pyramid, total_iterations - t);
    c.launch("hotspot", {block * blocks, block * blocks}, {block, block},
             {iterations, "power", temps[src], temps[dst], grid, grid, border, border, cap, rx, ry,
              rz, step});
    std::swap(src, dst);
  }
  return c.compare({"temp0", "temp1"});
}

CORPUS_CASE(rodinia_lud, "rodinia lud: lud_diagonal, lud_perimeter, lud_internal") {
  constexpr int dim = 64, block = 16;
  HostData m = pattern<float>(dim * dim, [](std::size_t i) {
    return i % (dim + 1) == 0 ? 4.0f * dim : static_cast<float>((i * 104729) % 23) / 23.0f;
  });
  constexpr std::size_t tile = block * block * sizeof(float);
  Case c("rodinia/lud/lud_kernel.cl");
  c.buffer("m", std::move(m));
  int i = 0;
  for (; i < dim - block; i += block) {
    const std::size_t rest = static_cast<std::size_t>((dim - i) / block - 1);
    c.launch("lud_diagonal", {block, 1}, {block, 1}, {"m", Arg::local(tile), dim, i});
    c.launch("lud_perimeter", {block * 2 * rest, 1}, {block * 2, 1},
             {"m", Arg::local(tile), Arg::local(tile), Arg::local(tile), dim, i});
    c.launch("lud_internal", {block * rest, block * rest}, {block, block},
             {"m", Arg::local(tile), Arg::local(tile), dim, i});
  }
  c.launch("lud_diagonal", {block, 1}, {block, 1}, {"m", Arg::local(tile), dim, i});
  return c.compare({"m"});
}

CORPUS_CASE(rodinia_nw, "rodinia nw: nw_kernel1, nw_kernel2") {
  constexpr int worksize = 64, cols = worksize + 1, penalty = 10, block = 16;
  constexpr int block_width = worksize / block;
  std::vector<std::int32_t> items(cols * cols, 0);
  for (int i = 1; i < cols; ++i)
    items[static_cast<std::size_t>(i * cols)] = items[static_cast<std::size_t>(i)] = -i * penalty;
  constexpr std::size_t score_tile = (block + 1) * (block + 1) * sizeof(std::int32_t);
  constexpr std::size_t ref_tile = block * block * sizeof(std::int32_t);
  Case c("rodinia/nw/nw.cl");
  c.buffer("reference", random<std::int32_t>(cols * cols, -4, 11, 18))
      .buffer("input", values(items));
  c.buffer("output", zeros<std::int32_t>(cols * cols));
  for (int blk = 1; blk <= block_width; ++blk) {
    c.launch("nw_kernel1", {static_cast<std::size_t>(block * blk), 1}, {block, 1},
             {"reference", "input", "output", Arg::local(score_tile), Arg::local(ref_tile), cols,
              penalty, blk, block_width, worksize, 0, 0});
  }
  for (int blk = block_width - 1; blk >= 1; --blk) {
    c.launch("nw_kernel2", {static_cast<std::size_t>(block * blk), 1}, {block, 1},
             {"reference", "input", "output", Arg::local(score_tile), Arg::local(ref_tile), cols,
              penalty, blk, block_width, worksize, 0, 0});
  }
  return c.compare({"input"});
}

CORPUS_CASE(rodinia_srad, "rodinia srad: extract, prepare, reduce, srad, srad2, compress") {
  constexpr int nr = 64, nc = 64, niter = 2, threads = 256;
  constexpr long ne = nr * nc;
  constexpr int blocks = static_cast<int>((ne + threads - 1) / threads);
  // The host reads the sums back to compute q0sqr between reduce_kernel and srad_kernel; the
  // case passes a fixed value instead, so every launch can be queued up front.
  constexpr float lambda = 0.5f, q0sqr = 0.05f;
  std::vector<std::int32_t> in(nr), is(nr), jw(nc), je(nc);
  for (int i = 0; i < nr; ++i) in[i] = i - 1, is[i] = i + 1;
  for (int j = 0; j < nc; ++j) jw[j] = j - 1, je[j] = j + 1;
  in[0] = 0, is[nr - 1] = nr - 1, jw[0] = 0, je[nc - 1] = nc - 1;
  Case c("rodinia/srad/kernel_gpu_opencl.cl");
  c.buffer("I", random<float>(ne, 10, 250, 19))
      .buffer("sums", zeros<float>(ne))
      .buffer("sums2", zeros<float>(ne));
  c.buffer("iN", values(in))
      .buffer("iS", values(is))
      .buffer("jW", values(jw))
      .buffer("jE", values(je));
  for (const char* d : {"dN", "dS", "dW", "dE", "c"}) c.buffer(d, zeros<float>(ne));
  const std::size_t global = static_cast<std::size_t>(blocks) * threads;
  c.launch("extract_kernel", {global}, {threads}, {ne, "I"});
  for (int iter = 0; iter < niter; ++iter) {
    c.launch("prepare_kernel", {global}, {threads}, {ne, "I", "sums", "sums2"});
    long no = ne;
    int mul = 1, blocks2 = blocks;
    std::size_t global2 = global;
    while (blocks2 != 0) {  // the host's reduction loop
      c.launch("reduce_kernel", {global2}, {threads}, {ne, no, mul, "sums", "sums2", blocks2});
      no = blocks2;
      if (blocks2 == 1) {
        blocks2 = 0;
      } else {
        mul *= threads;
        blocks2 = (blocks2 + threads - 1) / threads;
        global2 = static_cast<std::size_t>(blocks2) * threads;
      }
    }
    c.launch("srad_kernel", {global}, {threads},
             {lambda, nr, nc, ne, "iN", "iS", "jE", "jW", "dN", "dS", "dE", "dW", q0sqr, "c", "I"});
    c.launch("srad2_kernel", {global}, {threads},
             {lambda, nr, nc, ne, "iN", "iS", "jE", "jW", "dN", "dS", "dE", "dW", "c", "I"});
  }
  c.launch("compress_kernel", {global}, {threads}, {ne, "I"});
  return c.compare({"I", "sums", "sums2", "c"});
}

CORPUS_CASE(
    rodinia_cfd,
    "rodinia cfd: memset, initialize_variables, compute_step_factor, compute_flux, time_step") {
  // euler3d.cpp's first iteration (old_variables equal the initial variables, so its device
  // copy is an initialize_variables here), on random elements and neighbours (-1: a wall, -2:
  // the far field) instead of a mesh file.
  constexpr int nelr = 1024, nnb = 4, ndim = 3, nvar = 5, rk = 3, group = 64;
  const auto variable = [](std::size_t i) {  // density, momentum x/y/z, energy: pressure > 0
    const std::size_t var = i / nelr;
    const float noise = static_cast<float>((i * 2654435761u) % 1000) / 1000.0f;
    return var == 0 ? 1.0f + noise : var == 4 ? 2.5f + noise : noise - 0.5f;
  };
  Case c("rodinia/cfd/Kernels.cl");
  c.buffer("ff_variable", values(std::vector<float>{1.0f, 1.2f, 0.0f, 0.0f, 2.8f}));
  c.buffer("ff_de", values(std::vector<Float3>{{3.1f, 0.0f, 0.0f}}));
  c.buffer("ff_mx", values(std::vector<Float3>{{1.84f, 0.0f, 0.0f}}));
  c.buffer("ff_my", values(std::vector<Float3>{{0.0f, 0.4f, 0.0f}}));
  c.buffer("ff_mz", values(std::vector<Float3>{{0.0f, 0.0f, 0.4f}}));
  c.buffer("variables", pattern<float>(nelr * nvar, variable))
      .buffer("old_variables", zeros<float>(nelr * nvar));
  c.buffer("fluxes", random<float>(nelr * nvar, -1, 1, 20))
      .buffer("areas", random<float>(nelr, 0.5f, 1.5f, 21));
  c.buffer("step_factors", zeros<float>(nelr))
      .buffer("normals", random<float>(nelr * nnb * ndim, -1, 1, 22));
  c.buffer("neighbours", random<std::int32_t>(nelr * nnb, -2, nelr - 1, 23));
  c.buffer("bytes", random<std::int8_t>(1000, 1, 100, 24));
  c.launch("memset_kernel", {up(1000, group)}, {group}, {"bytes", std::int16_t{7}, 1000});
  c.launch("initialize_variables", {nelr}, {group}, {"old_variables", "ff_variable", nelr});
  c.launch("compute_step_factor", {nelr}, {group}, {"variables", "areas", "step_factors", nelr});
  for (int j = 0; j < rk; ++j) {
    c.launch("compute_flux", {nelr}, {group},
             {"neighbours", "normals", "variables", "ff_variable", "fluxes", "ff_de", "ff_mx",
              "ff_my", "ff_mz", nelr});
    c.launch("time_step", {nelr}, {group},
             {j, nelr, "old_variables", "variables", "step_factors", "fluxes"});
  }
  c.refused(
      Opt::O0, "calls undefined function 'compute_velocity'",
      "C99 inline: the file's helpers are `inline` without `static`, an inline definition that "
      "provides no external one; clang -O0 calls them instead of inlining, so the module is "
      "incomplete (any linker would refuse it)");
  return c.compare({"bytes", "old_variables", "step_factors", "fluxes", "variables"});
}

CORPUS_CASE(rodinia_hotspot3d, "rodinia hotspot3D: hotspotOpt1") {
  constexpr int nx = 64, ny = 64, nz = 8, iterations = 4;
  constexpr std::size_t cells = nx * ny * nz;
  // 3D.c's coefficients have this shape: ce = cw, cn = cs, ct = cb, cc = 1 - (2ce + 2cn + 3ct).
  const float ce = 0.03f, cn = 0.03f, ct = 0.02f, cc = 1.0f - (2 * ce + 2 * cn + 3 * ct),
              sdc = 0.5f;
  Case c("rodinia/hotspot3D/hotspotKernel.cl");
  c.buffer("power", random<float>(cells, 0, 1, 25))
      .buffer("t0", random<float>(cells, 320, 340, 26));
  c.buffer("t1", zeros<float>(cells));
  const char* temps[2] = {"t0", "t1"};
  for (int i = 0; i < iterations; ++i) {
    c.launch(
        "hotspotOpt1", {nx, ny}, {64, 4},
        {"power", temps[i % 2], temps[1 - i % 2], sdc, nx, ny, nz, ce, ce, cn, cn, ct, ct, cc});
  }
  return c.compare({"t0", "t1"});
}

namespace {

// ex_particle_OCL_{single,double}_seq.cpp's frame loop (likelihood, sum, normalize_weights,
// find_index) over a random two-level video. One work-group holds every particle:
// normalize_weights_kernel hands u[0] from work-item 0 to the others across a barrier, which
// only orders work-items of one group.
template <class T>
Case particlefilter(const char* file) {
  constexpr int isz = 32, nfr = 4, particles = 256, radius = 5;
  std::vector<std::int32_t> objxy;
  for (int x = -radius; x <= radius; ++x) {
    for (int y = -radius; y <= radius; ++y) {
      if (x * x + y * y <= radius * radius) objxy.insert(objxy.end(), {y, x});
    }
  }
  const int ones = static_cast<int>(objxy.size() / 2), max_size = isz * isz * nfr;
  const T centre = static_cast<T>(isz / 2);
  Case c(file);
  c.buffer("arrayX", values(std::vector<T>(particles, centre)))
      .buffer("arrayY", values(std::vector<T>(particles, centre)));
  c.buffer("xj", values(std::vector<T>(particles, centre)))
      .buffer("yj", values(std::vector<T>(particles, centre)));
  c.buffer("CDF", zeros<T>(particles))
      .buffer("u", zeros<T>(particles))
      .buffer("likelihood", zeros<T>(particles));
  c.buffer("weights", values(std::vector<T>(particles, T(1) / particles)))
      .buffer("partial_sums", zeros<T>(particles));
  c.buffer("ind", zeros<std::int32_t>(static_cast<std::size_t>(particles * ones)))
      .buffer("objxy", values(objxy));
  c.buffer("I", pattern<std::int8_t>(max_size, [](std::size_t i) {
             return (i * 2654435761u >> 7) % 2 ? 100 : 228 - 256;
           }));
  c.buffer("seed", random<std::int32_t>(particles, 1, 1 << 30, 27));
  for (int k = 1; k < nfr; ++k) {
    c.launch("likelihood_kernel", {particles}, {particles},
             {"arrayX",
              "arrayY",
              "xj",
              "yj",
              "CDF",
              "ind",
              "objxy",
              "likelihood",
              "I",
              "u",
              "weights",
              particles,
              ones,
              max_size,
              k,
              isz,
              nfr,
              "seed",
              "partial_sums",
              Arg::local(particles * sizeof(T))});
    c.launch("sum_kernel", {particles}, {particles}, {"partial_sums", particles});
    c.launch("normalize_weights_kernel", {particles}, {particles},
             {"weights", particles, "partial_sums", "CDF", "u", "seed"});
    c.launch("find_index_kernel", {particles}, {particles},
             {"arrayX", "arrayY", "CDF", "u", "xj", "yj", "weights", particles});
  }
  return c.compare(
      {"arrayX", "arrayY", "xj", "yj", "CDF", "u", "likelihood", "weights", "ind", "seed"});
}

}  // namespace

CORPUS_CASE(rodinia_particlefilter_single,
            "rodinia particlefilter single: likelihood, sum, normalize_weights, find_index") {
  Case c = particlefilter<float>("rodinia/particlefilter/particle_single.cl");
  // An unused helper, tex1Dfetch, builds a sampler: clang calls __translate_sampler_initializer,
  // which llvm-spirv-15 turns into OpConstantSampler; spvjit's validator lets that one call
  // through (jit/spirv/validate.cpp).
  return c;
}

CORPUS_CASE(rodinia_particlefilter_double,
            "rodinia particlefilter double: likelihood, sum, normalize_weights, find_index") {
  return particlefilter<double>("rodinia/particlefilter/particle_double.cl");
}

CORPUS_CASE(rodinia_particlefilter_naive, "rodinia particlefilter naive: particle_kernel") {
  constexpr int particles = 1000;
  std::vector<double> cdf(particles);
  for (int i = 0; i < particles; ++i)
    cdf[static_cast<std::size_t>(i)] = (i + 1) / static_cast<double>(particles);
  Case c("rodinia/particlefilter/particle_naive.cl");
  c.buffer("arrayX", random<double>(particles, 0, 32, 28))
      .buffer("arrayY", random<double>(particles, 0, 32, 29));
  c.buffer("CDF", values(cdf)).buffer("u", random<double>(particles, 0, 1, 30));
  c.buffer("xj", zeros<double>(particles)).buffer("yj", zeros<double>(particles));
  c.launch("particle_kernel", {up(particles, 128)}, {128},
           {"arrayX", "arrayY", "CDF", "u", "xj", "yj", particles});
  return c.compare({"xj", "yj"});
}

namespace {

// A two-level B+ tree of order 256 in b+tree's layout: a root over `leaves` leaves whose keys
// are 0, 1, ... in order; record i holds 3i + 1. Unused key slots hold INT32_MAX, so that one
// work-item alone finds keys[t] <= key < keys[t + 1].
std::vector<Knode> btree(int leaves) {
  constexpr int order = 256;
  std::vector<Knode> nodes(static_cast<std::size_t>(leaves) + 1);
  for (auto& n : nodes) {
    n = Knode{};
    for (auto& k : n.keys) k = INT32_MAX;
    for (auto& i : n.indices) i = INT32_MAX;
  }
  nodes[0].num_keys = leaves;
  for (int j = 0; j < leaves; ++j) {
    nodes[0].keys[j] = j * order;
    nodes[0].indices[j] = j + 1;
    Knode& leaf = nodes[static_cast<std::size_t>(j) + 1];
    leaf.location = j + 1;
    leaf.is_leaf = 1;
    leaf.num_keys = order;
    for (int t = 0; t < order; ++t) leaf.keys[t] = leaf.indices[t] = j * order + t;
  }
  return nodes;
}

}  // namespace

CORPUS_CASE(rodinia_btree_findk, "rodinia b+tree: findK") {
  constexpr int leaves = 4, queries = 8, order = 256;
  Case c("rodinia/b+tree/kernel_gpu_opencl.cl");
  c.buffer("knodes", values(btree(leaves)));
  c.buffer("records", pattern<Record>(leaves * order, [](std::size_t i) {
             return Record{static_cast<std::int32_t>(3 * i + 1)};
           }));
  c.buffer("curr", zeros<std::int64_t>(queries)).buffer("offset", zeros<std::int64_t>(queries));
  c.buffer("keys", random<std::int32_t>(queries, 0, leaves * order - 1, 31))
      .buffer("ans", zeros<Record>(queries));
  c.launch("findK", {queries * order}, {order},
           {std::int64_t{1}, "knodes", std::int64_t{leaves + 1}, "records", "curr", "offset",
            "keys", "ans"});
  return c.compare({"curr", "offset", "ans"});
}

CORPUS_CASE(rodinia_btree_findrangek, "rodinia b+tree: findRangeK") {
  constexpr int leaves = 4, queries = 8, order = 256;
  std::vector<std::int32_t> start(queries), end(queries);
  for (int q = 0; q < queries; ++q) start[q] = q * 97, end[q] = q * 97 + 200;
  Case c("rodinia/b+tree/kernel_gpu_opencl_2.cl");
  c.buffer("knodes", values(btree(leaves)));
  for (const char* b : {"curr", "offset", "last", "offset2"})
    c.buffer(b, zeros<std::int64_t>(queries));
  c.buffer("start", values(start)).buffer("end", values(end));
  c.buffer("recstart", zeros<std::int32_t>(queries)).buffer("reclen", zeros<std::int32_t>(queries));
  c.launch("findRangeK", {queries * order}, {order},
           {std::int64_t{1}, "knodes", std::int64_t{leaves + 1}, "curr", "offset", "last",
            "offset2", "start", "end", "recstart", "reclen"});
  return c.compare({"curr", "offset", "last", "offset2", "recstart", "reclen"});
}

CORPUS_CASE(rodinia_lavamd, "rodinia lavaMD: kernel_gpu_opencl") {
  // main.c's setup for boxes1d = 2: 8 boxes of 100 particles, each box's neighbours the other 7.
  constexpr int boxes1d = 2, boxes = boxes1d * boxes1d * boxes1d, per_box = 100, threads = 128;
  static_assert(sizeof(BoxStr) == 656);
  std::vector<BoxStr> box(boxes);
  for (int b = 0; b < boxes; ++b) {
    BoxStr& bx = box[static_cast<std::size_t>(b)];
    bx = BoxStr{b % boxes1d, b / boxes1d % boxes1d, b / (boxes1d * boxes1d), b, b * per_box, 0, {}};
    for (int o = 0; o < boxes; ++o) {
      if (o != b)
        bx.nei[bx.nn++] =
            NeiStr{o % boxes1d, o / boxes1d % boxes1d, o / (boxes1d * boxes1d), o, o * per_box};
    }
  }
  constexpr std::int64_t space = boxes * per_box;
  const DimStr dim{0,       0,          0,
                   boxes1d, boxes,      boxes * static_cast<std::int64_t>(sizeof(BoxStr)),
                   space,   space * 16, space * 4};
  std::mt19937 gen(32);
  std::uniform_real_distribution<float> coordinate(0.1f, 1.0f);
  std::vector<FourVector> rv(space);
  for (auto& r : rv) r = {coordinate(gen), coordinate(gen), coordinate(gen), coordinate(gen)};
  Case c("rodinia/lavaMD/kernel_gpu_opencl.cl");
  c.buffer("box", values(box))
      .buffer("rv", values(rv))
      .buffer("qv", random<float>(space, 0.1f, 1.0f, 33));
  c.buffer("fv", zeros<FourVector>(space));
  c.launch("kernel_gpu_opencl", {boxes * threads}, {threads},
           {ParStr{0.5f}, dim, "box", "rv", "qv", "fv"});
  return c.compare({"fv"});
}

namespace {

// mergesort.c's division tables for 64 divisions of 64 floats (in place of bucketsort's
// output): where each starts, in float4s and in floats.
constexpr int sort_divisions = 64, sort_per_division = 64,
              sort_n = sort_divisions * sort_per_division;
std::vector<std::int32_t> division_starts(int unit) {
  std::vector<std::int32_t> start(sort_divisions + 1);
  for (int d = 0; d <= sort_divisions; ++d)
    start[static_cast<std::size_t>(d)] = d * sort_per_division / unit;
  return start;
}

}  // namespace

CORPUS_CASE(rodinia_hybridsort_merge, "rodinia hybridsort: mergeSortFirst, mergeSortPass") {
  // Sort each float4, then one merge pass of pairs of float4s (nrElems 2).
  constexpr int threads = 256, nr_elems = 2, threads_per_div = sort_per_division / (nr_elems * 4);
  Case c("rodinia/hybridsort/mergesort.cl");
  // float4 buffers as floats (4 per element), one float4 more: mergeSortPass reads the next
  // float4 of its last run before it checks that the run has one.
  c.buffer("input", random<float>(sort_n + 4, 0, 1, 34))
      .buffer("sorted4", zeros<float>(sort_n + 4));
  c.buffer("merged", zeros<float>(sort_n + 4)).buffer("start", values(division_starts(4)));
  c.launch("mergeSortFirst", {up(sort_n / 4, threads)}, {threads}, {"input", "sorted4", sort_n});
  c.launch("mergeSortPass", {sort_divisions * threads_per_div}, {64},
           {"sorted4", "merged", nr_elems, threads_per_div, "start"});
  return c.compare({"sorted4", "merged"});
}

CORPUS_CASE(rodinia_hybridsort_pack, "rodinia hybridsort: mergepack") {
  Case c("rodinia/hybridsort/mergesort.cl");
  // A division's nullElems (0..3) shift its reads: the last one reads up to 3 floats past n.
  c.buffer("merged", random<float>(sort_n + 4, 0, 1, 35)).buffer("packed", zeros<float>(sort_n));
  c.buffer("start", values(division_starts(4)))
      .buffer("null_elems", random<std::int32_t>(sort_divisions, 0, 3, 36));
  c.buffer("final_start", values(division_starts(1)));
  c.launch("mergepack", {256, sort_divisions}, {256, 1},
           {"merged", "packed", "start", "null_elems", "final_start"});
  return c.compare({"packed"});
}

CORPUS_CASE(rodinia_hybridsort_histogram, "rodinia hybridsort: histogram1024Kernel") {
  constexpr int n = 16384;
  Case c("rodinia/hybridsort/histogram1024.cl");
  c.buffer("histogram", zeros<std::int32_t>(1024)).buffer("data", random<float>(n, 0, 1, 37));
  c.launch("histogram1024Kernel", {6144}, {96}, {"histogram", "data", 0.0f, 1.0f, n});
  c.refused(Opt::O0, "calls undefined function 'addData1024'",
            "C99 inline, as in cfd: clang -O0 calls the `inline` helper, which has no external "
            "definition");
  return c.compare({"histogram"});
}

CORPUS_CASE(rodinia_hybridsort_bucket,
            "rodinia hybridsort: bucketcount, bucketprefixoffset, bucketsort") {
  // bucketsort.c's three kernels, with 1024 evenly spaced pivots. The host scans
  // bucketprefixoffset's totals into l_offsets between the last two; the case computes the
  // same totals beforehand, with bucketcount's own pivot search.
  constexpr int n = 16384, divisions = 1024, threads = 32, band = 128;
  constexpr int blocks = (n - 1) / (threads * band) + 1;
  const HostData input = random<float>(n, 0, 1, 38);
  std::vector<float> pivots(divisions);
  for (int i = 0; i < divisions; ++i)
    pivots[static_cast<std::size_t>(i)] = static_cast<float>(i + 1) / divisions;
  std::vector<std::int32_t> count(divisions, 0), offsets(divisions, 0);
  for (float elem : std::get<std::vector<float>>(input)) {
    int idx = divisions / 2 - 1, jump = divisions / 4;
    float piv = pivots[static_cast<std::size_t>(idx)];
    while (jump >= 1) {
      idx = elem < piv ? idx - jump : idx + jump;
      piv = pivots[static_cast<std::size_t>(idx)];
      jump /= 2;
    }
    ++count[static_cast<std::size_t>(elem < piv ? idx : idx + 1)];
  }
  for (int i = 1; i < divisions; ++i) {
    offsets[static_cast<std::size_t>(i)] =
        offsets[static_cast<std::size_t>(i - 1)] + count[static_cast<std::size_t>(i - 1)];
  }
  Case c("rodinia/hybridsort/bucketsort_kernels.cl");
  c.buffer("input", input)
      .buffer("indice", zeros<std::int32_t>(n))
      .buffer("pivots", values(pivots));
  c.buffer("prefix", zeros<std::int32_t>(blocks * divisions))
      .buffer("totals", zeros<std::int32_t>(divisions));
  c.buffer("offsets", values(offsets)).buffer("output", zeros<float>(n));
  c.launch("bucketcount", {blocks * threads}, {threads},
           {"input", "indice", "prefix", n, "pivots"});
  c.launch("bucketprefixoffset", {divisions}, {128}, {"prefix", "totals", blocks});
  c.launch("bucketsort", {blocks * threads}, {threads},
           {"input", "indice", "output", n, "prefix", "offsets"});
  return c.compare({"indice", "prefix", "totals", "output"});
}

CORPUS_CASE(rodinia_leukocyte_find_ellipse, "rodinia leukocyte: GICOV_kernel, dilate_kernel") {
  // find_ellipse_opencl.c on a 64 x 64 frame: GICOV over the interior (MAX_RAD + 2 = 22 from
  // each edge), then the dilation of its result by a 25 x 25 disc; random gradients and
  // stencil offsets in place of the video and the host's ellipse tables.
  constexpr int m = 64, max_r = 22, inner = m - 2 * max_r, points = 150, circles = 7, strel = 25;
  std::vector<float> disc(strel * strel);
  for (int y = 0; y < strel; ++y) {
    for (int x = 0; x < strel; ++x)
      disc[static_cast<std::size_t>(y * strel + x)] =
          (x - 12) * (x - 12) + (y - 12) * (y - 12) <= 144 ? 1.0f : 0.0f;
  }
  Case c("rodinia/leukocyte/find_ellipse_kernel.cl");
  c.buffer("grad_x", random<float>(m * m, -1, 1, 39))
      .buffer("grad_y", random<float>(m * m, -1, 1, 40));
  c.buffer("sin", pattern<float>(points, [](std::size_t n) {
             return std::sin(0.0419f * static_cast<float>(n));
           }));
  c.buffer("cos", pattern<float>(points, [](std::size_t n) {
             return std::cos(0.0419f * static_cast<float>(n));
           }));
  c.buffer("tX", random<std::int32_t>(circles * points, -20, 20, 41))
      .buffer("tY", random<std::int32_t>(circles * points, -20, 20, 42));
  c.buffer("gicov", zeros<float>(m * m))
      .buffer("strel", values(disc))
      .buffer("dilated", zeros<float>(m * m));
  c.launch("GICOV_kernel", {up(inner * inner, 256)}, {256},
           {m, "grad_x", "grad_y", "sin", "cos", "tX", "tY", "gicov", inner, inner});
  c.launch("dilate_kernel", {up(m * m, 176)}, {176},
           {m, m, strel, strel, "strel", "gicov", "dilated"});
  return c.compare({"gicov", "dilated"});
}
