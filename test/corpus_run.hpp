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

}  // namespace spvjit::corpus
