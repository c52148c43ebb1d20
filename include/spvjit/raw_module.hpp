// The raw-module entry point: a KernelDef from an llvm::Module the user built without our
// builder. This header includes LLVM; the rest of the public API does not.
#pragma once

#include <llvm/IR/Module.h>

#include <string_view>

#include "spvjit/kernel_def.hpp"

namespace spvjit {

/// Snapshots `module` (copied as bitcode; the module stays the caller's) with `kernel_name` as
/// the entry point. The signature is read from the function's parameters: typed pointers in
/// address space 1/2/3 become buffers / constant / local memory, i8..i64 become signed
/// integers, half/float/double floats. Throws UserError for a missing kernel or a parameter
/// type spvjit cannot pass. Translation problems (triple, intrinsics) surface at compile time
/// as TranslationError.
KernelDef kernel_from_module(const llvm::Module& module, std::string_view kernel_name);

}  // namespace spvjit
