// JitCore, the compile of one KernelDef for one Specialization, in five steps, each a function
// below: settle the static sizes (normalize) -> the in-memory table (compile: a lock-free hit;
// past its budget, kernels no handle holds are dropped) -> the builds under way in this
// process (build_program: a Jit asking for what another is building waits and adopts it) ->
// the disk cache (from_disk: the device binary through clCreateProgramWithBinary, no LLVM, no
// translator) -> else the pipeline and the translator (to_spirv; jit/pipeline.hpp lists the
// passes) and clBuildProgram from the SPIR-V (from_spirv) -> the entry stored on disk once the
// kernel exists (store).
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "common/env.hpp"
#include "common/error_report.hpp"
#include "common/exit_gate.hpp"
#include "common/full_stack.hpp"
#include "common/geometry.hpp"
#include "common/group_stack.hpp"
#include "common/log.hpp"
#include "ir/kernel_module.hpp"
#include "jit/cache/cache_key.hpp"
#include "jit/cache/disk_cache.hpp"
#include "jit/cache/in_flight.hpp"
#include "jit/cache/kernel_table.hpp"
#include "jit/device/barrier_tails.hpp"
#include "jit/device/pocl_fixes.hpp"
#include "jit/device/split_vector_calls.hpp"
#include "jit/fast_math_options.hpp"
#include "jit/pipeline.hpp"
#include "runtime/float_atomics.hpp"
#include "runtime/launch_state.hpp"
#include "runtime/program.hpp"
#include "spvjit/jit.hpp"

namespace spvjit {

namespace detail {

namespace {

// SPVJIT_COARSEN overrides the coarsening options: off, on (the device's width) or a width 2,
// 4, 8 or 16; for measuring and for ruling coarsening out when a kernel misbehaves.
JitOptions with_environment(JitOptions options) {
  if (const auto choice = env_choice("SPVJIT_COARSEN", {"off", "on", "2", "4", "8", "16"})) {
    options.coarsen = *choice != 0;
    options.coarsen_width = *choice >= 2 ? 1u << (*choice - 1) : 0;
  }
  if (const auto vectors = env_choice("SPVJIT_COARSEN_VECTORS", {"1", "2", "4", "8"})) {
    options.coarsen_vectors = 1u << *vectors;
  }
  if (const auto checks = env_flag("SPVJIT_BOUNDS_CHECKS")) options.bounds_checks = *checks;
  if (const auto loops = env_flag("SPVJIT_GROUP_LOOPS")) options.group_loops = *loops;
  if (const auto bytes =
          env_number("SPVJIT_MEMORY_CACHE_BYTES", 0, UINT64_MAX, "a number of bytes")) {
    options.memory_cache_bytes = *bytes;
  }
  const unsigned vectors = options.coarsen_vectors;
  user_assert(vectors == 1 || vectors == 2 || vectors == 4 || vectors == 8, {"Jit"})
      << "JitOptions::coarsen_vectors is " << vectors << "; expected 1, 2, 4 or 8";
  return options;
}

}  // namespace

// What the in-memory table counts for a kernel besides its definition and program: the
// table's node, the launch state and its argument memos, PoCL's cl_kernel.
constexpr std::uint64_t kernel_overhead_bytes = 4096;

// What an OpenCL program holds in PoCL, estimated from what spvjit knows of it: its SPIR-V
// and, where the disk cache wrote or loaded one, its serialized binary. PoCL keeps the SPIR-V,
// program.bc (the kernel linked with the library functions it calls, which the SPIR-V's size
// does not tell) and the serialized binary once there is one. Fitted to the heap growth per
// program kept, PoCL 6.0 with patch 0015 (issue #71; docs/runtime.md, "The kernel cache"):
// within 10-20 % with a binary, within 20 % without one for a small kernel and ~20 % under for
// one calling a dozen math functions.
std::uint64_t estimated_program_bytes(std::uint64_t spirv_bytes, std::uint64_t binary_bytes) {
  if (binary_bytes == 0) return 8 * spirv_bytes;
  return binary_bytes * 13 / 10 + spirv_bytes * 9 / 2;
}

class JitCore {
 public:
  JitCore(Runtime& rt, JitOptions opts)
      : runtime(detail::shared_core_of(rt)),
        options(with_environment(std::move(opts))),
        float_atomics(options.native_float_atomics ? query_float_atomic_add(*runtime)
                                                   : FloatAtomicAdd{}),
        disk(disk_cache_settings(options)),
        table(options.memory_cache_bytes) {}

