#include "jit/coarsen/masked_memory.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <algorithm>

namespace spvjit::detail {

llvm::Value* MaskedMemory::lane_address(llvm::IRBuilder<>& b, const LaneAddress& a,
                                        llvm::Value* lane) {
  if (a.indices) return b.CreateGEP(a.element, a.pointer, b.CreateExtractElement(a.indices, lane));
  return b.CreateGEP(a.element, a.pointer, b.CreateAdd(a.first, lane));
}

bool MaskedMemory::is_gather(llvm::Value* address) const {
  auto found = lane_addresses.find(address);
  return found != lane_addresses.end() && found->second.indices;
}

llvm::Value* MaskedMemory::gather(llvm::IRBuilder<>& b, llvm::LoadInst* load) {
  const LaneAddress lanes = lane_addresses.lookup(load->getPointerOperand());
  if (v_.masks.count(load)) {
    llvm::Value* v = load_lanes(load, algebra_.mask_of(b, load), lanes, load->getAlign());
    b.SetInsertPoint(load);
    return v;
  }
  llvm::Value* v = llvm::PoisonValue::get(v_.vector_type(load->getType()));
  for (unsigned l = 0; l < v_.width; ++l) {
    llvm::Value* element =
        b.CreateAlignedLoad(lanes.element, lane_address(b, lanes, b.getInt64(l)), load->getAlign());
    v = b.CreateInsertElement(v, element, l);
  }
  return v;
}

void MaskedMemory::scatter(llvm::IRBuilder<>& b, llvm::StoreInst* store) {
  const LaneAddress lanes = lane_addresses.lookup(store->getPointerOperand());
  llvm::Value* value = v_.vector_of(b, store->getValueOperand());
  if (v_.masks.count(store)) {
    store_lanes(store, algebra_.mask_of(b, store), value, lanes, store->getAlign());
    b.SetInsertPoint(store);
    return;
  }
  for (unsigned l = 0; l < v_.width; ++l) {
    b.CreateAlignedStore(b.CreateExtractElement(value, l), lane_address(b, lanes, b.getInt64(l)),
                         store->getAlign());
  }
}

LaneAddress MaskedMemory::half_lanes(llvm::IRBuilder<>& b, llvm::Value* pointer,
                                     llvm::Value* first) {
  const unsigned space = pointer->getType()->getPointerAddressSpace();
  return {b.CreateBitCast(pointer, llvm::PointerType::get(b.getInt16Ty(), space)), first,
          b.getInt16Ty()};
}

llvm::Value* MaskedMemory::whole_vector_inside(llvm::IRBuilder<>& b, llvm::Instruction* load,
                                               llvm::Value* index) {
  llvm::CallInst* check = v_.masks.at(load).check;
  llvm::Value* extent = nullptr;
  if (check && check->arg_size() >= 2) {
    if (check->getArgOperand(check->arg_size() - 2) != index) return nullptr;
    extent = check->getArgOperand(check->arg_size() - 1);
  } else {
    extent = elements_reached(llvm::cast<llvm::LoadInst>(load)->getPointerOperand());
  }
  if (!extent || !v_.is_consecutive(index)) return nullptr;
  llvm::Value* first = v_.first_of(index);
  llvm::Value* last = b.CreateAdd(first, b.getInt64(v_.width - 1));
  return b.CreateAnd(b.CreateICmpULT(first, extent), b.CreateICmpULT(last, extent));
}

llvm::Value* MaskedMemory::elements_reached(llvm::Value* address) const {
  // The access's GEP (one index, in elements), then the builder's GEP of the parameter at
  // element 0, of the same element type.
  auto* access = llvm::dyn_cast<llvm::GetElementPtrInst>(address);
  if (!access || access->getNumIndices() != 1) return nullptr;
  llvm::Value* base = access->getPointerOperand();
  if (auto* start = llvm::dyn_cast<llvm::GetElementPtrInst>(base)) {
    if (!start->hasAllZeroIndices() ||
        start->getSourceElementType() != access->getSourceElementType()) {
      return nullptr;
    }
    base = start->getPointerOperand();
  }
  auto* arg = llvm::dyn_cast<llvm::Argument>(base->stripPointerCasts());
  if (!arg || arg->getParent() != &v_.f || arg->getArgNo() >= param_extents_.size()) {
    return nullptr;
  }
  const unsigned extent = param_extents_[arg->getArgNo()];
  return extent < v_.f.arg_size() ? v_.f.getArg(extent) : nullptr;
}

llvm::AllocaInst* MaskedMemory::lane_buffer(llvm::Type* element) {
  llvm::AllocaInst*& buffer = lane_buffers_[element];
  if (!buffer) {
    llvm::IRBuilder<> b(&*v_.f.getEntryBlock().getFirstInsertionPt());
    buffer = b.CreateAlloca(v_.vector_type(element), nullptr, "lanes.buffer");
  }
  return buffer;
}

llvm::Value* MaskedMemory::masked_load(llvm::IRBuilder<>& b, llvm::Instruction* at,
                                       llvm::Value* vector_address, const LaneAddress& lanes,
                                       llvm::Align align, llvm::Value* index) {
  llvm::Value* mask = algebra_.mask_of(b, at);
  llvm::Value* inside = index ? whole_vector_inside(b, at, index) : nullptr;
  llvm::Value* whole =
      inside ? algebra_.or_else(b, inside,
                                [&](llvm::IRBuilder<>& t) { return algebra_.every_lane(t, at); })
             : algebra_.every_lane(b, at);
  llvm::Instruction *whole_end = nullptr, *partial_end = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(whole, at, &whole_end, &partial_end);
  llvm::IRBuilder<> w(whole_end);
  llvm::Value* vector = w.CreateAlignedLoad(v_.vector_type(lanes.element), vector_address, align);
  llvm::Value* partial = load_lanes(partial_end, mask, lanes, align);
  auto* result =
      llvm::PHINode::Create(vector->getType(), 2, "masked.load", &at->getParent()->front());
  result->addIncoming(vector, whole_end->getParent());
  result->addIncoming(partial, partial_end->getParent());
  b.SetInsertPoint(at);
  return result;
}

void MaskedMemory::masked_store(llvm::IRBuilder<>& b, llvm::Instruction* at, llvm::Value* value,
                                llvm::Value* vector_address, const LaneAddress& lanes,
                                llvm::Align align) {
  llvm::Value* mask = algebra_.mask_of(b, at);
  llvm::Instruction *whole_end = nullptr, *partial_end = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(algebra_.every_lane(b, at), at, &whole_end, &partial_end);
  llvm::IRBuilder<>(whole_end).CreateAlignedStore(value, vector_address, align);
  store_run_or_lanes(partial_end, mask, value, lanes, align);
  b.SetInsertPoint(at);
}

void MaskedMemory::store_run_or_lanes(llvm::Instruction* end, llvm::Value* mask, llvm::Value* value,
                                      const LaneAddress& lanes, llvm::Align align) {
  if (value->getType() != v_.vector_type(lanes.element)) {
    store_lanes(end, mask, value, lanes, align);
    return;
  }
  llvm::IRBuilder<> b(end);
  const LaneRun run = algebra_.lane_run(b, mask);
  llvm::Instruction *run_end = nullptr, *lanes_end = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(run.is_run, end, &run_end, &lanes_end);
  store_lanes(lanes_end, mask, value, lanes, align);
  auto* buffer = lane_buffer(lanes.element);
  llvm::IRBuilder<>(run_end).CreateStore(value, buffer);
  llvm::Value* at = run.first;
  const llvm::Align element_align(v_.f.getParent()->getDataLayout().getABITypeAlign(lanes.element));
  for (unsigned piece = v_.width / 2; piece >= 1; piece /= 2) {
    llvm::IRBuilder<> p(run_end);
    llvm::Value* has = p.CreateICmpNE(p.CreateAnd(run.length, p.getInt64(piece)), p.getInt64(0));
    llvm::Instruction* store_at = llvm::SplitBlockAndInsertIfThen(has, run_end, false);
    llvm::IRBuilder<> s(store_at);
    llvm::Type* type =
        piece == 1 ? lanes.element
                   : static_cast<llvm::Type*>(llvm::FixedVectorType::get(lanes.element, piece));
    llvm::Value* from =
        s.CreateInBoundsGEP(buffer->getAllocatedType(), buffer, {s.getInt64(0), at});
    from = s.CreateBitCast(from, llvm::PointerType::get(type, 0));
    llvm::Value* to = lane_address(s, lanes, at);
    to = s.CreateBitCast(to, llvm::PointerType::get(type, to->getType()->getPointerAddressSpace()));
    s.CreateAlignedStore(s.CreateAlignedLoad(type, from, element_align), to,
                         std::min(align, element_align));
    p.SetInsertPoint(run_end);
    at = p.CreateAdd(at, p.CreateSelect(has, p.getInt64(piece), p.getInt64(0)));
  }
}

llvm::Value* MaskedMemory::load_lanes(llvm::Instruction* end, llvm::Value* mask,
                                      const LaneAddress& lanes, llvm::Align align) {
  auto* buffer = lane_buffer(lanes.element);
  llvm::IRBuilder<>(end).CreateStore(llvm::Constant::getNullValue(v_.vector_type(lanes.element)),
                                     buffer);
  algebra_.for_active_lanes(end, mask, [&](llvm::IRBuilder<>& l, llvm::Value* lane) {
    auto* element = l.CreateAlignedLoad(lanes.element, lane_address(l, lanes, lane), align);
    l.CreateStore(element,
                  l.CreateInBoundsGEP(buffer->getAllocatedType(), buffer, {l.getInt64(0), lane}));
  });
  return llvm::IRBuilder<>(end).CreateLoad(buffer->getAllocatedType(), buffer);
}

void MaskedMemory::store_lanes(llvm::Instruction* end, llvm::Value* mask, llvm::Value* value,
                               const LaneAddress& lanes, llvm::Align align) {
  algebra_.for_active_lanes(end, mask, [&](llvm::IRBuilder<>& l, llvm::Value* lane) {
    l.CreateAlignedStore(l.CreateExtractElement(value, lane), lane_address(l, lanes, lane), align);
  });
}

}  // namespace spvjit::detail
