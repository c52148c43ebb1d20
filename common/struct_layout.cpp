// Struct layouts: the checks every described or raw-module struct passes, and their spellings.
#include "spvjit/struct_layout.hpp"

#include "common/error_report.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

namespace {
void spell_out(const StructLayout& layout, std::uint32_t base, std::vector<StructLeaf>& out) {
  for (const StructField& f : layout.fields()) {
    if (f.nested) {
      for (std::uint32_t k = 0; k < f.count; ++k)
        spell_out(*f.nested, base + f.offset + k * f.nested->size(), out);
    } else if (f.pointer) {
      out.push_back({base + f.offset, f.points_to_struct() ? Scalar::U8 : f.type, true});
    } else {
      for (std::uint32_t k = 0; k < f.count; ++k) {
        out.push_back({base + f.offset + k * size_of(f.type), f.type});
      }
    }
  }
}

std::uint32_t field_bytes(const StructField& f) {
  if (f.pointer) return pointer_member_bytes;
  return f.count * (f.nested ? f.nested->size() : size_of(f.type));
}

// "global const f32*", "global struct Node*". A pointee struct is named, not spelled out: it may
// be this very struct.
std::string describe_pointer(const StructField& f) {
  std::string out = std::string("global ") + (f.pointee_const ? "const " : "");
  if (f.pointee) return out + "struct " + f.pointee()->name() + "*";
  if (!f.pointee_name.empty()) return out + "struct " + f.pointee_name + "*";
  return out + std::string(spvjit::name(f.type)) + "*";
}
}  // namespace

StructLayout::StructLayout(std::string name, std::uint32_t size, std::uint32_t align,
                           std::vector<StructField> fields, bool by_shape)
    : name_(std::move(name)),
      size_(size),
      align_(align),
      fields_(std::move(fields)),
      by_shape_(by_shape) {
  const std::string operation = "layout of struct " + name_;
  const detail::Where where{operation};
  user_assert(!fields_.empty(), (where)) << "no members; expected at least one";
  std::uint32_t end = 0;
  for (const StructField& f : fields_) {
    user_assert(f.offset >= end, (where))
        << "member '" << f.name << "' at byte " << f.offset
        << " overlaps the member before it or is out of declaration order; list the members in "
           "the order they are declared";
    user_assert(!f.pointer || (!f.nested && !f.array), (where))
        << "member '" << f.name << "' is a pointer and an array or a struct at once";
    user_assert(f.count != 0, (where)) << "member '" << f.name << "' is an empty array";
    user_assert(f.array || f.count == 1, (where))
        << "member '" << f.name << "' has " << f.count << " elements but is not an array";
    end = f.offset + field_bytes(f);
    user_assert(end <= size_, (where)) << "member '" << f.name << "' ends at byte " << end
                                       << ", past the struct's " << size_ << " bytes";
  }
  spell_out(*this, 0, leaves_);
}

std::string StructLayout::describe_fields() const {
  std::string out = "struct " + name_ + "{";
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const StructField& f = fields_[i];
    if (i) out += ",";
    if (f.nested) {
      out += f.nested->describe_fields();
    } else if (f.pointer) {
      out += describe_pointer(f);
    } else {
      out += std::string(spvjit::name(f.type));
    }
    if (f.array) out += "[" + std::to_string(f.count) + "]";
  }
  return out + "}";
}

std::string StructLayout::describe() const {
  return describe_fields() + " (" + std::to_string(size_) + " bytes)";
}

void StructLayout::sign_fields(std::uint32_t base, std::string& out) const {
  for (const StructField& f : fields_) {
    const std::uint32_t at = base + f.offset;
    if (f.nested) {
      for (std::uint32_t k = 0; k < f.count; ++k)
        f.nested->sign_fields(at + k * f.nested->size(), out);
    } else if (f.pointer) {
      out += describe_pointer(f) + "@" + std::to_string(at) + ",";
    } else {
      for (std::uint32_t k = 0; k < f.count; ++k) {
        out += std::string(spvjit::name(f.type)) + "@" + std::to_string(at + k * size_of(f.type)) +
               ",";
      }
    }
  }
}

std::string StructLayout::signature() const {
  std::string out;
  sign_fields(0, out);
  return out + "/" + std::to_string(size_);
}

std::string StructLayout::first_pointer_member() const {
  for (const StructField& f : fields_) {
    if (f.pointer) return name_ + "::" + f.name;
    if (f.nested) {
      if (std::string inner = f.nested->first_pointer_member(); !inner.empty()) {
        return name_ + "::" + f.name + (f.array ? "[0]." : ".") +
               inner.substr(inner.find("::") + 2);
      }
    }
  }
  return {};
}

bool StructLayout::same_shape(const StructLayout& other) const noexcept {
  return size_ == other.size_ && leaves_ == other.leaves_;
}

bool StructLayout::accepts_other(const StructLayout& given) const noexcept {
  if (!by_shape_) return name_ == given.name_ && same_shape(given);
  if (size_ != given.size_ || leaves_.size() != given.leaves_.size()) return false;
  for (std::size_t i = 0; i < leaves_.size(); ++i) {
    const StructLeaf& a = leaves_[i];
    const StructLeaf& b = given.leaves_[i];
    // A raw module's pointer member takes any pointer: its pointee is the module's business.
    if (a.pointer || b.pointer) {
      if (a.pointer != b.pointer || a.offset != b.offset) return false;
      continue;
    }
    if (a.offset != b.offset || size_of(a.type) != size_of(b.type) ||
        is_float(a.type) != is_float(b.type)) {
      return false;
    }
  }
  return true;
}

}  // namespace spvjit
