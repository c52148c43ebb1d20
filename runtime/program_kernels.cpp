// Program: the compiled kernels of one module, looked up by name.
#include "spvjit/program.hpp"

#include "common/error_report.hpp"
#include "spvjit/error.hpp"

namespace spvjit {

Program::Program(std::vector<Kernel> kernels) : kernels_(std::move(kernels)) {}

Kernel Program::kernel(std::string_view name) const {
  for (const auto& k : kernels_) {
    if (k.name() == name) return k;
  }
  std::string names;
  for (const auto& k : kernels_) names += (names.empty() ? "'" : ", '") + k.name() + "'";
  user_error({"Program::kernel"}) << "the program has no kernel '" << name << "'; its kernels: "
                                  << (names.empty() ? std::string("none (an empty Program)")
                                                    : names);
  return Kernel();
}

std::vector<std::string> Program::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& k : kernels_) names.push_back(k.name());
  return names;
}

}  // namespace spvjit
