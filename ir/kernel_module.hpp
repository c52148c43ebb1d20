// The immutable payload of a KernelDef: its interface (common/kernel_interface.hpp) and the
// module as bitcode (so every compile parses it into a fresh LLVMContext and compiles run in
// parallel without sharing one).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "spvjit/signature.hpp"
#include "common/kernel_interface.hpp"

namespace spvjit::detail {

/// Names of the calls the builder leaves for the JIT to specialize.
inline constexpr const char* marker_ndrange = "__spvjit.ndrange";        // i64 (i32 dim)
inline constexpr const char* marker_group_size = "__spvjit.group_size";  // i64 (i32 dim)
inline constexpr const char* marker_in_ndrange = "__spvjit.in_ndrange";  // i1 ()
inline constexpr const char* hidden_ndrange_name = "__spvjit_ndrange";   // + dim
/// Bounds checks (ir/bounds.hpp). The extent of user parameter i, and the record address, are
/// markers until specialized into hidden arguments.
inline constexpr const char* marker_extent = "__spvjit.extent";         // i64 (i32 param)
inline constexpr const char* marker_record = "__spvjit.bounds.record";  // i64 () (an address)
/// `.N`, N = 1 to 4: i1 (i64 index, i64 extent) x N, true when every index is below its extent.
inline constexpr const char* marker_check = "__spvjit.bounds.check.";
/// `.N`: void (i64 record address, i32 site, i64 global id 0, (i64 index, i64 extent) x N).
inline constexpr const char* marker_report = "__spvjit.bounds.report.";
inline constexpr const char* hidden_extent_name = "__spvjit_extent_";  // + parameter name
inline constexpr const char* hidden_record_name = "__spvjit_bounds";
inline constexpr const char* hidden_fast_end_name = "__spvjit_fast_end";
/// Shapes (common/shape_args.hpp): extent `dim` of user parameter `param` (dim -1: the elements
/// passed), a marker until finish() turns it into a hidden argument or a bounds extent.
inline constexpr const char* marker_shape = "__spvjit.shape";        // i64 (i32 param, i32 dim)
inline constexpr const char* hidden_shape_name = "__spvjit_shape_";  // + parameter name, dim
/// The builder's float atomic add: SPV_EXT_shader_atomic_float_add's OpAtomicFAddEXT in the
/// translator's SPIR-V-friendly spelling, (ptr, scope, semantics, value) -> old value. The JIT
/// keeps it where the device adds floats atomically and lowers it to a compare-exchange loop
/// elsewhere (jit/device/float_atomics.cpp).
inline constexpr const char* atomic_fadd_prefix = "_Z21__spirv_AtomicFAddEXT";

/// A raw module (jit/raw_module.cpp) as a whole: every kernel taken from it shares this,
/// and the Jit translates and builds it once into one program for all of them (jit/compiler.cpp).
struct RawModuleSource {
  std::string bitcode;
  std::string ir_text;
  std::uint64_t hash = 0;  ///< xxHash64 of ir_text
  /// The entry points its program holds, each validated as a kernel: every spir_kernel
  /// function, in module order, plus the function kernel_from_bitcode was asked for if it is
  /// not one (so that the translation refuses it by name).
  std::vector<std::string> kernels;
};

/// A kernel's definition: its interface and its module.
class KernelModule : public KernelInterface {
 public:
  /// The author declared the kernel element-wise (KernelBuilder::elementwise()): on a device
  /// that coarsens, a kernel the analysis cannot coarsen is a UserError, not a slow kernel.
  bool declared_elementwise = false;
  /// What each work-item keeps on the stack of the thread that runs its work-group on PoCL's
  /// CPU devices: private arrays and values live across barriers (ir/analysis/group_stack.hpp).
  std::uint64_t stack_bytes_per_item = 0;
  /// Builder kernels: the module alone. Raw kernels leave both empty and share `raw`; read
  /// them through module_bitcode() and module_ir().
  std::string bitcode;
  std::string ir_text;
  std::uint64_t hash = 0;
  std::shared_ptr<const RawModuleSource> raw;

  const std::string& module_bitcode() const { return raw ? raw->bitcode : bitcode; }
  const std::string& module_ir() const { return raw ? raw->ir_text : ir_text; }
};

}  // namespace spvjit::detail
