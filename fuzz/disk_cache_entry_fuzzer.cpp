// libFuzzer target for the disk-cache entry reader: any bytes a file may hold (truncated,
// corrupted, foreign) must decode to an error or to an entry whose views lie inside the bytes
// and that encodes back to exactly those bytes.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "jit/cache/cache_entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace spvjit::detail;
  const std::span<const std::uint8_t> bytes(data, size);
  const DecodedEntry decoded = decode_entry(bytes);
  if (!decoded.ok()) {
    if (decoded.error[0] == '\0') std::abort();  // every rejection must say why
    return 0;
  }
  const auto inside = [&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    return b >= data && b + n <= data + size;
  };
  const CacheEntry& e = decoded.entry;
  if (!inside(e.key.data(), e.key.size()) || !inside(e.spirv.data(), e.spirv.size()) ||
      !inside(e.binary.data(), e.binary.size()) || e.spirv.size() % 4 != 0) {
    std::abort();
  }
  std::vector<std::uint32_t> words(e.spirv.size() / 4);
  std::memcpy(words.data(), e.spirv.data(), e.spirv.size());
  const auto again = encode_entry(e.key, words, e.binary, e.launch);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();
  return 0;
}
