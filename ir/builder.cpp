// KernelBuilder: parameters, the index space, and finishing a kernel into a KernelDef.
#include "spvjit/builder.hpp"
#include "common/error_report.hpp"

#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <cctype>

#include "common/full_stack.hpp"
#include "ir/half_bits.hpp"
#include "ir/block_order.hpp"
#include "ir/fast_math.hpp"
#include "ir/bounds.hpp"
#include "ir/analysis/group_stack.hpp"
#include "ir/kernel_module.hpp"
#include "ir/analysis/scope_check.hpp"
#include "ir/shapes.hpp"
#include "ir/state.hpp"
#include "ir/analysis/synchronizing.hpp"
#include "ir/analysis/barriers_uniform.hpp"
#include "ir/work_item_builtins.hpp"
#include "ir/handles.hpp"
#include "ir/pass_runner.hpp"

namespace spvjit {

namespace detail {

namespace {
constexpr const char* spir64_triple = "spir64-unknown-unknown";
constexpr const char* spir64_layout =
    "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024";
}  // namespace

void check_identifier(Where where, std::string_view name, const char* what) {
  bool ok = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  user_assert(ok && !name.starts_with("__spvjit"), (where))
      << what << " '" << name
      << "' is not a valid identifier: expected [A-Za-z_][A-Za-z0-9_]* not starting with __spvjit";
}

void check_kernel_name(Where where, std::string_view name, const char* what) {
  check_identifier(where, name, what);
  const auto refuse = [&](const std::string& why) {
    const std::string shown =
        name.size() > 64 ? std::string(name.substr(0, 64)) + "..." : std::string(name);
    user_error((where)) << what << " '" << shown << "' " << why;
  };
  // PoCL looks a kernel's work-group function up as "_pocl_kernel_<name>_workgroup" in a
  // 1024-byte buffer (lib/CL/devices/common.c): a longer name was cut short and aborted there.
  if (name.size() > max_kernel_name_length) {
    refuse("is " + std::to_string(name.size()) + " characters long: kernel names have at most " +
           std::to_string(max_kernel_name_length));
  }
  // Reserved to the implementation in C and OpenCL C: mangled builtins (_Z13get_global_idj,
  // _Z3sinf) and the runtime's own symbols (__pocl_*, __spvjit_*) start so. A kernel of such a
  // name was taken for the builtin it is named after.
  if (name.size() >= 2 && name[0] == '_' &&
      (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'))) {
    refuse(
        "is reserved (names starting with '__' or '_' and a capital letter are the OpenCL "
        "runtime's: mangled builtins, library symbols); rename the kernel");
  }
  // The kernel library's printf, which print() calls.
  if (name == "printf") refuse("is the OpenCL printf builtin's name; rename the kernel");
}

BuilderState::BuilderState(std::string kernel_name)
    : context(std::make_unique<llvm::LLVMContext>()), ir(*context), name(std::move(kernel_name)) {
  // SPIRV-LLVM-Translator 15 expects typed pointers; LLVM 15 defaults to opaque ones.
  context->setOpaquePointers(false);
  module = std::make_unique<llvm::Module>(name, *context);
  module->setTargetTriple(spir64_triple);
  module->setDataLayout(spir64_layout);
  auto* fn_type = llvm::FunctionType::get(llvm::Type::getVoidTy(*context), {}, false);
  kernel = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, name, *module);
  kernel->setCallingConv(llvm::CallingConv::SPIR_KERNEL);
  alloca_block = llvm::BasicBlock::Create(*context, "entry", kernel);
  auto* body = llvm::BasicBlock::Create(*context, "body", kernel);
  ir.SetInsertPoint(body);
}

llvm::Type* BuilderState::register_type(Scalar s) {
  switch (s) {
    case Scalar::Bool:
      return ir.getInt1Ty();
    case Scalar::I8:
    case Scalar::U8:
      return ir.getInt8Ty();
    case Scalar::I16:
    case Scalar::U16:
      return ir.getInt16Ty();
    case Scalar::I32:
    case Scalar::U32:
      return ir.getInt32Ty();
    case Scalar::I64:
    case Scalar::U64:
      return ir.getInt64Ty();
    case Scalar::F16:
      return ir.getFloatTy();  // arithmetic in float
    case Scalar::F32:
      return ir.getFloatTy();
    case Scalar::F64:
      return ir.getDoubleTy();
  }
  internal_error << "register_type: unknown scalar";
  return ir.getVoidTy();
}

llvm::Type* BuilderState::memory_type(Scalar s) {
  if (s == Scalar::Bool) return ir.getInt8Ty();
  if (s == Scalar::F16) return ir.getHalfTy();
  return register_type(s);
}

llvm::Function* BuilderState::builtin(const std::string& mangled, llvm::Type* ret,
                                      llvm::ArrayRef<llvm::Type*> args, bool pure) {
  auto* type = llvm::FunctionType::get(ret, args, false);
  auto callee = module->getOrInsertFunction(mangled, type);
  auto* fn = llvm::cast<llvm::Function>(callee.getCallee());
  fn->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  if (pure) fn->addFnAttr(llvm::Attribute::ReadNone);
  return fn;
}

llvm::CallInst* BuilderState::call_builtin(const std::string& mangled, llvm::Type* ret,
                                           llvm::ArrayRef<llvm::Value*> args, bool pure) {
  std::vector<llvm::Type*> types;
  for (auto* a : args) types.push_back(a->getType());
  auto* fn = builtin(mangled, ret, types, pure);
  auto* call = ir.CreateCall(fn, args);
  call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return call;
}

llvm::Argument* BuilderState::add_argument(llvm::Type* type, const std::string& arg_name) {
  std::vector<llvm::Type*> types;
  for (auto& a : kernel->args()) types.push_back(a.getType());
  types.push_back(type);
  auto* fn_type = llvm::FunctionType::get(llvm::Type::getVoidTy(*context), types, false);
  auto* fresh = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, "", *module);
  fresh->setCallingConv(llvm::CallingConv::SPIR_KERNEL);
  fresh->copyAttributesFrom(kernel);
  fresh->getBasicBlockList().splice(fresh->end(), kernel->getBasicBlockList());
  for (unsigned i = 0; i < kernel->arg_size(); ++i) {
    fresh->getArg(i)->takeName(kernel->getArg(i));
    kernel->getArg(i)->replaceAllUsesWith(fresh->getArg(i));
  }
  fresh->takeName(kernel);
  kernel->eraseFromParent();
  kernel = fresh;
  auto* arg = kernel->getArg(kernel->arg_size() - 1);
  arg->setName(arg_name);
  return arg;
}

llvm::AllocaInst* BuilderState::entry_alloca(llvm::Type* type, const std::string& slot_name) {
  // SPIR-V wants every OpVariable first in the first block.
  llvm::IRBuilder<> b(alloca_block, alloca_block->begin());
  return b.CreateAlloca(type, nullptr, slot_name);
}

void BuilderState::check_open(const char* what) const {
  user_assert(!finished, {what, name})
      << "the kernel was already finished; start a new KernelBuilder";
}

void BuilderState::continue_in_new_block(const char* block_name) {
  auto* block = llvm::BasicBlock::Create(*context, block_name, kernel);
  ir.SetInsertPoint(block);
}

void BuilderState::check_same_builder(const Value& v, const char* what) const {
  check_same_builder(detail::state_of(v), detail::llvm_of(v), what, "an empty Value");
}

void BuilderState::check_same_builder(const BuilderState* owner, llvm::Value* raw, const char* what,
                                      const char* empty) const {
  user_assert(raw, {what, name}) << "operand is " << empty;
  user_assert(owner == this, {what, name}) << "operand belongs to another kernel";
  check_in_current_function(raw, what);
}

void BuilderState::check_in_current_function(llvm::Value* v, const char* what) const {
  const llvm::Function* owner = nullptr;
  if (auto* inst = llvm::dyn_cast<llvm::Instruction>(v)) owner = inst->getFunction();
  if (auto* arg = llvm::dyn_cast<llvm::Argument>(v)) owner = arg->getParent();
  if (owner && owner != kernel) {
    const std::string here =
        function_name.empty() ? "kernel '" + name + "'" : "device function '" + function_name + "'";
    user_error({what, name}) << "operand was computed in another function than " << here
                             << "; pass it in as an argument";
  }
}

void BuilderState::check_kernel_scope(const char* what) const {
  check_open(what);
  user_assert(function_name.empty(), {what, name})
      << "not allowed inside device function '" << function_name << "'; expected the kernel body";
}

}  // namespace detail

