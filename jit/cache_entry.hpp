// The on-disk cache entry format, in one place. An entry is one file:
//
//   offset  size  field
//        0     8  magic "SPVJITKC"
//        8     4  format version (entry_format_version), little-endian like every field
//       12     4  reserved, 0
//       16     8  key length K      (the full cache key text, cache_key.hpp)
//       24     8  SPIR-V length S   (bytes; a whole number of 32-bit words)
//       32     8  binary length B   (CL_PROGRAM_BINARIES of the built program)
//       40     8  checksum: xxHash64 of bytes 0..39 mixed with xxHash64 of everything after 48
//       48     K  key, then S bytes of SPIR-V, then B bytes of device binary
//
// The checksum covers the lengths too, so a shifted boundary is caught, not only flipped bits.
// decode_entry is a pure function over a byte span (the fuzz target): it validates every field
// and never reads outside the span.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace spvjit::detail {

inline constexpr std::uint32_t entry_format_version = 1;
inline constexpr std::size_t entry_header_size = 48;

/// A decoded entry: views into the bytes it was decoded from.
struct CacheEntry {
  std::string_view key;
  std::span<const std::uint8_t> spirv;  ///< SPIR-V words as little-endian bytes
  std::span<const std::uint8_t> binary;
};

/// decode_entry's answer: `error` is null when `entry` is valid, else says what was wrong.
struct DecodedEntry {
  CacheEntry entry;
  const char* error = nullptr;
  bool ok() const { return error == nullptr; }
};

std::vector<std::uint8_t> encode_entry(std::string_view key, std::span<const std::uint32_t> spirv,
                                       std::span<const std::uint8_t> binary);

/// Validates magic, version, reserved field, lengths against the span's size (overflow-safe),
/// checksum, a non-empty key and binary, and a SPIR-V magic number in the first word.
DecodedEntry decode_entry(std::span<const std::uint8_t> bytes) noexcept;

}  // namespace spvjit::detail
