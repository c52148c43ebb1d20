// The disk entry format and the cache key, without a device: every corruption is caught by the
// reader, and every part of the key changes it.
#include <doctest/doctest.h>

#include <random>
#include <set>
#include <vector>

#include "jit/cache/cache_entry.hpp"
#include "jit/cache/cache_key.hpp"

using namespace spvjit;
using namespace spvjit::detail;

namespace {

const std::vector<std::uint32_t> spirv = {0x07230203, 0x00010200, 0, 10, 0, 0x00020011, 4};
const std::vector<std::uint8_t> binary = {1, 2, 3, 4, 5, 6, 7, 8, 9};

std::vector<std::uint8_t> sample() { return encode_entry("the key", spirv, binary); }

}  // namespace

TEST_CASE("a cache entry decodes to what was encoded") {
  const auto bytes = sample();
  const DecodedEntry d = decode_entry(bytes);
  REQUIRE_MESSAGE(d.ok(), d.error);
  CHECK(d.entry.key == "the key");
  CHECK(d.entry.spirv.size() == spirv.size() * 4);
  CHECK(d.entry.spirv[0] == 0x03);  // little-endian words
  CHECK(std::vector<std::uint8_t>(d.entry.binary.begin(), d.entry.binary.end()) == binary);
}

TEST_CASE(
    "a cache entry carries what a launch needs: coarsening, offset safety, group loops, "
    "stack per work-item, atomics, the coarsened dimension, groups") {
  for (const EntryLaunch launch :
       {EntryLaunch{1, false}, EntryLaunch{16, true}, EntryLaunch{8, false},
        EntryLaunch{entry_max_coarsen, true}, EntryLaunch{1, false, true},
        EntryLaunch{1, true, true}, EntryLaunch{16, true, false, 64},
        EntryLaunch{8, false, false, entry_max_stack_bytes}, EntryLaunch{16, true, false, 0, 31},
        EntryLaunch{8, false, false, 16, 32}, EntryLaunch{1, false, true, 0, 0, true},
        EntryLaunch{16, true, false, 32, 31, true}, EntryLaunch{16, false, false, 0, 0, true, 1},
        EntryLaunch{8, true, false, 64, 32, false, 1},
        EntryLaunch{8, false, true, 48, 0, true, 0, true}}) {
    CAPTURE(launch.coarsen);
    const DecodedEntry d = decode_entry(encode_entry("k", spirv, binary, launch));
    REQUIRE_MESSAGE(d.ok(), d.error);
    CHECK(d.entry.launch == launch);
  }
  auto bad = encode_entry("k", spirv, binary, {0, false});
  CHECK(std::string(decode_entry(bad).error) == "coarsening width out of range");
  bad = encode_entry("k", spirv, binary, {entry_max_coarsen + 1, false});
  CHECK(std::string(decode_entry(bad).error) == "coarsening width out of range");
  // A flag this version does not know (bit 7), or both index widths at once, is refused, not
  // ignored.
  bad = encode_entry("k", spirv, binary, {1, false, false});
  bad[13] = 128;
  CHECK(std::string(decode_entry(bad).error) == "unknown launch flags");
  bad[13] = 12;
  CHECK(std::string(decode_entry(bad).error) == "unknown launch flags");
  // Groups in dimension 1, or for a kernel not coarsened: no compile writes them.
  bad = encode_entry("k", spirv, binary, {8, false, false});
  bad[13] = 96;
  CHECK(std::string(decode_entry(bad).error) == "unknown launch flags");
  bad = encode_entry("k", spirv, binary, {1, false, false});
  bad[13] = 64;
  CHECK(std::string(decode_entry(bad).error) == "unknown launch flags");
}

TEST_CASE("the entry reader rejects every truncation and every flipped byte") {
  const auto good = sample();
  for (std::size_t n = 0; n < good.size(); ++n) {
    CAPTURE(n);
    CHECK_FALSE(decode_entry(std::span(good).first(n)).ok());
  }
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (std::uint8_t bit : {0x01, 0x80}) {
      auto bad = good;
      bad[i] ^= bit;
      CAPTURE(i);
      CHECK_FALSE(decode_entry(bad).ok());
    }
  }
  auto longer = good;
  longer.push_back(0);
  CHECK_FALSE(decode_entry(longer).ok());
}

TEST_CASE("the entry reader names what is wrong") {
  CHECK(std::string(decode_entry({}).error) == "truncated header");
  auto bad = sample();
  bad[0] = 'X';
  CHECK(std::string(decode_entry(bad).error) == "bad magic");
  bad = sample();
  bad[8] = 99;
  CHECK(std::string(decode_entry(bad).error) == "unsupported format version");
  bad = sample();
  bad[16 + 7] = 0xFF;  // key length near 2^64: must not wrap the size check
  CHECK(std::string(decode_entry(bad).error).find("lengths") == 0);
  bad = sample();
  bad.back() ^= 1;
  CHECK(std::string(decode_entry(bad).error) == "checksum mismatch");
  // Valid framing around content that is not SPIR-V or lacks a binary.
  const std::vector<std::uint32_t> not_spirv = {1, 2, 3, 4, 5};
  CHECK(std::string(decode_entry(encode_entry("k", not_spirv, binary)).error) ==
        "bad SPIR-V magic");
  CHECK(std::string(decode_entry(encode_entry("k", spirv, {})).error) == "empty device binary");
  CHECK(std::string(decode_entry(encode_entry("", spirv, binary)).error) == "empty key");
}

