// Local and private arrays, row- and column-major offsets, and barriers.
#include "spvjit/memory.hpp"

#include <llvm/IR/GlobalVariable.h>

#include <limits>

#include "ir/state.hpp"
#include "ir/work_item_builtins.hpp"
#include "ir/handles.hpp"

namespace spvjit {

namespace {
// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE: anything else is not a fence OpenCL 1.2 knows.
constexpr unsigned all_fences = 3;
// Far above any device's local memory, low enough that byte counts cannot overflow.
constexpr std::uint64_t max_static_elements = std::uint64_t{1} << 40;
// Local and private arrays start on a 128-byte boundary: the size of the widest vector (16 x
// 64 bits), so vload/vstore with VectorAlign::Vector hold at any multiple of N elements.
constexpr unsigned array_alignment = 128;
}  // namespace

void barrier(KernelBuilder& kb, Fence fence) {
  auto& s = *detail::state_of(kb);
  s.check_open("barrier");
  user_assert(s.function_name.empty(), {"barrier", s.name})
      << "called inside device function '" << s.function_name
      << "'; a barrier must be in the kernel body so that every work-item of the group reaches it";
  const unsigned flags = static_cast<unsigned>(fence);
  user_assert(flags != 0 && (flags & ~all_fences) == 0, {"barrier", s.name})
      << "fence flags " << flags << "; expected Fence::Local, Fence::Global or both";
  auto* call =
      s.call_builtin(detail::builtin::barrier, s.ir.getVoidTy(), {s.ir.getInt32(flags)}, false);
  // Convergent: LLVM must not move the barrier into or out of conditions.
  call->getCalledFunction()->addFnAttr(llvm::Attribute::Convergent);
  call->getCalledFunction()->addFnAttr(llvm::Attribute::NoDuplicate);
  call->addFnAttr(llvm::Attribute::Convergent);
}

namespace detail {

namespace {
std::uint64_t count_elements(std::initializer_list<std::int64_t> extents, Where where) {
  user_assert(extents.size() >= 1 && extents.size() <= 3, (where))
      << extents.size() << " extents; expected 1 to 3";
  std::uint64_t count = 1;
  for (std::int64_t e : extents) {
    user_assert(e > 0, (where)) << "extent " << e << "; expected a positive size";
    user_assert(static_cast<std::uint64_t>(e) <= max_static_elements / count, (where))
        << "more than 2^40 elements";
    count *= static_cast<std::uint64_t>(e);
  }
  return count;
}
}  // namespace

// make_shape has checked the extents, naming the kernel, before this is called.
std::uint64_t element_count(std::initializer_list<std::int64_t> extents, const char* what) {
  return count_elements(extents, {what});
}

Shape make_shape(BuilderState* s, std::initializer_list<std::int64_t> extents, const char* what,
                 Layout layout) {
  count_elements(extents, {what, kernel_name(s)});
  Shape shape;
  shape.layout = layout;
  for (std::int64_t e : extents) shape.extent[shape.rank++] = literal(s, e);
  return shape;
}

Shape make_shape(const Value* extents, unsigned count, const char* what, Layout layout) {
  Shape shape;
  shape.layout = layout;
  for (unsigned d = 0; d < count; ++d) {
    user_assert(extents[d].valid(), {what}) << "extent is an empty Value";
    user_assert(is_integer(extents[d].type()), {what, state_of(extents[d])->name})
        << "extent " << d << " is " << name(extents[d].type()) << "; expected an integer";
    shape.extent[d] = cast(extents[d], Scalar::I64);
  }
  shape.rank = count;
  return shape;
}

Value extent(const Shape& shape, unsigned d) {
  user_assert(d < shape.rank,
              {"array extent", kernel_name(shape.rank ? state_of(shape.extent[0]) : nullptr)})
      << "dimension " << d << "; the array has " << shape.rank << " dimensions";
  return shape.extent[d];
}

Value element_count(const Shape& shape) {
  user_assert(shape.rank != 0, {"array length"}) << "the array is empty (default-constructed)";
  Value count = shape.extent[0];
  for (unsigned d = 1; d < shape.rank; ++d) count = binary(BinaryOp::Mul, count, shape.extent[d]);
  return count;
}

Value offset(const Shape& shape, const Value* indices, unsigned count, const char* what,
             ViewIndex* view) {
  const Where where{what, kernel_name(shape.rank ? state_of(shape.extent[0]) : nullptr)};
  user_assert(count == shape.rank, (where))
      << count << " indices for a " << shape.rank << "-dimensional array; expected " << shape.rank;
  Value index[3];
  for (unsigned d = 0; d < count; ++d) {
    user_assert(indices[d].valid(), (where)) << "index is an empty Value";
    user_assert(is_integer(indices[d].type()), (where))
        << "index " << d << " is " << name(indices[d].type()) << "; expected an integer";
    index[d] = cast(indices[d], Scalar::I64);
    if (view) {
      view->index[d] = detail::llvm_of(index[d]);
      view->extent[d] = detail::llvm_of(shape.extent[d]);
      view->rank = count;
    }
  }
  // Horner's rule from the slowest index: row-major ((i0 * n1) + i1) * n2 + i2, column-major
  // ((i2 * n1) + i1) * n0 + i0.
  const bool rows = shape.layout == Layout::RowMajor;
  Value linear = index[rows ? 0 : count - 1];
  for (unsigned k = 1; k < count; ++k) {
    const unsigned d = rows ? k : count - 1 - k;
    linear = binary(BinaryOp::Add, binary(BinaryOp::Mul, linear, shape.extent[d]), index[d]);
  }
  return linear;
}

Pointer make_local_array(KernelBuilder& kb, Scalar element, std::uint64_t count,
                         std::string_view array_name) {
  auto& s = *detail::state_of(kb);
  s.check_open("local_array");
  user_assert(s.function_name.empty(), {"local_array", s.name})
      << "declared inside device function '" << s.function_name
      << "'; OpenCL allows local arrays only in the kernel body";
  auto* type = llvm::ArrayType::get(s.memory_type(element), count);
  // Like clang's kernel-scope __local arrays: an internal addrspace(3) global per array.
  auto* global = new llvm::GlobalVariable(
      *s.module, type, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(type),
      s.name + "." + std::string(array_name), nullptr, llvm::GlobalValue::NotThreadLocal,
      static_cast<unsigned>(AddressSpace::Local));
  global->setAlignment(llvm::Align(array_alignment));
  s.static_local_bytes += count * size_of(element);
  llvm::Constant* zero = s.ir.getInt64(0);
  llvm::Constant* first =
      llvm::ConstantExpr::getInBoundsGetElementPtr(type, global, llvm::ArrayRef{zero, zero});
  const int array = s.add_array("local array " + std::string(array_name), std::string(array_name));
  return detail::make_pointer(&s, first, element, AddressSpace::Local, false, s.ir.getInt64(count),
                              array);
}

Pointer make_private_array(KernelBuilder& kb, Scalar element, std::uint64_t count) {
  auto& s = *detail::state_of(kb);
  s.check_open("private_array");
  auto* type = llvm::ArrayType::get(s.memory_type(element), count);
  auto* slot = s.entry_alloca(type, "private");
  slot->setAlignment(llvm::Align(array_alignment));
  llvm::IRBuilder<> entry(s.alloca_block);
  auto* first = entry.CreateConstInBoundsGEP2_64(type, slot, 0, 0, "private.first");
  const int array = s.add_array("private array", "private");
  return detail::make_pointer(&s, first, element, AddressSpace::Private, false,
                              s.ir.getInt64(count), array);
}

}  // namespace detail
}  // namespace spvjit