  // The static sizes checked and settled by the launch geometry's rules (common/geometry.hpp)
  // against the device: the kernel does not exist yet, so neither do its own limits or
  // preferred multiple. Allocation-free unless it throws: it runs on every warm compile() call.
  Specialization normalize(const KernelDef& def, const Specialization& requested) const {
    const auto& km = detail::kernel_module(def);
    Specialization spec = requested;
    if (km.declared_workgroup) {
      user_assert(!spec.workgroup || *spec.workgroup == *km.declared_workgroup,
                  {"compile", def.name()})
          << "compiled with workgroup " << spec.workgroup->to_string()
          << "; the kernel was built for workgroup " << km.declared_workgroup->to_string()
          << " (KernelBuilder::workgroup), which sizes written from it assume";
      spec.workgroup = km.declared_workgroup;
    }
    const std::uint64_t local_bytes = km.static_local_bytes;
    user_assert(local_bytes <= runtime->info.local_mem_size, {"compile", def.name()})
        << "its local arrays take " << local_bytes << " bytes; the device has "
        << runtime->info.local_mem_size << " bytes of local memory";
    GeometryRules rules;
    rules.statics = &spec;
    rules.limits = {runtime->info.max_workgroup_size, runtime->info.max_work_item_sizes, 1};
    rules.stack = group_stack(def);
    rules.pads = def.pads_safely();
    return settle_statics(rules, {"compile", def.name()});
  }

  // What the pipeline needs of the device and options: the same for every compile of this Jit.
  LoweringTarget lowering_target() const {
    const auto& info = runtime->info;
    LoweringTarget t;
    t.fma_f32 = info.fma_f32;
    t.fma_f64 = info.fma_f64;
    t.bounds_checks = bounds_checks();
    t.coarsen = coarsening();
    t.coarsening.forced_width = options.coarsen_width;
    t.coarsening.vectors_per_item = options.coarsen_vectors;
    t.coarsen_dimension_1 = coarsen_dimension_1();
    t.plan_by_cost = plan_by_cost();
    if (plan_mode() >= 2) {
      constexpr PlanKind wanted[] = {PlanKind::device, PlanKind::vectors, PlanKind::strips,
                                     PlanKind::vectors, PlanKind::strips};
      t.wanted_plan = wanted[plan_mode() - 2];
      t.wanted_plan_dimension = plan_mode() >= 5 ? 1 : 0;
    }
    t.coarsening.work_item_checks = work_item_checks();
    t.coarsening.grid_stride_loops = coarsen_grid_stride();
    t.coarsening.strip_vectors = coarsen_strips();
    t.coarsening.groups = coarsen_groups();
    t.group_loops = group_looping();
    t.group_uniform_loops = group_uniform_loops();
    t.group_grid_stride = group_grid_stride();
    const auto& w = info.preferred_vector_width;
    // No cl_khr_fp16 here: half data is computed in float, so it takes float's width.
    t.coarsening.widths = VectorWidths{w[0], w[1], w[2], w[3], w[4], w[5]};
    t.coarsening.math = may_have(info, PoclBug::VectorMathDiffers) ? VectorMath::exact_only
                                                                   : VectorMath::every_function;
    t.float_atomics = float_atomics;
    t.split_wide_builtins = may_have(info, PoclBug::WideBuiltins);
    t.fast_math = fast_math_of_build_options(options.build_options);
    t.approximate_functions = approximate_functions();
    return t;
  }

  // The SPIR-V of `def` for `spec`, and what its launch needs: the pipeline, the refusals of
  // what this PoCL would run wrong (`to_build`: a program will be built from it), and the
  // translator.
  Lowered to_spirv(const KernelDef& def, const Specialization& spec, bool to_build) {
    const auto& km = detail::kernel_module(def);
    const std::span<const std::string> other_kernels =
        km.raw ? std::span<const std::string>(km.raw->kernels) : std::span<const std::string>();
    llvm::LLVMContext context;
    const auto refuse = [&](const llvm::Module& module) {
      if (!to_build) return;
      // A raw module's program holds all its kernels (def's among them): check each.
      if (other_kernels.empty()) refuse_barrier_tail_hazard(module, def.name(), spec);
      for (const auto& name : other_kernels) refuse_barrier_tail_hazard(module, name, spec);
    };
    return lower_and_translate(context, km, spec, lowering_target(), other_kernels, refuse);
  }

