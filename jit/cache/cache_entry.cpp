// Encoding and validating cache entries (format in cache_entry.hpp). Fields are written byte by
// byte, so an entry means the same on any host; the SPIR-V words are stored little-endian.
#include "jit/cache/cache_entry.hpp"

#include <llvm/Support/xxhash.h>

#include <cstring>

namespace spvjit::detail {

namespace {

constexpr char magic[8] = {'S', 'P', 'V', 'J', 'I', 'T', 'K', 'C'};
constexpr std::uint32_t spirv_magic = 0x07230203;
constexpr std::size_t checksum_offset = 40;

void put(std::vector<std::uint8_t>& out, std::size_t at, std::uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) out[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

std::uint64_t get(std::span<const std::uint8_t> in, std::size_t at, unsigned bytes) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= std::uint64_t{in[at + i]} << (8 * i);
  return v;
}

std::uint64_t checksum(std::span<const std::uint8_t> header,
                       std::span<const std::uint8_t> payload) {
  const std::uint64_t h =
      llvm::xxHash64(llvm::ArrayRef<std::uint8_t>(header.data(), header.size()));
  const std::uint64_t p =
      llvm::xxHash64(llvm::ArrayRef<std::uint8_t>(payload.data(), payload.size()));
  return h ^ (p * 0x9E3779B97F4A7C15ull + (h << 31 | h >> 33));
}

}  // namespace

std::vector<std::uint8_t> encode_entry(std::string_view key, std::span<const std::uint32_t> spirv,
                                       std::span<const std::uint8_t> binary, EntryLaunch launch) {
  // Sized once and written at offsets (GCC 12 warns falsely on vector::insert of the magic).
  std::vector<std::uint8_t> out(entry_header_size + key.size() + spirv.size_bytes() +
                                binary.size());
  std::memcpy(out.data(), magic, sizeof(magic));
  put(out, 8, entry_format_version, 4);
  put(out, 12, launch.coarsen, 1);
  put(out, 13,
      (launch.runs_with_offsets ? 1 : 0) | (launch.group_per_item ? 2 : 0) |
          (launch.index_bits == 31 ? 4 : 0) | (launch.index_bits == 32 ? 8 : 0) |
          (launch.free_of_atomics ? 16 : 0) | (launch.coarsen_dimension == 1 ? 32 : 0) |
          (launch.coarsen_groups ? 64 : 0),
      1);
  put(out, 14, launch.stack_bytes_per_item / 16, 2);
  put(out, 16, key.size(), 8);
  put(out, 24, spirv.size_bytes(), 8);
  put(out, 32, binary.size(), 8);
  std::size_t at = entry_header_size;
  if (!key.empty()) std::memcpy(out.data() + at, key.data(), key.size());
  at += key.size();
  for (std::uint32_t w : spirv) put(out, at, w, 4), at += 4;
  if (!binary.empty()) std::memcpy(out.data() + at, binary.data(), binary.size());
  const std::span<const std::uint8_t> all(out);
  put(out, checksum_offset, checksum(all.first(checksum_offset), all.subspan(entry_header_size)),
      8);
  return out;
}

DecodedEntry decode_entry(std::span<const std::uint8_t> bytes) noexcept {
  DecodedEntry d;
  if (bytes.size() < entry_header_size) return d.error = "truncated header", d;
  if (std::memcmp(bytes.data(), magic, sizeof(magic)) != 0) return d.error = "bad magic", d;
  if (get(bytes, 8, 4) != entry_format_version) return d.error = "unsupported format version", d;
  const std::uint64_t coarsen = get(bytes, 12, 1), flags = get(bytes, 13, 1);
  if (coarsen < 1 || coarsen > entry_max_coarsen)
    return d.error = "coarsening width out of range", d;
  // Groups (bit 6) only in dimension 0 (not with bit 5) and only for a coarsened kernel.
  if (flags > 127 || (flags & 12) == 12 || (flags & 96) == 96 || ((flags & 64) && coarsen < 2))
    return d.error = "unknown launch flags", d;
  const std::uint64_t key = get(bytes, 16, 8);
  const std::uint64_t spirv = get(bytes, 24, 8);
  const std::uint64_t binary = get(bytes, 32, 8);
  const std::uint64_t payload = bytes.size() - entry_header_size;
  // Compare one length at a time so a huge value cannot wrap the sum around.
  if (key > payload || spirv > payload - key || binary != payload - key - spirv) {
    return d.error = "lengths do not match the entry's size (truncated?)", d;
  }
  if (get(bytes, checksum_offset, 8) !=
      checksum(bytes.first(checksum_offset), bytes.subspan(entry_header_size))) {
    return d.error = "checksum mismatch", d;
  }
  if (key == 0) return d.error = "empty key", d;
  if (binary == 0) return d.error = "empty device binary", d;
  if (spirv < 20 || spirv % 4 != 0)
    return d.error = "SPIR-V is not a whole module of 32-bit words", d;
  const auto* base = bytes.data() + entry_header_size;
  if (get(bytes, entry_header_size + key, 4) != spirv_magic) return d.error = "bad SPIR-V magic", d;
  d.entry.launch = {static_cast<unsigned>(coarsen),
                    (flags & 1) != 0,
                    (flags & 2) != 0,
                    static_cast<std::uint32_t>(get(bytes, 14, 2) * 16),
                    (flags & 4) != 0   ? 31u
                    : (flags & 8) != 0 ? 32u
                                       : 0u,
                    (flags & 16) != 0,
                    (flags & 32) != 0 ? 1u : 0u,
                    (flags & 64) != 0};
  d.entry.key = std::string_view(reinterpret_cast<const char*>(base), key);
  d.entry.spirv = std::span<const std::uint8_t>(base + key, spirv);
  d.entry.binary = std::span<const std::uint8_t>(base + key + spirv, binary);
  return d;
}

}  // namespace spvjit::detail
