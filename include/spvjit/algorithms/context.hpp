// Algorithms: what spvjit's parallel algorithms (reduce, scan, sort, compaction, search) share —
// the Jit they compile with, their kernels compiled once per element type and functor, scratch
// memory reused across calls, and how n elements are cut into chunks, one per work-item.
//
//   spvjit::Runtime rt;
//   spvjit::Jit jit(rt);
//   spvjit::Algorithms algs(rt, jit);
//   float total = spvjit::reduce(algs, x, 0.0f, [](auto a, auto b) { return a + b; });
//
// Functors (maps, combines, predicates, comparators) are C++ callables the algorithm calls
// while it builds its kernel, with kernel values (Val<T>, and Vec<T, N> where they accept one);
// generic lambdas (`auto` parameters) work on both and on host values too, which lets a small
// input in host memory run on the calling thread. A functor is part of the kernel's identity,
// so it must be stateless (a lambda without captures).
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <type_traits>
#include <typeindex>
#include <utility>

#include "spvjit/jit.hpp"
#include "spvjit/kernel.hpp"
#include "spvjit/runtime.hpp"
#include "spvjit/shared_array.hpp"
#include "spvjit/view.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// Designated initializers may name any subset: `{.host_threshold = 0}`.
struct AlgorithmOptions {
  /// Inputs of at most this many elements that live in host memory (SharedArray, SharedSpan)
  /// run on the calling thread with the sequential std:: algorithm, where the functors are
  /// callable on host values: a launch costs more than such a loop. 0: always launch.
  std::size_t host_threshold = 4096;
  /// A chunk (one work-item's contiguous share of the input) holds at least this many elements.
  std::size_t min_chunk = 8192;
  /// At most this many chunks per launch; 0: 4 per compute unit of the device.
  std::size_t max_chunks = 0;
};

namespace detail {
/// The definition `Build` returns, built on first use and kept for the process: one per
/// element type and functor, since both are template arguments of `Build`.
template <KernelDef (*Build)()>
const KernelDef& built_once() {
  static const KernelDef def = Build();
  return def;
}
}  // namespace detail

/// Memory an algorithm reads or writes: Buffer<T>, BufferView<T>, SharedArray<T>, SharedSpan<T>.
template <class S>
concept AlgorithmMemory = requires(const S& s) {
  typename S::value_type;
  { s.size() } -> std::convertible_to<std::size_t>;
  detail::arg_view(s);
};

/// Memory the host addresses directly (SharedArray, SharedSpan): what the host route needs.
template <class S>
concept HostAddressable = AlgorithmMemory<S> && requires(const S& s) {
  { s.data() } -> std::convertible_to<const typename S::value_type*>;
};

/// How n elements are cut: `count` chunks of `size` elements (the last may hold fewer).
struct ChunkPlan {
  std::size_t count = 0;
  std::size_t size = 0;
};

/// Kernels, scratch memory and chunking for the algorithms. One call at a time: concurrent
/// calls on one Algorithms take turns (a mutex); threads that want to run algorithms in
/// parallel give each its own Algorithms (they may share the Jit and Runtime).
class Algorithms {
 public:
  /// The runtime and jit must outlive this object; the jit must compile for `runtime`.
  Algorithms(Runtime& runtime, Jit& jit, AlgorithmOptions options = {});
  ~Algorithms();
  Algorithms(const Algorithms&) = delete;
  Algorithms& operator=(const Algorithms&) = delete;

  Runtime& runtime() const noexcept { return *runtime_; }
  Jit& jit() const noexcept { return *jit_; }
  const AlgorithmOptions& options() const noexcept { return options_; }

  /// How an input of n elements is cut into chunks (n = 0: none).
  ChunkPlan chunks(std::size_t n) const;

  /// The kernel `def` compiled by the jit, looked up by the definition's address: algorithms
  /// keep their definitions in statics, one per element type and functor. Call under lock().
  Kernel& kernel(const KernelDef& def);

  /// The kernel that `Build` defines (built once per process) compiled for this Algorithms:
  /// `algs.kernel<detail::build_fold_chunks<T, Map, Combine>>()`. Call under lock().
  template <KernelDef (*Build)()>
  Kernel& kernel() {
    return kernel(detail::built_once<Build>());
  }

  /// Scratch buffer `slot` for elements of T with room for at least n of them (its size() may
  /// be larger). Kept for the next call and grown in powers of two, so a repeated call of one
  /// size allocates nothing. Call under lock(); the buffer is valid until the next scratch()
  /// call for the same slot and type.
  template <KernelElement T>
  Buffer<T>& scratch(unsigned slot, std::size_t n) {
    auto& entry = scratch_[{slot, std::type_index(typeid(T))}];
    auto* buffer = static_cast<Buffer<T>*>(entry.get());
    if (buffer == nullptr || buffer->size() < n) {
      std::size_t capacity = 64;
      while (capacity < n) capacity *= 2;
      if (buffer != nullptr) scratch_bytes_ -= buffer->bytes();
      entry.reset();  // free the old one first: the two need not coexist
      scratch_bytes_ += capacity * sizeof(T);
      auto fresh = std::make_shared<Buffer<T>>(runtime_->allocate<T>(capacity));
      buffer = fresh.get();
      entry = std::move(fresh);
    }
    return *buffer;
  }

  /// Bytes of scratch memory held now (and how many buffers), for tests and diagnostics.
  std::size_t scratch_bytes() const { return scratch_bytes_; }
  std::size_t scratch_buffers() const { return scratch_.size(); }

  /// Held for the whole of an algorithm's call.
  [[nodiscard]] std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }

 private:
  Runtime* runtime_;
  Jit* jit_;
  AlgorithmOptions options_;
  std::size_t max_chunks_ = 1;
  std::size_t scratch_bytes_ = 0;
  std::mutex mutex_;
  std::map<const KernelDef*, Kernel> kernels_;
  std::map<std::pair<unsigned, std::type_index>, std::shared_ptr<void>> scratch_;
};

namespace detail {
/// A functor becomes part of a kernel's identity through its type alone.
template <class F>
constexpr bool stateless_functor_v = std::is_empty_v<F>&& std::is_default_constructible_v<F>;

/// Throws UserError naming `algorithm` unless `out` holds at least `needed` elements.
void check_output_size(const char* algorithm, const char* what, std::size_t given,
                       std::size_t needed);
/// Throws UserError unless `memory` belongs to `algs`' runtime.
void check_runtime(const char* algorithm, const Algorithms& algs, const RuntimeCore* memory);

template <AlgorithmMemory S>
const RuntimeCore* owner_of(const S& s) {
  return detail::arg_view(s).owner;
}
}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
