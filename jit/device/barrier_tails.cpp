// The barrier-tail check (jit/device/barrier_tails.hpp), on a copy with the variables promoted.
#include "jit/device/barrier_tails.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <set>
#include <vector>

#include "ir/analysis/synchronizing.hpp"
#include "ir/promote_variables.hpp"

namespace spvjit::detail {

namespace {

// "block 'name'", or its place in the function when clang left it unnamed.
std::string block_name(const llvm::BasicBlock& block) {
  if (block.hasName()) return "block '" + block.getName().str() + "'";
  unsigned index = 0;
  for (const auto& b : *block.getParent()) {
    if (&b == &block) break;
    ++index;
  }
  return "basic block " + std::to_string(index);
}

// The phi a branch condition is, or compares with constants (or negates); null for others.
const llvm::PHINode* traced_phi(const llvm::Value* cond) {
  for (int depth = 0; depth < 3 && cond; ++depth) {
    if (const auto* phi = llvm::dyn_cast<llvm::PHINode>(cond)) return phi;
    const auto* inst = llvm::dyn_cast<llvm::Instruction>(cond);
    if (!inst || !(llvm::isa<llvm::CmpInst>(inst) || inst->getOpcode() == llvm::Instruction::Xor)) {
      return nullptr;
    }
    const llvm::Value* next = nullptr;
    for (const llvm::Value* op : inst->operands()) {
      if (!llvm::isa<llvm::Constant>(op)) {
        if (next) return nullptr;
        next = op;
      }
    }
    cond = next;
  }
  return nullptr;
}

const llvm::PHINode* branch_phi(const llvm::BasicBlock& block) {
  const auto* br = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
  if (!br || !br->isConditional() || contains(block, Waiting::NamedBarrier)) return nullptr;
  return traced_phi(br->getCondition());
}

// Whether `phi` takes a constant from a block `inside` rejects: a value the path through that
// block knows, so that jump threading sends that path straight to one side of the branch.
template <class Inside>
bool known_on_a_bypass(const llvm::PHINode* phi, const Inside& inside) {
  if (!phi) return false;
  for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
    if (!inside(phi->getIncomingBlock(i)) && llvm::isa<llvm::Constant>(phi->getIncomingValue(i))) {
      return true;
    }
  }
  return false;
}

// Edges from the blocks `barrier` dominates to blocks it does not (loop back edges aside), a
// branch a bypassing path will be threaded through counting twice.
unsigned tail_edges(const llvm::BasicBlock* barrier, const llvm::DominatorTree& dt) {
  auto inside = [&](const llvm::BasicBlock* b) { return dt.dominates(barrier, b); };
  unsigned edges = 0;
  for (const llvm::BasicBlock& block : *barrier->getParent()) {
    if (!inside(&block)) continue;
    for (const llvm::BasicBlock* next : llvm::successors(&block)) {
      if (inside(next) || dt.dominates(next, &block)) continue;
      edges += known_on_a_bypass(branch_phi(*next), inside) ? 2 : 1;
    }
  }
  return edges;
}

// The promoted copy the check reads, erased from the module whatever happens.
struct Copy {
  llvm::ValueToValueMapTy map;
  llvm::Function* fn;
  explicit Copy(const llvm::Function& kernel)
      : fn(llvm::CloneFunction(const_cast<llvm::Function*>(&kernel), map)) {}
  ~Copy() { fn->eraseFromParent(); }
  Copy(const Copy&) = delete;
  Copy& operator=(const Copy&) = delete;
};

}  // namespace

std::optional<std::string> barrier_tail_hazard(const llvm::Function& kernel) {
  if (!contains(kernel, Waiting::NamedBarrier)) return std::nullopt;

  Copy clone(kernel);
  llvm::Function* copy = clone.fn;
  promote_variables(*copy);
  std::optional<std::string> found;
  {
    llvm::DominatorTree dt(*copy);
    llvm::LoopInfo loops(dt);
    std::vector<const llvm::BasicBlock*> points;
    for (const auto& block : *copy) {
      if (contains(block, Waiting::NamedBarrier)) points.push_back(&block);
    }
    // Where PoCL's LoopBarriers adds barriers to a loop that holds one.
    for (const llvm::Loop* loop : loops.getLoopsInPreorder()) {
      if (!contains(*loop, Waiting::NamedBarrier)) continue;
      if (const llvm::BasicBlock* pre = loop->getLoopPreheader()) points.push_back(pre);
      points.push_back(loop->getHeader());
      llvm::SmallVector<llvm::BasicBlock*, 4> blocks;
      loop->getExitingBlocks(blocks);
      loop->getLoopLatches(blocks);
      points.insert(points.end(), blocks.begin(), blocks.end());
    }
    // A loop left at its header (the builder's while_) has no bypassing path yet: PoCL's -O2
    // rotates it, and its zero-trip path then carries the header's values from before the
    // loop. A branch after the loop on such a value that is a constant there gets threaded.
    for (const llvm::Loop* loop : loops.getLoopsInPreorder()) {
      if (found) break;
      if (!contains(*loop, Waiting::NamedBarrier)) continue;
      llvm::SmallVector<llvm::BasicBlock*, 4> exits;
      loop->getExitBlocks(exits);
      for (const llvm::BasicBlock* exit : exits) {
        for (const llvm::BasicBlock& block : *copy) {
          if (found || !dt.dominates(exit, &block) || loop->contains(&block)) continue;
          const llvm::PHINode* phi = branch_phi(block);
          if (!phi || phi->getParent() != loop->getHeader()) continue;
          if (!known_on_a_bypass(phi, [&](const llvm::BasicBlock* b) { return loop->contains(b); }))
            continue;
          found = "the branch at " + block_name(block) +
                  " after a loop with a barrier tests a value the loop's zero-trip path knows";
        }
      }
    }
    for (const llvm::BasicBlock* point : points) {
      if (found) break;
      if (tail_edges(point, dt) < 2) continue;
      found = "the code after the barrier at " + block_name(*point) +
              " joins paths that skipped it at more than one place";
    }
  }
  return found;
}

}  // namespace spvjit::detail
