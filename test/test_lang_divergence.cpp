// Barriers that only some work-items of a group reach hang the launch: finish() refuses them
// (ir/analysis/barriers_uniform.hpp), naming the kernel, the condition and the index it depends on.
// Barriers every work-item reaches (in uniform loops, under conditions on the group or a parameter,
// after an `if lid < s` closes, on a var once it holds a value the group shares) still build,
// and run right.
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "test/lang_support.hpp"

using namespace spvjit;

namespace {

constexpr std::int64_t group = 8;

using Body = std::function<void(KernelBuilder&, Global<std::int32_t>, Val<std::int64_t>)>;

// finish() of a kernel whose body `body` builds throws a UserError with each of `parts`.
void check_refused(const char* name, const Body& body, std::initializer_list<const char*> parts) {
  KernelBuilder kb(name);
  auto out = kb.param<Global<std::int32_t>>("out");
  body(kb, out, kb.local_index());
  std::string message;
  try {
    kb.finish();
  } catch (const UserError& e) {
    message = e.what();
  }
  INFO("kernel ", name, ": ", message);
  REQUIRE_FALSE(message.empty());
  CHECK(message.find("kernel '" + std::string(name) + "'") != std::string::npos);
  CHECK(message.find("every work-item of a group must reach each barrier") != std::string::npos);
  for (const char* p : parts) CHECK(message.find(p) != std::string::npos);
}

Val<std::int64_t> lit64(KernelBuilder& kb, std::int64_t v) { return kb.lit(v); }

// Runs `def` over 3 groups of 8 with `extra` set, and returns out (24 ints, zeros first).
std::vector<std::int32_t> run(const KernelDef& def, std::int64_t extra) {
  auto& rt = test::runtime();
  Kernel k = test::compile_checked(def, test::static_workgroup(WorkGroup{group}));
  auto out = rt.zeros<std::int32_t>(3 * group);
  k.launch(NDRange{3 * group}, out, extra);
  rt.synchronize();
  return out.to_vector();
}

}  // namespace

TEST_CASE("divergence: a barrier under an if on the local or global index is refused") {
  check_refused(
      "on_local",
      [](KernelBuilder& kb, auto, auto lid) {
        kb.if_(lid < 5, [&] { barrier(kb, Fence::Local); });
      },
      {"barrier under a condition that differs between work-items", "local_index(0)", "icmp"});
  check_refused(
      "on_global",
      [](KernelBuilder& kb, auto, auto) { kb.if_(kb.global_index(1) < 5, [&] { barrier(kb); }); },
      {"global_index(1)"});
  check_refused("on_in_ndrange",
                [](KernelBuilder& kb, auto out, auto) {
                  kb.if_(kb.in_ndrange(), [&] {
                    out[kb.global_index()] = 1;
                    barrier(kb);
                  });
                },
                {"in_ndrange()"});
  check_refused("nested",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto p = kb.param<std::int32_t>("p");
                  kb.if_(lid == 0, [&] { kb.if_(p > 0, [&] { barrier(kb); }); });
                },
                {"local_index(0)"});
  check_refused("on_else",
                [](KernelBuilder& kb, auto out, auto lid) {
                  kb.if_else(
                      lid < 2, [&] { out[lid] = 1; }, [&] { barrier(kb); });
                },
                {"local_index(0)"});
}

