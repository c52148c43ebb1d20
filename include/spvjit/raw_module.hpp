// The raw-module entry points: KernelDefs from an llvm::Module the user built without our
// builder (OpenCL C through clang, another front end's IR). This header includes LLVM; the rest
// of the public API does not. docs/porting-opencl.md is the guide.
//
// libspvjit.so carries its own, private LLVM, so a module crosses into it as bitcode: written
// here, by the caller's LLVM (link LLVMCore, LLVMBitWriter and LLVMSupport: with CMake,
// find_package(spvjit COMPONENTS raw_module) and spvjit::raw_module), read inside by spvjit's.
#pragma once

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <string>
#include <string_view>

#include "spvjit/error.hpp"
#include "spvjit/kernel_def.hpp"
#include "spvjit/module_def.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// What the caller declares about raw kernels, which spvjit cannot read from their IR.
/// Designated initializers may name any subset: `{.guards_own_bounds = true}`.
struct RawKernelOptions {
  /// The kernel compares get_global_id with its own size argument (`if (i < n) ...`), so a
  /// launch may round the ndrange up to whole work-groups, as a builder kernel's
  /// allow_padding() declares: 1000 items in groups of 64 run 1024 work-items. Without it every
  /// workgroup must divide the ndrange (UserError otherwise), and chosen ones are made to. The
  /// padding work-items see the rounded-up get_global_size. Applies to every kernel of a module.
  bool guards_own_bounds = false;
};

/// A KernelDef from LLVM 15 bitcode holding a kernel named `kernel_name`. The signature is read
/// from the function's parameters: typed pointers in address space 1/2/3 become buffers /
/// constant / local memory, i8..i64 become signed integers, half/float/double floats. What
/// clang -O2 emits but SPIR-V cannot hold (freeze, odd integer widths, odd vector lengths,
/// some intrinsics) is rewritten first (docs/language.md). Throws UserError for unreadable
/// bitcode, a missing kernel, a parameter type spvjit cannot pass or IR it cannot rewrite.
/// Translation problems (triple, intrinsics) surface at compile time as TranslationError.
/// The Jit builds the whole module into one program, shared with every other kernel taken from
/// equal bitcode (module_from_bitcode, or kernel_from_bitcode again): a module is translated
/// once per Jit and specialization, however many of its kernels are compiled.
KernelDef kernel_from_bitcode(std::string_view bitcode, std::string_view kernel_name,
                              const RawKernelOptions& options = {});

/// Every kernel (spir_kernel function) of LLVM 15 bitcode, for Jit::compile(ModuleDef): one
/// translation, one program build and one disk-cache entry for all of them. Throws UserError as
/// kernel_from_bitcode does, for any kernel, and for a module with no kernel.
ModuleDef module_from_bitcode(std::string_view bitcode, const RawKernelOptions& options = {});

namespace detail {
/// `module` as bitcode, after the checks spvjit's reader cannot make (`what`: the caller).
inline std::string bitcode_of(const llvm::Module& module, const char* what) {
  if (!module.getContext().supportsTypedPointers()) {
    detail::throw_user_error(
        what,
        "the module's LLVMContext uses opaque pointers; "
        "SPIRV-LLVM-Translator 15 needs typed ones (call setOpaquePointers(false) "
        "before building the module)");
  }
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(module, os);
  os.flush();
  return bitcode;
}
}  // namespace detail

/// Snapshots `module` (copied as bitcode; the module stays the caller's) with `kernel_name` as
/// the entry point; see kernel_from_bitcode.
inline KernelDef kernel_from_module(const llvm::Module& module, std::string_view kernel_name,
                                    const RawKernelOptions& options = {}) {
  const llvm::Function* fn =
      module.getFunction(llvm::StringRef(kernel_name.data(), kernel_name.size()));
  if (!fn || fn->isDeclaration()) {
    detail::throw_user_error("kernel_from_module",
                             "the module defines no function '" + std::string(kernel_name) + "'");
  }
  return kernel_from_bitcode(detail::bitcode_of(module, "kernel_from_module"), kernel_name,
                             options);
}

/// Snapshots `module` (copied as bitcode) with all its kernels; see module_from_bitcode.
inline ModuleDef module_from_llvm(const llvm::Module& module,
                                  const RawKernelOptions& options = {}) {
  return module_from_bitcode(detail::bitcode_of(module, "module_from_llvm"), options);
}

}  // namespace spvjit

SPVJIT_API_END