  // An unpatched PoCL runs such kernels silently wrong (jit/device/barrier_tails.hpp): refused.
  void refuse_barrier_tail_hazard(const llvm::Module& module, const std::string& kernel_name,
                                  const Specialization& spec) const {
    if (!may_have(runtime->info, PoclBug::BarrierTails)) return;
    const llvm::Function* kernel = module.getFunction(kernel_name);
    if (!kernel) return;
    if (const auto hazard = barrier_tail_hazard(*kernel)) {
      user_error({"compile", kernel_name})
          << "as specialized " << describe(spec) << ", " << *hazard << "; "
          << runtime->info.platform_name << " " << runtime->info.platform_version
          << " lacks spvjit's patch 0004 (third_party/pocl/patches) and would run it wrong (one "
             "work-item's branch taken for the whole work-group). Use the PoCL "
             "third_party/pocl/build.sh builds, or set POCL_WORK_GROUP_METHOD=cbs";
    }
  }

  bool coarsening() const { return options.coarsen && runtime->info.cpu; }
  // On since it won (issue #65, step 3: the row-major heat step 7-23x faster):
  // SPVJIT_COARSEN_DIMENSION_1=off leaves kernels whose dimension 0 cannot be coarsened alone
  // instead of trying dimension 1 (jit/coarsen/swap_dimensions.hpp).
  bool coarsen_dimension_1() const {
    static const bool on = env_flag("SPVJIT_COARSEN_DIMENSION_1").value_or(true);
    return coarsening() && on;
  }
  // On since it won (issue #65, step 2: every kernel of the suite takes the plan it took, and
  // apps/rows_damping, legal in both dimensions, runs in dimension 1, 4-9x faster): every plan
  // the coarsener can make for a kernel is priced and the cheapest made (jit/coarsen/plans.hpp).
  // SPVJIT_PLAN=order makes the first legal of strips, vectors, dimension 1 and the device's
  // work-items, as before; device, vectors, strips, vectors-1, strips-1 take that plan where the
  // coarsener can make it, whatever its price, else the cheapest (for measuring plans against
  // each other).
  static unsigned plan_mode() {
    static const unsigned mode = env_choice("SPVJIT_PLAN", {"order", "cost", "device", "vectors",
                                                            "strips", "vectors-1", "strips-1"})
                                     .value_or(1);
    return mode;
  }
  bool plan_by_cost() const { return coarsening() && plan_mode() >= 1; }
  // On since it won (issue #65, step 4: every stencil faster, geomean 0.92 of the time): a
  // coarsened kernel's dispatcher tests a work-item's global ids against any argument once, so
  // that its fast body leaves out those checks and the array offsets that follow from them
  // (jit/coarsen/vector.hpp). SPVJIT_WORK_ITEM_CHECKS=off leaves only fast_end's.
  bool work_item_checks() const {
    static const bool on = env_flag("SPVJIT_WORK_ITEM_CHECKS").value_or(true);
    return coarsening() && bounds_checks() && on;
  }
  // On since it won (issue #66: triad_grid_stride 2.1-2.8x faster at 2^18, 5.2-5.4x at 2^25):
  // grid-stride loops coarsened, their counters consecutive across the lanes
  // (jit/coarsen/analysis.hpp) and for_'s overflow exit folded into the loop's test
  // (jit/coarsen/masked_loops.hpp). SPVJIT_COARSEN_GRID_STRIDE=off leaves such kernels scalar.
  bool coarsen_grid_stride() const {
    static const bool on = env_flag("SPVJIT_COARSEN_GRID_STRIDE").value_or(true);
    return coarsening() && on;
  }
  // On since it won (issue #65, step 1: the six interior-tested stencils 0.86x the time in
  // geometric mean, heat3d/128 and stencil27/128 1.5x faster): a kernel guarded by an interior
  // test runs strips of U vectors per work-item from the test's first index
  // (jit/coarsen/strips.hpp). SPVJIT_COARSEN_STRIPS=on is 8 vectors (8 beat 4 and 16 on the
  // stencils); 2, 4, 8 or 16 say how many; off: none.
  unsigned coarsen_strips() const {
    static const unsigned vectors = [] {
      const auto choice = env_choice("SPVJIT_COARSEN_STRIPS", {"off", "on", "2", "4", "8", "16"});
      if (!choice || *choice == 1) return 8u;
      return *choice == 0 ? 0u : 1u << (*choice - 1);
    }();
    return coarsening() ? vectors : 0;
  }
  // Off since it lost (issue #63: n-body local 6-23 % slower than PoCL's vectorizer on the group
  // loops, docs/performance.md): kernels with barriers and a static workgroup coarsened in
  // groups, each work-item standing for W consecutive work-items of its group
  // (jit/coarsen/coarsen.hpp, CoarsenTarget::groups); SPVJIT_COARSEN_GROUPS=on turns it on.
  bool coarsen_groups() const {
    static const bool on = env_flag("SPVJIT_COARSEN_GROUPS").value_or(false);
    return coarsening() && on;
  }
  // On since it won (issue #63: Black-Scholes under fast math 2.3-2.4x faster): calls to exp,
  // log and erfc that carry fast math's approximate-functions flag become inline arithmetic
  // (ir/approximate_math.hpp); SPVJIT_APPROXIMATE_FUNCTIONS=off leaves them to the device.
  bool approximate_functions() const {
    static const bool on = env_flag("SPVJIT_APPROXIMATE_FUNCTIONS").value_or(true);
    return on;
  }
  bool group_looping() const { return options.group_loops && runtime->info.cpu; }
  // On since PoCL's patch 0012 lets the cut loops vectorize (issue #52, step 3);
  // SPVJIT_GROUP_UNIFORM_LOOPS=off keeps every loop inside the loop over work-items.
  bool group_uniform_loops() const {
    static const bool on = env_flag("SPVJIT_GROUP_UNIFORM_LOOPS").value_or(true);
    return group_looping() && on;
  }
  // On since it won (issue #66, step 1): grid-stride loops moved so that the group runs them
  // alike (jit/workgroup/grid_stride.hpp); SPVJIT_GROUP_GRID_STRIDE=off leaves them to each
  // work-item.
  bool group_grid_stride() const {
    static const bool on = env_flag("SPVJIT_GROUP_GRID_STRIDE").value_or(true);
    return group_uniform_loops() && on;
  }
  // Checks need a record the host can read (runtime/bounds_records.hpp).
  bool bounds_checks() const {
    if (!options.bounds_checks) return false;
    if (runtime->bounds_records.available()) return true;
    warn_once("no-bounds-records", "device '" + runtime->info.name +
                                       "' has no fine-grained buffer SVM for bounds-check records; "
                                       "kernels run without bounds checks");
    return false;
  }