std::string Param::describe() const {
  const std::string element =
      struct_layout ? "struct " + struct_layout->name()
                    : std::string(spvjit::name(type)) + (lanes ? "x" + std::to_string(lanes) : "");
  std::string out;
  switch (kind) {
    case ParamKind::Scalar:
      return element;
    case ParamKind::Struct:
      return struct_layout ? struct_layout->describe() : element;
    case ParamKind::Pointer:
      out = std::string(spvjit::name(space)) + (read_only ? " const " : " ") + element;
      if (rank == 0) return out + "*";
      return out + "[" + std::to_string(rank) + "-d" +
             (layout == Layout::ColumnMajor ? " column-major]" : "]");
    case ParamKind::LocalArray:
      return "local " + element + "[]";
  }
  return "?";
}

KernelBuilder::KernelBuilder(std::string_view name) {
  detail::check_kernel_name({"KernelBuilder"}, name, "kernel name");
  state_ = std::make_unique<detail::BuilderState>(std::string(name));
}

KernelBuilder::~KernelBuilder() = default;

namespace {
void check_unique(const detail::BuilderState& s, std::string_view name) {
  for (const auto& p : s.params) {
    user_assert(p.name != name, {"param", s.name}) << "parameter '" << name << "' declared twice";
  }
}
}  // namespace

