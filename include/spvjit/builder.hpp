// KernelBuilder: a thin, typed builder over an LLVM module in the SPIR-V/OpenCL dialect, in the
// spirit of llvm::IRBuilder. Every verb returns the value it built; control flow takes lambdas
// so that scopes in C++ are scopes in the kernel.
//
//   KernelBuilder kb("saxpy");
//   auto z = kb.param<Global<float>>("Z");
//   auto x = kb.param<Const<float>>("X");
//   auto y = kb.param<Const<float>>("Y");
//   auto a = kb.param<float>("a");
//   auto i = kb.global_index();
//   kb.if_(kb.in_ndrange(), [&] { z[i] = a * x[i] + y[i]; });
//   KernelDef saxpy = kb.finish();
//
// The everyday spellings of a KernelAbstractions port:
//
//   kb.for_(0, n, [&](Val<std::int64_t> j) { ... });        // for j in 0:n-1 (plain bounds: i64)
//   kb.for_(n32, 0, -2, [&](Val<std::int32_t> j) { ... });  // counts down; the Val's type wins
//   kb.for_(range(1, n), body);                              // Julia's 1:n, last included
//   kb.for_(range(n, -1, 1), body);                          // n:-1:1
//   auto bin = kb.ternary(i < n, [&] { return x[i]; }, [] { return 0.0f; });  // lazy `? :`
//   o[i] += 1.0f;  acc %= m;  bits >>= 1;  mask ^= x[i];      // on elements and variables
#pragma once

#include <concepts>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "spvjit/control.hpp"
#include "spvjit/fast_math.hpp"
#include "spvjit/kernel_def.hpp"
#include "spvjit/ndrange.hpp"
#include "spvjit/pointer.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
/// Opaque bookkeeping for an open `if`: which blocks to join.
struct ScopeHandle {
  void* blocks[3] = {nullptr, nullptr, nullptr};
};
/// Bookkeeping for an open counted loop (for_): its blocks, counter, bound and step.
struct CountedLoop {
  ScopeHandle scope;
  Pointer counter;
  Value last;
  Value step;
  /// The step's sign when it is a constant: 1 or -1; 0 when only known at run time.
  int direction = 0;
  /// The latch must leave before `counter + step` overflows (inclusive ends, steps above 1).
  bool guard_overflow = false;
};
}  // namespace detail

/// A mutable kernel variable (private memory): reads as a Val, assigns with `=`.
template <KernelScalar T>
class Var {
 public:
  Var() = default;
  Var(const Var&) = default;  // copies the handle; assignment stores into the variable
  explicit Var(const Pointer& slot) : slot_(slot) {}
  operator Val<T>() const {
    return Val<T>(load(slot_, detail::literal(detail::state_of(slot_), 0)));
  }
  Val<T> get() const { return *this; }
  const Var& operator=(Val<T> v) const {
    store(slot_, detail::literal(detail::state_of(slot_), std::int64_t{0}), v);
    return *this;
  }
  const Var& operator=(const Var& v) const { return *this = v.get(); }

