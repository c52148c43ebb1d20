#include "runtime/bounds_records.hpp"

#include <cstdio>
#include <cstring>
#include <string>

#include "runtime/launch_state.hpp"
#include "common/bounds.hpp"
#include "common/integer_range.hpp"

namespace spvjit::detail {

bool fine_grained_svm(const RuntimeCore& core);
bool fine_grained_system_svm(const RuntimeCore& core);

namespace {

std::string signed_text(std::uint64_t bits) {
  return std::to_string(static_cast<std::int64_t>(bits));
}

// "(1100)" or "(5, 3)": as many dimensions as the launch had.
std::string extent_text(const std::uint64_t* values, unsigned dims) {
  std::string out = "(";
  for (unsigned d = 0; d < dims; ++d) out += (d ? ", " : "") + std::to_string(values[d]);
  return out + ")";
}

// "200 (f32)", "nan (f64)": a failed conversion's value from its bits, to the digits that
// read back as the same float.
std::string float_text(std::uint64_t bits, Scalar type) {
  char text[64];
  if (type == Scalar::F64) {
    double v;
    std::memcpy(&v, &bits, sizeof v);
    std::snprintf(text, sizeof text, "%.17g", v);
  } else {
    const auto low = static_cast<std::uint32_t>(bits);
    float v;
    std::memcpy(&v, &low, sizeof v);
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
  }
  return std::string(text) + " (" + std::string(spvjit::name(type)) + ")";
}

// "cast to i8 of 200 (f32) is out of range: i8 holds -128 to 127".
std::string conversion_text(const BoundsSite& site, std::uint64_t bits) {
  const Scalar to = site.target;
  const std::string type(spvjit::name(to));
  return "cast to " + type + " of " + float_text(bits, site.element) + " is out of range: " + type +
         " holds " + integer_text(least_value(to)) + " to " + integer_text(greatest_value(to)) +
         " (NaN converts to no integer)";
}

// Throws the error one filled slot of `owner` reports: a BoundsError, e.g. "kernel 'saxpy':
// Z[1000] is out of bounds: Z holds 1000 f32 (work-item 1000 of ndrange (1100))", or an
// InexactError for a failed conversion.
[[noreturn]] void throw_failure(const LaunchState& owner, const std::uint64_t* slot,
                                const NDRange& nd, unsigned others) {
  if (slot[record::flag] != bounds_seal(slot)) {
    // Two work-items failed at the same moment and their reports interleaved.
    throw BoundsError(owner.facts.name, "",
                      "kernel '" + owner.facts.name +
                          "': out-of-bounds accesses in several work-items "
                          "at once of its launch over ndrange " +
                          nd.to_string() +
                          " (their reports overlapped; run with a smaller ndrange to see one)");
  }
  const std::uint64_t site_number = slot[record::site];
  const std::uint64_t* pairs = slot + record::pairs;
  const unsigned pair_count =
      static_cast<unsigned>(std::min<std::uint64_t>(slot[record::pair_count], record::max_pairs));
  std::string what;
  std::string array = "an array";
  bool conversion = false;
  if (site_number < owner.facts.bounds_sites.size() && pair_count > 0) {
    const BoundsSite& site = owner.facts.bounds_sites[site_number];
    array = site.array;
    conversion = site.kind == SiteKind::Conversion;
    const std::string element =
        site.element_name.empty() ? std::string(spvjit::name(site.element)) : site.element_name;
    if (conversion) {
      what = conversion_text(site, pairs[0]);
    } else if (site.rank > 0 && pair_count == site.rank + 1) {
      std::string indices, extents;
      bool view_failed = false;
      for (unsigned d = 0; d < site.rank; ++d) {
        indices += (d ? ", " : "") + signed_text(pairs[2 * d]);
        extents += (d ? ", " : "") + std::to_string(pairs[2 * d + 1]);
        view_failed = view_failed || pairs[2 * d] >= pairs[2 * d + 1];
      }
      const std::uint64_t linear = pairs[2 * site.rank], extent = pairs[2 * site.rank + 1];
      what = site.name + "(" + indices + ") is out of bounds: ";
      what += view_failed ? site.array + " is viewed as (" + extents + ")"
                          : "its offset " + signed_text(linear) + " is past " + site.array +
                                ", which holds " + std::to_string(extent) + " " + element;
    } else {
      const std::uint64_t first = pairs[0], extent = pairs[1];
      what = site.name + "[" + signed_text(first) +
             (site.lanes > 1 ? ".." + signed_text(first + site.lanes - 1) : std::string()) +
             "] is out of bounds: " + site.array + " holds " + std::to_string(extent) + " " +
             element;
    }
  } else {
    what = "an access is out of bounds (site " + std::to_string(site_number) + ")";
  }
  const unsigned dims = std::max(1u, std::min(nd.dims, 3u));
  const std::uint64_t sizes[3] = {nd.size[0], nd.size[1], nd.size[2]};
  const std::string item = dims == 1 ? std::to_string(slot[record::work_item])
                                     : extent_text(slot + record::work_item, dims);
  std::string message = "kernel '" + owner.facts.name + "': " + what + " (work-item " + item +
                        " of ndrange " + extent_text(sizes, dims) + ")";
  if (others > 0) {
    message += "; " + std::to_string(others) + " more kernel" + (others > 1 ? "s" : "") +
               " failed bounds checks since the last synchronize";
  }
  if (conversion) throw InexactError(owner.facts.name, "", message);
  throw BoundsError(owner.facts.name, array, message);
}

}  // namespace

BoundsRecords::~BoundsRecords() {
  for (auto& r : regions_) clSVMFree(core_.context.get(), r->memory);
}

bool BoundsRecords::available() const {
  int known = available_.load(std::memory_order_acquire);
  if (known < 0) {
    known = fine_grained_svm(core_) && fine_grained_system_svm(core_) ? 1 : 0;
    available_.store(known, std::memory_order_release);
  }
  return known == 1;
}

std::uint64_t* BoundsRecords::acquire(const LaunchState* owner) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!available()) return nullptr;
  std::uint64_t* slot = nullptr;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    if (regions_.empty() || regions_.back()->used == slots_per_region) {
      auto region = std::make_unique<Region>();
      const std::size_t bytes = slots_per_region * bounds_slot_bytes;
      region->memory = static_cast<std::uint64_t*>(
          clSVMAlloc(core_.context.get(), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, bytes,
                     static_cast<cl_uint>(bounds_slot_bytes)));
      if (!region->memory) {
        throw OpenCLError("clSVMAlloc", CL_MEM_OBJECT_ALLOCATION_FAILURE,
                          std::to_string(bytes) + " bytes for bounds-check records");
      }
      std::memset(region->memory, 0, bytes);
      regions_.push_back(std::move(region));
    }
    Region& r = *regions_.back();
    slot = r.memory + std::size_t{r.used++} * record::words;
  }
  for (auto& r : regions_) {
    if (slot >= r->memory && slot < r->memory + slots_per_region * record::words) {
      r->owner[(slot - r->memory) / record::words] = owner;
    }
  }
  std::memset(slot, 0, bounds_slot_bytes);
  live_.fetch_add(1, std::memory_order_release);
  return slot;
}

