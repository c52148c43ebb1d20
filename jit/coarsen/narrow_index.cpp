#include "jit/coarsen/narrow_index.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

#include "jit/coarsen/analysis.hpp"

namespace spvjit::detail {

namespace {

// The bits gid must fit for `v` to equal it, when `v` is one of the narrowings to 32 bits of
// the i64 `gid`: 31 for the signed forms, 32 for the unsigned ones; 0 otherwise.
unsigned narrowing_of(const llvm::Instruction& v, const llvm::Value* gid) {
  using namespace llvm::PatternMatch;
  if (!v.getType()->isIntegerTy(64)) return 0;
  llvm::Value* x = nullptr;
  auto trunc32 = [&](llvm::Value* t) {
    auto* trunc = llvm::dyn_cast<llvm::TruncInst>(t);
    return trunc && trunc->getType()->isIntegerTy(32) && trunc->getOperand(0) == gid;
  };
  if (match(&v, m_SExt(m_Value(x))) && trunc32(x)) return 31;
  if (match(&v, m_ZExt(m_Value(x))) && trunc32(x)) return 32;
  if (match(&v, m_AShr(m_Shl(m_Specific(gid), m_SpecificInt(32)), m_SpecificInt(32)))) return 31;
  if (match(&v, m_And(m_Specific(gid), m_SpecificInt(0xffffffffull)))) return 32;
  return 0;
}

}  // namespace

WidenedIndex::WidenedIndex(WidenedIndex&& other) noexcept
    : bits_(other.bits_), undo_(std::move(other.undo_)) {
  other.undo_.clear();
}

WidenedIndex::~WidenedIndex() {
  for (auto& [use, old] : undo_) use->set(old);
}

WidenedIndex widen_narrowed_global_ids(llvm::Function& kernel,
                                       std::optional<std::uint64_t> static_extent0) {
  WidenedIndex out;
  std::vector<std::pair<llvm::Instruction*, llvm::Instruction*>> found;  // narrowing, its gid
  for (auto& inst : llvm::instructions(kernel)) {
    if (!is_global_id0(&inst)) continue;
    for (auto* user : inst.users()) {
      auto* u = llvm::dyn_cast<llvm::Instruction>(user);
      if (!u) continue;
      // The narrowing itself, or the trunc whose single extension is.
      std::vector<llvm::Instruction*> candidates{u};
      if (llvm::isa<llvm::TruncInst>(u) || u->getOpcode() == llvm::Instruction::Shl) {
        for (auto* uu : u->users()) {
          if (auto* i = llvm::dyn_cast<llvm::Instruction>(uu)) candidates.push_back(i);
        }
      }
      for (auto* c : candidates) {
        if (const unsigned bits = narrowing_of(*c, &inst)) {
          const std::uint64_t limit = std::uint64_t{1} << bits;
          if (static_extent0 && *static_extent0 > limit) continue;
          found.emplace_back(c, &inst);
          out.bits_ = out.bits_ == 0 ? bits : std::min(out.bits_, bits);
        }
      }
    }
  }
  for (auto& [narrowing, gid] : found) {
    std::vector<llvm::Use*> uses;
    for (auto& use : narrowing->uses()) uses.push_back(&use);
    for (auto* use : uses) {
      out.undo_.emplace_back(use, narrowing);
      use->set(gid);
    }
  }
  return out;
}

}  // namespace spvjit::detail
