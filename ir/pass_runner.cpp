#include "ir/pass_runner.hpp"

#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <cstdio>
#include <utility>

#include "common/env.hpp"

namespace spvjit::detail {

namespace {

const std::string& dump_directory() {
  static const std::string dir = env_value("SPVJIT_DUMP_IR").value_or("");
  return dir;
}

// Writes one dump file with `write`, warning once of a file it cannot open or write (a full
// disk): raw_fd_ostream would otherwise end the host's process with report_fatal_error when it is
// destroyed with a write error unread.
template <class Write>
void write_dump(const std::string& path, Write&& write) {
  std::error_code error;
  llvm::raw_fd_ostream out(path, error, llvm::sys::fs::OF_None);
  if (!error) {
    write(out);
    out.close();
    if (!out.has_error()) return;
    error = out.error();
    out.clear_error();
  }
  warn_once("dump-ir", "SPVJIT_DUMP_IR: cannot write " + path + ": " + error.message());
}

}  // namespace

PassRunner::PassRunner(llvm::Module& module, std::string subject)
    : module_(module), subject_(std::move(subject)), dump_dir_(dump_directory()) {}

void PassRunner::dump_spirv(const char* name, const std::vector<std::uint32_t>& words) {
  if (dump_dir_.empty()) return;
  write_dump(dump_path(name, ".spv"), [&](llvm::raw_fd_ostream& out) {
    out.write(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(words[0]));
  });
}

void PassRunner::ran(const char* name, std::chrono::steady_clock::time_point started) {
  log_step(name, started);
  if (!dump_dir_.empty()) dump(name);
}

void PassRunner::log_step(const char* name, std::chrono::steady_clock::time_point started) {
  // Timed when start() read the clock: the log level may change in between.
  const bool timed = started != std::chrono::steady_clock::time_point();
  ++step_;
  if (timed) {
    char ms[32];
    std::snprintf(
        ms, sizeof ms, "%.2f",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count());
    log_line(LogLevel::Debug,
             subject_ + ": pass " + std::to_string(step_) + " " + name + " in " + ms + " ms");
  }
}

// <dir>/<module>.<id>.<NN>-<step><extension>, the directory made if need be.
std::string PassRunner::dump_path(const char* step, const char* extension) {
  char number[8];
  std::snprintf(number, sizeof number, "%02u", step_);
  // One number per runner: a kernel's definition and each of its compiles (two
  // specializations) number their own files.
  static std::atomic<unsigned> runners{0};
  if (dump_id_ == 0) dump_id_ = runners.fetch_add(1, std::memory_order_relaxed) + 1;
  std::string stem = module_.getName().str();
  for (char& c : stem) {
    if (c == '/') c = '_';
  }
  llvm::sys::fs::create_directories(dump_dir_);
  return dump_dir_ + "/" + stem + "." + std::to_string(dump_id_) + "." + number + "-" + step +
         extension;
}

void PassRunner::dump(const char* pass) {
  write_dump(dump_path(pass, ".ll"),
             [&](llvm::raw_fd_ostream& out) { module_.print(out, nullptr); });
}

}  // namespace spvjit::detail
