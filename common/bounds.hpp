// Bounds checks, as every layer sees them (no LLVM, no OpenCL): where each checked access of a
// kernel sits (its site), where the hidden arguments that feed the checks go, and the record a
// failing access writes for the host to read back.
//
// A checked kernel takes one i64 extent per pointer or local parameter (the elements the launch
// passed), the address of its record, as an i64: one 128-byte slot of the Runtime's
// fine-grained SVM (runtime/bounds_records.hpp), and the fast end: the least of ndrange(0) (of
// the coarsened dimension's ndrange) and every extent, below which a coarsened kernel runs a full
// vector without the checks of get_global_id(0) (of that dimension's id) itself
// (jit/coarsen/coarsen.cpp); HiddenArgs (common/kernel_interface.hpp)
// says where. The record is a number, not a buffer: PoCL handles a buffer or SVM argument on
// every launch (measured: one allocation and ~0.1 us per launch), a scalar not at all.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "spvjit/signature.hpp"

namespace spvjit::detail {

/// What a check guards: a memory access, or a float-to-integer conversion (cast<int8_t>(x) with
/// x outside int8's range or NaN), whose one pair is (the value's bits when out of range, else
/// 0; 1): Julia's InexactError, reported through the same record.
enum class SiteKind : std::uint8_t { Access, Conversion };

/// One access (or conversion) the builder checks, for the message when it fails.
struct BoundsSite {
  std::string array;  ///< "Z", "local array tile", "argument 0 of device function axpy"
  std::string name;   ///< how the index is written: "Z", "tile"
  Scalar element = Scalar::F32;
  /// 0: a linear index (x[i]); 1 to 3: a view's indices A(i, j), each checked against the view's
  /// extent, and then the linear offset against the memory's.
  unsigned rank = 0;
  /// A vector access (vload/vstore) of `lanes` consecutive elements; 1 for a scalar one.
  unsigned lanes = 1;
  /// What an element is when not a scalar: "struct Particle" (empty: `element`'s name).
  std::string element_name;
  SiteKind kind = SiteKind::Access;
  /// A conversion's target type (its source is `element`).
  Scalar target = Scalar::I32;
};

/// The words of a record slot (u64 each). A report finding `flag` 0 writes the other words,
/// then `flag` = bounds_seal(words): plain stores, no atomics (jit/bounds/bounds_lowering.cpp says
/// why), so two work-items failing at once may interleave; the host trusts a record whose seal
/// matches its words and says so when it does not.
namespace record {
inline constexpr unsigned flag = 0;
inline constexpr unsigned site = 1;
inline constexpr unsigned work_item = 2;  ///< 3 words: the global id in dimensions 0 to 2
inline constexpr unsigned pairs = 5;      ///< up to 4 (index, extent) pairs
inline constexpr unsigned pair_count = 13;
inline constexpr unsigned words = 16;
inline constexpr unsigned max_pairs = 4;
}  // namespace record
inline constexpr std::size_t bounds_slot_bytes = record::words * 8;

inline constexpr std::uint64_t bounds_seal_start = 0x9e3779b97f4a7c15ull;
inline constexpr std::uint64_t bounds_seal_multiplier = 0x100000001b3ull;
/// The seal of a record's words 1 .. words-1, as the kernel computes it; never 0.
inline std::uint64_t bounds_seal(const std::uint64_t* slot) {
  std::uint64_t seal = bounds_seal_start;
  for (unsigned w = 1; w < record::words; ++w) seal = (seal ^ slot[w]) * bounds_seal_multiplier;
  return seal | 1;
}

/// Whether a parameter of this kind gets a hidden extent argument.
inline bool has_extent(const Param& p) {
  return p.kind != ParamKind::Scalar && p.kind != ParamKind::Struct;
}

}  // namespace spvjit::detail
