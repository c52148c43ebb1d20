#include "jit/coarsen/masks.hpp"

#include <algorithm>
#include <map>

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include "ir/block_order.hpp"
#include "ir/kernel_module.hpp"
#include "jit/coarsen/masked_loops.hpp"

namespace spvjit::detail {

namespace {

// What an inactive lane must not do.
bool needs_mask(llvm::Instruction& i) {
  if (llvm::isa<llvm::LoadInst, llvm::StoreInst>(i)) return true;
  auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
  if (!call) return false;
  auto* callee = call->getCalledFunction();
  if (!callee) return true;
  const auto name = callee->getName();
  return name.startswith(marker_check) || name.startswith(marker_report) ||
         !callee->doesNotAccessMemory();
}

bool may_trap_on_divisor(llvm::Instruction& i) {
  switch (i.getOpcode()) {
    case llvm::Instruction::UDiv:
    case llvm::Instruction::URem:
    case llvm::Instruction::SDiv:
    case llvm::Instruction::SRem:
      break;
    default:
      return false;
  }
  auto* c = llvm::dyn_cast<llvm::ConstantInt>(i.getOperand(1));
  if (!c) return true;
  const bool is_signed =
      i.getOpcode() == llvm::Instruction::SDiv || i.getOpcode() == llvm::Instruction::SRem;
  return c->isZero() || (is_signed && c->isMinusOne());  // INT_MIN / -1 traps too
}

// The bounds check whose passing edge is the only way into `b` (ir/bounds.hpp's pattern).
llvm::CallInst* guarding_check(llvm::BasicBlock& b) {
  auto* from = b.getSinglePredecessor();
  auto* br = from ? llvm::dyn_cast<llvm::BranchInst>(from->getTerminator()) : nullptr;
  if (!br || !br->isConditional() || br->getSuccessor(0) != &b) return nullptr;
  auto* call = llvm::dyn_cast<llvm::CallInst>(br->getCondition());
  auto* callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName().startswith(marker_check) ? call : nullptr;
}

}  // namespace

void mask_block(llvm::BasicBlock& b, llvm::Value* mask, LaneMasks& masks) {
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(mask); c && c->isOne()) return;
  llvm::CallInst* check = guarding_check(b);
  for (auto& i : b) {
    if (needs_mask(i)) masks[&i] = {mask, check};
    if (may_trap_on_divisor(i)) {
      llvm::IRBuilder<> at(&i);
      auto* one = llvm::ConstantInt::get(i.getType(), 1);
      i.setOperand(1, at.CreateSelect(mask, i.getOperand(1), one, "safe.divisor"));
    }
  }
}

namespace {

struct Region {
  llvm::BasicBlock* head = nullptr;       ///< ends with the branch the region hangs from
  llvm::BasicBlock* join = nullptr;       ///< its immediate post-dominator
  std::vector<llvm::BasicBlock*> blocks;  ///< between them, in reverse post-order
  /// The head's branch is divergent (worth unmasked copies); false for an enclosing branch taken
  /// to make a region single-entry (an early return inside an if).
  bool divergent = true;
};

// The regions below the divergent branches, outermost first; a branch inside an earlier region
// belongs to it. Sets `why` and returns nothing when one cannot be if-converted.
class RegionFinder {
 public:
  explicit RegionFinder(llvm::Function& f) : dt_(f), pdt_(f), loops_(dt_) {
    llvm::ReversePostOrderTraversal<llvm::Function*> rpo(&f);
    for (auto* bb : rpo) {
      position_[bb] = static_cast<unsigned>(order_.size());
      order_.push_back(bb);
    }
  }

