// Kernels a PoCL 6.0 without patch 0004 (third_party/pocl/patches) computes wrong. Its
// BarrierTailReplication gives each barrier a copy of the code after it, one copy per edge from
// the blocks the barrier dominates into a block it does not dominate (where the tail joins a path
// that skipped the barrier, e.g. the zero-trip path of a loop). Two such edges split the tail's
// joins: each side of a work-item dependent branch then reaches its own exit barrier, and the
// work-item loops let work-item 0 take that branch for the whole group (Rodinia's hotspot left
// its output unwritten). The check mirrors that replication on the kernel as spvjit hands it
// over: at each barrier, and where PoCL adds barriers around a loop holding one (preheader,
// header, exiting blocks, latches), it counts those edges. PoCL's own -O2 runs before its
// replication and may still make such edges (jump threading a value the zero-trip path knows):
// a branch on a variable whose value the bypassing path knows counts as the two edges it becomes.
#pragma once

#include <optional>
#include <string>

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Where PoCL without patch 0004 would split a barrier's tail in `kernel` ("the barrier in
/// block 'x' ..."), or nothing when no barrier's tail joins paths that skipped it more than once.
std::optional<std::string> barrier_tail_hazard(const llvm::Function& kernel);

}  // namespace spvjit::detail
