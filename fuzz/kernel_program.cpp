// The generator behind kernel_program.hpp: an interpreter over the fuzzer's bytes that emits
// builder calls and updates the CPU model in step. Values made inside an if_ or loop body are
// dropped from the pool when the body closes, as a correct user would (see scope_check).
#include "fuzz/kernel_program.hpp"

#include <cmath>

#include "fuzz/kernel_model.hpp"
#include "spvjit/vector.hpp"

namespace spvjit::fuzz {

namespace {

using namespace model;

constexpr Scalar types[] = {Scalar::Bool, Scalar::I8,  Scalar::U16, Scalar::I32, Scalar::U32,
                            Scalar::I64,  Scalar::U64, Scalar::F32, Scalar::F64};
constexpr std::size_t max_pool = 40;
constexpr int max_operations = 48;
constexpr int max_depth = 2;

// Calls f(T{}) with the C++ type of a (non-f16) kernel scalar, for the typed Var API.
template <class F>
void with_type(Scalar t, F&& f) {
  switch (t) {
    case Scalar::Bool:
      return f(bool{});
    case Scalar::I8:
      return f(std::int8_t{});
    case Scalar::U8:
      return f(std::uint8_t{});
    case Scalar::I16:
      return f(std::int16_t{});
    case Scalar::U16:
      return f(std::uint16_t{});
    case Scalar::I32:
      return f(std::int32_t{});
    case Scalar::U32:
      return f(std::uint32_t{});
    case Scalar::I64:
      return f(std::int64_t{});
    case Scalar::U64:
      return f(std::uint64_t{});
    case Scalar::F16:
    case Scalar::F32:
      return f(float{});
    case Scalar::F64:
      return f(double{});
  }
}

class Generator {
 public:
  Generator(KernelBuilder& kb, ByteReader& bytes) : kb_(kb), bytes_(bytes) {}

  std::vector<Slot> pool;
  int operations = 0;

  void run(int depth) {
    while (!bytes_.empty() && operations < max_operations && pool.size() < max_pool) {
      const std::uint8_t op = bytes_.byte();
      if (op == 0xff) return;  // closes the innermost body
      ++operations;
      step(op % 9, depth);
    }
  }

  const Slot& pick() { return pool[bytes_.byte() % pool.size()]; }
  // A slot of type `t` at or after a random start, or nullptr.
  const Slot* pick_of(Scalar t) {
    const std::size_t start = bytes_.byte() % pool.size();
    for (std::size_t k = 0; k < pool.size(); ++k) {
      const Slot& s = pool[(start + k) % pool.size()];
      if (s.value.type() == t) return &s;
    }
    return nullptr;
  }

 private:
  void step(unsigned op, int depth) {
    switch (op) {
      case 0:
        literal();
        break;
      case 1:
      case 2:
        binary_op();
        break;
      case 3:
        compare_op();
        break;
      case 4:
        select_op();
        break;
      case 5:
        cast_op();
        break;
      case 6:
        unary_op();
        break;
      case 7:
        (bytes_.byte() & 1) ? if_op(depth) : loop_op(depth);
        break;
      case 8:
        vector_op();
        break;
    }
  }

