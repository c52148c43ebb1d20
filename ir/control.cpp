// Structured control flow for the builder: if/else, loops, break and continue. Each construct
// opens blocks on `begin_*` and joins them on `end_*`; a scope ended by break/return continues
// in a fresh block so code after it stays well-formed (and unreachable).
#include <llvm/IR/Constants.h>

#include <cstdlib>

#include "common/error_report.hpp"
#include "ir/state.hpp"
#include "spvjit/builder.hpp"

namespace spvjit {

namespace {
llvm::BasicBlock* block(void* p) { return static_cast<llvm::BasicBlock*>(p); }

void branch_if_open(llvm::IRBuilder<>& ir, llvm::BasicBlock* to) {
  if (!ir.GetInsertBlock()->getTerminator()) ir.CreateBr(to);
}
}  // namespace

detail::ScopeHandle KernelBuilder::begin_if(Val<bool> cond) {
  auto& s = *state_;
  s.check_open("if_");
  s.check_same_builder(cond, "if_");
  auto* then_block = llvm::BasicBlock::Create(s.ctx(), "if.then", s.kernel);
  auto* else_block = llvm::BasicBlock::Create(s.ctx(), "if.else", s.kernel);
  auto* merge = llvm::BasicBlock::Create(s.ctx(), "if.end", s.kernel);
  s.ir.CreateCondBr(detail::llvm_of(cond), then_block, else_block);
  s.ir.SetInsertPoint(then_block);
  return detail::ScopeHandle{{then_block, else_block, merge}};
}

void KernelBuilder::begin_else(detail::ScopeHandle& h) {
  auto& s = *state_;
  branch_if_open(s.ir, block(h.blocks[2]));
  s.ir.SetInsertPoint(block(h.blocks[1]));
}

void KernelBuilder::end_if(detail::ScopeHandle& h) {
  auto& s = *state_;
  branch_if_open(s.ir, block(h.blocks[2]));
  auto* else_block = block(h.blocks[1]);
  if (!else_block->getTerminator()) {  // no else branch was built, or it fell through
    llvm::IRBuilder<> b(else_block);
    b.CreateBr(block(h.blocks[2]));
  }
  s.ir.SetInsertPoint(block(h.blocks[2]));
}

detail::ScopeHandle KernelBuilder::begin_loop() {
  auto& s = *state_;
  s.check_open("loop");
  auto* header = llvm::BasicBlock::Create(s.ctx(), "loop.header", s.kernel);
  auto* latch = llvm::BasicBlock::Create(s.ctx(), "loop.latch", s.kernel);
  auto* exit = llvm::BasicBlock::Create(s.ctx(), "loop.exit", s.kernel);
  s.ir.CreateBr(header);
  s.ir.SetInsertPoint(header);
  s.loops.push_back({latch, exit});
  return detail::ScopeHandle{{header, latch, exit}};
}

void KernelBuilder::loop_condition(detail::ScopeHandle& h, Val<bool> cond) {
  auto& s = *state_;
  s.check_same_builder(cond, "loop condition");
  auto* body = llvm::BasicBlock::Create(s.ctx(), "loop.body", s.kernel);
  s.ir.CreateCondBr(detail::llvm_of(cond), body, block(h.blocks[2]));
  s.ir.SetInsertPoint(body);
}

void KernelBuilder::loop_latch(detail::ScopeHandle& h) {
  auto& s = *state_;
  branch_if_open(s.ir, block(h.blocks[1]));
  s.ir.SetInsertPoint(block(h.blocks[1]));
}

void KernelBuilder::end_loop(detail::ScopeHandle& h) {
  auto& s = *state_;
  branch_if_open(s.ir, block(h.blocks[0]));
  s.loops.pop_back();
  s.ir.SetInsertPoint(block(h.blocks[2]));
}

namespace detail {
void throw_loop_literal_range(const BuilderState* state, const char* what, const std::string& value,
                              Scalar counter) {
  user_error({"for_", kernel_name(state)})
      << "the " << what << " " << value << " does not fit the counter's type " << name(counter)
      << " (the type of the loop's kernel-value bounds); use a wider or signed counter";
  std::abort();  // not reached: the report throws at the end of its statement
}
}  // namespace detail

namespace {
// The largest and smallest values of an integer type, as kernel constants.
Value type_max(detail::BuilderState* s, Scalar t) {
  const unsigned bits = size_of(t) * 8;
  const std::uint64_t ones = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  return constant_int(s, t, is_signed(t) ? ones >> 1 : ones);
}
Value type_min(detail::BuilderState* s, Scalar t) {
  const unsigned bits = size_of(t) * 8;
  return constant_int(s, t, is_signed(t) ? std::uint64_t{1} << (bits - 1) : 0);
}
}  // namespace

// A counted loop tests its end in the header (`i < end`, `i > end`, or `<=`/`>=` for an
// inclusive end), and steps in the latch, which continue_ reaches too. Where `i + step` could
// overflow before the test fails (an inclusive end at the type's limit, a step above 1), the
// latch leaves first: a loop never wraps around and runs forever. A step that is a constant
// builds only the comparison its sign needs, so `for_(0, n, 1)` is the plain `i < n` loop.
detail::CountedLoop KernelBuilder::begin_counted_loop(Value first, Value last, Value step,
                                                      bool inclusive) {
  auto& s = *state_;
  s.check_open("for_");
  s.check_same_builder(first, "for_ (first)");
  s.check_same_builder(last, "for_ (end)");
  s.check_same_builder(step, "for_ (step)");
  detail::CountedLoop h;
  h.step = step;
  h.last = last;
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(detail::llvm_of(step))) {
    user_assert(!c->isZero(), {"for_", s.name})
        << "the step is 0, so the loop would never end; a step known only at run time may be 0 "
           "(the loop then runs no iterations)";
    h.direction = is_signed(step.type()) && c->isNegative() ? -1 : 1;
    h.guard_overflow = inclusive || !(c->isOne() || c->isMinusOne());
  } else {
    h.guard_overflow = true;
  }
  h.counter = make_variable(first.type());
  store(h.counter, detail::literal(state_.get(), std::int64_t{0}), first);
  h.scope = begin_loop();
  const Value i = load(h.counter, detail::literal(state_.get(), std::int64_t{0}));
  const CompareOp up = inclusive ? CompareOp::Le : CompareOp::Lt;
  const CompareOp down = inclusive ? CompareOp::Ge : CompareOp::Gt;
  Value go;
  if (h.direction > 0) {
    go = compare(up, i, last);
  } else if (h.direction < 0) {
    go = compare(down, i, last);
  } else {
    // The step's sign picks the test; a step of 0 fails both, and the loop runs no iterations.
    const Value zero = constant_int(state_.get(), step.type(), 0);
    const Value upward = compare(CompareOp::Gt, step, zero);
    const Value downward =
        binary(BinaryOp::And, compare(CompareOp::Lt, step, zero), compare(down, i, last));
    go = select(upward, compare(up, i, last), downward);
  }
  loop_condition(h.scope, Val<bool>(go));
  return h;
}

