// Memory under lane masks for the vectorizer (jit/coarsen/vector.hpp): a W-lane load or store
// whose lanes are not all active is one vector access when they are (or when the whole vector
// lies inside the buffer, for a load), else a run of lanes stored in pieces or one element per
// active lane; gathers and scatters are one element per lane. A store never writes an inactive
// lane: another work-item may own it.
#pragma once

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <span>

#include "jit/coarsen/lane_values.hpp"
#include "jit/coarsen/mask_algebra.hpp"

namespace spvjit::detail {

/// The scalar elements a W-lane access covers: lane l's is pointer[first + l], or
/// pointer[indices[l]] for a gather.
struct LaneAddress {
  llvm::Value* pointer = nullptr;
  llvm::Value* first = nullptr;
  llvm::Type* element = nullptr;
  llvm::Value* indices = nullptr;  ///< the W lanes' indices, for an address of Role::Gather
};

class MaskedMemory {
 public:
  /// `param_extents` as vectorize_body takes it (vector.hpp).
  MaskedMemory(LaneValues& values, MaskAlgebra& algebra, std::span<const unsigned> param_extents)
      : v_(values), algebra_(algebra), param_extents_(param_extents) {}

  /// Each vectorized address's lanes, by the scalar GEP it replaces.
  llvm::DenseMap<llvm::Value*, LaneAddress> lane_addresses;

  bool is_gather(llvm::Value* address) const;

  // A gather's W elements: one load per lane (lanes outside the mask, where there is one, are
  // not read and give 0).
  llvm::Value* gather(llvm::IRBuilder<>& b, llvm::LoadInst* load);

  // A scatter: one store per (active) lane, in lane order as the work-items would.
  void scatter(llvm::IRBuilder<>& b, llvm::StoreInst* store);

  // The half elements at p[first ..] as i16s.
  LaneAddress half_lanes(llvm::IRBuilder<>& b, llvm::Value* pointer, llvm::Value* first);

  // A W-element load under a mask: one vector load when every lane is active or the whole
  // vector lies inside the buffer, else one element per active lane (inactive lanes read 0).
  // Splits the block at `at`.
  llvm::Value* masked_load(llvm::IRBuilder<>& b, llvm::Instruction* at, llvm::Value* vector_address,
                           const LaneAddress& lanes, llvm::Align align,
                           llvm::Value* index = nullptr);

  // A W-element store under a mask: one vector store when every lane is active, else one
  // element per active lane (a store must not write the others: another work-item may).
  // Splits the block at `at`.
  void masked_store(llvm::IRBuilder<>& b, llvm::Instruction* at, llvm::Value* value,
                    llvm::Value* vector_address, const LaneAddress& lanes, llvm::Align align);

  // `value`'s lanes in `mask` stored one element each, before `end`.
  void store_lanes(llvm::Instruction* end, llvm::Value* mask, llvm::Value* value,
                   const LaneAddress& lanes, llvm::Align align);

 private:
  // Lane l's element: pointer + first + l, without `inbounds` (an inactive lane's address may
  // lie outside the buffer).
  llvm::Value* lane_address(llvm::IRBuilder<>& b, const LaneAddress& a, llvm::Value* lane);

  // Whether the bounds check guarding a load under a mask shows all W lanes inside the buffer
  // the load reads: its last pair is the element index and the buffer's extent (ir/bounds.hpp).
  llvm::Value* whole_vector_inside(llvm::IRBuilder<>& b, llvm::Instruction* load,
                                   llvm::Value* index);

  // The hidden extent of the pointer argument `address` indexes (through GEPs), or null.
  llvm::Value* elements_reached(llvm::Value* address) const;

  // The private W-element buffer the partial loads of `element`s assemble their lanes in, in the
  // entry block: element stores and one vector load cost less than inserting lanes at a computed
  // position (a stack round trip each). One per element type for the whole body: each partial
  // load fills it and reads it back before the next begins. PoCL keeps every alloca of a kernel
  // once per work-item of the group on the stack of the thread that runs it (common/
  // group_stack.hpp): one buffer per load was 34 x 64 bytes per work-item for a 16-lane upwind
  // step, 8.9 MB for its 4096-item groups, and overflowed an 8 MiB stack (issue #46).
  llvm::AllocaInst* lane_buffer(llvm::Type* element);

  // A partial store before `end`: when the active lanes are one run, in pieces of W/2, W/4, ..
  // 1 lanes (at most log2(W) stores, read from the lane buffer at the run's lane); else one
  // element per active lane.
  void store_run_or_lanes(llvm::Instruction* end, llvm::Value* mask, llvm::Value* value,
                          const LaneAddress& lanes, llvm::Align align);

  // The elements of the lanes in `mask` loaded one by one before `end` (which ends up in the block
  // after the lanes); the other lanes read 0.
  llvm::Value* load_lanes(llvm::Instruction* end, llvm::Value* mask, const LaneAddress& lanes,
                          llvm::Align align);

  LaneValues& v_;
  MaskAlgebra& algebra_;
  std::span<const unsigned> param_extents_;
  llvm::DenseMap<llvm::Type*, llvm::AllocaInst*> lane_buffers_;
};

}  // namespace spvjit::detail