Pointer KernelBuilder::pointer_param(std::string_view name, Scalar element, AddressSpace space,
                                     bool read_only) {
  return pointer_param(name, element, space, read_only, nullptr);
}

Pointer KernelBuilder::pointer_param(std::string_view name, Scalar element, AddressSpace space,
                                     bool read_only,
                                     const std::shared_ptr<const StructLayout>& layout) {
  auto& s = *state_;
  s.check_kernel_scope("param");
  detail::check_identifier({"param", s.name}, name, "parameter name");
  check_unique(s, name);
  user_assert(space != AddressSpace::Private, {"param", s.name})
      << "parameter '" << name
      << "': a kernel cannot take a private pointer; expected global, constant or local";
  llvm::Type* pointee = layout ? s.struct_type(*layout).type : s.memory_type(element);
  auto* type = llvm::PointerType::get(pointee, static_cast<unsigned>(space));
  auto* arg = s.add_argument(type, std::string(name));
  if (read_only) {
    arg->addAttr(llvm::Attribute::NoAlias);
    arg->addAttr(llvm::Attribute::ReadOnly);
  }
  // Hand out an instruction, not the Argument: a later parameter rebuilds the function and
  // replaces every Argument, while instructions move along with their blocks.
  llvm::IRBuilder<> entry(s.alloca_block);
  auto* handle =
      entry.CreateInBoundsGEP(pointee, arg, entry.getInt64(0), std::string(name) + ".ptr");
  Param p;
  p.name = std::string(name);
  p.kind = space == AddressSpace::Local ? ParamKind::LocalArray : ParamKind::Pointer;
  p.type = element;
  p.space = space;
  p.read_only = read_only || space == AddressSpace::Constant;
  p.struct_layout = layout;
  // How many elements the launch passed: a hidden argument once finished (common/bounds.hpp).
  auto* extent_fn = detail::bounds_marker(*s.module, detail::marker_extent, entry.getInt64Ty(),
                                          {entry.getInt32Ty()}, true);
  auto* extent =
      entry.CreateCall(extent_fn, {entry.getInt32(static_cast<std::uint32_t>(s.params.size()))},
                       std::string(name) + ".extent");
  const int array = s.add_array(
      space == AddressSpace::Local ? "LocalMemory " + std::string(name) : std::string(name),
      std::string(name));
  s.params.push_back(p);
  return detail::make_pointer(state_.get(), handle, element, space, p.read_only, extent, array,
                              layout.get());
}

