// ChildServer (common/child_process.hpp): a program kept running as a child to answer request
// after request, as the SPIR-V translator runs with SPVJIT_TRANSLATOR_SERVER. Ordinary programs
// stand in for it: cat answers, sh ends, sleep never answers.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>

#include "common/child_process.hpp"

using spvjit::detail::ChildResult;
using spvjit::detail::ChildServer;
using namespace std::chrono_literals;

namespace {

// A reply is whole at `size` bytes.
auto bytes(std::size_t size) {
  return [size](std::string_view out) { return out.size() >= size; };
}
bool never(std::string_view) { return false; }

}  // namespace

TEST_CASE("child server: one child answers request after request") {
  ChildServer cat("/bin/cat", {});
  CHECK(cat.exchange("abc", bytes(3), 10s).out == "abc");
  CHECK(cat.exchange("defgh", bytes(5), 10s).out == "defgh");
  const std::string big(1 << 20, 'x');  // past a socket's buffer: sent and read in turns
  CHECK(cat.exchange(big, bytes(big.size()), 10s).out == big);
  CHECK(cat.starts() == 1);
}

TEST_CASE(
    "child server: a child that ends says how in that exchange, and the next starts another") {
  ChildServer ends("/bin/sh", {"-c", "echo oops >&2; exit 5"});
  for (unsigned round = 1; round <= 2; ++round) {
    CAPTURE(round);
    const ChildResult r = ends.exchange("x", never, 10s);
    CHECK(r.out.empty());
    CHECK_FALSE(r.timed_out);
    CHECK(r.status_known);
    CHECK(r.exited);
    CHECK(r.exit_code == 5);
    CHECK(r.err == "oops\n");
    CHECK(ends.starts() == round);
  }
}

TEST_CASE(
    "child server: a child past the timeout is killed, and the next exchange starts another") {
  ChildServer stuck("/bin/sleep", {"30"});
  const auto before = std::chrono::steady_clock::now();
  const ChildResult r = stuck.exchange("x", never, 200ms);
  CHECK(std::chrono::steady_clock::now() - before < 10s);
  CHECK(r.timed_out);
  CHECK_FALSE(r.exited);
  CHECK(r.signal == SIGKILL);
  CHECK(stuck.exchange("x", never, 100ms).timed_out);
  CHECK(stuck.starts() == 2);
}

TEST_CASE(
    "child server: a child that closes its input and output but lives on is killed at the "
    "timeout") {
  // Its end of the socket closed, it answers nothing; waiting for it to exit would wait 30 s.
  ChildServer mute("/bin/sh", {"-c", "exec 0<&- 1>&-; sleep 30"});
  const auto before = std::chrono::steady_clock::now();
  const ChildResult r = mute.exchange("x", never, 300ms);
  CHECK(std::chrono::steady_clock::now() - before < 10s);
  CHECK(r.out.empty());
  CHECK_FALSE(r.exited);
  CHECK(r.signal == SIGKILL);
}

TEST_CASE("child server: a forked process starts its own child and leaves its parent's alone") {
  ChildServer cat("/bin/cat", {});
  REQUIRE(cat.exchange("parent", bytes(6), 10s).out == "parent");
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The copy's child would be the parent's: a fresh one answers here.
    const bool right = cat.exchange("child", bytes(5), 10s).out == "child" && cat.starts() == 2;
    ::_exit(right ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(cat.exchange("again", bytes(5), 10s).out == "again");
  CHECK(cat.starts() == 1);
}

// A server that leaves after a while without a request, saying so (as spvjit-translate --serve
// <seconds> does): bash echoes lines until none comes for 0.3 s, then writes its goodbye.
constexpr const char* idle_echo =
    "while IFS= read -r -t 0.3 line; do echo \"$line\"; done; printf '\\002'";

TEST_CASE("child server: a child that left idle is replaced before the next request") {
  ChildServer echo("/bin/bash", {"-c", idle_echo}, "\2");
  CHECK(echo.exchange("abc\n", bytes(4), 10s).out == "abc\n");
  std::this_thread::sleep_for(1s);  // it has left: its goodbye is never read
  CHECK(echo.exchange("def\n", bytes(4), 10s).out == "def\n");
  CHECK(echo.starts() == 2);
}

TEST_CASE("child server: a request the child left without reading goes to a new child, once") {
  // The first child writes its goodbye and lingers before it exits, reading nothing, so its
  // goodbye is read in the exchange; the second (the marker file exists) answers.
  const std::string marker = "/tmp/spvjit-child-server-goodbye-" + std::to_string(::getpid());
  std::remove(marker.c_str());
  ChildServer first_leaves(
      "/bin/bash",
      {"-c", "if [ -e \"$0\" ]; then exec cat; fi; : > \"$0\"; printf '\\002'; sleep 0.3", marker},
      "\2");
  CHECK(first_leaves.exchange("hello", bytes(5), 10s).out == "hello");
  CHECK(first_leaves.starts() == 2);
  std::remove(marker.c_str());
  // One that always leaves: sent twice, to two children, then its goodbye is the answer.
  ChildServer leaving("/bin/bash", {"-c", "printf '\\002'; sleep 0.3"}, "\2");
  const ChildResult r = leaving.exchange("x", never, 10s);
  CHECK(leaving.starts() == 2);
  CHECK(r.out == "\2");
  CHECK_FALSE(r.timed_out);
}
