// The rewrite: the kernel's body is cloned twice into helper functions — a scalar one taking
// the index as an argument (the tail) and a vector one covering W indices — and the kernel
// itself becomes a dispatcher between them. Both helpers are always-inline; PoCL inlines them.
#include "jit/coarsen/coarsen.hpp"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include "common/error_report.hpp"
#include "ir/analysis/synchronizing.hpp"
#include "ir/canonical_form.hpp"
#include "ir/work_item_builtins.hpp"
#include "jit/coarsen/analysis.hpp"
#include "jit/coarsen/narrow_index.hpp"
#include "jit/coarsen/strips.hpp"
#include "jit/coarsen/swap_dimensions.hpp"
#include "jit/coarsen/masks.hpp"
#include "jit/device/split_vector_calls.hpp"
#include "jit/coarsen/vector.hpp"
#include "jit/bounds/proven_bounds.hpp"

namespace spvjit::detail {

namespace {

unsigned preferred_width(const VectorWidths& w, llvm::Type* t) {
  if (t->isFloatTy()) return w.f32;
  if (t->isDoubleTy()) return w.f64;
  switch (t->getIntegerBitWidth()) {
    case 8:
      return w.i8;
    case 16:
      return w.i16;
    case 32:
      return w.i32;
    default:
      return w.i64;
  }
}

// A copy of `kernel` as a spir_func with one more i64 argument, named `suffix`.
llvm::Function* clone_with_index(llvm::Function& kernel, const std::string& suffix,
                                 llvm::ValueToValueMapTy& map) {
  std::vector<llvm::Type*> types;
  for (auto& a : kernel.args()) types.push_back(a.getType());
  types.push_back(llvm::Type::getInt64Ty(kernel.getContext()));
  auto* type = llvm::FunctionType::get(kernel.getReturnType(), types, false);
  auto* f = llvm::Function::Create(type, llvm::Function::InternalLinkage, kernel.getName() + suffix,
                                   kernel.getParent());
  for (auto& a : kernel.args()) map[&a] = f->getArg(a.getArgNo());
  llvm::SmallVector<llvm::ReturnInst*, 4> returns;
  llvm::CloneFunctionInto(f, &kernel, map, llvm::CloneFunctionChangeType::LocalChangesOnly,
                          returns);
  f->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  f->setDSOLocal(true);  // the verifier's rule for internal linkage
  f->clearMetadata();    // kernel_arg_* and reqd_work_group_size belong to the kernel
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->getArg(kernel.arg_size())->setName("coarse.index");
  return f;
}

llvm::CallInst* call_helper(llvm::IRBuilderBase& b, llvm::Function& kernel, llvm::Function* helper,
                            llvm::Value* index) {
  std::vector<llvm::Value*> args;
  for (auto& a : kernel.args()) args.push_back(&a);
  args.push_back(index);
  auto* call = b.CreateCall(helper, args);
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

// The tail: the original body once per index below the extent, for indices base .. base+W-1.
llvm::Function* make_scalar_body(llvm::Function& kernel, const CoarsenPlan& plan) {
  llvm::ValueToValueMapTy map;
  auto* f = clone_with_index(kernel, ".scalar", map);
  llvm::Value* index = f->getArg(kernel.arg_size());
  for (auto& [inst, role] : plan.roles) {
    if (role == Role::Index) {
      auto* copy = llvm::cast<llvm::Instruction>(map[inst]);
      copy->replaceAllUsesWith(index);
      copy->eraseFromParent();
    }
  }
  return f;
}

// Whether `kernel` has a loop none of whose blocks is in `blocks`.
bool has_loop_without(llvm::Function& kernel,
                      const llvm::SmallPtrSetImpl<llvm::BasicBlock*>& blocks) {
  llvm::DominatorTree dt(kernel);
  llvm::LoopInfo loops(dt);
  for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
    if (llvm::none_of(loop->blocks(), [&](llvm::BasicBlock* b) { return blocks.contains(b); })) {
      return true;
    }
  }
  return false;
}

// What a plan runs lane by lane: loads and stores of one element per lane (gathers and
// scatters) and math calls once per lane, with the blocks of the former.
struct LaneWork {
  unsigned accesses = 0, calls = 0;
  llvm::SmallPtrSet<llvm::BasicBlock*, 8> access_blocks;

