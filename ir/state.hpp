// BuilderState: what a KernelBuilder holds while a kernel is open. Private to ir/.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "common/bounds.hpp"
#include "common/error_report.hpp"
#include "spvjit/error.hpp"
#include "spvjit/fast_math.hpp"
#include "spvjit/signature.hpp"
#include "spvjit/ndrange.hpp"
#include "spvjit/value.hpp"

namespace spvjit::detail {

/// A UserError at `where` unless `name` is [A-Za-z_][A-Za-z0-9_]* and does not start with
/// __spvjit; `what` names it ("parameter name").
void check_identifier(Where where, std::string_view name, const char* what);
/// The longest kernel name the device runtime takes (check_kernel_name says why).
inline constexpr std::size_t max_kernel_name_length = 1000;
/// check_identifier, and not a name the OpenCL runtime keeps for itself, nor too long for it.
void check_kernel_name(Where where, std::string_view name, const char* what);

/// A described struct as the kernel lays it out: its LLVM type (members and explicit padding)
/// and, per StructLayout field, the LLVM element it is.
struct StructTypeInfo {
  llvm::StructType* type = nullptr;
  std::vector<unsigned> element;
};

struct LoopFrame {
  llvm::BasicBlock* latch;
  llvm::BasicBlock* exit;
};

class SPVJIT_INTERNAL BuilderState {
 public:
  explicit BuilderState(std::string kernel_name);

  llvm::LLVMContext& ctx() { return *context; }
  /// The LLVM type kernels use for a scalar: bool is i1 in registers, i8 in memory.
  llvm::Type* register_type(Scalar s);
  llvm::Type* memory_type(Scalar s);
  /// Declares (once) an OpenCL builtin by its mangled name, with spir_func convention.
  llvm::Function* builtin(const std::string& mangled, llvm::Type* ret,
                          llvm::ArrayRef<llvm::Type*> args, bool pure = true);
  llvm::CallInst* call_builtin(const std::string& mangled, llvm::Type* ret,
                               llvm::ArrayRef<llvm::Value*> args, bool pure = true);
  /// The LLVM type of a struct, made once per layout; throws UserError when the SPIR layout
  /// cannot match the C++ one (ir/structs.cpp).
  const StructTypeInfo& struct_type(const StructLayout& layout);
  /// Adds a parameter by rebuilding the kernel function with one more argument: parameters may
  /// be declared after body code was built.
  llvm::Argument* add_argument(llvm::Type* type, const std::string& name);
  /// A private slot at the top of the entry block.
  llvm::AllocaInst* entry_alloca(llvm::Type* type, const std::string& name);
  void check_open(const char* what) const;
  /// Moves the insertion point into a fresh block after a terminator (break, return).
  void continue_in_new_block(const char* name);
  void check_same_builder(const Value& v, const char* what) const;
  /// The same for any operand: `owner` and `raw` of a Value or a VecValue, `empty` naming what
  /// an empty one is ("an empty Value").
  void check_same_builder(const BuilderState* owner, llvm::Value* raw, const char* what,
                          const char* empty) const;
  /// Throws when `v` was computed in another function than the one being built (a kernel value
  /// captured by a device function's body): LLVM would only notice when verifying.
  void check_in_current_function(llvm::Value* v, const char* what) const;
  /// Throws UserError naming `what` when a device function is being built (kernel-only verbs).
  void check_kernel_scope(const char* what) const;

  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  llvm::Function* kernel = nullptr;
  llvm::BasicBlock* alloca_block = nullptr;
  llvm::IRBuilder<> ir;
  std::string name;
  std::vector<Param> params;
  std::vector<LoopFrame> loops;
  /// The device function being built, empty while building the kernel itself; `kernel`,
  /// `alloca_block`, `loops` and the insertion point then belong to that function.
  std::string function_name;
  /// Bytes of statically sized local arrays (@localmem), checked against the device at compile.
  std::uint64_t static_local_bytes = 0;
  /// Bounds checks: what each checkable array is called in messages (Pointer::array indexes
  /// it), each checked access (its index is the site number the report passes), and the
  /// current function's record address (the kernel's is a marker until specialized).
  struct ArrayName {
    std::string described;  ///< "Z", "local array tile"
    std::string name;       ///< "Z", "tile"
  };
  std::vector<ArrayName> arrays;
  std::vector<BoundsSite> bounds_sites;
  llvm::Value* bounds_record = nullptr;
  /// KernelBuilder::inbounds(): finish() removes every check.
  bool inbounds = false;
  /// Registers an array for messages; returns its number for Pointer::array.
  int add_array(std::string described, std::string short_name);
  std::map<const StructLayout*, StructTypeInfo> struct_types;
  /// Each struct's named LLVM type, opaque until struct_type() gives it its members: a pointer
  /// member names its pointee's type without laying it out (a struct may point to its own type).
  std::map<const StructLayout*, llvm::StructType*> named_structs;
  llvm::StructType* named_struct(const StructLayout& layout);
  /// The device function being built hands its results back through pointer arguments (a
  /// struct or a tuple): return_() would skip storing them.
  bool function_returns_through_pointers = false;
  bool uses_ndrange = false;
  bool allow_padding = false;
  bool declared_elementwise = false;
  std::size_t work_per_item = 1;                ///< KernelBuilder::work_per_item
  std::optional<WorkGroup> declared_workgroup;  ///< KernelBuilder::workgroup
  /// KernelBuilder::fastmath(flags): finish() puts these on every floating-point operation.
  FastMath kernel_fast_math = FastMath::none;
  /// The IRBuilder's fast-math flags before each open fastmath block, innermost last.
  std::vector<llvm::FastMathFlags> fast_math_blocks;
  bool finished = false;
};

/// The kernel a builder error names ("store of kernel 'k': ..."): none without a builder, as
/// for an empty operand ("store: ...").
inline std::string_view kernel_name(const BuilderState* s) noexcept {
  return s ? std::string_view(s->name) : std::string_view();
}

/// The Itanium mangling letter OpenCL C's builtins take for scalar `t` ('i' int, 'j' unsigned
/// int, 'f' float, ...); 0 for those with none (f16, bool). Defined in ir/math.cpp.
char itanium_code(Scalar t);

}  // namespace spvjit::detail
