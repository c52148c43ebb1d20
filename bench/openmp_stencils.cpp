#include "bench/openmp_stencils.hpp"

#include "bench/openmp_heat.hpp"

namespace spvjit::bench::openmp {

void stencil9_2d_step(float* unew, const float* u, std::size_t n, std::size_t m, float centre,
                      float edge, float corner) {
  if (n < 3 || m < 3) return;  // no interior
#pragma omp parallel for schedule(static)
  for (std::size_t j = 1; j < m - 1; ++j) {
    const float* c = u + j * n;  // column j and its two neighbours
    const float* west = c - n;
    const float* east = c + n;
    float* out = unew + j * n;
#pragma omp simd
    for (std::size_t i = 1; i < n - 1; ++i) {
      const float edges = c[i - 1] + c[i + 1] + west[i] + east[i];
      const float corners = west[i - 1] + west[i + 1] + east[i - 1] + east[i + 1];
      out[i] = centre * c[i] + edge * edges + corner * corners;
    }
  }
}

void stencil27_3d_step(float* unew, const float* u, std::size_t n, std::size_t m, std::size_t p,
                       const std::array<float, 4>& weight) {
  if (n < 3 || m < 3 || p < 3) return;  // no interior
  const std::size_t plane = n * m;
#pragma omp parallel for schedule(static)
  for (std::size_t k = 1; k < p - 1; ++k) {
    for (std::size_t j = 1; j < m - 1; ++j) {
      // line[b + 1][c + 1]: the line (j + b, k + c).
      const float* line[3][3];
      for (int b = -1; b <= 1; ++b) {
        for (int c = -1; c <= 1; ++c) line[b + 1][c + 1] = u + (j + b) * n + (k + c) * plane;
      }
      float* out = unew + j * n + k * plane;
#pragma omp simd
      for (std::size_t i = 1; i < n - 1; ++i) {
        // Each distance's neighbours in the kernel's order: k outermost, then j, then i.
        const float faces = line[1][0][i] + line[0][1][i] + line[1][1][i - 1] + line[1][1][i + 1] +
                            line[2][1][i] + line[1][2][i];
        const float edges = line[0][0][i] + line[1][0][i - 1] + line[1][0][i + 1] + line[2][0][i] +
                            line[0][1][i - 1] + line[0][1][i + 1] + line[2][1][i - 1] +
                            line[2][1][i + 1] + line[0][2][i] + line[1][2][i - 1] +
                            line[1][2][i + 1] + line[2][2][i];
        const float corners = line[0][0][i - 1] + line[0][0][i + 1] + line[2][0][i - 1] +
                              line[2][0][i + 1] + line[0][2][i - 1] + line[0][2][i + 1] +
                              line[2][2][i - 1] + line[2][2][i + 1];
        out[i] =
            weight[0] * line[1][1][i] + weight[1] * faces + weight[2] * edges + weight[3] * corners;
      }
    }
  }
}

void upwind1d_step(float* unew, const float* u, const float* v, std::size_t n, float c) {
  if (n < 3) return;  // no interior
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 1; i < n - 1; ++i) {
    const float flux = v[i] > 0.0f ? v[i] * (u[i] - u[i - 1]) : v[i] * (u[i + 1] - u[i]);
    unew[i] = u[i] - c * flux;
  }
}

void heat2d_rows_step(float* unew, const float* u, std::size_t rows, std::size_t cols,
                      float alpha) {
  // A row-major rows x cols grid is a column-major cols x rows one: element r * cols + c.
  heat2d_step(unew, u, cols, rows, alpha);
}

void rows_damping_step(float* unew, const float* u, std::size_t rows, std::size_t cols,
                       std::int64_t terms) {
#pragma omp parallel for schedule(static)
  for (std::size_t r = 0; r < rows; ++r) {
#pragma omp simd
    for (std::size_t c = 0; c < cols; ++c) {
      float w = 0.5f + 0.001f * static_cast<float>(static_cast<std::int64_t>(r + c));
      for (std::int64_t k = 0; k < terms; ++k) w = w * 0.75f + 0.03125f;
      unew[r * cols + c] = u[r * cols + c] * w + 0.0625f;
    }
  }
}

}  // namespace spvjit::bench::openmp