  LaneWork(const CoarsenPlan& plan, VectorMath math) {
    for (auto& [inst, role] : plan.roles) {
      if (role == Role::Gather) {
        for (auto* user : inst->users()) {
          if (llvm::isa<llvm::LoadInst>(user) || llvm::isa<llvm::StoreInst>(user)) {
            ++accesses;
            access_blocks.insert(llvm::cast<llvm::Instruction>(user)->getParent());
          }
        }
      }
      auto* call = llvm::dyn_cast<llvm::CallInst>(inst);
      if (role == Role::Vector && call && called_per_lane(*call, math)) ++calls;
    }
  }
  // One element per lane costs what the scalar kernel's access does, and PoCL's own vectorizer
  // may do better (a structure's fields as interleaved vector accesses): worth it only where a
  // loop free of them holds the kernel's time (n-body's, a docking score's loop over atoms).
  // Measured: a packing kernel of strided stores and no loop ran 1.2x slower coarsened.
  bool pays(llvm::Function& kernel) const {
    return accesses == 0 || has_loop_without(kernel, access_blocks);
  }
  // The kernel qualifies; coarsening it would not pay: left alone as for the device's sake, so
  // that a kernel declared elementwise() still compiles.
  static CoarsenResult would_not_pay() {
    return {1,
            "reads or writes memory one element per lane (an index other than get_global_id(0) "
            "plus a uniform value) and has no loop free of such accesses to pay for them",
            true};
  }
};

// Each round of if-conversion after the first is for branches the one before made varying (a
// masked loop's exit values); more rounds than this would be for branches on those, and so on.
constexpr unsigned max_if_conversion_rounds = 4;

// The vector body: a clone of the kernel, if-converted where its lanes may branch apart, then
// analysed again (if-conversion makes new varying values: masks, blends) and vectorized.
struct VectorBody {
  llvm::Function* function = nullptr;
  CoarsenPlan plan;
  LaneMasks masks;

  VectorMath math;
  bool grid_stride;  ///< CoarsenTarget::grid_stride_loops
  bool groups;       ///< lanes are consecutive work-items of one group (coarsen_in_groups)