void KernelBuilder::end_counted_loop(detail::CountedLoop& h) {
  auto& s = *state_;
  loop_latch(h.scope);
  const Value zero_index = detail::literal(state_.get(), std::int64_t{0});
  const Value i = load(h.counter, zero_index);
  const Scalar t = i.type();
  if (h.guard_overflow) {
    // i + step overflows exactly when i > max - step (step > 0) or i < min - step (step < 0);
    // each difference is computed where it cannot overflow itself.
    auto* st = state_.get();
    auto past_max = [&] {
      return compare(CompareOp::Gt, i, binary(BinaryOp::Sub, type_max(st, t), h.step));
    };
    auto past_min = [&] {
      return compare(CompareOp::Lt, i, binary(BinaryOp::Sub, type_min(st, t), h.step));
    };
    Value leave;
    if (h.direction > 0 || !is_signed(t)) {
      leave = past_max();
    } else if (h.direction < 0) {
      leave = past_min();
    } else {
      leave =
          select(compare(CompareOp::Gt, h.step, constant_int(st, t, 0)), past_max(), past_min());
    }
    auto* next = llvm::BasicBlock::Create(s.ctx(), "for.step", s.kernel);
    s.ir.CreateCondBr(detail::llvm_of(leave), block(h.scope.blocks[2]), next);
    s.ir.SetInsertPoint(next);
  }
  store(h.counter, zero_index, binary(BinaryOp::Add, i, h.step));
  end_loop(h.scope);
}

void KernelBuilder::break_() {
  auto& s = *state_;
  s.check_open("break_");
  user_assert(!s.loops.empty(), {"break_", s.name}) << "not inside a loop";
  s.ir.CreateBr(s.loops.back().exit);
  s.continue_in_new_block("after.break");
}

void KernelBuilder::continue_() {
  auto& s = *state_;
  s.check_open("continue_");
  user_assert(!s.loops.empty(), {"continue_", s.name}) << "not inside a loop";
  s.ir.CreateBr(s.loops.back().latch);
  s.continue_in_new_block("after.continue");
}

}  // namespace spvjit
