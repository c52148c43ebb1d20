#include "jit/cache/kernel_table.hpp"

#include <memory>
#include <utility>

namespace spvjit::detail {

namespace {

std::array<std::size_t, 4> extent_key(const std::optional<Extent3>& e) noexcept {
  if (!e) return {0, 0, 0, 0};
  return {e->dims, e->size[0], e->size[1], e->size[2]};
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) noexcept {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

bool same_params(const KernelModule& a, const KernelModule& b) noexcept {
  if (a.params.size() != b.params.size()) return false;
  for (std::size_t i = 0; i < a.params.size(); ++i) {
    const Param& p = a.params[i];
    const Param& q = b.params[i];
    const StructLayout* ps = p.struct_layout.get();
    const StructLayout* qs = q.struct_layout.get();
    if (p.name != q.name || p.kind != q.kind || p.type != q.type || p.space != q.space ||
        p.read_only != q.read_only || p.lanes != q.lanes || (ps == nullptr) != (qs == nullptr) ||
        (ps &&
         (ps->name() != qs->name() || !ps->same_shape(*qs) || ps->by_shape() != qs->by_shape()))) {
      return false;
    }
  }
  return true;
}

// The same module object is the common case and costs one compare; a rebuilt definition with
// equal content compares the IR text, which a 64-bit hash alone cannot vouch for.
bool same_content(const KernelDef& a, const KernelDef& b) noexcept {
  const KernelModule& x = detail::kernel_module(a);
  const KernelModule& y = detail::kernel_module(b);
  if (&x == &y) return true;
  // Padding is a declaration (allow_padding(), guards_own_bounds), not always in the IR.
  return x.hash == y.hash && x.name == y.name && x.hidden_ndrange() == y.hidden_ndrange() &&
         x.pads_safely == y.pads_safely && x.declared_elementwise == y.declared_elementwise &&
         x.work_per_item == y.work_per_item &&
         ((x.raw && x.raw == y.raw) || x.module_ir() == y.module_ir()) && same_params(x, y);
}

bool matches(const KernelTable::Node& n, const MemoryKey& k) noexcept {
  return n.hash == k.hash && n.workgroup == k.workgroup && n.ndrange == k.ndrange &&
         same_content(n.def, *k.def);
}

}  // namespace

MemoryKey memory_key(const KernelDef& def, const Specialization& spec) noexcept {
  MemoryKey k;
  k.def = &def;
  k.workgroup = extent_key(spec.workgroup);
  k.ndrange = extent_key(spec.ndrange);
  k.hash = detail::kernel_module(def).hash;
  for (auto v : k.workgroup) k.hash = mix(k.hash, v);
  for (auto v : k.ndrange) k.hash = mix(k.hash, v);
  return k;
}

KernelTable::~KernelTable() {
  for (auto& head : buckets_) {
    for (Node* n = head.load(std::memory_order_relaxed); n;) delete std::exchange(n, n->next);
  }
}

KernelTable::Node* KernelTable::find(const MemoryKey& key) const noexcept {
  for (Node* n = buckets_[key.hash % bucket_count].load(std::memory_order_acquire); n;
       n = n->next) {
    if (matches(*n, key)) return n;
  }
  return nullptr;
}

KernelTable::Node& KernelTable::find_or_insert(const MemoryKey& key) {
  std::lock_guard<std::mutex> lock(insert_mutex_);
  if (Node* n = find(key)) return *n;
  auto& head = buckets_[key.hash % bucket_count];
  auto n = std::make_unique<Node>();
  n->hash = key.hash;
  n->def = *key.def;
  n->workgroup = key.workgroup;
  n->ndrange = key.ndrange;
  n->next = head.load(std::memory_order_relaxed);
  // Release: a reader that sees the new head sees the node's fields too. The table owns the
  // node from here on (freed in ~KernelTable).
  Node* linked = n.release();
  head.store(linked, std::memory_order_release);
  return *linked;
}

}  // namespace spvjit::detail
