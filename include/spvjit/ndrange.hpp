// Launch geometry: the ndrange (how many work-items), the work-group size, and local memory
// sized at launch. Missing dimensions are 1, as in KernelAbstractions.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <string>
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
struct Extent3 {
  std::array<std::size_t, 3> size{1, 1, 1};
  unsigned dims = 1;

  Extent3() = default;
  Extent3(std::size_t x) : size{x, 1, 1}, dims(1) {}
  Extent3(std::size_t x, std::size_t y) : size{x, y, 1}, dims(2) {}
  Extent3(std::size_t x, std::size_t y, std::size_t z) : size{x, y, z}, dims(3) {}
  std::size_t operator[](unsigned d) const { return size[d]; }
  std::size_t total() const { return size[0] * size[1] * size[2]; }
  friend bool operator==(const Extent3& a, const Extent3& b) { return a.size == b.size; }
  std::string to_string() const;
};
}  // namespace detail

/// The number of work-items the kernel should cover, in 1 to 3 dimensions.
struct NDRange : detail::Extent3 {
  using Extent3::Extent3;
};

/// The work-group size, in 1 to 3 dimensions.
struct WorkGroup : detail::Extent3 {
  using Extent3::Extent3;
};

/// A number of work-groups, in 1 to 3 dimensions (KernelAbstractions' `numworkgroups`): a
/// launch by groups covers the ndrange groups x workgroup,
/// `k.launch(Groups{64}, WorkGroup{256}, args...)`. Its constructors are explicit, so a bare
/// number or `{n}` at launch still means an NDRange.
struct Groups : detail::Extent3 {
  Groups() = default;
  explicit Groups(std::size_t x) : Extent3(x) {}
  explicit Groups(std::size_t x, std::size_t y) : Extent3(x, y) {}
  explicit Groups(std::size_t x, std::size_t y, std::size_t z) : Extent3(x, y, z) {}
};

/// A launch argument for a `Local<T>` parameter: the bytes of local memory to reserve.
struct LocalMemory {
  std::size_t bytes = 0;
};

}  // namespace spvjit

SPVJIT_API_END