  // A work-group's work-items against the stack of the thread that runs the group.
  GroupStack group_stack(const KernelDef& def) const {
    return {detail::kernel_module(def).stack_bytes_per_item, thread_stack};
  }

  Kernel compile(const KernelDef& def, const Specialization& requested) {
    const Specialization spec = normalize(def, requested);
    const MemoryKey key = memory_key(def, spec);
    Kernel kernel;
    if (table.lookup(key, kernel)) {
      detail::WorkScope::note_lookup();  // the hot path: registers no exit handler
      return kernel;
    }
    const KernelTable::Pin node = table.pin(key);
    // One compile per key: the others wait here, on this node, not on the table.
    std::lock_guard<std::mutex> lock(node->compile_mutex);
    if (node->ready.load(std::memory_order_relaxed)) return node->kernel;
    detail::WorkScope::note_build();
    Compiled compiled = build(def, spec);
    table.publish(*node, compiled.kernel, compiled.bytes);
    return std::move(compiled.kernel);
  }

  // What a build produced: the program, and what launching its kernels needs besides.
  struct Built {
    std::shared_ptr<ClHandle<cl_program>> program;
    EntryLaunch launch;
    /// What holding the program costs (estimated_program_bytes).
    std::uint64_t bytes = 0;
    /// The SPIR-V it was built from; null when it was loaded from the disk cache.
    std::shared_ptr<const std::vector<std::uint32_t>> spirv;
    // The disk-cache write still to do, if any: run once the kernel exists. Reading the binary
    // back holds PoCL's lock on the program for as long as PoCL compiles a generic work-group
    // function, and clCreateKernel takes that lock too. Returns the binary's size (0: none).
    std::function<std::uint64_t()> write;
    // The lead of this signature's build in the process (InFlight), when this build led it:
    // published once the disk entry is written (share_lead), so that a Jit claiming the
    // signature between the build's end and the write waits for it and then loads the entry,
    // instead of compiling it again. Destroyed unpublished (a throw), the waiters build.
    std::shared_ptr<InFlight::Claim> lead;
  };

