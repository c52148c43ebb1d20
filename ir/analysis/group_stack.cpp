// The per-work-item stack estimate: allocas that stay in memory, and a backward liveness pass
// over SSA values that finds those live across a barrier (PoCL context-saves exactly the values
// one parallel region defines and another uses).
#include "ir/analysis/group_stack.hpp"

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <string>
#include <vector>

#include "ir/kernel_module.hpp"
#include "ir/promote_variables.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

// Counting a sub-group barrier too only over-estimates (ir/work_item_builtins.hpp).
using builtin::names_a_barrier;

class Estimate {
 public:
  explicit Estimate(const llvm::DataLayout& layout) : layout_(layout) {}

  // Bytes per work-item for `fn` with its callees inlined, as PoCL inlines them.
  std::uint64_t bytes(llvm::Function& fn) {
    auto [it, fresh] = bytes_.try_emplace(&fn, 0);
    if (!fresh) return it->second;  // known, or recursion (which OpenCL forbids): 0
    std::uint64_t total = 0;
    for (auto& block : fn) {
      for (auto& inst : block) {
        if (auto* slot = llvm::dyn_cast<llvm::AllocaInst>(&inst)) {
          // PoCL pads each work-item's copy of an array to the alloca's alignment
          // (getContextArray: "enlarge the type to fit the alignment").
          const std::uint64_t size = layout_.getTypeAllocSize(slot->getAllocatedType());
          const std::uint64_t align = slot->getAlign().value();
          total += (size + align - 1) / align * align;
        } else if (auto* callee = called(inst)) {
          total += bytes(*callee);
        }
      }
    }
    total += live_across_barriers(fn);
    bytes_[&fn] = total;
    return total;
  }

