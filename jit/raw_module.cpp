// kernel_from_bitcode: adopt a user-built module, as bitcode, as a KernelDef.
#include "spvjit/raw_module.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include "ir/group_stack.hpp"
#include "ir/kernel_module.hpp"
#include "jit/raw_bounds.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

namespace {
bool scalar_of_type(llvm::Type* t, Scalar& out) {
  if (t->isHalfTy()) return out = Scalar::F16, true;
  if (t->isFloatTy()) return out = Scalar::F32, true;
  if (t->isDoubleTy()) return out = Scalar::F64, true;
  if (!t->isIntegerTy()) return false;
  switch (t->getIntegerBitWidth()) {
    case 8: return out = Scalar::I8, true;
    case 16: return out = Scalar::I16, true;
    case 32: return out = Scalar::I32, true;
    case 64: return out = Scalar::I64, true;
    default: return false;
  }
}

// Kernel-scope __local arrays are addrspace(3) globals, as clang emits them; PoCL's CPU device
// places them in the same local memory as the LocalMemory arguments.
std::uint64_t local_global_bytes(const llvm::Module& module) {
  std::uint64_t bytes = 0;
  for (const auto& g : module.globals()) {
    if (g.getAddressSpace() == static_cast<unsigned>(AddressSpace::Local) && !g.isDeclaration()) {
      bytes += module.getDataLayout().getTypeAllocSize(g.getValueType());
    }
  }
  return bytes;
}
}  // namespace

KernelDef kernel_from_bitcode(std::string_view bitcode, std::string_view kernel_name) {
  const std::string name(kernel_name);
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  auto parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), name), context);
  if (!parsed) {
    throw UserError("kernel_from_bitcode: kernel '" + name + "': the bytes are not LLVM 15 "
                    "bitcode spvjit can read: " + llvm::toString(parsed.takeError()));
  }
  llvm::Module& module = **parsed;
  llvm::Function* fn = module.getFunction(name);
  if (!fn || fn->isDeclaration()) {
    throw UserError("kernel_from_module: the module defines no function '" + name + "'");
  }
  auto km = std::make_shared<detail::KernelModule>();
  km->name = name;
  for (const auto& arg : fn->args()) {
    Param p;
    p.name = arg.hasName() ? arg.getName().str() : "arg" + std::to_string(arg.getArgNo());
    llvm::Type* t = arg.getType();
    bool ok = false;
    if (auto* ptr = llvm::dyn_cast<llvm::PointerType>(t)) {
      const unsigned space = ptr->getAddressSpace();
      if (!ptr->isOpaque() && space >= 1 && space <= 3 &&
          scalar_of_type(ptr->getNonOpaquePointerElementType(), p.type)) {
        p.space = static_cast<AddressSpace>(space);
        p.kind = space == 3 ? ParamKind::LocalArray : ParamKind::Pointer;
        p.read_only = space == 2 || arg.onlyReadsMemory();
        ok = true;
      }
    } else {
      ok = scalar_of_type(t, p.type);
      p.kind = ParamKind::Scalar;
    }
    if (!ok) {
      std::string type;
      llvm::raw_string_ostream os(type);
      t->print(os);
      throw UserError("kernel_from_module: parameter " + std::to_string(arg.getArgNo()) + " '" +
                      p.name + "' of kernel '" + name + "' has type " + os.str() +
                      "; expected a scalar (i8..i64, half, float, double) or a typed pointer to "
                      "one in address space 1, 2 or 3");
    }
    km->params.push_back(p);
  }
  km->static_local_bytes = local_global_bytes(module);
  km->extent_covers_ndrange = detail::params_indexed_by_every_work_item(*fn);
  km->stack_bytes_per_item = detail::stack_bytes_per_work_item(module, name);
  km->prints = module.getFunction("printf") != nullptr;
  {
    llvm::raw_string_ostream os(km->ir_text);
    module.print(os, nullptr);
  }
  {
    llvm::raw_string_ostream os(km->bitcode);
    llvm::WriteBitcodeToFile(module, os);
  }
  km->hash = llvm::xxHash64(km->ir_text);
  return KernelDef(std::move(km));
}

}  // namespace spvjit
