#include "test/corpus_run.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "runtime/launch_state.hpp"
#include "spvjit/raw_module.hpp"
#include "test/corpus_reference.hpp"

namespace spvjit::corpus {

std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}

namespace {

// HostData's alternatives, on the device.
using DeviceBuffer =
    std::variant<Buffer<std::int8_t>, Buffer<std::int16_t>, Buffer<std::int32_t>,
                 Buffer<std::int64_t>, Buffer<float>, Buffer<double>, Buffer<LatLong>, Buffer<Node>,
                 Buffer<PointStruct>, Buffer<Float3>, Buffer<Knode>, Buffer<Record>,
                 Buffer<FourVector>, Buffer<BoxStr>>;

std::size_t bytes_of(const HostData& h) {
  return std::visit([](const auto& v) { return v.size() * sizeof(v[0]); }, h);
}
void* data_of(HostData& h) {
  return std::visit([](auto& v) -> void* { return v.data(); }, h);
}

template <class Map>
auto& named(Map& map, const std::string& name) {
  const auto it = map.find(name);
  if (it == map.end())
    throw std::logic_error("the case names a buffer '" + name + "' it does not define");
  return it->second;
}

std::map<std::string, HostData> run_spvjit(Runtime& rt, Jit& jit, const Case& c, Opt opt) {
  const std::string bitcode = read_file(bitcode_path(c.file, opt));
  std::map<std::string, DeviceBuffer> buffers;
  for (const auto& [name, data] : c.buffers) {
    buffers.emplace(name,
                    std::visit([&](const auto& v) -> DeviceBuffer { return rt.upload(v); }, data));
  }
  std::map<std::string, Kernel> kernels;
  for (const Launch& l : c.launches) {
    auto k = kernels.find(l.kernel);
    if (k == kernels.end()) {
      k = kernels.emplace(l.kernel, jit.compile(kernel_from_bitcode(bitcode, l.kernel))).first;
    }
    std::vector<detail::ArgView> views;
    for (const Arg& a : l.args) {
      switch (a.kind) {
        case Arg::Kind::Buffer:
          views.push_back(std::visit([](const auto& b) { return detail::arg_view(b); },
                                     named(buffers, a.buffer)));
          break;
        case Arg::Kind::Scalar:
          views.push_back(std::visit([](const auto& v) { return detail::arg_view(v); }, a.scalar));
          break;
        case Arg::Kind::Local:
          views.push_back(detail::arg_view(LocalMemory{a.local_bytes}));
          break;
      }
    }
    views.emplace_back();
    detail::KernelAccess::launch(k->second, l.global, l.local, views.data(), l.args.size());
  }
  rt.synchronize();
  std::map<std::string, HostData> out;
  for (const std::string& name : c.outputs) {
    out.emplace(name, std::visit([](const auto& b) -> HostData { return b.to_vector(); },
                                 named(buffers, name)));
  }
  return out;
}

std::map<std::string, HostData> run_reference(const detail::RuntimeCore& core, const Case& c) {
  const auto program = build_reference(core, reference_source(c.file));
  std::map<std::string, detail::ClHandle<cl_mem>> buffers;
  for (const auto& [name, data] : c.buffers) {
    HostData copy = data;
    cl_int err = CL_SUCCESS;
    buffers.emplace(name,
                    clCreateBuffer(core.context.get(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   bytes_of(copy), data_of(copy), &err));
    detail::check_cl(err, "clCreateBuffer", name);
  }
  std::map<std::string, detail::ClHandle<cl_kernel>> kernels;
  cl_command_queue queue = core.queue.get();
  for (const Launch& l : c.launches) {
    auto k = kernels.find(l.kernel);
    if (k == kernels.end()) {
      cl_int err = CL_SUCCESS;
      k = kernels.emplace(l.kernel, clCreateKernel(program.get(), l.kernel.c_str(), &err)).first;
      detail::check_cl(err, "clCreateKernel", l.kernel);
    }
    for (cl_uint i = 0; i < l.args.size(); ++i) {
      const Arg& a = l.args[i];
      cl_int err = CL_SUCCESS;
      switch (a.kind) {
        case Arg::Kind::Buffer: {
          cl_mem mem = named(buffers, a.buffer).get();
          err = clSetKernelArg(k->second.get(), i, sizeof(cl_mem), &mem);
          break;
        }
        case Arg::Kind::Scalar:
          err = std::visit(
              [&](const auto& v) { return clSetKernelArg(k->second.get(), i, sizeof(v), &v); },
              a.scalar);
          break;
        case Arg::Kind::Local:
          err = clSetKernelArg(k->second.get(), i, a.local_bytes, nullptr);
          break;
      }
      detail::check_cl(err, "clSetKernelArg", l.kernel + " argument " + std::to_string(i));
    }
    detail::check_cl(
        clEnqueueNDRangeKernel(queue, k->second.get(), l.global.dims, nullptr, l.global.size.data(),
                               l.local.size.data(), 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel", l.kernel);
  }
  std::map<std::string, HostData> out;
  for (const std::string& name : c.outputs) {
    HostData data = [&] {
      for (const auto& [n, d] : c.buffers) {
        if (n == name) return d;
      }
      throw std::logic_error("the case compares a buffer '" + name + "' it does not define");
    }();
    detail::check_cl(clEnqueueReadBuffer(queue, named(buffers, name).get(), CL_TRUE, 0,
                                         bytes_of(data), data_of(data), 0, nullptr, nullptr),
                     "clEnqueueReadBuffer", name);
    out.emplace(name, std::move(data));
  }
  return out;
}

// Distance in units in the last place between two floats of one type (0 for equal bits).
template <class F>
std::uint64_t ulps(F a, F b) {
  using U = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  using S = std::make_signed_t<U>;
  if (std::isnan(a) && std::isnan(b)) return 0;
  auto ordered = [](F x) {
    const U bits = std::bit_cast<U>(x);
    const U sign = U{1} << (sizeof(U) * 8 - 1);
    return (bits & sign) ? -static_cast<S>(bits & ~sign) : static_cast<S>(bits);
  };
  const S da = ordered(a), db = ordered(b);
  return da > db ? static_cast<std::uint64_t>(da - db) : static_cast<std::uint64_t>(db - da);
}

template <class T>
std::string show(const T& v) {
  std::ostringstream os;
  if constexpr (std::is_floating_point_v<T>) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    os.precision(sizeof(T) == 4 ? 9 : 17);
    os << v << " (0x" << std::hex << std::bit_cast<U>(v) << ")";
  } else if constexpr (std::is_integral_v<T>) {
    os << static_cast<std::int64_t>(v);
  } else {
    os << "{";
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof(T); ++i) os << (i ? " " : "") << std::hex << unsigned{p[i]};
    os << "}";
  }
  return os.str();
}

}  // namespace

std::string difference(const std::string& name, const HostData& got, const HostData& want,
                       std::uint32_t max_ulps) {
  if (got.index() != want.index() || bytes_of(got) != bytes_of(want)) {
    return "buffer '" + name + "': spvjit's and clBuildProgram's copies differ in type or size";
  }
  return std::visit(
      [&](const auto& g) -> std::string {
        using T = typename std::decay_t<decltype(g)>::value_type;
        const auto& w = std::get<std::vector<T>>(want);
        std::size_t differ = 0, first = 0;
        std::uint64_t worst = 0;
        for (std::size_t i = 0; i < g.size(); ++i) {
          bool same = std::memcmp(&g[i], &w[i], sizeof(T)) == 0;
          if constexpr (std::is_floating_point_v<T>) {
            const std::uint64_t d = ulps(g[i], w[i]);
            if (!same) worst = std::max(worst, d);
            same = same || d <= max_ulps;
          }
          if (!same && differ++ == 0) first = i;
        }
        if (differ == 0) return {};
        std::ostringstream os;
        os << "buffer '" << name << "' differs from clBuildProgram's in " << differ << " of "
           << g.size() << " elements; first [" << first << "]: spvjit " << show(g[first])
           << ", clBuildProgram " << show(w[first]);
        if constexpr (std::is_floating_point_v<T>)
          os << "; at most " << worst << " ulps (bound " << max_ulps << ")";
        return os.str();
      },
      got);
}

Outcome run(Runtime& rt, Jit& jit, const Case& c, Opt opt) {
  std::map<std::string, HostData> want, got;
  try {
    want = run_reference(spvjit::detail::core_of(rt), c);
  } catch (const std::exception& e) {
    return {false, std::string("reference: ") + e.what()};
  }
  try {
    got = run_spvjit(rt, jit, c, opt);
  } catch (const std::exception& e) {
    return {false, std::string("spvjit: ") + e.what()};
  }
  std::string message;
  for (const std::string& name : c.outputs) {
    const std::string diff = difference(name, got.at(name), want.at(name), c.max_ulps);
    if (!diff.empty()) message += (message.empty() ? "" : "\n") + diff;
  }
  return {message.empty(), message};
}

}  // namespace spvjit::corpus
