// Whether a kernel may run as several launches over parts of its work-groups, each with a
// global offset (runtime/inline_pool.hpp): its results must not depend on the offset. Read
// from the SPIR-V, so that a disk-cache hit (which has no LLVM module) answers the same.
#pragma once

#include <cstdint>
#include <span>

namespace spvjit::detail {

/// False when the module reads a work-item value an offset launch changes (the group id, the
/// number of groups, the global size or offset: BuiltIn WorkgroupId, NumWorkgroups,
/// GlobalSize, GlobalOffset), or uses atomics (left on one launch, where PoCL runs them as
/// it always does); global and local ids are fine, since get_global_id includes the offset.
/// `spirv`: little-endian SPIR-V words as bytes.
bool runs_with_offsets(std::span<const std::uint8_t> spirv) noexcept;

/// True when the module has no atomic instruction (false for a malformed one).
bool free_of_atomics(std::span<const std::uint8_t> spirv) noexcept;

}  // namespace spvjit::detail
