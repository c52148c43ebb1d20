#include "jit/bounds/proven_bounds.hpp"

#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "common/kernel_interface.hpp"
#include "ir/kernel_module.hpp"
#include "jit/bounds/merge_bounds.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

namespace pm = llvm::PatternMatch;

// Offsets this pass reasons with stay far from i64's ends, so sums of two never wrap.
constexpr std::int64_t largest_offset = std::int64_t{1} << 40;

// `value` as base + offset, the offset a constant of a chain of adds and subtracts.
struct Offset {
  llvm::Value* base;
  std::int64_t offset;
};

Offset split_offset(llvm::Value* value) {
  std::int64_t offset = 0;
  for (;;) {
    llvm::Value* base = nullptr;
    const llvm::APInt* c = nullptr;
    std::int64_t step = 0;
    if (pm::match(value, pm::m_Add(pm::m_Value(base), pm::m_APInt(c))) ||
        pm::match(value, pm::m_Add(pm::m_APInt(c), pm::m_Value(base)))) {
      step = c->getSExtValue();
    } else if (pm::match(value, pm::m_Sub(pm::m_Value(base), pm::m_APInt(c))) &&
               !c->isMinSignedValue()) {
      step = -c->getSExtValue();
    } else {
      return {value, offset};
    }
    if (c->getBitWidth() != 64 || step > largest_offset || step < -largest_offset ||
        offset + step > largest_offset || offset + step < -largest_offset) {
      return {value, offset};
    }
    offset += step;
    value = base;
  }
}

// lhs < rhs (strict) or lhs <= rhs, compared signed or unsigned.
struct Fact {
  llvm::Value* lhs;
  llvm::Value* rhs;
  bool strict;
  bool is_unsigned;
};

void collect_facts(llvm::Value* condition, std::vector<Fact>& facts) {
  llvm::Value *a = nullptr, *b = nullptr;
  if (pm::match(condition, pm::m_LogicalAnd(pm::m_Value(a), pm::m_Value(b)))) {
    collect_facts(a, facts);
    collect_facts(b, facts);
    return;
  }
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(condition);
  if (!cmp || !cmp->getOperand(0)->getType()->isIntegerTy(64)) return;
  llvm::Value* l = cmp->getOperand(0);
  llvm::Value* r = cmp->getOperand(1);
  switch (cmp->getPredicate()) {
    case llvm::CmpInst::ICMP_SLT:
      facts.push_back({l, r, true, false});
      break;
    case llvm::CmpInst::ICMP_SLE:
      facts.push_back({l, r, false, false});
      break;
    case llvm::CmpInst::ICMP_SGT:
      facts.push_back({r, l, true, false});
      break;
    case llvm::CmpInst::ICMP_SGE:
      facts.push_back({r, l, false, false});
      break;
    case llvm::CmpInst::ICMP_ULT:
      facts.push_back({l, r, true, true});
      break;
    case llvm::CmpInst::ICMP_ULE:
      facts.push_back({l, r, false, true});
      break;
    case llvm::CmpInst::ICMP_UGT:
      facts.push_back({r, l, true, true});
      break;
    case llvm::CmpInst::ICMP_UGE:
      facts.push_back({r, l, false, true});
      break;
    default:
      break;
  }
}

bool is_id_builtin(const llvm::Value* v) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(v);
  const llvm::Function* f = call ? call->getCalledFunction() : nullptr;
  if (!f) return false;
  const llvm::StringRef name = f->getName();
  return name == builtin::global_id || name == builtin::local_id || name == builtin::group_id;
}

// The kernel's static work-group size per dimension, from the reqd_work_group_size specialize()
// sets for a static workgroup (0 where unknown): a local id lies below it.
using GroupSizes = std::array<std::uint64_t, 3>;

GroupSizes static_group_sizes(const llvm::Function& kernel) {
  GroupSizes sizes{};
  const llvm::MDNode* reqd = kernel.getMetadata("reqd_work_group_size");
  if (!reqd || reqd->getNumOperands() != 3) return sizes;
  for (unsigned d = 0; d < 3; ++d) {
    auto* c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(reqd->getOperand(d));
    if (c) sizes[d] = c->getZExtValue();
  }
  return sizes;
}

