// The on-disk cache entry format, in one place. An entry is one file:
//
//   offset  size  field
//        0     8  magic "SPVJITKC"
//        8     4  format version (entry_format_version), little-endian like every field
//       12     1  launch: indices per work-item in the coarsened dimension (U vectors of W lanes,
//                 1 to 128)
//       13     1  launch: flags, bit 0 = the kernel runs with a global offset (offset_safety.hpp),
//                 bit 1 = one work-item runs a whole work-group (group_loops.hpp), bit 2 or 3 =
//                 the coarsened kernel's index is 31 or 32 bits wide (EntryLaunch::index_bits),
//                 bit 4 = the kernel uses no atomics (EntryLaunch::free_of_atomics; an entry
//                 written before the bit existed reads as using them, the safe answer), bit 5 =
//                 the coarsened dimension is 1, not 0 (EntryLaunch::coarsen_dimension), bit 6 =
//                 coarsened in groups (EntryLaunch::coarsen_groups)
//       14     2  launch: the lowered kernel's stack per work-item, in 16-byte units
//                 (EntryLaunch::stack_bytes_per_item)
//       16     8  key length K      (the full cache key text, cache_key.hpp)
//       24     8  SPIR-V length S   (bytes; a whole number of 32-bit words)
//       32     8  binary length B   (CL_PROGRAM_BINARIES of the built program)
//       40     8  checksum: xxHash64 of bytes 0..39 mixed with xxHash64 of everything after 48
//       48     K  key, then S bytes of SPIR-V, then B bytes of device binary
//
// The checksum covers the lengths too, so a shifted boundary is caught, not only flipped bits.
// The launch bytes hold what a hit needs besides the binary, learned when the kernel was
// compiled, so loading an entry reads neither LLVM IR nor the SPIR-V.
// decode_entry is a pure function over a byte span (the fuzz target): it validates every field
// and never reads outside the span.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/entry_launch.hpp"

namespace spvjit::detail {

inline constexpr std::uint32_t entry_format_version = 3;
inline constexpr std::size_t entry_header_size = 48;

inline constexpr unsigned entry_max_coarsen = 128;
inline constexpr std::uint32_t entry_max_stack_bytes = 0xffff * 16;

/// A decoded entry: views into the bytes it was decoded from.
struct CacheEntry {
  EntryLaunch launch;
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

/// `launch.coarsen` must be 1 to entry_max_coarsen; `launch.stack_bytes_per_item` a multiple of
/// 16 up to entry_max_stack_bytes.
std::vector<std::uint8_t> encode_entry(std::string_view key, std::span<const std::uint32_t> spirv,
                                       std::span<const std::uint8_t> binary,
                                       EntryLaunch launch = {});

/// Validates magic, version, launch bytes, lengths against the span's size
/// (overflow-safe), checksum, a non-empty key and binary, and a SPIR-V magic number in the first
/// word.
DecodedEntry decode_entry(std::span<const std::uint8_t> bytes) noexcept;

}  // namespace spvjit::detail