  // A raw module built once for all its kernels (and every equal module): one program per
  // module and specialization, shared by its kernels while any of them is held (by the table
  // or a handle); the record of one whose kernels are all gone is dropped.
  struct ModuleProgram {
    std::shared_ptr<const RawModuleSource> source;
    Specialization spec;
    std::mutex build_mutex;
    // Under build_mutex.
    std::weak_ptr<ClHandle<cl_program>> program;
    EntryLaunch launch;
    std::uint64_t bytes = 0;
  };

  // A kernel, and what the in-memory table counts for holding it.
  struct Compiled {
    Kernel kernel;
    std::uint64_t bytes = 0;
  };

  Compiled build(const KernelDef& def, const Specialization& spec) {
    const auto& km = detail::kernel_module(def);
    Built built = km.raw ? module_program(def, spec) : build_program(def, spec);
    KernelFacts facts;
    static_cast<KernelInterface&>(facts) = km;
    facts.spec = spec;
    facts.stack = group_stack(def);
    facts.stack.per_item =
        std::max<std::uint64_t>(facts.stack.per_item, built.launch.stack_bytes_per_item);
    facts.launch = built.launch;
    // Without checks the launch need not hold the ndrange within the extents.
    if (!bounds_checks()) facts.extent_covers_ndrange.clear();
    Kernel kernel(std::make_shared<LaunchState>(runtime, built.program, std::move(facts)));
    // On this thread: a write on a thread of the Jit's own, after the first launches, was
    // undone by exit(), which destroyed LLVM's globals under it (issue #29).
    if (built.write) {
      // PoCL holds the serialized binary now too; its size tells better what the program holds.
      if (const std::uint64_t binary = built.write()) {
        built.bytes = estimated_program_bytes(built.spirv ? built.spirv->size() * 4 : 0, binary);
      }
    }
    share_lead(built);
    // What the table counts: the definition it keeps for comparisons, and the program (a
    // module's program shared out among its kernels).
    const std::uint64_t share = km.raw ? std::max<std::size_t>(km.raw->kernels.size(), 1) : 1;
    const std::uint64_t bytes =
        (km.module_bitcode().size() + km.module_ir().size() + built.bytes) / share +
        kernel_overhead_bytes;
    return {std::move(kernel), bytes};
  }

  // The program of `def`'s raw module for `spec`: built by the first of its kernels compiled,
  // shared by the others (they wait for it here).
  Built module_program(const KernelDef& def, const Specialization& spec) {
    const auto& source = detail::kernel_module(def).raw;
    std::shared_ptr<ModuleProgram> entry;
    {
      std::lock_guard<std::mutex> lock(modules_mutex);
      // Copies are made only under this lock, so a record the list alone holds stays unheld.
      std::erase_if(modules, [](const std::shared_ptr<ModuleProgram>& m) {
        return m.use_count() == 1 && m->program.expired();
      });
      for (const auto& m : modules) {
        if (m->spec.workgroup == spec.workgroup && m->spec.ndrange == spec.ndrange &&
            (m->source == source ||
             (m->source->hash == source->hash && m->source->kernels == source->kernels &&
              m->source->ir_text == source->ir_text))) {
          entry = m;
          break;
        }
      }
      if (!entry) {
        entry = std::make_shared<ModuleProgram>();
        entry->source = source;
        entry->spec = spec;
        modules.push_back(entry);
      }
    }
    std::lock_guard<std::mutex> lock(entry->build_mutex);
    if (auto program = entry->program.lock()) {
      return Built{program, entry->launch, entry->bytes, nullptr, {}, {}};
    }
    Built first = build_program(def, spec);
    entry->program = first.program;  // written by the first kernel, read by the others
    entry->launch = first.launch;
    entry->bytes = first.bytes;
    return first;
  }

  // What one program build is about, for its log lines and its disk entry.
  struct Subject {
    std::string what;  // "kernel 'k' (workgroup ...)", "module of kernel 'k' (3 kernels) ..."
    std::string key;   // the signature: the disk cache's key, and the in-flight builds' (InFlight)
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

