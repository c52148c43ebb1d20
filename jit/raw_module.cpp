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
#include "jit/legalize.hpp"
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

// The layout of a struct clang laid out: each member's offset from the DataLayout, nested
// structs and arrays of scalars spelled out; null (and `why`) for anything else.
std::shared_ptr<const StructLayout> layout_of(llvm::StructType* type, const llvm::DataLayout& dl,
                                              std::string& why) {
  std::string name = type->hasName() ? type->getName().str() : "anonymous";
  if (name.rfind("struct.", 0) == 0) name = name.substr(7);
  if (type->isOpaque()) return why = "struct " + name + " is opaque", nullptr;
  const llvm::StructLayout* sl = dl.getStructLayout(type);
  std::vector<StructField> fields;
  for (unsigned i = 0; i < type->getNumElements(); ++i) {
    llvm::Type* t = type->getElementType(i);
    StructField f;
    f.name = "member" + std::to_string(i);
    f.offset = static_cast<std::uint32_t>(sl->getElementOffset(i));
    auto* array = llvm::dyn_cast<llvm::ArrayType>(t);
    auto* pointer = llvm::dyn_cast<llvm::PointerType>(t);
    if (pointer && !pointer->isOpaque() &&
        pointer->getAddressSpace() == static_cast<unsigned>(AddressSpace::Global)) {
      // `__global float* data` (OpenCL C 2.0): the kernel dereferences it itself.
      llvm::Type* pointee = pointer->getNonOpaquePointerElementType();
      f.pointer = true;
      if (auto* s = llvm::dyn_cast<llvm::StructType>(pointee)) {
        std::string pointee_name = s->hasName() ? s->getName().str() : "anonymous";
        if (pointee_name.rfind("struct.", 0) == 0) pointee_name = pointee_name.substr(7);
        f.pointee_name = pointee_name;
      } else if (!scalar_of_type(pointee, f.type)) {
        f.type = Scalar::U8;  // char*, void* as i8*: any bytes
      }
    } else if (auto* nested = llvm::dyn_cast<llvm::StructType>(t)) {
      f.nested = layout_of(nested, dl, why);
      if (!f.nested) return nullptr;
    } else if (array && scalar_of_type(array->getElementType(), f.type)) {
      f.array = true;
      f.count = static_cast<std::uint32_t>(array->getNumElements());
    } else if (!scalar_of_type(t, f.type)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      t->print(os);
      return why = "struct " + name + " has a member of type " + os.str() +
                   " (expected scalars, arrays of scalars, structs of them and __global pointers)",
             nullptr;
    }
    fields.push_back(std::move(f));
  }
  try {
    return std::make_shared<const StructLayout>(
        name, static_cast<std::uint32_t>(dl.getTypeAllocSize(type)),
        static_cast<std::uint32_t>(dl.getABITypeAlign(type).value()), std::move(fields), true);
  } catch (const UserError& e) {
    return why = e.what(), nullptr;
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
  // Before the signature and the analyses below: they read the module spvjit will translate.
  detail::legalize_raw_module(module, "kernel_from_module: kernel '" + name + "'");
  auto km = std::make_shared<detail::KernelModule>();
  km->name = name;
  for (const auto& arg : fn->args()) {
    Param p;
    p.name = arg.hasName() ? arg.getName().str() : "arg" + std::to_string(arg.getArgNo());
    llvm::Type* t = arg.getType();
    bool ok = false;
    std::string why;
    auto* pointee_struct = [&]() -> llvm::StructType* {
      auto* ptr = llvm::dyn_cast<llvm::PointerType>(t);
      return ptr && !ptr->isOpaque() ? llvm::dyn_cast<llvm::StructType>(ptr->getNonOpaquePointerElementType())
                                     : nullptr;
    }();
    const unsigned space = t->isPointerTy() ? t->getPointerAddressSpace() : 0;
    if (pointee_struct && (arg.hasByValAttr() ? space == 0 : space == 1 || space == 2)) {
      // A struct by value (clang: a byval pointer to a private copy) or an array of structs.
      p.struct_layout = layout_of(pointee_struct, module.getDataLayout(), why);
      p.type = Scalar::U8;
      p.kind = arg.hasByValAttr() ? ParamKind::Struct : ParamKind::Pointer;
      if (p.kind == ParamKind::Pointer) {
        p.space = static_cast<AddressSpace>(space);
        p.read_only = space == 2 || arg.onlyReadsMemory();
      }
      ok = p.struct_layout != nullptr;
    } else if (auto* ptr = llvm::dyn_cast<llvm::PointerType>(t)) {
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
                      (why.empty() ? "" : ": " + why) +
                      "; expected a scalar (i8..i64, half, float, double), a typed pointer to "
                      "one in address space 1, 2 or 3, a struct by value (byval) or a pointer to "
                      "structs in address space 1 or 2");
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
