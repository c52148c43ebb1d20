#include "ir/fast_math.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

#include "ir/state.hpp"
#include "spvjit/builder.hpp"

namespace spvjit::detail {

llvm::FastMathFlags to_llvm(FastMath flags) {
  llvm::FastMathFlags out;
  out.setAllowReassoc(has(flags, FastMath::reassociate));
  out.setAllowContract(has(flags, FastMath::contract));
  out.setNoNaNs(has(flags, FastMath::no_nans));
  out.setNoInfs(has(flags, FastMath::no_infs));
  out.setNoSignedZeros(has(flags, FastMath::no_signed_zeros));
  out.setAllowReciprocal(has(flags, FastMath::reciprocal));
  out.setApproxFunc(has(flags, FastMath::approximate_functions));
  return out;
}

namespace {

// Whether `have` holds every flag of `want` (FastMathFlags has no comparison).
bool holds(llvm::FastMathFlags have, llvm::FastMathFlags want) {
  return (have.allowReassoc() || !want.allowReassoc()) &&
         (have.allowContract() || !want.allowContract()) && (have.noNaNs() || !want.noNaNs()) &&
         (have.noInfs() || !want.noInfs()) && (have.noSignedZeros() || !want.noSignedZeros()) &&
         (have.allowReciprocal() || !want.allowReciprocal()) &&
         (have.approxFunc() || !want.approxFunc());
}

}  // namespace

unsigned add_fast_math_flags(llvm::Function& function, llvm::FastMathFlags flags) {
  unsigned changed = 0;
  if (!flags.any()) return changed;
  for (llvm::Instruction& inst : llvm::instructions(function)) {
    if (!llvm::isa<llvm::FPMathOperator>(inst)) continue;
    llvm::FastMathFlags merged = inst.getFastMathFlags();
    if (holds(merged, flags)) continue;
    merged |= flags;
    inst.setFastMathFlags(merged);
    ++changed;
  }
  return changed;
}

unsigned add_fast_math_flags(llvm::Module& module, llvm::FastMathFlags flags) {
  unsigned changed = 0;
  for (llvm::Function& f : module) {
    if (!f.isDeclaration()) changed += add_fast_math_flags(f, flags);
  }
  return changed;
}

}  // namespace spvjit::detail

namespace spvjit {

KernelBuilder& KernelBuilder::fastmath(FastMath flags) {
  auto& s = *state_;
  s.check_open("fastmath");
  s.kernel_fast_math = s.kernel_fast_math | flags;
  return *this;
}

KernelBuilder::FastMathBlock::FastMathBlock(KernelBuilder& kb, FastMath flags) : kb_(kb) {
  auto& s = *kb.state_;
  s.check_open("fastmath");
  s.fast_math_blocks.push_back(s.ir.getFastMathFlags());
  depth_ = s.fast_math_blocks.size();
  llvm::FastMathFlags inside = s.ir.getFastMathFlags();
  inside |= detail::to_llvm(flags);
  s.ir.setFastMathFlags(inside);
}

KernelBuilder::FastMathBlock::~FastMathBlock() {
  auto& s = *kb_.state_;
  // Blocks close innermost first (they are C++ scopes); restore what this one found.
  if (s.fast_math_blocks.size() < depth_) return;
  s.ir.setFastMathFlags(s.fast_math_blocks[depth_ - 1]);
  s.fast_math_blocks.resize(depth_ - 1);
}

}  // namespace spvjit