  // Arithmetic reads the variable first: `acc = acc + x` and `acc += x`. Hidden friends, not
  // templates, so a Ref<T> or Var<T> operand converts to Val<T> on the way in.
#define SPVJIT_VAR_OPERATOR(sym, R, allowed)                                                     \
  friend Val<R> operator sym(const Var& a, Val<T> b) requires(allowed) { return a.get() sym b; } \
  friend Val<R> operator sym(Val<T> a, const Var& b) requires(allowed) { return a sym b.get(); } \
  friend Val<R> operator sym(const Var& a, const Var& b) requires(allowed) {                     \
    return a.get() sym b.get();                                                                  \
  }                                                                                              \
  friend Val<R> operator sym(const Var& a, T b) requires(allowed) { return a.get() sym b; }      \
  friend Val<R> operator sym(T a, const Var& b) requires(allowed) { return a sym b.get(); }
  SPVJIT_VAR_OPERATOR(+, T, true)
  SPVJIT_VAR_OPERATOR(-, T, true)
  SPVJIT_VAR_OPERATOR(*, T, true)
  SPVJIT_VAR_OPERATOR(/, T, true)
  SPVJIT_VAR_OPERATOR(%, T, true)
  SPVJIT_VAR_OPERATOR(&, T, detail::bitwise_type_v<T>)
  SPVJIT_VAR_OPERATOR(|, T, detail::bitwise_type_v<T>)
  SPVJIT_VAR_OPERATOR(^, T, detail::bitwise_type_v<T>)
  SPVJIT_VAR_OPERATOR(<<, T, detail::shift_type_v<T>)
  SPVJIT_VAR_OPERATOR(>>, T, detail::shift_type_v<T>)
  SPVJIT_VAR_OPERATOR(<, bool, true)
  SPVJIT_VAR_OPERATOR(<=, bool, true)
  SPVJIT_VAR_OPERATOR(>, bool, true)
  SPVJIT_VAR_OPERATOR(>=, bool, true)
  SPVJIT_VAR_OPERATOR(==, bool, true)
  SPVJIT_VAR_OPERATOR(!=, bool, true)
#undef SPVJIT_VAR_OPERATOR
  // Compound assignment takes a Val<T>, a Var<T>, an element of T (they convert to Val<T>) or
  // a plain T: `acc += x[i]`, `bits >>= 1`.
#define SPVJIT_VAR_COMPOUND(assign, sym, allowed)                                              \
  const Var& operator assign(Val<T> v) const requires(allowed) { return *this = get() sym v; } \
  const Var& operator assign(T v) const requires(allowed) { return *this = get() sym v; }
  SPVJIT_VAR_COMPOUND(+=, +, true)
  SPVJIT_VAR_COMPOUND(-=, -, true)
  SPVJIT_VAR_COMPOUND(*=, *, true)
  SPVJIT_VAR_COMPOUND(/=, /, true)
  SPVJIT_VAR_COMPOUND(%=, %, true)
  SPVJIT_VAR_COMPOUND(&=, &, detail::bitwise_type_v<T>)
  SPVJIT_VAR_COMPOUND(|=, |, detail::bitwise_type_v<T>)
  SPVJIT_VAR_COMPOUND(^=, ^, detail::bitwise_type_v<T>)
  SPVJIT_VAR_COMPOUND(<<=, <<, detail::shift_type_v<T>)
  SPVJIT_VAR_COMPOUND(>>=, >>, detail::shift_type_v<T>)
#undef SPVJIT_VAR_COMPOUND

 private:
  Pointer slot_;
};

/// cast<To>(var) reads the variable first, like cast<To>(var.get()).
template <KernelScalar To, KernelScalar From>
Val<To> cast(const Var<From>& v) {
  return cast<To>(v.get());
}

class KernelBuilder {
 public:
  /// Starts an empty kernel. `name` becomes the SPIR-V entry point: [A-Za-z_][A-Za-z0-9_]*.
  explicit KernelBuilder(std::string_view name);
  ~KernelBuilder();
  KernelBuilder(const KernelBuilder&) = delete;
  KernelBuilder& operator=(const KernelBuilder&) = delete;

  /// Declares the next parameter: a scalar type (`param<float>`) or a pointer
  /// (`param<Global<float>>`, `param<Const<half>>`). Names must be unique.
  template <class P>
  auto param(std::string_view name);