    std::string elapsed_ms() const {
      char text[32];
      std::snprintf(
          text, sizeof text, "%.1f",
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
              .count());
      return text;
    }
  };

  Subject subject_of(const KernelDef& def, const Specialization& spec) const {
    const auto& km = detail::kernel_module(def);
    Subject subject;
    subject.what = (km.raw && km.raw->kernels.size() > 1
                        ? "module of kernel '" + km.name + "' (" +
                              std::to_string(km.raw->kernels.size()) + " kernels)"
                        : "kernel '" + km.name + "'") +
                   " " + describe(spec);
    // A raw module's entry is the module's: named by its kernels, its signatures follow from
    // its IR. The key holds the coarsening options (the width follows from them and the IR).
    if (km.raw) {
      std::string module_kernels;
      for (const auto& k : km.raw->kernels) module_kernels += "[module] " + k + "\n";
      subject.key = cache_key({module_kernels,
                               km.raw->ir_text,
                               {},
                               false,
                               spec,
                               key_options(),
                               &runtime->info,
                               ToolVersions::current()});
    } else {
      subject.key = cache_key({km.name, km.ir_text, km.params, km.hidden_ndrange(), spec,
                               key_options(), &runtime->info, ToolVersions::current()});
    }
    return subject;
  }

  // What a program build shares with the builds of the same signature that waited for it in
  // other Jits of this process (InFlight).
  struct Shared {
    std::shared_ptr<RuntimeCore> runtime;
    Built built;  // without its disk write: the leader's own
  };

  // The program of a builder kernel, or of a raw module with all its kernels: built once in
  // this process for every Jit asking at the same time (the first builds, the others wait for
  // it and adopt what it built), from the disk cache, else through the pipeline and built from
  // its SPIR-V (and stored once it runs).
  Built build_program(const KernelDef& def, const Specialization& spec) {
    const Subject subject = subject_of(def, spec);
    // Claimed through new: a Claim is neither copied nor moved, and the lead outlives this call.
    std::shared_ptr<InFlight::Claim> claim(
        new InFlight::Claim(InFlight::process().claim(subject.key)));
    if (!claim->leads()) {
      if (auto shared = std::static_pointer_cast<const Shared>(claim->wait())) {
        if (auto built = adopt(def, subject, *shared)) return std::move(*built);
      }
    }
    Built built = build_program_here(def, spec, subject);
    if (claim->leads()) built.lead = std::move(claim);
    return built;
  }

  // The build handed to the Jits that waited for it (build() runs it after the disk write).
  void share_lead(Built& built) {
    if (!built.lead) return;
    built.lead->publish(std::make_shared<const Shared>(
        Shared{runtime, Built{built.program, built.launch, built.bytes, built.spirv, {}, {}}}));
    built.lead.reset();
  }

  // Another Jit's build of the same signature: its program where it shares this Jit's Runtime
  // (context and device), else its SPIR-V built here (PoCL's own cache then has the rest);
  // nothing where it loaded its program from the disk cache, which this Jit reads too.
  std::optional<Built> adopt(const KernelDef& def, const Subject& subject, const Shared& shared) {
    if (shared.runtime == runtime) {
      SPVJIT_LOG_INFO(subject.what +
                      ": built by another Jit at the same time; its program "
                      "shared after " +
                      subject.elapsed_ms() + " ms");
      return Built{shared.built.program,
                   shared.built.launch,
                   shared.built.bytes,
                   shared.built.spirv,
                   {},
                   {}};
    }
    if (!shared.built.spirv) return std::nullopt;
    return from_spirv(def, subject, shared.built.spirv, shared.built.launch, false);
  }

  Built build_program_here(const KernelDef& def, const Specialization& spec,
                           const Subject& subject) {
    if (disk.enabled()) {
      if (auto hit = disk.load(subject.key)) {
        if (auto built = from_disk(def, subject, *hit)) return std::move(*built);
        // The device no longer takes its own binary: rebuild from the stored SPIR-V.
        auto words = std::make_shared<std::vector<std::uint32_t>>(hit->entry.spirv.size() / 4);
        std::memcpy(words->data(), hit->entry.spirv.data(), hit->entry.spirv.size());
        return from_spirv(def, subject, std::move(words), hit->entry.launch, true);
      }
    }
    Lowered spirv = to_spirv(def, spec, true);
    compiles.fetch_add(1, std::memory_order_relaxed);
    return from_spirv(def, subject,
                      std::make_shared<const std::vector<std::uint32_t>>(std::move(spirv.words)),
                      spirv.launch, true);
  }