  std::vector<Region> find(const std::vector<llvm::BranchInst*>& divergent, std::string& why) {
    llvm::DenseSet<llvm::BasicBlock*> heads, covered;
    for (auto* br : divergent) heads.insert(br->getParent());
    std::vector<Region> regions;
    for (auto* bb : order_) {
      if (!heads.count(bb) || covered.count(bb)) continue;
      // Inside a loop every lane runs alike (a loop left on a varying condition is masked_loops'
      // and holds no varying branch): the region is one iteration's, if it stays in the loop.
      if (llvm::Loop* loop = loops_.getLoopFor(bb)) {
        Region r;
        if (!region_below(bb, r, why) || loops_.getLoopFor(r.join) != loop) {
          if (why.empty()) {
            why =
                "leaves a loop on a varying condition from inside its body (a break_ or "
                "return_ under an if)";
          }
          return {};
        }
        for (auto* b : r.blocks) covered.insert(b);
        covered.insert(bb);
        regions.push_back(std::move(r));
        continue;
      }
      // A branch whose region is entered from outside (an early return_() inside an if jumps to
      // the return past the if's join) is taken with the nearest enclosing branch whose region
      // is entered only through it.
      Region r;
      llvm::BasicBlock* head = bb;
      auto holds_bb = [&] { return head == bb || llvm::is_contained(r.blocks, bb); };
      while (head && !(region_below(head, r, why) && holds_bb())) {
        if (!why.empty()) return {};
        head = enclosing_branch(head);
      }
      if (!head) {
        why = "jumps into the region of a varying branch from outside it";
        return {};
      }
      r.divergent = head == bb;
      if (covered.count(head)) continue;
      for (auto* b : r.blocks) covered.insert(b);
      covered.insert(head);
      regions.push_back(std::move(r));
    }
    // An enclosing region taken later may hold regions found before it.
    std::vector<Region> outermost;
    for (auto& r : regions) {
      if (std::none_of(regions.begin(), regions.end(), [&](const Region& other) {
            return &other != &r && std::find(other.blocks.begin(), other.blocks.end(), r.head) !=
                                       other.blocks.end();
          })) {
        outermost.push_back(std::move(r));
      }
    }
    return outermost;
  }

  // The region below `head`'s conditional branch, if single-entry; sets `why` (and returns
  // false) for what no enclosing region can fix.
  bool region_below(llvm::BasicBlock* head, Region& r, std::string& why) {
    auto* br = llvm::dyn_cast<llvm::BranchInst>(head->getTerminator());
    if (!br || !br->isConditional()) return false;
    auto* node = pdt_.getNode(head);
    auto* ipdom = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    if (!ipdom) {
      why = "branches on a varying condition whose sides never join";
      return false;
    }
    llvm::DenseSet<llvm::BasicBlock*> inside;
    std::vector<llvm::BasicBlock*> work(llvm::succ_begin(head), llvm::succ_end(head));
    while (!work.empty()) {
      auto* b = work.back();
      work.pop_back();
      if (b == ipdom || !inside.insert(b).second) continue;
      for (auto* s : llvm::successors(b)) work.push_back(s);
    }
    llvm::Loop* here = loops_.getLoopFor(head);
    for (auto* b : inside) {
      if (loops_.getLoopFor(b) != here) {
        why = here && !here->contains(b)
                  ? "leaves a loop on a varying condition from inside its body (a break_ or "
                    "return_ under an if)"
                  : "has a loop under a varying condition";
        return false;
      }
      for (auto* p : llvm::predecessors(b)) {
        if (p != head && !inside.count(p)) return false;
      }
    }
    r.head = head;
    r.join = ipdom;
    r.blocks.assign(inside.begin(), inside.end());
    std::sort(r.blocks.begin(), r.blocks.end(),
              [&](auto* a, auto* b) { return position_.lookup(a) < position_.lookup(b); });
    return true;
  }

  // The nearest dominator of `b` outside any loop that ends with a conditional branch.
  llvm::BasicBlock* enclosing_branch(llvm::BasicBlock* b) {
    for (auto* node = dt_.getNode(b)->getIDom(); node; node = node->getIDom()) {
      auto* block = node->getBlock();
      if (loops_.getLoopFor(block)) return nullptr;
      auto* br = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
      if (br && br->isConditional()) return block;
    }
    return nullptr;
  }

  // Runs exactly when `dominator` does (it dominates `b`, `b` post-dominates it): same mask.
  llvm::BasicBlock* control_equivalent(llvm::BasicBlock* b) {
    auto* node = dt_.getNode(b);
    if (!node || !node->getIDom()) return nullptr;
    auto* dominator = node->getIDom()->getBlock();
    return pdt_.dominates(b, dominator) ? dominator : nullptr;
  }

