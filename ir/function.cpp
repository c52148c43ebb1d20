// Device functions: while one is open, the builder's current function, entry block, loops and
// insertion point are swapped for the function's, so every verb (if_, for_, var, loads, math)
// builds into it unchanged; closing restores the kernel's.
#include "spvjit/function.hpp"
#include "common/error_report.hpp"
#include "common/kernel_interface.hpp"

#include "ir/block_order.hpp"
#include "ir/bounds.hpp"
#include "ir/state.hpp"
#include "ir/handles.hpp"

namespace spvjit {

namespace detail {

struct FunctionFrame {
  BuilderState* state = nullptr;
  llvm::Function* fn = nullptr;
  llvm::Function* saved_function = nullptr;
  llvm::BasicBlock* saved_alloca = nullptr;
  llvm::IRBuilderBase::InsertPoint saved_point;
  std::vector<LoopFrame> saved_loops;
  std::string saved_name;
  llvm::Value* saved_record = nullptr;
  std::vector<FunctionParam> params;
  /// Per parameter: the hidden extent argument's index and the array number (pointers only).
  std::vector<unsigned> extent_arg;
  std::vector<int> array;
  std::optional<Scalar> result;
  unsigned result_lanes = 1;
  bool saved_returns_through_pointers = false;
  bool closed = false;

