// Device functions: helpers a kernel calls, built once into the module (KA's plain Julia
// functions called from a kernel). The body is a lambda that builds code with the same
// KernelBuilder; it gets its arguments as values and returns the result value (or nothing).
//
//   auto hypot = device_function<float(float, float)>(kb, "hypot",
//       [&](Val<float> a, Val<float> b) { return sqrt(a * a + b * b); });
//   out[i] = hypot(x[i], y[i]);
//
//   auto axpy = device_function<void(Global<float>, Const<float>, float, int64_t)>(kb, "axpy",
//       [&](Global<float> y, Const<float> x, Val<float> a, Val<int64_t> i) { y[i] = a * x[i] +
//       y[i]; });
//
//   auto scale = device_function<Vec<float, 4>(Vec<float, 4>, float)>(kb, "scale",
//       [&](Vec<float, 4> v, Val<float> a) { return v * a; });
//
// Arguments are scalars, vectors (Vec<T, N>), pointers (Global<T>, Const<T>, Local<T>,
// Ptr<T, Private>) or structs (StructVal<S>, passed as a copy); results are a scalar, a vector, a
// struct, or several scalars at once:
//
//   auto divmod = device_function<std::tuple<int32_t, int32_t>(int32_t, int32_t)>(kb, "divmod",
//       [&](Val<int32_t> a, Val<int32_t> b) { return std::tuple{a / b, a % b}; });
//   auto [q, r] = divmod(x, y);
//
//   auto mid = device_function<Point(Point, Point)>(kb, "mid",
//       [&](StructVal<Point> a, StructVal<Point> b) {
//         auto m = kb.var(a);
//         m[&Point::x] = (a.get(&Point::x) + b.get(&Point::x)) * 0.5f;
//         return m;
//       });
//
// Inside the body, values of the kernel are out of reach
// (pass them as arguments), and so are kernel parameters, barriers and local arrays: each is a
// UserError when built. The kernel's indices are not (KA's `f(@context, a)`): global_index(),
// global_indices<N>(), ndrange() and in_ndrange() read the work-item calling the function (one
// that reads the ndrange is inlined into the kernel when compiled). kb.return_() leaves a
// function that returns nothing.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "spvjit/builder.hpp"
#include "spvjit/structs.hpp"
#include "spvjit/vector.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

namespace detail {
struct FunctionFrame;

/// One parameter of a device function: a scalar, a vector, or a pointer into some address
/// space.
struct FunctionParam {
  Scalar type = Scalar::I32;  ///< the scalar, the vector's element, or the pointee
  bool pointer = false;
  AddressSpace space = AddressSpace::Private;
  bool read_only = false;
  unsigned lanes = 1;                    ///< a vector's lanes (2 to 16); 1 for scalars and pointers
  const StructLayout* layout = nullptr;  ///< a pointer to structs (struct arguments and results)
};

/// One argument of a call: `value` for a scalar parameter, `pointer` for a pointer one,
/// `vector` for a vector one.
struct CallArg {
  Value value;
  Pointer pointer;
  VecValue vector;
};

/// Opens a device function: the builder writes into it until `close` (or destruction, which
/// discards a function whose body threw).
class DeviceFunctionScope {
 public:
  /// `result_lanes` > 1: the result is a vector of that many lanes of `result`.
  /// `results_through_pointers`: the function returns void and stores its results through its
  /// last parameters (structs and tuples).
  DeviceFunctionScope(KernelBuilder& kb, std::string_view name, std::optional<Scalar> result,
                      std::vector<FunctionParam> params, unsigned result_lanes = 1,
                      bool results_through_pointers = false);
  ~DeviceFunctionScope();
  DeviceFunctionScope(const DeviceFunctionScope&) = delete;
  DeviceFunctionScope& operator=(const DeviceFunctionScope&) = delete;

  Value arg(unsigned i) const;
  Pointer pointer_arg(unsigned i) const;
  VecValue vector_arg(unsigned i) const;
  /// Returns `result` (absent for void) and hands back the finished function.
  void* close(std::optional<Value> result);
  void* close(const VecValue& result);

