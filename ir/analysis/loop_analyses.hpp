// The analyses a loop transformation reads (ScalarEvolution and what it stands on), built
// together for a function as it is now: jit/bounds/hoist_bounds.cpp and
// ir/unroll_array_loops.cpp rebuild them after each change they make.
#pragma once

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

namespace spvjit::detail {

struct LoopAnalyses {
  explicit LoopAnalyses(llvm::Function& fn)
      : libraries_impl(llvm::Triple(fn.getParent()->getTargetTriple())),
        libraries(libraries_impl),
        assumptions(fn),
        dominators(fn),
        loops(dominators),
        evolution(fn, libraries, assumptions, dominators, loops) {}
  llvm::TargetLibraryInfoImpl libraries_impl;
  llvm::TargetLibraryInfo libraries;
  llvm::AssumptionCache assumptions;
  llvm::DominatorTree dominators;
  llvm::LoopInfo loops;
  llvm::ScalarEvolution evolution;
};

}  // namespace spvjit::detail
