// Structured control flow for the builder: if/else, loops, break and continue. Each construct
// opens blocks on `begin_*` and joins them on `end_*`; a scope ended by break/return continues
// in a fresh block so code after it stays well-formed (and unreachable).
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
  s.ir.CreateCondBr(cond.raw(), then_block, else_block);
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
  s.ir.CreateCondBr(cond.raw(), body, block(h.blocks[2]));
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

void KernelBuilder::break_() {
  auto& s = *state_;
  s.check_open("break_");
  if (s.loops.empty()) throw UserError("break_: not inside a loop");
  s.ir.CreateBr(s.loops.back().exit);
  s.continue_in_new_block("after.break");
}

void KernelBuilder::continue_() {
  auto& s = *state_;
  s.check_open("continue_");
  if (s.loops.empty()) throw UserError("continue_: not inside a loop");
  s.ir.CreateBr(s.loops.back().latch);
  s.continue_in_new_block("after.continue");
}

}  // namespace spvjit
