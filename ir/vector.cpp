// Vector values: the element-wise operators reuse the scalar ones' checks and instruction choice
// (ir/emit.hpp); this file adds the shape checks and what only vectors have (lanes, shuffles,
// reductions, vector memory access).
#include "spvjit/vector.hpp"

#include <llvm/IR/Constants.h>

#include <cstdlib>
#include <vector>

#include "common/error_report.hpp"
#include "ir/bounds.hpp"
#include "ir/emit.hpp"
#include "ir/half_bits.hpp"
#include "ir/handles.hpp"

namespace spvjit {

std::string shape_name(Scalar element, unsigned lanes) {
  return std::string(name(element)) + "x" + std::to_string(lanes);
}

namespace detail {
void throw_vector_mismatch(Scalar expected, unsigned lanes, const VecValue& given) {
  const Where where{"Vec<T, N>", kernel_name(state_of(given))};
  user_assert(given.valid(), (where)) << "the vector is empty";
  user_error((where)) << "expected " << shape_name(expected, lanes) << ", got "
                      << shape_name(given.element(), given.lanes());
  std::abort();  // not reached: the report throws at the end of its statement
}

void throw_vec_array_rank(unsigned rank, std::size_t given) {
  if (given == 0) {
    user_error({"private_array<Vec<T, N>>"})
        << rank << " extents given; an array of Vec has 1 or 2 (its lanes are a third dimension "
        << "of the scalars it is made of)";
  }
  user_error({"private_array<Vec<T, N>>"})
      << "an array of Vec with " << rank << " dimension" << (rank == 1 ? "" : "s")
      << " indexed with " << given << " indices; give " << rank;
  std::abort();  // not reached: the report throws at the end of its statement
}
}  // namespace detail

namespace {

std::string shape_of(const VecValue& v) { return shape_name(v.element(), v.lanes()); }

detail::BuilderState& open_vector(const char* what, const VecValue& v) {
  user_assert(v.valid(), {what}) << "operand is an empty vector";
  auto& s = *detail::state_of(v);
  s.check_open(what);
  s.check_in_current_function(detail::llvm_of(v), what);
  return s;
}

void check_same_builder(detail::BuilderState& s, const VecValue& v, const char* what) {
  s.check_same_builder(detail::state_of(v), detail::llvm_of(v), what, "an empty vector");
}

detail::BuilderState& same_shape(const char* what, const VecValue& a, const VecValue& b) {
  auto& s = open_vector(what, a);
  check_same_builder(s, b, what);
  user_assert(a.element() == b.element() && a.lanes() == b.lanes(), {what, s.name})
      << "operand shapes differ: " << shape_of(a) << " and " << shape_of(b)
      << "; cast or shuffle one of them";
  return s;
}

void check_lanes(detail::Where where, std::size_t lanes) {
  user_assert(valid_lanes(static_cast<unsigned>(lanes)) && lanes <= 16, (where))
      << lanes << " lanes; expected 2, 3, 4, 8 or 16";
}

[[noreturn]] void unsupported(const std::string& what, const VecValue& v, const char* expected) {
  user_error({what, detail::state_of(v)->name})
      << "not defined for " << shape_of(v) << "; expected " << expected;
  std::abort();  // not reached: the report throws at the end of its statement
}

llvm::Type* vector_type(detail::BuilderState& s, Scalar element, unsigned lanes, bool memory) {
  return llvm::FixedVectorType::get(memory ? s.memory_type(element) : s.register_type(element),
                                    lanes);
}

// A run-time lane number as i32, taken modulo `lanes` (unsigned), so no lane is out of range.
llvm::Value* lane_index(detail::BuilderState& s, const Value& lane, unsigned lanes,
                        const char* what) {
  s.check_same_builder(lane, what);
  user_assert(is_integer(lane.type()), {what, s.name})
      << "lane must be an integer, got " << name(lane.type());
  llvm::Value* i = s.ir.CreateIntCast(detail::llvm_of(lane), s.ir.getInt32Ty(), false);
  return (lanes & (lanes - 1)) == 0 ? s.ir.CreateAnd(i, s.ir.getInt32(lanes - 1))
                                    : s.ir.CreateURem(i, s.ir.getInt32(lanes));
}

void check_lane(const detail::BuilderState& s, const char* what, const VecValue& v, unsigned lane) {
  user_assert(lane < v.lanes(), {what, s.name})
      << "lane " << lane << " of a " << shape_of(v) << "; expected 0 to " << v.lanes() - 1;
}

llvm::Align vector_align(Scalar element, unsigned lanes, VectorAlign align) {
  // OpenCL sizes a 3-lane vector like a 4-lane one.
  const unsigned stored = size_of(element);
  return llvm::Align(align == VectorAlign::Element ? stored : stored * (lanes == 3 ? 4 : lanes));
}

// The address of element `first` of `p`, as a pointer to `type` in p's address space.
llvm::Value* vector_address(detail::BuilderState& s, const char* what, const Pointer& p,
                            llvm::Value* first, llvm::Type* type) {
  user_assert(!p.layout(), {what, s.name}) << "the pointer points to struct " << p.layout()->name()
                                           << "; vectors load and store arrays of scalars";
  auto* addr = s.ir.CreateInBoundsGEP(s.memory_type(p.element()), detail::llvm_of(p), first);
  return s.ir.CreateBitCast(addr, llvm::PointerType::get(type, static_cast<unsigned>(p.space())));
}

}  // namespace

VecValue binary(BinaryOp op, VecValue lhs, VecValue rhs) {
  const std::string what(name(op));
  auto& s = same_shape(what.c_str(), lhs, rhs);
  return detail::make_vec(
      &s,
      detail::emit_binary(s, op, lhs.element(), detail::llvm_of(lhs), detail::llvm_of(rhs), what),
      lhs.element(), lhs.lanes());
}

VecValue mul_add(VecValue a, VecValue b, VecValue c) {
  auto& s = same_shape("mul_add", a, b);
  same_shape("mul_add", a, c);
  return detail::make_vec(&s,
                          detail::emit_mul_add(s, a.element(), detail::llvm_of(a),
                                               detail::llvm_of(b), detail::llvm_of(c), "mul_add"),
                          a.element(), a.lanes());
}

VecValue compare(CompareOp op, VecValue lhs, VecValue rhs) {
  auto& s = same_shape(detail::compare_name(op), lhs, rhs);
  return detail::make_vec(
      &s, detail::emit_compare(s, op, lhs.element(), detail::llvm_of(lhs), detail::llvm_of(rhs)),
      Scalar::Bool, lhs.lanes());
}

VecValue negate(VecValue v) {
  auto& s = open_vector("neg", v);
  if (v.element() == Scalar::Bool) unsupported("neg", v, "integer or float lanes");
  auto* r = is_float(v.element()) ? s.ir.CreateFNeg(detail::llvm_of(v))
                                  : s.ir.CreateNeg(detail::llvm_of(v));
  return detail::make_vec(&s, r, v.element(), v.lanes());
}

VecValue logical_not(VecValue v) {
  auto& s = open_vector("not", v);
  if (is_float(v.element())) unsupported("not", v, "bool or integer lanes");
  return detail::make_vec(&s, s.ir.CreateNot(detail::llvm_of(v)), v.element(), v.lanes());
}

VecValue select(VecValue cond, VecValue if_true, VecValue if_false) {
  auto& s = same_shape("select", if_true, if_false);
  check_same_builder(s, cond, "select");
  user_assert(cond.element() == Scalar::Bool && cond.lanes() == if_true.lanes(), {"select", s.name})
      << "condition is " << shape_of(cond) << "; expected "
      << shape_name(Scalar::Bool, if_true.lanes()) << " (a comparison of " << shape_of(if_true)
      << ")";
  return detail::make_vec(
      &s,
      s.ir.CreateSelect(detail::llvm_of(cond), detail::llvm_of(if_true), detail::llvm_of(if_false)),
      if_true.element(), if_true.lanes());
}

VecValue cast(VecValue v, Scalar to) {
  auto& s = open_vector("cast", v);
  user_assert(to != Scalar::F16, {"cast", s.name})
      << "the target f16 is a storage type; keep f32 lanes and store them through a half "
         "pointer";
  if (v.element() == to) return v;
  return detail::make_vec(&s, detail::emit_cast(s, detail::llvm_of(v), v.element(), to), to,
                          v.lanes());
}

VecValue bit_cast(VecValue v, Scalar to) {
  auto& s = open_vector("bit_cast", v);
  detail::check_bit_cast({"bit_cast", s.name}, v.element(), to);
  if (v.element() == to) return v;
  return detail::make_vec(&s, detail::emit_bit_cast(s, detail::llvm_of(v), to), to, v.lanes());
}

VecValue cast_sat(VecValue v, Scalar to) {
  auto& s = open_vector("cast_sat", v);
  detail::check_cast_sat({"cast_sat", s.name}, v.element(), to);
  if (v.element() == to) return v;
  return detail::make_vec(&s, detail::emit_cast_sat(s, detail::llvm_of(v), v.element(), to), to,
                          v.lanes());
}

namespace {
// The operands' LLVM values and element types, after the shape checks: one lane count, and one
// element type except where the function says otherwise (emit_math checks those).
detail::BuilderState& vector_operands(const char* fname, std::initializer_list<VecValue> args,
                                      std::vector<llvm::Value*>& raw, std::vector<Scalar>& types) {
  user_assert(args.size() != 0, {fname}) << "no operands";
  const VecValue& first = *args.begin();
  auto& s = open_vector(fname, first);
  for (const VecValue& a : args) {
    s.check_same_builder(detail::state_of(a), detail::llvm_of(a), fname, "an empty vector");
    user_assert(a.lanes() == first.lanes(), {fname, s.name})
        << "lane counts differ: " << shape_of(first) << " and " << shape_of(a);
    raw.push_back(detail::llvm_of(a));
    types.push_back(a.element());
  }
  return s;
}
}  // namespace

VecValue math(MathFn fn, std::initializer_list<VecValue> args) {
  const std::string fname(name(fn));
  std::vector<llvm::Value*> raw;
  std::vector<Scalar> types;
  auto& s = vector_operands(fname.c_str(), args, raw, types);
  const unsigned lanes = args.begin()->lanes();
  const detail::MathResults r = detail::emit_math(s, fn, raw, types, lanes, false);
  return detail::make_vec(&s, r.value, r.type, lanes);
}

std::pair<VecValue, VecValue> math_pair(MathFn fn, std::initializer_list<VecValue> args) {
  const std::string fname(name(fn));
  std::vector<llvm::Value*> raw;
  std::vector<Scalar> types;
  auto& s = vector_operands(fname.c_str(), args, raw, types);
  const unsigned lanes = args.begin()->lanes();
  // Lane by lane: the scalar builtins' bits, and no wide vectors through a private pointer.
  llvm::Value* first = nullptr;
  llvm::Value* second = nullptr;
  detail::MathResults lane_results;
  for (unsigned lane = 0; lane < lanes; ++lane) {
    std::vector<llvm::Value*> lane_args;
    for (llvm::Value* a : raw) lane_args.push_back(s.ir.CreateExtractElement(a, lane));
    lane_results = detail::emit_math(s, fn, lane_args, types, 1, true);
    if (!first) {
      first =
          llvm::PoisonValue::get(llvm::FixedVectorType::get(lane_results.value->getType(), lanes));
      second =
          llvm::PoisonValue::get(llvm::FixedVectorType::get(lane_results.second->getType(), lanes));
    }
    first = s.ir.CreateInsertElement(first, lane_results.value, lane);
    second = s.ir.CreateInsertElement(second, lane_results.second, lane);
  }
  return {detail::make_vec(&s, first, lane_results.type, lanes),
          detail::make_vec(&s, second, lane_results.second_type, lanes)};
}

VecValue splat(Value v, unsigned lanes) {
  user_assert(v.valid(), {"splat"}) << "operand is an empty Value";
  auto& s = *detail::state_of(v);
  check_lanes({"splat", s.name}, lanes);
  s.check_open("splat");
  s.check_same_builder(v, "splat");
  return detail::make_vec(&s, s.ir.CreateVectorSplat(lanes, detail::llvm_of(v)), v.type(), lanes);
}

VecValue make_vector(std::span<const Value> lanes) {
  detail::BuilderState* owner = lanes.empty() ? nullptr : detail::state_of(lanes.front());
  check_lanes({"make_vector", detail::kernel_name(owner)}, lanes.size());
  const Value& first = lanes.front();
  user_assert(first.valid(), {"make_vector"}) << "lane 0 is an empty Value";
  auto& s = *owner;
  s.check_open("make_vector");
  const auto n = static_cast<unsigned>(lanes.size());
  llvm::Value* v = llvm::PoisonValue::get(vector_type(s, first.type(), n, false));
  for (unsigned k = 0; k < n; ++k) {
    s.check_same_builder(lanes[k], "make_vector");
    user_assert(lanes[k].type() == first.type(), {"make_vector", s.name})
        << "lane " << k << " is " << name(lanes[k].type()) << ", lane 0 " << name(first.type())
        << "; every lane must have one type";
    v = s.ir.CreateInsertElement(v, detail::llvm_of(lanes[k]), s.ir.getInt32(k));
  }
  return detail::make_vec(&s, v, first.type(), n);
}

Value extract(VecValue v, unsigned lane) {
  auto& s = open_vector("extract", v);
  check_lane(s, "extract", v, lane);
  return detail::make_value(&s, s.ir.CreateExtractElement(detail::llvm_of(v), s.ir.getInt32(lane)),
                            v.element());
}

Value extract(VecValue v, Value lane) {
  auto& s = open_vector("extract", v);
  return detail::make_value(
      &s, s.ir.CreateExtractElement(detail::llvm_of(v), lane_index(s, lane, v.lanes(), "extract")),
      v.element());
}

namespace {
VecValue insert_at(detail::BuilderState& s, const VecValue& v, llvm::Value* index, const Value& x) {
  s.check_same_builder(x, "insert");
  user_assert(x.type() == v.element(), {"insert", s.name})
      << "value of type " << name(x.type()) << " into a " << shape_of(v) << "; expected "
      << name(v.element());
  return detail::make_vec(&s,
                          s.ir.CreateInsertElement(detail::llvm_of(v), detail::llvm_of(x), index),
                          v.element(), v.lanes());
}
}  // namespace

VecValue insert(VecValue v, unsigned lane, Value x) {
  auto& s = open_vector("insert", v);
  check_lane(s, "insert", v, lane);
  return insert_at(s, v, s.ir.getInt32(lane), x);
}

VecValue insert(VecValue v, Value lane, Value x) {
  auto& s = open_vector("insert", v);
  return insert_at(s, v, lane_index(s, lane, v.lanes(), "insert"), x);
}

VecValue shuffle_vector(VecValue a, VecValue b, std::span<const int> mask) {
  auto& s = same_shape("shuffle", a, b);
  check_lanes({"shuffle", s.name}, mask.size());
  const int limit = static_cast<int>(2 * a.lanes());
  for (std::size_t k = 0; k < mask.size(); ++k) {
    user_assert(mask[k] >= 0 && mask[k] < limit, {"shuffle", s.name})
        << "mask lane " << k << " picks " << mask[k] << "; expected 0 to " << limit - 1
        << " (lanes of the first " << shape_of(a) << ", then of the second)";
  }
  return detail::make_vec(&s,
                          s.ir.CreateShuffleVector(detail::llvm_of(a), detail::llvm_of(b),
                                                   llvm::ArrayRef<int>(mask.data(), mask.size())),
                          a.element(), static_cast<unsigned>(mask.size()));
}

Value reduce(ReduceOp op, VecValue v) {
  static constexpr BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Mul, BinaryOp::Min, BinaryOp::Max,
                                     BinaryOp::And, BinaryOp::Or,  BinaryOp::Xor};
  static constexpr const char* names[] = {"reduce_add", "reduce_mul", "reduce_min", "reduce_max",
                                          "reduce_and", "reduce_or",  "reduce_xor"};
  const auto k = static_cast<unsigned>(op);
  const std::string what = names[k];
  auto& s = open_vector(names[k], v);
  const BinaryOp bop = ops[k];
  const Scalar t = v.element();
  llvm::Value* x = detail::llvm_of(v);
  unsigned n = v.lanes();
  // Halves while they are vectors of 2 lanes or more (SPIR-V has no 1-lane vectors).
  while (n >= 4) {
    std::vector<int> low(n / 2), high(n / 2);
    for (unsigned i = 0; i < n / 2; ++i) {
      low[i] = static_cast<int>(i);
      high[i] = static_cast<int>(i + n / 2);
    }
    llvm::Value* lo = s.ir.CreateShuffleVector(x, x, low);
    llvm::Value* hi = s.ir.CreateShuffleVector(x, x, high);
    x = detail::emit_binary(s, bop, t, lo, hi, what);
    n /= 2;
  }
  llvm::Value* r = detail::emit_binary(s, bop, t, s.ir.CreateExtractElement(x, s.ir.getInt32(0)),
                                       s.ir.CreateExtractElement(x, s.ir.getInt32(1)), what);
  if (n == 3)
    r = detail::emit_binary(s, bop, t, r, s.ir.CreateExtractElement(x, s.ir.getInt32(2)), what);
  return detail::make_value(&s, r, t);
}