  /// The work-item's index in the whole ndrange, in its work-group, and its group's index.
  Val<std::int64_t> global_index(unsigned dim = 0);
  Val<std::int64_t> local_index(unsigned dim = 0);
  Val<std::int64_t> group_index(unsigned dim = 0);
  /// The work-group size: a constant when specialized with a static workgroup.
  Val<std::int64_t> group_size(unsigned dim = 0);
  /// The ndrange the user launched (not the padded global size): a constant when static.
  Val<std::int64_t> ndrange(unsigned dim = 0);
  /// True when this work-item lies inside the ndrange in every dimension. Folds to `true` when
  /// a static workgroup divides a static ndrange. (Called in_bounds() before issue #30:
  /// it says nothing of an access's bounds, which inbounds() switches off.)
  Val<bool> in_ndrange();
  /// Declares that work-items outside the ndrange do no harm because the kernel checks its own
  /// bounds (e.g. against size parameters), and that they should run its body (KA's
  /// `unsafe_indices = true`). Without it, finish() starts a kernel without barriers with
  /// `if (!in_ndrange()) return;`, so launches pad safely. A kernel with barriers that reads
  /// in_ndrange() or ndrange() is taken to guard itself; any other gets only workgroups that
  /// divide the ndrange (a UserError otherwise).
  KernelBuilder& allow_padding();
  /// Turns off the kernel's bounds checks (KernelAbstractions' `@inbounds` over the whole
  /// kernel). By default every load, store and atomic through a parameter, a view, a local or
  /// private array is checked against what the launch passed; a failing access touches no
  /// memory, and the next Runtime::synchronize() (or Event::wait) throws BoundsError naming it.
  /// For one pointer or array, use `inbounds(p)` instead.
  KernelBuilder& inbounds();
  /// Declares the kernel element-wise: each work-item reads and writes only the elements at
  /// its own global_index(0) (plus offsets uniform across work-items, as in A(row, col)), so
  /// the JIT may run W consecutive indices per work-item as one vector (SIMD coarsening, on
  /// CPU devices). Coarsening does not need the declaration; it makes it a promise the JIT
  /// checks: where coarsening is on and the kernel does not qualify, compiling it throws a
  /// UserError saying why ("... indexes memory by a value other than get_global_id(0)").
  KernelBuilder& elementwise();
  /// Says each work-item does about as much work as `indices` element-wise indices (a loop over
  /// that many elements, a register block of a matrix product): an adaptive Runtime counts a
  /// launch's work-items times this against its inline and split thresholds, so that a launch
  /// of a few heavy work-items runs on every core instead of on one (docs/runtime.md). Default
  /// 1; 0 is a UserError.
  KernelBuilder& work_per_item(std::size_t indices);
  /// Builds the kernel for one workgroup (KernelAbstractions' `kernel(backend, 64)`), so that
  /// sizes written from it are written once: static_group_size(d) is a C++ number for sizing
  /// local arrays, `local_array<float>(kb, {kb.static_group_size(0) + 1, 16})` (KA's
  /// `@localmem Float32 (@groupsize()[1] + 1, 16)`), and Jit::compile takes it as the static
  /// workgroup; compiling with another (Specialization::workgroup) is a UserError naming both.
  /// Once per kernel, before static_group_size().
  KernelBuilder& workgroup(const WorkGroup& size);
  /// The size in dimension `dim` (0 to 2; 1 past its dimensions) of the workgroup declared with
  /// workgroup(); a UserError when none was.
  std::int64_t static_group_size(unsigned dim = 0) const;

  /// KernelAbstractions' `@fastmath @kernel`: every floating-point operation of the kernel and
  /// of the device functions built with it, built before or after this call, may bend IEEE 754
  /// as `flags` allow (default: all, LLVM's `fast`). Calls combine their flags. Without it (and
  /// outside fastmath blocks) a kernel's arithmetic is exact as written. docs/language.md,
  /// "Fast math", lists what each flag allows and what the device compiler does with it.
  KernelBuilder& fastmath(FastMath flags = FastMath::all);
  /// `@fastmath begin ... end`: only the operations `body` builds (nested blocks combine).
  template <class F>
  requires std::invocable<F&> KernelBuilder& fastmath(F&& body) {
    return fastmath(FastMath::all, body);
  }
  template <class F>
  requires std::invocable<F&> KernelBuilder& fastmath(FastMath flags, F&& body) {
    FastMathBlock block(*this, flags);
    body();
    return *this;
  }

  /// A literal of type T.
  template <KernelScalar T>
  Val<T> lit(T value) {
    return Val<T>(detail::literal(state_.get(), value));
  }
  /// A private variable initialised to `init`.
  template <KernelScalar T>
  Var<T> var(Val<T> init) {
    Var<T> v(make_variable(scalar_of<T>));
    v = init;
    return v;
  }
  template <KernelScalar T>
  Var<T> var(T init) {
    return var(lit(init));
  }
  /// A private struct variable (StructVar) holding a copy of a struct value, variable or
  /// element: `auto p = kb.var(ps[i]);` (structs.hpp).
  template <class R>
  requires requires { typename R::struct_type; }
  auto var(const R& init);
  /// A private complex variable (complex.hpp).
  template <ComplexPart T>
  ComplexVar<T> var(const Complex<T>& init);

