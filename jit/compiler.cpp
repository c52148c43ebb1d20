// Jit: specialize -> translate -> build, with an in-memory cache keyed by the kernel's content
// hash, its static sizes and the build options.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

#include "ir/kernel_module.hpp"
#include "jit/specialize.hpp"
#include "jit/translate.hpp"
#include "runtime/launch_state.hpp"
#include "runtime/program.hpp"
#include "spvjit/jit.hpp"

namespace spvjit {

namespace detail {

namespace {

struct CacheKey {
  std::uint64_t hash;
  std::string name;
  std::array<std::size_t, 4> workgroup;  // [0] = dims, 0 when dynamic
  std::array<std::size_t, 4> ndrange;
  auto tie() const { return std::tie(hash, name, workgroup, ndrange); }
  bool operator<(const CacheKey& o) const { return tie() < o.tie(); }
};

std::array<std::size_t, 4> extent_key(const std::optional<detail::Extent3>& e) {
  if (!e) return {0, 0, 0, 0};
  return {e->dims, e->size[0], e->size[1], e->size[2]};
}

void check_extent(const std::string& kernel, const char* what, const detail::Extent3& e) {
  if (e.dims < 1 || e.dims > 3) {
    throw UserError("compile of kernel '" + kernel + "': static " + what + " has " +
                    std::to_string(e.dims) + " dimensions; expected 1 to 3");
  }
}

}  // namespace

class JitCore {
 public:
  JitCore(Runtime& rt, JitOptions opts) : runtime(rt.shared_core()), options(std::move(opts)) {}

  Specialization normalize(const KernelDef& def, Specialization spec) const {
    if (spec.workgroup) check_extent(def.name(), "workgroup", *spec.workgroup);
    if (spec.ndrange) check_extent(def.name(), "ndrange", *spec.ndrange);
    if (spec.workgroup) {
      const auto& info = runtime->info;
      std::size_t items = 1;
      for (unsigned d = 0; d < 3; ++d) {
        if (spec.workgroup->size[d] == 0 || spec.workgroup->size[d] > info.max_work_item_sizes[d]) {
          throw UserError("compile of kernel '" + def.name() + "': static workgroup " +
                          spec.workgroup->to_string() + " is outside the device's limits (" +
                          std::to_string(info.max_work_item_sizes[d]) + " in dimension " +
                          std::to_string(d) + ")");
        }
        items *= spec.workgroup->size[d];
      }
      if (items > info.max_workgroup_size) {
        throw UserError("compile of kernel '" + def.name() + "': static workgroup " +
                        spec.workgroup->to_string() + " has " + std::to_string(items) +
                        " work-items; the device allows " + std::to_string(info.max_workgroup_size));
      }
    }
    if (spec.ndrange && !spec.workgroup) {
      // A static ndrange fixes the workgroup too: choose it now so it can be a constant.
      WorkGroup wg;
      wg.dims = spec.ndrange->dims;
      std::size_t budget = runtime->info.max_workgroup_size;
      for (unsigned d = 0; d < 3; ++d) {
        wg.size[d] = std::max<std::size_t>(1, std::min({spec.ndrange->size[d], budget, runtime->info.max_work_item_sizes[d]}));
        // A kernel without bounds checks needs groups that tile the ndrange exactly.
        while (!def.has_hidden_ndrange() && spec.ndrange->size[d] % wg.size[d] != 0) --wg.size[d];
        budget /= wg.size[d];
      }
      spec.workgroup = wg;
    }
    if (spec.ndrange && !def.has_hidden_ndrange() && !divides(*spec.workgroup, *spec.ndrange)) {
      throw UserError("compile of kernel '" + def.name() + "': static workgroup " +
                      spec.workgroup->to_string() + " does not divide the static ndrange " +
                      spec.ndrange->to_string() + ", and the kernel never reads in_bounds() or "
                      "ndrange(), so its padding work-items would run out of bounds");
    }
    return spec;
  }

  std::vector<std::uint32_t> translate(const KernelDef& def, const Specialization& spec) {
    llvm::LLVMContext context;
    auto module = specialize(context, def.module(), spec);
    return translate_to_spirv(*module, def.name());
  }

  Kernel compile(const KernelDef& def, const Specialization& requested) {
    const Specialization spec = normalize(def, requested);
    CacheKey key{def.hash(), def.name(), extent_key(spec.workgroup), extent_key(spec.ndrange)};
    std::shared_ptr<Slot> slot;
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto& s = cache[key];
      if (!s) s = std::make_shared<Slot>();
      slot = s;
    }
    // One compile per key: others asking for the same key wait on the slot, not the cache.
    std::lock_guard<std::mutex> slot_lock(slot->mutex);
    if (slot->kernel.valid()) return slot->kernel;
    auto words = translate(def, spec);
    auto program = std::make_shared<ClHandle<cl_program>>(
        build_program_from_il(*runtime, words, options.build_options, def.name()));
    const auto& km = def.module();
    slot->kernel = Kernel(std::make_shared<LaunchState>(runtime, std::move(program), km.name,
                                                        km.params, km.hidden_ndrange, spec));
    compiles.fetch_add(1, std::memory_order_relaxed);
    return slot->kernel;
  }

  struct Slot {
    std::mutex mutex;
    Kernel kernel;
  };

  std::shared_ptr<RuntimeCore> runtime;
  JitOptions options;
  std::mutex mutex;
  std::map<CacheKey, std::shared_ptr<Slot>> cache;
  std::atomic<std::uint64_t> compiles{0};
};

}  // namespace detail

Jit::Jit(Runtime& runtime, JitOptions options)
    : core_(std::make_unique<detail::JitCore>(runtime, std::move(options))) {}
Jit::~Jit() = default;
Jit::Jit(Jit&&) noexcept = default;
Jit& Jit::operator=(Jit&&) noexcept = default;

Kernel Jit::compile(const KernelDef& def, const Specialization& spec) {
  return core_->compile(def, spec);
}

std::vector<std::uint32_t> Jit::spirv(const KernelDef& def, const Specialization& spec) {
  return core_->translate(def, core_->normalize(def, spec));
}

std::uint64_t Jit::compile_count() const { return core_->compiles.load(); }

}  // namespace spvjit