  VectorBody(llvm::Function& kernel, const CoarsenPlan& kernel_plan, llvm::Value* extent0,
             const std::string& suffix, const CoarsenTarget& target, bool in_groups = false)
      : math(target.math), grid_stride(target.grid_stride_loops), groups(in_groups) {
    llvm::ValueToValueMapTy map;
    function = clone_with_index(kernel, suffix, map);
    std::vector<llvm::BranchInst*> divergent;
    for (auto* br : kernel_plan.divergent_branches) {
      divergent.push_back(llvm::cast<llvm::BranchInst>(map[br]));
    }
    masks = if_convert(*function, divergent, grid_stride);
    llvm::Value* extent =
        extent0 && map.count(extent0) ? static_cast<llvm::Value*>(map[extent0]) : extent0;
    // Stores were checked to be guarded on the kernel itself.
    plan = analyse_elementwise(*function, extent, /*exact_without_check=*/true, math, grid_stride,
                               groups);
    // A loop run under masks leaves each lane with its own values (a counter the same for every
    // lane inside the loop, each lane's count after it): branches on those differ between lanes
    // only now, and are if-converted in turn.
    for (unsigned round = 0; plan.ok() && !plan.divergent_branches.empty(); ++round) {
      std::string why = divergent_region_problem(*function, plan.divergent_branches, grid_stride);
      if (why.empty() && round == max_if_conversion_rounds) {
        why = "branches on a value that differs between lanes only after if-conversion";
      }
      if (!why.empty()) {
        plan.reason = why;
        break;
      }
      masks.merge(if_convert(*function, plan.divergent_branches, grid_stride));
      plan = analyse_elementwise(*function, extent, /*exact_without_check=*/true, math, grid_stride,
                                 groups);
    }
    if (!plan.ok()) {  // plan.reason says why
      function->eraseFromParent();
      function = nullptr;
    }
  }
  bool ok() const { return function != nullptr; }
  FastEntry vectorize(unsigned width, const FastChecks& fast, bool index_fits,
                      std::span<const unsigned> param_extents) {
    return vectorize_body(*function, plan, masks, width, math, fast, index_fits, param_extents);
  }
};

// The vectorizer answers every lane test; their declarations must not reach the translator.
void erase_unused_lane_tests(llvm::Module& m) {
  for (const char* marker : {every_lane_marker, no_lane_marker}) {
    if (auto* f = m.getFunction(marker); f && f->use_empty()) f->eraseFromParent();
  }
}

// Calls `helper` on the coarse indices g*U .. g*U+U-1 (U = `vectors`): one call when U is 1,
// else a loop. Leaves `b` in a new block after them.
void call_for_each_vector(llvm::IRBuilder<>& b, llvm::Function& kernel, llvm::Function* helper,
                          llvm::Value* g, unsigned vectors) {
  if (vectors == 1) {
    call_helper(b, kernel, helper, g);
    return;
  }
  auto& ctx = kernel.getContext();
  llvm::BasicBlock* before = b.GetInsertBlock();
  auto* first = b.CreateMul(g, b.getInt64(vectors), "first.vector", /*HasNUW=*/true);
  auto* loop = llvm::BasicBlock::Create(ctx, "vectors", &kernel);
  auto* after = llvm::BasicBlock::Create(ctx, "vectors.done", &kernel);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  auto* v = b.CreatePHI(b.getInt64Ty(), 2, "v");
  v->addIncoming(b.getInt64(0), before);
  call_helper(b, kernel, helper, b.CreateAdd(first, v, "", /*HasNUW=*/true));
  auto* next = b.CreateAdd(v, b.getInt64(1), "", /*HasNUW=*/true);
  v->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpULT(next, b.getInt64(vectors)), loop, after);
  b.SetInsertPoint(after);
}

// Strips (jit/coarsen/strips.hpp): the guard's bounds, and the bodies a strip runs.
struct Strips {
  GuardRange guard;
  llvm::Function* vector_body = nullptr;  ///< index_first_lane's form
  llvm::Function* scalar_body = nullptr;
};

// The kernel becomes (in dimension 0, or in the transposed frame of coarsen_dimension_1):
// g = get_global_id(0); base = U*W*g (U vectors of W indices per work-item); all U*W inside -> the
// vector body on coarse indices U*g .. U*g+U-1, else (the row's end) the vector body on each of
// them whose W indices are all inside and the scalar body on the indices of the one that straddles
// the extent. With a `fast_body` (the bounds checks the dispatcher can make for a whole
// work-item left out, vector.hpp), a work-item whose U*W indices lie below `fast_end` (the least
// of ndrange(0) and every extent, from the launch) and that passes the `fast_entry` tests runs it
// instead: the few compares per work-item an unchecked kernel makes. With `strips`, such a
// work-item runs a strip instead (emit_strip, jit/coarsen/strips.hpp).
void make_dispatcher(llvm::Function& kernel, llvm::Value* extent0, llvm::Function* vector_body,
                     llvm::Function* fast_body, llvm::Value* fast_end, const FastEntry& fast_entry,
                     llvm::Function* scalar_body, unsigned width, unsigned vectors,
                     const Strips* strips) {
  auto& ctx = kernel.getContext();
  llvm::Function* gid = kernel.getParent()->getFunction(builtin::global_id);
  // The guard's bounds, computed again from the arguments before the kernel's blocks go.
  std::vector<llvm::Value*> lows, highs;
  llvm::BasicBlock* bounds = nullptr;
  if (strips) {
    bounds = llvm::BasicBlock::Create(ctx, "strip.bounds");
    llvm::IRBuilder<> at(bounds);
    for (const GuardBound& low : strips->guard.lows) lows.push_back(emit_bound(at, low, false));
    for (const GuardBound& high : strips->guard.highs) highs.push_back(emit_bound(at, high, true));
  }
  // The kernel's blocks go; extent0 (an argument or constant) survives them.
  kernel.dropAllReferences();
  while (!kernel.empty()) kernel.begin()->eraseFromParent();
  auto* entry = llvm::BasicBlock::Create(ctx, "entry", &kernel);
  if (bounds) {
    entry->getInstList().splice(entry->end(), bounds->getInstList());
    delete bounds;
  }
  auto* done = llvm::BasicBlock::Create(ctx, "done");  // inserted last: SPIR-V wants blocks
                                                       // in dominance order
  llvm::IRBuilder<> b(entry);
  auto* g = b.CreateCall(gid, {b.getInt32(0)});
  g->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  const unsigned per_item = width * vectors;
  auto* base = b.CreateMul(g, b.getInt64(per_item), "base", /*HasNUW=*/true);
  auto* end = b.CreateAdd(base, b.getInt64(per_item), "end", /*HasNUW=*/true);
  if (strips) {
    // Whole vectors below `limit` (every bound the strip body's left-out checks stand for),
    // the indices from there to the strip's end one by one, with their checks.
    auto* strip = llvm::BasicBlock::Create(ctx, "strip", &kernel);
    auto* checked = fast_body ? llvm::BasicBlock::Create(ctx, "checked", &kernel) : nullptr;
    llvm::Value* limit = fast_body ? fast_end : (extent0 ? extent0 : end);
    llvm::Value* ids_fit = b.getTrue();
    if (fast_body) {
      for (unsigned a : fast_entry.index_below) {
        limit = b.CreateSelect(b.CreateICmpULT(kernel.getArg(a), limit), kernel.getArg(a), limit);
      }
      for (auto [d, a] : fast_entry.id_below) {
        auto* id = b.CreateCall(gid, {b.getInt32(d)});
        id->setCallingConv(llvm::CallingConv::SPIR_FUNC);
        ids_fit = b.CreateAnd(ids_fit, b.CreateICmpULT(id, kernel.getArg(a)));
      }
      b.CreateCondBr(ids_fit, strip, checked,
                     llvm::MDBuilder(ctx).createBranchWeights(1u << 20, 1));
    } else {
      b.CreateBr(strip);
    }
    b.SetInsertPoint(strip);
    llvm::Value* stop = b.CreateSelect(b.CreateICmpULT(limit, end), limit, end);
    stop = b.CreateSelect(b.CreateICmpULT(stop, base), base, stop, "strip.stop");
    const auto call = [&](llvm::IRBuilderBase& at, llvm::Function* body, llvm::Value* index) {
      call_helper(at, kernel, body, index);
    };
    auto [from, to] = accepted_part(b, base, stop, lows, highs);
    emit_strip(b, from, to, strips->vector_body, strips->scalar_body, width, call);
    // Past the limit, the indices the guard accepts one by one: beyond a buffer's extent
    // (checked and reported by the scalar body); past the ndrange, none but a padding kernel's
    // (whose guard turns its padding away: the bounds leave most of it out).
    llvm::Value* rest_end =
        extent0 ? b.CreateSelect(b.CreateICmpULT(extent0, end), extent0, end) : end;
    auto [rest_from, rest_to] = accepted_part(b, stop, rest_end, lows, highs);
    emit_index_loop(b, rest_from, rest_to, strips->scalar_body, call, done);
    if (!fast_body) {
      done->insertInto(&kernel);
      b.SetInsertPoint(done);
      b.CreateRetVoid();
      return;
    }
    b.SetInsertPoint(checked);
  } else if (fast_body) {
    auto* fast = llvm::BasicBlock::Create(ctx, "fast", &kernel);
    auto* checked = llvm::BasicBlock::Create(ctx, "checked", &kernel);
    llvm::Value* fits = b.CreateICmpULE(end, fast_end);
    for (unsigned a : fast_entry.index_below) {
      fits = b.CreateAnd(fits, b.CreateICmpULE(end, kernel.getArg(a)));
    }
    for (auto [d, a] : fast_entry.id_below) {
      auto* id = b.CreateCall(gid, {b.getInt32(d)});
      id->setCallingConv(llvm::CallingConv::SPIR_FUNC);
      fits = b.CreateAnd(fits, b.CreateICmpULT(id, kernel.getArg(a)));
    }
    // Weighted: a launch that passes enough memory never leaves the fast path.
    b.CreateCondBr(fits, fast, checked, llvm::MDBuilder(ctx).createBranchWeights(1u << 20, 1));
    b.SetInsertPoint(fast);
    call_for_each_vector(b, kernel, fast_body, g, vectors);
    b.CreateBr(done);
    b.SetInsertPoint(checked);
  }
  auto* full = llvm::BasicBlock::Create(ctx, "full", &kernel);
  // Without an extent every lane runs, as the padded work-items it stands for would: no tail.
  auto* tail = extent0 ? llvm::BasicBlock::Create(ctx, "tail", &kernel) : nullptr;
  if (extent0) {
    b.CreateCondBr(b.CreateICmpULE(end, extent0), full, tail);
  } else {
    b.CreateBr(full);
  }
  b.SetInsertPoint(full);
  call_for_each_vector(b, kernel, vector_body, g, vectors);
  b.CreateBr(done);

  if (extent0) {
    // Whole vectors while they fit below the extent, then the scalar body on the rest of the
    // one that straddles it.
    b.SetInsertPoint(tail);
    llvm::Value* scalar_from = base;
    if (vectors > 1) {
      auto* next_vector = llvm::BasicBlock::Create(ctx, "tail.vectors", &kernel);
      auto* whole = llvm::BasicBlock::Create(ctx, "tail.vector", &kernel);
      auto* rest = llvm::BasicBlock::Create(ctx, "tail.rest", &kernel);
      auto* first = b.CreateMul(g, b.getInt64(vectors), "first.vector", /*HasNUW=*/true);
      b.CreateBr(next_vector);
      b.SetInsertPoint(next_vector);
      auto* c = b.CreatePHI(b.getInt64Ty(), 2, "c");
      c->addIncoming(first, tail);
      auto* from = b.CreateMul(c, b.getInt64(width), "from", /*HasNUW=*/true);
      // The work-item's last vector cannot fit (the whole strip did not): no bound on c needed.
      b.CreateCondBr(b.CreateICmpULE(b.CreateAdd(from, b.getInt64(width), "", true), extent0),
                     whole, rest);
      b.SetInsertPoint(whole);
      call_helper(b, kernel, vector_body, c);
      c->addIncoming(b.CreateAdd(c, b.getInt64(1), "", true), whole);
      b.CreateBr(next_vector);
      b.SetInsertPoint(rest);
      scalar_from = from;
    }
    llvm::BasicBlock* from_block = b.GetInsertBlock();
    auto* limit = b.CreateSelect(b.CreateICmpULT(end, extent0), end, extent0, "limit");
    auto* loop = llvm::BasicBlock::Create(ctx, "tail.loop", &kernel);
    auto* body = llvm::BasicBlock::Create(ctx, "tail.body", &kernel);
    b.CreateBr(loop);
    b.SetInsertPoint(loop);
    auto* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
    i->addIncoming(scalar_from, from_block);
    b.CreateCondBr(b.CreateICmpULT(i, limit), body, done);
    b.SetInsertPoint(body);
    call_helper(b, kernel, scalar_body, i);
    i->addIncoming(b.CreateAdd(i, b.getInt64(1), "", true), body);
    b.CreateBr(loop);
  }
  done->insertInto(&kernel);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

// The ndrange's dimension 0 inside `kernel`: the static size, or the hidden argument; null for
// a kernel that knows neither.
llvm::Value* ndrange_extent_0(llvm::Function& kernel, const KernelModule& def,
                              const Specialization& spec) {
  if (spec.ndrange) {
    return llvm::ConstantInt::get(llvm::Type::getInt64Ty(kernel.getContext()),
                                  spec.ndrange->size[0]);
  }
  if (def.hidden_ndrange() && def.hidden.ndrange < kernel.arg_size()) {
    return kernel.getArg(def.hidden.ndrange);
  }
  return nullptr;
}

// The interior test a strip would run from (jit/coarsen/strips.hpp), where `kernel` may run
// strips: like U vectors, only without a static workgroup, whose work-items are the kernel's
// own; and its lanes may run twice. `refused` says why not for a kernel with such a test.
std::optional<GuardRange> strip_guard(llvm::Function& kernel, const llvm::Value* extent0,
                                      const Specialization& spec, const CoarsenTarget& target,
                                      std::string& refused) {
  if (target.strip_vectors < 2 || spec.workgroup) return std::nullopt;
  GuardRange guard = find_guard_range(kernel, extent0);
  if (!guard.interior) return std::nullopt;
  refused = lanes_rerun_problem(kernel);
  if (!refused.empty()) return std::nullopt;
  return guard;
}

// The lanes `plan` runs at: the forced width, else the device's for its widest element; 1 when
// the device prefers scalars. Builtins taking vectors wider than the kernel library's registers
// (256 bits for PoCL built for x86-64-v3) return garbage from SPIR-V input: PoCL's SPIR wrapper
// passes them through a stack slot with a `tail call` lacking `byval`, so LLVM deletes the store
// (see jit/device/split_vector_calls.hpp). 256 bits are exact, and plain loads, arithmetic and
// stores are exact at any width. (Calls in Vec<T, N> code are split instead.)
unsigned plan_width(const CoarsenTarget& target, const CoarsenPlan& plan) {
  unsigned width =
      target.forced_width > 1 ? target.forced_width : preferred_width(target.widths, plan.widest);
  if (width >= 2 && plan.widest_call_bits > 0) {
    width = std::min(width, std::max(2u, max_builtin_vector_bits / plan.widest_call_bits));
  }
  return width;
}

// The widest of 16, 8, 4, 2 at most `width` that divides `size`; 1 when none does.
unsigned width_dividing(unsigned width, std::uint64_t size) {
  while (width > 1 && size % width != 0) width /= 2;
  return width;
}

// A kernel with barriers and a static workgroup G, coarsened in groups (CoarsenTarget::groups):
// its body becomes the vector body on the coarsened work-item's global id, inlined (the group
// loops and PoCL find its barriers in the kernel), each work-item standing for W consecutive
// work-items of its group: get_global_id(0) and get_local_id(0) W lanes from W times the
// coarsened one's, get_group_id(0) the same. Every work-item of a group reaches each barrier
// (the builder checks it), so the W lanes do together, and the coarsened work-item waits there
// once for them. The group is G(0)/W coarsened work-items (reqd_work_group_size, and the launch:
// EntryLaunch::coarsen_groups); the launch pads no more than the kernel's own groups did, so
// every lane is one of the kernel's work-items and there is no tail.
CoarsenResult coarsen_in_groups(llvm::Function& kernel, const WorkGroup& group,
                                const CoarsenTarget& target) {
  CoarsenPlan plan = analyse_elementwise(kernel, nullptr, /*exact_without_check=*/true, target.math,
                                         target.grid_stride_loops, /*groups=*/true);
  if (!plan.ok()) return {1, plan.reason};
  if (!plan.widest) {
    return {1, "reads and writes no memory by get_global_id(0) or get_local_id(0)"};
  }
  const LaneWork lane_work(plan, target.math);
  if (!lane_work.pays(kernel)) return lane_work.would_not_pay();
  unsigned width = plan_width(target, plan);
  if (width < 2) return {1, "the device prefers scalars for this element type", true};
  width = width_dividing(width, group.size[0]);
  if (width < 2) {
    return {1,
            "has barriers and a static workgroup whose dimension 0 (" +
                std::to_string(group.size[0]) + ") is odd: no group of work-items divides",
            true};
  }
  VectorBody body(kernel, plan, nullptr, ".group.w" + std::to_string(width), target,
                  /*in_groups=*/true);
  if (!body.ok()) {
    erase_unused_lane_tests(*kernel.getParent());
    return {1, body.plan.reason};
  }
  const std::vector<unsigned> no_extents(kernel.arg_size(), HiddenArgs::none);
  body.vectorize(width, FastChecks{}, /*index_fits=*/false, no_extents);
  erase_unused_lane_tests(*kernel.getParent());
  // The kernel's blocks go; its body is the vector body's, inlined: without the kernel's noalias
  // on the body's parameters, which inlining would turn into scope declarations and metadata
  // the translator does not know (the kernel keeps them).
  for (auto& argument : body.function->args()) argument.removeAttr(llvm::Attribute::NoAlias);
  auto& ctx = kernel.getContext();
  kernel.dropAllReferences();
  while (!kernel.empty()) kernel.begin()->eraseFromParent();
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", &kernel));
  llvm::Value* g = builtin_call(b, *kernel.getParent(), builtin::global_id, 0);
  llvm::CallInst* call = call_helper(b, kernel, body.function, g);
  b.CreateRetVoid();
  llvm::InlineFunctionInfo inlined;
  internal_assert(llvm::InlineFunction(*call, inlined).isSuccess())
      << "coarsening kernel '" << kernel.getName().str() << "' in groups: its body did not inline";
  body.function->eraseFromParent();
  // The coarsened work-items' group.
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  std::vector<llvm::Metadata*> sizes;
  for (unsigned d = 0; d < 3; ++d) {
    const std::uint64_t size = d == 0 ? group.size[0] / width : group.size[d];
    sizes.push_back(llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, size)));
  }
  kernel.setMetadata("reqd_work_group_size", llvm::MDNode::get(ctx, sizes));
  CoarsenResult result{width, {}, false, 1, 0, lane_work.accesses, lane_work.calls};
  result.groups = true;
  return result;
}

}  // namespace