 private:
  void* finish_function();
  std::unique_ptr<FunctionFrame> frame_;
};

Value call_device_function(KernelBuilder& kb, void* fn, std::string_view name,
                           std::optional<Scalar> result, const std::vector<FunctionParam>& params,
                           const std::vector<CallArg>& args);
/// The same for a function whose result is a vector of `lanes` lanes of `element`.
VecValue call_vector_function(KernelBuilder& kb, void* fn, std::string_view name, Scalar element,
                              unsigned lanes, const std::vector<FunctionParam>& params,
                              const std::vector<CallArg>& args);

/// Whether a result type is a vector, and its shape.
template <class R>
struct VectorResult {
  static constexpr bool value = false;
  static constexpr unsigned lanes = 1;
};
template <KernelScalar T, unsigned N>
struct VectorResult<Vec<T, N>> {
  static constexpr bool value = true;
  static constexpr unsigned lanes = N;
  using element = T;
};

/// How a device function's result type R maps to the kernel: scalars come back as Val<R>,
/// structs as StructVal<R>, a std::tuple of scalars as a std::tuple of Vals. Structs and tuples
/// travel through hidden private pointers the caller passes (`outputs`).
template <class R>
struct Result {
  static_assert(KernelScalar<R>,
                "device function result: expected void, a kernel scalar, a "
                "Vec<T, N>, a struct described with SPVJIT_STRUCT or a "
                "std::tuple of scalars");
  using type = Val<R>;
  static std::optional<Scalar> scalar() { return scalar_of<R>; }
  static std::vector<FunctionParam> outputs() { return {}; }
};
template <KernelScalar T, unsigned N>
struct Result<Vec<T, N>> {
  using type = Vec<T, N>;
  static std::optional<Scalar> scalar() { return scalar_of<T>; }
  static std::vector<FunctionParam> outputs() { return {}; }
};
template <>
struct Result<void> {
  using type = void;
  static std::optional<Scalar> scalar() { return std::nullopt; }
  static std::vector<FunctionParam> outputs() { return {}; }
};
template <class R>
requires KernelStruct<R>
struct Result<R> {
  using type = StructVal<R>;
  static std::optional<Scalar> scalar() { return std::nullopt; }
  static std::vector<FunctionParam> outputs() {
    return {{Scalar::U8, true, AddressSpace::Private, false, 1, struct_layout<R>().get()}};
  }
  // Defined here: clang 15 refuses an out-of-class member of a constrained partial
  // specialization ("requires clause differs in template redeclaration").
  template <class B>
  static void store(const DeviceFunctionScope& scope, unsigned first, const B& result) {
    const StructRef<const R> value = result;
    const Pointer out = scope.pointer_arg(first).unchecked();
    copy_struct(out, literal(detail::state_of(out), std::int64_t{0}), {}, value.pointer(),
                value.index(), value.path(), value.layout());
  }
  static type load(KernelBuilder&, const std::vector<CallArg>& outs) {
    return type(outs[0].pointer.as_read_only());
  }
  static std::vector<CallArg> slots(KernelBuilder& kb) {
    return {{{}, private_struct(detail::state_of(kb), *struct_layout<R>()), {}}};
  }
};
template <KernelScalar... X>
struct Result<std::tuple<X...>> {
  using type = std::tuple<Val<X>...>;
  static std::optional<Scalar> scalar() { return std::nullopt; }
  static std::vector<FunctionParam> outputs() {
    return {{scalar_of<X>, true, AddressSpace::Private, false, 1, nullptr}...};
  }
  template <class B>
  static void store(const DeviceFunctionScope& scope, unsigned first, const B& result);
  static type load(KernelBuilder& kb, const std::vector<CallArg>& outs) {
    return load_each(kb, outs, std::index_sequence_for<X...>{});
  }
  static std::vector<CallArg> slots(KernelBuilder& kb) {
    return {{{}, private_slot(detail::state_of(kb), scalar_of<X>), {}}...};
  }