  // Lanes gathered from the pool into a Vec, an element-wise operation with a second vector,
  // a constant shuffle, then one lane or a reduction back to a scalar (integers and bool only,
  // so the model stays exact).
  void vector_op() {
    const Slot a = pick();
    const Scalar t = a.value.type();
    if (is_float(t)) return;
    static constexpr unsigned widths[] = {2, 3, 4, 8, 16};
    const unsigned n = widths[bytes_.byte() % std::size(widths)];
    using Lanes = std::array<std::array<std::uint64_t, 16>, work_items>;  // [work-item][lane]
    auto gather = [&](Lanes& model, bool& exact) {
      std::vector<Value> lanes;
      for (unsigned k = 0; k < n; ++k) {
        const Slot* s = k == 0 ? &a : pick_of(t);
        lanes.push_back(s->value);
        exact = exact && s->exact;
        for (std::size_t w = 0; w < work_items; ++w) model[w][k] = s->model[w];
      }
      return make_vector(lanes);
    };
    bool exact = true;
    Lanes x{}, y{};
    const VecValue vx = gather(x, exact), vy = gather(y, exact);
    static constexpr BinaryOp logic[] = {BinaryOp::And, BinaryOp::Or, BinaryOp::Xor};
    static constexpr BinaryOp integer[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul,
                                           BinaryOp::Xor, BinaryOp::Shl, BinaryOp::Shr,
                                           BinaryOp::Min, BinaryOp::Max};
    const BinaryOp op = t == Scalar::Bool ? logic[bytes_.byte() % 3] : integer[bytes_.byte() % 8];
    const VecValue combined = binary(op, vx, vy);
    std::vector<int> mask(n);
    for (unsigned k = 0; k < n; ++k) mask[k] = static_cast<int>(bytes_.byte() % (2 * n));
    const VecValue shuffled = shuffle_vector(combined, vx, mask);
    Lanes z{};
    for (std::size_t w = 0; w < work_items; ++w) {
      for (unsigned k = 0; k < n; ++k) {
        const unsigned m = static_cast<unsigned>(mask[k]);
        z[w][k] = m < n ? integer_op(op, t, x[w][m], y[w][m]) : x[w][m - n];
      }
    }
    Slot r;
    r.exact = exact;
    const std::uint8_t how = bytes_.byte();
    if (how & 1) {
      const unsigned lane = (how >> 1) % n;
      r.value = extract(shuffled, lane);
      for (std::size_t w = 0; w < work_items; ++w) r.model[w] = z[w][lane];
    } else {
      static constexpr ReduceOp logic_reduce[] = {ReduceOp::And, ReduceOp::Or, ReduceOp::Xor};
      static constexpr ReduceOp integer_reduce[] = {ReduceOp::Add, ReduceOp::Mul, ReduceOp::Min,
                                                    ReduceOp::Max, ReduceOp::And, ReduceOp::Or,
                                                    ReduceOp::Xor};
      const ReduceOp rop =
          t == Scalar::Bool ? logic_reduce[(how >> 1) % 3] : integer_reduce[(how >> 1) % 7];
      static constexpr BinaryOp as_binary[] = {BinaryOp::Add, BinaryOp::Mul, BinaryOp::Min,
                                               BinaryOp::Max, BinaryOp::And, BinaryOp::Or,
                                               BinaryOp::Xor};
      r.value = reduce(rop, shuffled);
      // Integer reductions are exact in any order; the model folds left to right.
      for (std::size_t w = 0; w < work_items; ++w) {
        std::uint64_t v = z[w][0];
        for (unsigned k = 1; k < n; ++k)
          v = integer_op(as_binary[static_cast<int>(rop)], t, v, z[w][k]);
        r.model[w] = v;
      }
    }
    pool.push_back(r);
  }

  void literal() {
    const Scalar t = types[bytes_.byte() % std::size(types)];
    Slot s;
    if (is_float(t)) {
      const double v = static_cast<double>(static_cast<std::int8_t>(bytes_.byte())) / 4.0;
      s.value = constant(detail::state_of(kb_), t, v);
      s.model.fill(float_bits(v, t));
    } else {
      const std::uint64_t v = truncate(bytes_.u64(), t);
      s.value = constant_int(detail::state_of(kb_), t, v);
      s.model.fill(v);
    }
    pool.push_back(s);
  }

  void binary_op() {
    const Slot a = pick();
    const Slot* b = pick_of(a.value.type());
    const Scalar t = a.value.type();
    const std::uint8_t choice = bytes_.byte();
    static constexpr BinaryOp logic[] = {BinaryOp::And, BinaryOp::Or, BinaryOp::Xor};
    static constexpr BinaryOp integer[] = {
        BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::And, BinaryOp::Or,
        BinaryOp::Xor, BinaryOp::Shl, BinaryOp::Shr, BinaryOp::Min, BinaryOp::Max};
    static constexpr BinaryOp floating[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul,
                                            BinaryOp::Div, BinaryOp::Min, BinaryOp::Max};
    const BinaryOp op = t == Scalar::Bool ? logic[choice % 3]
                        : is_float(t)     ? floating[choice % 6]
                                          : integer[choice % 10];
    Slot r;
    r.value = binary(op, a.value, b->value);
    r.exact = a.exact && b->exact && !is_float(t);
    for (std::size_t w = 0; w < work_items; ++w) {
      r.model[w] = is_float(t) ? 0 : integer_op(op, t, a.model[w], b->model[w]);
    }
    pool.push_back(r);
  }

