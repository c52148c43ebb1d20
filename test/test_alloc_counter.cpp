#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "test/alloc_counter.hpp"

namespace {
// Escapes a pointer so the compiler cannot elide the allocation behind it.
void* volatile g_sink = nullptr;
}  // namespace

TEST_CASE("the allocation counter sees new, malloc and vectors") {
  auto counts = spvjit::support::count_allocations([] {
    auto p = std::make_unique<int>(3);
    g_sink = p.get();
    std::vector<double> v(100);
    g_sink = v.data();
    void* m = std::malloc(10);
    g_sink = m;
    std::free(m);
  });
  CHECK(counts.allocations == 3);
  CHECK(counts.bytes >= sizeof(int) + 100 * sizeof(double) + 10);
  CHECK(spvjit::support::count_allocations([] {}).allocations == 0);
}
