#include "jit/legalize/drop_freeze.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <vector>

namespace spvjit::detail {

void drop_freeze(llvm::Module& m) {
  std::vector<llvm::FreezeInst*> freezes;
  for (auto& f : m) {
    for (auto& inst : llvm::instructions(f)) {
      if (auto* fr = llvm::dyn_cast<llvm::FreezeInst>(&inst)) freezes.push_back(fr);
    }
  }
  for (auto* fr : freezes) {
    llvm::Value* v = fr->getOperand(0);
    if (llvm::isa<llvm::UndefValue>(v)) v = llvm::Constant::getNullValue(v->getType());
    fr->replaceAllUsesWith(v);
    fr->eraseFromParent();
  }
}

std::string printed_value(const llvm::Value& v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  v.print(os);
  const auto start = out.find_first_not_of(' ');
  return start == std::string::npos ? out : out.substr(start);
}

}  // namespace spvjit::detail
