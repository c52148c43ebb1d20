// Jit: turns a KernelDef into a launchable Kernel for one Runtime — specialize the IR,
// translate it to SPIR-V (in spvjit's translator program, never in the host's process), build
// it with OpenCL — and caches the result by signature, so the same kernel and specialization
// are compiled once: in memory (a lock-free, allocation-free lookup) and on disk (SPIR-V plus
// the device binary, loaded by a later process through clCreateProgramWithBinary).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spvjit/kernel.hpp"
#include "spvjit/kernel_def.hpp"
#include "spvjit/module_def.hpp"
#include "spvjit/program.hpp"
#include "spvjit/runtime.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// Designated initializers may name any subset: `{.disk_cache = false}`.
struct JitOptions {
  /// Extra options for clBuildProgram (part of the cache key).
  std::string build_options = {};
  /// Keep compiled kernels on disk across processes. The environment variable SPVJIT_CACHE=off
  /// (or false, no, 0) turns it off whatever this says; a value that is no flag makes the Jit
  /// constructor throw UserError.
  bool disk_cache = true;
  /// The disk cache's directory; empty: $SPVJIT_CACHE_DIR, else $XDG_CACHE_HOME/spvjit, else
  /// ~/.cache/spvjit. One that cannot be written leaves the Jit caching in memory, with one
  /// warning on stderr.
  std::string cache_dir = {};
  /// Past this size the least recently used entries of the directory are deleted. An entry
  /// larger than this (or than 256 MiB) is removed unread when found.
  std::uint64_t cache_max_bytes = std::uint64_t{1} << 30;
  /// The in-memory cache's budget: past this many bytes of compiled kernels (estimated:
  /// JitStats::memory_bytes) the least recently used ones that no Kernel handle holds are
  /// dropped, releasing their OpenCL programs; asking for one again loads it from the disk
  /// cache (or compiles it). 0 keeps only the kernels a handle holds. SPVJIT_MEMORY_CACHE_BYTES
  /// (a number of bytes) overrides it.
  std::uint64_t memory_cache_bytes = std::uint64_t{64} << 20;
  /// Use the device's float atomic add (cl_ext_float_atomics) where it has one; false always
  /// builds atomic_add on f32/f64 as a compare-exchange loop (part of the cache key).
  bool native_float_atomics = true;
  /// On CPU devices, rewrite element-wise kernels (every global access indexed by exactly the
  /// global index in dimension 0) so each work-item handles W consecutive indices with vector
  /// loads, arithmetic and stores; results are bit-identical. W is the device's preferred
  /// vector width for the widest element type (CL_DEVICE_PREFERRED_VECTOR_WIDTH_*). Part of the
  /// cache key. SPVJIT_LOG=debug says why a kernel was left alone.
  bool coarsen = true;
  /// Check every access of builder kernels against what the launch passed (see
  /// KernelBuilder::inbounds; BoundsError). false compiles every kernel without its checks, for
  /// measuring what they cost; part of the cache key. SPVJIT_BOUNDS_CHECKS=off (or on)
  /// overrides it.
  bool bounds_checks = true;
  /// W for every coarsened kernel instead of the device's preference: 2, 4, 8 or 16 (0: the
  /// device's). Mostly for measuring. SPVJIT_COARSEN (off, on, 2, 4, 8, 16) overrides both.
  unsigned coarsen_width = 0;
  /// Vectors of W indices each coarsened work-item runs in turn (U: 1, 2, 4 or 8), in kernels
  /// without a static workgroup; the launch runs ceil(ndrange / (U*W)) work-items in dimension
  /// 0. A work-item's fixed cost (the device's work-item loop, the dispatch between vector,
  /// fast and tail bodies) is then paid once per U vectors. Part of the cache key;
  /// SPVJIT_COARSEN_VECTORS overrides it.
  unsigned coarsen_vectors = 1;
  /// On CPU devices, run each work-group of a kernel with barriers and a static workgroup in one
  /// OpenCL work-item: the code between two barriers becomes a loop over the group's local ids,
  /// which the device compiler vectorizes (docs/performance.md, "Work-group code generation").
  /// Results are the kernel's own. Part of the cache key; SPVJIT_GROUP_LOOPS=off (or on)
  /// overrides it. SPVJIT_LOG=debug says why a kernel was left alone.
  bool group_loops = true;
  // A disk-cache entry is written inside compile(). The background write there was (issue
  // #29) could not be made safe: exit() with a write under way destroyed LLVM's globals under
  // the writer thread (docs/runtime.md, "The disk cache").
};

/// What a Jit's caches did so far.
struct JitStats {
  /// Programs translated and built from IR: a builder kernel's, or a raw module's with all
  /// its kernels.
  std::uint64_t compiles = 0;
  std::uint64_t disk_hits = 0;    ///< programs loaded from the disk cache
  std::uint64_t disk_writes = 0;  ///< entries written to the disk cache
  std::uint64_t memory_hits = 0;  ///< compile() calls answered by the in-memory cache
  /// compile() calls it did not answer: each compiled, loaded from disk, or waited for another
  /// thread's compile of the same kernel.
  std::uint64_t memory_misses = 0;
  /// Compiled kernels dropped from memory past JitOptions::memory_cache_bytes.
  std::uint64_t evictions = 0;
  std::uint64_t memory_kernels = 0;  ///< compiled kernels the in-memory cache holds now
  /// Their estimated bytes: spvjit's copy of each kernel's IR, its launch state, and what PoCL
  /// keeps of its program (the SPIR-V, program.bc, the binary it was loaded from).
  std::uint64_t memory_bytes = 0;
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
  /// Every kernel of a raw module (module_from_bitcode) specialized for `spec`: the module is
  /// validated, translated and built once into one OpenCL program that its kernels share, and
  /// cached as one entry, in memory and on disk. Its kernels compiled one by one
  /// (compile(module.kernel("a"))) share that program too.
  Program compile(const ModuleDef& module, const Specialization& spec = {});

  /// The SPIR-V binary (32-bit words) that `compile` would hand to OpenCL.
  std::vector<std::uint32_t> spirv(const KernelDef& def, const Specialization& spec = {});

  /// How many programs this Jit has translated and built (memory and disk hits excluded): one
  /// per builder kernel, one per raw module however many of its kernels are compiled.
  std::uint64_t compile_count() const;
  /// Compiles, disk hits and disk writes so far (every entry counted is on disk).
  JitStats stats() const;
  /// The disk cache's directory; empty when the disk cache is off (by option, by SPVJIT_CACHE
  /// or after a failed write).
  std::string cache_dir() const;

 private:
  std::unique_ptr<detail::JitCore> core_;
};

/// The disk cache that `options` (and the environment) select, as found on disk now.
struct DiskCacheInfo {
  std::string dir = {};           ///< empty when no directory can be determined
  bool enabled = false;           ///< false under SPVJIT_CACHE=off or options.disk_cache = false
  std::uint64_t entries = 0;      ///< complete entries
  std::uint64_t bytes = 0;        ///< their total size
  std::uint64_t temporaries = 0;  ///< unfinished writes (another process writing, or one that died)
};
DiskCacheInfo disk_cache_info(const JitOptions& options = {});

/// Deletes every entry and temporary file of that disk cache; returns how many files went.
/// Other files in the directory are left alone.
std::uint64_t clear_disk_cache(const JitOptions& options = {});

}  // namespace spvjit

SPVJIT_API_END
