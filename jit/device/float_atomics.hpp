// Float atomic add: native where the device has it, a compare-exchange loop where it does not.
#pragma once

#include "ir/kernel_module.hpp"
#include "runtime/float_atomics.hpp"

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Replaces every float atomic add the device cannot run natively by a loop of
/// atomic_cmpxchg on the element's bits.
void lower_float_atomics(llvm::Module& m, const FloatAtomicAdd& native);

}  // namespace spvjit::detail
