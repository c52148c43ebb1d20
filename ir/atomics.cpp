// Atomics as OpenCL 1.2 builtins (atomic_add, atomic_cmpxchg, ...), which the translator turns
// into OpAtomic* instructions; the mangled pointer type carries the address space and the
// element type, which decides signed or unsigned min/max. Float add/sub is OpAtomicFAddEXT,
// which the JIT lowers to a compare-exchange loop for devices without it.
#include "spvjit/atomics.hpp"

#include "common/error_report.hpp"
#include "ir/bounds.hpp"
#include "ir/kernel_module.hpp"
#include "ir/state.hpp"
#include "ir/handles.hpp"

namespace spvjit {

namespace {

const char* op_name(AtomicOp op) {
  switch (op) {
    case AtomicOp::Add:
      return "atomic_add";
    case AtomicOp::Sub:
      return "atomic_sub";
    case AtomicOp::Min:
      return "atomic_min";
    case AtomicOp::Max:
      return "atomic_max";
    case AtomicOp::And:
      return "atomic_and";
    case AtomicOp::Or:
      return "atomic_or";
    case AtomicOp::Xor:
      return "atomic_xor";
    case AtomicOp::Exchange:
      return "atomic_xchg";
  }
  return "?";
}

// The elements OpenCL C's atomics take: int, unsigned int, long, unsigned long.
bool atomic_integer(Scalar t) {
  return t == Scalar::I32 || t == Scalar::U32 || t == Scalar::I64 || t == Scalar::U64;
}

// _Z<len><name>PU3AS<space>V<code><code...>: f(volatile <space> T*, T, ...).
std::string mangle(const std::string& fn, AddressSpace space, Scalar t, unsigned value_args) {
  std::string out = "_Z" + std::to_string(fn.size()) + fn + "PU3AS" +
                    std::to_string(static_cast<int>(space)) + "V" + detail::itanium_code(t);
  for (unsigned i = 0; i < value_args; ++i) out += detail::itanium_code(t);
  return out;
}

// The element's index as i64, after checking that atomics may touch it.
llvm::Value* atomic_index(const char* what, const Pointer& p, const Value& index) {
  user_assert(detail::llvm_of(p), {what}) << "empty pointer";
  auto& s = *detail::state_of(p);
  s.check_open(what);
  s.check_in_current_function(detail::llvm_of(p), what);
  s.check_same_builder(index, what);
  const detail::Where where{what, s.name};
  user_assert(!p.layout(), (where))
      << "the pointer points to struct " << p.layout()->name()
      << "; atomics on struct members are not supported (keep the counter in an array of "
         "scalars)";
  user_assert(!p.read_only(), (where))
      << "pointer to " << name(p.space()) << " const " << name(p.element()) << " is read-only";
  user_assert(p.space() == AddressSpace::Global || p.space() == AddressSpace::Local, (where))
      << "pointer to " << name(p.space()) << " memory; expected global or local memory";
  user_assert(is_integer(index.type()), (where))
      << "index must be an integer, got " << name(index.type());
  return s.ir.CreateIntCast(detail::llvm_of(index), s.ir.getInt64Ty(), is_signed(index.type()));
}

// The element's address (inside the bounds check).
llvm::Value* atomic_address(const Pointer& p, llvm::Value* i) {
  auto& s = *detail::state_of(p);
  return s.ir.CreateInBoundsGEP(s.memory_type(p.element()), detail::llvm_of(p), i);
}

void check_value(const char* what, const Pointer& p, const Value& v) {
  auto& s = *detail::state_of(p);
  s.check_same_builder(v, what);
  user_assert(v.type() == p.element(), {what, s.name})
      << "value of type " << name(v.type()) << " on memory of " << name(p.element())
      << "; insert an explicit cast";
}

Scalar bits_of(Scalar f) { return f == Scalar::F32 ? Scalar::U32 : Scalar::U64; }

llvm::Value* cmpxchg_call(detail::BuilderState& s, AddressSpace space, Scalar t, llvm::Value* addr,
                          llvm::Value* expected, llvm::Value* desired) {
  return s.call_builtin(mangle("atomic_cmpxchg", space, t, 2), expected->getType(),
                        {addr, expected, desired}, false);
}

// SPIR-V scopes (Device = 1, Workgroup = 2) and Relaxed (0) semantics, as OpenCL 1.2's
// atomic_add has.
Value float_add(const Pointer& p, llvm::Value* addr, llvm::Value* value) {
  auto& s = *detail::state_of(p);
  const bool local = p.space() == AddressSpace::Local;
  const char code = detail::itanium_code(p.element());
  const std::string mangled = std::string(detail::atomic_fadd_prefix) + "PU3AS" +
                              std::to_string(static_cast<int>(p.space())) + code + "ii" + code;
  auto* call = s.call_builtin(mangled, value->getType(),
                              {addr, s.ir.getInt32(local ? 2 : 1), s.ir.getInt32(0), value}, false);
  return detail::make_value(&s, call, p.element());
}

}  // namespace

Value atomic(AtomicOp op, const Pointer& p, Value index, Value value) {
  const char* what = op_name(op);
  llvm::Value* i = atomic_index(what, p, index);
  check_value(what, p, value);
  auto& s = *detail::state_of(p);
  const Scalar t = p.element();
  const bool is_float = t == Scalar::F32 || t == Scalar::F64;
  const bool float_op = op == AtomicOp::Add || op == AtomicOp::Sub || op == AtomicOp::Exchange;
  user_assert((is_float && float_op) || atomic_integer(t), {what, s.name})
      << "not defined on memory of " << name(t)
      << "; expected i32, u32, i64 or u64 (f32 and f64 take add, sub and exchange)";
  llvm::Value* old = guarded_access(s, p, i, nullptr, 1, [&]() -> llvm::Value* {
    llvm::Value* addr = atomic_address(p, i);
    if (is_float && float_op) {
      if (op == AtomicOp::Add) return detail::llvm_of(float_add(p, addr, detail::llvm_of(value)));
      if (op == AtomicOp::Sub)
        return detail::llvm_of(float_add(p, addr, s.ir.CreateFNeg(detail::llvm_of(value))));
      if (op == AtomicOp::Exchange) {
        const Scalar bits = bits_of(t);
        auto* int_type = s.register_type(bits);
        auto* int_addr = s.ir.CreateBitCast(
            addr, llvm::PointerType::get(int_type, static_cast<unsigned>(p.space())));
        auto* swapped =
            s.call_builtin(mangle(what, p.space(), bits, 1), int_type,
                           {int_addr, s.ir.CreateBitCast(detail::llvm_of(value), int_type)}, false);
        return s.ir.CreateBitCast(swapped, detail::llvm_of(value)->getType());
      }
    }
    return s.call_builtin(mangle(what, p.space(), t, 1), detail::llvm_of(value)->getType(),
                          {addr, detail::llvm_of(value)}, false);
  });
  return detail::make_value(&s, old, t);
}

Value atomic_cmpxchg(const Pointer& p, Value index, Value expected, Value desired) {
  const char* what = "atomic_cmpxchg";
  llvm::Value* i = atomic_index(what, p, index);
  check_value(what, p, expected);
  check_value(what, p, desired);
  auto& s = *detail::state_of(p);
  user_assert(atomic_integer(p.element()), {what, s.name})
      << "not defined on memory of " << name(p.element()) << "; expected i32, u32, i64 or u64";
  llvm::Value* old = guarded_access(s, p, i, nullptr, 1, [&]() -> llvm::Value* {
    return cmpxchg_call(s, p.space(), p.element(), atomic_address(p, i), detail::llvm_of(expected),
                        detail::llvm_of(desired));
  });
  return detail::make_value(&s, old, p.element());
}

}  // namespace spvjit