Pointer KernelBuilder::struct_param(std::string_view name,
                                    const std::shared_ptr<const StructLayout>& layout) {
  auto& s = *state_;
  s.check_kernel_scope("param");
  detail::check_identifier({"param", s.name}, name, "parameter name");
  check_unique(s, name);
  const detail::StructTypeInfo& info = s.struct_type(*layout);
  // As clang passes an OpenCL C struct by value on spir64: a pointer to a private copy, byval.
  auto* arg = s.add_argument(llvm::PointerType::get(info.type, 0), std::string(name));
  arg->addAttr(llvm::Attribute::getWithByValType(s.ctx(), info.type));
  arg->addAttr(llvm::Attribute::getWithAlignment(
      s.ctx(),
      llvm::Align(std::max<std::uint64_t>(
          layout->align(), s.module->getDataLayout().getABITypeAlign(info.type).value()))));
  arg->addAttr(llvm::Attribute::NoCapture);
  arg->addAttr(llvm::Attribute::ReadOnly);
  llvm::IRBuilder<> entry(s.alloca_block);
  auto* handle =
      entry.CreateInBoundsGEP(info.type, arg, entry.getInt64(0), std::string(name) + ".ptr");
  Param p;
  p.name = std::string(name);
  p.kind = ParamKind::Struct;
  p.type = Scalar::U8;
  p.struct_layout = layout;
  s.params.push_back(p);
  return detail::make_pointer(state_.get(), handle, Scalar::U8, AddressSpace::Private, true,
                              nullptr, -1, layout.get());
}

Pointer KernelBuilder::struct_pointer_param(std::string_view name,
                                            const std::shared_ptr<const StructLayout>& layout,
                                            AddressSpace space, bool read_only) {
  user_assert(space != AddressSpace::Local, {"param", state_->name})
      << "parameter '" << name << "': local memory of struct " << layout->name()
      << " is not supported; expected a global or constant pointer";
  state_->struct_type(*layout);  // checks the layout before anything is declared
  Pointer p = pointer_param(name, Scalar::U8, space, read_only, layout);
  return p;
}

Value KernelBuilder::scalar_param(std::string_view name, Scalar type) {
  auto& s = *state_;
  s.check_kernel_scope("param");
  detail::check_identifier({"param", s.name}, name, "parameter name");
  check_unique(s, name);
  // Without cl_khr_fp16 a half travels as its 16 bits and is widened inside the kernel.
  llvm::Type* arg_type = type == Scalar::F16    ? s.ir.getInt16Ty()
                         : type == Scalar::Bool ? s.ir.getInt8Ty()
                                                : s.register_type(type);
  auto* arg = s.add_argument(arg_type, std::string(name));
  Param p;
  p.name = std::string(name);
  p.kind = ParamKind::Scalar;
  p.type = type;
  s.params.push_back(p);

  // Conversions are emitted in the entry block so the value dominates every use. The value
  // goes through a private slot so that users hold an instruction, never the Argument (see
  // pointer_param); mem2reg removes the slot.
  auto* slot = s.entry_alloca(arg_type, std::string(name) + ".slot");
  llvm::IRBuilder<> entry(s.alloca_block);
  entry.CreateStore(arg, slot);
  llvm::Value* v = entry.CreateLoad(arg_type, slot, std::string(name) + ".arg");
  if (type == Scalar::Bool) {
    v = entry.CreateICmpNE(v, entry.getInt8(0), std::string(name) + ".bool");
  } else if (type == Scalar::F16) {
    auto* half_ptr = entry.CreateBitCast(slot, llvm::PointerType::get(entry.getHalfTy(), 0));
    auto* fn = s.builtin(std::string(detail::vload_half_prefix) + "PKDh", entry.getFloatTy(),
                         {entry.getInt64Ty(), half_ptr->getType()}, false);
    auto* call = entry.CreateCall(fn, {entry.getInt64(0), half_ptr}, std::string(name));
    call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    v = call;
  }
  return detail::make_value(state_.get(), v, type == Scalar::F16 ? Scalar::F32 : type);
}

