#include "jit/coarsen/path_cost.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <vector>

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace spvjit::detail {
namespace {

constexpr double builtin_call_weight = 10;  // a math builtin, per register of its result
constexpr unsigned max_call_depth = 4;
constexpr double unreached = std::numeric_limits<double>::infinity();

class Pricer {
 public:
  explicit Pricer(const PathCostOptions& options) : options_(options) {}

  PathCost price(const llvm::Function& f, unsigned depth) {
    if (auto at = done_.find(&f); at != done_.end()) return at->second;
    PathCost cost = walk(f, depth);
    done_.emplace(&f, cost);
    return cost;
  }

 private:
  // Registers a value of type `t` occupies (1 for a scalar).
  double registers(const llvm::Type* t) const {
    const auto* v = llvm::dyn_cast<llvm::FixedVectorType>(t);
    if (!v) return 1;
    const llvm::Type* element = v->getElementType();
    const unsigned bits = element->isPointerTy() ? 64 : element->getScalarSizeInBits();
    const double total = static_cast<double>(bits) * v->getNumElements();
    return std::max(1.0, std::ceil(total / options_.register_bits));
  }

  // The widest of an instruction's result and operands: a compare of two 16-lane float vectors
  // costs their registers, not its mask's.
  double widest(const llvm::Instruction& inst) const {
    double r = registers(inst.getType());
    for (const llvm::Value* op : inst.operands()) r = std::max(r, registers(op->getType()));
    return r;
  }

  static bool is_report(const llvm::Function* callee) {
    return callee && callee->hasFnAttribute(llvm::Attribute::Cold);
  }

  double call_weight(const llvm::CallBase& call, unsigned depth) {
    const llvm::Function* callee = call.getCalledFunction();
    if (!callee) return builtin_call_weight;
    if (const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&call)) {
      if (intrinsic->isAssumeLikeIntrinsic() || llvm::isa<llvm::DbgInfoIntrinsic>(intrinsic)) {
        return 0;
      }
      return widest(call);
    }
    if (!callee->isDeclaration()) {
      if (!options_.follow_calls || depth >= max_call_depth) return 1;
      return 1 + price(*callee, depth + 1).working;
    }
    // Work-item queries and spvjit's check helpers are a few instructions; a builtin's body is
    // the device library's (math).
    if (callee->doesNotAccessMemory() && callee->getName().contains("get_")) return 1;
    if (callee->getName().startswith("__spvjit.") || is_report(callee)) return 1;
    return builtin_call_weight * widest(call);
  }

  double weight(const llvm::Instruction& inst, unsigned depth) {
    if (llvm::isa<llvm::PHINode, llvm::GetElementPtrInst, llvm::BitCastInst, llvm::PtrToIntInst,
                  llvm::IntToPtrInst, llvm::AddrSpaceCastInst, llvm::AllocaInst, llvm::ReturnInst,
                  llvm::UnreachableInst>(inst)) {
      return 0;
    }
    if (const auto* br = llvm::dyn_cast<llvm::BranchInst>(&inst)) return br->isConditional();
    if (llvm::isa<llvm::SwitchInst>(inst)) return 1;
    if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst)) return registers(load->getType());
    if (const auto* store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      return registers(store->getValueOperand()->getType());
    }
    if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst)) return call_weight(*call, depth);
    if (llvm::isa<llvm::ExtractElementInst, llvm::InsertElementInst>(inst)) return 1;
    return widest(inst);
  }

  // Whether `inst` does the function's work: writes memory other than a failed check's report.
  static bool writes(const llvm::Instruction& inst) {
    if (llvm::isa<llvm::StoreInst, llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(inst)) {
      return true;
    }
    const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
    if (!call || llvm::isa<llvm::IntrinsicInst>(call) || !call->mayWriteToMemory()) return false;
    return !is_report(call->getCalledFunction());
  }

  PathCost walk(const llvm::Function& f, unsigned depth) {
    if (f.isDeclaration()) return {};
    auto& mutable_f = const_cast<llvm::Function&>(f);  // the analyses take it; nothing changes
    llvm::DominatorTree tree(mutable_f);
    llvm::LoopInfo loops(tree);
    std::vector<const llvm::BasicBlock*> order;
    std::unordered_map<const llvm::BasicBlock*, std::size_t> position;
    for (const llvm::BasicBlock* block :
         llvm::ReversePostOrderTraversal<const llvm::Function*>(&f)) {
      position.emplace(block, order.size());
      order.push_back(block);
    }
    // Per block, the cheapest way in without and with a write on the way, and the dearest.
    struct Reach {
      double cheapest[2] = {unreached, unreached};
      double dearest = -unreached;
    };
    std::vector<Reach> in(order.size());
    in[0].cheapest[0] = 0;
    in[0].dearest = 0;
    double working = unreached, dearest = -unreached;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const llvm::BasicBlock* block = order[i];
      if (in[i].dearest == -unreached) continue;  // reached only by back edges
      double cost = 0;
      bool writes_here = false;
      for (const llvm::Instruction& inst : *block) {
        cost += weight(inst, depth);
        writes_here = writes_here || writes(inst);
      }
      cost *= std::pow(options_.loop_trips, loops.getLoopDepth(block));
      Reach out;
      for (int s = 0; s < 2; ++s) {
        const int after = s || writes_here;
        out.cheapest[after] = std::min(out.cheapest[after], in[i].cheapest[s] + cost);
      }
      out.dearest = in[i].dearest + cost;
      if (llvm::isa<llvm::ReturnInst>(block->getTerminator())) {
        working = std::min(working, out.cheapest[1]);
        dearest = std::max(dearest, out.dearest);
      }
      for (const llvm::BasicBlock* next : llvm::successors(block)) {
        const auto at = position.find(next);
        if (at == position.end() || at->second <= i) continue;  // a back edge
        Reach& r = in[at->second];
        for (int s = 0; s < 2; ++s) r.cheapest[s] = std::min(r.cheapest[s], out.cheapest[s]);
        r.dearest = std::max(r.dearest, out.dearest);
      }
    }
    if (dearest == -unreached) return {};
    if (working == unreached) working = dearest;
    return {working, dearest};
  }

  const PathCostOptions& options_;
  std::unordered_map<const llvm::Function*, PathCost> done_;
};

}  // namespace

PathCost path_cost(const llvm::Function& f, const PathCostOptions& options) {
  Pricer pricer(options);
  return pricer.price(f, 0);
}

}  // namespace spvjit::detail
