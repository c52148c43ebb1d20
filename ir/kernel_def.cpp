// KernelDef accessors over the immutable KernelModule.
#include "spvjit/kernel_def.hpp"

#include "common/error_report.hpp"
#include "ir/kernel_module.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

KernelDef::KernelDef(std::shared_ptr<const detail::KernelModule> module)
    : module_(std::move(module)) {}

namespace detail {

const KernelModule& kernel_module(const KernelDef& def) {
  user_assert(def.module_, {"KernelDef"})
      << "the KernelDef is empty; build one with KernelBuilder::finish()";
  return *def.module_;
}

KernelDef make_kernel_def(std::shared_ptr<const KernelModule> module) {
  return KernelDef(std::move(module));
}

}  // namespace detail

const std::string& KernelDef::name() const { return detail::kernel_module(*this).name; }
std::span<const Param> KernelDef::params() const { return detail::kernel_module(*this).params; }
std::uint64_t KernelDef::hash() const { return detail::kernel_module(*this).hash; }
bool KernelDef::has_hidden_ndrange() const { return detail::kernel_module(*this).hidden_ndrange(); }
bool KernelDef::pads_safely() const { return detail::kernel_module(*this).pads_safely; }
std::string KernelDef::to_string() const { return detail::kernel_module(*this).module_ir(); }

}  // namespace spvjit