namespace {
Val<std::int64_t> index_builtin(detail::BuilderState& s, const char* what, const char* mangled,
                                unsigned dim) {
  s.check_open(what);
  user_assert(dim <= 2, {what, s.name})
      << "dimension " << dim << " is out of range; expected 0, 1 or 2";
  auto* call = s.call_builtin(mangled, s.ir.getInt64Ty(), {s.ir.getInt32(dim)});
  return Val<std::int64_t>(detail::make_value(&s, call, Scalar::I64));
}
}  // namespace

Val<std::int64_t> KernelBuilder::global_index(unsigned dim) {
  return index_builtin(*state_, "global_index", detail::builtin::global_id, dim);
}
Val<std::int64_t> KernelBuilder::local_index(unsigned dim) {
  return index_builtin(*state_, "local_index", detail::builtin::local_id, dim);
}
Val<std::int64_t> KernelBuilder::group_index(unsigned dim) {
  return index_builtin(*state_, "group_index", detail::builtin::group_id, dim);
}
Val<std::int64_t> KernelBuilder::group_size(unsigned dim) {
  return index_builtin(*state_, "group_size", detail::marker_group_size, dim);
}
Val<std::int64_t> KernelBuilder::ndrange(unsigned dim) {
  // The dynamic ndrange arrives as hidden kernel arguments. A device function may read it too
  // (KA's f(@context, a)): specialize() inlines such a function into the kernel before it wires
  // the marker to those arguments.
  state_->check_open("ndrange");
  state_->uses_ndrange = true;
  return index_builtin(*state_, "ndrange", detail::marker_ndrange, dim);
}
Val<bool> KernelBuilder::in_ndrange() {
  auto& s = *state_;
  s.check_open("in_ndrange");  // a device function's too: see ndrange()
  s.uses_ndrange = true;
  auto* call = s.call_builtin(detail::marker_in_ndrange, s.ir.getInt1Ty(), {});
  return Val<bool>(detail::make_value(&s, call, Scalar::Bool));
}

Pointer KernelBuilder::make_variable(Scalar type) {
  auto& s = *state_;
  s.check_open("var");
  auto* slot = s.entry_alloca(s.memory_type(type), "var");
  return detail::make_pointer(state_.get(), slot, type, AddressSpace::Private, false);
}

void KernelBuilder::return_() {
  auto& s = *state_;
  s.check_open("return_");
  user_assert(s.kernel->getReturnType()->isVoidTy() && !s.function_returns_through_pointers,
              {"return_", s.name})
      << "device function '" << s.function_name
      << "' returns a value, which its body's result provides at its end";
  s.ir.CreateRetVoid();
  s.continue_in_new_block("after.return");
}

KernelBuilder& KernelBuilder::allow_padding() {
  state_->check_open("allow_padding");
  state_->allow_padding = true;
  return *this;
}

KernelBuilder& KernelBuilder::inbounds() {
  state_->check_open("inbounds");
  state_->inbounds = true;
  return *this;
}

KernelBuilder& KernelBuilder::elementwise() {
  state_->check_open("elementwise");
  state_->declared_elementwise = true;
  return *this;
}

KernelBuilder& KernelBuilder::work_per_item(std::size_t indices) {
  state_->check_open("work_per_item");
  user_assert(indices != 0, {"work_per_item", state_->name})
      << "0 indices; expected the indices one work-item's work amounts to, at least 1";
  state_->work_per_item = indices;
  return *this;
}

KernelBuilder& KernelBuilder::workgroup(const WorkGroup& size) {
  auto& s = *state_;
  s.check_kernel_scope("workgroup");
  user_assert(!s.declared_workgroup, {"workgroup", s.name})
      << "the workgroup is declared already " << s.declared_workgroup->to_string()
      << "; expected one declaration per kernel";
  user_assert(size.dims >= 1 && size.dims <= 3 && size.total() > 0, {"workgroup", s.name})
      << size.to_string() << ": expected 1 to 3 dimensions, none of size 0";
  s.declared_workgroup = size;
  return *this;
}

