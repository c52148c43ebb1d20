// Linear indices and the group count, composed from the per-dimension builtins.
#include "spvjit/index.hpp"

#include "common/error_report.hpp"
#include "ir/state.hpp"
#include "ir/work_item_builtins.hpp"
#include "ir/handles.hpp"

namespace spvjit {

Val<std::int64_t> num_groups(KernelBuilder& kb, unsigned dim) {
  auto& s = *detail::state_of(kb);
  s.check_open("num_groups");
  user_assert(dim <= 2, {"num_groups", s.name})
      << "dimension " << dim << " is out of range; expected 0, 1 or 2";
  auto* call = s.call_builtin(detail::builtin::num_groups, s.ir.getInt64Ty(), {s.ir.getInt32(dim)});
  return Val<std::int64_t>(detail::make_value(&s, call, Scalar::I64));
}

namespace {
// i0 + n0 * (i1 + n1 * i2)
template <class Index, class Extent>
Val<std::int64_t> linearize(Index index, Extent extent) {
  return index(0) + extent(0) * (index(1) + extent(1) * index(2));
}
}  // namespace

Val<std::int64_t> global_linear(KernelBuilder& kb) {
  return linearize([&](unsigned d) { return kb.global_index(d); },
                   [&](unsigned d) { return kb.ndrange(d); });
}
Val<std::int64_t> local_linear(KernelBuilder& kb) {
  return linearize([&](unsigned d) { return kb.local_index(d); },
                   [&](unsigned d) { return kb.group_size(d); });
}
Val<std::int64_t> group_linear(KernelBuilder& kb) {
  return linearize([&](unsigned d) { return kb.group_index(d); },
                   [&](unsigned d) { return num_groups(kb, d); });
}

}  // namespace spvjit