 private:
  template <std::size_t... I>
  static type load_each(KernelBuilder& kb, const std::vector<CallArg>& outs,
                        std::index_sequence<I...>) {
    return type(
        Val<X>(spvjit::load(outs[I].pointer, literal(detail::state_of(kb), std::int64_t{0})))...);
  }
};
template <class R>
using ResultVal = typename Result<R>::type;

/// How a C++ parameter type of a device function maps to the kernel: scalars travel as Val<A>,
/// vectors and pointers (Global<T>, Const<T>, Local<T>, ...) as themselves, structs as copies.
template <class A>
struct FunctionArg {
  static_assert(KernelScalar<A>,
                "device function parameter: expected a kernel scalar, a "
                "Vec<T, N>, a Ptr or a struct described with SPVJIT_STRUCT");
  using type = Val<A>;
  static FunctionParam param() { return {scalar_of<A>, false, AddressSpace::Private, false}; }
  static type from(const DeviceFunctionScope& scope, unsigned i) { return type(scope.arg(i)); }
  static CallArg pass(const type& v) { return {v, {}, {}}; }
};
template <class T, AddressSpace Space>
struct FunctionArg<Ptr<T, Space>> {
  using type = Ptr<T, Space>;
  static FunctionParam param() {
    return {scalar_of<std::remove_const_t<T>>, true, Space, std::is_const_v<T>};
  }
  static type from(const DeviceFunctionScope& scope, unsigned i) {
    return type(scope.pointer_arg(i));
  }
  static CallArg pass(const type& p) { return {{}, p, {}}; }
};
template <KernelScalar T, unsigned N>
struct FunctionArg<Vec<T, N>> {
  using type = Vec<T, N>;
  static FunctionParam param() { return {scalar_of<T>, false, AddressSpace::Private, false, N}; }
  static type from(const DeviceFunctionScope& scope, unsigned i) {
    return type(scope.vector_arg(i));
  }
  static CallArg pass(const type& v) { return {{}, {}, v}; }
};
/// A struct travels as a private copy the callee reads.
template <class S>
requires KernelStruct<S>
struct FunctionArg<S> {
  using type = StructVal<S>;
  static FunctionParam param() {
    return {Scalar::U8, true, AddressSpace::Private, true, 1, struct_layout<S>().get()};
  }
  static type from(const DeviceFunctionScope& scope, unsigned i) {
    return type(scope.pointer_arg(i).unchecked());
  }
  static CallArg pass(const StructRef<const S>& v) {
    const Pointer copy = private_struct(detail::state_of(v.pointer()), v.layout());
    copy_struct(copy, literal(detail::state_of(v.pointer()), std::int64_t{0}), {}, v.pointer(),
                v.index(), v.path(), v.layout());
    return {{}, copy.as_read_only(), {}};
  }
};
template <class A>
using FunctionArgType = typename FunctionArg<A>::type;
/// What a call takes for a parameter of type A: structs as any struct in memory of that type.
template <class A>
struct CallOperand {
  using type = FunctionArgType<A>;
};
template <class S>
requires KernelStruct<S>
struct CallOperand<S> {
  using type = StructRef<const S>;
};
}  // namespace detail

template <class Signature>
class Function;

/// A device function that returns R (or nothing) and takes A...; call it like a C++ function.
template <class R, class... A>
class Function<R(A...)> {
 public:
  Function(KernelBuilder& kb, void* fn, std::string_view name) : kb_(&kb), fn_(fn), name_(name) {}

  detail::ResultVal<R> operator()(const typename detail::CallOperand<A>::type&... args) const {
    std::vector<detail::CallArg> operands = {detail::FunctionArg<A>::pass(args)...};
    if constexpr (returns_through_pointers()) {
      const std::vector<detail::CallArg> outs = detail::Result<R>::slots(*kb_);
      operands.insert(operands.end(), outs.begin(), outs.end());
      detail::call_device_function(*kb_, fn_, name_, result(), params(), operands);
      return detail::Result<R>::load(*kb_, outs);
    } else if constexpr (detail::VectorResult<R>::value) {
      return R(detail::call_vector_function(*kb_, fn_, name_, *result(), result_lanes(), params(),
                                            operands));
    } else {
      Value r = detail::call_device_function(*kb_, fn_, name_, result(), params(), operands);
      if constexpr (!std::is_void_v<R>) return Val<R>(r);
    }
  }
  const std::string& name() const { return name_; }

