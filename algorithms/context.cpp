#include "spvjit/algorithms/context.hpp"

#include <string>

namespace spvjit {

namespace {
// Each compute unit gets several chunks, so that one slow chunk (a preempted thread, a chunk
// with more matches) leaves the others work to take.
constexpr std::size_t chunks_per_compute_unit = 4;
}  // namespace

Algorithms::Algorithms(Runtime& runtime, Jit& jit, AlgorithmOptions options)
    : runtime_(&runtime), jit_(&jit), options_(options) {
  if (options_.min_chunk == 0) {
    detail::throw_user_error("Algorithms",
                             "AlgorithmOptions::min_chunk is 0; expected at least 1 element");
  }
  std::size_t units = runtime.device().compute_units;
  if (runtime.inline_threads() > units) units = runtime.inline_threads();
  max_chunks_ = options_.max_chunks != 0
                    ? options_.max_chunks
                    : chunks_per_compute_unit * std::max<std::size_t>(units, 1);
}

Algorithms::~Algorithms() = default;

ChunkPlan Algorithms::chunks(std::size_t n) const {
  if (n == 0) return {};
  std::size_t count = std::min(max_chunks_, (n + options_.min_chunk - 1) / options_.min_chunk);
  count = std::max<std::size_t>(count, 1);
  std::size_t size = (n + count - 1) / count;
  count = (n + size - 1) / size;  // rounding may leave the last chunk empty: drop it
  return {count, size};
}

Kernel& Algorithms::kernel(const KernelDef& def) {
  auto found = kernels_.find(&def);
  if (found != kernels_.end()) return found->second;
  return kernels_.emplace(&def, jit_->compile(def)).first->second;
}

namespace detail {
void check_output_size(const char* algorithm, const char* what, std::size_t given,
                       std::size_t needed) {
  if (given < needed) {
    detail::throw_user_error(algorithm, std::string(what) + " holds " + std::to_string(given) +
                                            " elements; expected at least " +
                                            std::to_string(needed));
  }
}

void check_runtime(const char* algorithm, const Algorithms& algs, const RuntimeCore* memory) {
  if (memory != &detail::core_of(algs.runtime())) {
    detail::throw_user_error(algorithm,
                             "the memory belongs to another Runtime than the Algorithms' one");
  }
}
}  // namespace detail

}  // namespace spvjit
