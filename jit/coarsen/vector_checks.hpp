// Bounds checks in the vectorizer (jit/coarsen/vector.hpp): a check of W lanes passes when
// every lane (every active lane, under a mask) is inside; a failing one reports its first
// failing lane, and a straddling store first writes the lanes before the end, as the work-items
// it stands for would. In a fast body (`index_fits`) the pairs the dispatcher tests once per
// work-item are left out (FastChecks, FastEntry).
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <vector>

#include "jit/coarsen/lane_values.hpp"
#include "jit/coarsen/mask_algebra.hpp"
#include "jit/coarsen/masked_memory.hpp"
#include "jit/coarsen/vector.hpp"

namespace spvjit::detail {

class VectorChecks {
 public:
  VectorChecks(LaneValues& values, MaskAlgebra& algebra, MaskedMemory& memory,
               const FastChecks& fast, bool index_fits)
      : v_(values), algebra_(algebra), memory_(memory), fast_(fast), index_fits_(index_fits) {}

  /// What the dispatcher must test for a fast body (vectorize_body's result).
  FastEntry entry;

  /// The check marker `c`'s W-lane form, in place of its uses.
  void rewrite_check(llvm::IRBuilder<>& b, llvm::CallInst* c);

  // On the failure path of a straddling store's check: the lanes inside (and active) stored one
  // element each. `block` is where the scalar store was.
  void store_lanes_inside(llvm::Instruction* store, llvm::BasicBlock* block);

  // The report of a failed W-lane check names the first lane that fails: the W lanes of a
  // consecutive index fail from lane (extent - first) on, a uniform index's all at once, a
  // varying index's where its lane does.
  // Under a mask, the first active lane that fails, reported only when a lane is active.
  void rewrite_report(llvm::IRBuilder<>& b, llvm::CallInst* c);

 private:
  // Whether the dispatcher can test the check pair (index, extent) once for the work-item, so
  // that a fast body leaves it out: get_global_id(0) itself (all the work-item's lanes) or
  // another dimension's global id, against an i64 argument. Records the dispatcher's test.
  bool left_out(llvm::Value* index, llvm::Value* extent);

  template <class T>
  static void add_once(std::vector<T>& list, T item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  }

  // Which of a check's (or report's) pairs from `first_pair` on a fast body leaves out: those
  // the dispatcher tests, and an array parameter's offset pair when its view's pairs are.
  std::vector<bool> left_out_pairs(llvm::CallInst* c, unsigned first_pair);

  // Which lanes a check's (index, extent) pairs from `first_pair` on hold for, as <W x i1>.
  llvm::Value* lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c, unsigned first_pair);

  // `all` AND test(index, extent) over a check's (index, extent) pairs from `first_pair` on,
  // but for the pairs the dispatcher tested once for the work-item (index_fits).
  template <class Test>
  llvm::Value* and_over_pairs(llvm::IRBuilder<>& b, llvm::CallInst* c, unsigned first_pair,
                              llvm::Value* all, Test test) {
    const std::vector<bool> out = left_out_pairs(c, first_pair);
    for (unsigned k = first_pair, j = 0; k + 1 < c->arg_size(); k += 2, ++j) {
      if (out[j] && index_fits_) continue;
      all = b.CreateAnd(all, test(c->getArgOperand(k), c->getArgOperand(k + 1)));
    }
    return all;
  }

  // A bounds check under a mask passes when every active lane is inside: inactive lanes (the
  // left neighbour of column 0 under `0 < col`) would not have made the access.
  llvm::Value* active_lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c, llvm::Value* mask);

  // A bounds check of W lanes: a consecutive index passes when its first and last lane do (two
  // tests, so that a negative first lane cannot wrap into range), a uniform one as itself, a
  // varying one when each lane does.
  llvm::Value* all_lanes_inside(llvm::IRBuilder<>& b, llvm::CallInst* c, unsigned first_pair);

  // A checked store in the builder's shape (ir/bounds.hpp), outside any if-converted region:
  //   br %ok, %access, %out.of.bounds  ; access: the one store; both go on to one join
  // Its W-lane check fails when some of the lanes lie outside. The W work-items it stands for
  // would have stored the lanes before the end, then stopped at the report (a failing access ends
  // its work-item, jit/bounds/merge_bounds.hpp): the failure path stores those lanes. (A failing
  // load needs nothing: the work-item stops before using it.)
  struct StraddlePath {
    llvm::CallInst* check = nullptr;
    llvm::BasicBlock* outside = nullptr;
  };

  void note_straddle_path(llvm::CallInst* check);

  // The stored value's vector at b, when the access block computed it: a cast there (a bool's
  // widening to its memory type) is made again. Null when it cannot be.
  llvm::Value* stored_vector(llvm::IRBuilder<>& b, llvm::Value* value, llvm::BasicBlock* block);

  LaneValues& v_;
  MaskAlgebra& algebra_;
  MaskedMemory& memory_;
  const FastChecks& fast_;
  bool index_fits_;
  llvm::DenseMap<llvm::BasicBlock*, StraddlePath> straddle_paths_;
};

}  // namespace spvjit::detail