  void restore() {
    state->kernel = saved_function;
    state->alloca_block = saved_alloca;
    state->loops = std::move(saved_loops);
    state->function_name = std::move(saved_name);
    state->bounds_record = saved_record;
    state->function_returns_through_pointers = saved_returns_through_pointers;
    state->ir.restoreIP(saved_point);
  }
};

namespace {
// A device function's hidden arguments, for its definition and each call alike.
HiddenArgs hidden_args_of(const std::vector<FunctionParam>& params) {
  std::vector<bool> pointer;
  for (const FunctionParam& p : params) pointer.push_back(p.pointer);
  return HiddenArgs::device_function(pointer);
}

llvm::Type* arg_type(BuilderState& s, Scalar t, const std::string& fn) {
  user_assert(t != Scalar::F16, {"device_function", s.name})
      << "an f16 argument or result in device function '" << fn
      << "'; expected f32 (f16 is a storage type)";
  return s.register_type(t);
}

// A vector argument or result: as OpenCL C passes a float4, by value.
llvm::Type* value_type(BuilderState& s, Scalar t, unsigned lanes, const std::string& fn) {
  llvm::Type* element = arg_type(s, t, fn);
  if (lanes == 1) return element;
  user_assert(valid_lanes(lanes), {"device_function", s.name})
      << "a vector of " << lanes << " lanes in device function '" << fn
      << "'; expected 2, 3, 4, 8 or 16";
  return llvm::FixedVectorType::get(element, lanes);
}
}  // namespace

DeviceFunctionScope::DeviceFunctionScope(KernelBuilder& kb, std::string_view name,
                                         std::optional<Scalar> result,
                                         std::vector<FunctionParam> params, unsigned result_lanes,
                                         bool results_through_pointers)
    : frame_(std::make_unique<FunctionFrame>()) {
  auto& s = *detail::state_of(kb);
  s.check_open("device_function");
  check_identifier({"device_function", s.name}, name, "device function name");
  const std::string fn_name(name);
  user_assert(!s.module->getFunction(fn_name), {"device_function", s.name})
      << "device function name '" << fn_name
      << "' is taken (by the kernel, another device function or a builtin)";
  std::vector<llvm::Type*> types;
  for (const FunctionParam& p : params) {
    llvm::Type* pointee = p.layout ? s.struct_type(*p.layout).type : s.memory_type(p.type);
    types.push_back(p.pointer ? llvm::PointerType::get(pointee, static_cast<unsigned>(p.space))
                              : value_type(s, p.type, p.lanes, fn_name));
  }
  // Hidden: each pointer's extent (the caller's, or the largest i64 for an unchecked one), and
  // the record a failing check reports to (ir/bounds.hpp), as HiddenArgs lays them out.
  const HiddenArgs hidden = hidden_args_of(params);
  for (const HiddenArg& arg : hidden.sequence) {
    types.push_back(arg.kind == HiddenArg::Kind::Extent ? s.ir.getInt64Ty() : record_type(s.ctx()));
  }
  llvm::Type* ret = result ? value_type(s, *result, result_lanes, fn_name) : s.ir.getVoidTy();
  auto* fn = llvm::Function::Create(llvm::FunctionType::get(ret, types, false),
                                    llvm::Function::InternalLinkage, fn_name, *s.module);
  fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  fn->addFnAttr(llvm::Attribute::NoUnwind);

  auto& f = *frame_;
  f.state = &s;
  f.fn = fn;
  f.params = std::move(params);
  f.result = result;
  f.result_lanes = result ? result_lanes : 1;
  f.saved_function = s.kernel;
  f.saved_alloca = s.alloca_block;
  f.saved_point = s.ir.saveIP();
  f.saved_loops = std::move(s.loops);
  f.saved_name = s.function_name;
  f.saved_record = s.bounds_record;
  f.saved_returns_through_pointers = s.function_returns_through_pointers;
  f.extent_arg.assign(f.params.size(), 0);
  for (std::size_t k = 0; k < hidden.sequence.size(); ++k) {
    if (hidden.sequence[k].kind == HiddenArg::Kind::Extent) {
      f.extent_arg[hidden.sequence[k].of] = static_cast<unsigned>(f.params.size() + k);
    }
  }
  for (std::size_t i = 0; i < f.params.size(); ++i) {
    f.array.push_back(f.params[i].pointer ? s.add_array("argument " + std::to_string(i) +
                                                            " of device function " + fn_name,
                                                        fn_name + ".arg" + std::to_string(i))
                                          : -1);
  }
  s.bounds_record = fn->getArg(hidden.record);

  s.kernel = fn;
  s.function_returns_through_pointers = results_through_pointers;
  s.loops.clear();
  s.function_name = fn_name;
  s.alloca_block = llvm::BasicBlock::Create(s.ctx(), "entry", fn);
  s.ir.SetInsertPoint(llvm::BasicBlock::Create(s.ctx(), "body", fn));
}

DeviceFunctionScope::~DeviceFunctionScope() {
  if (!frame_ || frame_->closed) return;
  // The body threw: drop the half-built function so the module stays valid.
  frame_->restore();
  frame_->fn->dropAllReferences();
  frame_->fn->eraseFromParent();
}

Value DeviceFunctionScope::arg(unsigned i) const {
  const FunctionParam& p = frame_->params.at(i);
  internal_assert(!p.pointer && p.lanes == 1)
      << "device function argument " << i << " is no scalar";
  return detail::make_value(frame_->state, frame_->fn->getArg(i), p.type);
}

Pointer DeviceFunctionScope::pointer_arg(unsigned i) const {
  const FunctionParam& p = frame_->params.at(i);
  internal_assert(p.pointer) << "device function argument " << i << " is a scalar";
  return detail::make_pointer(frame_->state, frame_->fn->getArg(i), p.type, p.space, p.read_only,
                              frame_->fn->getArg(frame_->extent_arg.at(i)), frame_->array.at(i),
                              p.layout);
}

VecValue DeviceFunctionScope::vector_arg(unsigned i) const {
  const FunctionParam& p = frame_->params.at(i);
  internal_assert(p.lanes >= 2) << "device function argument " << i << " is no vector";
  return detail::make_vec(frame_->state, frame_->fn->getArg(i), p.type, p.lanes);
}

void* DeviceFunctionScope::close(std::optional<Value> result) {
  auto& f = *frame_;
  auto& s = *f.state;
  llvm::Type* ret = f.fn->getReturnType();
  if (!s.ir.GetInsertBlock()->getTerminator()) {
    if (ret->isVoidTy()) {
      s.ir.CreateRetVoid();
    } else {
      const std::string what = "result of device function '" + s.function_name + "'";
      user_assert(f.result_lanes == 1, {what, s.name})
          << "the body returned a scalar; expected " << shape_name(*f.result, f.result_lanes);
      user_assert(result && result->valid(), {what, s.name}) << "the body returned no value";
      s.check_same_builder(*result, what.c_str());
      if (result->type() != *f.result) throw_type_mismatch(what.c_str(), *f.result, *result);
      s.ir.CreateRet(detail::llvm_of(*result));
    }
  }
  return finish_function();
}

void* DeviceFunctionScope::close(const VecValue& result) {
  auto& f = *frame_;
  auto& s = *f.state;
  if (!s.ir.GetInsertBlock()->getTerminator()) {
    const std::string what = "result of device function '" + s.function_name + "'";
    user_assert(f.result && f.result_lanes >= 2, {what, s.name})
        << "the body returned a vector " << shape_name(result.element(), result.lanes())
        << "; expected " << (f.result ? spvjit::name(*f.result) : std::string_view("nothing"));
    s.check_same_builder(detail::state_of(result), detail::llvm_of(result), what.c_str(),
                         "an empty vector");
    s.check_in_current_function(detail::llvm_of(result), what.c_str());
    user_assert(result.element() == *f.result && result.lanes() == f.result_lanes, {what, s.name})
        << "the result is " << shape_name(result.element(), result.lanes()) << "; expected "
        << shape_name(*f.result, f.result_lanes);
    s.ir.CreateRet(detail::llvm_of(result));
  }
  return finish_function();
}

void* DeviceFunctionScope::finish_function() {
  auto& f = *frame_;
  auto& s = *f.state;
  llvm::IRBuilder<> entry(s.alloca_block);
  entry.CreateBr(s.alloca_block->getNextNode());
  for (auto& block : *f.fn) {
    if (!block.getTerminator()) {
      llvm::IRBuilder<> b(&block);
      b.CreateUnreachable();
    }
  }
  order_blocks(*f.fn);
  f.restore();
  f.closed = true;
  return f.fn;
}

namespace {
std::string describe(const FunctionParam& p) {
  if (p.lanes > 1) return shape_name(p.type, p.lanes);
  const std::string element =
      p.layout ? "struct " + p.layout->name() : std::string(spvjit::name(p.type));
  if (!p.pointer) return element;
  return std::string(spvjit::name(p.space)) + (p.read_only ? " const " : " ") + element + "*";
}

llvm::Value* call_operand(BuilderState& s, const std::string& what, std::size_t i,
                          const FunctionParam& p, const CallArg& a) {
  const Where where{what, s.name};
  if (p.lanes > 1) {
    const VecValue& v = a.vector;
    user_assert(detail::llvm_of(v), (where)) << "argument " << i << " is an empty vector";
    s.check_same_builder(detail::state_of(v), detail::llvm_of(v), what.c_str(), "an empty vector");
    s.check_in_current_function(detail::llvm_of(v), what.c_str());
    user_assert(v.element() == p.type && v.lanes() == p.lanes, (where))
        << "argument " << i << " is " << shape_name(v.element(), v.lanes()) << "; expected "
        << describe(p);
    return detail::llvm_of(v);
  }
  if (!p.pointer) {
    s.check_same_builder(a.value, what.c_str());
    user_assert(a.value.type() == p.type, (where))
        << "argument " << i << " is " << spvjit::name(a.value.type()) << "; expected "
        << describe(p);
    return detail::llvm_of(a.value);
  }
  user_assert(detail::llvm_of(a.pointer), (where)) << "argument " << i << " is an empty pointer";
  user_assert(detail::state_of(a.pointer) == &s, (where))
      << "argument " << i << " belongs to another kernel";
  s.check_in_current_function(detail::llvm_of(a.pointer), what.c_str());
  const FunctionParam given{a.pointer.element(),   true, a.pointer.space(),
                            a.pointer.read_only(), 1,    a.pointer.layout()};
  const bool same_layout =
      given.layout == p.layout || (given.layout && p.layout && p.layout->accepts(*given.layout));
  if (given.type != p.type || given.space != p.space || (given.read_only && !p.read_only) ||
      !same_layout) {
    user_error((where)) << "argument " << i << " is " << describe(given) << "; expected "
                        << describe(p);
  }
  return detail::llvm_of(a.pointer);
}
}  // namespace

namespace {
llvm::CallInst* emit_call(KernelBuilder& kb, void* fn, std::string_view name,
                          const std::vector<FunctionParam>& params,
                          const std::vector<CallArg>& args) {
  auto& s = *detail::state_of(kb);
  const std::string what = "call of device function '" + std::string(name) + "'";
  s.check_open(what.c_str());
  auto* callee = static_cast<llvm::Function*>(fn);
  user_assert(callee->getParent() == s.module.get(), {what, s.name})
      << "the function belongs to another kernel";
  user_assert(callee != s.kernel, {what, s.name}) << "a device function cannot call itself";
  std::vector<llvm::Value*> raw;
  for (std::size_t i = 0; i < args.size(); ++i)
    raw.push_back(call_operand(s, what, i, params[i], args[i]));
  for (const HiddenArg& arg : hidden_args_of(params).sequence) {
    if (arg.kind == HiddenArg::Kind::Record) {
      raw.push_back(record_pointer(s));
      continue;
    }
    llvm::Value* extent = detail::extent_of(args[arg.of].pointer);
    raw.push_back(extent ? extent : s.ir.getInt64(~std::uint64_t{0}));
  }
  auto* call = s.ir.CreateCall(callee, raw);
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}
}  // namespace

Value call_device_function(KernelBuilder& kb, void* fn, std::string_view name,
                           std::optional<Scalar> result, const std::vector<FunctionParam>& params,
                           const std::vector<CallArg>& args) {
  auto* call = emit_call(kb, fn, name, params, args);
  user_assert(!result || !call->getType()->isVectorTy(),
              {"call of device function '" + std::string(name) + "'", detail::state_of(kb)->name})
      << "it returns a vector; expected a scalar result";
  return result ? detail::make_value(detail::state_of(kb), call, *result) : Value();
}

VecValue call_vector_function(KernelBuilder& kb, void* fn, std::string_view name, Scalar element,
                              unsigned lanes, const std::vector<FunctionParam>& params,
                              const std::vector<CallArg>& args) {
  auto* call = emit_call(kb, fn, name, params, args);
  auto* type = llvm::dyn_cast<llvm::FixedVectorType>(call->getType());
  user_assert(type && type->getNumElements() == lanes,
              {"call of device function '" + std::string(name) + "'", detail::state_of(kb)->name})
      << "it does not return " << shape_name(element, lanes);
  return detail::make_vec(detail::state_of(kb), call, element, lanes);
}

}  // namespace detail
}  // namespace spvjit
