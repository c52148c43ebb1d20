// Dimensions 0 and 1 of a builder kernel exchanged, so that the coarsener, which vectorizes
// dimension 0, can vectorize dimension 1 instead: where a kernel's contiguous index is
// get_global_id(1) (OpenCL C's row-major habit: dimension 0 walks the rows), coarsening
// dimension 0 would load one element per lane (issue #65, step 3).
#pragma once

namespace llvm {
class Module;
class Function;
}  // namespace llvm

namespace spvjit::detail {

/// Exchanges dimensions 0 and 1 in `m`, a builder kernel's module (one kernel, `kernel`, and its
/// device functions): every work-item query of every function (get_global_id(0) becomes
/// get_global_id(1) and the reverse; get_local_id, get_group_id, the sizes and the offset alike),
/// and in `kernel` the uses of its hidden ndrange arguments `ndrange_arg` and `ndrange_arg + 1`
/// (HiddenArgs::none: it has none). The kernel then computes on the transposed launch what it
/// computed on the launch, and a second call undoes the first, code added in between included.
/// Returns false, having changed nothing, where a query's dimension is not a constant.
bool swap_dimensions_0_and_1(llvm::Module& m, llvm::Function& kernel, unsigned ndrange_arg);

/// Makes every bounds report of `m` (ir/bounds.hpp) name its work-item by get_global_id(`to`)
/// where it named it by get_global_id(`from`): a kernel coarsened in dimension 1 reports the
/// failing lane's id in that dimension (jit/bounds/bounds_lowering.hpp). Returns false, having
/// changed nothing, where a report's global-id operand is another value.
bool retarget_reports(llvm::Module& m, unsigned from, unsigned to);

/// Whether any function of `m` asks a work-item query about dimension `dim`.
bool queries_dimension(const llvm::Module& m, unsigned dim);

/// Whether get_global_id(`dim`) reaches anything in `m` but a comparison (in_ndrange()'s test of
/// every dimension asks it of a 1-D kernel too): only then may `dim` index memory.
bool global_id_reaches_beyond_compares(const llvm::Module& m, unsigned dim);

}  // namespace spvjit::detail
