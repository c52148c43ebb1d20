// The raw-module entry point: a KernelDef from an llvm::Module the user built without our
// builder. This header includes LLVM; the rest of the public API does not.
//
// libspvjit.so carries its own, private LLVM, so a module crosses into it as bitcode: written
// here, by the caller's LLVM (link LLVMBitWriter), read inside by spvjit's.
#pragma once

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <string_view>

#include "spvjit/error.hpp"
#include "spvjit/kernel_def.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// A KernelDef from LLVM 15 bitcode holding a kernel named `kernel_name`. The signature is read
/// from the function's parameters: typed pointers in address space 1/2/3 become buffers /
/// constant / local memory, i8..i64 become signed integers, half/float/double floats. What
/// clang -O2 emits but SPIR-V cannot hold (freeze, odd integer widths, odd vector lengths,
/// some intrinsics) is rewritten first (docs/language.md). Throws UserError for unreadable
/// bitcode, a missing kernel, a parameter type spvjit cannot pass or IR it cannot rewrite.
/// Translation problems (triple, intrinsics) surface at compile time as TranslationError.
KernelDef kernel_from_bitcode(std::string_view bitcode, std::string_view kernel_name);

/// Snapshots `module` (copied as bitcode; the module stays the caller's) with `kernel_name` as
/// the entry point; see kernel_from_bitcode.
inline KernelDef kernel_from_module(const llvm::Module& module, std::string_view kernel_name) {
  const llvm::Function* fn = module.getFunction(llvm::StringRef(kernel_name.data(), kernel_name.size()));
  if (!fn || fn->isDeclaration()) {
    throw UserError("kernel_from_module: the module defines no function '" +
                    std::string(kernel_name) + "'");
  }
  if (!module.getContext().supportsTypedPointers()) {
    throw UserError("kernel_from_module: the module's LLVMContext uses opaque pointers; "
                    "SPIRV-LLVM-Translator 15 needs typed ones (call setOpaquePointers(false) "
                    "before building the module)");
  }
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(module, os);
  os.flush();
  return kernel_from_bitcode(bitcode, kernel_name);
}

}  // namespace spvjit

SPVJIT_API_END
