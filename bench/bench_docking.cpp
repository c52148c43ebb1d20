// A molecular-docking energy kernel (the shape of a rigid-body docking code's scoring step),
// three ways in one process and in two math modes:
//   apps/docking/<mode>/<way>: the energies of 1024 poses of a 26-atom ligand against a
//     938-atom protein (bench/docking_cases.hpp: the terms, sizes and inputs), 4 poses per
//     work-item (256 work-items): each builds its poses' 3x4 transforms from sin and cos of the
//     three angles in a private array, then for each ligand atom (transformed by each pose) loops
//     over the protein atoms, per pose a sqrt and a dozen branch-free selects summed into that
//     pose's energy in a private array.
//   apps/docking_loops/<mode>/<way>: the same kernel as KA writes it, each loop over a work-item's
//     poses a `kb.for_` (`@simd for j in 1:PPWI`) and the transformed ligand atom in private
//     arrays, where `apps/docking` unrolls those loops in C++; spvjit and OpenMP only (the
//     OpenMP loop is the same as apps/docking's, registered under both names).
// <way>: `spvjit` (the KernelBuilder kernel below, compiled by the suite's Jit, launched through
// spvjit and synchronized), `openmp` (bench/openmp_docking.hpp: parallel over groups of 16 poses,
// the poses innermost) or `opencl` (the same kernel as OpenCL C with private
// float transform[4][3][4], built from source and launched through raw OpenCL:
// bench/opencl_docking.hpp). <mode>: `exact` (spvjit without fastmath, OpenMP
// -ffp-contract=off, OpenCL C with FP_CONTRACT off) or `fast` (kb.fastmath(), -ffast-math,
// -cl-fast-relaxed-math). An iteration is one launch; each case reports allocs and bytes,
// `us_per_step` (wall time per launch), bytes_per_second (inputs read and energies written once)
// and items_per_second (atom pairs times poses per wall-clock second). After timing, each case
// checks every pose's energy against a host reference computed once in double (the same
// formulas, from the same float inputs) and fails (SkipWithError) naming the first pose outside
// the tolerance (docking_tolerance below).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench/compute_cases.hpp"
#include "bench/compute_measure.hpp"
#include "bench/docking_cases.hpp"
#include "bench/opencl_docking.hpp"
#include "bench/openmp_docking.hpp"
#include "bench/suite.hpp"

