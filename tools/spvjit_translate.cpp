// spvjit-translate: LLVM bitcode on standard input, SPIR-V on standard output, run by
// libspvjit as a child (jit/spirv/translate.cpp). It is the only spvjit code that loads Debian's
// libLLVMSPIRVLib.so.15 and with it the shared libLLVM-15: kept out of the host's process, the
// translator's std::exit on unsupported input ends this program, not the host, and its LLVM
// never meets the host's.
//
// Reply on standard output as jit/spirv/translator_reply.hpp encodes it, then exit 0.
// With --serve it answers request after request (SPVJIT_TRANSLATOR_SERVER: one start of the
// shared libLLVM, about 65 ms, per process instead of per compile): each request is the
// bitcode's length as 8 little-endian bytes, then the bitcode; each reply as above. It exits 0
// at the end of its input between requests, 4 within one; with `--serve <seconds>`, also when
// no request starts for that long, writing translator_idle_goodbye first (translator_reply.hpp).
#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "jit/spirv/fast_math_extension.hpp"
#include "jit/spirv/translator_reply.hpp"

namespace {

bool write_all(const std::string& bytes) {
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(STDOUT_FILENO, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

int reply(bool ok, const std::string& payload) {
  return write_all(spvjit::detail::encode_translator_reply(ok, payload)) ? 0 : 3;
}

// The reply to one module's bitcode.
std::string translate(const std::string& bitcode) {
  using spvjit::detail::encode_translator_reply;
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // the v15 translator takes typed pointers only
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "kernel"), context);
  if (!module) {
    return encode_translator_reply(
        false, "spvjit-translate: cannot read the bitcode: " + llvm::toString(module.takeError()));
  }
  // PoCL 6.0 on LLVM 15 reports "IL version SPIR-V_1.2". Float atomic add (OpAtomicFAddEXT)
  // needs its extension allowed, and the `contract` flag of mul_add's multiplies
  // and adds SPV_INTEL_fp_fast_math_mode; only modules that use one declare it.
  const SPIRV::TranslatorOpts options(SPIRV::VersionNumber::SPIRV_1_2,
                                      {{SPIRV::ExtensionID::SPV_EXT_shader_atomic_float_add, true},
                                       {SPIRV::ExtensionID::SPV_INTEL_fp_fast_math_mode, true}});
  std::ostringstream spirv;
  std::string error;
  if (!llvm::writeSpirv(module->get(), options, spirv, error)) {
    return encode_translator_reply(false, error);
  }
  return encode_translator_reply(true, spvjit::detail::declare_fast_math_extension(spirv.str()));
}

// Reads exactly `size` bytes into `out`; false at the end of the input or on an error.
bool read_exactly(std::string& out, std::size_t size) {
  out.resize(size);
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::read(STDIN_FILENO, out.data() + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      out.resize(done);
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Whether a request starts within `idle_ms` (negative: waits for ever); false: none did, and
// nothing of one was read.
bool request_within(int idle_ms) {
  pollfd input{STDIN_FILENO, POLLIN, 0};
  for (;;) {
    const int ready = ::poll(&input, 1, idle_ms);
    if (ready < 0 && errno == EINTR) continue;
    return ready != 0;  // an error or the end of the input: the read below tells which
  }
}

int serve(int idle_ms) {
  std::string header, bitcode;
  for (;;) {
    if (!request_within(idle_ms)) {
      return write_all(std::string(spvjit::detail::translator_idle_goodbye)) ? 0 : 3;
    }
    if (!read_exactly(header, 8)) return header.empty() ? 0 : 4;
    if (!read_exactly(bitcode, spvjit::detail::length_at(header))) return 4;
    if (!write_all(translate(bitcode))) return 3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--serve") {
    // --serve [seconds]: the library passes how long to wait for a request before leaving.
    int idle_ms = -1;
    if (argc == 3) {
      char* end = nullptr;
      const long seconds = std::strtol(argv[2], &end, 10);
      if (end == argv[2] || *end != '\0' || seconds <= 0 || seconds > 86400) {
        std::fprintf(stderr, "spvjit-translate: --serve takes seconds from 1 to 86400, not '%s'\n",
                     argv[2]);
        return 2;
      }
      idle_ms = static_cast<int>(seconds * 1000);
    } else if (argc > 3) {
      std::fprintf(stderr, "spvjit-translate: --serve takes at most one argument\n");
      return 2;
    }
    return serve(idle_ms);
  }
  std::string bitcode;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return reply(false, "spvjit-translate: cannot read its input");
    if (n == 0) break;
    bitcode.append(buffer, static_cast<std::size_t>(n));
  }
  return write_all(translate(bitcode)) ? 0 : 3;
}
