// Runs the steps of one stage on one module, in the order its list calls them: each logged with
// its time at SPVJIT_LOG=debug, and the module written out after it where SPVJIT_DUMP_IR names a
// directory (<dir>/<module>.<id>.<NN>-<step>.ll). Costs one branch per step when both are off.
// The stages' lists: KernelBuilder::finish (ir/builder.cpp) for a builder kernel's definition,
// jit/pipeline.cpp for everything after it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "common/log.hpp"

namespace llvm {
class Module;
}

namespace spvjit::detail {

class PassRunner {
 public:
  /// `subject` starts each log line ("kernel 'saxpy' (workgroup dynamic, ndrange dynamic)").
  PassRunner(llvm::Module& module, std::string subject);

  /// When a pass starts: now where the log times passes, else a zero time nobody reads.
  static std::chrono::steady_clock::time_point start() {
    return log_enabled(LogLevel::Debug) ? std::chrono::steady_clock::now()
                                        : std::chrono::steady_clock::time_point();
  }

  /// Runs `pass(module)`, then logs and dumps it.
  template <class Pass>
  void run(const char* name, Pass&& pass) {
    const auto started = start();
    pass(module_);
    ran(name, started);
  }

  /// A step that reads the module but does not change it (a check, the translation): logged like
  /// a pass, not dumped as IR.
  template <class Step>
  void step(const char* name, Step&& body) {
    const auto started = start();
    body();
    log_step(name, started);
  }

  /// The SPIR-V the translation made, beside the IR files: <module>.<id>.<NN>-<step>.spv.
  void dump_spirv(const char* name, const std::vector<std::uint32_t>& words);

  /// Logs and dumps a pass that ran before the runner existed: the one that made the module.
  void ran(const char* name, std::chrono::steady_clock::time_point started);

 private:
  void log_step(const char* name, std::chrono::steady_clock::time_point started);
  std::string dump_path(const char* step, const char* extension);
  void dump(const char* pass);

  llvm::Module& module_;
  std::string subject_;
  const std::string& dump_dir_;
  unsigned step_ = 0;
  unsigned dump_id_ = 0;  // this stage's number among the dumps, given at its first dump
};

}  // namespace spvjit::detail