  /// Runs `then` (which builds code) for work-items where `cond` holds.
  template <class F>
  KernelBuilder& if_(Val<bool> cond, F&& then) {
    auto h = begin_if(cond);
    then();
    end_if(h);
    return *this;
  }
  template <class F, class G>
  KernelBuilder& if_else(Val<bool> cond, F&& then, G&& otherwise) {
    auto h = begin_if(cond);
    then();
    begin_else(h);
    otherwise();
    end_if(h);
    return *this;
  }
  /// for (i = begin; i < end; i += step) body(i), or, for a negative step, while i > end. Bounds
  /// and step are plain C++ integers or kernel integers (Val, Var, element) of one type, which
  /// the counter takes (int64_t when all are plain): `kb.for_(0, n, 2, body)`. A step known when
  /// the kernel is built must not be 0 (UserError); a run-time step of 0 runs no iterations.
  /// The counter never overflows: the loop ends instead of wrapping.
  template <class B, class E, class S, class F>
  requires(detail::LoopBound<B>&& detail::LoopBound<E>&& detail::LoopBound<S>)
      KernelBuilder& for_(const B& begin, const E& end, const S& step, F&& body) {
    return counted_loop<detail::loop_counter_t<B, E, S>>(begin, end, step, false, body);
  }
  /// for (i = begin; i < end; ++i) body(i): `kb.for_(0, n, [&](Val<std::int64_t> i) { ... })`.
  template <class B, class E, class F>
  requires(detail::LoopBound<B>&& detail::LoopBound<E>) KernelBuilder& for_(const B& begin,
                                                                            const E& end,
                                                                            F&& body) {
    return counted_loop<detail::loop_counter_t<B, E>>(begin, end, 1, false, body);
  }
  /// Julia's `for i in first:last` / `first:step:last`, last included:
  /// `kb.for_(range(1, n), body)`, `kb.for_(range(n, -1, 1), body)`.
  template <class First, class Step, class Last, class F>
  requires(detail::LoopBound<First>&& detail::LoopBound<Step>&& detail::LoopBound<Last>)
      KernelBuilder& for_(const Range<First, Step, Last>& r, F&& body) {
    return counted_loop<detail::loop_counter_t<First, Step, Last>>(r.first, r.last, r.step, true,
                                                                   body);
  }
  /// KA's `for x in A`: body(A[k]) for each element k of `array` in order, k from 0 to
  /// length(array) - 1 (the elements the launch passed for a pointer parameter, the product of
  /// the extents for an array). An array of structs hands each element as a StructRef:
  /// `kb.for_each(ligand, [&](auto atom) { auto [x, y, z, type] = members(atom); ... })`.
  template <class A, class F>
  KernelBuilder& for_each(const A& array, F&& body) {
    return for_(0, length(array), [&](Val<std::int64_t> k) { body(array[k]); });
  }
  /// while (cond()) body()
  template <class C, class F>
  KernelBuilder& while_(C&& cond, F&& body) {
    auto h = begin_loop();
    loop_condition(h, cond());
    body();
    loop_latch(h);
    end_loop(h);
    return *this;
  }
  /// KA's `cond ? a : b` evaluated lazily: only the side `cond` picks runs (select() evaluates
  /// both). Each side returns a Val<T>, Var<T>, element or plain number; both give one type (a
  /// plain number takes the other side's): `kb.ternary(i < n, [&] { return x[i]; }, [] { return
  /// 0.0f; })`.
  template <class F, class G>
  auto ternary(Val<bool> cond, F&& if_true, G&& if_false) {
    using T = detail::ternary_t<std::invoke_result_t<F&>, std::invoke_result_t<G&>>;
    Var<T> result(make_variable(scalar_of<T>));
    auto h = begin_if(cond);
    result = detail::as_val<T>(state(), if_true());
    begin_else(h);
    result = detail::as_val<T>(state(), if_false());
    end_if(h);
    return result.get();
  }

  /// Leaves the innermost loop / skips to its next iteration / leaves the kernel.
  void break_();
  void continue_();
  void return_();

