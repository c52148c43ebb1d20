// Runs a corpus case both ways — spvjit from clang's bitcode, OpenCL from the source — on the
// same inputs, and compares the outputs.
#pragma once

#include <string>

#include "spvjit/spvjit.hpp"
#include "test/corpus_case.hpp"

namespace spvjit::corpus {

struct Outcome {
  bool ok = false;
  /// Why not: "spvjit: <exception>", "reference: <exception>", or which buffer differs where.
  std::string message;
};

/// Never throws: every failure becomes the outcome's message.
Outcome run(Runtime& rt, Jit& jit, const Case& c, Opt opt);

/// Empty when `got` (spvjit's) agrees with `want` (clBuildProgram's): bit for bit, or floats
/// within `max_ulps` (two NaNs agree); else which elements of buffer `name` differ, and how.
std::string difference(const std::string& name, const HostData& got, const HostData& want,
                       std::uint32_t max_ulps);

}  // namespace spvjit::corpus
