// The OpenCL C of bench/opencl_docking.hpp's kernel, built once per process and mode, and its
// raw launch. The operations and their order are bench/bench_docking.cpp's kernel's.
#include "bench/opencl_docking.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "bench/opencl_compute.hpp"

namespace spvjit::bench::opencl {

namespace {

// PPWI and the force field's constants come from the header docking_source() puts in front.
constexpr std::string_view docking_body = R"CL(
__kernel void docking(__global float* energies, __global const float* protein_xyz,
                      __global const int* protein_type, int np,
                      __global const float* ligand_xyz, __global const int* ligand_type, int nl,
                      __global const float* forcefield, __global const float* poses,
                      int nposes) {
  const int group = get_global_id(0);
  float transform[PPWI][3][4];
  float etot[PPWI];
  for (int j = 0; j < PPWI; ++j) {
    const int p = group * PPWI + j;
    const float sx = sin(poses[p]), cx = cos(poses[p]);
    const float sy = sin(poses[nposes + p]), cy = cos(poses[nposes + p]);
    const float sz = sin(poses[2 * nposes + p]), cz = cos(poses[2 * nposes + p]);
    transform[j][0][0] = cy * cz;
    transform[j][0][1] = sx * sy * cz - cx * sz;
    transform[j][0][2] = cx * sy * cz + sx * sz;
    transform[j][0][3] = poses[3 * nposes + p];
    transform[j][1][0] = cy * sz;
    transform[j][1][1] = sx * sy * sz + cx * cz;
    transform[j][1][2] = cx * sy * sz - sx * cz;
    transform[j][1][3] = poses[4 * nposes + p];
    transform[j][2][0] = -sy;
    transform[j][2][1] = sx * cy;
    transform[j][2][2] = cx * cy;
    transform[j][2][3] = poses[5 * nposes + p];
    etot[j] = 0.0f;
  }
  for (int l = 0; l < nl; ++l) {
    const float x = ligand_xyz[3 * l], y = ligand_xyz[3 * l + 1], z = ligand_xyz[3 * l + 2];
    const int lt = ligand_type[l];
    const float l_radius = forcefield[3 * lt], l_hphb = forcefield[3 * lt + 1],
                l_elsc = forcefield[3 * lt + 2];
    float lx[PPWI], ly[PPWI], lz[PPWI];
    for (int j = 0; j < PPWI; ++j) {
      lx[j] = transform[j][0][0] * x + transform[j][0][1] * y + transform[j][0][2] * z +
              transform[j][0][3];
      ly[j] = transform[j][1][0] * x + transform[j][1][1] * y + transform[j][1][2] * z +
              transform[j][1][3];
      lz[j] = transform[j][2][0] * x + transform[j][2][1] * y + transform[j][2][2] * z +
              transform[j][2][3];
    }
    for (int a = 0; a < np; ++a) {
      const float px = protein_xyz[3 * a], py = protein_xyz[3 * a + 1],
                  pz = protein_xyz[3 * a + 2];
      const int pt = protein_type[a];
      const float p_radius = forcefield[3 * pt], p_hphb = forcefield[3 * pt + 1],
                  p_elsc = forcefield[3 * pt + 2];
      const float r_sum = p_radius + l_radius;
      const bool polar = p_hphb < 0.0f && l_hphb < 0.0f;
      const bool like = polar || (p_hphb > 0.0f && l_hphb > 0.0f);
      const float range = polar ? HBOND_RANGE : HPHOB_RANGE;
      const float hphb_strength = like ? -(fabs(p_hphb) + fabs(l_hphb))
                                       : DESOLVATION * fabs(p_hphb - l_hphb);
      const float charge = ELEC_SCALE * p_elsc * l_elsc;
      const float desolv_strength = like ? 0.0f : DESOLVATION * (fabs(p_elsc) + fabs(l_elsc));
      for (int j = 0; j < PPWI; ++j) {
        const float dx = lx[j] - px, dy = ly[j] - py, dz = lz[j] - pz;
        const float d = sqrt(dx * dx + dy * dy + dz * dz);
        const float b = d - r_sum;
        const bool inside = b < 0.0f;
        const float steric = inside ? HARDNESS * (1.0f - d / r_sum) : 0.0f;
        const float hfall = inside ? 1.0f : 1.0f - b / range;
        const float hphb = b < range ? hphb_strength * hfall : 0.0f;
        const float efall = inside ? 1.0f : 1.0f - b / ELEC_RANGE;
        const bool in_elec = b < ELEC_RANGE;
        const float elec = in_elec ? charge * efall : 0.0f;
        const float desolv = in_elec ? desolv_strength * efall : 0.0f;
        etot[j] += steric + hphb + elec + desolv;
      }
    }
  }
  for (int j = 0; j < PPWI; ++j) energies[group * PPWI + j] = 0.5f * etot[j];
}
)CL";

std::string literal(float v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9ef", static_cast<double>(v));
  return text;
}

// The source as built: the mode's pragma (exact: no fused multiply-adds) and the constants.
std::string docking_source(compute::MathMode mode) {
  std::string text;
  if (mode == compute::MathMode::exact) text += "#pragma OPENCL FP_CONTRACT OFF\n";
  text += "#define PPWI " + std::to_string(docking::ppwi) + "\n";
  text += "#define HARDNESS " + literal(docking::hardness) + "\n";
  text += "#define HBOND_RANGE " + literal(docking::hbond_range) + "\n";
  text += "#define HPHOB_RANGE " + literal(docking::hphob_range) + "\n";
  text += "#define ELEC_RANGE " + literal(docking::elec_range) + "\n";
  text += "#define ELEC_SCALE " + literal(docking::elec_scale) + "\n";
  text += "#define DESOLVATION " + literal(docking::desolvation) + "\n";
  text += docking_body;
  return text;
}

// Built once per process and mode (Google Benchmark calls a case's function several times).
raw::Kernel& built(compute::MathMode mode) {
  static std::unique_ptr<raw::Kernel> kernels[2];
  auto& kernel = kernels[mode == compute::MathMode::exact ? 0 : 1];
  if (!kernel) {
    kernel = std::make_unique<raw::Kernel>(
        compute_device(), raw::Source{docking_source(mode)}, "docking",
        mode == compute::MathMode::fast ? "-cl-fast-relaxed-math" : "");
  }
  return *kernel;
}

template <class T>
raw::Mem upload(const std::vector<T>& host) {
  return compute_device().buffer(host.size() * sizeof(T), host.data());
}

template <class A>
void set_arg(cl_kernel k, cl_uint index, const A& value) {
  raw::check(clSetKernelArg(k, index, sizeof(A), &value), "clSetKernelArg");
}

}  // namespace

