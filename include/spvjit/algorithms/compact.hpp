// Stream compaction (std::copy_if, std::stable_partition into a second array,
// std::unique_copy): three steps on chunks of the input, one work-item per chunk.
//   1. each chunk counts the elements it keeps (copy_if: with vector accumulators where the
//      predicate takes vectors, reduce.hpp's fold with CountOf);
//   2. each chunk's first output slot is the sum of the counts before it: the scatter kernel's
//      work-items add those few counts themselves (one per chunk, at most
//      AlgorithmOptions::max_chunks), which saves a launch over a separate scan kernel;
//   3. each chunk writes its kept elements from there, in order, without branches: copy_if
//      stores every element at the next free slot and moves the slot on only past a kept one,
//      and stops at its last kept element so it never writes a slot of another chunk's.
//
//   std::size_t kept = copy_if(algs, x, out, [](auto v) { return v > 0.0f; });
//   std::size_t first = partition(algs, x, out, [](auto v) { return v < 10; });
//   std::size_t distinct = unique(algs, sorted, out);
//
// `out` must hold as many elements as the input (a UserError otherwise) and must not overlap
// it; elements of `out` past the returned count are left as they were (copy_if, unique).
// Predicates are stateless callables over kernel values (Val<T>, half read as float) returning
// Val<bool>; they run on the host for small inputs in host memory only when they declare
// `static constexpr bool host_callable = true` (functors.hpp).
//
// Half elements pass through float: every value keeps its bits except NaNs, which stay NaNs
// with the device's NaN bits (float to half conversion does not keep a NaN's payload).
//
// unique compares neighbours with `==` by default: for floats every NaN is kept (NaN == NaN is
// false) and -0.0 == 0.0, so a run of zeros of either sign keeps only its first. A user
// equality must be an equivalence (as std::unique_copy requires): each element is compared with
// its predecessor in the input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "spvjit/algorithms/chunked.hpp"
#include "spvjit/algorithms/context.hpp"
#include "spvjit/algorithms/functors.hpp"
#include "spvjit/algorithms/reduce.hpp"
#include "spvjit/builder.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// Equality with `==`, on kernel values and host values alike (unique's default).
struct equal_to {
  static constexpr bool host_callable = true;
  template <class V>
  auto operator()(V a, V b) const {
    return a == b;
  }
};

