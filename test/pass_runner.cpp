// spvjit_pass: runs one pass of the compile pipeline (jit/pipeline.cpp) on a module of LLVM IR
// text and prints the module after it, for the FileCheck tests in test/passes/ (each a
// milliseconds' check of one pass, no device). A refusal (UserError) is printed as
// "refused: <message>" and exits 0, so that a test checks the message as it checks IR.
//
//   spvjit_pass <pass> [key=value ...] <file.ll>
//
// The passes that read a kernel's definition (specialize, coarsen) take it from the IR: the
// kernel is the module's first spir_kernel, its parameters the arguments before the first hidden
// one (named __spvjit_..., in HiddenArgs' order, which is checked), and the options say the rest:
// workgroup=8 or 8x2, ndrange=64 or 64x4 (absent: dynamic), width=4 (coarsen's lanes),
// vectors=2, pads_safely=1, vector_math=1, work_item_checks=1, grid_stride_loops=1, strips=8,
// groups=1 (coarsening's options).
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <array>
#include <charconv>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "ir/analysis/divergence.hpp"
#include "ir/bounds.hpp"
#include "ir/llvm_scalar.hpp"
#include "ir/promote_variables.hpp"
#include "ir/unroll_array_loops.hpp"
#include "jit/bounds/bounds_lowering.hpp"
#include "jit/bounds/hoist_bounds.hpp"
#include "jit/bounds/merge_bounds.hpp"
#include "jit/bounds/proven_bounds.hpp"
#include "ir/canonical_form.hpp"
#include "ir/approximate_math.hpp"
#include "ir/cse.hpp"
#include "jit/coarsen/coarsen.hpp"
#include "jit/coarsen/path_cost.hpp"
#include "jit/coarsen/plans.hpp"
#include "jit/coarsen/swap_dimensions.hpp"
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
#include "jit/specialize.hpp"
#include "jit/steps.hpp"
#include "jit/workgroup/group_loops.hpp"
#include "spvjit/error.hpp"

namespace {

// The pipeline's step names (jit/steps.hpp); the analyses and swap-dimensions-0-and-1 are
// spvjit_pass's own.
namespace step = spvjit::detail::step;

using spvjit::detail::FloatAtomicAdd;
using Pass = std::function<void(llvm::Module&)>;
/// A pass that makes a new module from the one parsed (specialize reads the definition's bitcode).
/// Its module lives in `context`, a fresh one, as a compile's does.
using Maker =
    std::function<std::unique_ptr<llvm::Module>(llvm::Module&, llvm::LLVMContext& context)>;

/// The command line's key=value options.
struct RunOptions {
  std::optional<spvjit::WorkGroup> workgroup;
  std::optional<spvjit::NDRange> ndrange;
  unsigned width = 0;
  unsigned vectors = 1;
  bool pads_safely = false;
  bool vector_math = false;  ///< coarsening calls every math builtin's vector form (patch 0014)
  bool work_item_checks = false;  ///< CoarsenTarget::work_item_checks
  bool grid_stride = false;       ///< CoarsenTarget::grid_stride_loops
  unsigned strips = 0;            ///< CoarsenTarget::strip_vectors
  bool groups = false;            ///< CoarsenTarget::groups
};
RunOptions options;

// A whole decimal number, or std::invalid_argument naming `what`.
std::size_t number(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw std::invalid_argument(what + ": '" + text + "' is not a whole number");
  }
  return n;
}

// "8", "8x2" or "8x2x2" as three extents, the missing ones 1.
std::array<std::size_t, 3> extents_of(const std::string& text) {
  std::array<std::size_t, 3> out = {1, 1, 1};
  std::size_t at = 0;
  for (unsigned d = 0; d < 3 && at <= text.size(); ++d) {
    const std::size_t x = text.find('x', at);
    out[d] = number(text.substr(at, x == std::string::npos ? std::string::npos : x - at), "extent");
    if (x == std::string::npos) break;
    at = x + 1;
  }
  return out;
}