Docking::Docking(compute::MathMode mode, const docking::Inputs& in)
    : kernel_(built(mode)),
      energies_(upload(std::vector<float>(docking::poses))),
      protein_xyz_(upload(in.protein_xyz)),
      protein_type_(upload(in.protein_type)),
      ligand_xyz_(upload(in.ligand_xyz)),
      ligand_type_(upload(in.ligand_type)),
      forcefield_(upload(in.forcefield)),
      poses_(upload(in.poses)) {}

void Docking::run() {
  cl_kernel k = kernel_.get();
  set_arg(k, 0, energies_.get());
  set_arg(k, 1, protein_xyz_.get());
  set_arg(k, 2, protein_type_.get());
  set_arg(k, 3, static_cast<cl_int>(docking::protein_atoms));
  set_arg(k, 4, ligand_xyz_.get());
  set_arg(k, 5, ligand_type_.get());
  set_arg(k, 6, static_cast<cl_int>(docking::ligand_atoms));
  set_arg(k, 7, forcefield_.get());
  set_arg(k, 8, poses_.get());
  set_arg(k, 9, static_cast<cl_int>(docking::poses));
  const std::size_t global = docking::poses / docking::ppwi;
  raw::check(clEnqueueNDRangeKernel(compute_device().queue(), k, 1, nullptr, &global, nullptr, 0,
                                    nullptr, nullptr),
             "clEnqueueNDRangeKernel");
  raw::check(clFinish(compute_device().queue()), "clFinish");
}

std::vector<float> Docking::read() {
  std::vector<float> energies(docking::poses);
  raw::check(
      clEnqueueReadBuffer(compute_device().queue(), energies_.get(), CL_TRUE, 0,
                          energies.size() * sizeof(float), energies.data(), 0, nullptr, nullptr),
      "clEnqueueReadBuffer");
  return energies;
}

}  // namespace spvjit::bench::opencl
