// KernelAbstractions' test/print_test.jl: the port (test/ka/kernel_print.hpp) is valid SPIR-V,
// and, launched as KA launches it, prints one line per work-item. KA's own test sends the text
// to devnull; here spvjit_print_probe runs it in a child process and the test reads the text.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "test/ka/kernel_print.hpp"
#include "test/lang_support.hpp"

using namespace spvjit;

TEST_CASE("KA port print_test.jl: kernel_print builds to valid SPIR-V with a static group of 4") {
  test::compile_checked(ka::kernel_print(), ka::kernel_print_sizes());
}

TEST_CASE("KA port print_test.jl: kernel_print says hello from threads 1 to 4") {
  std::string out;
  const int status =
      test::run_command("(timeout 300 " SPVJIT_PRINT_PROBE " kernel_print 2>/dev/null)", out);
  INFO("spvjit_print_probe kernel_print output:\n", out);
  REQUIRE(status == 0);
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // The host's markers frame the kernel's lines, whose order between work-items is the device's.
  REQUIRE(lines.size() == 6);
  CHECK(lines.front() == "== kernel_print");
  CHECK(lines.back() == "== end");
  std::vector<std::string> hello(lines.begin() + 1, lines.end() - 1);
  std::sort(hello.begin(), hello.end());
  CHECK(hello == std::vector<std::string>{"Hello from thread 1!", "Hello from thread 2!",
                                          "Hello from thread 3!", "Hello from thread 4!"});
}