namespace detail {

// Scratch slots of the compaction family (20..29 belong to compact.hpp and histogram.hpp).
inline constexpr unsigned compact_counts_slot = 20;
inline constexpr unsigned compact_total_slot = 21;

/// copy_if and partition keep element j when the predicate holds for it.
template <class Pred>
struct KeepIf {
  template <class T>
  static Val<bool> keep(const Ptr<const T, AddressSpace::Global>&, Val<std::int64_t>,
                        Val<compute_t<T>> v) {
    return Val<bool>(Pred{}(v));
  }
};

/// unique keeps element j when it is the first or differs from element j - 1.
template <class Equal>
struct KeepFirstOfRun {
  template <class T>
  static Val<bool> keep(const Ptr<const T, AddressSpace::Global>& x, Val<std::int64_t> j,
                        Val<compute_t<T>> v) {
    // Element 0 compares with itself: the load stays in bounds and the result is discarded.
    const Val<compute_t<T>> previous =
        x[max(j - 1, Val<std::int64_t>(detail::literal(detail::state_of(j), std::int64_t{0})))];
    return j == std::int64_t{0} || !Val<bool>(Equal{}(previous, v));
  }
};

/// Step 1 where the keep rule does not vectorize (unique): counts[g] = kept elements of chunk g.
template <class T, class Keep>
KernelDef build_count_kept() {
  KernelBuilder kb("spvjit_count_kept");
  auto x = kb.param<Const<T>>("x");
  auto counts = kb.param<Global<std::int64_t>>("counts");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  for_own_chunk(kb, n, chunk,
                [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t> end) {
                  auto kept = kb.var(std::int64_t{0});
                  kb.for_(begin, end, [&](Val<std::int64_t> j) {
                    kept += cast<std::int64_t>(Keep::template keep<T>(x, j, x[j]));
                  });
                  counts[g] = kept.get();
                });
  return kb.finish();
}

/// The first output slot of chunk g (the counts before it) and the total, added up by each
/// work-item: there are few chunks.
struct ChunkOffsets {
  Val<std::int64_t> before;
  Val<std::int64_t> total;
};
inline ChunkOffsets chunk_offsets(KernelBuilder& kb,
                                  const Ptr<const std::int64_t, AddressSpace::Global>& counts,
                                  Val<std::int64_t> g, Val<std::int64_t> count) {
  auto before = kb.var(std::int64_t{0});
  auto total = kb.var(std::int64_t{0});
  kb.for_(std::int64_t{0}, count, [&](Val<std::int64_t> c) {
    const Val<std::int64_t> k = counts[c];
    kb.if_(c < g, [&] { before += k; });
    total += k;
  });
  return {before.get(), total.get()};
}

/// Step 3 of copy_if and unique: chunk g writes its kept elements from its first output slot;
/// the last chunk also writes the total to total[0].
template <class T, class Keep>
KernelDef build_scatter_kept() {
  KernelBuilder kb("spvjit_scatter_kept");
  auto x = kb.param<Const<T>>("x");
  auto out = kb.param<Global<T>>("out");
  auto counts = kb.param<Const<std::int64_t>>("counts");
  auto total_out = kb.param<Global<std::int64_t>>("total");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  auto count = kb.param<std::int64_t>("count");
  for_own_chunk(kb, n, chunk, [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t>) {
    const ChunkOffsets offsets = chunk_offsets(kb, counts, g, count);
    kb.if_(g == count - 1, [&] { total_out[0] = offsets.total; });
    auto slot = kb.var(offsets.before);
    const Val<std::int64_t> stop = offsets.before + Val<std::int64_t>(counts[g]);
    auto j = kb.var(begin);
    const Val<std::int64_t> end = min(begin + chunk, n);
    // Every element is stored at the next free slot; only a kept one moves the slot on. The
    // loop ends after the chunk's last kept element, so no store leaves the chunk's slots. It
    // also ends at the chunk's end: should the predicate keep fewer here than it counted in
    // step 1 (a vector form of a math function rounding otherwise than the scalar one), no
    // read leaves the chunk either.
    kb.while_([&] { return slot < stop && j < end; },
              [&] {
                const Val<std::int64_t> at = j;
                const Val<compute_t<T>> v = x[at];
                out[slot.get()] = v;
                slot += cast<std::int64_t>(Keep::template keep<T>(x, at, v));
                j += std::int64_t{1};
              });
  });
  return kb.finish();
}

/// Step 3 of partition: kept elements go after the kept ones of earlier chunks, the others
/// after all kept elements and the others of earlier chunks.
template <class T, class Pred>
KernelDef build_scatter_partition() {
  KernelBuilder kb("spvjit_scatter_partition");
  auto x = kb.param<Const<T>>("x");
  auto out = kb.param<Global<T>>("out");
  auto counts = kb.param<Const<std::int64_t>>("counts");
  auto total_out = kb.param<Global<std::int64_t>>("total");
  auto n = kb.param<std::int64_t>("n");
  auto chunk = kb.param<std::int64_t>("chunk");
  auto count = kb.param<std::int64_t>("count");
  for_own_chunk(kb, n, chunk, [&](Val<std::int64_t> g, Val<std::int64_t> begin, Val<std::int64_t>) {
    const ChunkOffsets offsets = chunk_offsets(kb, counts, g, count);
    kb.if_(g == count - 1, [&] { total_out[0] = offsets.total; });
    auto kept_slot = kb.var(offsets.before);
    auto other_slot = kb.var(offsets.total + (begin - offsets.before));
    kb.for_(begin, min(begin + chunk, n), [&](Val<std::int64_t> j) {
      const Val<compute_t<T>> v = x[j];
      const Val<bool> keep = KeepIf<Pred>::template keep<T>(x, j, v);
      const Val<std::int64_t> k = cast<std::int64_t>(keep);
      out[select(keep, kept_slot.get(), other_slot.get())] = v;
      kept_slot += k;
      other_slot += std::int64_t{1} - k;
    });
  });
  return kb.finish();
}

/// Throws UserError when `in` and `out` are the same memory or overlap in host memory (a
/// parallel compaction in place would read elements it already overwrote).
inline void check_no_overlap(const char* algorithm, const ArgView& in, std::size_t in_bytes,
                             const ArgView& out, std::size_t out_bytes) {
  bool overlap = in.mem != nullptr && in.mem == out.mem;
  if (in.svm != nullptr && out.svm != nullptr) {
    const auto* a = static_cast<const char*>(in.svm);
    const auto* b = static_cast<const char*>(out.svm);
    overlap = a < b + out_bytes && b < a + in_bytes;
  }
  if (overlap) {
    detail::throw_user_error(algorithm,
                             "the output overlaps the input; expected separate memory (a parallel "
                             "compaction cannot run in place)");
  }
}

template <class S, class O>
std::size_t check_compaction(const char* algorithm, Algorithms& algs, const S& in, const O& out) {
  static_assert(std::is_same_v<typename S::value_type, typename O::value_type>,
                "spvjit compaction: the output's element type must be the input's");
  check_runtime(algorithm, algs, owner_of(in));
  check_runtime(algorithm, algs, owner_of(out));
  check_output_size(algorithm, "the output", out.size(), in.size());
  using T = typename S::value_type;
  check_no_overlap(algorithm, arg_view(in), in.size() * sizeof(T), arg_view(out),
                   out.size() * sizeof(T));
  return in.size();
}

/// Whether the host may run the functor on elements of T.
template <class T, class F>
constexpr bool host_runs() {
  return !std::is_same_v<T, half> && declares_host_callable<F>();
}

/// Steps 1 to 3 of copy_if and unique on the device.
template <class S, class O>
std::size_t compact_on_device(Algorithms& algs, const S& in, const O& out,
                              const KernelDef& count_def, const KernelDef& scatter_def) {
  const std::size_t n = in.size();
  auto lock = algs.lock();
  const ChunkPlan plan = algs.chunks(n);
  auto& counts = algs.scratch<std::int64_t>(compact_counts_slot, plan.count);
  auto& total = algs.scratch<std::int64_t>(compact_total_slot, 1);
  const auto n64 = static_cast<std::int64_t>(n);
  const auto chunk = static_cast<std::int64_t>(plan.size);
  algs.kernel(count_def).launch(NDRange{plan.count}, WorkGroup{1}, in, counts, n64, chunk);
  algs.kernel(scatter_def)
      .launch(NDRange{plan.count}, WorkGroup{1}, in, out, counts, total, n64, chunk,
              static_cast<std::int64_t>(plan.count));
  return static_cast<std::size_t>(read_result(algs, total));
}

}  // namespace detail

