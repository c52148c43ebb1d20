#include "jit/coarsen/vector_checks.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include "ir/half_bits.hpp"
#include "ir/work_item_builtins.hpp"
#include "jit/bounds/proven_bounds.hpp"

namespace spvjit::detail {

void VectorChecks::rewrite_check(llvm::IRBuilder<>& b, llvm::CallInst* c) {
  note_straddle_path(c);
  llvm::Value* all_inside = all_lanes_inside(b, c, 0);
  if (v_.masks.count(c)) {
    llvm::Value* mask = algebra_.mask_of(b, c);
    all_inside = algebra_.or_else(
        b, all_inside, [&](llvm::IRBuilder<>& t) { return active_lanes_inside(t, c, mask); });
  }
  c->replaceAllUsesWith(all_inside);
}

bool VectorChecks::left_out(llvm::Value* index, llvm::Value* extent) {
  auto* arg = llvm::dyn_cast<llvm::Argument>(extent);
  if (fast_.covered.end == 0 || !arg || arg->getParent() != &v_.f || arg == v_.coarse_index ||
      !arg->getType()->isIntegerTy(64)) {
    return false;
  }
  const unsigned a = arg->getArgNo();
  if (!fast_.work_item_checks) {
    return v_.index_values.count(index) && a >= fast_.covered.first && a < fast_.covered.end;
  }
  if (v_.index_values.count(index)) {
    // The hidden extents are in fast_end already.
    if (a < fast_.covered.first || a >= fast_.covered.end) add_once(entry.index_below, a);
    return true;
  }
  for (unsigned d = 1; d < 3; ++d) {
    if (builtin::is_query_call(index, builtin::global_id, d) && index->getType()->isIntegerTy(64)) {
      add_once(entry.id_below, std::pair{d, a});
      return true;
    }
  }
  return false;
}

std::vector<bool> VectorChecks::left_out_pairs(llvm::CallInst* c, unsigned first_pair) {
  std::vector<bool> out;
  for (unsigned k = first_pair; k + 1 < c->arg_size(); k += 2) {
    out.push_back(left_out(c->getArgOperand(k), c->getArgOperand(k + 1)));
  }
  if (first_pair == 0 && !out.empty() && !out.back() && fast_.work_item_checks &&
      linear_pair_follows(c, out, fast_.shaped)) {
    out.back() = true;
  }
  if (std::find(out.begin(), out.end(), true) != out.end()) entry.leaves_checks_out = true;
  return out;
}

llvm::Value* VectorChecks::lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c,
                                        unsigned first_pair) {
  return and_over_pairs(
      b, c, first_pair, llvm::ConstantInt::getTrue(v_.vector_type(b.getInt1Ty())),
      [&](llvm::Value* index, llvm::Value* extent) {
        return v_.is_consecutive(index) || v_.is_varying(index)
                   ? b.CreateICmpULT(v_.vector_of(b, index), b.CreateVectorSplat(v_.width, extent))
                   : b.CreateVectorSplat(v_.width, b.CreateICmpULT(index, extent));
      });
}

llvm::Value* VectorChecks::active_lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c,
                                               llvm::Value* mask) {
  return b.CreateNot(algebra_.any_of(b, b.CreateAnd(mask, b.CreateNot(lanes_inside(b, c, 0)))));
}

llvm::Value* VectorChecks::all_lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c,
                                            unsigned first_pair) {
  return and_over_pairs(
      b, c, first_pair, b.getTrue(), [&](llvm::Value* index, llvm::Value* extent) {
        if (v_.is_varying(index)) {
          return algebra_.all_of(
              b, b.CreateICmpULT(v_.vector_of(b, index), b.CreateVectorSplat(v_.width, extent)));
        }
        if (!v_.is_consecutive(index)) return b.CreateICmpULT(index, extent);
        llvm::Value* first = v_.first_of(index);
        llvm::Value* last = b.CreateAdd(first, b.getInt64(v_.width - 1));
        return b.CreateAnd(b.CreateICmpULT(first, extent), b.CreateICmpULT(last, extent));
      });
}

void VectorChecks::note_straddle_path(llvm::CallInst* check) {
  for (auto* user : check->users()) {
    auto* br = llvm::dyn_cast<llvm::BranchInst>(user);
    if (!br || !br->isConditional() || br->getCondition() != check) continue;
    llvm::BasicBlock* access = br->getSuccessor(0);
    llvm::BasicBlock* outside = br->getSuccessor(1);
    llvm::BasicBlock* join = access->getSingleSuccessor();
    if (access == outside || access->getSinglePredecessor() != br->getParent() ||
        outside->getSinglePredecessor() != br->getParent() || !join ||
        outside->getSingleSuccessor() != join) {
      continue;
    }
    unsigned accesses = 0;
    for (auto& i : *access) {
      accesses += llvm::isa<llvm::CallInst>(i) || i.mayReadOrWriteMemory();
    }
    if (accesses == 1) straddle_paths_[access] = {check, outside};
  }
}