  /// Closes the kernel: verifies the module and returns the immutable definition.
  /// The builder is empty afterwards. Throws UserError when a barrier is under a condition that
  /// differs between the work-items of a group (it would hang the group; see barrier()).
  KernelDef finish();

  /// The module so far, as LLVM IR text (for debugging a builder that misbehaves).
  std::string to_string() const;

  /// Dynamically typed parameter declarations (what `param<P>` calls).
  Pointer pointer_param(std::string_view name, Scalar element, AddressSpace space, bool read_only);
  Value scalar_param(std::string_view name, Scalar type);
  /// A struct parameter passed by value (as OpenCL C passes one: a private copy, byval): the
  /// pointer to it.
  Pointer struct_param(std::string_view name, const std::shared_ptr<const StructLayout>& layout);
  /// A pointer to an array of structs in global or constant memory.
  Pointer struct_pointer_param(std::string_view name,
                               const std::shared_ptr<const StructLayout>& layout,
                               AddressSpace space, bool read_only);

 private:
  friend struct detail::BuilderAccess;
  detail::BuilderState* state() noexcept { return state_.get(); }
  // Opens a fastmath block for its lifetime: the flags go back as they were even when the body
  // throws.
  class FastMathBlock {
   public:
    FastMathBlock(KernelBuilder& kb, FastMath flags);
    ~FastMathBlock();
    FastMathBlock(const FastMathBlock&) = delete;
    FastMathBlock& operator=(const FastMathBlock&) = delete;

   private:
    KernelBuilder& kb_;
    std::size_t depth_;
  };
  Pointer make_variable(Scalar type);
  Pointer pointer_param(std::string_view name, Scalar element, AddressSpace space, bool read_only,
                        const std::shared_ptr<const StructLayout>& layout);
  detail::ScopeHandle begin_if(Val<bool> cond);
  void begin_else(detail::ScopeHandle& h);
  void end_if(detail::ScopeHandle& h);
  detail::ScopeHandle begin_loop();
  void loop_condition(detail::ScopeHandle& h, Val<bool> cond);
  void loop_latch(detail::ScopeHandle& h);
  void end_loop(detail::ScopeHandle& h);
  detail::CountedLoop begin_counted_loop(Value first, Value last, Value step, bool inclusive);
  void end_counted_loop(detail::CountedLoop& h);
  template <class I, class B, class E, class S, class F>
  KernelBuilder& counted_loop(const B& first, const E& last, const S& step, bool inclusive,
                              F& body) {
    auto* s = state();
    auto h = begin_counted_loop(detail::loop_value<I>(s, first, inclusive ? "first" : "begin"),
                                detail::loop_value<I>(s, last, inclusive ? "last" : "end"),
                                detail::loop_value<I>(s, step, "step"), inclusive);
    body(Var<I>(h.counter).get());
    end_counted_loop(h);
    return *this;
  }

  std::unique_ptr<detail::BuilderState> state_;
};

namespace detail {
inline BuilderState* state_of(const KernelBuilder& kb) noexcept {
  return BuilderAccess::builder_state(kb);
}

template <class P>
struct ParamTraits {
  static auto declare(KernelBuilder&, std::string_view) {
    static_assert(sizeof(P) == 0,
                  "param<P>: P must be a kernel scalar (float, int32_t, ...) or a pointer "
                  "(Global<T>, Const<T>)");
  }
};
}  // namespace detail

template <class P>
auto KernelBuilder::param(std::string_view name) {
  if constexpr (KernelScalar<P>) {
    return Val<arithmetic_t<P>>(scalar_param(name, scalar_of<P>));
  } else {
    return detail::ParamTraits<P>::declare(*this, name);
  }
}

namespace detail {
template <class T, AddressSpace Space>
struct ParamTraits<Ptr<T, Space>> {
  static Ptr<T, Space> declare(KernelBuilder& kb, std::string_view name) {
    if constexpr (KernelStruct<T>) {
      return Ptr<T, Space>(
          kb.struct_pointer_param(name, struct_layout<T>(), Space, std::is_const_v<T>));
    } else {
      return Ptr<T, Space>(
          kb.pointer_param(name, scalar_of<std::remove_const_t<T>>, Space, std::is_const_v<T>));
    }
  }
};
}  // namespace detail

}  // namespace spvjit

SPVJIT_API_END
