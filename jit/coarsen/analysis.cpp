#include "jit/coarsen/analysis.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <unordered_set>

#include "ir/half_bits.hpp"
#include "ir/kernel_module.hpp"
#include "jit/coarsen/masks.hpp"
#include "jit/coarsen/math.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

bool vectorizable_element(llvm::Type* t) {
  if (t->isFloatTy() || t->isDoubleTy()) return true;
  if (auto* i = llvm::dyn_cast<llvm::IntegerType>(t)) {
    const unsigned bits = i->getBitWidth();
    return bits == 8 || bits == 16 || bits == 32 || bits == 64;
  }
  return false;
}

class Analysis {
 public:
  Analysis(llvm::Function& f, llvm::Value* extent0, VectorMath math, bool counters, bool groups)
      : f_(f), extent0_(extent0), math_(math), counters_(counters), groups_(groups) {}

  CoarsenPlan run(bool exact_without_check) {
    if (!scan()) return std::move(plan_);
    if (roots_.empty() && local_roots_.empty()) fail("does not read get_global_id(0)");
    if (!plan_.ok()) return std::move(plan_);
    for (auto* r : roots_) mark(r, Role::Index);
    for (auto* r : local_roots_) mark(r, Role::LocalIndex);
    for (bool more = true; more && plan_.ok();) {
      while (!work_.empty() && plan_.ok()) {
        auto* v = work_.back();
        work_.pop_back();
        for (auto* user : v->users()) {
          if (!plan_.ok()) break;
          classify(llvm::cast<llvm::Instruction>(user), v);
        }
      }
      // Counters waiting on a value that never varied: they vary, but not consecutively.
      more = false;
      for (llvm::PHINode* phi : waiting_) {
        if (plan_.roles.count(phi)) continue;
        mark(phi, consecutive_counter(phi) ? Role::Offset : Role::Vector);
        more = true;
      }
      waiting_.clear();
    }
    if (!plan_.ok()) return std::move(plan_);
    check_uniform_operands();
    for (auto& [inst, r] : plan_.roles) {
      if (r == Role::Check || r == Role::Report)
        check_bounds_call(llvm::cast<llvm::CallInst>(inst), r);
    }
    for (auto* s : side_effects_) check_store(s);
    if (plan_.ok() && !exact_without_check) check_guarded();
    if (plan_.ok()) order();
    return std::move(plan_);
  }

