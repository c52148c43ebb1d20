#include "jit/spirv/validate.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <set>

#include "spvjit/error.hpp"

namespace spvjit::detail {

std::string module_text(const llvm::Module& m) {
  std::string out;
  llvm::raw_string_ostream os(out);
  m.print(os, nullptr);
  return out;
}

namespace {

// Intrinsics that SPIRV-LLVM-Translator 15 maps to SPIR-V or OpenCL.std instructions.
const std::set<std::string>& supported_intrinsics() {
  static const std::set<std::string> names = {
      "llvm.abs",
      "llvm.assume",
      "llvm.bitreverse",
      "llvm.bswap",
      "llvm.ceil",
      "llvm.copysign",
      "llvm.cos",
      "llvm.ctlz",
      "llvm.ctpop",
      "llvm.cttz",
      "llvm.exp",
      "llvm.exp2",
      "llvm.expect",
      "llvm.fabs",
      "llvm.floor",
      "llvm.fma",
      "llvm.fmuladd",
      "llvm.fshl",
      "llvm.fshr",
      "llvm.lifetime.end",
      "llvm.lifetime.start",
      "llvm.log",
      "llvm.log10",
      "llvm.log2",
      "llvm.maxnum",
      "llvm.memcpy",
      "llvm.memmove",
      "llvm.memset",
      "llvm.minnum",
      "llvm.nearbyint",
      "llvm.pow",
      "llvm.rint",
      "llvm.round",
      "llvm.sin",
      "llvm.smax",
      "llvm.smin",
      "llvm.sqrt",
      "llvm.trunc",
      "llvm.umax",
      "llvm.umin",
      "llvm.dbg.declare",
      "llvm.dbg.value",
      "llvm.dbg.label",
      "llvm.invariant.start",
      "llvm.invariant.end",
      "llvm.var.annotation",
      "llvm.ptr.annotation",
  };
  return names;
}

// The intrinsic's base name: "llvm.fabs.f32" -> "llvm.fabs", "llvm.memcpy.p0i8.p0i8.i64" ->
// "llvm.memcpy".
std::string intrinsic_base(const llvm::Function& f) {
  const std::string full = f.getName().str();
  const auto& names = supported_intrinsics();
  for (std::string base = full;;) {
    if (names.count(base)) return base;
    const auto dot = base.rfind('.');
    if (dot == std::string::npos || dot <= 5) return full;
    base.resize(dot);
  }
}

bool legal_scalar(llvm::Type* t) {
  if (t->isIntegerTy()) {
    const unsigned w = t->getIntegerBitWidth();
    return w == 1 || w == 8 || w == 16 || w == 32 || w == 64;
  }
  return t->isHalfTy() || t->isFloatTy() || t->isDoubleTy();
}

bool legal_type(llvm::Type* t) {
  if (t->isVoidTy() || t->isLabelTy() || t->isMetadataTy()) return true;
  if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
    const unsigned n = v->getNumElements();
    return (n == 2 || n == 3 || n == 4 || n == 8 || n == 16) && legal_scalar(v->getElementType());
  }
  if (auto* p = llvm::dyn_cast<llvm::PointerType>(t)) {
    // Typed pointers (validated above): what they point at must be legal too, e.g. no i128*.
    if (p->isOpaque()) return true;
    auto* pointee = p->getNonOpaquePointerElementType();
    return pointee->isFunctionTy() || pointee->isStructTy() || legal_type(pointee);
  }
  if (auto* a = llvm::dyn_cast<llvm::ArrayType>(t)) return legal_type(a->getElementType());
  if (auto* s = llvm::dyn_cast<llvm::StructType>(t)) {
    for (auto* e : s->elements()) {
      if (!legal_type(e)) return false;
    }
    return true;
  }
  return legal_scalar(t);
}

// Instructions SPIRV-LLVM-Translator 15 translates. Anything else (freeze, invoke, landingpad,
// callbr, indirectbr, va_arg, ...) makes it call std::exit ("InvalidInstruction: Can't
// translate llvm instruction"), which in-process would end the host.
bool translatable(const llvm::Instruction& inst, std::string& why) {
  switch (inst.getOpcode()) {
    case llvm::Instruction::Ret:
    case llvm::Instruction::Br:
    case llvm::Instruction::Switch:
    case llvm::Instruction::Unreachable:
    case llvm::Instruction::FNeg:
    case llvm::Instruction::Add:
    case llvm::Instruction::FAdd:
    case llvm::Instruction::Sub:
    case llvm::Instruction::FSub:
    case llvm::Instruction::Mul:
    case llvm::Instruction::FMul:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SDiv:
    case llvm::Instruction::FDiv:
    case llvm::Instruction::URem:
    case llvm::Instruction::SRem:
    case llvm::Instruction::FRem:
    case llvm::Instruction::Shl:
    case llvm::Instruction::LShr:
    case llvm::Instruction::AShr:
    case llvm::Instruction::And:
    case llvm::Instruction::Or:
    case llvm::Instruction::Xor:
    case llvm::Instruction::Alloca:
    case llvm::Instruction::Load:
    case llvm::Instruction::Store:
    case llvm::Instruction::GetElementPtr:
    case llvm::Instruction::Fence:
    case llvm::Instruction::AtomicCmpXchg:
    case llvm::Instruction::Trunc:
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt:
    case llvm::Instruction::FPToUI:
    case llvm::Instruction::FPToSI:
    case llvm::Instruction::UIToFP:
    case llvm::Instruction::SIToFP:
    case llvm::Instruction::FPTrunc:
    case llvm::Instruction::FPExt:
    case llvm::Instruction::PtrToInt:
    case llvm::Instruction::IntToPtr:
    case llvm::Instruction::BitCast:
    case llvm::Instruction::AddrSpaceCast:
    case llvm::Instruction::ICmp:
    case llvm::Instruction::FCmp:
    case llvm::Instruction::PHI:
    case llvm::Instruction::Select:
    case llvm::Instruction::Call:
    case llvm::Instruction::ExtractElement:
    case llvm::Instruction::InsertElement:
    case llvm::Instruction::ShuffleVector:
    case llvm::Instruction::ExtractValue:
    case llvm::Instruction::InsertValue:
      return true;
    case llvm::Instruction::AtomicRMW: {
      const auto op = llvm::cast<llvm::AtomicRMWInst>(inst).getOperation();
      switch (op) {
        case llvm::AtomicRMWInst::Xchg:
        case llvm::AtomicRMWInst::Add:
        case llvm::AtomicRMWInst::Sub:
        case llvm::AtomicRMWInst::And:
        case llvm::AtomicRMWInst::Or:
        case llvm::AtomicRMWInst::Xor:
        case llvm::AtomicRMWInst::Max:
        case llvm::AtomicRMWInst::Min:
        case llvm::AtomicRMWInst::UMax:
        case llvm::AtomicRMWInst::UMin:
          if (inst.getType()->isIntegerTy()) return true;
          break;
        default:
          break;
      }
      why = "atomicrmw " + llvm::AtomicRMWInst::getOperationName(op).str() + " on " +
            (inst.getType()->isIntegerTy() ? "integers" : "floating point") +
            ", which SPIR-V has no instruction for (use a cmpxchg loop)";
      return false;
    }
    default:
      why = std::string("the instruction '") + inst.getOpcodeName() +
            "', which SPIRV-LLVM-Translator 15 cannot translate";
      return false;
  }
}

std::string type_name(llvm::Type* t) {
  std::string out;
  llvm::raw_string_ostream os(out);
  t->print(os);
  return out;
}

}  // namespace

