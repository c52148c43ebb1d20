#include "tools/cli_commands.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <vector>

#include "spvjit/examples.hpp"
#include "spvjit/spvjit.hpp"

namespace spvjit::cli {

namespace {

const std::map<std::string, std::function<KernelDef()>>& example_kernels() {
  static const std::map<std::string, std::function<KernelDef()>> kernels = {
      {"saxpy-f16", [] { return examples::saxpy(Scalar::F16); }},
      {"saxpy-f32", [] { return examples::saxpy(Scalar::F32); }},
      {"saxpy-f64", [] { return examples::saxpy(Scalar::F64); }},
      {"saxpy-vector-f32x16", [] { return examples::saxpy_vector(Scalar::F32, 16); }},
      {"scale-f64", [] { return examples::scale(Scalar::F64, 1); }},
      {"scale3d-f64", [] { return examples::scale(Scalar::F64, 3); }},
  };
  return kernels;
}

// SPIR-V text through spirv-dis (Debian's spirv-tools), for humans only.
std::string disassemble(const std::vector<std::uint32_t>& words) {
  char path[] = "/tmp/spvjit-dump-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return "(cannot create a temporary file for spirv-dis)\n";
  ::close(fd);
  {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(words.data()),
            static_cast<std::streamsize>(words.size() * sizeof(std::uint32_t)));
  }
  std::string out;
  const std::string cmd = std::string("spirv-dis --no-color ") + path + " 2>&1";
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = ::pclose(p);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      out = "(spirv-dis failed or is missing: install Debian's spirv-tools)\n" + out;
    }
  }
  std::remove(path);
  return out;
}

}  // namespace

std::string example_kernel_names() {
  std::string out;
  for (const auto& [name, make] : example_kernels()) out += "  " + name + "\n";
  return out;
}

int devices(std::span<const std::string> args) {
  if (!args.empty()) {
    std::cerr << "spvjit devices: takes no arguments\n";
    return exit_usage;
  }
  const auto devices = Runtime::list_devices();
  // A Runtime's DeviceNotFoundError names the known causes (a POCL_DEVICES without a CPU
  // driver, PoCL's cache folder out of reach).
  const auto explain = [] {
    try {
      Runtime rt;
    } catch (const Error& e) {
      std::cout << e.what() << "\n";
    }
  };
  if (devices.empty()) {
    std::cout << "no OpenCL platform found (check OCL_ICD_VENDORS and /etc/OpenCL/vendors)\n";
    explain();
    return exit_failure;
  }
  bool any_spirv = false;
  for (const auto& d : devices) {
    any_spirv = any_spirv || d.accepts_spirv();
    std::cout << d.platform_name << " — " << d.platform_version << "\n"
              << "  device:          " << d.name << "\n"
              << "  version:         " << d.version << " (driver " << d.driver_version << ")\n"
              << "  SPIR-V:          "
              << (d.accepts_spirv() ? "yes, " + d.il_version : std::string("no")) << "\n"
              << "  compute units:   " << d.compute_units << "\n"
              << "  max work-group:  " << d.max_workgroup_size << " (per dimension "
              << d.max_work_item_sizes[0] << ", " << d.max_work_item_sizes[1] << ", "
              << d.max_work_item_sizes[2] << ")\n"
              << "  local memory:    " << d.local_mem_size << " bytes\n"
              << "  global memory:   " << d.global_mem_size << " bytes\n"
              << "  fp64: " << (d.fp64 ? "yes" : "no") << ", fp16: " << (d.fp16 ? "yes" : "no")
              << "\n"
              << "  extensions:      " << d.extensions << "\n\n";
  }
  if (!any_spirv) {
    std::cout << "none of these devices accepts SPIR-V: spvjit cannot run here\n";
    explain();
    return exit_failure;
  }
  return exit_ok;
}

int dump(std::span<const std::string> args) {
  if (args.size() != 1) {
    std::cerr << "usage: spvjit dump <kernel>\nkernels:\n" << example_kernel_names();
    return exit_usage;
  }
  const auto& kernels = example_kernels();
  auto it = kernels.find(args[0]);
  if (it == kernels.end()) {
    std::cerr << "spvjit dump: unknown kernel '" << args[0] << "'; expected one of:\n"
              << example_kernel_names();
    return exit_usage;
  }
  KernelDef def = it->second();
  std::cout << "; ---- LLVM IR of '" << def.name() << "' (before specialization)\n"
            << def.to_string();
  Runtime rt;
  Jit jit(rt);
  std::cout << "\n; ---- SPIR-V of '" << def.name() << "' (dynamic workgroup and ndrange)\n"
            << disassemble(jit.spirv(def));
  return exit_ok;
}

int cache(std::span<const std::string> args) {
  if (args.size() != 1 || (args[0] != "stats" && args[0] != "clear" && args[0] != "dir")) {
    std::cerr << "usage: spvjit cache stats|clear|dir\n";
    return exit_usage;
  }
  const DiskCacheInfo info = disk_cache_info();
  if (info.dir.empty()) {
    std::cerr
        << "spvjit cache: no cache directory (set SPVJIT_CACHE_DIR, XDG_CACHE_HOME or HOME)\n";
    return exit_failure;
  }
  if (args[0] == "dir") {
    std::cout << info.dir << "\n";
  } else if (args[0] == "stats") {
    std::cout << "directory:   " << info.dir << "\n"
              << "enabled:     " << (info.enabled ? "yes" : "no (SPVJIT_CACHE=off)") << "\n"
              << "entries:     " << info.entries << "\n"
              << "bytes:       " << info.bytes << "\n"
              << "unfinished:  " << info.temporaries << "\n";
  } else {
    const auto removed = clear_disk_cache();
    std::cout << "removed " << removed << " files from " << info.dir << "\n";
  }
  return exit_ok;
}

int bench(std::span<const std::string> args, const char* argv0) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) self = argv0;
  const fs::path candidates[] = {self.parent_path() / SPVJIT_BENCH_RELATIVE,
                                 self.parent_path() / "spvjit_bench"};
  for (const auto& c : candidates) {
    if (!fs::exists(c)) continue;
    std::vector<std::string> storage = {c.string()};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    std::perror("spvjit bench: execv");
    return exit_failure;
  }
  std::cerr << "spvjit bench: cannot find the benchmark executable (looked for "
            << candidates[0].string() << " and " << candidates[1].string() << ")\n";
  return exit_failure;
}

}  // namespace spvjit::cli
