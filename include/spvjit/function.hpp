// Device functions: helpers a kernel calls, built once into the module (KA's plain Julia
// functions called from a kernel). The body is a lambda that builds code with the same
// KernelBuilder; it gets its arguments as values and returns the result value (or nothing).
//
//   auto hypot = device_function<float(float, float)>(kb, "hypot",
//       [&](Val<float> a, Val<float> b) { return sqrt(a * a + b * b); });
//   out[i] = hypot(x[i], y[i]);
//
//   auto axpy = device_function<void(Global<float>, Const<float>, float, int64_t)>(kb, "axpy",
//       [&](Global<float> y, Const<float> x, Val<float> a, Val<int64_t> i) { y[i] = a * x[i] + y[i]; });
//
//   auto scale = device_function<Vec<float, 4>(Vec<float, 4>, float)>(kb, "scale",
//       [&](Vec<float, 4> v, Val<float> a) { return v * a; });
//
// Arguments are scalars, vectors (Vec<T, N>) or pointers (Global<T>, Const<T>, Local<T>,
// Ptr<T, Private>); results are scalars or vectors. Inside the body, values of the kernel are out of reach
// (pass them as arguments), and so are kernel parameters, ndrange/in_bounds, barriers and local
// arrays: each is a UserError when built. kb.return_() leaves a function that returns nothing.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "spvjit/builder.hpp"
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
  unsigned lanes = 1;  ///< a vector's lanes (2 to 16); 1 for scalars and pointers
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
  DeviceFunctionScope(KernelBuilder& kb, std::string_view name, std::optional<Scalar> result,
                      std::vector<FunctionParam> params, unsigned result_lanes = 1);
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
VecValue call_vector_function(KernelBuilder& kb, void* fn, std::string_view name,
                              Scalar element, unsigned lanes,
                              const std::vector<FunctionParam>& params,
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

template <class R>
struct Result {
  using type = Val<R>;
};
template <KernelScalar T, unsigned N>
struct Result<Vec<T, N>> {
  using type = Vec<T, N>;
};
template <>
struct Result<void> {
  using type = void;
};
template <class R>
using ResultVal = typename Result<R>::type;

/// How a C++ parameter type of a device function maps to the kernel: scalars travel as Val<A>,
/// pointers (Global<T>, Const<T>, Local<T>, ...) as themselves.
template <class A>
struct FunctionArg {
  static_assert(KernelScalar<A>, "device function parameter: expected a kernel scalar or a Ptr");
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
template <class A>
using FunctionArgType = typename FunctionArg<A>::type;
}  // namespace detail

template <class Signature>
class Function;

/// A device function that returns R (or nothing) and takes A...; call it like a C++ function.
template <class R, class... A>
class Function<R(A...)> {
 public:
  Function(KernelBuilder& kb, void* fn, std::string_view name)
      : kb_(&kb), fn_(fn), name_(name) {}

  detail::ResultVal<R> operator()(detail::FunctionArgType<A>... args) const {
    if constexpr (detail::VectorResult<R>::value) {
      return R(detail::call_vector_function(*kb_, fn_, name_, *result(), result_lanes(),
                                            params(), {detail::FunctionArg<A>::pass(args)...}));
    } else {
      Value r = detail::call_device_function(*kb_, fn_, name_, result(), params(),
                                             {detail::FunctionArg<A>::pass(args)...});
      if constexpr (!std::is_void_v<R>) return Val<R>(r);
    }
  }
  const std::string& name() const { return name_; }

  /// The result's scalar (a vector's element); none for void.
  static std::optional<Scalar> result() {
    if constexpr (std::is_void_v<R>) {
      return std::nullopt;
    } else if constexpr (detail::VectorResult<R>::value) {
      return scalar_of<typename detail::VectorResult<R>::element>;
    } else {
      return scalar_of<R>;
    }
  }
  static unsigned result_lanes() { return detail::VectorResult<R>::lanes; }
  static std::vector<detail::FunctionParam> params() { return {detail::FunctionArg<A>::param()...}; }

 private:
  KernelBuilder* kb_;
  void* fn_;
  std::string name_;
};

/// Builds a device function named `name` (an identifier) whose body is `body(args...)`: a
/// Val<A> for each scalar parameter, the Vec or Ptr itself for each vector or pointer one.
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
    DeviceFunctionScope scope(kb, name, Function<R(A...)>::result(), Function<R(A...)>::params(),
                              Function<R(A...)>::result_lanes());
    auto args = arguments(scope, std::index_sequence_for<A...>{});
    void* fn = nullptr;
    if constexpr (std::is_void_v<R>) {
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
