// The launch path: argument checks against the signature, geometry (common/geometry.hpp,
// KernelAbstractions' partition rules), clSetKernelArg from the caller's stack, one
// clEnqueueNDRangeKernel. Nothing here allocates or queries the device; messages are built only
// on the way to a throw, in cold functions. Measured per launch + synchronize of a 16-item
// kernel on PoCL `basic`: ~0.6 us in all, PoCL's own part ~0.55 us.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "common/error_report.hpp"
#include "common/full_stack.hpp"
#include "common/log.hpp"
#include "runtime/launch_state.hpp"
#include "runtime/released_memory.hpp"

namespace spvjit {

namespace detail {

namespace {

// The same struct (one layout object per C++ type), or one the parameter's layout accepts.
inline bool same_layout(const Param& p, const ArgView& a) {
  const StructLayout* expected = p.struct_layout.get();
  const StructLayout* given = a.struct_layout;
  return expected == given || (expected && given && expected->accepts(*given));
}

// A plain int or unsigned (a C++ literal) for an integer parameter of another type: its value.
inline std::optional<std::int64_t> converted_integer(const Param& p, const ArgView& a) {
  if (!a.plain_integer || p.kind != ParamKind::Scalar || !is_integer(p.type) || a.type == p.type) {
    return std::nullopt;
  }
  return a.type == Scalar::I32 ? std::int64_t{*static_cast<const std::int32_t*>(a.data)}
                               : std::int64_t{*static_cast<const std::uint32_t*>(a.data)};
}

// Whether integer type `t` holds `v`.
inline bool holds(Scalar t, std::int64_t v) {
  switch (t) {
    case Scalar::I8:
      return std::in_range<std::int8_t>(v);
    case Scalar::U8:
      return std::in_range<std::uint8_t>(v);
    case Scalar::I16:
      return std::in_range<std::int16_t>(v);
    case Scalar::U16:
      return std::in_range<std::uint16_t>(v);
    case Scalar::I32:
      return std::in_range<std::int32_t>(v);
    case Scalar::U32:
      return std::in_range<std::uint32_t>(v);
    case Scalar::I64:
      return true;
    case Scalar::U64:
      return v >= 0;
    default:
      return false;
  }
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_argument(const LaunchState& s, std::size_t i,
                                                         const ArgView& given) {
  std::string got;
  const std::string element =
      given.struct_layout ? "struct " + given.struct_layout->name() : std::string(name(given.type));
  switch (given.kind) {
    case ParamKind::Scalar:
      got = "a scalar " + element;
      break;
    case ParamKind::Struct:
      got = "a " + given.struct_layout->describe();
      break;
    case ParamKind::Pointer:
      got = (given.svm ? "SharedArray<" : "Buffer<") + element + ">";
      if (given.struct_layout) got += " of " + given.struct_layout->describe();
      break;
    case ParamKind::LocalArray:
      got = "LocalMemory";
      break;
  }
  const Param& p = s.facts.params[i];
  std::string why;
  if (given.kind == ParamKind::Pointer && given.mem == nullptr && given.svm == nullptr &&
      given.kind == p.kind && given.type == p.type && same_layout(p, given)) {
    why = ": the buffer is empty (moved from or default-constructed)";
  } else if (given.kind == ParamKind::Pointer && given.kind == p.kind && given.type == p.type &&
             same_layout(p, given) && given.owner != nullptr && given.owner != s.core.get()) {
    // OpenCL leaves a buffer of another context undefined behaviour; PoCL does not check it.
    why = given.svm ? ": the SharedArray belongs to another Runtime (another OpenCL context)"
                    : ": the buffer belongs to another Runtime (another OpenCL context)";
  } else if (given.kind == ParamKind::Pointer && p.kind == ParamKind::Pointer &&
             given.type == p.type && p.lanes != 0 && given.count % p.element_scalars() != 0) {
    why = ": " + std::to_string(given.count) + " " + std::string(name(p.type)) + " passed for " +
          p.describe() + ", which is not a whole number of vectors of " +
          std::to_string(p.element_scalars()) + " " + std::string(name(p.type)) +
          (p.lanes == 3 ? " (a 3-lane vector takes the room of 4)" : "");
  } else if (const auto number = converted_integer(p, given)) {
    why = ": the number " + std::to_string(*number) + " does not fit " + p.describe();
  } else if (given.kind == ParamKind::LocalArray && given.kind == p.kind) {
    why = ": LocalMemory of " + std::to_string(given.size) + " bytes; expected 1 to " +
          std::to_string(s.local_mem_size) + " (the device's local memory)";
  } else {
    why = ": expected " + p.describe() + ", got " + got;
  }
  user_error({"launch", s.facts.name}) << "argument " << i << " '" << p.name << "'" << why;
  std::abort();  // not reached: the report throws at the end of its statement
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_count(const LaunchState& s, std::size_t count) {
  std::string expected;
  for (std::size_t i = 0; i < s.facts.params.size(); ++i) {
    expected += (i ? ", " : "") + s.facts.params[i].describe() + " " + s.facts.params[i].name;
  }
  user_error({"launch", s.facts.name})
      << count << " arguments given, expected " << s.facts.params.size() << " (" << expected << ")";
  std::abort();  // not reached: the report throws at the end of its statement
}

// A raw module's p[get_global_id(0)], run by every work-item, past the end of what was passed:
// certain before the launch (jit/bounds/raw_bounds.hpp).
[[noreturn, gnu::cold, gnu::noinline]] void bad_raw_extent(const LaunchState& s, unsigned param,
                                                           std::size_t count, const NDRange& nd) {
  const Param& p = s.facts.params[param];
  throw BoundsError(s.facts.name, p.name,
                    "kernel '" + s.facts.name + "': " + p.name + "[" + std::to_string(count) +
                        "] is out of bounds: " + p.name + " holds " + std::to_string(count) + " " +
                        std::string(name(p.type)) + (p.lanes ? "x" + std::to_string(p.lanes) : "") +
                        " (work-item " + std::to_string(count) + " of ndrange " + nd.to_string() +
                        " reads or writes " + p.name + "[get_global_id(0)]); nothing was launched");
}

// A kernel coarsened on the fact that get_global_id(0) fits its 32-bit index, launched past it.
[[noreturn, gnu::cold, gnu::noinline]] void bad_narrow_index(const LaunchState& s,
                                                             const NDRange& nd) {
  const bool is_signed = s.facts.launch.index_bits == 31;
  const unsigned d = s.facts.launch.coarsen_dimension;
  user_error({"launch", s.facts.name})
      << "ndrange " << nd.to_string() << " has " << nd.size[d] << " work-items in dimension " << d
      << ", more than the kernel's 32-bit index of get_global_id(" << d << ") ("
      << (is_signed ? "an int32_t" : "a uint32_t") << ") holds: at most "
      << (std::uint64_t{1} << s.facts.launch.index_bits) << ". Index with get_global_id(" << d
      << ") itself (int64_t) for such a launch; nothing was launched";
}

[[noreturn, gnu::cold, gnu::noinline]] void failed(const LaunchState& s, const char* function,
                                                   cl_int err, std::size_t index) {
  std::string where = "kernel '" + s.facts.name + "'";
  if (index != SIZE_MAX) where += ", argument " + std::to_string(index);
  throw OpenCLError(function, err, where);
}

// The kernel's local arrays and its LocalMemory arguments share the device's local memory.
[[noreturn, gnu::cold, gnu::noinline]] void bad_local_total(const LaunchState& s,
                                                            std::uint64_t launch_bytes) {
  const std::uint64_t total = s.facts.static_local_bytes + launch_bytes;
  user_error({"launch", s.facts.name})
      << "local memory: " << s.facts.static_local_bytes << " bytes static (local_array) + "
      << launch_bytes << " bytes LocalMemory = " << total << " bytes, the device has "
      << s.local_mem_size << "; pass less LocalMemory or declare smaller local arrays";
  std::abort();  // not reached: the report throws at the end of its statement
}

// Elements the argument passed: a LocalMemory's bytes over its element size.
inline std::uint64_t elements_passed(const Param& p, const ArgView& a) {
  return p.kind == ParamKind::LocalArray ? a.size / size_of(p.type) : a.count;
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_shape(const LaunchState& s, std::size_t i,
                                                      const ArgView& a) {
  const Param& p = s.facts.params[i];
  if (p.rank != 0 && a.rank != p.rank && !(a.rank == 0 && p.rank == 1)) {
    std::string want = "shaped(memory, {";
    for (unsigned d = 0; d < p.rank; ++d) want += d ? ", n" + std::to_string(d) : "n0";
    user_error({"launch", s.facts.name})
        << "argument " << i << " '" << p.name << "': expected " << p.describe() << ", memory with "
        << p.rank << " extents (" << want << "})), got "
        << (a.rank ? "a shape of " + std::to_string(a.rank) + " extents"
                   : std::string("memory without a shape"));
  }
  std::string extents;
  for (unsigned d = 0; d < a.rank; ++d) extents += (d ? ", " : "") + std::to_string(a.shape[d]);
  user_error({"launch", s.facts.name})
      << "argument " << i << " '" << p.name << "': the shape (" << extents
      << ") does not match the " << elements_passed(p, a) << " " << name(p.type)
      << " passed; expected the product of the extents to equal the elements";
  std::abort();  // not reached: the report throws at the end of its statement
}

// An argument with a shape: as many extents as an array parameter has (a rank-1 one also takes
// unshaped memory), whose product is the elements passed.
inline void check_shape(const LaunchState& s, std::size_t i, const ArgView& a) {
  const Param& p = s.facts.params[i];
  if (a.rank == 0) {
    if (p.rank > 1) [[unlikely]]
      bad_shape(s, i, a);
    return;
  }
  if (p.rank != 0 && a.rank != p.rank) [[unlikely]]
    bad_shape(s, i, a);
  std::uint64_t product = 1;
  bool overflow = false;
  // An extent past 2^63 - 1 is a negative one passed as unsigned (shaped.hpp): the kernel reads
  // it as an i64, so it is refused even where a zero extent makes the product right.
  for (unsigned d = 0; d < a.rank; ++d) {
    overflow |= __builtin_mul_overflow(product, a.shape[d], &product) ||
                a.shape[d] > static_cast<std::uint64_t>(INT64_MAX);
  }
  if (overflow || product != elements_passed(p, a)) [[unlikely]]
    bad_shape(s, i, a);
}

inline void check_argument(const LaunchState& s, std::size_t i, const ArgView& a) {
  const Param& p = s.facts.params[i];
  const std::optional<std::int64_t> number = converted_integer(p, a);
  const bool ok =
      a.kind == p.kind && (a.any_type || a.type == p.type || (number && holds(p.type, *number))) &&
      same_layout(p, a) && (a.kind != ParamKind::Pointer || a.mem != nullptr || a.svm != nullptr) &&
      (a.owner == nullptr || a.owner == s.core.get()) &&
      (a.kind != ParamKind::LocalArray || (a.size != 0 && a.size <= s.local_mem_size)) &&
      (p.lanes == 0 || a.kind != ParamKind::Pointer || a.count % p.element_scalars() == 0);
  if (!ok) [[unlikely]]
    bad_argument(s, i, a);
  if (a.rank != 0 || p.rank != 0) check_shape(s, i, a);
}

// The value's bytes, zero-extended, when it is small enough to remember.
inline bool memo_bits(std::size_t size, const void* value, std::uint64_t& bits) {
  switch (size) {
    case 1: {
      std::uint8_t v;
      std::memcpy(&v, value, 1);
      bits = v;
      return true;
    }
    case 2: {
      std::uint16_t v;
      std::memcpy(&v, value, 2);
      bits = v;
      return true;
    }
    case 4: {
      std::uint32_t v;
      std::memcpy(&v, value, 4);
      bits = v;
      return true;
    }
    case 8:
      std::memcpy(&bits, value, 8);
      return true;
    default:
      return false;
  }
}

// Sets an argument unless the kernel object already holds exactly this value (a skipped
// clSetKernelArg saves ~10 ns on PoCL 6.0). `value` null: local memory of `size` bytes.
inline void set_argument(LaunchState& s, cl_uint index, std::size_t size, const void* value) {
  ArgMemo& m = s.memo[index];
  std::uint64_t bits = 0;
  const bool remembered = value == nullptr || memo_bits(size, value, bits);
  if (remembered && m.set && !m.svm && m.size == size && m.bits == bits) return;
  const cl_int err = clSetKernelArg(s.kernel.get(), index, size, value);
  if (err != CL_SUCCESS) [[unlikely]]
    failed(s, "clSetKernelArg", err, index);
  m.set = remembered;
  m.svm = false;
  m.size = size;
  m.bits = bits;
}

// The same for a shared-memory pointer, which OpenCL takes through its own call.
inline void set_svm_argument(LaunchState& s, cl_uint index, const void* ptr) {
  ArgMemo& m = s.memo[index];
  const auto bits = reinterpret_cast<std::uintptr_t>(ptr);
  if (m.set && m.svm && m.bits == bits) return;
  const cl_int err = clSetKernelArgSVMPointer(s.kernel.get(), index, ptr);
  if (err != CL_SUCCESS) [[unlikely]]
    failed(s, "clSetKernelArgSVMPointer", err, index);
  m.set = true;
  m.svm = true;
  m.size = sizeof(ptr);
  m.bits = bits;
}

// The launch's geometry (common/geometry.hpp); null when the ndrange is empty (nothing to
// run). A static ndrange's geometry was fixed when the kernel was made, and the last dynamic
// one is remembered (under the kernel's lock) with the workgroup it was given: both skip the
// rules' checks and divisions, ~30 ns of a 0.66 us launch. `scratch` holds any other (left
// unconstructed until needed: zeroing a Partition on every launch costs a rep stos).
inline const Partition* geometry(LaunchState& s, const NDRange& nd, const WorkGroup* given,
                                 std::optional<Partition>& scratch) {
  const Specialization& spec = s.facts.spec;
  if (s.static_geometry) {
    if (nd == *spec.ndrange && (!given || *given == *spec.workgroup)) [[likely]] {
      return s.fixed.empty() ? nullptr : &s.fixed;
    }
  } else if (s.last_geometry_valid && nd == s.last_geometry.ndrange &&
             nd.dims == s.last_geometry.ndrange.dims &&
             (given ? s.last_given && *given == s.last_given_workgroup &&
                          given->dims == s.last_given_workgroup.dims
                    : !s.last_given)) {
    return &s.last_geometry;
  }
  const Partition& planned = scratch.emplace(plan(s.rules, &nd, given, {"launch", s.facts.name}));
  if (planned.empty()) return nullptr;
  if (!s.static_geometry) {
    s.last_geometry = planned;
    s.last_given = given != nullptr;
    if (given) s.last_given_workgroup = *given;
    s.last_geometry_valid = true;
  }
  return &planned;
}

// The hidden arguments (common/kernel_interface.hpp), in the order HiddenArgs::layout gave the
// builder. The extents are the elements each pointer reaches, for the kernel's bounds checks
// (common/bounds.hpp); the fast end, after them, the least of them and the ndrange in the
// coarsened dimension, below which a coarsened kernel skips the checks of that dimension's
// global id (jit/coarsen/coarsen.cpp). The record
// is set once, when the kernel is made (launch_state.cpp).
inline void set_hidden_arguments(LaunchState& s, const NDRange& nd, const ArgView* args,
                                 std::size_t count) {
  const HiddenArgs& hidden = s.facts.hidden;
  auto index = static_cast<cl_uint>(count);
  cl_long fast_end = static_cast<cl_long>(nd.size[s.facts.launch.coarsen_dimension]);
  for (const HiddenArg& h : hidden.sequence) {
    cl_long value = 0;
    switch (h.kind) {
      case HiddenArg::Kind::NdRange:
        value = static_cast<cl_long>(nd.size[h.of]);
        break;
      case HiddenArg::Kind::Extent: {
        const ArgView& a = args[h.of];
        value = static_cast<cl_long>(a.kind == ParamKind::LocalArray
                                         ? a.size / size_of(s.facts.params[h.of].type)
                                         : a.count);
        fast_end = std::min(fast_end, value);
        break;
      }
      case HiddenArg::Kind::Record:
        ++index;
        continue;
      case HiddenArg::Kind::FastEnd:
        value = fast_end;
        s.last_ndrange = nd;
        break;
      case HiddenArg::Kind::Shape: {
        // Array parameters' extents and the lengths the kernel reads (common/shape_args.hpp).
        const ShapeArg& shape = s.facts.shape_args[h.of];
        const ArgView& a = args[shape.param];
        value = static_cast<cl_long>(shape.dim == ShapeArg::count_dim || a.rank == 0
                                         ? elements_passed(s.facts.params[shape.param], a)
                                         : a.shape[shape.dim]);
        break;
      }
    }
    set_argument(s, index++, sizeof(value), &value);
  }
}

}  // namespace

// What clEnqueueNDRangeKernel gets: the geometry, or for a kernel that runs its group in one
// work-item (jit/workgroup/group_loops.hpp) one work-item per group.
constexpr std::size_t one_item_per_group[3] = {1, 1, 1};
const std::size_t* enqueued_global(const LaunchState& s, const Partition& g) {
  return s.facts.launch.group_per_item ? g.blocks.data() : g.global.data();
}
const std::size_t* enqueued_local(const LaunchState& s, const Partition& g) {
  return s.facts.launch.group_per_item ? one_item_per_group : g.workgroup.size.data();
}

// PoCL's kernel runner for this launch's geometry (runtime/kernel_runner.hpp), made on the
// launching thread (it may build the work-group function, as a first enqueue does) and kept
// among the kernel's last four; null where the runtime has none or PoCL refuses the geometry
// (remembered: the launches of that geometry enqueue). Under the kernel's lock.
PoclKernelRunner direct_runner(LaunchState& s, RuntimeCore& core, const Partition& g) {
  if (!core.kernel_runner.create) return nullptr;
  const std::size_t* global = enqueued_global(s, g);
  const std::size_t* local = enqueued_local(s, g);
  for (const auto& d : s.direct) {
    if ((d.runner || d.refused) && d.dims == g.dims &&
        std::equal(global, global + 3, d.global.begin()) &&
        std::equal(local, local + 3, d.local.begin())) {
      return d.runner;
    }
  }
  auto& d = s.direct[s.direct_next];
  s.direct_next = (s.direct_next + 1) % s.direct.size();
  if (d.runner) core.kernel_runner.release(d.runner);
  d = {};
  d.dims = g.dims;
  std::copy(global, global + 3, d.global.begin());
  std::copy(local, local + 3, d.local.begin());
  cl_int err = CL_SUCCESS;
  d.runner = core.kernel_runner.create(core.inline_queue.get(), s.kernel.get(), g.dims, global,
                                       local, &err);
  d.refused = d.runner == nullptr;
  if (d.refused) {
    SPVJIT_LOG_DEBUG("kernel '" + s.facts.name + "': PoCL's kernel runner refused a geometry (" +
                     std::to_string(err) + "); its launches are enqueued");
  } else {
    SPVJIT_LOG_DEBUG("kernel '" + s.facts.name +
                     "': a geometry's launches on basic run through PoCL's kernel runner (no "
                     "command)");
  }
  return d.runner;
}

// The groups each dimension of the launch has, as the runner counts them.
std::array<std::size_t, 3> group_counts(const LaunchState& s, const Partition& g) {
  const std::size_t* global = enqueued_global(s, g);
  const std::size_t* local = enqueued_local(s, g);
  return {global[0] / local[0], global[1] / local[1], global[2] / local[2]};
}

// After a run through the kernel runner: false when it ran nothing (CL_INVALID_OPERATION: a
// buffer no command has placed on the device yet; the caller enqueues the launch, which places
// it); otherwise the launch is counted, or its error thrown.
bool ran_direct(LaunchState& s, RuntimeCore& core, cl_int err) {
  if (err == CL_INVALID_OPERATION) return false;
  if (err != CL_SUCCESS) [[unlikely]]
    failed(s, "clRunKernelGroupsPOCL", err, SIZE_MAX);
  core.count_launch();
  core.direct_launches.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// A large launch on an adaptive runtime: its work-groups in parts on `basic`, run by the
// calling thread and the inline workers together (runtime/inline_pool.hpp). Split along the
// outermost dimension with two groups or more, so each part covers contiguous rows; one part
// per thread (two per thread, for a worker that wakes late, measured 8 us slower on saxpy over
// 2^20 floats: each part is an enqueue and a finish), and through the kernel runner more for
// launches of many `indices` (split_parts). False when there is nothing to split (one group).
bool launch_split(LaunchState& s, RuntimeCore& core, const Partition& g, std::size_t indices) {
  unsigned dim = 3;
  std::size_t groups = 1;
  for (unsigned d = g.dims; d-- > 0;) {
    groups = g.blocks[d];
    if (groups >= 2) {
      dim = d;
      break;
    }
  }
  if (dim == 3) return false;
  const unsigned threads = core.inline_pool->threads();
  const unsigned parts = split_parts(indices, groups, threads, /*direct=*/false);
  cl_command_queue queue = core.inline_queue.get();
  PoclKernelRunner runner = direct_runner(s, core, g);
  const auto order = core.enter(queue);
  if (runner) {
    const auto counts = group_counts(s, g);
    const unsigned direct_parts = split_parts(indices, groups, threads, /*direct=*/true);
    if (ran_direct(
            s, core,
            core.inline_pool->run_direct(runner, g.dims, counts.data(), dim, direct_parts))) {
      core.split_launches.fetch_add(1, std::memory_order_relaxed);
      core.split_parts.fetch_add(direct_parts, std::memory_order_relaxed);
      return true;
    }
  }
  // Enqueued parts are offset launches: a kernel that reads its group id or the global size
  // runs whole instead (the caller enqueues it on basic).
  if (!s.facts.launch.runs_with_offsets) return false;
  const cl_int err = core.inline_pool->run(s.kernel.get(), queue, g.dims, enqueued_global(s, g),
                                           enqueued_local(s, g), dim, parts);
  if (err != CL_SUCCESS) [[unlikely]]
    failed(s, "clEnqueueNDRangeKernel", err, SIZE_MAX);
  core.count_launch();
  core.split_launches.fetch_add(1, std::memory_order_relaxed);
  core.split_parts.fetch_add(parts, std::memory_order_relaxed);
  return true;
}

}  // namespace detail

void Kernel::launch_packed(const NDRange& nd, const WorkGroup* given, const detail::ArgView* args,
                           std::size_t count, _cl_event** event) {
  // exit() waits for the launch (common/exit_gate.hpp).
  const detail::WorkScope scope(detail::WorkScope::Quiet{});
  // On `basic` the groups run on this thread, their context arrays sized against a default
  // thread's stack, and a first launch compiles there: a smaller stack hands the launch to a
  // thread with a full one (common/full_stack.hpp).
  if (!detail::this_thread_has_full_stack()) [[unlikely]] {
    return detail::with_full_stack([&] { launch_packed(nd, given, args, count, event); });
  }
  user_assert(state_, {"launch"}) << "the Kernel is empty (default-constructed)";
  auto& s = *state_;
  if (count != s.facts.params.size()) [[unlikely]]
    detail::bad_count(s, count);
  // Each LocalMemory is at most the device's local memory (check_argument): no overflow.
  std::uint64_t local = 0;
  for (std::size_t i = 0; i < count; ++i) {
    detail::check_argument(s, i, args[i]);
    if (args[i].kind == ParamKind::LocalArray) local += args[i].size;
  }
  if (s.facts.static_local_bytes + local > s.local_mem_size) [[unlikely]] {
    detail::bad_local_total(s, local);
  }

  if (s.facts.launch.index_bits != 0 &&
      nd.size[s.facts.launch.coarsen_dimension] > (std::uint64_t{1} << s.facts.launch.index_bits))
      [[unlikely]] {
    detail::bad_narrow_index(s, nd);
  }
  for (unsigned p : s.facts.extent_covers_ndrange) {
    // Counted in the elements the kernel indexes: vectors for a pointer to them.
    const std::size_t held = args[p].count / s.facts.params[p].element_scalars();
    if (held < nd.size[0]) [[unlikely]]
      detail::bad_raw_extent(s, p, held, nd);
  }

  std::lock_guard<std::mutex> lock(s.mutex);
  // A buffer, view or shared array released since the last launch may have left its address to
  // a new one: remembered handles prove nothing then.
  const std::uint64_t released = detail::released_memory.load(std::memory_order_relaxed);
  if (released != s.memo_released) [[unlikely]] {
    for (auto& m : s.memo) m.set = false;
    s.memo_released = released;
  }
  std::optional<Partition> scratch;
  const Partition* geometry = detail::geometry(s, nd, given, scratch);
  if (!geometry) return;
  const Partition& g = *geometry;
  // PoCL writes a kernel's printf output to file descriptor 1 when the launch completes; text
  // the host printed before it must be out of stdio's buffer by then.
  if (s.facts.prints) [[unlikely]]
    std::fflush(stdout);
  for (std::size_t i = 0; i < count; ++i) {
    const auto& a = args[i];
    const auto index = static_cast<cl_uint>(i);
    switch (a.kind) {
      case ParamKind::Scalar:
        if (const auto number = detail::converted_integer(s.facts.params[i], a)) [[unlikely]] {
          // The low bytes of the value (x86 and every PoCL CPU target here are little-endian).
          const std::int64_t bits = *number;
          detail::set_argument(s, index, size_of(s.facts.params[i].type), &bits);
          break;
        }
        detail::set_argument(s, index, a.size, a.data);
        break;
      case ParamKind::Struct:
        detail::set_argument(s, index, a.size, a.data);
        break;
      case ParamKind::Pointer:
        if (a.svm) {
          detail::set_svm_argument(s, index, a.svm);
        } else {
          detail::set_argument(s, index, sizeof(cl_mem), &a.mem);
        }
        break;
      case ParamKind::LocalArray:
        detail::set_argument(s, index, a.size, nullptr);
        break;
    }
  }
  detail::set_hidden_arguments(s, nd, args, count);
  detail::RuntimeCore& core = *s.core;
  // Thresholds count indices (the calibration kernel does one per work-item); a coarsened
  // work-item does `coarsen` of them, a declared heavy one `work_per_item` (saturating).
  const std::size_t per_item = s.rules.coarsen > SIZE_MAX / s.rules.work_per_item
                                   ? SIZE_MAX
                                   : s.rules.coarsen * s.rules.work_per_item;
  const std::size_t items = g.items();
  const std::size_t work = items > SIZE_MAX / per_item ? SIZE_MAX : items * per_item;
  cl_command_queue queue;
  const std::size_t split_threshold = core.split_threshold.load(std::memory_order_relaxed);
  // Split: kernels whose results do not depend on a global offset (enqueued parts), and,
  // through PoCL's kernel runner (each part sees the whole launch), every kernel free of atomics.
  const bool splits = s.facts.launch.runs_with_offsets ||
                      (core.kernel_runner.create && s.facts.launch.free_of_atomics);
  if (core.inline_pool && splits && !event && split_threshold != SIZE_MAX) {
    // Split above its threshold, else basic alone: below the split threshold basic beats the
    // split, and the split beats pthread (runtime/inline_pool.hpp).
    if (work > split_threshold && detail::launch_split(s, core, g, work)) return;
    // A kernel that splits only through the runner, which did not take it, goes where it went
    // before the runner existed.
    queue = s.facts.launch.runs_with_offsets ? core.inline_queue.get() : core.queue_for(work);
  } else {
    queue = core.queue_for(work);
  }
  detail::PoclKernelRunner runner =
      queue == core.inline_queue.get() && !event ? detail::direct_runner(s, core, g) : nullptr;
  const auto order = core.enter(queue);  // adaptive runtimes only: a lock, maybe a clFinish
  if (runner) {
    // Every group on this thread through PoCL's kernel runner, no command.
    const auto counts = detail::group_counts(s, g);
    const std::size_t begin[3] = {0, 0, 0};
    if (detail::ran_direct(s, core, core.kernel_runner.run(runner, begin, counts.data()))) return;
  }
  // On PoCL `basic` the kernel runs inside this call (1M items: enqueue 1.9 ms, synchronize
  // 1 us), so launches of one kernel on basic run one at a time, under the lock above.
  const cl_int err =
      clEnqueueNDRangeKernel(queue, s.kernel.get(), g.dims, nullptr, detail::enqueued_global(s, g),
                             detail::enqueued_local(s, g), 0, nullptr, event);
  if (err != CL_SUCCESS) [[unlikely]]
    detail::failed(s, "clEnqueueNDRangeKernel", err, SIZE_MAX);
  core.count_launch();
}

Event Kernel::make_event(_cl_event* event) const {
  return Event(event, state_ ? state_->core : nullptr);
}

}  // namespace spvjit