std::int64_t KernelBuilder::static_group_size(unsigned dim) const {
  const auto& s = *state_;
  user_assert(dim < 3, {"static_group_size", s.name})
      << "dimension " << dim << "; expected 0, 1 or 2";
  user_assert(s.declared_workgroup.has_value(), {"static_group_size", s.name})
      << "the kernel declares no workgroup; call workgroup(WorkGroup{...}) first "
         "(KernelAbstractions' kernel(backend, groupsize)), or use group_size() for the run-time "
         "size";
  return static_cast<std::int64_t>(s.declared_workgroup->size[dim]);
}

namespace {

// KernelAbstractions runs no work-item past the ndrange unless a kernel says `unsafe_indices`:
// a launch padded to whole work-groups must not run the body for the padding. A kernel without
// barriers therefore starts with `if (!in_ndrange()) return;` (one compare, folded where a static
// workgroup divides a static ndrange), unless it declared allow_padding(). With barriers, every
// work-item of a group must reach them: such a kernel guards itself, as before.
void guard_padded_work_items(detail::BuilderState& s) {
  llvm::BasicBlock* body = s.alloca_block->getNextNode();
  auto* guard = llvm::BasicBlock::Create(s.ctx(), "in.ndrange", s.kernel, body);
  auto* padded = llvm::BasicBlock::Create(s.ctx(), "padded.work.item", s.kernel);
  llvm::ReturnInst::Create(s.ctx(), padded);
  s.ir.SetInsertPoint(guard);
  s.uses_ndrange = true;
  auto* inside = s.call_builtin(detail::marker_in_ndrange, s.ir.getInt1Ty(), {});
  s.ir.CreateCondBr(inside, body, padded);
}

// The hidden arguments, in the one order HiddenArgs::layout gives (common/kernel_interface.hpp),
// which the launch fills in the same order.
void add_hidden_arguments(detail::BuilderState& s, const detail::HiddenArgs& hidden,
                          std::span<const detail::ShapeArg> shape_args) {
  for (const detail::HiddenArg& h : hidden.sequence) {
    using Kind = detail::HiddenArg::Kind;
    switch (h.kind) {
      case Kind::NdRange:
        s.add_argument(s.ir.getInt64Ty(), detail::hidden_ndrange_name + std::to_string(h.of));
        break;
      case Kind::Extent:
        s.add_argument(s.ir.getInt64Ty(), detail::hidden_extent_name + s.params[h.of].name);
        break;
      case Kind::Record:
        s.add_argument(detail::record_type(s.ctx()), detail::hidden_record_name);
        break;
      case Kind::FastEnd:
        s.add_argument(s.ir.getInt64Ty(), detail::hidden_fast_end_name);
        break;
      case Kind::Shape: {
        const detail::ShapeArg& shape = shape_args[h.of];
        s.add_argument(s.ir.getInt64Ty(),
                       detail::hidden_shape_name + s.params.at(shape.param).name + "_" +
                           (shape.dim == detail::ShapeArg::count_dim ? std::string("n")
                                                                     : std::to_string(shape.dim)));
        break;
      }
    }
  }
  internal_assert(s.kernel->arg_size() == hidden.count)
      << "kernel '" << s.name << "' has " << s.kernel->arg_size()
      << " arguments; its hidden argument layout expects " << hidden.count;
}

}  // namespace