void parse_option(const std::string& arg) {
  const std::size_t eq = arg.find('=');
  if (eq == std::string::npos) throw std::invalid_argument("expected key=value, got " + arg);
  const std::string key = arg.substr(0, eq), value = arg.substr(eq + 1);
  if (key == "workgroup") {
    const auto e = extents_of(value);
    options.workgroup = spvjit::WorkGroup{e[0], e[1], e[2]};
  } else if (key == "ndrange") {
    const auto e = extents_of(value);
    options.ndrange = spvjit::NDRange{e[0], e[1], e[2]};
  } else if (key == "width") {
    options.width = static_cast<unsigned>(number(value, key));
  } else if (key == "vectors") {
    options.vectors = static_cast<unsigned>(number(value, key));
  } else if (key == "pads_safely") {
    options.pads_safely = number(value, key) != 0;
  } else if (key == "vector_math") {
    options.vector_math = number(value, key) != 0;
  } else if (key == "work_item_checks") {
    options.work_item_checks = number(value, key) != 0;
  } else if (key == "grid_stride_loops") {
    options.grid_stride = number(value, key) != 0;
  } else if (key == "strips") {
    options.strips = static_cast<unsigned>(number(value, key));
  } else if (key == "groups") {
    options.groups = number(value, key) != 0;
  } else {
    throw std::invalid_argument("unknown option " + key);
  }
}

spvjit::Specialization specialization() { return {options.workgroup, options.ndrange}; }

