// What the vectorizer (jit/coarsen/vector.hpp) knows of a body's values while it rewrites them,
// shared by its parts: the lane-mask algebra (mask_algebra.hpp), masked memory
// (masked_memory.hpp), bounds checks (vector_checks.hpp) and the instruction rewriting
// (vector.cpp), which alone adds to it. A varying value has a W-lane vector; a consecutive one
// (the coarsened index plus a uniform value) also lane 0's value; a uniform value is itself in
// every lane.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>

#include "jit/coarsen/masks.hpp"

namespace spvjit::detail {

struct LaneValues {
  /// `body`'s last argument is the coarsened work-item index g (vector.hpp).
  LaneValues(llvm::Function& body, unsigned lanes, const LaneMasks& lane_masks)
      : f(body), width(lanes), masks(lane_masks), coarse_index(body.getArg(body.arg_size() - 1)) {}

  llvm::Function& f;
  unsigned width;
  const LaneMasks& masks;  ///< the masks if-conversion put instructions under
  llvm::Value* coarse_index;
  llvm::DenseMap<llvm::Value*, llvm::Value*> vectors;  ///< each varying value's W lanes
  llvm::DenseMap<llvm::Value*, llvm::Value*> firsts;   ///< lane 0 of each consecutive value
  llvm::DenseSet<llvm::Value*> index_values;           ///< get_global_id(0) itself

  llvm::Type* vector_type(llvm::Type* element) const {
    return llvm::FixedVectorType::get(element, width);
  }

  // Lane 0's value of a consecutive index, or a uniform value itself.
  llvm::Value* first_of(llvm::Value* v) const {
    auto it = firsts.find(v);
    return it != firsts.end() ? it->second : v;
  }

  // A varying value's vector, or a uniform value broadcast to every lane.
  llvm::Value* vector_of(llvm::IRBuilder<>& b, llvm::Value* v) {
    auto it = vectors.find(v);
    if (it != vectors.end()) return it->second;
    return b.CreateVectorSplat(width, v);
  }

  bool is_consecutive(llvm::Value* v) const { return firsts.count(v) != 0; }

  // A value of its own in each lane: computed from the index, not consecutive.
  bool is_varying(llvm::Value* v) const { return vectors.count(v) != 0 && !is_consecutive(v); }
};

}  // namespace spvjit::detail