/// Copies the elements of `in` that satisfy `pred` to the front of `out`, in order
/// (std::copy_if); returns how many. `out` must hold in.size() elements.
template <AlgorithmMemory S, AlgorithmMemory O, class Pred>
std::size_t copy_if(Algorithms& algs, const S& in, const O& out, Pred) {
  using T = typename S::value_type;
  detail::require_stateless<Pred>("predicate");
  const std::size_t n = detail::check_compaction("copy_if", algs, in, out);
  if (n == 0) return 0;
  if constexpr (HostAddressable<S> && HostAddressable<O> && detail::host_runs<T, Pred>()) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();  // kernels queued before may still use in or out
      return static_cast<std::size_t>(std::copy_if(in.data(), in.data() + n, out.data(),
                                                   [](const T& v) { return bool(Pred{}(v)); }) -
                                      out.data());
    }
  }
  return detail::compact_on_device(
      algs, in, out,
      detail::built_once<detail::build_fold_chunks<T, detail::CountOf<Pred>, plus>>(),
      detail::built_once<detail::build_scatter_kept<T, detail::KeepIf<Pred>>>());
}

/// The elements of `in` that satisfy `pred` in order, then the others in order, into `out`
/// (std::stable_partition, into a second array); returns how many satisfy `pred`.
template <AlgorithmMemory S, AlgorithmMemory O, class Pred>
std::size_t partition(Algorithms& algs, const S& in, const O& out, Pred) {
  using T = typename S::value_type;
  detail::require_stateless<Pred>("predicate");
  const std::size_t n = detail::check_compaction("partition", algs, in, out);
  if (n == 0) return 0;
  if constexpr (HostAddressable<S> && HostAddressable<O> && detail::host_runs<T, Pred>()) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();
      auto keep = [](const T& v) { return bool(Pred{}(v)); };
      T* const kept_end = std::copy_if(in.data(), in.data() + n, out.data(), keep);
      std::remove_copy_if(in.data(), in.data() + n, kept_end, keep);
      return static_cast<std::size_t>(kept_end - out.data());
    }
  }
  // Both steps evaluate the predicate on scalars, so that they agree on every element: the
  // slots of the elements not kept follow from the count of those kept.
  return detail::compact_on_device(
      algs, in, out, detail::built_once<detail::build_count_kept<T, detail::KeepIf<Pred>>>(),
      detail::built_once<detail::build_scatter_partition<T, Pred>>());
}

/// Copies `in` to `out` leaving out every element equal (`equal`) to the one before it
/// (std::unique_copy); returns how many were written.
template <AlgorithmMemory S, AlgorithmMemory O, class Equal = equal_to>
std::size_t unique(Algorithms& algs, const S& in, const O& out, Equal = {}) {
  using T = typename S::value_type;
  detail::require_stateless<Equal>("equality");
  const std::size_t n = detail::check_compaction("unique", algs, in, out);
  if (n == 0) return 0;
  if constexpr (HostAddressable<S> && HostAddressable<O> && detail::host_runs<T, Equal>()) {
    if (n <= algs.options().host_threshold) {
      algs.runtime().synchronize();
      return static_cast<std::size_t>(
          std::unique_copy(in.data(), in.data() + n, out.data(),
                           [](const T& a, const T& b) { return bool(Equal{}(a, b)); }) -
          out.data());
    }
  }
  using Keep = detail::KeepFirstOfRun<Equal>;
  return detail::compact_on_device(algs, in, out,
                                   detail::built_once<detail::build_count_kept<T, Keep>>(),
                                   detail::built_once<detail::build_scatter_kept<T, Keep>>());
}

}  // namespace spvjit

SPVJIT_API_END