TEST_CASE("the cache key changes with each of its parts and nothing else") {
  DeviceInfo device;
  device.platform_name = "Portable Computing Language";
  device.platform_version = "OpenCL 3.0 PoCL 6.0";
  device.name = "cpu-haswell";
  device.version = "OpenCL 3.0";
  device.driver_version = "6.0";
  const std::vector<Param> params = {
      Param{"Z", ParamKind::Pointer, Scalar::F32, AddressSpace::Global, false},
      Param{"a", ParamKind::Scalar, Scalar::F32, AddressSpace::Private, false}};
  const KeyInputs base{"saxpy", "define spir_kernel void @saxpy() { ret void }",
                       params,  true,
                       {},      "",
                       &device, ToolVersions::current()};
  const std::string base_key = cache_key(base);
  CHECK(cache_key(base) == base_key);  // deterministic
  CHECK(cache_file_name(base_key) == cache_file_name(cache_key(base)));
  CHECK(cache_file_name(base_key).size() == 32 + 5);

  std::vector<KeyInputs> variants;
  auto vary = [&](auto change) {
    KeyInputs k = base;
    change(k);
    variants.push_back(k);
  };
  vary([](KeyInputs& k) { k.kernel_name = "saxpy2"; });
  vary([](KeyInputs& k) { k.ir_text = "define spir_kernel void @saxpy() { unreachable }"; });
  std::vector<Param> f64 = params;
  f64[1].type = Scalar::F64;
  vary([&](KeyInputs& k) { k.params = f64; });
  std::vector<Param> ro = params;
  ro[0].read_only = true;
  vary([&](KeyInputs& k) { k.params = ro; });
  std::vector<Param> matrix = params;  // GlobalArray<float, 2>, then column-major
  matrix[0].rank = 2;
  vary([&](KeyInputs& k) { k.params = matrix; });
  std::vector<Param> column_major = matrix;
  column_major[0].layout = Layout::ColumnMajor;
  vary([&](KeyInputs& k) { k.params = column_major; });
  vary([](KeyInputs& k) { k.hidden_ndrange = false; });
  vary([](KeyInputs& k) { k.spec.workgroup = WorkGroup{64}; });
  vary([](KeyInputs& k) { k.spec.workgroup = WorkGroup{64, 1}; });  // same sizes, 2D
  vary([](KeyInputs& k) { k.spec.ndrange = NDRange{1024}; });
  vary([](KeyInputs& k) { k.build_options = "-cl-mad-enable"; });
  vary([](KeyInputs& k) { k.tools.library = "9.9.9"; });
  vary([](KeyInputs& k) { k.tools.llvm = "16.0.0"; });
  vary([](KeyInputs& k) { k.tools.translator = "15.0.1"; });
  std::vector<DeviceInfo> devices(5, device);
  devices[0].platform_name = "Other";
  devices[1].platform_version = "OpenCL 3.0 PoCL 6.1";
  devices[2].name = "cpu-skylake";
  devices[3].version = "OpenCL 2.0";
  devices[4].driver_version = "6.1";
  for (const auto& d : devices) vary([&](KeyInputs& k) { k.device = &d; });

  std::set<std::string> files = {cache_file_name(base_key)};
  for (std::size_t i = 0; i < variants.size(); ++i) {
    CAPTURE(i);
    const std::string key = cache_key(variants[i]);
    CHECK(key != base_key);
    files.insert(cache_file_name(key));
  }
  CHECK(files.size() == variants.size() + 1);

  // Field values cannot run into each other: lengths are written out.
  KeyInputs a = base, b = base;
  a.kernel_name = "ab";
  a.build_options = "c";
  b.kernel_name = "a";
  b.build_options = "bc";
  CHECK(cache_key(a) != cache_key(b));
}

TEST_CASE("the entry reader survives random damage and only accepts in-bounds views") {
  const auto good = sample();
  std::mt19937 rng(12345);  // fixed seed: a failure reproduces
  for (int round = 0; round < 20000; ++round) {
    auto bytes = good;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      switch (rng() % 3) {
        case 0:
          bytes[rng() % bytes.size()] = static_cast<std::uint8_t>(rng());
          break;
        case 1:
          bytes.resize(rng() % (bytes.size() + 1));
          break;
        case 2:
          bytes.push_back(static_cast<std::uint8_t>(rng()));
          break;
      }
      if (bytes.empty()) bytes.push_back(0);
    }
    const DecodedEntry d = decode_entry(bytes);
    if (!d.ok()) continue;
    // Accepted: only if it is the original (a checksum collision would need ~2^64 tries).
    CHECK(bytes == good);
  }
}