 private:
  llvm::DominatorTree dt_;
  llvm::PostDominatorTree pdt_;
  llvm::LoopInfo loops_;
  std::vector<llvm::BasicBlock*> order_;
  llvm::DenseMap<llvm::BasicBlock*, unsigned> position_;
};

class IfConverter {
 public:
  IfConverter(RegionFinder& finder, LaneMasks& masks) : finder_(finder), masks_(masks) {}

  void convert(const Region& r) {
    auto& ctx = r.head->getContext();
    block_masks_[r.head] = llvm::ConstantInt::getTrue(ctx);
    for (auto* b : r.blocks) {
      llvm::IRBuilder<> at(&*b->getFirstInsertionPt());
      llvm::Value* mask = nullptr;
      if (auto* same = finder_.control_equivalent(b); same && block_masks_.count(same)) {
        mask = block_masks_[same];
      } else {
        for (auto* p : llvm::predecessors(b)) {
          auto* e = edge_mask(p, b);
          mask = mask ? at.CreateOr(mask, e, "lane.mask") : e;
        }
      }
      block_masks_[b] = mask;
      while (auto* phi = llvm::dyn_cast<llvm::PHINode>(&b->front())) {
        phi->replaceAllUsesWith(blend(
            at, *phi, [](llvm::BasicBlock*) { return true; }, b));
        phi->eraseFromParent();
      }
      protect(*b, mask);
    }
    llvm::BasicBlock* last = r.blocks.empty() ? r.head : r.blocks.back();
    llvm::DenseSet<llvm::BasicBlock*> inside(r.blocks.begin(), r.blocks.end());
    inside.insert(r.head);
    // The join's phis: the region's incoming values become one, from the chain's last block.
    llvm::IRBuilder<> end(last->getTerminator());
    for (auto& phi : r.join->phis()) {
      auto from_region = [&](llvm::BasicBlock* p) { return inside.count(p) != 0; };
      llvm::Value* v = blend(end, phi, from_region, r.join);
      for (unsigned k = phi.getNumIncomingValues(); k-- > 0;) {
        if (from_region(phi.getIncomingBlock(k))) phi.removeIncomingValue(k, false);
      }
      phi.addIncoming(v, last);
    }
    // The chain: head, blocks..., join.
    llvm::BasicBlock* previous = r.head;
    for (auto* b : r.blocks) {
      relink(previous, b);
      previous = b;
    }
    relink(previous, r.join);
  }

 private:
  // The lanes that take the edge from -> to.
  llvm::Value* edge_mask(llvm::BasicBlock* from, llvm::BasicBlock* to) {
    auto key = std::make_pair(from, to);
    if (auto it = edges_.find(key); it != edges_.end()) return it->second;
    llvm::Value* from_mask = block_masks_.lookup(from);
    auto* br = llvm::cast<llvm::BranchInst>(from->getTerminator());
    llvm::Value* mask = from_mask;
    if (br->isConditional() && br->getSuccessor(0) != br->getSuccessor(1)) {
      llvm::IRBuilder<> at(br);
      llvm::Value* c = br->getCondition();
      if (br->getSuccessor(1) == to) c = at.CreateNot(c, "lane.not");
      mask = at.CreateAnd(c, from_mask, "lane.edge");  // folds to c where from_mask is true
    }
    edges_[key] = mask;
    return mask;
  }

  // A phi's value as selects on its incoming edges' masks (disjoint: one lane, one edge). The
  // zero a failed bounds check gives is left out: the masked access reads zeros when its check
  // fails (no lane active), and a failed check fails the launch (BoundsError) anyway; this keeps
  // lane masks off the path of every checked load.
  template <class Take>
  llvm::Value* blend(llvm::IRBuilder<>& at, llvm::PHINode& phi, Take take, llvm::BasicBlock* to) {
    std::vector<unsigned> taken;
    for (unsigned k = 0; k < phi.getNumIncomingValues(); ++k) {
      if (take(phi.getIncomingBlock(k))) taken.push_back(k);
    }
    if (taken.size() > 1) {
      std::vector<unsigned> kept;
      for (unsigned k : taken) {
        if (!reports_bounds_failure(*phi.getIncomingBlock(k))) kept.push_back(k);
      }
      if (!kept.empty()) taken = kept;
    }
    llvm::Value* v = nullptr;
    for (unsigned k : taken) {
      llvm::BasicBlock* from = phi.getIncomingBlock(k);
      llvm::Value* incoming = phi.getIncomingValue(k);
      v = v ? at.CreateSelect(edge_mask(from, to), incoming, v, phi.getName() + ".blend")
            : incoming;
    }
    return v;
  }

