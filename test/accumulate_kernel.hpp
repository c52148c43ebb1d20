// acc[i] += b: after L launches with b = t + 1, every element is exactly L * (t + 1), so a
// launch that ran with another thread's buffer or scalar shows up as a wrong sum. Shared by the
// thread tests and the adaptive-dispatch probe.
#pragma once

#include "spvjit/spvjit.hpp"

namespace spvjit::test {

inline KernelDef accumulate_kernel() {
  KernelBuilder kb("accumulate_f64");
  auto acc = kb.param<Global<double>>("acc");
  auto b = kb.param<double>("b");
  auto i = kb.global_index();
  kb.if_(kb.in_ndrange(), [&] { acc[i] = acc[i].get() + b; });
  return kb.finish();
}

/// counter[0] += 1 atomically, once per work-item.
inline KernelDef counting_kernel() {
  KernelBuilder kb("count_work_items");
  auto counter = kb.param<Global<std::int32_t>>("counter");
  kb.if_(kb.in_ndrange(), [&] { atomic_add(counter[0], std::int32_t{1}); });
  return kb.finish();
}

}  // namespace spvjit::test
