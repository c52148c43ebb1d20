// SPIR-V disassembly through SPIRV-Tools' C API, the library behind spirv-dis.
#include <spirv-tools/libspirv.h>

#include <memory>
#include <ostream>

#include "common/error_report.hpp"
#include "spvjit/debug.hpp"

namespace spvjit {

namespace {
struct ContextDeleter {
  void operator()(spv_context c) const { spvContextDestroy(c); }
};
struct TextDeleter {
  void operator()(spv_text t) const { spvTextDestroy(t); }
};
struct DiagnosticDeleter {
  void operator()(spv_diagnostic d) const { spvDiagnosticDestroy(d); }
};
}  // namespace

std::string disassemble_spirv(std::span<const std::uint32_t> words) {
  // SPIR-V 1.2 is what the translator emits for OpenCL 1.2 devices.
  std::unique_ptr<spv_context_t, ContextDeleter> context(spvContextCreate(SPV_ENV_UNIVERSAL_1_2));
  spv_text text = nullptr;
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t rc =
      spvBinaryToText(context.get(), words.data(), words.size(),
                      SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT,
                      &text, &diagnostic);
  std::unique_ptr<spv_text_t, TextDeleter> text_owner(text);
  std::unique_ptr<spv_diagnostic_t, DiagnosticDeleter> diagnostic_owner(diagnostic);
  if (rc != SPV_SUCCESS || !text) {
    const std::string why = diagnostic && diagnostic->error ? diagnostic->error : "unknown error";
    user_error({"disassemble_spirv"}) << words.size() << " words are not a SPIR-V module: " << why;
  }
  return std::string(text->str, text->length);
}

std::string spirv_text(Jit& jit, const KernelDef& def, const Specialization& spec) {
  const auto words = jit.spirv(def, spec);
  return disassemble_spirv(words);
}

void dump(const KernelDef& def, std::ostream& out, Jit* jit, const Specialization& spec) {
  out << "; kernel " << def.name() << ": LLVM IR\n" << def.to_string();
  if (jit) out << "; kernel " << def.name() << ": SPIR-V\n" << spirv_text(*jit, def, spec);
}

}  // namespace spvjit
