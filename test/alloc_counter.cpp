// The interposer behind alloc_counter.hpp. glibc exports its allocator under __libc_* names,
// which lets these definitions forward without dlsym (dlsym itself allocates).
#include "test/alloc_counter.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {
std::atomic<std::uint64_t> g_allocations{0};
std::atomic<std::uint64_t> g_bytes{0};

inline void* counted(void* p, std::size_t bytes) noexcept {
  if (p) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    g_bytes.fetch_add(bytes, std::memory_order_relaxed);
  }
  return p;
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) { return counted(__libc_malloc(n), n); }
void* calloc(std::size_t c, std::size_t n) { return counted(__libc_calloc(c, n), c * n); }
void* realloc(void* p, std::size_t n) { return counted(__libc_realloc(p, n), n); }
void free(void* p) { __libc_free(p); }
void* memalign(std::size_t a, std::size_t n) { return counted(__libc_memalign(a, n), n); }
void* aligned_alloc(std::size_t a, std::size_t n) { return counted(__libc_memalign(a, n), n); }
int posix_memalign(void** out, std::size_t a, std::size_t n) {
  void* p = counted(__libc_memalign(a, n), n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
}

namespace spvjit::support {
AllocCounts alloc_counts() noexcept {
  return {g_allocations.load(std::memory_order_relaxed), g_bytes.load(std::memory_order_relaxed)};
}
}  // namespace spvjit::support