 private:
  void fail(std::string why) {
    if (plan_.reason.empty()) plan_.reason = std::move(why);
  }
  Role* role(llvm::Value* v) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    if (!i) return nullptr;
    auto it = plan_.roles.find(i);
    return it == plan_.roles.end() ? nullptr : &it->second;
  }
  bool is(llvm::Value* v, Role r) {
    auto* found = role(v);
    return found && *found == r;
  }
  bool uniform(llvm::Value* v) { return role(v) == nullptr; }
  bool consecutive(llvm::Value* v) {
    return is(v, Role::Index) || is(v, Role::LocalIndex) || is(v, Role::Offset);
  }
  void mark(llvm::Instruction* i, Role r) {
    if (plan_.roles.emplace(i, r).second && r != Role::InBounds && r != Role::Store &&
        r != Role::Check && r != Role::Report && r != Role::LaneTest) {
      work_.push_back(i);
    }
  }
  void widen(llvm::Type* t) {
    if (!plan_.widest || t->getPrimitiveSizeInBits() > plan_.widest->getPrimitiveSizeInBits()) {
      plan_.widest = t;
    }
  }

  void call_bits(llvm::Type* t) {
    plan_.widest_call_bits =
        std::max(plan_.widest_call_bits,
                 t->getPrimitiveSizeInBits().getFixedSize() > 0
                     ? static_cast<unsigned>(t->getPrimitiveSizeInBits().getFixedSize())
                     : 64u);
  }

  // Every instruction: calls the rewrite knows, no atomics, no private variables.
  bool scan() {
    for (auto& bb : f_) {
      for (auto& i : bb) {
        if (llvm::isa<llvm::AllocaInst>(i)) {
          fail("has private variables");
          return false;
        }
        if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst, llvm::FenceInst>(i)) {
          fail("uses atomics or fences");
          return false;
        }
        if (i.getType()->isVectorTy()) {
          fail("computes with vectors already (Vec<T, N>)");
          return false;
        }
        if (llvm::isa<llvm::StoreInst>(i)) side_effects_.push_back(&i);
        auto* call = llvm::dyn_cast<llvm::CallInst>(&i);
        if (!call) continue;
        auto* callee = call->getCalledFunction();
        if (!callee || !callee->isDeclaration()) {
          fail("calls a device function");
          return false;
        }
        const auto name = callee->getName();
        // Work-item queries stay uniform across the lanes unless asked about dimension 0: the
        // lanes share their group, local id and sizes in dimensions 1 and 2 only.
        if (builtin::is_work_item_query(name)) {
          auto* dim = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
          if (!dim) {
            fail("asks a work-item query with a computed dimension");
            return false;
          }
          if (dim->isZero()) {
            if (is_global_id0(call)) {
              roots_.push_back(call);
            } else if (groups_ && name == builtin::local_id && call->getType()->isIntegerTy(64)) {
              local_roots_.push_back(call);
            } else if (!groups_ || name != builtin::group_id) {
              // In groups the W lanes share their group: get_group_id(0) stays uniform.
              fail("reads " + name.str() + "(0)");
              return false;
            }
          }
        } else if (name.startswith(vstore_half_prefix)) {
          side_effects_.push_back(call);
        } else if (name.startswith(marker_report)) {
          // A failed bounds check's report (ir/bounds.hpp): rewritten for the failing lane.
        } else if (groups_ && builtin::is_group_barrier(name)) {
          // Every work-item of the group reaches it (ir/analysis/barriers_uniform.hpp), so the
          // W lanes do together: the coarsened work-item waits once for them all.
          has_barrier_ = true;
        } else if (!name.startswith(vload_half_prefix) && !callee->doesNotAccessMemory()) {
          fail("calls " + name.str());
          return false;
        }
      }
    }
    return true;
  }

  void classify(llvm::Instruction* u, llvm::Value* v) {
    if (plan_.roles.count(u)) return;
    if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(u)) {
      if (cmp->getPredicate() == llvm::CmpInst::ICMP_ULT && is(cmp->getOperand(0), Role::Index) &&
          cmp->getOperand(1) == extent0_) {
        return mark(u, Role::InBounds);
      }
      return mark(u, Role::Vector);
    }
    if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(u)) {
      if (gep->getNumIndices() == 1 && uniform(gep->getPointerOperand()) &&
          vectorizable_element(gep->getResultElementType())) {
        widen(gep->getResultElementType());
        // Consecutive lanes: one W-element access. Any other varying index (a struct-of-arrays
        // field 4 * i + c, a table lookup): one element per lane.
        if (consecutive(gep->getOperand(1))) return mark(u, Role::Address);
        if (is(gep->getOperand(1), Role::Vector)) return mark(u, Role::Gather);
      }
      fail("indexes memory by a value other than get_global_id(0)");
      return;
    }
    if (is(v, Role::Address) || is(v, Role::Gather)) {
      // An element address may only be loaded from or stored to.
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(u); load && !load->isVolatile()) {
        return mark(u, Role::Vector);
      }
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(u);
          store && store->getPointerOperand() == v && !store->isVolatile()) {
        return mark(u, Role::Store);
      }
      fail("uses an element address other than to load or store");
      return;
    }
    if (llvm::isa<llvm::StoreInst>(u)) return;   // the stored value; check_store sees the address
    if (llvm::isa<llvm::BranchInst>(u)) return;  // a divergent branch: order() records it
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) return classify_call(call);
    if (auto* add = llvm::dyn_cast<llvm::BinaryOperator>(u);
        add && add->getOpcode() == llvm::Instruction::Add && consecutive(v) &&
        uniform(add->getOperand(add->getOperand(0) == v ? 1 : 0))) {
      return mark(u, Role::Offset);  // row * m + col: still consecutive
    }
    if (auto* sub = llvm::dyn_cast<llvm::BinaryOperator>(u);
        sub && sub->getOpcode() == llvm::Instruction::Sub && sub->getOperand(0) == v &&
        consecutive(v) && uniform(sub->getOperand(1))) {
      return mark(u, Role::Offset);  // a neighbour to the left, col - 1
    }
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(u); phi && counters_) {
      if (consecutive_counter(phi)) {
        return mark(u, Role::Offset);  // a grid-stride loop's counter: gid + r * (uniform step)
      }
      // A value it takes is not classified yet (a counter entering a loop from another, the
      // other's step): the phi is visited again as that value's user once it is.
      if (may_become_counter(phi)) return waiting_.push_back(phi);
    }
    if (llvm::isa<llvm::BinaryOperator, llvm::UnaryOperator, llvm::FCmpInst, llvm::SelectInst,
                  llvm::PHINode>(u)) {
      return mark(u, Role::Vector);
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(u);
        cast && !cast->getType()->isPointerTy() && !cast->getSrcTy()->isPointerTy()) {
      return mark(u, Role::Vector);
    }
    fail(std::string("uses a varying value in a ") + u->getOpcodeName() + " instruction");
  }

  // Whether each value `phi` takes is consecutive, or `phi` itself stepped by a value not (yet)
  // known to vary: then every lane's counter is lane 0's plus the lane, pass after pass
  // (`for (i = get_global_id(0); i < n; i += s)`). check_uniform_operands confirms the steps once
  // every varying value is known.
  bool consecutive_counter(llvm::PHINode* phi) {
    if (!phi->getType()->isIntegerTy(64)) return false;
    for (llvm::Value* in : phi->incoming_values()) {
      if (consecutive(in) || steps(in, phi)) continue;
      return false;
    }
    return true;
  }
  // Whether `phi` could still be a counter: each value it takes consecutive, a step of it, or an
  // instruction not classified yet.
  bool may_become_counter(llvm::PHINode* phi) {
    if (!phi->getType()->isIntegerTy(64)) return false;
    return llvm::all_of(phi->incoming_values(), [&](llvm::Value* in) {
      return consecutive(in) || steps(in, phi) || (llvm::isa<llvm::Instruction>(in) && !role(in));
    });
  }
  // `v` is `phi + x`, `x + phi` or `phi - x` with x uniform so far.
  bool steps(llvm::Value* v, llvm::PHINode* phi) {
    auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v);
    if (!op) return false;
    llvm::Value* a = op->getOperand(0);
    llvm::Value* b = op->getOperand(1);
    if (op->getOpcode() == llvm::Instruction::Sub) return a == phi && b != phi && uniform(b);
    if (op->getOpcode() != llvm::Instruction::Add) return false;
    return (a == phi && b != phi && uniform(b)) || (b == phi && a != phi && uniform(a));
  }

  void classify_call(llvm::CallInst* call) {
    const auto name = call->getCalledFunction()->getName();
    // Bounds checks and their reports: their operands are checked once every role is known.
    if (name.startswith(marker_check)) return mark(call, Role::Check);
    if (name.startswith(marker_report)) return mark(call, Role::Report);
    if (name == every_lane_marker || name == no_lane_marker) return mark(call, Role::LaneTest);
    if (name.startswith(vload_half_prefix)) {
      if (consecutive(call->getArgOperand(0)) && uniform(call->getArgOperand(1))) {
        widen(call->getType());
        return mark(call, Role::Vector);
      }
    } else if (name.startswith(vstore_half_prefix)) {
      if (consecutive(call->getArgOperand(1)) && uniform(call->getArgOperand(2))) {
        widen(call->getArgOperand(0)->getType());
        return mark(call, Role::Store);
      }
    } else if (vector_intrinsic(*call)) {
      call_bits(call->getType());
      return mark(call, Role::Vector);
    } else if (!vector_math_name(*call, 2).empty()) {
      // A call made once per lane takes scalars: its types do not bound the width.
      if (!called_per_lane(*call, math_)) {
        call_bits(call->getType());
        for (const auto& a : call->args()) call_bits(a->getType());
      }
      return mark(call, Role::Vector);
    }
    fail("passes a varying value to " + name.str());
  }

  // A check's (index, extent) pairs — after the report's record, site and global id — must have
  // uniform extents. A consecutive or uniform index passes for W lanes in one scalar test of its
  // first and last lane; any other computed index (a conversion check's, ir/convert.cpp) is
  // tested lane by lane.
  void check_bounds_call(llvm::CallInst* call, Role r) {
    const unsigned first_pair = r == Role::Check ? 0 : 3;
    if (r == Role::Report && !is(call->getArgOperand(2), Role::Index)) {
      fail("reports a bounds failure without its global index");
      return;
    }
    for (unsigned k = first_pair; k + 1 < call->arg_size(); k += 2) {
      llvm::Value* index = call->getArgOperand(k);
      if (!consecutive(index) && !uniform(index) && !is(index, Role::Vector)) {
        fail("checks the bounds of an index that is not get_global_id(0) plus a uniform value");
        return;
      }
      if (!uniform(call->getArgOperand(k + 1))) {
        fail("checks bounds against an extent that differs between work-items");
        return;
      }
    }
  }

  // A role that needed an operand uniform was given when that operand was not yet known to vary:
  // the work list reaches an instruction from its first varying operand, and the other may be
  // marked later (`x[gid]` through a pointer chosen per work-item; gid + a value loaded at gid).
  // Once every varying value is known, each such operand is checked again.
  void check_uniform_operands() {
    for (auto& [inst, r] : plan_.roles) {
      if (r == Role::Address || r == Role::Gather) {
        if (!uniform(llvm::cast<llvm::GetElementPtrInst>(inst)->getPointerOperand())) {
          return fail("indexes memory through a pointer that differs between work-items");
        }
      } else if (auto* phi = llvm::dyn_cast<llvm::PHINode>(inst); phi && r == Role::Offset) {
        if (!llvm::all_of(phi->incoming_values(),
                          [&](llvm::Value* in) { return consecutive(in); })) {
          return fail(
              "steps a loop counter that starts at get_global_id(0) by a value that differs "
              "between work-items and indexes memory by it");
        }
      } else if (r == Role::Offset) {
        auto* op = llvm::cast<llvm::BinaryOperator>(inst);
        llvm::Value* a = op->getOperand(0);
        llvm::Value* b = op->getOperand(1);
        const bool offset = op->getOpcode() == llvm::Instruction::Sub
                                ? consecutive(a) && uniform(b)
                                : (consecutive(a) && uniform(b)) || (consecutive(b) && uniform(a));
        if (!offset) {
          return fail(
              "adds a value that differs between work-items to get_global_id(0) and "
              "indexes memory by the sum");
        }
      } else if (auto* call = llvm::dyn_cast<llvm::CallInst>(inst)) {
        const auto name = call->getCalledFunction()->getName();
        const bool load = name.startswith(vload_half_prefix);
        if ((load || name.startswith(vstore_half_prefix)) &&
            !uniform(call->getArgOperand(load ? 1 : 2))) {
          return fail(
              "reads or writes half values through a pointer that differs between "
              "work-items");
        }
      }
    }
  }

  void check_store(llvm::Instruction* s) {
    if (is(s, Role::Store)) return;
    if (llvm::isa<llvm::StoreInst>(s)) {
      fail("stores to an address not indexed by get_global_id(0)");
    } else {
      fail("stores half values at an offset other than get_global_id(0)");
    }
  }

  // Every store must be behind a branch on get_global_id(0) < extent0 (possibly and-ed with
  // other conditions): then indices past the end store nothing, and the tail may skip them.
  void check_guarded() {
    std::vector<llvm::BasicBlockEdge> guards;
    std::vector<llvm::Value*> conditions;
    for (auto& [inst, r] : plan_.roles) {
      if (r == Role::InBounds) conditions.push_back(inst);
    }
    std::unordered_set<llvm::Value*> seen;
    while (!conditions.empty()) {
      auto* c = conditions.back();
      conditions.pop_back();
      if (!seen.insert(c).second) continue;
      for (auto* user : c->users()) {
        if (auto* br = llvm::dyn_cast<llvm::BranchInst>(user); br && br->isConditional()) {
          guards.emplace_back(br->getParent(), br->getSuccessor(0));
        } else if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(user);
                   bin && bin->getOpcode() == llvm::Instruction::And) {
          conditions.push_back(bin);
        }
      }
    }
    llvm::DominatorTree dt(f_);
    for (auto* s : side_effects_) {
      bool guarded = false;
      for (auto& edge : guards) guarded = guarded || dt.dominates(edge, s->getParent());
      if (!guarded) {
        fail("stores without the bounds check get_global_id(0) < ndrange(0)");
        return;
      }
    }
  }

  // Defs before uses: reverse post-order of the blocks, program order inside each.
  void order() {
    llvm::ReversePostOrderTraversal<llvm::Function*> rpo(&f_);
    for (auto* bb : rpo) {
      for (auto& i : *bb) {
        if (plan_.roles.count(&i)) plan_.order.push_back(&i);
      }
    }
    for (auto& bb : f_) {
      if (auto* br = llvm::dyn_cast<llvm::BranchInst>(bb.getTerminator());
          br && br->isConditional() && is(br->getCondition(), Role::Vector)) {
        plan_.divergent_branches.push_back(br);
      }
      if (llvm::isa<llvm::SwitchInst>(bb.getTerminator()) &&
          role(llvm::cast<llvm::SwitchInst>(bb.getTerminator())->getCondition())) {
        fail("switches on a varying value");
        return;
      }
    }
    // Lanes under masks would carry the barrier into if-converted code, where the work-items
    // it stands for no longer wait at one barrier.
    if (has_barrier_ && !plan_.divergent_branches.empty()) {
      fail("waits at a barrier and branches on a value that differs between work-items");
    }
  }

  llvm::Function& f_;
  llvm::Value* extent0_;
  VectorMath math_;
  bool counters_;  ///< loop counters stepping consecutive lanes are consecutive
  bool groups_;    ///< lanes are consecutive work-items of one group (CoarsenTarget::groups)
  bool has_barrier_ = false;
  std::vector<llvm::PHINode*> waiting_;  ///< possible counters waiting on a value they take
  CoarsenPlan plan_;
  std::vector<llvm::Instruction*> roots_;
  std::vector<llvm::Instruction*> local_roots_;  ///< get_local_id(0), in groups
  std::vector<llvm::Instruction*> side_effects_;
  std::vector<llvm::Instruction*> work_;
};

}  // namespace

bool is_global_id0(const llvm::Value* v) {
  return builtin::is_query_call(v, builtin::global_id, 0) && v->getType()->isIntegerTy(64);
}

CoarsenPlan analyse_elementwise(llvm::Function& kernel, llvm::Value* extent0,
                                bool exact_without_check, VectorMath math, bool counters,
                                bool groups) {
  return Analysis(kernel, extent0, math, counters, groups).run(exact_without_check);
}

}  // namespace spvjit::detail