VecValue load_vector(const Pointer& p, Value first, unsigned lanes, VectorAlign align) {
  user_assert(detail::llvm_of(p), {"vload"}) << "empty pointer";
  auto& s = *detail::state_of(p);
  s.check_open("vload");
  s.check_in_current_function(detail::llvm_of(p), "vload");
  check_lanes({"vload", s.name}, lanes);
  llvm::Value* i = detail::index64(s, first, "vload");
  const llvm::Align a = vector_align(p.element(), lanes, align);
  if (p.element() == Scalar::F16) {
    // Integer vector code, bit for bit what scalar loads give (PoCL's vload_halfN cannot).
    auto* bits_type = llvm::FixedVectorType::get(s.ir.getInt16Ty(), lanes);
    auto* bits = detail::guarded_access(s, p, i, nullptr, lanes, [&]() -> llvm::Value* {
      return s.ir.CreateAlignedLoad(bits_type, vector_address(s, "vload", p, i, bits_type), a);
    });
    return detail::make_vec(&s, detail::half_bits_to_float(s.ir, bits), Scalar::F32, lanes);
  }
  auto* type = vector_type(s, p.element(), lanes, true);
  llvm::Value* v = detail::guarded_access(s, p, i, nullptr, lanes, [&]() -> llvm::Value* {
    return s.ir.CreateAlignedLoad(type, vector_address(s, "vload", p, i, type), a);
  });
  if (p.element() == Scalar::Bool) v = s.ir.CreateICmpNE(v, llvm::ConstantInt::get(type, 0));
  return detail::make_vec(&s, v, p.element(), lanes);
}

