// The lane-mask algebra of the vectorizer (jit/coarsen/vector.hpp): whether every lane or any
// lane of a <W x i1> mask is set (the scalar tests that suffice for an interior test's mask
// first, the lanes themselves where those fail), a partial mask's lanes as one run, and a loop
// over the active lanes for the cold path of partial vectors.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <vector>

#include "jit/coarsen/lane_values.hpp"

namespace spvjit::detail {

// A partial mask's lanes as one run: its first lane and its length (i64), and whether the
// active lanes are exactly those (a count below W). An interior test's mask is one run at a
// row's ends.
struct LaneRun {
  llvm::Value* first;
  llvm::Value* length;
  llvm::Value* is_run;
};

class MaskAlgebra {
 public:
  explicit MaskAlgebra(LaneValues& values) : v_(values) {}

  // `first || second()`, with `second` built only where `first` fails: the lane-by-lane test
  // of a mask costs more than the one-compare test it backs up. Splits the block at b's point.
  llvm::Value* or_else(llvm::IRBuilder<>& b, llvm::Value* first,
                       llvm::function_ref<llvm::Value*(llvm::IRBuilder<>&)> second);

  // The mask an instruction acts under, as <W x i1>.
  llvm::Value* mask_of(llvm::IRBuilder<>& b, llvm::Instruction* inst);

  llvm::Value* all_of(llvm::IRBuilder<>& b, llvm::Value* lanes);

  llvm::Value* any_of(llvm::IRBuilder<>& b, llvm::Value* lanes);

  // Whether every lane of the mask `inst` acts under is active: first the scalar test that
  // suffices for masks made of comparisons of consecutive indices (interior checks), then the
  // lanes themselves.
  llvm::Value* every_lane(llvm::IRBuilder<>& b, llvm::Instruction* inst);

  llvm::Value* every_lane_of(llvm::IRBuilder<>& b, llvm::Value* mask);

  // Whether no lane of the i1 value `mask` is set: the scalar test where one is known, then the
  // lanes.
  llvm::Value* no_lane_of(llvm::IRBuilder<>& b, llvm::Value* mask);

  // Records sure_all and sure_none for a comparison of a consecutive index with a uniform value,
  // and for and/or/not of values that have them and a uniform choice between two. Lanes first ..
  // first+W-1 satisfy an order comparison with a uniform bound when the first and last do (the
  // values between them lie between them) and the lanes do not wrap around.
  void note_sure_all(llvm::IRBuilder<>& b, llvm::Instruction* inst);

  // A loop over the lanes before `end` (a block's last instruction), running `body` for the
  // active ones; skipped when none is. A loop, not W copies: this is the cold path of a partial
  // mask, and small code compiles faster.
  void for_active_lanes(llvm::Instruction* end, llvm::Value* mask,
                        llvm::function_ref<void(llvm::IRBuilder<>&, llvm::Value*)> body);

  LaneRun lane_run(llvm::IRBuilder<>& b, llvm::Value* mask);

 private:
  // The lanes of `lanes` combined pairwise by `combine`, log2(W) rotations: lane 0 holds the
  // result.
  template <class Combine>
  llvm::Value* fold_lanes(llvm::IRBuilder<>& b, llvm::Value* lanes, Combine combine) {
    for (unsigned step = v_.width / 2; step >= 1; step /= 2) {
      std::vector<int> rotated(v_.width);
      for (unsigned l = 0; l < v_.width; ++l) rotated[l] = static_cast<int>((l + step) % v_.width);
      lanes = combine(lanes, b.CreateShuffleVector(lanes, rotated));
    }
    return b.CreateExtractElement(lanes, std::uint64_t{0});
  }

  // Every lane, or any lane: halves and-ed (or-ed) together.
  llvm::Value* reduce_lanes(llvm::IRBuilder<>& b, llvm::Value* lanes, bool all);

  // A scalar that, when true, shows every lane of the i1 value `v` true (null: none known).
  llvm::Value* sure_all(llvm::Value* v) const;
  // A scalar that, when true, shows every lane of `v` false (null: none known).
  llvm::Value* sure_none(llvm::Value* v) const;

  LaneValues& v_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> sure_all_;
  llvm::DenseMap<llvm::Value*, llvm::Value*> sure_none_;
};

}  // namespace spvjit::detail
