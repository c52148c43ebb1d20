// Jit: turns a KernelDef into a launchable Kernel for one Runtime — specialize the IR, translate
// it to SPIR-V in-process, build it with OpenCL — and caches the result by signature, so the
// same kernel and specialization are compiled once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spvjit/kernel.hpp"
#include "spvjit/kernel_def.hpp"
#include "spvjit/runtime.hpp"

namespace spvjit {

struct JitOptions {
  /// Extra options for clBuildProgram (part of the cache key).
  std::string build_options;
  /// Use the device's float atomic add (cl_ext_float_atomics) where it has one; false always
  /// builds atomic_add on f32/f64 as a compare-exchange loop.
  bool native_float_atomics = true;
};

namespace detail {
class JitCore;
}

class Jit {
 public:
  /// The runtime must outlive the Jit and every Kernel it returns.
  explicit Jit(Runtime& runtime, JitOptions options = {});
  ~Jit();
  Jit(Jit&&) noexcept;
  Jit& operator=(Jit&&) noexcept;

  /// The kernel specialized for `spec`, compiled on first request and cached after.
  Kernel compile(const KernelDef& def, const Specialization& spec = {});

  /// The SPIR-V binary (32-bit words) that `compile` would hand to OpenCL.
  std::vector<std::uint32_t> spirv(const KernelDef& def, const Specialization& spec = {});

  /// How many kernels this Jit has translated and built (cache hits excluded).
  std::uint64_t compile_count() const;

 private:
  std::unique_ptr<detail::JitCore> core_;
};

}  // namespace spvjit