  void compare_op() {
    const Slot a = pick();
    const Slot* b = pick_of(a.value.type());
    const Scalar t = a.value.type();
    const auto op = static_cast<CompareOp>(bytes_.byte() % 6);
    Slot r;
    r.value = compare(op, a.value, b->value);
    r.exact = a.exact && b->exact;
    for (std::size_t w = 0; w < work_items; ++w) {
      const std::uint64_t x = a.model[w], y = b->model[w];
      int order = 0;  // -1, 0, 1; 2 when unordered (a NaN)
      if (is_float(t)) {
        const double dx = as_double(x), dy = as_double(y);
        order = std::isnan(dx) || std::isnan(dy) ? 2 : dx < dy ? -1 : dx > dy ? 1 : 0;
      } else if (is_signed(t)) {
        order = as_signed(x, t) < as_signed(y, t) ? -1 : as_signed(x, t) > as_signed(y, t);
      } else {
        order = x < y ? -1 : x > y;
      }
      bool v = false;
      switch (op) {  // ordered float predicates are false on NaN; Ne is unordered (true)
        case CompareOp::Lt:
          v = order == -1;
          break;
        case CompareOp::Le:
          v = order == -1 || order == 0;
          break;
        case CompareOp::Gt:
          v = order == 1;
          break;
        case CompareOp::Ge:
          v = order == 1 || order == 0;
          break;
        case CompareOp::Eq:
          v = order == 0;
          break;
        case CompareOp::Ne:
          v = order != 0;
          break;
      }
      r.model[w] = v;
    }
    pool.push_back(r);
  }

  void select_op() {
    const Slot* c = pick_of(Scalar::Bool);
    const Slot a = pick();
    const Slot* b = pick_of(a.value.type());
    if (!c) return;
    Slot r;
    r.value = select(c->value, a.value, b->value);
    r.exact = c->exact && a.exact && b->exact;
    for (std::size_t w = 0; w < work_items; ++w)
      r.model[w] = c->model[w] ? a.model[w] : b->model[w];
    pool.push_back(r);
  }

  void cast_op() {
    const Slot a = pick();
    Scalar to = types[bytes_.byte() % std::size(types)];
    const Scalar from = a.value.type();
    if (is_float(from) && is_integer(to)) to = Scalar::Bool;  // out-of-range casts are poison
    Slot r;
    r.value = cast(a.value, to);
    r.exact = a.exact;
    for (std::size_t w = 0; w < work_items; ++w) r.model[w] = cast_value(a.model[w], from, to);
    pool.push_back(r);
  }

  void unary_op() {
    const Slot a = pick();
    const Scalar t = a.value.type();
    Slot r;
    r.exact = a.exact;
    if (t == Scalar::Bool || (!is_float(t) && (bytes_.byte() & 1))) {
      r.value = logical_not(a.value);
      for (std::size_t w = 0; w < work_items; ++w) r.model[w] = truncate(~a.model[w], t);
    } else {
      r.value = negate(a.value);
      for (std::size_t w = 0; w < work_items; ++w) {
        r.model[w] =
            is_float(t) ? from_double(-as_double(a.model[w])) : truncate(0 - a.model[w], t);
      }
    }
    pool.push_back(r);
  }

  // var v = init; if (c) { ...; v = inner; }  — the if_'s values stay inside it.
  void if_op(int depth) {
    const Slot* c = pick_of(Scalar::Bool);
    if (!c || depth >= max_depth) return;
    const Slot cond = *c;
    const Slot init = pick();
    const Scalar t = init.value.type();
    const std::size_t outer = pool.size();
    Slot inner = init;
    Slot r;
    with_type(t, [&](auto tag) {
      using T = decltype(tag);
      Var<T> v = kb_.var(Val<T>(init.value));
      kb_.if_(Val<bool>(cond.value), [&] {
        run(depth + 1);
        if (const Slot* s = pick_of(t)) inner = *s;
        v = Val<T>(inner.value);
      });
      r.value = v.get();
    });
    pool.resize(outer);
    r.exact = cond.exact && init.exact && inner.exact;
    for (std::size_t w = 0; w < work_items; ++w)
      r.model[w] = cond.model[w] ? inner.model[w] : init.model[w];
    pool.push_back(r);
  }