// The first function with a body: the kernel a per-kernel pass runs on.
llvm::Function& first_definition(llvm::Module& m) {
  for (auto& f : m) {
    if (!f.isDeclaration()) return f;
  }
  throw std::invalid_argument("the module defines no function");
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

// A builder kernel's definition as a pass after finish() reads it, from the kernel's IR (see the
// top of this file).
// The shape argument `__spvjit_shape_<param>_<dim>` names (`_count` for a length), as the
// builder names them; the parameter's rank grows to take the dimension.
spvjit::detail::ShapeArg shape_arg_named(spvjit::detail::KernelModule& def, llvm::StringRef name) {
  namespace d = spvjit::detail;
  const llvm::StringRef rest = name.drop_front(std::string(d::hidden_shape_name).size());
  const auto [param_name, dim_name] = rest.rsplit('_');
  for (std::uint32_t p = 0; p < def.params.size(); ++p) {
    if (def.params[p].name != param_name) continue;
    d::ShapeArg shape{p, d::ShapeArg::count_dim};
    unsigned dim = 0;
    if (!dim_name.getAsInteger(10, dim)) {
      shape.dim = static_cast<std::int32_t>(dim);
      def.params[p].rank = std::max<std::uint8_t>(def.params[p].rank, dim + 1);
    }
    return shape;
  }
  throw std::invalid_argument("shape argument " + name.str() + " names no parameter");
}

spvjit::detail::KernelModule definition_of(llvm::Module& m) {
  namespace d = spvjit::detail;
  llvm::Function* kernel = nullptr;
  for (auto& f : m) {
    if (!kernel && !f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL) {
      kernel = &f;
    }
  }
  if (!kernel) throw std::invalid_argument("the module defines no spir_kernel");
  d::KernelModule def;
  def.name = kernel->getName().str();
  bool ndrange = false, bounds = false;
  std::size_t shapes = 0;
  for (const llvm::Argument& arg : kernel->args()) {
    const llvm::StringRef name = arg.getName();
    if (name.startswith("__spvjit_")) {
      ndrange = ndrange || name == std::string(d::hidden_ndrange_name) + "0";
      bounds = bounds || name == d::hidden_record_name;
      shapes += name.startswith(d::hidden_shape_name);
      continue;
    }
    if (ndrange || bounds || shapes) throw std::invalid_argument("a parameter after a hidden one");
    spvjit::Param p;
    p.name = name.str();
    llvm::Type* t = arg.getType();
    if (auto* pointer = llvm::dyn_cast<llvm::PointerType>(t)) {
      p.space = static_cast<spvjit::AddressSpace>(pointer->getAddressSpace());
      if (p.space == spvjit::AddressSpace::Private || pointer->getAddressSpace() > 3) {
        throw std::invalid_argument("parameter " + p.name +
                                    ": a pointer outside address spaces 1 to 3");
      }
      p.kind = p.space == spvjit::AddressSpace::Local ? spvjit::ParamKind::LocalArray
                                                      : spvjit::ParamKind::Pointer;
      p.read_only = arg.onlyReadsMemory();
      t = pointer->getNonOpaquePointerElementType();
    }
    if (!d::scalar_of_type(t, p.type))
      throw std::invalid_argument("parameter " + p.name + ": no scalar");
    def.params.push_back(p);
  }
  def.hidden = d::HiddenArgs::layout(def.params, ndrange, bounds, shapes);
  // The names must follow the layout: a test of a hidden argument in another place would test
  // a kernel the builder never makes.
  const auto user = def.params.size();
  if (kernel->arg_size() != def.hidden.count) {
    throw std::invalid_argument("the kernel's hidden arguments are not HiddenArgs::layout()'s");
  }
  for (std::size_t k = 0; k < def.hidden.sequence.size(); ++k) {
    const d::HiddenArg& h = def.hidden.sequence[k];
    const llvm::StringRef name = kernel->getArg(static_cast<unsigned>(user + k))->getName();
    bool right = false;
    switch (h.kind) {
      case d::HiddenArg::Kind::NdRange:
        right = name == std::string(d::hidden_ndrange_name) + std::to_string(h.of);
        break;
      case d::HiddenArg::Kind::Extent:
        right = name == std::string(d::hidden_extent_name) + def.params[h.of].name;
        break;
      case d::HiddenArg::Kind::Record:
        right = name == d::hidden_record_name;
        break;
      case d::HiddenArg::Kind::FastEnd:
        right = name == d::hidden_fast_end_name;
        break;
      case d::HiddenArg::Kind::Shape:
        right = name.startswith(d::hidden_shape_name);
        break;
    }
    if (!right) {
      throw std::invalid_argument("hidden argument " + name.str() +
                                  " is not where HiddenArgs::layout() puts it");
    }
    if (h.kind == d::HiddenArg::Kind::Shape) def.shape_args.push_back(shape_arg_named(def, name));
  }
  // As the builder decides it: a kernel that reads its ndrange takes it as hidden arguments.
  def.pads_safely =
      ndrange || m.getNamedMetadata("spvjit.allow_padding") != nullptr || options.pads_safely;
  def.declared_elementwise = m.getNamedMetadata("spvjit.elementwise") != nullptr;
  llvm::raw_string_ostream bitcode(def.bitcode);
  llvm::WriteBitcodeToFile(m, bitcode);
  bitcode.flush();
  return def;
}

const std::map<std::string, Maker>& makers() {
  static const std::map<std::string, Maker> all = {
      {step::specialize,
       [](llvm::Module& m, llvm::LLVMContext& context) {
         return spvjit::detail::specialize(context, definition_of(m), specialization());
       }},
  };
  return all;
}

// What the coarsening passes may use: options.width lanes (8 by default) of every type.
spvjit::detail::CoarsenTarget coarsen_target() {
  namespace d = spvjit::detail;
  const unsigned w = options.width ? options.width : 8;
  d::CoarsenTarget target;
  target.widths = d::VectorWidths{w, w, w, w, w, w};
  target.forced_width = w;
  target.vectors_per_item = options.vectors;
  target.math = options.vector_math ? d::VectorMath::every_function : d::VectorMath::exact_only;
  target.work_item_checks = options.work_item_checks;
  target.grid_stride_loops = options.grid_stride;
  target.strip_vectors = options.strips;
  target.groups = options.groups;
  return target;
}

const std::map<std::string, Pass>& passes() {
  namespace d = spvjit::detail;
  static const std::map<std::string, Pass> all = {
      {step::drop_freeze, d::drop_freeze},
      // Analyses: their verdicts, printed before the unchanged module.
      {"divergence-barrier-check",
       [](llvm::Module& m) { print_divergence(m, d::DivergenceRules::barrier_check()); }},
      {"divergence-group-loops",
       [](llvm::Module& m) { print_divergence(m, d::DivergenceRules::group_loops()); }},
      {step::expand_intrinsics, [](llvm::Module& m) { d::expand_untranslatable_intrinsics(m); }},
      {step::drop_unused_intrinsics, [](llvm::Module& m) { d::drop_unused_intrinsics(m); }},
      {step::expand_bool_vector_bitcasts,
       [](llvm::Module& m) { d::expand_bool_vector_bitcasts(m); }},
      {step::scalarize_odd_vectors, [](llvm::Module& m) { d::scalarize_odd_vectors(m, {"test"}); }},
      {step::promote_odd_integers, [](llvm::Module& m) { d::promote_odd_integers(m, {"test"}); }},
      {step::legalize_raw_module, [](llvm::Module& m) { d::legalize_raw_module(m, {"test"}); }},
      {step::canonicalize, [](llvm::Module& m) { d::canonicalize(first_definition(m)); }},
      {step::approximate_functions,
       [](llvm::Module& m) {
         for (auto& f : m) {
           if (!f.isDeclaration()) (void)d::approximate_math_calls(f);
         }
       }},
      {step::fuse_fmuladd, [](llvm::Module& m) { d::fuse_fmuladd(m, true, true); }},
      {step::promote_private_arrays,
       [](llvm::Module& m) { (void)d::promote_constant_indexed_arrays(first_definition(m)); }},
      {step::unroll_private_array_loops,
       [](llvm::Module& m) { (void)d::unroll_private_array_loops(first_definition(m)); }},
      {std::string(step::fuse_fmuladd) + "-f32-only",
       [](llvm::Module& m) { d::fuse_fmuladd(m, true, false); }},
      {step::remove_bounds_checks, d::remove_bounds_checks},
      {step::hoist_loop_bounds_checks,
       [](llvm::Module& m) { d::hoist_loop_bounds_checks(first_definition(m)); }},
      {step::hoist_region_bounds_checks,
       [](llvm::Module& m) {
         d::hoist_loop_bounds_checks(first_definition(m), d::CheckForm::Lowered);
       }},
      {step::merge_bounds_checks, d::merge_bounds_checks},
      {step::cse,
       [](llvm::Module& m) {
         for (auto& f : m) {
           if (!f.isDeclaration()) d::promote_and_cse(f);
         }
       }},
      {step::drop_proven_bounds_checks,
       [](llvm::Module& m) {
         llvm::Function& kernel = first_definition(m);
         d::drop_proven_bounds_checks(kernel, d::shaped_params(kernel, definition_of(m)));
       }},
      {step::lower_bounds_checks, [](llvm::Module& m) { d::lower_bounds_checks(m); }},
      {std::string(step::lower_float_atomics) + "-none",
       [](llvm::Module& m) { d::lower_float_atomics(m, {}); }},
      {std::string(step::lower_float_atomics) + "-f32-global",
       [](llvm::Module& m) {
         FloatAtomicAdd native;
         native.f32_global = true;
         d::lower_float_atomics(m, native);
       }},
      {step::split_wide_builtin_calls,
       [](llvm::Module& m) { d::split_wide_builtin_calls(m, d::max_builtin_vector_bits); }},
      // Coarsening at options.width lanes (8 by default); a kernel left alone says why.
      {step::coarsen,
       [](llvm::Module& m) {
         const auto r =
             d::coarsen_elementwise(m, definition_of(m), specialization(), coarsen_target());
         if (r.width == 1) llvm::outs() << "left alone: " << r.reason << "\n";
       }},
      // Each defined function's two path prices (jit/coarsen/path_cost.hpp), then the module.
      {"path-cost",
       [](llvm::Module& m) {
         for (const llvm::Function& f : m) {
           if (f.isDeclaration()) continue;
           const d::PathCost cost = d::path_cost(f);
           char text[64];
           std::snprintf(text, sizeof text, ": working %g dearest %g\n", cost.working,
                         cost.dearest);
           llvm::outs() << "path-cost @" << f.getName() << text;
         }
       }},
      // The kernel's plans priced (jit/coarsen/plans.hpp), dimension 1 too where its
      // get_global_id(1) reaches more than a comparison; the module is left as it was.
      {"price-plans",
       [](llvm::Module& m) {
         d::PlanRequest request;
         request.dimension_1 = true;
         const auto choice =
             d::price_plans(m, definition_of(m), specialization(), coarsen_target(), request);
         llvm::outs() << "plans: " << d::describe(choice) << "\n";
       }},
      // The same in dimension 1 (jit/coarsen/swap_dimensions.hpp).
      {step::coarsen_dimension_1,
       [](llvm::Module& m) {
         const auto r =
             d::coarsen_dimension_1(m, definition_of(m), specialization(), coarsen_target());
         if (r.width == 1) llvm::outs() << "left alone: " << r.reason << "\n";
       }},
      {"swap-dimensions-0-and-1",
       [](llvm::Module& m) {
         const d::KernelModule def = definition_of(m);
         const unsigned ndrange = def.hidden_ndrange() ? def.hidden.ndrange : d::HiddenArgs::none;
         if (!d::swap_dimensions_0_and_1(m, *m.getFunction(def.name), ndrange)) {
           llvm::outs() << "left alone\n";
         }
       }},
      // A work-group of 8 x 2; a kernel left alone says why on the first line.
      {std::string(step::group_loops) + "-8x2",
       [](llvm::Module& m) {
         const auto r = d::run_group_in_one_item(first_definition(m), spvjit::WorkGroup{8, 2});
         if (!r.applied) llvm::outs() << "left alone: " << r.reason << "\n";
       }},
      // The same, with the loops the whole group runs alike outside the loop over work-items.
      {std::string(step::group_loops) + "-8x2-uniform-loops",
       [](llvm::Module& m) {
         d::GroupLoopOptions options;
         options.cut_uniform_loops = true;
         const auto r =
             d::run_group_in_one_item(first_definition(m), spvjit::WorkGroup{8, 2}, options);
         if (!r.applied) llvm::outs() << "left alone: " << r.reason << "\n";
       }},
      // The same, with grid-stride loops moved first; the loops left say why.
      {std::string(step::group_loops) + "-8x2-grid-stride",
       [](llvm::Module& m) {
         d::GroupLoopOptions options;
         options.cut_uniform_loops = true;
         options.grid_stride = true;
         const auto r =
             d::run_group_in_one_item(first_definition(m), spvjit::WorkGroup{8, 2}, options);
         for (const auto& refusal : r.grid_stride_refusals) {
           llvm::outs() << "grid-stride " << refusal << "\n";
         }
         if (!r.applied) llvm::outs() << "left alone: " << r.reason << "\n";
       }},
  };
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string pass = argc >= 3 ? argv[1] : "";
  if (argc < 3 || (!passes().count(pass) && !makers().count(pass))) {
    std::fprintf(stderr, "usage: spvjit_pass <pass> [key=value ...] <file.ll>; passes:");
    for (const auto& [name, run] : passes()) std::fprintf(stderr, " %s", name.c_str());
    for (const auto& [name, make] : makers()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  try {
    for (int i = 2; i + 1 < argc; ++i) parse_option(argv[i]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spvjit_pass: %s\n", e.what());
    return 2;
  }
  const char* file = argv[argc - 1];
  llvm::LLVMContext context, made;  // before the module, which they outlive
  context.setOpaquePointers(false);
  llvm::SMDiagnostic diagnostic;
  auto module = llvm::parseAssemblyFile(file, diagnostic, context);
  if (!module) {
    diagnostic.print("spvjit_pass", llvm::errs());
    return 2;
  }
  try {
    if (makers().count(pass)) {
      module = makers().at(pass)(*module, made);
    } else {
      passes().at(pass)(*module);
    }
  } catch (const spvjit::UserError& e) {
    llvm::outs() << "refused: " << e.what() << "\n";
    return 0;
  } catch (const std::invalid_argument& e) {
    // The test's input, not the pass: no "refused:" a CHECK could take for the pass's answer.
    std::fprintf(stderr, "spvjit_pass: %s: %s\n", file, e.what());
    return 2;
  }
  // A pass must leave a module LLVM accepts: the test fails here before FileCheck reads it.
  if (llvm::verifyModule(*module, &llvm::errs())) {
    llvm::errs() << "spvjit_pass: the module is invalid after " << pass << "\n";
    return 1;
  }
  module->print(llvm::outs(), nullptr);
  return 0;
}