// What one check's block knows: the facts of the branches that lead to it, which values are
// never negative (ids, and the elements a launch passed), and a static group's local ids.
class Knowledge {
 public:
  Knowledge(std::vector<Fact> facts, const std::vector<llvm::Value*>& non_negative,
            const GroupSizes& group)
      : facts_(std::move(facts)), non_negative_(non_negative), group_(group) {}

  // The values an i64 expression of constants and ids can take, by interval arithmetic over
  // adds, subtracts, multiplies and left shifts (each wraps as the instruction does, so a
  // result that could wrap comes out as the full range); the full range for anything else.
  llvm::ConstantRange range(llvm::Value* v, unsigned depth = 0) const {
    const llvm::ConstantRange full(64, /*isFullSet=*/true);
    if (!v->getType()->isIntegerTy(64)) return full;
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) return llvm::ConstantRange(c->getValue());
    if (is_id_builtin(v)) {
      auto* call = llvm::cast<llvm::CallInst>(v);
      auto* dim = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
      if (call->getCalledFunction()->getName() == builtin::local_id && dim &&
          dim->getZExtValue() < 3 && group_[dim->getZExtValue()] > 0) {
        return llvm::ConstantRange(llvm::APInt(64, 0),
                                   llvm::APInt(64, group_[dim->getZExtValue()]));
      }
      return llvm::ConstantRange(llvm::APInt(64, 0), llvm::APInt::getSignedMinValue(64));
    }
    auto* op = llvm::dyn_cast<llvm::BinaryOperator>(v);
    if (!op || depth >= 8) return full;
    const llvm::ConstantRange a = range(op->getOperand(0), depth + 1);
    if (a.isFullSet()) return full;
    const llvm::ConstantRange b = range(op->getOperand(1), depth + 1);
    switch (op->getOpcode()) {
      case llvm::Instruction::Add:
        return a.add(b);
      case llvm::Instruction::Sub:
        return a.sub(b);
      case llvm::Instruction::Mul:
        return a.multiply(b);
      case llvm::Instruction::Shl:
        return a.shl(b);
      default:
        return full;
    }
  }

  bool never_negative(llvm::Value* v) const {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(v)) return !c->isNegative();
    return is_id_builtin(v) || llvm::is_contained(non_negative_, v);
  }

  // The least value `x` can have here, if known.
  std::optional<std::int64_t> lower_bound(llvm::Value* x) const {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(x)) {
      if (c->getBitWidth() == 64) return c->getSExtValue();
      return std::nullopt;
    }
    std::optional<std::int64_t> best;
    if (never_negative(x)) best = 0;
    for (const Fact& f : facts_) {
      std::optional<std::int64_t> bound;
      auto* k = llvm::dyn_cast<llvm::ConstantInt>(f.lhs);
      if (f.rhs == x && !f.is_unsigned && k && k->getBitWidth() == 64 &&
          k->getSExtValue() < largest_offset && k->getSExtValue() > -largest_offset) {
        bound = k->getSExtValue() + (f.strict ? 1 : 0);  // k < x or k <= x
      } else if (f.lhs == x && f.is_unsigned && never_negative(f.rhs)) {
        bound = 0;  // x <u e with e >= 0: x is in [0, e)
      }
      if (bound && (!best || *bound > *best)) best = bound;
    }
    return best;
  }

  // Whether base + offset < extent (signed) here.
  bool below(llvm::Value* base, std::int64_t offset, llvm::Value* extent) const {
    for (const Fact& f : facts_) {
      if (f.lhs != base) continue;
      // Unsigned, the bound says the same when it is not negative (and base is not either).
      if (f.is_unsigned && !never_negative(f.rhs)) continue;
      // base < extent + d, or <=; d <= 0, so extent + d did not wrap (extent >= 0 where it
      // bounds a non-negative base).
      const Offset bound = f.rhs == extent ? Offset{extent, 0} : split_offset(f.rhs);
      if (bound.base != extent || bound.offset > 0) continue;
      // Strict: base <= extent + d - 1, so base + offset < extent when d + offset <= 0;
      // else base <= extent + d, when d + offset < 0.
      const std::int64_t slack = bound.offset + offset;
      if (f.strict ? slack <= 0 : slack < 0) return true;
    }
    return false;
  }

  // Whether 0 <= index < extent here (signed, so the check's unsigned compare agrees: extent
  // is then above a non-negative index).
  bool inside(llvm::Value* index, llvm::Value* extent) const {
    // An expression of a static group's local ids and constants, against a constant extent.
    if (auto* e = llvm::dyn_cast<llvm::ConstantInt>(extent); e && e->getBitWidth() == 64) {
      const llvm::ConstantRange r = range(index);
      if (!r.isFullSet() && r.getSignedMin().isNonNegative() &&
          r.getSignedMax().slt(e->getValue())) {
        return true;
      }
    }
    const Offset at = split_offset(index);
    const auto low = lower_bound(at.base);
    if (!low || *low + at.offset < 0) return false;
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(at.base)) {
      // A constant index against a constant extent: the specialization's static sizes.
      auto* e = llvm::dyn_cast<llvm::ConstantInt>(extent);
      return e && c->getSExtValue() + at.offset < e->getSExtValue();
    }
    return below(at.base, at.offset, extent);
  }

 private:
  std::vector<Fact> facts_;
  const std::vector<llvm::Value*>& non_negative_;
  const GroupSizes& group_;
};