KernelDef KernelBuilder::finish() {
  return detail::with_full_stack([&]() -> KernelDef {
    auto& s = *state_;
    s.check_kernel_scope("finish");
    user_assert(s.loops.empty(), {"finish", s.name})
        << "a loop is still open; end its body before finish()";
    // The definition's steps, in order (stage 1 of jit/pipeline.hpp): each logged and dumped as
    // the compile's passes are. They change no more than the definition needs: optimizing is the
    // compile's work, for each specialization.
    detail::PassRunner steps(*s.module, "kernel '" + s.name + "' definition");
    steps.run("close-body", [&](llvm::Module&) {
      if (!s.ir.GetInsertBlock()->getTerminator()) s.ir.CreateRetVoid();
    });
    if (!s.allow_padding && !detail::synchronizes_anywhere(*s.module)) {
      steps.run("guard-padded-work-items", [&](llvm::Module&) { guard_padded_work_items(s); });
    }
    steps.run("enter-body", [&](llvm::Module&) {
      // The entry block holds allocas and parameter conversions, then falls into the body.
      llvm::IRBuilder<> entry(s.alloca_block);
      entry.CreateBr(s.alloca_block->getNextNode());
      // Blocks left after break/return may be empty: terminate them.
      for (auto& block : *s.kernel) {
        if (!block.getTerminator()) {
          llvm::IRBuilder<> b(&block);
          b.CreateUnreachable();
        }
      }
    });
    if (s.kernel_fast_math != FastMath::none) {
      steps.run("fast-math", [&](llvm::Module& m) {
        detail::add_fast_math_flags(m, detail::to_llvm(s.kernel_fast_math));
      });
    }
    if (s.inbounds || s.bounds_sites.empty()) {
      steps.run("remove-bounds-checks", [&](llvm::Module& m) {
        detail::remove_bounds_checks(m);
        s.bounds_sites.clear();
      });
    }
    const bool checked = !s.bounds_sites.empty();
    std::vector<detail::ShapeArg> shape_args = detail::shapes_passed(s, checked);
    const auto hidden =
        detail::HiddenArgs::layout(s.params, s.uses_ndrange, checked, shape_args.size());
    steps.run("hidden-arguments", [&](llvm::Module&) {
      add_hidden_arguments(s, hidden, shape_args);
      // specialize() wires the ndrange and bounds markers to their arguments; the shape markers
      // are wired here.
      detail::resolve_shapes(s, checked, hidden.first_shape);
    });
    steps.run("declarations", [&](llvm::Module& m) {
      // In the IR, so that the content hash (and every cache key) tells kernels apart that differ
      // only in what they declare.
      if (s.allow_padding) m.getOrInsertNamedMetadata("spvjit.allow_padding");
      if (s.declared_elementwise) m.getOrInsertNamedMetadata("spvjit.elementwise");
      if (s.declared_workgroup) {
        // The same body built for two workgroups differs.
        const auto& size = s.declared_workgroup->size;
        m.getOrInsertNamedMetadata("spvjit.workgroup." + std::to_string(size[0]) + "." +
                                   std::to_string(size[1]) + "." + std::to_string(size[2]));
      }
    });
    steps.step("check-values-defined-where-used",
               [&] { detail::check_values_defined_where_used(*s.kernel, s.name); });
    steps.run("order-blocks", [&](llvm::Module&) { detail::order_blocks(*s.kernel); });
    steps.step("verify", [&] {
      std::string errors;
      llvm::raw_string_ostream err(errors);
      internal_assert(!llvm::verifyModule(*s.module, &err))
          << "builder produced an invalid module for kernel '" << s.name << "': " << err.str();
    });
    steps.step("check-barriers-uniform",
               [&] { detail::check_barriers_uniform(*s.kernel, s.name); });
    auto km = std::make_shared<detail::KernelModule>();
    km->name = s.name;
    km->params = s.params;
    km->pads_safely = s.uses_ndrange || s.allow_padding;
    km->declared_elementwise = s.declared_elementwise;
    km->work_per_item = s.work_per_item;
    km->static_local_bytes = s.static_local_bytes;
    km->declared_workgroup = s.declared_workgroup;
    km->bounds_sites = std::move(s.bounds_sites);
    km->shape_args = std::move(shape_args);
    km->hidden = hidden;
    km->stack_bytes_per_item = detail::stack_bytes_per_work_item(*s.module, s.name);
    km->prints = s.module->getFunction("printf") != nullptr;
    {
      llvm::raw_string_ostream os(km->ir_text);
      s.module->print(os, nullptr);
    }
    {
      llvm::raw_string_ostream os(km->bitcode);
      llvm::WriteBitcodeToFile(*s.module, os);
    }
    km->hash = llvm::xxHash64(km->ir_text);
    s.finished = true;
    return detail::make_kernel_def(std::move(km));
  });
}

std::string KernelBuilder::to_string() const {
  std::string out;
  llvm::raw_string_ostream os(out);
  state_->module->print(os, nullptr);
  return out;
}

}  // namespace spvjit
