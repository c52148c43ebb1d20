#include "ir/block_order.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>

#include <vector>

namespace spvjit::detail {

void order_blocks(llvm::Function& fn) {
  std::vector<llvm::BasicBlock*> order;
  llvm::ReversePostOrderTraversal<llvm::Function*> rpo(&fn);
  for (llvm::BasicBlock* block : rpo) order.push_back(block);
  llvm::BasicBlock* previous = nullptr;
  for (llvm::BasicBlock* block : order) {
    if (previous) block->moveAfter(previous);
    previous = block;
  }
  // Unreachable blocks (code after break/return) now trail the reachable ones.
}

}  // namespace spvjit::detail
