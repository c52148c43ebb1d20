// ModuleDef: a raw module's KernelDefs, looked up by name.
#include "spvjit/module_def.hpp"

#include "common/error_report.hpp"
#include "ir/kernel_module.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

ModuleDef::ModuleDef(std::vector<KernelDef> kernels) : kernels_(std::move(kernels)) {
  for (const auto& k : kernels_) {
    const auto& first = kernels_[0];
    const bool one_module =
        k.valid() && first.valid() && detail::kernel_module(k).raw &&
        (detail::kernel_module(k).raw == detail::kernel_module(first).raw ||
         detail::kernel_module(k).raw->ir_text == detail::kernel_module(first).module_ir());
    user_assert(one_module, {"ModuleDef"})
        << "every KernelDef must be a kernel of one raw module (module_from_bitcode makes them)";
  }
}

namespace {
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out.empty() ? "none" : out;
}
}  // namespace

const KernelDef& ModuleDef::kernel(std::string_view name) const {
  for (const auto& k : kernels_) {
    if (k.name() == name) return k;
  }
  user_error({"ModuleDef::kernel"})
      << "the module has no kernel '" << name << "'; its kernels: " << listed(kernel_names());
  return kernels_.front();
}

std::vector<std::string> ModuleDef::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& k : kernels_) names.push_back(k.name());
  return names;
}

std::uint64_t ModuleDef::hash() const {
  user_assert(!kernels_.empty(), {"ModuleDef::hash"})
      << "the ModuleDef is empty; make one with module_from_bitcode";
  return kernels_[0].hash();
}

}  // namespace spvjit
