#include "ir/analysis/scope_check.hpp"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/raw_ostream.h>

#include "common/error_report.hpp"

namespace spvjit::detail {

namespace {
std::string describe(const llvm::Instruction& inst) {
  std::string out;
  llvm::raw_string_ostream os(out);
  inst.print(os);
  while (!out.empty() && out.front() == ' ') out.erase(out.begin());
  return out;
}
}  // namespace

void check_values_defined_where_used(llvm::Function& kernel, const std::string& kernel_name) {
  llvm::DominatorTree tree(kernel);
  for (auto& block : kernel) {
    // Code after break_/return_ is unreachable and never runs: whatever it reads is harmless.
    if (!tree.isReachableFromEntry(&block)) continue;
    for (auto& inst : block) {
      for (const llvm::Use& use : inst.operands()) {
        const auto* def = llvm::dyn_cast<llvm::Instruction>(use.get());
        if (!def || tree.dominates(def, use)) continue;
        user_error({"finish", kernel_name})
            << "the value `" << describe(*def) << "` is read by `" << describe(inst)
            << "`, outside the if_/loop body that computed it, where it may be undefined; carry "
               "it out through a var() declared before the body";
      }
    }
  }
}

}  // namespace spvjit::detail
