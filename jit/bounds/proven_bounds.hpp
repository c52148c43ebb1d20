// Bounds checks that the kernel's own conditions already prove, dropped before coarsening.
//
// A stencil guards its body with an interior test — `if (0 < i && i < n - 1 && 0 < j && j < m - 1)`
// with n, m the array's extents — and then reads u(i-1, j), u(i+1, j), u(i, j-1), u(i, j+1),
// u(i, j): every index of those reads is inside its extent wherever the body runs, so their
// checks can never fail. They cost a compare and a branch per index and access on every
// element, and once coarsened, a comparison of every lane of a partial vector at a row's ends
// (docs/performance.md, "Stencils at loop speed").
//
// A check's (index, extent) pair is proven when the conditions of the branches that lead to it
// (the `and`s of signed or unsigned comparisons on the taken side) bound the index below by 0
// and above by the extent: index = x + c with x > k (or x >= k, or x a global or local id,
// which is never negative) and k + c >= 0, and x < e - d (or x <= e - d - 1) with c <= d, e the
// pair's extent. The linear pair (the offset into the memory against the elements the launch
// passed) is proven when every index pair of an array parameter's view is, the offset is the
// view's Horner form over them, and the extents are the parameter's own hidden shape arguments:
// every launch checks that their product is the elements passed (runtime/launch.cpp,
// check_shape). A check whose pairs are all proven becomes `true`; others keep their pairs, the
// proven ones replaced by the constant pair (0, 1), which every later form folds away.
#pragma once

#include <span>
#include <vector>

namespace llvm {
class Argument;
class CallInst;
class Function;
}  // namespace llvm

namespace spvjit::detail {

struct KernelInterface;

/// An array parameter's hidden arguments as the kernel sees them: the elements its launch passed
/// (the bounds checks' extent) and its extents, one per dimension, whose product every launch
/// checks equals those elements.
struct ShapedParam {
  llvm::Argument* elements = nullptr;
  std::vector<llvm::Argument*> extents;
};

/// The shaped parameters of `kernel` (specialized: hidden arguments in place of markers) from
/// its interface; empty when it is not bounds-checked.
std::vector<ShapedParam> shaped_params(llvm::Function& kernel, const KernelInterface& def);

/// Whether the last pair of the check marker `check` (an array element's offset against the
/// elements its parameter's launch passed) holds wherever the pairs before it do, the view's
/// (index, extent) pairs of one of `shaped` (`holds[d]` says which are known to): the offset is
/// their Horner form, and the launch checks that the extents' product is the elements passed.
bool linear_pair_follows(llvm::CallInst* check, const std::vector<bool>& holds,
                         std::span<const ShapedParam> shaped);

/// Drops the pairs of `kernel`'s check markers that its branch conditions prove; returns how
/// many checks became `true`. Runs after specialize() and before coarsening.
unsigned drop_proven_bounds_checks(llvm::Function& kernel, std::span<const ShapedParam> shaped);

}  // namespace spvjit::detail