namespace spvjit::bench {

namespace {

using compute::MathMode;
using compute::measure;
using compute::to_string;
using compute::Way;

// The kernel: the same operations in the same order as bench/openmp_docking.cpp's loop. `loops`:
// each loop over the poses a `kb.for_`, not a C++ loop.
KernelDef build_docking(MathMode mode, bool loops) {
  constexpr std::int64_t ppwi = docking::ppwi;
  KernelBuilder kb(loops ? "docking_loops" : "docking");
  if (mode == MathMode::fast) kb.fastmath();
  // Each work-item scores ppwi poses against every atom pair: spread the launch over the cores.
  kb.work_per_item(docking::ppwi * docking::ligand_atoms * docking::protein_atoms);
  auto energies = kb.param<Global<float>>("energies");
  auto protein_xyz = kb.param<Const<float>>("protein_xyz");
  auto protein_type = kb.param<Const<std::int32_t>>("protein_type");
  auto np = kb.param<std::int64_t>("np");
  auto ligand_xyz = kb.param<Const<float>>("ligand_xyz");
  auto ligand_type = kb.param<Const<std::int32_t>>("ligand_type");
  auto nl = kb.param<std::int64_t>("nl");
  auto forcefield = kb.param<Const<float>>("forcefield");
  auto poses = kb.param<Const<float>>("poses");
  auto nposes = kb.param<std::int64_t>("nposes");
  auto group = kb.global_index();
  auto transform = private_array<float>(kb, {ppwi, 3, 4});
  auto etot = private_array<float>(kb, {ppwi});
  const Val<float> zero = kb.lit(0.0f), one = kb.lit(1.0f);
  // Each pose j, as a C++ number or as a loop's counter.
  auto each_pose = [&](auto&& body) {
    if (loops) {
      kb.for_(0, ppwi, [&](Val<std::int64_t> j) { body(j); });
    } else {
      for (std::int64_t j = 0; j < ppwi; ++j) body(j);
    }
  };
  each_pose([&](auto j) {
    auto p = group * ppwi + j;
    const Val<float> ax = poses[p], ay = poses[nposes + p], az = poses[2 * nposes + p];
    auto sx = sin(ax), cx = cos(ax);
    auto sy = sin(ay), cy = cos(ay);
    auto sz = sin(az), cz = cos(az);
    transform(j, 0, 0) = cy * cz;
    transform(j, 0, 1) = sx * sy * cz - cx * sz;
    transform(j, 0, 2) = cx * sy * cz + sx * sz;
    transform(j, 0, 3) = Val<float>(poses[3 * nposes + p]);
    transform(j, 1, 0) = cy * sz;
    transform(j, 1, 1) = sx * sy * sz + cx * cz;
    transform(j, 1, 2) = cx * sy * sz - sx * cz;
    transform(j, 1, 3) = Val<float>(poses[4 * nposes + p]);
    transform(j, 2, 0) = -sy;
    transform(j, 2, 1) = sx * cy;
    transform(j, 2, 2) = cx * cy;
    transform(j, 2, 3) = Val<float>(poses[5 * nposes + p]);
    etot(j) = 0.0f;
  });
  // The ligand atom as each pose places it.
  auto lx = private_array<float>(kb, {ppwi}), ly = private_array<float>(kb, {ppwi}),
       lz = private_array<float>(kb, {ppwi});
  kb.for_(0, nl, [&](Val<std::int64_t> l) {
    const Val<float> x = ligand_xyz[3 * l], y = ligand_xyz[3 * l + 1], z = ligand_xyz[3 * l + 2];
    const auto lt = cast<std::int64_t>(Val<std::int32_t>(ligand_type[l]));
    const Val<float> l_radius = forcefield[3 * lt], l_hphb = forcefield[3 * lt + 1],
                     l_elsc = forcefield[3 * lt + 2];
    each_pose([&](auto j) {
      auto row = [&](std::int64_t r) {
        return transform(j, r, 0) * x + transform(j, r, 1) * y + transform(j, r, 2) * z +
               transform(j, r, 3);
      };
      lx(j) = row(0);
      ly(j) = row(1);
      lz(j) = row(2);
    });
    kb.for_(0, np, [&](Val<std::int64_t> a) {
      const Val<float> px = protein_xyz[3 * a], py = protein_xyz[3 * a + 1],
                       pz = protein_xyz[3 * a + 2];
      const auto pt = cast<std::int64_t>(Val<std::int32_t>(protein_type[a]));
      const Val<float> p_radius = forcefield[3 * pt], p_hphb = forcefield[3 * pt + 1],
                       p_elsc = forcefield[3 * pt + 2];
      // What depends on the two atoms' types only.
      auto r_sum = p_radius + l_radius;
      auto polar = p_hphb < 0.0f && l_hphb < 0.0f;
      auto like = polar || (p_hphb > 0.0f && l_hphb > 0.0f);
      auto range = select(polar, kb.lit(docking::hbond_range), kb.lit(docking::hphob_range));
      auto hphb_strength = select(like, -(fabs(p_hphb) + fabs(l_hphb)),
                                  docking::desolvation * fabs(p_hphb - l_hphb));
      auto charge = docking::elec_scale * p_elsc * l_elsc;
      auto desolv_strength =
          select(like, zero, docking::desolvation * (fabs(p_elsc) + fabs(l_elsc)));
      each_pose([&](auto j) {
        auto dx = Val<float>(lx(j)) - px, dy = Val<float>(ly(j)) - py, dz = Val<float>(lz(j)) - pz;
        auto d = sqrt(dx * dx + dy * dy + dz * dz);
        auto b = d - r_sum;
        auto inside = b < 0.0f;
        auto steric = select(inside, docking::hardness * (1.0f - d / r_sum), zero);
        auto hfall = select(inside, one, 1.0f - b / range);
        auto hphb = select(b < range, hphb_strength * hfall, zero);
        auto efall = select(inside, one, 1.0f - b / docking::elec_range);
        auto in_elec = b < docking::elec_range;
        auto elec = select(in_elec, charge * efall, zero);
        auto desolv = select(in_elec, desolv_strength * efall, zero);
        etot(j) += steric + hphb + elec + desolv;
      });
    });
  });
  each_pose([&](auto j) { energies[group * ppwi + j] = 0.5f * etot(j); });
  return kb.finish();
}

const KernelDef& docking_kernel(MathMode mode, bool loops) {
  static const KernelDef exact = build_docking(MathMode::exact, false);
  static const KernelDef fast = build_docking(MathMode::fast, false);
  static const KernelDef exact_loops = build_docking(MathMode::exact, true);
  static const KernelDef fast_loops = build_docking(MathMode::fast, true);
  if (loops) return mode == MathMode::exact ? exact_loops : fast_loops;
  return mode == MathMode::exact ? exact : fast;
}

const docking::Inputs& docking_inputs() {
  static const docking::Inputs inputs = docking::inputs();
  return inputs;
}

// The energies in double: the kernel's formulas, from the same float inputs.
const std::vector<double>& docking_reference() {
  static const std::vector<double> energies = [] {
    const auto& in = docking_inputs();
    const std::size_t n = docking::poses;
    const double hardness = docking::hardness, hbond_range = docking::hbond_range,
                 hphob_range = docking::hphob_range, elec_range = docking::elec_range,
                 elec_scale = docking::elec_scale, desolvation = docking::desolvation;
    std::vector<double> e(n);
#pragma omp parallel for schedule(static)
    for (std::size_t p = 0; p < n; ++p) {
      const double sx = std::sin(double{in.poses[p]}), cx = std::cos(double{in.poses[p]});
      const double sy = std::sin(double{in.poses[n + p]}), cy = std::cos(double{in.poses[n + p]});
      const double sz = std::sin(double{in.poses[2 * n + p]}),
                   cz = std::cos(double{in.poses[2 * n + p]});
      const double t[3][4] = {
          {cy * cz, sx * sy * cz - cx * sz, cx * sy * cz + sx * sz, in.poses[3 * n + p]},
          {cy * sz, sx * sy * sz + cx * cz, cx * sy * sz - sx * cz, in.poses[4 * n + p]},
          {-sy, sx * cy, cx * cy, in.poses[5 * n + p]}};
      double etot = 0.0;
      for (std::size_t l = 0; l < docking::ligand_atoms; ++l) {
        const double x = in.ligand_xyz[3 * l], y = in.ligand_xyz[3 * l + 1],
                     z = in.ligand_xyz[3 * l + 2];
        const double lx = t[0][0] * x + t[0][1] * y + t[0][2] * z + t[0][3];
        const double ly = t[1][0] * x + t[1][1] * y + t[1][2] * z + t[1][3];
        const double lz = t[2][0] * x + t[2][1] * y + t[2][2] * z + t[2][3];
        const float* lf = &in.forcefield[3 * in.ligand_type[l]];
        const double l_radius = lf[0], l_hphb = lf[1], l_elsc = lf[2];
        for (std::size_t a = 0; a < docking::protein_atoms; ++a) {
          const float* pf = &in.forcefield[3 * in.protein_type[a]];
          const double p_radius = pf[0], p_hphb = pf[1], p_elsc = pf[2];
          const double r_sum = p_radius + l_radius;
          const bool polar = p_hphb < 0 && l_hphb < 0;
          const bool like = polar || (p_hphb > 0 && l_hphb > 0);
          const double range = polar ? hbond_range : hphob_range;
          const double hphb_strength = like ? -(std::fabs(p_hphb) + std::fabs(l_hphb))
                                            : desolvation * std::fabs(p_hphb - l_hphb);
          const double charge = elec_scale * p_elsc * l_elsc;
          const double desolv_strength =
              like ? 0.0 : desolvation * (std::fabs(p_elsc) + std::fabs(l_elsc));
          const double dx = lx - in.protein_xyz[3 * a], dy = ly - in.protein_xyz[3 * a + 1],
                       dz = lz - in.protein_xyz[3 * a + 2];
          const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
          const double b = d - r_sum;
          const bool inside = b < 0;
          const double steric = inside ? hardness * (1.0 - d / r_sum) : 0.0;
          const double hfall = inside ? 1.0 : 1.0 - b / range;
          const double hphb = b < range ? hphb_strength * hfall : 0.0;
          const double efall = inside ? 1.0 : 1.0 - b / elec_range;
          const double elec = b < elec_range ? charge * efall : 0.0;
          const double desolv = b < elec_range ? desolv_strength * efall : 0.0;
          etot += steric + hphb + elec + desolv;
        }
      }
      e[p] = 0.5 * etot;
    }
    return e;
  }();
  return energies;
}

// A pose's energy (|E| from 0.7 to 3700) passes within either bound: relative to its size, or
// absolute (energies near 0 are sums of terms of either sign that cancel). Measured, every way
// and mode: at most 4.6e-6 relative where |E| >= 1, and 2.5e-5 absolute where |E| < 10 (float
// sums of 24388 pair terms against double); fast math changes the errors little, as every term is
// continuous in the distance (no select flips between float and double).
constexpr double docking_rel_tolerance = 1e-3;
constexpr double docking_abs_tolerance = 1e-2;

// The first pose outside the tolerance, or "" when there is none; SPVJIT_BENCH_DOCKING_ERRORS
// set prints the largest errors of every case to stderr (how the tolerance was measured).
std::string docking_difference(Way way, MathMode mode, const std::vector<float>& got) {
  const auto& want = docking_reference();
  double worst_abs = 0, worst_rel = 0, worst_small = 0, smallest = HUGE_VAL, largest = 0;
  std::string first;
  for (std::size_t p = 0; p < want.size(); ++p) {
    const double g = got.at(p), error = std::fabs(g - want[p]);
    worst_abs = std::max(worst_abs, error);
    smallest = std::min(smallest, std::fabs(want[p]));
    largest = std::max(largest, std::fabs(want[p]));
    if (std::fabs(want[p]) < 10.0) worst_small = std::max(worst_small, error);
    if (std::fabs(want[p]) >= 1.0) worst_rel = std::max(worst_rel, error / std::fabs(want[p]));
    if (first.empty() && !(error <= docking_abs_tolerance ||
                           error <= docking_rel_tolerance * std::fabs(want[p]))) {  // NaN fails
      char text[240];
      std::snprintf(text, sizeof text,
                    "energy of pose %zu = %.9g (%s, %s), %.9g expected (error %.3g; tolerance %g "
                    "relative, %g absolute)",
                    p, g, to_string(way), compute::to_string(mode), want[p], error,
                    docking_rel_tolerance, docking_abs_tolerance);
      first = text;
    }
  }
  if (std::getenv("SPVJIT_BENCH_DOCKING_ERRORS")) {
    std::fprintf(stderr,
                 "docking %s/%s: |E| %.3g to %.3g; largest error %.3g absolute (%.3g where |E| < "
                 "10), %.3g relative (where |E| >= 1)\n",
                 compute::to_string(mode), to_string(way), smallest, largest, worst_abs,
                 worst_small, worst_rel);
  }
  return first;
}

void docking_case(benchmark::State& state, MathMode mode, Way way, bool loops) {
  const auto& in = docking_inputs();
  const std::size_t n = docking::poses;
  const double items = static_cast<double>(n) * docking::ligand_atoms * docking::protein_atoms;
  const double bytes =
      sizeof(float) * (4.0 * (docking::ligand_atoms + docking::protein_atoms) + 7.0 * n);
  std::vector<float> energies(n);
  switch (way) {
    case Way::spvjit: {
      Context* ctx = context(state);
      if (!ctx) return;
      Kernel kernel = ctx->jit.compile(docking_kernel(mode, loops));
      Buffer<float> e = ctx->runtime.zeros<float>(n);
      Buffer<float> pxyz = ctx->runtime.upload(in.protein_xyz),
                    lxyz = ctx->runtime.upload(in.ligand_xyz),
                    ff = ctx->runtime.upload(in.forcefield), poses = ctx->runtime.upload(in.poses);
      Buffer<std::int32_t> ptype = ctx->runtime.upload(in.protein_type),
                           ltype = ctx->runtime.upload(in.ligand_type);
      const auto np = static_cast<std::int64_t>(docking::protein_atoms);
      const auto nl = static_cast<std::int64_t>(docking::ligand_atoms);
      const auto nposes = static_cast<std::int64_t>(n);
      measure(
          state, items, bytes,
          [&] {
            kernel.launch(NDRange{n / docking::ppwi}, e, pxyz, ptype, np, lxyz, ltype, nl, ff,
                          poses, nposes);
          },
          [&] { ctx->runtime.synchronize(); });
      e.read(energies);
      break;
    }
    case Way::openmp: {
      auto loop = mode == MathMode::exact ? openmp::exact::docking : openmp::fast::docking;
      measure(
          state, items, bytes,
          [&] {
            loop(energies.data(), in.protein_xyz.data(), in.protein_type.data(),
                 docking::protein_atoms, in.ligand_xyz.data(), in.ligand_type.data(),
                 docking::ligand_atoms, in.forcefield.data(), in.poses.data(), n);
          },
          [] { benchmark::ClobberMemory(); });
      break;
    }
    case Way::opencl: {
      opencl::Docking kernel(mode, in);
      measure(
          state, items, bytes, [&] { kernel.run(); }, [] {});
      energies = kernel.read();
      break;
    }
  }
  const std::string difference = docking_difference(way, mode, energies);
  if (!difference.empty()) state.SkipWithError(difference.c_str());
}

}  // namespace

void register_docking() {
  for (MathMode mode : {MathMode::exact, MathMode::fast}) {
    for (const auto& [way, name] :
         {std::pair{Way::spvjit, "spvjit"}, std::pair{Way::openmp, "openmp"},
          std::pair{Way::opencl, "opencl"}}) {
      add_case(std::string("apps/docking/") + compute::to_string(mode) + "/" + name,
               [mode, way = way](benchmark::State& s) { docking_case(s, mode, way, false); })
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (MathMode mode : {MathMode::exact, MathMode::fast}) {
    for (const auto& [way, name] :
         {std::pair{Way::spvjit, "spvjit"}, std::pair{Way::openmp, "openmp"}}) {
      add_case(std::string("apps/docking_loops/") + compute::to_string(mode) + "/" + name,
               [mode, way = way](benchmark::State& s) { docking_case(s, mode, way, true); })
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace spvjit::bench
