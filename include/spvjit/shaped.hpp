// Shaped views on the host: memory passed to an array parameter (GlobalArray<T, N>) together
// with its extents, which the kernel reads as size(A, d) and length(A) (KA's reshape).
//
//   Buffer<float> a = rt.alloc<float>(rows * cols);
//   kernel.launch(NDRange{rows, cols}, shaped(a, {rows, cols}));   // GlobalArray<float, 2>
//
// Extents are in the kernel's index order, whatever the parameter's layout: a column-major
// parameter A(i, j) with i < rows takes shaped(a, {rows, cols}) too. Their product must equal
// the elements of the memory; a launch checks it and throws UserError naming the parameter. For
// a part of a buffer, shape a view: shaped(view(a, 0, rows * cols), {rows, cols}).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "spvjit/types.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// Memory a launch can pass for a pointer parameter: Buffer<T>, BufferView<T>, SharedArray<T>,
/// SharedSpan<T>.
template <class S>
concept ShapeableMemory = requires(const S& s) {
  typename S::value_type;
  requires KernelScalar<typename S::value_type>;
  { s.size() } -> std::convertible_to<std::size_t>;
};

/// `source` seen with 1 to 3 extents. Refers to `source` (which must outlive it), like a span:
/// making one copies nothing and allocates nothing.
template <ShapeableMemory Source>
class Shaped {
 public:
  using value_type = typename Source::value_type;
  Shaped(const Source& source, const std::uint64_t* extents, unsigned rank)
      : source_(&source), rank_(rank) {
    for (unsigned d = 0; d < rank && d < 3; ++d) extents_[d] = extents[d];
  }
  const Source& source() const noexcept { return *source_; }
  unsigned rank() const noexcept { return rank_; }
  std::uint64_t extent(unsigned d) const noexcept { return d < rank_ ? extents_[d] : 1; }
  const std::uint64_t* extents() const noexcept { return extents_; }

 private:
  const Source* source_;
  std::uint64_t extents_[3] = {1, 1, 1};
  unsigned rank_;
};

/// `source` with the extents `{n, m}` (1 to 3 of them).
template <ShapeableMemory Source, std::size_t N>
Shaped<Source> shaped(const Source& source, const std::uint64_t (&extents)[N]) {
  static_assert(N >= 1 && N <= 3, "shaped: 1 to 3 extents");
  return Shaped<Source>(source, extents, static_cast<unsigned>(N));
}
/// The same with extents of any integer type: shaped(a, rows, cols). A negative extent is a
/// UserError at the launch (it reads as a huge one).
template <ShapeableMemory Source, std::integral... E>
Shaped<Source> shaped(const Source& source, E... extents) {
  static_assert(sizeof...(E) >= 1 && sizeof...(E) <= 3, "shaped: 1 to 3 extents");
  const std::uint64_t values[] = {static_cast<std::uint64_t>(extents)...};
  return Shaped<Source>(source, values, static_cast<unsigned>(sizeof...(E)));
}

}  // namespace spvjit

SPVJIT_API_END
