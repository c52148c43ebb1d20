// PoCL's library builtins inline into SPIR-V kernels (patch 0013, third_party/pocl/patches): a
// kernel calling sqrt, fabs, floor, fmin, fmax and fma, compiled as written and coarsened, keeps
// no call to the library's implementations (_Z8_cl_sqrtf, ...) in PoCL's final IR. On a PoCL
// without the patch every one of them stays a call, and this test fails.
#include <doctest/doctest.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test/run_command.hpp"
#include "test/shared_runtime.hpp"
#include "test/temp_dir.hpp"

using namespace spvjit;

namespace {

// "caller -> callee" for each call in `bitcode_file` to one of PoCL's library implementations,
// which PoCL names _cl_<builtin> (mangled: _Z8_cl_sqrtf).
std::vector<std::string> library_calls(const std::string& bitcode_file) {
  auto buffer = llvm::MemoryBuffer::getFile(bitcode_file);
  REQUIRE(buffer);
  llvm::LLVMContext context;
  auto module = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), context);
  REQUIRE(static_cast<bool>(module));
  std::vector<std::string> calls;
  for (llvm::Function& f : **module) {
    for (llvm::Instruction& inst : llvm::instructions(f)) {
      const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
      const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
      if (callee && callee->getName().contains("_cl_")) {
        calls.push_back(f.getName().str() + " -> " + callee->getName().str());
      }
    }
  }
  return calls;
}

}  // namespace

TEST_CASE("PoCL builtins: the library's builtins inline into SPIR-V kernels (patch 0013)") {
  CHECK(test::runtime().device().platform_version.find("+spvjit-builtins-inline") !=
        std::string::npos);
  const test::TempDir dir("spvjit-pocl-builtins");
  std::string out;
  const int rc =
      test::run_command("env POCL_LEAVE_KERNEL_COMPILER_TEMP_FILES=1 POCL_CACHE_DIR=" + dir.path() +
                            " SPVJIT_CACHE=off " SPVJIT_BUILTINS_PROBE " 2>&1",
                        out);
  INFO(out);
  REQUIRE(rc == 0);  // and the results are the host's
  // PoCL's final IR of each work-group function it built: the kernel as written and coarsened,
  // on each device the Runtime compiled for.
  std::vector<std::string> finals;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
    if (entry.path().filename() == "parallel.bc") finals.push_back(entry.path().string());
  }
  REQUIRE(finals.size() >= 2);
  for (const std::string& file : finals) {
    CAPTURE(file);
    const std::vector<std::string> calls = library_calls(file);
    std::string listed;
    for (const auto& c : calls) listed += c + "\n";
    INFO(listed);
    CHECK(calls.empty());
  }
}