 private:
  static llvm::Function* called(llvm::Instruction& inst) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
    llvm::Function* f = call ? call->getCalledFunction() : nullptr;
    return f && !f->isDeclaration() ? f : nullptr;
  }

  // The builder's markers for the ndrange, extents and bounds record become kernel arguments
  // (jit/specialize.cpp): uniform, kept in no context array.
  static bool becomes_argument(llvm::Instruction& inst) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
    llvm::Function* f = call ? call->getCalledFunction() : nullptr;
    if (!f) return false;
    const auto name = f->getName();
    return name == marker_ndrange || name == marker_extent || name == marker_record;
  }

  // A barrier, or a call to a function that reaches one (inlined, it is one).
  bool is_barrier_point(llvm::Instruction& inst) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (!call) return false;
    llvm::Function* f = call->getCalledFunction();
    if (names_a_barrier(f)) return true;
    return f && !f->isDeclaration() && reaches_barrier(*f);
  }

  bool reaches_barrier(llvm::Function& fn) {
    auto [it, fresh] = barrier_.try_emplace(&fn, false);
    if (!fresh) return it->second;
    bool found = false;
    for (auto& block : fn) {
      for (auto& inst : block) found = found || is_barrier_point(inst);
    }
    barrier_[&fn] = found;
    return found;
  }

  // Backward liveness over the SSA values of `fn` (allocas excluded: they are counted whole);
  // the sum of the sizes of every value live just after some barrier point.
  std::uint64_t live_across_barriers(llvm::Function& fn) {
    llvm::DenseMap<const llvm::Value*, unsigned> index;
    std::vector<std::uint64_t> size;
    bool any_barrier = false;
    for (auto& block : fn) {
      for (auto& inst : block) {
        any_barrier = any_barrier || is_barrier_point(inst);
        if (inst.getType()->isVoidTy() || llvm::isa<llvm::AllocaInst>(inst)) continue;
        if (becomes_argument(inst)) continue;
        index[&inst] = static_cast<unsigned>(size.size());
        size.push_back(layout_.getTypeAllocSize(inst.getType()));
      }
    }
    if (!any_barrier || size.empty()) return 0;
    const unsigned n = static_cast<unsigned>(size.size());
    auto number = [&](const llvm::Value* v) -> int {
      auto it = index.find(v);
      return it == index.end() ? -1 : static_cast<int>(it->second);
    };
    struct Sets {
      llvm::BitVector use, def, phi_def, in, out;
    };
    llvm::DenseMap<const llvm::BasicBlock*, Sets> sets;
    for (auto& block : fn) {
      Sets s{llvm::BitVector(n), llvm::BitVector(n), llvm::BitVector(n), llvm::BitVector(n),
             llvm::BitVector(n)};
      for (auto& inst : block) {
        const int d = number(&inst);
        if (llvm::isa<llvm::PHINode>(inst)) {
          if (d >= 0) s.phi_def.set(d), s.def.set(d);
          continue;  // its operands are used on the incoming edges
        }
        for (const llvm::Use& op : inst.operands()) {
          const int u = number(op.get());
          if (u >= 0 && !s.def.test(u)) s.use.set(u);  // defined in another block
        }
        if (d >= 0) s.def.set(d);
      }
      sets[&block] = std::move(s);
    }
    // Post-order visits successors first: few sweeps until nothing changes.
    std::vector<llvm::BasicBlock*> order;
    for (llvm::BasicBlock* block : llvm::post_order(&fn.getEntryBlock())) order.push_back(block);
    for (bool changed = true; changed;) {
      changed = false;
      for (llvm::BasicBlock* block : order) {
        Sets& s = sets[block];
        llvm::BitVector out(n);
        for (llvm::BasicBlock* succ : llvm::successors(block)) {
          const Sets& t = sets[succ];
          llvm::BitVector through = t.in;
          through.reset(t.phi_def);
          out |= through;
          for (auto& phi : succ->phis()) {
            const int u = number(phi.getIncomingValueForBlock(block));
            if (u >= 0) out.set(u);
          }
        }
        llvm::BitVector in = out;
        in.reset(s.def);
        in |= s.use;
        in |= s.phi_def;
        if (in != s.in || out != s.out) {
          s.in = std::move(in);
          s.out = std::move(out);
          changed = true;
        }
      }
    }
    llvm::BitVector across(n);
    for (llvm::BasicBlock* block : order) {
      llvm::BitVector live = sets[block].out;
      for (auto it = block->rbegin(); it != block->rend() && !llvm::isa<llvm::PHINode>(*it); ++it) {
        if (is_barrier_point(*it)) across |= live;
        const int d = number(&*it);
        if (d >= 0) live.reset(d);
        for (const llvm::Use& op : it->operands()) {
          const int u = number(op.get());
          if (u >= 0) live.set(u);
        }
      }
    }
    std::uint64_t total = 0;
    for (unsigned v : across.set_bits()) total += size[v];
    return total;
  }

  const llvm::DataLayout& layout_;
  llvm::DenseMap<const llvm::Function*, std::uint64_t> bytes_;
  llvm::DenseMap<const llvm::Function*, bool> barrier_;
};

// `getelementptr %p, 0` is %p: the builder makes one per parameter and per variable access,
// and PoCL's instcombine folds them before its work-group passes.
void fold_zero_offsets(llvm::Function& fn) {
  std::vector<llvm::GetElementPtrInst*> zero;
  for (auto& block : fn) {
    for (auto& inst : block) {
      if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst);
          gep && gep->hasAllZeroIndices() && gep->getType() == gep->getPointerOperandType()) {
        zero.push_back(gep);
      }
    }
  }
  for (auto* gep : zero) {
    gep->replaceAllUsesWith(gep->getPointerOperand());
    gep->eraseFromParent();
  }
}

}  // namespace

std::uint64_t stack_bytes_per_work_item(const llvm::Module& module, std::string_view kernel) {
  // A copy: the caller's module (the builder's, a user's raw one) stays as it was.
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
  for (auto& fn : *copy) {
    if (fn.isDeclaration()) continue;
    fold_zero_offsets(fn);
    promote_variables(fn);
  }
  llvm::Function* fn = copy->getFunction(llvm::StringRef(kernel.data(), kernel.size()));
  if (!fn || fn->isDeclaration()) return 0;
  return Estimate(copy->getDataLayout()).bytes(*fn);
}

}  // namespace spvjit::detail
