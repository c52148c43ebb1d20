// spvjit_pass: runs one pass of the compile pipeline (jit/pipeline.cpp) on a module of LLVM IR
// text and prints the module after it, for the FileCheck tests in test/passes/ (each a
// milliseconds' check of one pass, no device). A refusal (UserError) is printed as
// "refused: <message>" and exits 0, so that a test checks the message as it checks IR.
//
//   spvjit_pass <pass> <file.ll>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>

#include "ir/analysis/divergence.hpp"
#include "ir/bounds.hpp"
#include "jit/bounds/bounds_lowering.hpp"
#include "jit/bounds/hoist_bounds.hpp"
#include "jit/bounds/merge_bounds.hpp"
#include "jit/bounds/proven_bounds.hpp"
#include "jit/device/float_atomics.hpp"
#include "jit/device/fuse_fmuladd.hpp"
#include "jit/device/split_vector_calls.hpp"
#include "jit/legalize/bool_bitcasts.hpp"
#include "jit/legalize/drop_freeze.hpp"
#include "jit/legalize/drop_unused_intrinsics.hpp"
#include "jit/legalize/expand_intrinsics.hpp"
#include "jit/legalize/promote_integers.hpp"
#include "jit/legalize/scalarize_vectors.hpp"
#include "jit/pipeline.hpp"
#include "jit/workgroup/group_loops.hpp"
#include "spvjit/error.hpp"

namespace {

using spvjit::detail::FloatAtomicAdd;
using Pass = std::function<void(llvm::Module&)>;

// The first function with a body: the kernel a per-kernel pass runs on.
llvm::Function& first_definition(llvm::Module& m) {
  for (auto& f : m) {
    if (!f.isDeclaration()) return f;
  }
  throw spvjit::UserError("the module defines no function");
}

// The divergence analysis's verdicts on the first function, before the module: each value that
// varies with why, then each block only some work-items of a group run.
void print_divergence(llvm::Module& m, spvjit::detail::DivergenceRules rules) {
  llvm::Function& f = first_definition(m);
  const spvjit::detail::Divergence analysis(f, rules);
  for (const llvm::BasicBlock* block : analysis.blocks()) {
    for (const llvm::Instruction& inst : *block) {
      if (const std::string* why = analysis.source(&inst)) {
        llvm::outs() << "varies: ";
        inst.printAsOperand(llvm::outs(), false);
        llvm::outs() << " (" << *why << ")\n";
      }
    }
  }
  for (const llvm::BasicBlock* block : analysis.blocks()) {
    if (!analysis.divergent(block)) continue;
    llvm::outs() << "divergent: ";
    block->printAsOperand(llvm::outs(), false);
    llvm::outs() << "\n";
  }
}

const std::map<std::string, Pass>& passes() {
  namespace d = spvjit::detail;
  static const std::map<std::string, Pass> all = {
      {"drop-freeze", d::drop_freeze},
      // Analyses: their verdicts, printed before the unchanged module.
      {"divergence", [](llvm::Module& m) { print_divergence(m, {.memory_varies = false}); }},
      {"divergence-memory-varies",
       [](llvm::Module& m) { print_divergence(m, {.memory_varies = true}); }},
      {"expand-intrinsics", [](llvm::Module& m) { d::expand_untranslatable_intrinsics(m); }},
      {"drop-unused-intrinsics", [](llvm::Module& m) { d::drop_unused_intrinsics(m); }},
      {"expand-bool-vector-bitcasts", [](llvm::Module& m) { d::expand_bool_vector_bitcasts(m); }},
      {"scalarize-odd-vectors", [](llvm::Module& m) { d::scalarize_odd_vectors(m, {"test"}); }},
      {"promote-odd-integers", [](llvm::Module& m) { d::promote_odd_integers(m, {"test"}); }},
      {"legalize-raw-module", [](llvm::Module& m) { d::legalize_raw_module(m, {"test"}); }},
      {"fuse-fmuladd", [](llvm::Module& m) { d::fuse_fmuladd(m, true, true); }},
      {"fuse-fmuladd-f32-only", [](llvm::Module& m) { d::fuse_fmuladd(m, true, false); }},
      {"remove-bounds-checks", d::remove_bounds_checks},
      {"hoist-loop-bounds-checks",
       [](llvm::Module& m) { d::hoist_loop_bounds_checks(first_definition(m)); }},
      {"hoist-lowered-loop-bounds-checks",
       [](llvm::Module& m) {
         d::hoist_loop_bounds_checks(first_definition(m), d::CheckForm::Lowered);
       }},
      {"merge-bounds-checks", d::merge_bounds_checks},
      {"drop-proven-bounds-checks",
       [](llvm::Module& m) {
         llvm::Function& kernel = first_definition(m);
         d::drop_proven_bounds_checks(kernel, d::shaped_params_by_name(kernel));
       }},
      {"lower-bounds-checks", d::lower_bounds_checks},
      {"lower-float-atomics-none", [](llvm::Module& m) { d::lower_float_atomics(m, {}); }},
      {"lower-float-atomics-f32-global",
       [](llvm::Module& m) {
         FloatAtomicAdd native;
         native.f32_global = true;
         d::lower_float_atomics(m, native);
       }},
      {"split-wide-builtin-calls",
       [](llvm::Module& m) { d::split_wide_builtin_calls(m, d::max_builtin_vector_bits); }},
      // A work-group of 8 x 2; a kernel left alone says why on the first line.
      {"group-loops-8x2",
       [](llvm::Module& m) {
         const auto r = d::run_group_in_one_item(first_definition(m), spvjit::WorkGroup{8, 2});
         if (!r.applied) llvm::outs() << "left alone: " << r.reason << "\n";
       }},
      // The same, with the loops the whole group runs alike outside the loop over work-items.
      {"group-loops-8x2-uniform-loops",
       [](llvm::Module& m) {
         d::GroupLoopOptions options;
         options.cut_uniform_loops = true;
         const auto r =
             d::run_group_in_one_item(first_definition(m), spvjit::WorkGroup{8, 2}, options);
         if (!r.applied) llvm::outs() << "left alone: " << r.reason << "\n";
       }},
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || !passes().count(argv[1])) {
    std::fprintf(stderr, "usage: spvjit_pass <pass> <file.ll>; passes:");
    for (const auto& [name, pass] : passes()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  llvm::LLVMContext context;
  context.setOpaquePointers(false);
  llvm::SMDiagnostic diagnostic;
  auto module = llvm::parseAssemblyFile(argv[2], diagnostic, context);
  if (!module) {
    diagnostic.print("spvjit_pass", llvm::errs());
    return 2;
  }
  try {
    passes().at(argv[1])(*module);
  } catch (const spvjit::UserError& e) {
    llvm::outs() << "refused: " << e.what() << "\n";
    return 0;
  }
  // A pass must leave a module LLVM accepts: the test fails here before FileCheck reads it.
  if (llvm::verifyModule(*module, &llvm::errs())) {
    llvm::errs() << "spvjit_pass: the module is invalid after " << argv[1] << "\n";
    return 1;
  }
  module->print(llvm::outs(), nullptr);
  return 0;
}
