// Array parameters that know their shape, and length() of pointer parameters: the kernel reads
// each extent through a marker in its entry block; finish() turns the markers into hidden
// arguments the launch fills in (common/shape_args.hpp), or, for a count that bounds checks
// already pass, into their extent marker.
#include "ir/shapes.hpp"

#include <map>
#include <utility>

#include "common/error_report.hpp"
#include "ir/bounds.hpp"
#include "ir/kernel_module.hpp"
#include "ir/handles.hpp"
#include "spvjit/memory.hpp"

namespace spvjit::detail {

namespace {

llvm::Function* shape_marker(llvm::Module& m) {
  auto& ctx = m.getContext();
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  return bounds_marker(m, marker_shape, llvm::Type::getInt64Ty(ctx), {i32, i32}, true);
}

Value shape_value(BuilderState& s, unsigned param, std::int32_t dim, const std::string& name) {
  llvm::IRBuilder<> entry(s.alloca_block);
  auto* call = entry.CreateCall(
      shape_marker(*s.module),
      {entry.getInt32(param), entry.getInt32(static_cast<std::uint32_t>(dim))}, name);
  return detail::make_value(&s, call, Scalar::I64);
}

// The kernel parameter a pointer is, from the handle pointer_param() made: a GEP of the argument.
int parameter_of(const BuilderState& s, const Pointer& p) {
  auto* gep = llvm::dyn_cast_or_null<llvm::GetElementPtrInst>(detail::llvm_of(p));
  if (!gep || gep->getParent() != s.alloca_block) return -1;
  auto* arg = llvm::dyn_cast<llvm::Argument>(gep->getPointerOperand());
  if (!arg || arg->getParent() != s.kernel || arg->getArgNo() >= s.params.size()) return -1;
  const ParamKind kind = s.params[arg->getArgNo()].kind;
  // A struct by value is a pointer too (to its byval copy), but no memory the launch counts.
  return kind == ParamKind::Scalar || kind == ParamKind::Struct ? -1
                                                                : static_cast<int>(arg->getArgNo());
}

}  // namespace

ShapedPointer array_param(KernelBuilder& kb, std::string_view name, Scalar element, bool read_only,
                          unsigned rank, Layout layout) {
  auto& s = *detail::state_of(kb);
  user_assert(rank >= 1 && rank <= 3, {"param", s.name})
      << "parameter '" << name << "': an array of " << rank << " dimensions; expected 1 to 3";
  ShapedPointer out;
  out.data = kb.pointer_param(name, element, AddressSpace::Global, read_only);
  Param& p = s.params.back();
  p.rank = static_cast<std::uint8_t>(rank);
  p.layout = layout;
  const auto index = static_cast<unsigned>(s.params.size() - 1);
  out.shape.rank = rank;
  out.shape.layout = layout;
  for (unsigned d = 0; d < rank; ++d) {
    out.shape.extent[d] = shape_value(s, index, static_cast<std::int32_t>(d),
                                      std::string(name) + ".size" + std::to_string(d));
  }
  return out;
}

Value param_length(const Pointer& p) {
  user_assert(detail::state_of(p), {"length"}) << "the pointer is empty";
  auto& s = *detail::state_of(p);
  s.check_open("length");
  user_assert(s.function_name.empty(), {"length", s.name})
      << "called inside device function '" << s.function_name
      << "', which does not know what the launch passed; pass the length as an argument";
  const int param = parameter_of(s, p);
  user_assert(param >= 0, {"length", s.name})
      << "the pointer is no parameter of the kernel; expected a Global<T>, Const<T>, Constant<T> "
         "or Local<T> parameter, or an array (whose length is the product of its extents)";
  const Param& declared = s.params[static_cast<std::size_t>(param)];
  return shape_value(s, static_cast<unsigned>(param), ShapeArg::count_dim,
                     declared.name + ".length");
}

namespace {

// The shape markers' calls by parameter, then dimension: the hidden arguments' order follows the
// declarations, not the order the body read them in.
std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<llvm::CallInst*>> shape_uses(
    const BuilderState& s) {
  std::map<std::pair<std::uint32_t, std::int32_t>, std::vector<llvm::CallInst*>> uses;
  llvm::Function* marker = s.module->getFunction(marker_shape);
  if (!marker) return uses;
  for (auto* user : marker->users()) {
    auto* call = llvm::cast<llvm::CallInst>(user);
    const auto param = static_cast<std::uint32_t>(
        llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue());
    const auto dim = static_cast<std::int32_t>(
        llvm::cast<llvm::ConstantInt>(call->getArgOperand(1))->getSExtValue());
    uses[{param, dim}].push_back(call);
  }
  return uses;
}

bool carried_by_bounds_extent(std::int32_t dim, bool bounds_checked) {
  return dim == ShapeArg::count_dim && bounds_checked;
}

}  // namespace

std::vector<ShapeArg> shapes_passed(const BuilderState& s, bool bounds_checked) {
  std::vector<ShapeArg> passed;
  for (const auto& [key, calls] : shape_uses(s)) {
    if (!carried_by_bounds_extent(key.second, bounds_checked)) {
      passed.push_back({key.first, key.second});
    }
  }
  return passed;
}

void resolve_shapes(BuilderState& s, bool bounds_checked, unsigned first_shape) {
  llvm::Function* marker = s.module->getFunction(marker_shape);
  if (!marker) return;
  unsigned next = first_shape;
  for (auto& [key, calls] : shape_uses(s)) {
    const auto [param, dim] = key;
    const Param& p = s.params.at(param);
    llvm::Value* value = nullptr;
    if (carried_by_bounds_extent(dim, bounds_checked)) {
      // The bounds checks' extent of this parameter: the same count, passed once. First in the
      // entry block after its allocas, so that it comes before every use.
      llvm::IRBuilder<> entry(s.alloca_block, s.alloca_block->getFirstInsertionPt());
      while (entry.GetInsertPoint() != s.alloca_block->end() &&
             llvm::isa<llvm::AllocaInst>(*entry.GetInsertPoint())) {
        entry.SetInsertPoint(s.alloca_block, std::next(entry.GetInsertPoint()));
      }
      auto* extent =
          bounds_marker(*s.module, marker_extent, entry.getInt64Ty(), {entry.getInt32Ty()}, true);
      value = entry.CreateCall(extent, {entry.getInt32(param)}, p.name + ".count");
    } else {
      value = s.kernel->getArg(next++);
    }
    for (auto* call : calls) {
      call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
  }
  internal_assert(next == s.kernel->arg_size())
      << "kernel '" << s.name << "': the shape markers used " << next - first_shape
      << " hidden arguments of the " << s.kernel->arg_size() - first_shape << " after "
      << first_shape;
  marker->eraseFromParent();
}

}  // namespace spvjit::detail
