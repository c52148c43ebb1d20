// Runs this benchmark executable again as a child process, for the cases that need a fresh
// process (time_to_load, compile/cold, compile/warm_process). The child's mode is its first
// argument, `--spvjit-child=<mode>` (see main.cpp); it answers on stdout.
#pragma once

#include <map>
#include <string>

namespace spvjit::bench {

struct ChildResult {
  int status = -1;     ///< exit status; -1 when it died of a signal
  std::string output;  ///< everything it wrote to stdout
};

/// Spawns `/proc/self/exe --spvjit-child=<mode>` with this process's environment plus
/// `environment` (which overrides), waits for it, and returns what it printed. Throws when it
/// cannot start.
ChildResult run_child(const std::string& mode,
                      const std::map<std::string, std::string>& environment = {});

/// The child side: runs `mode` and returns the exit status (called by main).
int child_main(const std::string& mode);

}  // namespace spvjit::bench