  /// The result's scalar (a vector's element); none for void, structs and tuples.
  static std::optional<Scalar> result() { return detail::Result<R>::scalar(); }
  static unsigned result_lanes() { return detail::VectorResult<R>::lanes; }
  /// The parameters, then a private pointer for each struct or tuple result.
  static std::vector<detail::FunctionParam> params() {
    std::vector<detail::FunctionParam> out = {detail::FunctionArg<A>::param()...};
    for (const auto& p : detail::Result<R>::outputs()) out.push_back(p);
    return out;
  }
  static constexpr bool returns_through_pointers() {
    return KernelStruct<R> ||
           !(std::is_void_v<R> || KernelScalar<R> || detail::VectorResult<R>::value);
  }

 private:
  KernelBuilder* kb_;
  void* fn_;
  std::string name_;
};

/// Builds a device function named `name` (an identifier) whose body is `body(args...)`: a
/// Val<A> for each scalar parameter, the Vec or Ptr itself for each vector or pointer one, a
/// StructVal<S> for each struct one.
template <class Signature, class Body>
Function<Signature> device_function(KernelBuilder& kb, std::string_view name, Body&& body);

namespace detail {
template <class R, class... A>
struct DeviceFunctionBuilder {
  template <std::size_t... I>
  static std::tuple<FunctionArgType<A>...> arguments(const DeviceFunctionScope& scope,
                                                     std::index_sequence<I...>) {
    return {FunctionArg<A>::from(scope, static_cast<unsigned>(I))...};
  }
  template <class Body>
  static Function<R(A...)> build(KernelBuilder& kb, std::string_view name, Body&& body) {
    using F = Function<R(A...)>;
    DeviceFunctionScope scope(kb, name, F::result(), F::params(), F::result_lanes(),
                              F::returns_through_pointers());
    auto args = arguments(scope, std::index_sequence_for<A...>{});
    void* fn = nullptr;
    if constexpr (F::returns_through_pointers()) {
      Result<R>::store(scope, static_cast<unsigned>(sizeof...(A)), std::apply(body, args));
      fn = scope.close(std::nullopt);
    } else if constexpr (std::is_void_v<R>) {
      std::apply(body, args);
      fn = scope.close(std::nullopt);
    } else if constexpr (VectorResult<R>::value) {
      const R r(std::apply(body, args));
      fn = scope.close(static_cast<const VecValue&>(r));
    } else {
      Val<R> r = std::apply(body, args);
      fn = scope.close(r);
    }
    return Function<R(A...)>(kb, fn, name);
  }
};
template <KernelScalar... X>
template <class B>
void Result<std::tuple<X...>>::store(const DeviceFunctionScope& scope, unsigned first,
                                     const B& result) {
  const std::tuple<Val<X>...> values = result;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (spvjit::store(scope.pointer_arg(first + static_cast<unsigned>(I)).unchecked(),
                   literal(detail::state_of(std::get<I>(values)), std::int64_t{0}),
                   std::get<I>(values)),
     ...);
  }
  (std::index_sequence_for<X...>{});
}

template <class S>
struct SignatureOf;
template <class R, class... A>
struct SignatureOf<R(A...)> {
  using builder = DeviceFunctionBuilder<R, A...>;
};
}  // namespace detail

template <class Signature, class Body>
Function<Signature> device_function(KernelBuilder& kb, std::string_view name, Body&& body) {
  return detail::SignatureOf<Signature>::builder::build(kb, name, std::forward<Body>(body));
}

}  // namespace spvjit

SPVJIT_API_END