void validate_for_spirv(llvm::Module& m, const std::string& kernel_name,
                        std::span<const std::string> other_kernels) {
  auto fail = [&](const std::string& reason) {
    throw TranslationError(kernel_name, reason, module_text(m));
  };
  const std::string triple = m.getTargetTriple();
  if (triple.rfind("spir64", 0) != 0) {
    fail("module triple is '" + triple + "'; expected spir64-unknown-unknown (64-bit SPIR)");
  }
  if (m.getContext().supportsTypedPointers() == false) {
    fail(
        "module uses opaque pointers, which SPIRV-LLVM-Translator 15 cannot translate; create "
        "its LLVMContext with setOpaquePointers(false)");
  }
  std::string verify_errors;
  llvm::raw_string_ostream verify_os(verify_errors);
  if (llvm::verifyModule(m, &verify_os)) fail("module fails the LLVM verifier: " + verify_os.str());

  auto check_entry = [&](const std::string& name) {
    llvm::Function* kernel = m.getFunction(name);
    if (!kernel || kernel->isDeclaration()) fail("module defines no function '" + name + "'");
    if (kernel->getCallingConv() != llvm::CallingConv::SPIR_KERNEL) {
      fail("function '" + name + "' is not a kernel: expected calling convention spir_kernel");
    }
    if (!kernel->getReturnType()->isVoidTy()) fail("kernel '" + name + "' must return void");
  };
  check_entry(kernel_name);
  for (const auto& name : other_kernels) check_entry(name);

  for (auto& g : m.globals()) {
    if (!legal_type(g.getValueType())) {
      fail("global '" + g.getName().str() + "' has type " + type_name(g.getValueType()) +
           ", which SPIR-V kernels cannot hold");
    }
  }
  for (auto& f : m) {
    if (f.isIntrinsic()) {
      if (!supported_intrinsics().count(intrinsic_base(f))) {
        fail("uses intrinsic " + f.getName().str() +
             ", which SPIRV-LLVM-Translator 15 cannot translate");
      }
      continue;
    }
    const auto name = f.getName();
    if (f.isDeclaration()) {
      // OpenCL C declares printf unmangled; the translator makes it OpExtInst printf, and
      // clang's call that makes a sampler_t constant an OpConstantSampler.
      if (!name.startswith("_Z") && !name.startswith("__spirv_") && name != "printf" &&
          name != "__translate_sampler_initializer") {
        fail("calls undefined function '" + name.str() +
             "'; expected a definition in the module or an OpenCL builtin");
      }
      continue;
    }
    for (auto& arg : f.args()) {
      if (!legal_type(arg.getType())) {
        fail("function '" + name.str() + "' takes a parameter of type " + type_name(arg.getType()) +
             ", which SPIR-V kernels cannot hold");
      }
    }
    const auto cc = f.getCallingConv();
    if (cc != llvm::CallingConv::SPIR_FUNC && cc != llvm::CallingConv::SPIR_KERNEL) {
      fail("function '" + name.str() +
           "' uses a calling convention other than spir_func/spir_kernel");
    }
    for (auto& bb : f) {
      for (auto& inst : bb) {
        std::string why;
        if (!translatable(inst, why)) fail("function '" + name.str() + "' uses " + why);
        if (!legal_type(inst.getType())) {
          fail("function '" + name.str() + "' computes a value of type " +
               type_name(inst.getType()) + ", which SPIR-V kernels cannot hold");
        }
        for (const llvm::Use& operand : inst.operands()) {
          llvm::Type* t = operand->getType();
          if (!legal_type(t)) {
            fail("function '" + name.str() + "' uses a value of type " + type_name(t) +
                 ", which SPIR-V kernels cannot hold");
          }
        }
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
          if (call->isInlineAsm()) fail("function '" + name.str() + "' uses inline assembly");
          if (!call->getCalledFunction()) {
            fail("function '" + name.str() +
                 "' makes an indirect call, which OpenCL kernels "
                 "cannot do");
          }
        }
      }
    }
  }
}

}  // namespace spvjit::detail