  // var acc = init; for (k = 0; k < trips; ++k) { if (k == stop) break; acc = acc op step; }
  void loop_op(int depth) {
    const Slot init = pick();
    const Scalar t = init.value.type();
    if (t == Scalar::Bool || is_float(t) || depth >= max_depth) return;
    const Slot step = *pick_of(t);
    const std::int64_t trips = bytes_.byte() % 5;
    const std::int64_t stop = bytes_.byte() % 6;  // 5: never
    static constexpr BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Xor, BinaryOp::Mul, BinaryOp::Shl};
    const BinaryOp op = ops[bytes_.byte() % 4];
    Slot r;
    with_type(t, [&](auto tag) {
      using T = decltype(tag);
      Var<T> acc = kb_.var(Val<T>(init.value));
      kb_.for_(kb_.lit<std::int64_t>(0), kb_.lit<std::int64_t>(trips), kb_.lit<std::int64_t>(1),
               [&](Val<std::int64_t> k) {
                 kb_.if_(k == stop, [&] { kb_.break_(); });
                 acc = Val<T>(binary(op, acc.get(), step.value));
               });
      r.value = acc.get();
    });
    r.exact = init.exact && step.exact;
    for (std::size_t w = 0; w < work_items; ++w) {
      std::uint64_t v = init.model[w];
      for (std::int64_t k = 0; k < trips && k != stop; ++k) v = integer_op(op, t, v, step.model[w]);
      r.model[w] = v;
    }
    pool.push_back(r);
  }

  KernelBuilder& kb_;
  ByteReader& bytes_;
};

}  // namespace

Inputs make_inputs(std::int32_t scalar) {
  Inputs in;
  in.scalar = scalar;
  static constexpr std::int32_t edges[] = {0, 1, -1, 2, INT32_MIN, INT32_MAX, 7, -8};
  for (std::size_t w = 0; w < work_items; ++w) {
    in.ints.push_back(w < std::size(edges) ? edges[w] : static_cast<std::int32_t>(w * 2654435761u));
    in.floats.push_back(static_cast<float>(w) * 0.75f - 8.0f);
  }
  return in;
}

Program generate(KernelBuilder& kb, ByteReader& bytes, const Inputs& inputs) {
  auto out = kb.param<Global<std::int64_t>>("out");
  auto outf = kb.param<Global<float>>("outf");
  auto ints = kb.param<Const<std::int32_t>>("ints");
  auto floats = kb.param<Const<float>>("floats");
  auto s = kb.param<std::int32_t>("s");
  Program program;
  kb.if_(kb.in_ndrange(), [&] {
    Generator g(kb, bytes);
    auto i = kb.global_index();
    Slot index{i, {}, true}, loaded_int{ints[i].get(), {}, true},
        loaded_float{floats[i].get(), {}, true}, scalar{s, {}, true};
    for (std::size_t w = 0; w < work_items; ++w) {
      index.model[w] = w;
      loaded_int.model[w] = truncate(static_cast<std::uint64_t>(inputs.ints[w]), Scalar::I32);
      loaded_float.model[w] = from_double(inputs.floats[w]);
      scalar.model[w] = truncate(static_cast<std::uint64_t>(inputs.scalar), Scalar::I32);
    }
    g.pool = {index, loaded_int, loaded_float, scalar};
    g.run(0);
    // The result folds in every exactly modelled integer and bool value: acc = acc * 31 + v.
    Slot acc{cast(index.value, Scalar::I64), index.model, true};
    const Value k31 = constant_int(detail::state_of(kb), Scalar::I64, 31);
    for (const Slot& slot : g.pool) {
      if (is_float(slot.value.type()) || !slot.exact) continue;
      acc.value = binary(BinaryOp::Add, binary(BinaryOp::Mul, acc.value, k31),
                         cast(slot.value, Scalar::I64));
      for (std::size_t w = 0; w < work_items; ++w) {
        acc.model[w] =
            acc.model[w] * 31 + cast_value(slot.model[w], slot.value.type(), Scalar::I64);
      }
    }
    program.result = acc;
    out[i] = Val<std::int64_t>(program.result.value);
    Value last_float = loaded_float.value;
    for (const Slot& slot : g.pool) {
      if (is_float(slot.value.type())) last_float = slot.value;
    }
    outf[i] = Val<float>(cast(last_float, Scalar::F32));
    program.operations = g.operations;
  });
  return program;
}

}  // namespace spvjit::fuzz
