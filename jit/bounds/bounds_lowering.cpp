#include "jit/bounds/bounds_lowering.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <string>
#include <vector>

#include "ir/kernel_module.hpp"
#include "ir/work_item_builtins.hpp"

namespace spvjit::detail {

namespace {

std::vector<llvm::CallInst*> calls_of(llvm::Function& f) {
  std::vector<llvm::CallInst*> out;
  for (auto* user : f.users()) {
    if (auto* c = llvm::dyn_cast<llvm::CallInst>(user)) out.push_back(c);
  }
  return out;
}

// The report, written in place of its marker: no call and no atomic, because a call anywhere in
// PoCL's work-item loop, however cold, made LLVM keep the loop's invariants (the pointers, a
// broadcast scalar) on the stack instead of in registers — a fifth more time for a coarsened
// saxpy over 65536 floats. The first report of a launch finds the seal word 0 and writes the
// record, then the seal (common/bounds.hpp); two work-items failing at once may interleave, which
// the host sees as a seal that does not match the words.
void write_report(llvm::CallInst* c, unsigned reported_dimension) {
  llvm::Module& m = *c->getModule();
  llvm::IRBuilder<> b(c);
  auto* i64 = b.getInt64Ty();
  const auto space = static_cast<unsigned>(AddressSpace::Global);
  llvm::Value* record =
      b.CreateIntToPtr(c->getArgOperand(0), llvm::PointerType::get(i64, space), "record");
  auto word_at = [&](unsigned index) { return b.CreateConstInBoundsGEP1_64(i64, record, index); };
  auto* seal_ptr = word_at(record::flag);
  auto* free =
      b.CreateICmpEQ(b.CreateAlignedLoad(i64, seal_ptr, llvm::Align(8), true), b.getInt64(0));
  llvm::Instruction* then = llvm::SplitBlockAndInsertIfThen(free, c, false);
  b.SetInsertPoint(then);
  auto* global_id = llvm::cast<llvm::Function>(
      m.getOrInsertFunction(builtin::global_id,
                            llvm::FunctionType::get(i64, {b.getInt32Ty()}, false))
          .getCallee());
  global_id->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  auto query = [&](unsigned dim) {
    auto* q = b.CreateCall(global_id, {b.getInt32(dim)});
    q->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    return q;
  };
  std::vector<llvm::Value*> words(record::words, b.getInt64(0));
  words[record::site] = b.CreateZExt(c->getArgOperand(1), i64);
  for (unsigned d = 0; d < 3; ++d) {
    words[record::work_item + d] = d == reported_dimension ? c->getArgOperand(2) : query(d);
  }
  const unsigned pairs = (c->arg_size() - 3) / 2;
  for (unsigned k = 0; k < 2 * pairs; ++k) words[record::pairs + k] = c->getArgOperand(3 + k);
  words[record::pair_count] = b.getInt64(pairs);
  // The seal: the same mix as bounds_seal() (common/bounds.hpp), never 0.
  llvm::Value* seal = b.getInt64(bounds_seal_start);
  for (unsigned w = 1; w < record::words; ++w) {
    b.CreateAlignedStore(words[w], word_at(w), llvm::Align(8), true);
    seal = b.CreateMul(b.CreateXor(seal, words[w]), b.getInt64(bounds_seal_multiplier));
  }
  b.CreateAlignedStore(b.CreateOr(seal, b.getInt64(1)), seal_ptr, llvm::Align(8), true);
}

}  // namespace

llvm::Value* all_pairs_inside(llvm::IRBuilder<>& b, llvm::ArrayRef<llvm::Value*> pairs) {
  llvm::Value* all = b.getTrue();
  for (std::size_t k = 0; k + 1 < pairs.size(); k += 2) {
    all = b.CreateAnd(all, b.CreateICmpULT(pairs[k], pairs[k + 1]));
  }
  return all;
}

void lower_bounds_checks(llvm::Module& m, unsigned reported_dimension) {
  std::vector<llvm::Function*> markers;
  for (auto& f : m) {
    if (f.getName().startswith(marker_check) || f.getName().startswith(marker_report)) {
      markers.push_back(&f);
    }
  }
  for (auto* marker : markers) {
    const bool check = marker->getName().startswith(marker_check);
    for (auto* c : calls_of(*marker)) {
      if (check) {
        llvm::IRBuilder<> b(c);
        const std::vector<llvm::Value*> pairs(c->arg_begin(), c->arg_end());
        llvm::Value* all = all_pairs_inside(b, pairs);
        if (auto* result = llvm::dyn_cast<llvm::Instruction>(all)) {
          result->setMetadata(lowered_check_tag, llvm::MDNode::get(m.getContext(), {}));
        }
        c->replaceAllUsesWith(all);
      } else {
        write_report(c, reported_dimension);
      }
      c->eraseFromParent();
    }
    marker->eraseFromParent();
  }
}

}  // namespace spvjit::detail
