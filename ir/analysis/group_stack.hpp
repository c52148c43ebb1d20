// What one work-item of a kernel costs on the stack of the CPU thread that runs its work-group.
// PoCL's CPU devices turn a kernel into a work-group function (lib/llvmopencl/WorkitemLoops.cc)
// that loops over the work-items between barriers; every value one loop leaves for the next,
// and every private array, gets a "context array" with one element per work-item, allocated
// on that thread's stack (WorkitemLoopsImpl::getContextArray). Knows LLVM, not OpenCL: the
// stack a thread has and the workgroup are the JIT's business (jit/compiler.cpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace spvjit::detail {

/// An upper bound on the bytes per work-item that PoCL keeps in context arrays for kernel
/// `kernel` of `module` (unchanged): each alloca that mem2reg cannot promote (private arrays),
/// padded to its alignment as PoCL pads it, plus each SSA value live across a barrier, after
/// promoting variables as PoCL's mem2reg does. Device functions count their arrays once per
/// call. Values PoCL proves uniform are counted too: an over-estimate, never an under-one
/// for the IR given (PoCL's own -O3 may still reshape it).
std::uint64_t stack_bytes_per_work_item(const llvm::Module& module, std::string_view kernel);

}  // namespace spvjit::detail
