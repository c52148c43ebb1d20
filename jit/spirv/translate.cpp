// Translation to SPIR-V: validated here, translated by the spvjit-translate program
// (tools/spvjit_translate.cpp) started as a child without copying this process
// (common/child_process.hpp). The translator cannot live in this process: Debian ships it only as
// a shared library on the shared libLLVM-15, which would put a second LLVM next to our private
// one and next to a host's own, and it answers some input with std::exit. Validation still
// comes first, so that a bad module is a TranslationError naming the problem rather than the
// translator's last words.
#include "jit/spirv/translate.hpp"

#include <dlfcn.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "jit/spirv/validate.hpp"
#include "spvjit/error.hpp"
#include "jit/spirv/translator_reply.hpp"
#include "common/child_process.hpp"
#include "common/env.hpp"
#include "common/log.hpp"

namespace spvjit::detail {

namespace {

// Installed: <libdir>/../libexec/spvjit/spvjit-translate beside the library holding this code;
// in the build tree, where CMake built it. Throws when neither exists (and looks again on the
// next call: a static whose initializer throws is not initialized).
const std::string& translator_program() {
  static const std::string path = [] {
    std::vector<std::string> tried;
    Dl_info info{};
    if (::dladdr(reinterpret_cast<void*>(&translator_program), &info) && info.dli_fname) {
      const auto here = std::filesystem::path(info.dli_fname).parent_path();
      tried.push_back((here / SPVJIT_LIBEXEC_FROM_LIB / "spvjit-translate").lexically_normal());
    }
    tried.push_back(SPVJIT_BUILD_TRANSLATOR);
    for (const auto& p : tried) {
      if (::access(p.c_str(), X_OK) == 0) return p;
    }
    std::string list;
    for (const auto& p : tried) list += (list.empty() ? "" : ", ") + p;
    throw TranslationError("(any)",
                           "spvjit-translate, the SPIR-V translator program installed "
                           "with spvjit, was not found (looked for " +
                               list + "); reinstall spvjit",
                           "");
  }();
  return path;
}

// A translation takes tens of milliseconds; far past that, the program is stuck.
constexpr std::chrono::seconds translate_timeout{120};

// SPVJIT_TRANSLATOR_SERVER (on by default, issue #70): one spvjit-translate --serve per
// process answers every translation, instead of a program started per compile, 65 of whose 70
// ms go to loading and relocating the shared libLLVM-15 (docs/performance.md).
bool translator_server_on() {
  static const bool on = env_flag("SPVJIT_TRANSLATOR_SERVER").value_or(true);
  return on;
}

// How long the server waits for a request before it leaves (a host that compiled at start-up
// keeps no translator, 55 MB resident (11 MB private), for the rest of its life); the next compile
// starts one.
constexpr std::chrono::seconds translator_idle_exit{60};

// Never destroyed: a compile may still be translating while the process exits, and the child
// reads the end of its input when the process's descriptors close.
ChildServer& translator_server() {
  static ChildServer* const server = [] {
    SPVJIT_LOG_DEBUG("SPIR-V translations through one spvjit-translate --serve");
    return new ChildServer(translator_program(),
                           {"--serve", std::to_string(translator_idle_exit.count())},
                           std::string(translator_idle_goodbye));
  }();
  return *server;
}

ChildResult run_translator(const std::string& program, const std::string& bitcode) {
  if (!translator_server_on()) return run_child(program, {}, bitcode, translate_timeout);
  return translator_server().exchange(
      encode_translator_request(bitcode),
      [](std::string_view out) { return decode_translator_reply(out).has_value(); },
      translate_timeout);
}

}  // namespace

std::vector<std::uint32_t> translate_to_spirv(llvm::Module& module, const std::string& kernel,
                                              std::span<const std::string> other_kernels) {
  validate_for_spirv(module, kernel, other_kernels);
  const std::string& program = translator_program();
  std::string bitcode;
  {
    llvm::raw_string_ostream os(bitcode);
    llvm::WriteBitcodeToFile(module, os);
  }
  ChildResult child;
  try {
    child = run_translator(program, bitcode);
  } catch (const SystemError& e) {
    throw SystemError("compile of kernel '" + kernel +
                      "': the SPIR-V translator program could "
                      "not run, nothing was compiled (the process lives on; compile again "
                      "later): " +
                      e.what());
  }
  // The answer is in the output, whole or not at all; the status is only a diagnostic.
  const auto reply = decode_translator_reply(child.out);
  if (!reply) {
    std::string err = child.err;
    while (!err.empty() && err.back() == '\n') err.pop_back();
    const std::string how =
        child.timed_out ? "did not finish in " + std::to_string(translate_timeout.count()) + " s"
        : !child.status_known ? "ended without an answer"
        : child.exited        ? "exited with status " + std::to_string(child.exit_code)
                              : "was killed by signal " + std::to_string(child.signal);
    throw TranslationError(kernel, "SPIRV-LLVM-Translator " + how + (err.empty() ? "" : ": " + err),
                           module_text(module));
  }
  const std::string_view payload = reply->payload;
  if (!reply->ok) {
    throw TranslationError(kernel, "SPIRV-LLVM-Translator: " + std::string(payload),
                           module_text(module));
  }
  const std::size_t bytes = payload.size();
  if (bytes % 4 != 0 || bytes < 20) {
    throw TranslationError(
        kernel, "translator produced " + std::to_string(bytes) + " bytes, not a SPIR-V module",
        module_text(module));
  }
  std::vector<std::uint32_t> words(bytes / 4);
  std::memcpy(words.data(), payload.data(), bytes);
  return words;
}

}  // namespace spvjit::detail
