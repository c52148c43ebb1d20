// Structs in the kernel: the LLVM type of a described struct, laid out byte for byte as the
// C++ compiler laid it out, and member paths into it.
#include <llvm/IR/DataLayout.h>

#include <algorithm>
#include <cstdlib>

#include "common/error_report.hpp"
#include "ir/bounds.hpp"
#include "ir/emit.hpp"
#include "ir/state.hpp"
#include "ir/handles.hpp"
#include "spvjit/structs.hpp"

namespace spvjit {

namespace detail {

namespace {
// Where a struct's layout is refused: "layout of struct S of kernel 'k'".
std::string layout_operation(const StructLayout& layout) {
  return "layout of struct " + layout.name();
}

[[noreturn]] void layout_mismatch(const BuilderState& s, const StructLayout& layout,
                                  const std::string& member, std::uint64_t host,
                                  std::uint64_t kernel) {
  user_error({layout_operation(layout), s.name})
      << member << " is at byte " << host << " in C++ but would be at byte " << kernel
      << " in the kernel (SPIR alignment: each scalar aligned to its size); the kernel cannot "
         "match a packed or over-aligned C++ layout";
  std::abort();  // not reached: the report throws at the end of its statement
}
}  // namespace

llvm::StructType* BuilderState::named_struct(const StructLayout& layout) {
  auto [it, made] = named_structs.emplace(&layout, nullptr);
  if (made) it->second = llvm::StructType::create(ctx(), "struct." + layout.name());
  return it->second;
}

const StructTypeInfo& BuilderState::struct_type(const StructLayout& layout) {
  if (auto it = struct_types.find(&layout); it != struct_types.end()) return it->second;
  const llvm::DataLayout& dl = module->getDataLayout();
  StructTypeInfo info;
  std::vector<llvm::Type*> elements;
  std::uint64_t end = 0;
  // Padding is explicit ([n x i8]) wherever C++ put some, so the SPIR layout rules only have to
  // agree on where each member starts; the DataLayout check below proves they do.
  auto pad_to = [&](std::uint64_t offset) {
    if (offset > end) elements.push_back(llvm::ArrayType::get(ir.getInt8Ty(), offset - end));
    end = offset;
  };
  for (const StructField& f : layout.fields()) {
    user_assert(!f.pointer || f.pointee || !f.points_to_struct(), {layout_operation(layout), name})
        << "member '" << f.name << "' points to struct " << f.pointee_name
        << ", whose layout is unknown (a raw module's struct)";
    llvm::Type* t =
        f.pointer ? llvm::PointerType::get(
                        f.pointee ? static_cast<llvm::Type*>(named_struct(*f.pointee()))
                                  : memory_type(f.type),
                        static_cast<unsigned>(AddressSpace::Global))
        : f.nested ? f.array ? static_cast<llvm::Type*>(
                                   llvm::ArrayType::get(struct_type(*f.nested).type, f.count))
                             : struct_type(*f.nested).type
        : f.array  ? static_cast<llvm::Type*>(llvm::ArrayType::get(memory_type(f.type), f.count))
                   : memory_type(f.type);
    pad_to(f.offset);
    info.element.push_back(static_cast<unsigned>(elements.size()));
    elements.push_back(t);
    end += dl.getTypeAllocSize(t);
  }
  pad_to(layout.size());
  info.type = named_struct(layout);
  if (info.type->isOpaque()) info.type->setBody(elements);
  const llvm::StructLayout* sl = dl.getStructLayout(info.type);
  for (std::size_t k = 0; k < layout.fields().size(); ++k) {
    const StructField& f = layout.fields()[k];
    const std::uint64_t at = sl->getElementOffset(info.element[k]);
    if (at != f.offset) layout_mismatch(*this, layout, "member '" + f.name + "'", f.offset, at);
  }
  user_assert(sl->getSizeInBytes() == layout.size(), {layout_operation(layout), name})
      << layout.size() << " bytes in C++ but " << sl->getSizeInBytes()
      << " in the kernel (SPIR alignment: each scalar aligned to its size); the kernel cannot "
         "match a packed or over-aligned C++ layout";
  const StructTypeInfo& done = struct_types.emplace(&layout, std::move(info)).first->second;
  // Lay out what the pointers point to as well, now that this struct is known (a pointer to its
  // own type stops here): no opaque struct is left in the module.
  for (const StructField& f : layout.fields()) {
    if (f.pointee) struct_type(*f.pointee());
  }
  return done;
}

namespace {
bool same_member(const StructField& f, const StructField& want) {
  if (f.pointer || want.pointer) {
    return f.pointer && want.pointer && f.pointee_const == want.pointee_const &&
           (f.pointee || want.pointee ? f.pointee && want.pointee && f.pointee() == want.pointee()
                                      : f.type == want.type);
  }
  if (f.nested || want.nested)
    return f.nested && want.nested && f.nested->same_shape(*want.nested) &&
           f.nested->name() == want.nested->name() && f.array == want.array &&
           f.count == want.count;
  return f.type == want.type && f.array == want.array && f.count == want.count;
}

std::string describe_member(const StructField& f) {
  if (f.pointer) {
    return std::string("global ") + (f.pointee_const ? "const " : "") +
           (f.pointee ? "struct " + f.pointee()->name() : std::string(name(f.type))) + "*";
  }
  const std::string element = f.nested ? "struct " + f.nested->name() : std::string(name(f.type));
  return element + (f.array ? "[" + std::to_string(f.count) + "]" : "");
}

void push(Where where, FieldPath& path, std::uint32_t index) {
  user_assert(path.depth < FieldPath::max_depth, (where))
      << "structs nested more than " << FieldPath::max_depth << " deep";
  path.index[path.depth++] = index;
}

// Every scalar of `layout` reached from `prefix`.
void leaf_paths(BuilderState& s, const StructLayout& layout, const FieldPath& prefix,
                std::vector<FieldPath>& out) {
  const StructTypeInfo& info = s.struct_type(layout);
  for (std::size_t k = 0; k < layout.fields().size(); ++k) {
    const StructField& f = layout.fields()[k];
    FieldPath path = prefix;
    push({"struct copy", s.name}, path, info.element[k]);
    if (f.nested && f.array) {
      for (std::uint32_t e = 0; e < f.count; ++e) {
        FieldPath element = path;
        push({"struct copy", s.name}, element, e);
        leaf_paths(s, *f.nested, element, out);
      }
    } else if (f.nested) {
      leaf_paths(s, *f.nested, path, out);
    } else if (f.pointer) {
      path.pointer = true;
      out.push_back(path);
    } else if (f.array) {
      for (std::uint32_t e = 0; e < f.count; ++e) {
        FieldPath element = path;
        push({"struct copy", s.name}, element, e);
        element.type = f.type;
        out.push_back(element);
      }
    } else {
      path.type = f.type;
      out.push_back(path);
    }
  }
}

// The pointer member at `path` of element `i` of `p`, loaded.
llvm::Value* load_pointer(BuilderState& s, const Pointer& p, llvm::Value* i,
                          const FieldPath& path) {
  auto* addr = element_address(s, p, i, &path);
  auto* type = llvm::cast<llvm::PointerType>(addr->getType())->getNonOpaquePointerElementType();
  return s.ir.CreateAlignedLoad(type, addr, llvm::Align(pointer_member_bytes));
}

// A whole-struct copy's pointer member: the address itself is copied.
void copy_pointer(BuilderState& s, const Pointer& dst, Value dst_index, const FieldPath& to,
                  const Pointer& src, Value src_index, const FieldPath& from) {
  llvm::Value* si = index64(s, src_index, "struct copy");
  llvm::Value* value = guarded_access(
      s, src, si, nullptr, 1, [&]() -> llvm::Value* { return load_pointer(s, src, si, from); });
  llvm::Value* di = index64(s, dst_index, "struct copy");
  guarded_access(s, dst, di, nullptr, 1, [&]() -> llvm::Value* {
    s.ir.CreateAlignedStore(value, element_address(s, dst, di, &to),
                            llvm::Align(pointer_member_bytes));
    return nullptr;
  });
}
}  // namespace

FieldPath member_path(const Pointer& p, const FieldPath& prefix, const StructLayout& within,
                      std::size_t offset, const StructField& expected) {
  user_assert(detail::llvm_of(p), {"struct member"}) << "the struct is empty (default-constructed)";
  auto& s = *detail::state_of(p);
  s.check_open("struct member");
  const StructTypeInfo& info = s.struct_type(within);
  for (std::size_t k = 0; k < within.fields().size(); ++k) {
    const StructField& f = within.fields()[k];
    if (f.offset != offset || !same_member(f, expected)) continue;
    FieldPath path = prefix;
    push({"struct member", s.name}, path, info.element[k]);
    path.type = f.type;
    path.pointer = f.pointer;
    return path;
  }
  user_error({"struct member", s.name})
      << "no member of type " << describe_member(expected) << " at byte " << offset << " of struct "
      << within.name() << " was described; list every member in SPVJIT_STRUCT(" << within.name()
      << ", ...)";
  return prefix;
}

FieldPath array_element(const Pointer& p, const FieldPath& path, std::size_t k, std::size_t count) {
  const Where where{"struct member array", kernel_name(state_of(p))};
  user_assert(k < count, (where)) << "index " << k << " is out of bounds: the array holds " << count
                                  << " elements";
  FieldPath out = path;
  push(where, out, static_cast<std::uint32_t>(k));
  return out;
}

void copy_struct(const Pointer& dst, Value dst_index, const FieldPath& dst_path, const Pointer& src,
                 Value src_index, const FieldPath& src_path, const StructLayout& layout) {
  user_assert(detail::llvm_of(dst) && detail::llvm_of(src), {"struct copy"})
      << "a struct is empty (default-constructed)";
  user_assert(detail::state_of(dst) == detail::state_of(src), {"struct copy"})
      << "the structs belong to different kernels";
  auto& s = *detail::state_of(dst);
  s.check_open("struct copy");
  user_assert(!dst.read_only(), {"struct copy", s.name})
      << "the destination struct " << layout.name() << " is read-only";
  std::vector<FieldPath> to, from;
  leaf_paths(s, layout, dst_path, to);
  leaf_paths(s, layout, src_path, from);
  for (std::size_t k = 0; k < to.size(); ++k) {
    if (to[k].pointer) {
      copy_pointer(s, dst, dst_index, to[k], src, src_index, from[k]);
    } else {
      store_element(dst, dst_index, load_element(src, src_index, nullptr, &from[k]), nullptr,
                    &to[k]);
    }
  }
}

Pointer pointer_member(const Pointer& p, Value index, const FieldPath& path, Scalar element,
                       bool read_only, const StructLayout* pointee) {
  auto& s = *detail::state_of(p);
  s.check_open("struct pointer member");
  s.check_in_current_function(detail::llvm_of(p), "struct pointer member");
  if (pointee) s.struct_type(*pointee);  // laid out before any member of it is reached
  llvm::Value* i = index64(s, index, "struct pointer member");
  llvm::Value* loaded = guarded_access(
      s, p, i, nullptr, 1, [&]() -> llvm::Value* { return load_pointer(s, p, i, path); });
  // The launch cannot know how far the pointer reaches: its accesses go unchecked.
  return detail::make_pointer(&s, loaded, pointee ? Scalar::U8 : element, AddressSpace::Global,
                              read_only, nullptr, -1, pointee);
}

namespace {
// A private struct's slot: the C++ type's alignment, or the LLVM type's where that is more.
llvm::Align struct_alignment(const BuilderState& s, const StructLayout& layout,
                             const StructTypeInfo& info) {
  return llvm::Align(std::max<std::uint64_t>(
      layout.align(), s.module->getDataLayout().getABITypeAlign(info.type).value()));
}
}  // namespace

Pointer private_struct(BuilderState* state, const StructLayout& layout) {
  user_assert(state, {"struct variable"}) << "no builder";
  auto& s = *state;
  s.check_open("struct variable");
  const StructTypeInfo& info = s.struct_type(layout);
  auto* slot = s.entry_alloca(info.type, "struct." + layout.name());
  slot->setAlignment(struct_alignment(s, layout, info));
  return detail::make_pointer(&s, slot, Scalar::U8, AddressSpace::Private, false, nullptr, -1,
                              &layout);
}

Pointer private_struct_array(BuilderState* state, const StructLayout& layout, std::uint64_t count) {
  user_assert(state, {"private_array"}) << "no builder";
  auto& s = *state;
  s.check_open("private_array");
  const StructTypeInfo& info = s.struct_type(layout);
  auto* type = llvm::ArrayType::get(info.type, count);
  auto* slot = s.entry_alloca(type, "private." + layout.name());
  slot->setAlignment(struct_alignment(s, layout, info));
  llvm::IRBuilder<> entry(s.alloca_block);
  auto* first = entry.CreateConstInBoundsGEP2_64(type, slot, 0, 0, "private.first");
  // Checked like a private array of scalars: each element index against the count.
  const int array = s.add_array("private array of " + layout.name(), "private");
  return detail::make_pointer(&s, first, Scalar::U8, AddressSpace::Private, false,
                              s.ir.getInt64(count), array, &layout);
}

Pointer private_slot(BuilderState* state, Scalar type) {
  user_assert(state, {"variable"}) << "no builder";
  state->check_open("variable");
  auto* slot = state->entry_alloca(state->memory_type(type), "result");
  return detail::make_pointer(state, slot, type, AddressSpace::Private, false);
}

}  // namespace detail
}  // namespace spvjit