void BoundsRecords::release(std::uint64_t* slot) noexcept {
  if (!slot) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& r : regions_) {
    if (slot >= r->memory && slot < r->memory + slots_per_region * record::words) {
      r->owner[(slot - r->memory) / record::words] = nullptr;
    }
  }
  free_.push_back(slot);
  live_.fetch_sub(1, std::memory_order_release);
}

void BoundsRecords::scan() {
  std::unique_lock<std::mutex> lock(mutex_);
  const LaunchState* first_owner = nullptr;
  std::uint64_t first[record::words] = {};
  unsigned others = 0;
  for (auto& r : regions_) {
    for (unsigned i = 0; i < r->used; ++i) {
      std::uint64_t* slot = r->memory + std::size_t{i} * record::words;
      // The kernels that wrote it have finished (the queues were finished); the load is atomic
      // only so that a launch still running from another thread is no data race.
      if (__atomic_load_n(slot + record::flag, __ATOMIC_ACQUIRE) == 0 || !r->owner[i]) continue;
      if (!first_owner) {
        first_owner = r->owner[i];
        std::memcpy(first, slot, bounds_slot_bytes);
      } else {
        ++others;
      }
      std::memset(slot, 0, bounds_slot_bytes);
    }
  }
  if (!first_owner) return;
  NDRange nd;
  {
    auto& owner = const_cast<LaunchState&>(*first_owner);
    std::lock_guard<std::mutex> launch(owner.mutex);
    nd = owner.last_ndrange;
  }
  throw_failure(*first_owner, first, nd, others);
}

}  // namespace spvjit::detail