// The operands of `v` when it is an add (or a mul).
bool binary_operands(llvm::Value* v, llvm::Value*& a, llvm::Value*& b, bool add) {
  return add ? pm::match(v, pm::m_Add(pm::m_Value(a), pm::m_Value(b)))
             : pm::match(v, pm::m_Mul(pm::m_Value(a), pm::m_Value(b)));
}

// Whether `linear` is the view's Horner form over pairs [first, last) of `check` — the
// builder's offset of an array element (ir/memory.cpp, offset): from the slowest index,
// linear = (..(i_s * n_next) + i_next ..) with the pairs' own indices and extents.
bool is_horner(llvm::Value* linear, llvm::CallInst* check, unsigned rank, bool rows) {
  auto index = [&](unsigned d) { return check->getArgOperand(2 * d); };
  auto extent = [&](unsigned d) { return check->getArgOperand(2 * d + 1); };
  // Peel from the fastest dimension: linear = L * n_d + i_d.
  llvm::Value* rest = linear;
  for (unsigned k = 0; k + 1 < rank; ++k) {
    const unsigned d = rows ? rank - 1 - k : k;  // the fastest dimension not yet peeled
    llvm::Value *a = nullptr, *b = nullptr;
    if (!binary_operands(rest, a, b, true)) return false;
    llvm::Value* product = b == index(d) ? a : (a == index(d) ? b : nullptr);
    if (!product) return false;
    llvm::Value *x = nullptr, *y = nullptr;
    if (!binary_operands(product, x, y, false)) return false;
    if (y == extent(d)) {
      rest = x;
    } else if (x == extent(d)) {
      rest = y;
    } else {
      return false;
    }
  }
  return rest == index(rows ? 0 : rank - 1);
}

// The shaped parameter whose elements argument `elements` is, if any.
const ShapedParam* param_of(std::span<const ShapedParam> shaped, llvm::Value* elements) {
  for (const ShapedParam& p : shaped) {
    if (p.elements == elements) return &p;
  }
  return nullptr;
}

}  // namespace

bool linear_pair_follows(llvm::CallInst* check, const std::vector<bool>& holds,
                         std::span<const ShapedParam> shaped) {
  const unsigned pairs = check->arg_size() / 2;
  if (pairs == 0 || holds.size() < pairs - 1) return false;
  const ShapedParam* p = param_of(shaped, check->getArgOperand(2 * pairs - 1));
  if (!p) return false;
  const auto rank = static_cast<unsigned>(p->extents.size());
  // A vector access has one more pair, its last lane's; its view pairs are proven all the same.
  if (rank == 0 || pairs != rank + 1) return false;
  for (unsigned d = 0; d < rank; ++d) {
    if (!holds[d] || check->getArgOperand(2 * d + 1) != p->extents[d]) return false;
  }
  llvm::Value* linear = check->getArgOperand(2 * rank);
  return is_horner(linear, check, rank, false) || is_horner(linear, check, rank, true);
}

