// KernelDef accessors over the immutable KernelModule.
#include "spvjit/kernel_def.hpp"

#include "ir/kernel_module.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

KernelDef::KernelDef(std::shared_ptr<const detail::KernelModule> module)
    : module_(std::move(module)) {}

const detail::KernelModule& KernelDef::module() const {
  if (!module_) throw UserError("KernelDef is empty: build one with KernelBuilder::finish()");
  return *module_;
}

const std::string& KernelDef::name() const { return module().name; }
std::span<const Param> KernelDef::params() const { return module().params; }
std::uint64_t KernelDef::hash() const { return module().hash; }
bool KernelDef::has_hidden_ndrange() const { return module().hidden_ndrange; }
bool KernelDef::pads_safely() const { return module().pads_safely; }
std::string KernelDef::to_string() const { return module().module_ir(); }

}  // namespace spvjit
