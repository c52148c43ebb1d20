// kernel_from_bitcode: adopt a user-built module, as bitcode, as a KernelDef.
#include "spvjit/raw_module.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <set>
#include <vector>

#include "common/error_report.hpp"
#include "common/full_stack.hpp"
#include "ir/llvm_scalar.hpp"
#include "ir/analysis/group_stack.hpp"
#include "ir/kernel_module.hpp"
#include "ir/state.hpp"
#include "jit/pipeline.hpp"
#include "jit/bounds/raw_bounds.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

namespace {
using detail::scalar_of_type;

// What a pointer parameter's memory holds: a scalar, or an OpenCL C vector of 2, 3, 4, 8 or 16
// of them (`lanes`), which the launch passes as memory of the scalar. The vector's size in the
// module must be what element_scalars() counts, or bounds and sizes would disagree with it.
bool pointee_of_memory(llvm::Type* t, const llvm::DataLayout& dl, Scalar& type, std::uint8_t& lanes,
                       std::string& why) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(t);
  if (!vector) return scalar_of_type(t, type);
  const unsigned n = vector->getNumElements();
  if (!scalar_of_type(vector->getElementType(), type)) return false;
  if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) {
    return why = "vectors of " + std::to_string(n) + " lanes are no OpenCL C type", false;
  }
  lanes = static_cast<std::uint8_t>(n);
  const unsigned scalars = n == 3 ? 4 : n;
  if (dl.getTypeAllocSize(vector) != std::uint64_t{scalars} * size_of(type)) {
    return why = "the module's data layout gives a " + std::to_string(n) + "-lane vector " +
                 std::to_string(dl.getTypeAllocSize(vector).getFixedSize()) + " bytes, not the " +
                 std::to_string(scalars * size_of(type)) + " OpenCL C gives it",
           false;
  }
  return true;
}

// The layout of a struct clang laid out: each member's offset from the DataLayout, nested
// structs and arrays of scalars or structs spelled out (an array of arrays as one flat array:
// the same bytes); null (and `why`) for anything else.
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
    llvm::Type* element = t;
    std::uint64_t count = 1;
    while (auto* array = llvm::dyn_cast<llvm::ArrayType>(element)) {
      // Saturated past UINT32_MAX: refused below either way.
      count = std::min<std::uint64_t>(
          count * std::min<std::uint64_t>(array->getNumElements(), 1ull << 32), 1ull << 32);
      element = array->getElementType();
    }
    const bool array = element != t;
    if (array && (count == 0 || count > UINT32_MAX)) {
      return why = "struct " + name + " has an array member of " +
                   (count ? "over " + std::to_string(UINT32_MAX) : std::string("no")) +
                   " elements (expected 1 to " + std::to_string(UINT32_MAX) + ")",
             nullptr;
    }
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
    } else if (auto* nested_element = array ? llvm::dyn_cast<llvm::StructType>(element) : nullptr) {
      f.nested = layout_of(nested_element, dl, why);
      if (!f.nested) return nullptr;
      f.array = true;
      f.count = static_cast<std::uint32_t>(count);
    } else if (array && scalar_of_type(element, f.type)) {
      f.array = true;
      f.count = static_cast<std::uint32_t>(count);
    } else if (!scalar_of_type(t, f.type)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      t->print(os);
      return why = "struct " + name + " has a member of type " + os.str() +
                   " (expected scalars, structs of them, arrays of either and __global pointers)",
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
// places them in the same local memory as the LocalMemory arguments. Only those `kernel` reaches
// (itself or through the functions it calls) count: a module's other kernels have their own.
std::uint64_t local_global_bytes(const llvm::Module& module, const llvm::Function& kernel) {
  std::set<const llvm::Function*> functions{&kernel};
  std::set<const llvm::GlobalVariable*> locals;
  std::vector<const llvm::Function*> work{&kernel};
  std::vector<const llvm::Value*> operands;
  std::set<const llvm::Value*> seen_constants;
  auto visit = [&](const llvm::Value* v) {
    if (auto* g = llvm::dyn_cast<llvm::GlobalVariable>(v)) {
      if (g->getAddressSpace() == static_cast<unsigned>(AddressSpace::Local) &&
          !g->isDeclaration()) {
        locals.insert(g);
      }
    } else if (auto* f = llvm::dyn_cast<llvm::Function>(v)) {
      if (!f->isDeclaration() && functions.insert(f).second) work.push_back(f);
    } else if (auto* c = llvm::dyn_cast<llvm::ConstantExpr>(v)) {
      // A local array reached through a bitcast or getelementptr constant.
      if (seen_constants.insert(c).second)
        operands.insert(operands.end(), c->op_begin(), c->op_end());
    }
  };
  while (!work.empty()) {
    const llvm::Function* f = work.back();
    work.pop_back();
    for (const auto& block : *f) {
      for (const auto& inst : block) {
        for (const llvm::Use& op : inst.operands()) operands.push_back(op.get());
        while (!operands.empty()) {
          const llvm::Value* v = operands.back();
          operands.pop_back();
          visit(v);
        }
      }
    }
  }
  std::uint64_t bytes = 0;
  for (const auto* g : locals) bytes += module.getDataLayout().getTypeAllocSize(g->getValueType());
  return bytes;
}

llvm::Module& parse(std::unique_ptr<llvm::Module>& owner, llvm::LLVMContext& context,
                    std::string_view bitcode, detail::Where where) {
  context.setOpaquePointers(false);
  // The buffer's name becomes the module's ID, printed in its IR: one name for every caller, so
  // that equal bitcode gives equal IR (the Jit shares programs by it).
  auto parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "raw_module"),
      context);
  if (!parsed) {
    const std::string why = llvm::toString(parsed.takeError());
    // LLVM 15's reader says "Opaque pointers are only supported in -opaque-pointers mode".
    user_assert(why.find("paque pointers") == std::string::npos, (where))
        << "the bitcode uses opaque pointers, which SPIRV-LLVM-Translator 15 cannot translate; "
           "compile with typed ones (clang-15 ... -Xclang -no-opaque-pointers; "
           "docs/porting-opencl.md)";
    user_error((where)) << "the bytes are not LLVM 15 bitcode spvjit can read: " << why;
  }
  owner = std::move(*parsed);
  // Before the module is kept and read for signatures and facts: what spvjit will translate.
  detail::legalize_raw_module(*owner, where);
  return *owner;
}

