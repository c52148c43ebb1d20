// spvjit's environment variables (common/env.hpp): every spelling through the parsers, which take
// the value as an argument; then each variable in a child process that has it set, since the
// library reads the environment itself and this process's must stay as it is.
#include <doctest/doctest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "common/env.hpp"
#include "common/error_report.hpp"
#include "spvjit/error.hpp"
#include "test/disk_cache_helpers.hpp"
#include "test/run_command.hpp"

using namespace spvjit;
using namespace spvjit::test;

namespace {

std::string parse_error(auto&& parse) {
  try {
    parse();
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

// The probe's output with `assignments` (shell words) in its environment.
int cache_probe_with(const std::string& assignments, const std::string& dir, std::string& out) {
  return run_command("env " + assignments + " " SPVJIT_CACHE_PROBE " " + dir, out);
}

}  // namespace

TEST_CASE("environment flags accept on/off, true/false, yes/no, 1/0 in any case, nothing else") {
  for (const char* yes : {"on", "ON", "On", "true", "TRUE", "True", "yes", "YES", "Yes", "1"}) {
    CAPTURE(yes);
    CHECK(detail::parse_flag("SPVJIT_CACHE", yes));
  }
  for (const char* no : {"off", "OFF", "Off", "false", "FALSE", "False", "no", "NO", "No", "0"}) {
    CAPTURE(no);
    CHECK_FALSE(detail::parse_flag("SPVJIT_CACHE", no));
  }
  for (const char* bad :
       {"maybe", "2", "-1", "o", " on", "off ", "enabled", "disable", "nope", "00"}) {
    CAPTURE(bad);
    CHECK(parse_error([&] { detail::parse_flag("SPVJIT_CACHE", bad); }) ==
          std::string("SPVJIT_CACHE='") + bad +
              "': expected on or off (or true/false, yes/no, 1/0; any case)");
  }
}

TEST_CASE("environment choices accept their choices in any case and list them otherwise") {
  CHECK(detail::parse_choice("SPVJIT_LOG", "off", {"off", "info", "debug"}) == 0);
  CHECK(detail::parse_choice("SPVJIT_LOG", "INFO", {"off", "info", "debug"}) == 1);
  CHECK(detail::parse_choice("SPVJIT_LOG", "Debug", {"off", "info", "debug"}) == 2);
  CHECK(parse_error([] {
          detail::parse_choice("SPVJIT_LOG", "verbose", {"off", "info", "debug"});
        }) == "SPVJIT_LOG='verbose': expected one of off, info, debug (any case)");
  CHECK(parse_error([] {
          detail::parse_choice("SPVJIT_LOG", "info ", {"off", "info", "debug"});
        }) == "SPVJIT_LOG='info ': expected one of off, info, debug (any case)");
}

TEST_CASE("environment numbers are decimal digits within their range, nothing else") {
  CHECK(detail::parse_number("N", "0", 0, 256, "a number") == 0);
  CHECK(detail::parse_number("N", "256", 0, 256, "a number") == 256);
  CHECK(detail::parse_number("N", "007", 0, 256, "a number") == 7);
  CHECK(detail::parse_number("N", "18446744073709551615", 0, UINT64_MAX, "a number") == UINT64_MAX);
  for (const char* bad : {"257", "-4", "+5", " 5", "5 ", "12k", "0x10", "1e3", "1.5", "-0"}) {
    CAPTURE(bad);
    CHECK(parse_error([&] { detail::parse_number("N", bad, 0, 256, "a number of threads"); }) ==
          std::string("N='") + bad + "': expected a number of threads from 0 to 256");
  }
  CHECK(parse_error([] {
          detail::parse_number("N", "18446744073709551616", 0, UINT64_MAX, "a number");
        }) == "N='18446744073709551616': expected a number from 0 to 18446744073709551615");
  CHECK(parse_error([] { detail::parse_number("N", "3", 4, 8, "a number"); }) ==
        "N='3': expected a number from 4 to 8");
}

TEST_CASE(
    "SPVJIT_CACHE: each spelling of off writes nothing, of on writes the entry, junk stops the "
    "Jit") {
  for (const char* off : {"OFF", "false", "No", "0"}) {
    CAPTURE(off);
    TempDir dir;
    std::string out;
    CHECK(cache_probe_with(std::string("SPVJIT_CACHE=") + off, dir.path(), out) == 0);
    CHECK_MESSAGE(out.find("disk_writes=0 wrong=0 cache_dir=\n") != std::string::npos, out);
    CHECK(entries(dir.path()).empty());
  }
  for (const char* on : {"on", "TRUE", "yes", "1", ""}) {
    CAPTURE(on);
    TempDir dir;
    std::string out;
    CHECK(cache_probe_with(std::string("SPVJIT_CACHE=") + on, dir.path(), out) == 0);
    CHECK_MESSAGE(out.find("disk_writes=1 wrong=0") != std::string::npos, out);
    CHECK(entries(dir.path()).size() == 1);
  }
  TempDir dir;
  std::string out;
  CHECK(cache_probe_with("SPVJIT_CACHE=maybe", dir.path(), out) == 2);
  CHECK_MESSAGE(out.find("error: SPVJIT_CACHE='maybe': expected on or off") != std::string::npos,
                out);
  CHECK(entries(dir.path()).empty());
}

TEST_CASE("SPVJIT_CACHE_DIR names the directory, and empty it is unset") {
  TempDir dir, xdg;
  std::string out;
  CHECK(cache_probe_with("SPVJIT_CACHE_DIR=" + dir.path(), "-", out) == 0);
  CHECK_MESSAGE(out.find("cache_dir=" + dir.path() + "\n") != std::string::npos, out);
  CHECK(entries(dir.path()).size() == 1);
  out.clear();
  CHECK(cache_probe_with("SPVJIT_CACHE_DIR= XDG_CACHE_HOME=" + xdg.path(), "-", out) == 0);
  CHECK_MESSAGE(out.find("cache_dir=" + xdg.path() + "/spvjit\n") != std::string::npos, out);
  CHECK(entries(xdg / "spvjit").size() == 1);
}

TEST_CASE("SPVJIT_COARSEN: off, on or a width in any case, and anything else stops the Jit") {
  struct Case {
    const char* value;
    const char* expected;  // in the debug log
  };
  const Case cases[] = {
      {"8", "coarsened, 8 indices per work-item"},
      {"2", "coarsened, 2 indices per work-item"},
      {"ON", "coarsened, "},
      {"Off", nullptr},
  };
  for (const auto& c : cases) {
    CAPTURE(c.value);
    TempDir dir;  // a fresh cache: a disk hit would not log the coarsening
    std::string out;
    CHECK(cache_probe_with(std::string("SPVJIT_LOG=debug SPVJIT_COARSEN=") + c.value, dir.path(),
                           out) == 0);
    CHECK(out.find("wrong=0") != std::string::npos);
    if (c.expected) {
      CHECK_MESSAGE(out.find(c.expected) != std::string::npos, out);
    } else {
      CHECK_MESSAGE(out.find("coarsened") == std::string::npos, out);
    }
  }
  for (const char* bad : {"7", "1", "auto", "16x"}) {
    CAPTURE(bad);
    TempDir dir;
    std::string out;
    CHECK(cache_probe_with(std::string("SPVJIT_COARSEN=") + bad, dir.path(), out) == 2);
    CHECK_MESSAGE(
        out.find(std::string("error: SPVJIT_COARSEN='") + bad +
                 "': expected one of off, on, 2, 4, 8, 16 (any case)") != std::string::npos,
        out);
  }
}

TEST_CASE(
    "SPVJIT_COARSEN_VECTORS: 1, 2, 4 or 8 vectors per work-item, and anything else stops the Jit") {
  {
    TempDir dir;  // a fresh cache: a disk hit would not log the coarsening
    std::string out;
    CHECK(cache_probe_with("SPVJIT_LOG=debug SPVJIT_COARSEN=8 SPVJIT_COARSEN_VECTORS=4", dir.path(),
                           out) == 0);
    CHECK(out.find("wrong=0") != std::string::npos);
    // The probe's kernel has a static workgroup: its work-items are its own, one vector each
    // (test_coarsen.cpp launches several per work-item).
    CHECK_MESSAGE(out.find("coarsened, 8 indices per work-item (1 x 8 lanes)") != std::string::npos,
                  out);
  }
  for (const char* bad : {"3", "16", "0", "two"}) {
    CAPTURE(bad);
    TempDir dir;
    std::string out;
    CHECK(cache_probe_with(std::string("SPVJIT_COARSEN_VECTORS=") + bad, dir.path(), out) == 2);
    CHECK_MESSAGE(out.find(std::string("error: SPVJIT_COARSEN_VECTORS='") + bad +
                           "': expected one of 1, 2, 4, 8") != std::string::npos,
                  out);
  }
}

namespace {

// A Jit's variable of choices: each `good` value compiles and runs right; each `bad` one stops
// the Jit (exit 2) saying the variable, the value and "expected one of `choices` (any case)".
void check_jit_choice(const std::string& variable, std::initializer_list<const char*> good,
                      std::initializer_list<const char*> bad, const std::string& choices) {
  for (const char* value : good) {
    CAPTURE(value);
    TempDir dir;  // a fresh cache: the compile reads the variable
    std::string out;
    CHECK(cache_probe_with(variable + "=" + value, dir.path(), out) == 0);
    CHECK_MESSAGE(out.find("wrong=0") != std::string::npos, out);
  }
  for (const char* value : bad) {
    CAPTURE(value);
    TempDir dir;
    std::string out;
    CHECK(cache_probe_with(variable + "=" + value, dir.path(), out) == 2);
    CHECK_MESSAGE(out.find("error: " + variable + "='" + value + "': expected one of " + choices +
                           " (any case)") != std::string::npos,
                  out);
  }
}

}  // namespace

TEST_CASE(
    "SPVJIT_COARSEN_STRIPS: off, on, 2, 4, 8 or 16 in any case, and anything else stops "
    "the Jit") {
  check_jit_choice("SPVJIT_COARSEN_STRIPS", {"off", "ON", "16"}, {"1", "32", "auto", "yes"},
                   "off, on, 2, 4, 8, 16");
}

TEST_CASE(
    "SPVJIT_PLAN: order, cost or one plan's name in any case, and anything else stops the Jit") {
  check_jit_choice("SPVJIT_PLAN", {"order", "COST", "vectors-1", "Device"},
                   {"on", "vectors-2", "auto", "1"},
                   "order, cost, device, vectors, strips, vectors-1, strips-1");
}

TEST_CASE("SPVJIT_LOG: off, info or debug in any case, and anything else stops the Runtime") {
  for (const char* on : {"INFO", "info", "Debug"}) {
    CAPTURE(on);
    std::string out;
    CHECK(run_command(std::string("SPVJIT_LOG=") + on + " " SPVJIT_DEVICE_PROBE, out) == 0);
    CHECK_MESSAGE(out.find("[spvjit info] device: ") != std::string::npos, out);
  }
  for (const char* off : {"off", "OFF", ""}) {
    CAPTURE(off);
    std::string out;
    CHECK(run_command(std::string("SPVJIT_LOG=") + off + " " SPVJIT_DEVICE_PROBE, out) == 0);
    CHECK_MESSAGE(out.find("[spvjit") == std::string::npos, out);
  }
  for (const char* bad : {"verbose", "2", "1", "yes"}) {
    CAPTURE(bad);
    std::string out;
    CHECK(run_command(std::string("SPVJIT_LOG=") + bad + " " SPVJIT_DEVICE_PROBE, out) == 1);
    CHECK_MESSAGE(out.find(std::string("other error: SPVJIT_LOG='") + bad +
                           "': expected one of off, info, debug (any case)") != std::string::npos,
                  out);
  }
}

TEST_CASE("the adaptive-dispatch numbers are checked by every Runtime, not only adaptive ones") {
  const char* bad[][3] = {
      {"SPVJIT_INLINE_THREADS", "257", "a number of threads from 0 to 256"},
      {"SPVJIT_INLINE_THREADS", "two", "a number of threads from 0 to 256"},
      {"SPVJIT_INLINE_THRESHOLD", "-1", "a number of work-items from 0 to 18446744073709551615"},
      {"SPVJIT_SPLIT_THRESHOLD", "1e3", "a number of work-items from 0 to 18446744073709551615"},
      {"SPVJIT_INLINE_SPIN_US", "5ms", "microseconds from 0 to 1000000"},
      {"SPVJIT_INLINE_SPIN_US", "1000001", "microseconds from 0 to 1000000"},
  };
  for (const auto& b : bad) {
    CAPTURE(b[0]);
    CAPTURE(b[1]);
    std::string out;
    CHECK(run_command(std::string(b[0]) + "=" + b[1] + " " SPVJIT_DEVICE_PROBE, out) == 1);
    CHECK_MESSAGE(
        out.find(std::string(b[0]) + "='" + b[1] + "': expected " + b[2]) != std::string::npos,
        out);
  }
  std::string out;
  CHECK(run_command("SPVJIT_INLINE_THREADS=2 SPVJIT_INLINE_THRESHOLD=0 "
                    "SPVJIT_SPLIT_THRESHOLD= " SPVJIT_DEVICE_PROBE,
                    out) == 0);
  CHECK_MESSAGE(out.find("device: ") != std::string::npos, out);
}

TEST_CASE("SPVJIT_DEVICE empty is unset") {
  std::string out;
  CHECK(run_command("SPVJIT_DEVICE= " SPVJIT_DEVICE_PROBE, out) == 0);
  CHECK_MESSAGE(out.find("device: ") != std::string::npos, out);
}

// The one way errors are raised (common/error_report.hpp): a user error starts with where it
// arose, an internal one with the source file and line that found it.
TEST_CASE(
    "error reports: user errors start with the operation and kernel, internal ones with file and "
    "line") {
  CHECK_THROWS_WITH_AS(
      ([] {
        user_assert(1 + 1 == 3, {"launch", "saxpy"}) << "n " << 5 << "; expected 4";
      }()),
      "launch of kernel 'saxpy': n 5; expected 4", UserError);
  CHECK_THROWS_WITH_AS(([] { user_error({"Buffer::read"}) << "too many"; }()),
                       "Buffer::read: too many", UserError);
  CHECK_NOTHROW(([] { user_assert(true, {"launch", "saxpy"}) << "never"; }()));
  const std::string where = "test_env.cpp:" + std::to_string(__LINE__ + 1) + ": lost";
  CHECK_THROWS_WITH_AS(([] { internal_error << "lost"; }()), doctest::Contains(where.c_str()),
                       InternalError);
}
