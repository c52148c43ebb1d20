// Beyond one machine with the engine users already run: each MPI rank owns a slice of saxpy
// and its own spvjit runtime; rank 0 gathers the slices and checks every element.
//   mpirun -np 2 mpi_saxpy [n]
#include <mpi.h>
#include <spvjit/examples.hpp>
#include <spvjit/spvjit.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const long long n = argc > 1 ? std::atoll(argv[1]) : 1 << 20;
  int status = 0;
  int local_ok = 0;
  std::vector<float> z_local;
  std::vector<int> counts(static_cast<std::size_t>(ranks)),
      offsets(static_cast<std::size_t>(ranks));
  try {
    // Slice boundaries: rank r owns [n*r/ranks, n*(r+1)/ranks).
    for (int r = 0; r < ranks; ++r) {
      offsets[static_cast<std::size_t>(r)] = static_cast<int>(n * r / ranks);
      counts[static_cast<std::size_t>(r)] = static_cast<int>(n * (r + 1) / ranks - n * r / ranks);
    }
    const std::size_t mine = static_cast<std::size_t>(counts[static_cast<std::size_t>(rank)]);
    const long long first = offsets[static_cast<std::size_t>(rank)];
    std::vector<float> x(mine), y(mine);
    for (std::size_t i = 0; i < mine; ++i) {
      x[i] = static_cast<float>((first + static_cast<long long>(i)) % 1000);
      y[i] = 0.5f;
    }
    using namespace spvjit;
    Runtime rt;
    Jit jit(rt);
    Kernel k = jit.compile(examples::saxpy(Scalar::F32));
    auto X = rt.upload(x);
    auto Y = rt.upload(y);
    auto Z = rt.zeros<float>(mine);
    k.launch(NDRange{mine}, Z, X, Y, 3.0f);
    rt.synchronize();
    z_local = Z.to_vector();
    local_ok = 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_saxpy rank %d: %s\n", rank, e.what());
  }
  // Every rank learns whether all succeeded before anyone waits in a collective on the others.
  int all_ok = 0;
  MPI_Allreduce(&local_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_ok) {
    MPI_Finalize();
    return 1;
  }
  std::vector<float> all(rank == 0 ? static_cast<std::size_t>(n) : 0);
  MPI_Gatherv(z_local.data(), static_cast<int>(z_local.size()), MPI_FLOAT, all.data(),
              counts.data(), offsets.data(), MPI_FLOAT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long long wrong = 0;
    for (long long j = 0; j < n; ++j) {
      if (all[static_cast<std::size_t>(j)] != 3.0f * static_cast<float>(j % 1000) + 0.5f) ++wrong;
    }
    std::printf("mpi_saxpy: %d ranks, %lld elements gathered, %lld wrong\n", ranks, n, wrong);
    status = wrong == 0 ? 0 : 1;
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
