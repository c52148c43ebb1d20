// LaunchState: everything a launch needs, computed once per specialization — the kernel object,
// the signature, static sizes and the device limits — so the launch path queries nothing.
#pragma once

#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/core.hpp"
#include "spvjit/kernel.hpp"

namespace spvjit::detail {

/// The last value handed to clSetKernelArg for one argument, to skip re-setting it.
struct ArgMemo {
  bool set = false;
  std::size_t size = 0;
  unsigned char bytes[8] = {};
};

/// The work-items a launch over `nd` runs when each handles `coarsen` indices of dimension 0.
inline NDRange coarsened(const NDRange& nd, std::size_t coarsen) {
  NDRange run = nd;
  run.size[0] = nd.size[0] / coarsen + (nd.size[0] % coarsen != 0);
  return run;
}

class LaunchState {
 public:
  LaunchState(std::shared_ptr<RuntimeCore> core, std::shared_ptr<ClHandle<cl_program>> program,
              std::string name, std::vector<Param> params, bool hidden_ndrange,
              Specialization spec);

  std::shared_ptr<RuntimeCore> core;
  std::shared_ptr<ClHandle<cl_program>> program;
  ClHandle<cl_kernel> kernel;
  std::string name;
  std::vector<Param> params;
  bool hidden_ndrange = false;
  Specialization spec;
  std::size_t max_workgroup = 0;
  std::array<std::size_t, 3> max_items{};
  std::size_t preferred_multiple = 1;
  std::uint64_t local_mem_size = 0;
  /// Indices per work-item in dimension 0 (jit/coarsen.hpp), set by the Jit: the launch runs
  /// ceil(ndrange / coarsen) work-items there, the hidden ndrange arguments keep the full size.
  std::size_t coarsen = 1;
  std::vector<ArgMemo> memo;  ///< one per OpenCL argument, hidden ones included
  std::mutex mutex;           ///< an OpenCL kernel's arguments are not thread-safe
};

}  // namespace spvjit::detail
