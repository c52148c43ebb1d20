// Bounds checks in the builder: every load, store and atomic through a pointer that knows its
// extent goes behind a check. The check and the failure report are marker calls, so that the
// JIT can turn checks off (JitOptions::bounds_checks), coarsen checked kernels (one comparison
// per vector of W indices) and lower the report last (jit/bounds/bounds_lowering.hpp):
//
//   %ok = call i1 @__spvjit.bounds.check.1(i64 %i, i64 %extent)
//   br i1 %ok, label %access, label %out_of_bounds      ; weighted: the failure is cold
//   out_of_bounds:
//     call void @__spvjit.bounds.report.1(i64 %record, i32 site, i64 gid0, i64 %i, i64 %extent)
//     br label %join                                    ; a load gives 0; memory is not touched
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include "ir/state.hpp"
#include "spvjit/pointer.hpp"

#include <vector>

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Runs `access` (which builds the memory operation at the insertion point and returns its
/// value, or null) behind the checks of `p`'s extent — and of `view`'s extents when given — for
/// an access of `lanes` consecutive elements starting at `index` (i64). Returns the access's
/// value where the checks pass, the type's zero where they fail. Without an extent on `p`, runs
/// `access` unguarded.
llvm::Value* guarded_access(BuilderState& s, const Pointer& p, llvm::Value* index,
                            const ViewIndex* view, unsigned lanes,
                            llvm::function_ref<llvm::Value*()> access);

/// Runs `access` behind a check of the (index, extent) `pairs` (i64 each, at most
/// record::max_pairs), reported as `site` when one fails; the value and failure as above.
llvm::Value* checked(BuilderState& s, std::vector<llvm::Value*> pairs, BoundsSite site,
                     llvm::function_ref<llvm::Value*()> access);

/// The current function's record address: the kernel's marker (emitted once), or a device
/// function's hidden argument. An i64: the record is fine-grained shared memory, whose address
/// a kernel may take as a number (common/bounds.hpp).
llvm::Value* record_pointer(BuilderState& s);
llvm::Type* record_type(llvm::LLVMContext& ctx);

/// Declares (once) one of the builder's bounds markers (ir/kernel_module.hpp): nounwind, and
/// readnone when `pure`. `check_marker` is `__spvjit.bounds.check.<pairs>`.
llvm::Function* bounds_marker(llvm::Module& m, const std::string& name, llvm::Type* ret,
                              llvm::ArrayRef<llvm::Type*> params, bool pure);
llvm::Function* check_marker(llvm::Module& m, unsigned pairs);

/// Removes every check of the module: checks become `true` (their branches fold), reports go,
/// record markers become null and extent markers the largest i64. For kernels built with
/// inbounds() and for JitOptions::bounds_checks = false.
void remove_bounds_checks(llvm::Module& m);

}  // namespace spvjit::detail