TEST_CASE("divergence: conditions on values that depend on the index are refused") {
  check_refused("loaded_at_index",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto in = kb.param<Const<float>>("in");
                  kb.if_(in[lid] > 0.0f, [&] { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("local_at_index",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto tile = local_array<std::int32_t>(kb, {group}, "tile");
                  tile(lid) = 1;
                  barrier(kb);
                  kb.if_(tile(lid).get() == 1, [&] { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("var_assigned_under_if",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto flag = kb.var(false);
                  kb.if_(lid == 0, [&] { flag = kb.lit(true); });
                  kb.if_(flag, [&] { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("var_assigned_index",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto n = kb.var<std::int64_t>(0);
                  n = lid * 2;
                  kb.if_(n > 3, [&] { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("private_array_at_index",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto priv = private_array<std::int32_t>(kb, {group});
                  priv(0) = 0;
                  priv(lid) = 5;
                  kb.if_(priv(0).get() == 5, [&] { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("atomic_result",
                [](KernelBuilder& kb, auto out, auto) {
                  auto old = atomic_add(out[0], 1);
                  kb.if_(old == 0, [&] { barrier(kb); });
                },
                {"atomic"});
  check_refused("device_function_of_index",
                [](KernelBuilder& kb, auto, auto) {
                  auto id =
                      device_function<std::int64_t()>(kb, "id", [&] { return kb.local_index(); });
                  kb.if_(id() < 3, [&] { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("select_of_index",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto c = select(lid < 3, kb.lit(1), kb.lit(0));
                  kb.if_(c == 1, [&] { barrier(kb); });
                },
                {"local_index(0)"});
}

TEST_CASE("divergence: early exits and loops some work-items leave early are refused") {
  check_refused("early_return",
                [](KernelBuilder& kb, auto out, auto lid) {
                  kb.if_(lid >= 4, [&] { kb.return_(); });
                  barrier(kb);
                  out[lid] = 1;
                },
                {"barrier after a return_()", "only some work-items", "local_index(0)"});
  check_refused("trip_count",
                [](KernelBuilder& kb, auto, auto lid) {
                  kb.for_(lit64(kb, 0), lid, lit64(kb, 1), [&](Val<std::int64_t>) { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("while_counter",
                [](KernelBuilder& kb, auto, auto lid) {
                  auto k = kb.var(lid);
                  kb.while_([&] { return k < 8; },
                            [&] {
                              barrier(kb);
                              k = k + 1;
                            });
                },
                {"local_index(0)"});
  check_refused("divergent_break",
                [](KernelBuilder& kb, auto, auto lid) {
                  kb.for_(lit64(kb, 0), lit64(kb, 4), lit64(kb, 1), [&](Val<std::int64_t> t) {
                    kb.if_(lid == t, [&] { kb.break_(); });
                    barrier(kb);
                  });
                },
                {"break_()", "local_index(0)"});
  check_refused("divergent_continue",
                [](KernelBuilder& kb, auto, auto lid) {
                  kb.for_(lit64(kb, 0), lit64(kb, 4), lit64(kb, 1), [&](Val<std::int64_t> t) {
                    kb.if_(lid < t, [&] { kb.continue_(); });
                    barrier(kb);
                  });
                },
                {"continue_()", "local_index(0)"});
  check_refused("after_divergent_loop",
                [](KernelBuilder& kb, auto, auto lid) {
                  // The counter leaves the loop at a different value in each work-item.
                  auto k = kb.var<std::int64_t>(0);
                  kb.while_([&] { return k < lid; }, [&] { k = k + 1; });
                  kb.if_(k == 3, [&] { barrier(kb); });
                },
                {"local_index(0)"});
  check_refused("stored_after_divergent_loop",
                [](KernelBuilder& kb, auto, auto lid) {
                  // Stored into a private array after the loop, the counter differs as much.
                  auto k = kb.var<std::int64_t>(0);
                  kb.while_([&] { return k < lid; }, [&] { k = k + 1; });
                  auto saved = private_array<std::int64_t>(kb, {2});
                  saved(0) = k;
                  kb.if_(saved(0).get() == 3, [&] { barrier(kb); });
                },
                {"barrier under a condition that differs", "local_index(0)"});
}

TEST_CASE("divergence: barriers every work-item reaches build and run") {
  SUBCASE("in a loop with uniform bounds, a parameter") {
    KernelBuilder kb("rotate_rounds");
    auto out = kb.param<Global<std::int32_t>>("out");
    auto rounds = kb.param<std::int64_t>("rounds");
    auto tile = local_array<std::int32_t>(kb, {group}, "tile");
    auto lid = kb.local_index();
    auto v = kb.var(cast<std::int32_t>(kb.global_index()));
    kb.for_(lit64(kb, 0), rounds, lit64(kb, 1), [&](Val<std::int64_t>) {
      tile(lid) = v.get();
      barrier(kb);
      v = tile(select(lid == group - 1, kb.lit<std::int64_t>(0), lid + 1)).get();
      barrier(kb);
    });
    out[kb.global_index()] = v.get();
    const auto got = run(kb.finish(), 3);
    for (std::int64_t i = 0; i < 3 * group; ++i) {
      CHECK(got[i] == (i / group) * group + (i % group + 3) % group);
    }
  }
  SUBCASE("under a condition on the group index") {
    KernelBuilder kb("group_condition");
    auto out = kb.param<Global<std::int32_t>>("out");
    auto which = kb.param<std::int64_t>("which");
    auto tile = local_array<std::int32_t>(kb, {group}, "tile");
    auto lid = kb.local_index();
    auto gid = kb.global_index();
    kb.if_else(
        kb.group_index() == which,
        [&] {
          tile(lid) = cast<std::int32_t>(lid) * 10;
          barrier(kb);
          out[gid] = tile(group - 1 - lid).get();
        },
        [&] { out[gid] = -1; });
    const auto got = run(kb.finish(), 1);
    for (std::int64_t i = 0; i < 3 * group; ++i) {
      CHECK(got[i] == (i / group == 1 ? (group - 1 - i % group) * 10 : -1));
    }
  }
  SUBCASE("under a condition on a parameter, and after a return_ on one") {
    KernelBuilder kb("param_condition");
    auto out = kb.param<Global<std::int32_t>>("out");
    auto flag = kb.param<std::int64_t>("flag");
    auto tile = local_array<std::int32_t>(kb, {group}, "tile");
    auto lid = kb.local_index();
    auto gid = kb.global_index();
    kb.if_(flag < 0, [&] { kb.return_(); });
    kb.if_(flag > 0, [&] {
      tile(lid) = cast<std::int32_t>(gid);
      barrier(kb);
      out[gid] = tile(group - 1 - lid).get() + 1000;
    });
    const KernelDef def = kb.finish();
    const auto got = run(def, 1);
    for (std::int64_t i = 0; i < 3 * group; ++i) {
      CHECK(got[i] == (i / group) * group + (group - 1 - i % group) + 1000);
    }
    CHECK(run(def, 0) == std::vector<std::int32_t>(3 * group, 0));
    CHECK(run(def, -1) == std::vector<std::int32_t>(3 * group, 0));
  }
  SUBCASE("after `if lid < s` closes, in a halving while loop") {
    KernelBuilder kb("tree_sum");
    auto out = kb.param<Global<std::int32_t>>("out");
    auto scale = kb.param<std::int64_t>("scale");
    auto tile = local_array<std::int32_t>(kb, {group}, "tile");
    auto lid = kb.local_index();
    tile(lid) = cast<std::int32_t>(kb.global_index() * scale);
    barrier(kb);
    auto s = kb.var<std::int64_t>(kb.group_size() / 2);
    kb.while_([&] { return s > 0; },
              [&] {
                kb.if_(lid < s, [&] { tile(lid) = tile(lid).get() + tile(lid + s).get(); });
                barrier(kb);
                s = s / 2;
              });
    // A value every work-item loads from one address is uniform: it may bound a loop.
    auto total = tile(0).get();
    auto rounds = kb.var<std::int32_t>(0);
    kb.for_(lit64(kb, 0), cast<std::int64_t>(total) % std::int64_t{3}, lit64(kb, 1),
            [&](Val<std::int64_t>) {
              barrier(kb);
              rounds += 1;
            });
    kb.if_(lid == 0, [&] { out[kb.group_index()] = total; });
    kb.if_(lid == 1, [&] { out[kb.group_index() + 3] = rounds.get(); });
    const auto got = run(kb.finish(), 2);
    for (std::int64_t g = 0; g < 3; ++g) {
      std::int32_t sum = 0;
      for (std::int64_t l = 0; l < group; ++l) {
        sum += static_cast<std::int32_t>((g * group + l) * 2);
      }
      CHECK(got[g] == sum);
      CHECK(got[g + 3] == sum % 3);
    }
  }
  SUBCASE("a var reassigned a value the whole group shares") {
    KernelBuilder kb("reassigned");
    auto out = kb.param<Global<std::int32_t>>("out");
    auto bias = kb.param<std::int64_t>("bias");
    auto tile = local_array<std::int32_t>(kb, {group}, "tile");
    auto lid = kb.local_index();
    auto x = kb.var(cast<std::int32_t>(lid));
    tile(lid) = x.get() + cast<std::int32_t>(bias);
    barrier(kb);
    x = tile(0).get();
    kb.if_(x > 0, [&] {
      // Every work-item has read tile(0) before any writes it: without this barrier the read
      // and the writes race, and a schedule that runs the group's work-items one after another
      // (spvjit's group loops, KernelAbstractions' CPU backend) reads 7.
      barrier(kb);
      tile(lid) = 7;
      barrier(kb);
      out[kb.global_index()] = tile(group - 1 - lid).get() + x.get();
    });
    CHECK(run(kb.finish(), 1) == std::vector<std::int32_t>(3 * group, 8));
  }
  SUBCASE("a break on a uniform condition in a loop with a barrier") {
    KernelBuilder kb("uniform_break");
    auto out = kb.param<Global<std::int32_t>>("out");
    auto limit = kb.param<std::int64_t>("limit");
    auto count = kb.var<std::int32_t>(0);
    kb.for_(lit64(kb, 0), lit64(kb, 100), lit64(kb, 1), [&](Val<std::int64_t> t) {
      kb.if_(t == limit, [&] { kb.break_(); });
      barrier(kb);
      count += 1;
    });
    out[kb.global_index()] = count.get();
    CHECK(run(kb.finish(), 5) == std::vector<std::int32_t>(3 * group, 5));
  }
}