void VectorChecks::store_lanes_inside(llvm::Instruction* store, llvm::BasicBlock* block) {
  auto path = straddle_paths_.find(block);
  if (path == straddle_paths_.end()) return;
  llvm::Instruction* at = &*path->second.outside->getFirstInsertionPt();
  llvm::IRBuilder<> b(at);
  llvm::Value* lanes = lanes_inside(b, path->second.check, 0);
  if (v_.masks.count(store)) lanes = b.CreateAnd(lanes, algebra_.mask_of(b, store));
  auto* c = llvm::dyn_cast<llvm::CallInst>(store);  // vstore_half(v, i, p)
  llvm::Value* value = stored_vector(b, c ? c->getArgOperand(0) : store->getOperand(0), block);
  if (!value) return;
  if (!c) {
    auto* plain = llvm::cast<llvm::StoreInst>(store);
    memory_.store_lanes(at, lanes, value, memory_.lane_addresses.lookup(plain->getPointerOperand()),
                        plain->getAlign());
    return;
  }
  memory_.store_lanes(at, lanes, float_to_half_bits(b, value),
                      memory_.half_lanes(b, c->getArgOperand(2), v_.first_of(c->getArgOperand(1))),
                      llvm::Align(2));
}

llvm::Value* VectorChecks::stored_vector(llvm::IRBuilder<>& b, llvm::Value* value,
                                         llvm::BasicBlock* block) {
  auto* defined = llvm::dyn_cast<llvm::Instruction>(value);
  if (!defined || defined->getParent() != block) return v_.vector_of(b, value);
  auto* cast = llvm::dyn_cast<llvm::CastInst>(defined);
  auto* source = cast ? llvm::dyn_cast<llvm::Instruction>(cast->getOperand(0)) : nullptr;
  if (!cast || (source && source->getParent() == block)) return nullptr;
  return b.CreateCast(cast->getOpcode(), v_.vector_of(b, cast->getOperand(0)),
                      v_.vector_type(cast->getDestTy()));
}

void VectorChecks::rewrite_report(llvm::IRBuilder<>& b, llvm::CallInst* c) {
  constexpr unsigned first_pair = 3;  // after the record, the site and the global index
  llvm::Value* lane = b.getInt64(v_.width - 1);
  if (v_.masks.count(c)) {
    llvm::Value* mask = algebra_.mask_of(b, c);
    b.SetInsertPoint(llvm::SplitBlockAndInsertIfThen(algebra_.any_of(b, mask), c, false));
    llvm::Value* failing = b.CreateAnd(mask, b.CreateNot(lanes_inside(b, c, first_pair)));
    for (unsigned l = v_.width; l-- > 0;) {
      lane = b.CreateSelect(b.CreateExtractElement(failing, l), b.getInt64(l), lane);
    }
  }
  for (unsigned k = first_pair; !v_.masks.count(c) && k + 1 < c->arg_size(); k += 2) {
    llvm::Value* index = c->getArgOperand(k);
    llvm::Value* extent = c->getArgOperand(k + 1);
    llvm::Value* fails_from;
    if (v_.is_consecutive(index)) {
      llvm::Value* first = v_.first_of(index);
      fails_from =
          b.CreateSelect(b.CreateICmpULT(first, extent), b.CreateSub(extent, first), b.getInt64(0));
    } else if (v_.is_varying(index)) {
      llvm::Value* outside =
          b.CreateICmpUGE(v_.vector_of(b, index), b.CreateVectorSplat(v_.width, extent));
      fails_from = b.getInt64(v_.width);
      for (unsigned l = v_.width; l-- > 0;) {
        fails_from = b.CreateSelect(b.CreateExtractElement(outside, l), b.getInt64(l), fails_from);
      }
    } else {
      fails_from =
          b.CreateSelect(b.CreateICmpULT(index, extent), b.getInt64(v_.width), b.getInt64(0));
    }
    lane = b.CreateSelect(b.CreateICmpULT(fails_from, lane), fails_from, lane);
  }
  std::vector<llvm::Value*> args = {c->getArgOperand(0), c->getArgOperand(1),
                                    b.CreateAdd(v_.first_of(c->getArgOperand(2)), lane)};
  for (unsigned k = first_pair; k < c->arg_size(); ++k) {
    llvm::Value* a = c->getArgOperand(k);
    const bool index = (k - first_pair) % 2 == 0;
    if (index && v_.is_varying(a)) {
      args.push_back(b.CreateExtractElement(v_.vector_of(b, a), lane));
    } else {
      args.push_back(index && v_.is_consecutive(a) ? b.CreateAdd(v_.first_of(a), lane) : a);
    }
  }
  b.CreateCall(c->getCalledFunction(), args);
}

}  // namespace spvjit::detail