bool may_run_strips(llvm::Module& m, const KernelModule& def, const Specialization& spec,
                    const CoarsenTarget& target) {
  llvm::Function* kernel = m.getFunction(def.name);
  if (!kernel || kernel->isDeclaration()) return false;
  llvm::Value* extent0 = ndrange_extent_0(*kernel, def, spec);
  if (!extent0 && !def.pads_safely) return false;
  // As coarsen_elementwise reads the guard: on the widened index (undone on return).
  WidenedIndex widened = widen_narrowed_global_ids(
      *kernel, spec.ndrange ? std::optional<std::uint64_t>(spec.ndrange->size[0]) : std::nullopt);
  std::string refused;
  return strip_guard(*kernel, extent0, spec, target, refused).has_value();
}

CoarsenResult coarsen_elementwise(llvm::Module& m, const KernelModule& def,
                                  const Specialization& spec, const CoarsenTarget& target) {
  llvm::Function* kernel = m.getFunction(def.name);
  if (!kernel || kernel->isDeclaration() || !kernel->getReturnType()->isVoidTy()) {
    return {1, "has no kernel body"};
  }
  if (target.groups && spec.workgroup && contains(*kernel, Waiting::GroupBarrier)) {
    assert_canonical(*kernel, "coarsen");
    return coarsen_in_groups(*kernel, *spec.workgroup, target);
  }
  llvm::Value* extent0 = ndrange_extent_0(*kernel, def, spec);
  if (!extent0 && !def.pads_safely) {
    return {1,
            "does not know its ndrange (it never reads in_ndrange() or ndrange()) and did not "
            "declare allow_padding()"};
  }
  // A static workgroup dividing a static ndrange launches exactly ndrange(0) indices, so the
  // bounds check may have been folded away (jit/specialize.cpp); a kernel that pads safely
  // without knowing its ndrange guards itself.
  const bool exact = (spec.ndrange && spec.workgroup && spec.workgroup->size[0] != 0 &&
                      spec.ndrange->size[0] % spec.workgroup->size[0] == 0) ||
                     !extent0;
  // The canonicalize step's form (ir/canonical_form.hpp): variables as phis, from which the
  // analysis tells which vary; no unreachable block and one return, for if-conversion.
  assert_canonical(*kernel, "coarsen");
  // Undone when this returns without coarsening (WidenedIndex's destructor).
  WidenedIndex widened = widen_narrowed_global_ids(
      *kernel, spec.ndrange ? std::optional<std::uint64_t>(spec.ndrange->size[0]) : std::nullopt);
  CoarsenPlan plan =
      analyse_elementwise(*kernel, extent0, exact, target.math, target.grid_stride_loops);
  if (!plan.ok()) return {1, plan.reason};
  if (!plan.widest) return {1, "reads and writes no global memory by get_global_id(0)"};
  // What runs lane by lane, for the log (counted here: the dispatcher replaces the kernel's body).
  const LaneWork lane_work(plan, target.math);
  const unsigned lane_accesses = lane_work.accesses, lane_calls = lane_work.calls;
  if (auto why =
          divergent_region_problem(*kernel, plan.divergent_branches, target.grid_stride_loops);
      !why.empty()) {
    return {1, why};
  }
  if (!lane_work.pays(*kernel)) return lane_work.would_not_pay();
  const unsigned width = plan_width(target, plan);
  if (width < 2) return {1, "the device prefers scalars for this element type", true};
  // 3 is left out: a float3 occupies 16 bytes in OpenCL, so its loads do not tile an array.
  if (width != 2 && width != 4 && width != 8 && width != 16) {
    return {1, "width " + std::to_string(width) + " is not 2, 4, 8 or 16", true};
  }
  // Bounds checks of get_global_id(0) itself against a buffer's extent pass for every full
  // vector below the least extent the launch passed, and those of a global id against any
  // argument pass or fail for the whole work-item: a second vector body without them, for the
  // work-items the dispatcher finds inside.
  const bool has_fast_end = def.bounds_checked();
  // The name carries the width, for people reading the SPIR-V (`spvjit dump <kernel>`).
  VectorBody vector_body(*kernel, plan, extent0, ".vector.w" + std::to_string(width), target);
  if (!vector_body.ok()) {
    erase_unused_lane_tests(m);
    return {1, vector_body.plan.reason};
  }
  // Each pointer argument's hidden extent, for partial vectors whose checks were proven away.
  std::vector<unsigned> param_extents(kernel->arg_size(), HiddenArgs::none);
  if (has_fast_end) {
    for (unsigned p = 0; p < def.params.size() && p < param_extents.size(); ++p) {
      if (has_extent(def.params[p])) param_extents[p] = def.hidden.extent_of(def.params, p);
    }
  }
  FastChecks checks;
  std::vector<ShapedParam> vector_shaped, fast_shaped;
  if (has_fast_end) {
    checks.covered = {def.hidden.first_extent, def.hidden.record};
    checks.work_item_checks = target.work_item_checks;
    vector_shaped = shaped_params(*vector_body.function, def);
    checks.shaped = vector_shaped;
  }
  FastEntry entry = vector_body.vectorize(width, checks, /*index_fits=*/false, param_extents);
  // Strips for a kernel guarded by an interior test (jit/coarsen/strips.hpp).
  std::optional<Strips> strips;
  std::string strips_refused;
  if (auto guard = strip_guard(*kernel, extent0, spec, target, strips_refused)) {
    strips = Strips{std::move(*guard), nullptr, nullptr};
  }
  llvm::Function* fast_body = nullptr;
  llvm::Value* fast_end = nullptr;
  if (entry.leaves_checks_out) fast_end = kernel->getArg(def.hidden.fast_end);
  if (strips) {
    // The strip's body: the kernel with the guard's range conjuncts true (its vectors lie inside
    // the bounds), vectorized as the fast body where there is one, else as the vector body.
    llvm::ValueToValueMapTy map;
    llvm::Function* interior = interior_copy(*kernel, strips->guard, map);
    llvm::Value* interior_extent =
        extent0 && map.count(extent0) ? static_cast<llvm::Value*>(map[extent0]) : extent0;
    const CoarsenPlan interior_plan = analyse_elementwise(*interior, interior_extent, exact,
                                                          target.math, target.grid_stride_loops);
    std::optional<VectorBody> body;
    if (interior_plan.ok()) {
      body.emplace(*interior, interior_plan, interior_extent, ".strip.w" + std::to_string(width),
                   target);
    }
    interior->eraseFromParent();
    if (!body || !body->ok()) {
      strips_refused = "cannot be vectorized with its interior test taken as passed";
      strips.reset();
    } else {
      std::vector<ShapedParam> strip_shaped;
      if (has_fast_end) {
        strip_shaped = shaped_params(*body->function, def);
        checks.shaped = strip_shaped;
      }
      FastEntry strip_entry =
          body->vectorize(width, checks, /*index_fits=*/fast_end != nullptr, param_extents);
      if (!index_first_lane(*body->function, width)) {
        body->function->eraseFromParent();
        strips_refused =
            "its vector body uses the work-item's index otherwise than as its first lane";
        strips.reset();
      } else {
        strips->vector_body = body->function;
        if (fast_end) {
          fast_body = body->function;
          entry = std::move(strip_entry);
        }
      }
    }
  }
  if (!strips && entry.leaves_checks_out) {
    VectorBody fast(*kernel, plan, extent0, ".fast.w" + std::to_string(width), target);
    fast_shaped = shaped_params(*fast.function, def);
    checks.shaped = fast_shaped;
    entry = fast.vectorize(width, checks, /*index_fits=*/true, param_extents);
    fast_body = fast.function;
  }
  auto* scalar_body = extent0 || strips ? make_scalar_body(*kernel, plan) : nullptr;
  if (strips) strips->scalar_body = scalar_body;
  erase_unused_lane_tests(m);
  // U vectors per work-item divide a dynamic workgroup's work-items; a static workgroup's are
  // the kernel's own (and its ndrange may be exact for W alone).
  const unsigned vectors = strips           ? target.strip_vectors
                           : spec.workgroup ? 1u
                                            : std::max(target.vectors_per_item, 1u);
  make_dispatcher(*kernel, extent0, vector_body.function, fast_body, fast_end, entry, scalar_body,
                  width, vectors, strips ? &*strips : nullptr);
  // Without a fast body, strips run every vector of the kernel: the checked one goes unused.
  if (strips && !fast_body) vector_body.function->eraseFromParent();
  widened.keep();
  CoarsenResult result{width, {}, false, vectors, widened.bits(), lane_accesses, lane_calls};
  result.strips = strips.has_value();
  result.strips_refused = std::move(strips_refused);
  if (fast_body) {
    result.work_item_tests =
        static_cast<unsigned>(entry.index_below.size() + entry.id_below.size());
  }
  return result;
}

