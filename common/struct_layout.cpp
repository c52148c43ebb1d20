// Struct layouts: the checks every described or raw-module struct passes, and their spellings.
#include "spvjit/struct_layout.hpp"

#include "spvjit/error.hpp"

namespace spvjit {

namespace {
void spell_out(const StructLayout& layout, std::uint32_t base, std::vector<StructLeaf>& out) {
  for (const StructField& f : layout.fields()) {
    if (f.nested) {
      spell_out(*f.nested, base + f.offset, out);
    } else {
      for (std::uint32_t k = 0; k < f.count; ++k) {
        out.push_back({base + f.offset + k * size_of(f.type), f.type});
      }
    }
  }
}

std::uint32_t field_bytes(const StructField& f) {
  return f.nested ? f.nested->size() : f.count * size_of(f.type);
}
}  // namespace

StructLayout::StructLayout(std::string name, std::uint32_t size, std::uint32_t align,
                           std::vector<StructField> fields, bool by_shape)
    : name_(std::move(name)), size_(size), align_(align), fields_(std::move(fields)),
      by_shape_(by_shape) {
  const std::string what = "struct " + name_;
  if (fields_.empty()) throw UserError(what + ": no members; expected at least one");
  std::uint32_t end = 0;
  for (const StructField& f : fields_) {
    if (f.offset < end) {
      throw UserError(what + ": member '" + f.name + "' at byte " + std::to_string(f.offset) +
                      " overlaps the member before it or is out of declaration order; list "
                      "the members in the order they are declared");
    }
    if (!f.nested && f.count == 0) throw UserError(what + ": member '" + f.name + "' is an empty array");
    end = f.offset + field_bytes(f);
    if (end > size_) {
      throw UserError(what + ": member '" + f.name + "' ends at byte " + std::to_string(end) +
                      ", past the struct's " + std::to_string(size_) + " bytes");
    }
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
    } else {
      out += std::string(spvjit::name(f.type));
      if (f.array) out += "[" + std::to_string(f.count) + "]";
    }
  }
  return out + "}";
}

std::string StructLayout::describe() const {
  return describe_fields() + " (" + std::to_string(size_) + " bytes)";
}

std::string StructLayout::signature() const {
  std::string out;
  for (const StructLeaf& l : leaves_) {
    out += std::string(spvjit::name(l.type)) + "@" + std::to_string(l.offset) + ",";
  }
  return out + "/" + std::to_string(size_);
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
    if (a.offset != b.offset || size_of(a.type) != size_of(b.type) ||
        is_float(a.type) != is_float(b.type)) {
      return false;
    }
  }
  return true;
}

}  // namespace spvjit