// The module's kernels: its spir_kernel definitions, in module order.
std::vector<std::string> kernel_functions(const llvm::Module& module) {
  std::vector<std::string> names;
  for (const auto& f : module) {
    if (!f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL) {
      names.push_back(f.getName().str());
    }
  }
  return names;
}

std::shared_ptr<const detail::RawModuleSource> source_of(const llvm::Module& module,
                                                         std::vector<std::string> kernels) {
  auto source = std::make_shared<detail::RawModuleSource>();
  {
    llvm::raw_string_ostream os(source->ir_text);
    module.print(os, nullptr);
  }
  {
    llvm::raw_string_ostream os(source->bitcode);
    llvm::WriteBitcodeToFile(module, os);
  }
  source->hash = llvm::xxHash64(source->ir_text);
  source->kernels = std::move(kernels);
  return source;
}

// The kernel `name` of `module` (whose whole is `source`): its signature and facts.
KernelDef kernel_of(llvm::Module& module, const std::string& name,
                    std::shared_ptr<const detail::RawModuleSource> source,
                    const RawKernelOptions& options, const char* operation) {
  llvm::Function* fn = module.getFunction(name);
  user_assert(fn && !fn->isDeclaration(), {operation})
      << "the module defines no function '" << name << "'";
  detail::check_kernel_name({operation}, name, "kernel name");
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
      return ptr && !ptr->isOpaque()
                 ? llvm::dyn_cast<llvm::StructType>(ptr->getNonOpaquePointerElementType())
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
      llvm::Type* pointee = ptr->isOpaque() ? nullptr : ptr->getNonOpaquePointerElementType();
      if (pointee && pointee_of_memory(pointee, module.getDataLayout(), p.type, p.lanes, why) &&
          space >= 1 && space <= 3) {
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
      user_error({operation, name})
          << "parameter " << arg.getArgNo() << " '"
          << p.name + "' has type " + os.str() + (why.empty() ? "" : ": " + why) +
                 "; expected a scalar (i8..i64, half, float, double), a typed pointer to "
                 "one or to a vector of 2, 3, 4, 8 or 16 of them in address space 1, 2 or 3, "
                 "a struct by value (byval) or a pointer to structs in address space 1 or 2";
    }
    km->params.push_back(p);
  }
  km->static_local_bytes = local_global_bytes(module, *fn);
  km->extent_covers_ndrange = detail::params_indexed_by_every_work_item(*fn);
  km->stack_bytes_per_item = detail::stack_bytes_per_work_item(module, name);
  km->prints = module.getFunction("printf") != nullptr;
  km->pads_safely = options.guards_own_bounds;
  km->hidden = detail::HiddenArgs::layout(km->params, false, false, 0);  // none
  km->hash = source->hash;
  km->raw = std::move(source);
  return detail::make_kernel_def(std::move(km));
}
}  // namespace

KernelDef kernel_from_bitcode(std::string_view bitcode, std::string_view kernel_name,
                              const RawKernelOptions& options) {
  return detail::with_full_stack([&]() -> KernelDef {
    const std::string name(kernel_name);
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> owner;
    llvm::Module& module = parse(owner, context, bitcode, {"kernel_from_bitcode", name});
    std::vector<std::string> kernels = kernel_functions(module);
    // A function that is no kernel is still built, so that the translation refuses it by name.
    if (std::find(kernels.begin(), kernels.end(), name) == kernels.end()) kernels.push_back(name);
    llvm::Function* fn = module.getFunction(name);
    if (!fn || fn->isDeclaration()) {
      user_error({"kernel_from_bitcode"}) << "the module defines no function '" << name << "'";
    }
    return kernel_of(module, name, source_of(module, std::move(kernels)), options,
                     "kernel_from_bitcode");
  });
}

ModuleDef module_from_bitcode(std::string_view bitcode, const RawKernelOptions& options) {
  return detail::with_full_stack([&]() -> ModuleDef {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> owner;
    llvm::Module& module = parse(owner, context, bitcode, {"module_from_bitcode"});
    std::vector<std::string> kernels = kernel_functions(module);
    user_assert(!kernels.empty(), {"module_from_bitcode"})
        << "the module defines no kernel (no function with calling convention spir_kernel; "
           "OpenCL C: a __kernel function)";
    const auto source = source_of(module, kernels);
    std::vector<KernelDef> defs;
    for (const auto& name : kernels)
      defs.push_back(kernel_of(module, name, source, options, "module_from_bitcode"));
    return ModuleDef(std::move(defs));
  });
}

}  // namespace spvjit