  static bool reports_bounds_failure(llvm::BasicBlock& b) {
    for (auto& i : b) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
      auto* callee = call ? call->getCalledFunction() : nullptr;
      if (callee && callee->getName().startswith(marker_report)) return true;
    }
    return false;
  }

  void protect(llvm::BasicBlock& b, llvm::Value* mask) { mask_block(b, mask, masks_); }

  static void relink(llvm::BasicBlock* from, llvm::BasicBlock* to) {
    auto* old = from->getTerminator();
    llvm::BranchInst::Create(to, old);
    old->eraseFromParent();
  }

  RegionFinder& finder_;
  LaneMasks& masks_;
  llvm::DenseMap<llvm::BasicBlock*, llvm::Value*> block_masks_;
  std::map<std::pair<llvm::BasicBlock*, llvm::BasicBlock*>, llvm::Value*> edges_;
};

// Before if-conversion, each region gets two unmasked copies for the work-items whose lanes all
// agree on its branch (every interior work-item of a stencil):
//   head:      br every_lane(c), <true side, copied>, none.test
//   none.test: br no_lane(c), <false side, copied>, masked
//   masked:    br c, T, F          (the region itself, if-converted afterwards)
// every_lane and no_lane are marker calls the vectorizer answers for the W lanes. Returns the
// branches on varying conditions left to if-convert: the moved original and those the copies
// hold inside them.
std::vector<llvm::BranchInst*> version_region(const Region& r,
                                              const llvm::DenseSet<llvm::BranchInst*>& divergent,
                                              llvm::Function* every, llvm::Function* none) {
  auto& ctx = r.head->getContext();
  llvm::Function& f = *r.head->getParent();
  auto* br = llvm::cast<llvm::BranchInst>(r.head->getTerminator());
  llvm::Value* c = br->getCondition();
  auto* masked = llvm::BasicBlock::Create(ctx, "lanes.differ", &f);
  auto* none_test = llvm::BasicBlock::Create(ctx, "lanes.none", &f);
  // The branch moves to `masked`, its edges with it.
  br->moveBefore(*masked, masked->end());
  for (auto* succ : llvm::successors(masked)) succ->replacePhiUsesWith(r.head, masked);
  std::vector<llvm::BranchInst*> left = {br};
  llvm::BasicBlock* entries[2] = {nullptr, nullptr};
  llvm::BasicBlock* tests[2] = {r.head, none_test};
  for (unsigned side = 0; side < 2; ++side) {
    llvm::BasicBlock* start = br->getSuccessor(side);
    if (start == r.join) {
      entries[side] = r.join;
      for (auto& phi : r.join->phis())
        phi.addIncoming(phi.getIncomingValueForBlock(masked), tests[side]);
      continue;
    }
    // The blocks this side reaches before the join, copied.
    std::vector<llvm::BasicBlock*> side_blocks;
    llvm::DenseSet<llvm::BasicBlock*> seen;
    std::vector<llvm::BasicBlock*> work = {start};
    while (!work.empty()) {
      auto* b = work.back();
      work.pop_back();
      if (b == r.join || !seen.insert(b).second) continue;
      side_blocks.push_back(b);
      for (auto* s : llvm::successors(b)) work.push_back(s);
    }
    llvm::ValueToValueMapTy map;
    map[masked] = tests[side];
    std::vector<llvm::BasicBlock*> copies;
    for (auto* b : side_blocks) {
      auto* copy = llvm::CloneBasicBlock(b, map, side == 0 ? ".all" : ".none", &f);
      map[b] = copy;
      copies.push_back(copy);
    }
    for (auto* copy : copies) {
      for (auto& i : *copy) {
        llvm::RemapInstruction(&i, map,
                               llvm::RF_NoModuleLevelChanges | llvm::RF_IgnoreMissingLocals);
      }
    }
    for (auto* copy : copies) {
      // Edges from blocks of the other side do not reach the copy.
      for (auto& phi : llvm::make_early_inc_range(copy->phis())) {
        for (unsigned k = phi.getNumIncomingValues(); k-- > 0;) {
          if (!llvm::is_contained(llvm::predecessors(copy), phi.getIncomingBlock(k))) {
            phi.removeIncomingValue(k, false);
          }
        }
      }
    }
    for (unsigned k = 0; k < side_blocks.size(); ++k) {
      if (llvm::is_contained(llvm::successors(side_blocks[k]), r.join)) {
        for (auto& phi : r.join->phis()) {
          // Values from before the region (the head's, arguments, constants) are not copied.
          llvm::Value* incoming = phi.getIncomingValueForBlock(side_blocks[k]);
          auto copied = map.find(incoming);
          phi.addIncoming(
              copied != map.end() ? static_cast<llvm::Value*>(copied->second) : incoming,
              copies[k]);
        }
      }
    }
    entries[side] = llvm::cast<llvm::BasicBlock>(map[start]);
    for (auto* b : side_blocks) {
      auto* t = llvm::dyn_cast<llvm::BranchInst>(b->getTerminator());
      if (t && t->isConditional() && divergent.count(t)) {
        left.push_back(
            llvm::cast<llvm::BranchInst>(llvm::cast<llvm::BasicBlock>(map[b])->getTerminator()));
      }
    }
  }
  llvm::IRBuilder<> at(r.head);
  auto* all = at.CreateCall(every, {c}, "lanes.all");
  at.CreateCondBr(all, entries[0], none_test);
  at.SetInsertPoint(none_test);
  auto* no = at.CreateCall(none, {c}, "lanes.none");
  at.CreateCondBr(no, entries[1], masked);
  return left;
}

}  // namespace