  // A disk entry's binary as a program; nothing when the device rejects it (warned once). The
  // entry's header holds the width and the offset safety, so a hit needs no LLVM (parsing the IR
  // cost 8 ms in a fresh process, measured by compile/warm_process).
  std::optional<Built> from_disk(const KernelDef& def, const Subject& subject,
                                 const DiskCache::Loaded& hit) {
    try {
      auto program =
          build_program_from_binary(*runtime, hit.entry.binary, options.build_options, def.name());
      disk_hits.fetch_add(1, std::memory_order_relaxed);
      SPVJIT_LOG_INFO(subject.what + ": disk cache hit " + disk.path_for(subject.key) +
                      ", loaded in " + subject.elapsed_ms() + " ms");
      return Built{std::make_shared<ClHandle<cl_program>>(std::move(program)),
                   hit.entry.launch,
                   estimated_program_bytes(hit.entry.spirv.size(), hit.entry.binary.size()),
                   nullptr,
                   {},
                   {}};
    } catch (const OpenCLError& e) {
      warn_once("rejected:" + disk.path_for(subject.key),
                "the device rejected the cached binary " + disk.path_for(subject.key) + " (" +
                    e.what() + "); rebuilding it from its SPIR-V");
      return std::nullopt;
    }
  }

  // The program built from SPIR-V; with the cache on and `to_store`, the entry's write to run
  // once the kernel exists (build() runs it).
  Built from_spirv(const KernelDef& def, const Subject& subject,
                   std::shared_ptr<const std::vector<std::uint32_t>> words, EntryLaunch launch,
                   bool to_store) {
    auto program = std::make_shared<ClHandle<cl_program>>(
        build_program_from_il(*runtime, *words, options.build_options, def.name()));
    SPVJIT_LOG_INFO(subject.what + ": compiled (" + std::to_string(words->size() * 4) +
                    " bytes of SPIR-V) in " + subject.elapsed_ms() + " ms" +
                    (!disk.enabled() ? ", disk cache off"
                     : to_store      ? ", disk cache miss"
                                     : ", SPIR-V from another Jit"));
    Built built{program, launch, estimated_program_bytes(words->size() * 4, 0), words, {}, {}};
    if (disk.enabled() && to_store) {
      built.write = [this, key = subject.key, words, program, launch] {
        return store(key, *words, program->get(), launch);
      };
    }
    return built;
  }

  // The device binary's size; 0 when there is none to store.
  std::uint64_t store(const std::string& key, std::span<const std::uint32_t> words,
                      cl_program program, EntryLaunch launch) {
    std::vector<std::uint8_t> binary;
    try {
      binary = program_binary(program);
    } catch (const OpenCLError& e) {
      warn_once("no-binary", std::string("cannot read a program binary (") + e.what() +
                                 "); kernels are not cached on disk");
      return 0;
    }
    if (binary.empty()) return 0;
    if (disk.store(key, words, binary, launch)) {
      disk_writes.fetch_add(1, std::memory_order_relaxed);
      SPVJIT_LOG_DEBUG("stored " + disk.path_for(key) + " (" + std::to_string(binary.size()) +
                       " bytes of device binary)");
    }
    return binary.size();
  }

  // The build options plus what else changes the code for the same IR, for the disk key.
  std::string key_options() const {
    std::string coarsen;
    if (coarsening()) {
      coarsen =
          "\n[coarsen " +
          (options.coarsen_width ? std::to_string(options.coarsen_width) : std::string("auto")) +
          (options.coarsen_vectors > 1
               ? " x " + std::to_string(options.coarsen_vectors) + " vectors"
               : std::string()) +
          (coarsen_dimension_1() ? ", dimension 1 where 0 cannot be" : "") +
          (work_item_checks() ? ", global ids checked once per work-item" : "") +
          (coarsen_grid_stride() ? ", grid-stride loops" : "") +
          (coarsen_strips() ? ", strips of " + std::to_string(coarsen_strips()) + " vectors"
                            : std::string()) +
          (coarsen_groups() ? ", in groups" : "") +
          (plan_by_cost() ? ", the plan by cost (" + std::to_string(plan_mode()) + ")" : "") + "]";
    }
    return options.build_options +
           (options.native_float_atomics ? "" : "\n[float atomics as compare-exchange loops]") +
           coarsen + (bounds_checks() ? "" : "\n[bounds checks off]") +
           (group_looping() ? "\n[group loops]" : "") +
           (group_uniform_loops() ? "\n[uniform loops outside the work-items]" : "") +
           (group_grid_stride() ? "\n[grid-stride loops moved]" : "") +
           (approximate_functions() ? "\n[exp, log, erfc approximated under afn]" : "") +
           fused_multiply_add();
  }

