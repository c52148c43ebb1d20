// print() (KA's @print): the format is checked against the arguments when the kernel is built,
// and a printing kernel's text reaches standard output, in the host's order, by synchronize().
// The output is read from spvjit_print_probe, a child process (test/print_probe.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

template <class F>
void check_print_error(F&& f, std::initializer_list<const char*> parts) {
  KernelBuilder kb("print_errors");
  auto out = kb.param<Global<float>>("out");
  std::string message;
  try {
    f(kb, out);
  } catch (const UserError& e) {
    message = e.what();
  }
  INFO("message: ", message);
  REQUIRE_FALSE(message.empty());
  for (const char* p : parts) CHECK(message.find(p) != std::string::npos);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The lines between "== <name>" and the next "== " line.
std::vector<std::string> section(const std::vector<std::string>& all, const std::string& name) {
  std::vector<std::string> out;
  auto it = std::find(all.begin(), all.end(), "== " + name);
  if (it == all.end()) return out;
  for (++it; it != all.end() && it->rfind("== ", 0) != 0; ++it) out.push_back(*it);
  return out;
}

}  // namespace

TEST_CASE("print: the format is checked against the arguments when the kernel is built") {
  check_print_error(
      [](KernelBuilder& kb, auto) { print(kb, "%d %d\n", kb.lit(1)); },
      {"print of kernel 'print_errors': format \"%d %d\n\" has 2 conversion(s) but 1 argument(s)"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "no conversion\n", 3); },
                    {"0 conversion(s) but 1 argument(s)"});
  check_print_error(
      [](KernelBuilder& kb, auto) { print(kb, "i=%d\n", kb.global_index()); },
      {"argument 1 (i64) for %d", "expected a signed integer of at most 32 bits", "%ld"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%d %ld\n", 1, kb.lit(2)); },
                    {"argument 2 (i32) for %ld", "64 bits"});
  check_print_error([](KernelBuilder& kb, auto out) { print(kb, "%d\n", out[0]); },
                    {"argument 1 (f32) for %d"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%f\n", kb.lit(1)); },
                    {"argument 1 (i32) for %f", "expected f32 or f64"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%u\n", kb.lit(-1)); },
                    {"argument 1 (i32) for %u", "an unsigned integer"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%hhd\n", kb.lit(1)); },
                    {"argument 1 (i32) for %hhd", "8 bits"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%s\n", kb.lit(1)); },
                    {"argument 1 (i32) for %s", "a C++ string"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%d\n", "text"); },
                    {"argument 1 is the string \"text\" for %d", "expected %s"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%lf\n", 1.0); },
                    {"no length modifier for %lf"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%.2c\n", kb.lit<std::int8_t>(65)); },
                    {"%.2c"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%p\n", 1); },
                    {"conversion %p is not one OpenCL C's printf supports"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%n\n", 1); }, {"%n"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%lld\n", std::int64_t{1}); },
                    {"length modifier 'll'"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%*d\n", 1, 2); }, {"`*`"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "%v4f\n", 1.0f); }, {"vector"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "100%\n"); }, {"conversion"});
  check_print_error([](KernelBuilder& kb, auto) { print(kb, "50%"); },
                    {"ends inside a conversion"});
  check_print_error(
      [](KernelBuilder& kb, auto) {
        KernelBuilder other("other");
        print(kb, "%d\n", other.lit(1));
      },
      {"print argument 1", "another kernel"});
}

TEST_CASE("print: lowers to OpenCL.std printf with a constant format, valid SPIR-V") {
  KernelBuilder kb("print_spirv");
  auto i = kb.global_index();
  print(kb, "%ld %s %f\n", i, "x", kb.lit(1.5f));
  const KernelDef def = kb.finish();
  CHECK(def.to_string().find("addrspace(2) constant") != std::string::npos);
  CHECK(def.to_string().find("c\"%ld x %f\\0A\\00\"") != std::string::npos);
  test::compile_checked(def);
  const std::string spirv = spirv_text(test::jit(), def);
  CHECK(spirv.find("printf") != std::string::npos);
  CHECK(spirv.find("OpExtInst") != std::string::npos);
}

TEST_CASE("print: the kernels' text reaches stdout by synchronize, in the host's order") {
  std::string out;
  const int status = test::run_command("(timeout 300 " SPVJIT_PRINT_PROBE " 2>/dev/null)", out);
  INFO("spvjit_print_probe output:\n", out);
  REQUIRE(status == 0);
  const auto all = lines(out);
  // The host's lines, printed with std::printf before each launch and never flushed by the
  // probe, come in order around the kernels' lines.
  std::vector<std::string> headers;
  for (const auto& l : all) {
    if (l.rfind("== ", 0) == 0) headers.push_back(l);
  }
  CHECK(headers ==
        std::vector<std::string>{"== types", "== items", "== condition", "== function", "== end"});
  CHECK(section(all, "types") ==
        std::vector<std::string>{
            "i32=-7 u32=4000000000 i64=-9000000000 u64=18000000000000000000",
            "i8=-5 u16=65535 c=A x=ff X=0XBEEF o=10 b=1",
            "f32=1.500000 f64=2.250 e=2.250000e+00 g=1.5 w=[    1.50] [42    ]",
            "label=3 ab   | xy 100%",
            "plain",
        });
  auto items = section(all, "items");
  std::sort(items.begin(), items.end());
  std::vector<std::string> expected_items;
  for (int k = 0; k < 8; ++k) {
    expected_items.push_back("item " + std::to_string(k) + " group " + std::to_string(k / 4) +
                             " value " + std::to_string(k * k));
  }
  CHECK(items == expected_items);
  auto evens = section(all, "condition");
  std::sort(evens.begin(), evens.end());
  CHECK(evens == std::vector<std::string>{"even 0", "even 2", "even 4"});
  auto shown = section(all, "function");
  std::sort(shown.begin(), shown.end());
  CHECK(shown == std::vector<std::string>{"show 0.5", "show 1.5"});
}