void store_vector(const Pointer& p, Value first, VecValue v, VectorAlign align) {
  user_assert(detail::llvm_of(p), {"vstore"}) << "empty pointer";
  auto& s = *detail::state_of(p);
  s.check_open("vstore");
  s.check_in_current_function(detail::llvm_of(p), "vstore");
  check_same_builder(s, v, "vstore");
  user_assert(!p.read_only(), {"vstore", s.name})
      << "pointer to " << name(p.space()) << " const " << name(p.element()) << " is read-only";
  const Scalar expected = p.element() == Scalar::F16 ? Scalar::F32 : p.element();
  user_assert(v.element() == expected, {"vstore", s.name})
      << "a " << shape_of(v) << " into memory of " << name(p.element()) << "; expected "
      << shape_name(expected, v.lanes());
  llvm::Value* i = detail::index64(s, first, "vstore");
  const llvm::Align a = vector_align(p.element(), v.lanes(), align);
  llvm::Value* data = detail::llvm_of(v);
  if (p.element() == Scalar::F16) {
    data = detail::float_to_half_bits(s.ir, data);  // vstore_half's rounding and NaN bits
  } else if (p.element() == Scalar::Bool) {
    data = s.ir.CreateZExt(data, vector_type(s, Scalar::Bool, v.lanes(), true));
  }
  detail::guarded_access(s, p, i, nullptr, v.lanes(), [&]() -> llvm::Value* {
    s.ir.CreateAlignedStore(data, vector_address(s, "vstore", p, i, data->getType()), a);
    return nullptr;
  });
}

namespace detail {
Pointer make_vector_variable(KernelBuilder& kb, Scalar element, unsigned lanes) {
  auto& s = *detail::state_of(kb);
  s.check_open("vec_var");
  check_lanes({"vec_var", s.name}, lanes);
  user_assert(element != Scalar::F16, {"vec_var", s.name})
      << "f16 is a storage type; use f32 lanes";
  auto* slot = s.entry_alloca(vector_type(s, element, lanes, true), "vec_var");
  slot->setAlignment(vector_align(element, lanes, VectorAlign::Vector));
  llvm::IRBuilder<> entry(s.alloca_block);
  auto* first =
      entry.CreateBitCast(slot, llvm::PointerType::get(s.memory_type(element), 0), "vec_var.first");
  return detail::make_pointer(&s, first, element, AddressSpace::Private, false);
}
}  // namespace detail

}  // namespace spvjit