std::vector<ShapedParam> shaped_params(llvm::Function& kernel, const KernelInterface& def) {
  std::vector<ShapedParam> out;
  if (!def.bounds_checked()) return out;
  std::map<std::uint32_t, std::map<std::int32_t, llvm::Argument*>> extents;
  for (std::size_t i = 0; i < def.shape_args.size(); ++i) {
    const ShapeArg& s = def.shape_args[i];
    const std::size_t arg = def.hidden.first_shape + i;
    if (s.dim == ShapeArg::count_dim || arg >= kernel.arg_size()) continue;
    extents[s.param][s.dim] = kernel.getArg(static_cast<unsigned>(arg));
  }
  for (const auto& [param, dims] : extents) {
    if (param >= def.params.size() || !has_extent(def.params[param])) continue;
    const unsigned elements = def.hidden.extent_of(def.params, param);
    const auto rank = static_cast<std::int32_t>(dims.size());
    // Every dimension's extent, or the product would not be the elements passed.
    if (elements >= kernel.arg_size() || rank != def.params[param].rank ||
        dims.rbegin()->first != rank - 1) {
      continue;
    }
    ShapedParam p{kernel.getArg(elements), {}};
    for (const auto& [dim, arg] : dims) p.extents.push_back(arg);
    out.push_back(std::move(p));
  }
  return out;
}

unsigned drop_proven_bounds_checks(llvm::Function& kernel, std::span<const ShapedParam> shaped) {
  std::vector<llvm::CallInst*> checks;
  for (auto& block : kernel) {
    for (auto& inst : block) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
      const llvm::Function* f = call ? call->getCalledFunction() : nullptr;
      if (f && f->getName().startswith(marker_check) && call->arg_size() % 2 == 0) {
        checks.push_back(call);
      }
    }
  }
  if (checks.empty()) return 0;
  // The elements a launch passed are a count. (Not the shape extents: a launch checks only
  // their product, which one zero extent makes 0 whatever the others hold.)
  std::vector<llvm::Value*> non_negative;
  for (const ShapedParam& p : shaped) non_negative.push_back(p.elements);
  const GroupSizes group = static_group_sizes(kernel);
  // The condition of each branch whose taken side is entered from it alone: it holds in every
  // block that side dominates.
  llvm::DominatorTree tree(kernel);
  std::vector<std::pair<llvm::BasicBlock*, llvm::Value*>> guards;
  for (auto& block : kernel) {
    auto* br = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
    if (!br || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1)) continue;
    llvm::BasicBlock* taken = br->getSuccessor(0);
    if (taken->getSinglePredecessor() == &block) guards.push_back({taken, br->getCondition()});
  }
  // Every check is judged before any changes: a guard's condition may be a check itself.
  std::vector<std::vector<bool>> judged;
  for (llvm::CallInst* check : checks) {
    std::vector<Fact> facts;
    for (const auto& [taken, condition] : guards) {
      if (tree.dominates(taken, check->getParent())) collect_facts(condition, facts);
    }
    const Knowledge known(std::move(facts), non_negative, group);
    const unsigned pairs = check->arg_size() / 2;
    std::vector<bool> proven(pairs);
    for (unsigned k = 0; k < pairs; ++k) {
      proven[k] = known.inside(check->getArgOperand(2 * k), check->getArgOperand(2 * k + 1));
    }
    if (pairs > 0 && !proven[pairs - 1]) {
      proven[pairs - 1] = linear_pair_follows(check, proven, shaped);
    }
    judged.push_back(std::move(proven));
  }
  auto* i64 = llvm::Type::getInt64Ty(kernel.getContext());
  unsigned dropped = 0;
  for (std::size_t c = 0; c < checks.size(); ++c) {
    llvm::CallInst* check = checks[c];
    const std::vector<bool>& proven = judged[c];
    const auto pairs = static_cast<unsigned>(proven.size());
    if (pairs > 0 && std::all_of(proven.begin(), proven.end(), [](bool p) { return p; })) {
      check->replaceAllUsesWith(llvm::ConstantInt::getTrue(kernel.getContext()));
      check->eraseFromParent();
      ++dropped;
      continue;
    }
    for (unsigned k = 0; k < pairs; ++k) {
      if (!proven[k]) continue;
      check->setArgOperand(2 * k, llvm::ConstantInt::get(i64, 0));
      check->setArgOperand(2 * k + 1, llvm::ConstantInt::get(i64, 1));
    }
  }
  // The failure paths of the dropped checks go, and their joins' phis with them.
  if (dropped) fold_and_merge_blocks(kernel);
  return dropped;
}

}  // namespace spvjit::detail
