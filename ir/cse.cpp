#include "ir/cse.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>

namespace spvjit::detail {

void promote_and_cse(llvm::Function& f) {
  // What the two passes read; a PassBuilder would register every analysis LLVM has (and pull
  // in its whole pass library).
  llvm::FunctionAnalysisManager analyses;
  analyses.registerPass([] { return llvm::PassInstrumentationAnalysis(); });
  analyses.registerPass([] { return llvm::DominatorTreeAnalysis(); });
  analyses.registerPass([] { return llvm::AssumptionAnalysis(); });
  analyses.registerPass([] { return llvm::TargetLibraryAnalysis(); });
  analyses.registerPass([] { return llvm::TargetIRAnalysis(); });
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::PromotePass());
  passes.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/false));
  passes.run(f, analyses);
}

}  // namespace spvjit::detail
