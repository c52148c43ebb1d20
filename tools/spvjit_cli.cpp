// `spvjit`: devices, example-kernel dumps, the disk cache and the benchmark suite from a shell.
// Exit codes: 0 success, 1 the command failed (its reason on stderr), 2 wrong usage.
#include <iostream>
#include <string>
#include <vector>

#include "spvjit/error.hpp"
#include "spvjit/version.hpp"
#include "tools/cli_commands.hpp"

namespace {

void usage(std::ostream& out) {
  out << "usage: spvjit <command> [arguments]\n\n"
         "commands:\n"
         "  devices               list OpenCL platforms and devices: SPIR-V support, limits,\n"
         "                        extensions\n"
         "  dump <kernel>         print a built-in example kernel as LLVM IR and SPIR-V\n"
         "  cache stats|clear|dir inspect or empty the on-disk kernel cache\n"
         "  bench [options]       run the benchmark suite (Google Benchmark options pass through)\n"
         "  version               print the library version\n"
         "  help                  print this text\n\n"
         "kernels for dump:\n"
      << spvjit::cli::example_kernel_names()
      << "\nexit status: 0 success, 1 the command failed, 2 wrong usage\n";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace spvjit::cli;
  if (argc < 2) {
    usage(std::cerr);
    return exit_usage;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "devices") return devices(args);
    if (command == "dump") return dump(args);
    if (command == "cache") return cache(args);
    if (command == "bench") return bench(args, argv[0]);
    if (command == "version" || command == "--version") {
      std::cout << "spvjit " << spvjit::version() << "\n";
      return exit_ok;
    }
    if (command == "help" || command == "--help" || command == "-h") {
      usage(std::cout);
      return exit_ok;
    }
    std::cerr << "spvjit: unknown command '" << command << "'\n\n";
    usage(std::cerr);
    return exit_usage;
  } catch (const spvjit::Error& e) {
    std::cerr << "spvjit " << command << ": " << e.what() << "\n";
    return exit_failure;
  } catch (const std::exception& e) {
    std::cerr << "spvjit " << command << ": unexpected error: " << e.what() << "\n";
    return exit_failure;
  }
}
