#include "jit/device/split_vector_calls.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace spvjit::detail {

namespace {

// The call's result type when it and every operand are vectors of one lane count (elements
// may differ: ldexp's floatn and intn) and the widest of them is wider than `max_bits`; null
// otherwise.
llvm::FixedVectorType* wide_vector_call(const llvm::CallInst& call, unsigned max_bits) {
  const llvm::Function* callee = call.getCalledFunction();
  if (!callee || !callee->isDeclaration()) return nullptr;
  const bool builtin = callee->isIntrinsic() ? builtin_intrinsic(callee->getIntrinsicID())
                                             : callee->getName().startswith("_Z");
  if (!builtin) return nullptr;
  auto* type = llvm::dyn_cast<llvm::FixedVectorType>(call.getType());
  if (!type) return nullptr;
  std::uint64_t widest = type->getPrimitiveSizeInBits().getFixedSize();
  for (const auto& a : call.args()) {
    auto* operand = llvm::dyn_cast<llvm::FixedVectorType>(a->getType());
    if (!operand || operand->getNumElements() != type->getNumElements()) return nullptr;
    if (callee->isIntrinsic() && operand != type) return nullptr;
    widest = std::max<std::uint64_t>(widest, operand->getPrimitiveSizeInBits().getFixedSize());
  }
  return widest > max_bits ? type : nullptr;
}

// `_Z4sqrtDv16_f` -> `_Z4sqrtDv8_f` (substitutions S_ keep referring to the first operand).
std::string piece_name(llvm::StringRef name, unsigned lanes, unsigned piece_lanes) {
  const std::string from = "Dv" + std::to_string(lanes) + "_";
  const std::string to = "Dv" + std::to_string(piece_lanes) + "_";
  std::string out = name.str();
  for (std::size_t at = out.find(from); at != std::string::npos;
       at = out.find(from, at + to.size())) {
    out.replace(at, from.size(), to);
  }
  return out;
}

std::vector<int> lane_range(unsigned first, unsigned count) {
  std::vector<int> mask(count);
  std::iota(mask.begin(), mask.end(), static_cast<int>(first));
  return mask;
}

void split(llvm::CallInst* call, llvm::FixedVectorType* type, unsigned max_bits) {
  const unsigned lanes = type->getNumElements();
  unsigned element_bits = type->getScalarSizeInBits();
  for (const auto& a : call->args())
    element_bits = std::max(element_bits, a->getType()->getScalarSizeInBits());
  unsigned piece_lanes = std::max(2u, max_bits / element_bits);
  while (lanes % piece_lanes != 0) piece_lanes /= 2;  // lanes are 8 or 16 here: never below 2
  auto piece_of = [&](llvm::Type* t) {
    return llvm::FixedVectorType::get(llvm::cast<llvm::FixedVectorType>(t)->getElementType(),
                                      piece_lanes);
  };
  auto* piece_type = piece_of(type);
  llvm::Function* wide = call->getCalledFunction();
  llvm::Module& m = *wide->getParent();
  llvm::Function* narrow = nullptr;
  if (wide->isIntrinsic()) {
    narrow = llvm::Intrinsic::getDeclaration(&m, wide->getIntrinsicID(), {piece_type});
  } else {
    std::vector<llvm::Type*> params;
    for (const auto& a : call->args()) params.push_back(piece_of(a->getType()));
    auto callee = m.getOrInsertFunction(piece_name(wide->getName(), lanes, piece_lanes),
                                        llvm::FunctionType::get(piece_type, params, false),
                                        wide->getAttributes());
    narrow = llvm::cast<llvm::Function>(callee.getCallee());
    narrow->setCallingConv(wide->getCallingConv());
  }

  llvm::IRBuilder<> b(call);
  std::vector<llvm::Value*> pieces;
  for (unsigned first = 0; first < lanes; first += piece_lanes) {
    std::vector<llvm::Value*> args;
    for (const auto& a : call->args()) {
      args.push_back(b.CreateShuffleVector(a.get(), a.get(), lane_range(first, piece_lanes)));
    }
    auto* piece = b.CreateCall(narrow, args);
    piece->setCallingConv(call->getCallingConv());
    piece->setAttributes(call->getAttributes());
    piece->copyIRFlags(call);
    pieces.push_back(piece);
  }
  // Join neighbours until one vector is left: 4 pieces -> 2 -> 1.
  while (pieces.size() > 1) {
    std::vector<llvm::Value*> joined;
    for (std::size_t k = 0; k < pieces.size(); k += 2) {
      const unsigned n = llvm::cast<llvm::FixedVectorType>(pieces[k]->getType())->getNumElements();
      joined.push_back(b.CreateShuffleVector(pieces[k], pieces[k + 1], lane_range(0, 2 * n)));
    }
    pieces = std::move(joined);
  }
  call->replaceAllUsesWith(pieces.front());
  call->eraseFromParent();
}

}  // namespace

bool builtin_intrinsic(llvm::Intrinsic::ID id) {
  switch (id) {
    case llvm::Intrinsic::minnum:
    case llvm::Intrinsic::maxnum:
    case llvm::Intrinsic::fabs:
    case llvm::Intrinsic::copysign:
    case llvm::Intrinsic::floor:
    case llvm::Intrinsic::ceil:
    case llvm::Intrinsic::trunc:
    case llvm::Intrinsic::rint:
    case llvm::Intrinsic::round:
    case llvm::Intrinsic::fma:
    case llvm::Intrinsic::sqrt:
      return true;
    default:
      return false;
  }
}

unsigned split_wide_builtin_calls(llvm::Module& m, unsigned max_bits) {
  std::vector<std::pair<llvm::CallInst*, llvm::FixedVectorType*>> wide;
  for (auto& f : m) {
    for (auto& bb : f) {
      for (auto& i : bb) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        if (!call) continue;
        if (auto* type = wide_vector_call(*call, max_bits)) wide.emplace_back(call, type);
      }
    }
  }
  for (auto [call, type] : wide) split(call, type, max_bits);
  return static_cast<unsigned>(wide.size());
}

}  // namespace spvjit::detail
