// Translation to SPIR-V, in this process. SPIRV-LLVM-Translator 15 as Debian builds it answers
// some unsupported input with std::exit (SPIRVErrorLog::checkError under SPIRVDbgError = Exit,
// a switch the shared library does not export), so everything it would reject is refused first
// by validate_for_spirv with a TranslationError. There is no fork: a copy of the host costs time
// in proportion to its memory (1.2 s at 16 GiB), runs LLVM in a copy of a multithreaded process
// and fails under a pids limit.
#include "jit/translate.hpp"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/Module.h>

#include <cstring>
#include <mutex>
#include <sstream>

#include "jit/validate.hpp"
#include "spvjit/error.hpp"

namespace spvjit::detail {

namespace {

SPIRV::TranslatorOpts translator_options() {
  // PoCL 6.0 on LLVM 15 reports "IL version SPIR-V_1.2". Float atomic add (OpAtomicFAddEXT)
  // needs its extension allowed; only modules that use it declare it, and the JIT lowers it
  // away for devices without cl_ext_float_atomics.
  return SPIRV::TranslatorOpts(SPIRV::VersionNumber::SPIRV_1_2,
                               {{SPIRV::ExtensionID::SPV_EXT_shader_atomic_float_add, true}});
}

// The translator keeps process-wide state (its error-handling mode, lazily built tables) that
// it does not document as thread-safe; a translation takes milliseconds, so one at a time.
std::mutex& translator_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

std::vector<std::uint32_t> translate_to_spirv(llvm::Module& module, const std::string& kernel) {
  validate_for_spirv(module, kernel);
  std::ostringstream os;
  std::string error;
  bool ok = false;
  {
    std::lock_guard<std::mutex> lock(translator_mutex());
    ok = llvm::writeSpirv(&module, translator_options(), os, error);
  }
  if (!ok) throw TranslationError(kernel, "SPIRV-LLVM-Translator: " + error, module_text(module));
  const std::string bytes = os.str();
  if (bytes.size() % 4 != 0 || bytes.size() < 20) {
    throw TranslationError(kernel, "translator produced " + std::to_string(bytes.size()) +
                                       " bytes, not a SPIR-V module", module_text(module));
  }
  std::vector<std::uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

}  // namespace spvjit::detail