CoarsenResult coarsen_dimension_1(llvm::Module& m, const KernelModule& def,
                                  const Specialization& spec, const CoarsenTarget& target) {
  llvm::Function* kernel = m.getFunction(def.name);
  if (!kernel || kernel->isDeclaration()) return {1, "has no kernel body"};
  const unsigned ndrange_arg = def.hidden_ndrange() ? def.hidden.ndrange : HiddenArgs::none;
  if (!swap_dimensions_0_and_1(m, *kernel, ndrange_arg)) {
    return {1, "asks a work-item query about a dimension that is not a constant"};
  }
  // A failing access is reported by the coarsened dimension's id, as in dimension 0 (the
  // lowering writes it into the record as dimension 1's: pipeline.cpp).
  if (!retarget_reports(m, 1, 0)) {
    swap_dimensions_0_and_1(m, *kernel, ndrange_arg);
    return {1, "reports a bounds failure without its global index"};
  }
  // The kernel now sees the transposed launch: so must the coarsener.
  Specialization transposed = spec;
  if (transposed.ndrange) {
    std::swap(transposed.ndrange->size[0], transposed.ndrange->size[1]);
    transposed.ndrange->dims = std::max(transposed.ndrange->dims, 2u);
  }
  if (transposed.workgroup) {
    std::swap(transposed.workgroup->size[0], transposed.workgroup->size[1]);
    transposed.workgroup->dims = std::max(transposed.workgroup->dims, 2u);
  }
  // In groups only along dimension 0 (the launch divides that of the static workgroup).
  CoarsenTarget along_1 = target;
  along_1.groups = false;
  CoarsenResult r = coarsen_elementwise(m, def, transposed, along_1);
  // Back, the dispatcher and the bodies included: get_global_id(1) is the coarse index now.
  swap_dimensions_0_and_1(m, *kernel, ndrange_arg);
  if (r.width > 1) {
    r.dimension = 1;
  } else {
    // The kernel as it came: reports by get_global_id(0), as they were before the swap.
    [[maybe_unused]] const bool restored = retarget_reports(m, 1, 0);
    assert(restored && "a failed attempt left a report's id in another form");
  }
  return r;
}

}  // namespace spvjit::detail