  // Which llvm.fmuladd calls lower() turns into llvm.fma: the same IR compiles differently.
  std::string fused_multiply_add() const {
    const auto& info = runtime->info;
    if (!info.fma_f32 && !info.fma_f64) return "";
    return std::string("\n[fmuladd fused:") + (info.fma_f32 ? " f32" : "") +
           (info.fma_f64 ? " f64" : "") + "]";
  }

  std::shared_ptr<RuntimeCore> runtime;
  JitOptions options;
  FloatAtomicAdd float_atomics;  // what the device adds natively
  DiskCache disk;
  // The stack PoCL's workers got when the Runtime started them (common/group_stack.hpp).
  std::uint64_t thread_stack = default_thread_stack_bytes();
  KernelTable table;
  std::mutex modules_mutex;  // held to find, add or drop an entry, never during a build
  std::vector<std::shared_ptr<ModuleProgram>> modules;
  std::atomic<std::uint64_t> compiles{0};
  std::atomic<std::uint64_t> disk_hits{0};
  std::atomic<std::uint64_t> disk_writes{0};
};

}  // namespace detail

Jit::Jit(Runtime& runtime, JitOptions options)
    : core_(std::make_unique<detail::JitCore>(runtime, std::move(options))) {
  detail::note_new_owner();
}
Jit::~Jit() = default;
Jit::Jit(Jit&&) noexcept = default;
Jit& Jit::operator=(Jit&&) noexcept = default;

namespace {
// A moved-from Jit has no core: using it is a UserError, not a null dereference.
detail::JitCore& live(const std::unique_ptr<detail::JitCore>& core, const char* what) {
  if (!core) [[unlikely]] {
    user_error({what}) << "this Jit was moved from; use the Jit it was moved to";
  }
  return *core;
}
}  // namespace

// Compiles run LLVM (and PoCL's build) deep in the stack: on a full-sized one
// (common/full_stack.hpp).
Kernel Jit::compile(const KernelDef& def, const Specialization& spec) {
  return detail::with_full_stack([&] { return live(core_, "Jit::compile").compile(def, spec); });
}

Program Jit::compile(const ModuleDef& module, const Specialization& spec) {
  return detail::with_full_stack([&] {
    auto& core = live(core_, "Jit::compile");
    if (!module.valid()) {
      user_error({"Jit::compile"}) << "the ModuleDef is empty; make one with module_from_bitcode";
    }
    std::vector<Kernel> kernels;
    kernels.reserve(module.kernels().size());
    for (const auto& def : module.kernels()) kernels.push_back(core.compile(def, spec));
    return Program(std::move(kernels));
  });
}

std::vector<std::uint32_t> Jit::spirv(const KernelDef& def, const Specialization& spec) {
  return detail::with_full_stack([&] {
    auto& core = live(core_, "Jit::spirv");
    return core.to_spirv(def, core.normalize(def, spec), false).words;
  });
}

std::uint64_t Jit::compile_count() const {
  return live(core_, "Jit::compile_count").compiles.load();
}

JitStats Jit::stats() const {
  auto& core = live(core_, "Jit::stats");
  const detail::TableCounts table = core.table.counts();
  JitStats s;
  s.compiles = core.compiles.load();
  s.disk_hits = core.disk_hits.load();
  s.disk_writes = core.disk_writes.load();
  s.memory_hits = table.hits;
  s.memory_misses = table.misses;
  s.evictions = table.evictions;
  s.memory_kernels = table.entries;
  s.memory_bytes = table.bytes;
  return s;
}

std::string Jit::cache_dir() const {
  auto& core = live(core_, "Jit::cache_dir");
  return core.disk.enabled() ? core.disk.dir() : std::string();
}

}  // namespace spvjit
