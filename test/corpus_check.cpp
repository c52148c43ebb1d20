// The doctest side of a corpus case: it must agree with clBuildProgram, or, with a known
// failure at this level, still fail as recorded.
#include <doctest/doctest.h>

#include "test/corpus_run.hpp"
#include "test/shared_runtime.hpp"

namespace spvjit::corpus {

void check(const Case& c, Opt opt) {
  INFO("corpus file: ", c.file, " at ", std::string(name(opt)));
  const std::string reason = c.bound_reason.empty() ? "" : " (" + c.bound_reason + ")";
  INFO("bound: ", c.max_ulps, " ulps", reason);
  const Outcome out = run(test::runtime(), test::jit(), c, opt);
  const Case::KnownFailure& known = c.known_failure(opt);
  if (known.message.empty()) {
    CHECK_MESSAGE(out.ok, out.message);
    return;
  }
  const std::string kind = known.pending ? "pending: " : "refused: ";
  INFO(kind, known.why);
  CHECK_MESSAGE(!out.ok, "this case passes now: remove its known failure");
  const std::string expected =
      "expected a failure containing '" + known.message + "', got: " + out.message;
  CHECK_MESSAGE(out.message.find(known.message) != std::string::npos, expected);
}

}  // namespace spvjit::corpus