std::string divergent_region_problem(llvm::Function& f,
                                     const std::vector<llvm::BranchInst*>& divergent,
                                     bool fold_overflow_exits) {
  std::vector<llvm::BranchInst*> branches = divergent, loop_exits;
  std::string why = take_masked_loop_exits(f, branches, loop_exits, fold_overflow_exits);
  if (!why.empty() || branches.empty()) return why;
  RegionFinder(f).find(branches, why);
  return why;
}

LaneMasks if_convert(llvm::Function& f, const std::vector<llvm::BranchInst*>& divergent,
                     bool fold_overflow_exits) {
  LaneMasks masks;
  if (divergent.empty()) return masks;
  // Loops left on a varying condition run under masks (jit/coarsen/masked_loops.hpp); the
  // regions below the other branches hold no loop, so neither rewrite touches the other's.
  std::vector<llvm::BranchInst*> branches = divergent, loop_exits;
  std::string why = take_masked_loop_exits(f, branches, loop_exits, fold_overflow_exits);
  std::vector<llvm::BranchInst*> left;
  {
    RegionFinder finder(f);
    const auto regions = finder.find(branches, why);
    const llvm::DenseSet<llvm::BranchInst*> all(branches.begin(), branches.end());
    auto& m = *f.getParent();
    llvm::Function* every = lane_test(m, every_lane_marker);
    llvm::Function* none = lane_test(m, no_lane_marker);
    for (const auto& r : regions) {
      if (r.divergent) {
        auto more = version_region(r, all, every, none);
        left.insert(left.end(), more.begin(), more.end());
      } else {
        left.push_back(llvm::cast<llvm::BranchInst>(r.head->getTerminator()));
      }
    }
  }
  RegionFinder finder(f);
  const auto regions = finder.find(left, why);
  IfConverter converter(finder, masks);
  for (const auto& r : regions) converter.convert(r);
  mask_loops(f, loop_exits, masks);
  order_blocks(f);  // the chains' blocks where SPIR-V wants them: after their dominators
  return masks;
}

llvm::Function* lane_test(llvm::Module& m, const char* name) {
  auto* i1 = llvm::Type::getInt1Ty(m.getContext());
  auto callee = m.getOrInsertFunction(name, llvm::FunctionType::get(i1, {i1}, false));
  auto* f = llvm::cast<llvm::Function>(callee.getCallee());
  f->setDoesNotAccessMemory();
  f->setDoesNotThrow();
  return f;
}

}  // namespace spvjit::detail
