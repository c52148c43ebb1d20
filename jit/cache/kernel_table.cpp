#include "jit/cache/kernel_table.hpp"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/launch_state.hpp"

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
    for (Node* n = head.load(std::memory_order_relaxed); n;) {
      delete std::exchange(n, n->next.load(std::memory_order_relaxed));
    }
  }
}

KernelTable::Node* KernelTable::find(const MemoryKey& key) const noexcept {
  for (Node* n = buckets_[key.hash % bucket_count].load(std::memory_order_seq_cst); n;
       n = n->next.load(std::memory_order_seq_cst)) {
    if (matches(*n, key)) return n;
  }
  return nullptr;
}

// A store only when the clock moved since the node's last use: threads launching one kernel
// read its line, they do not take turns writing it. Uses are odd times, insertions even ones:
// a kernel used after the latest insertion is the more recent of the two.
void KernelTable::touch(Node& node) const noexcept {
  const std::uint64_t now = 2 * clock_.load(std::memory_order_relaxed) + 1;
  if (node.last_used.load(std::memory_order_relaxed) != now) {
    node.last_used.store(now, std::memory_order_relaxed);
  }
}

bool KernelTable::lookup(const MemoryKey& key, Kernel& out) noexcept {
  const auto section = ReadSections::process().enter();
  Node* n = find(key);
  if (!n || !n->ready.load(std::memory_order_acquire)) return false;
  out = n->kernel;  // a handle of our own before the section ends: eviction may free the node
  touch(*n);
  hits_.add(section.slot());
  return true;
}

KernelTable::Pin KernelTable::pin(const MemoryKey& key) {
  misses_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(links_mutex_);
  clock_.fetch_add(1, std::memory_order_relaxed);
  Node* n = find(key);
  if (!n) {
    auto& head = buckets_[key.hash % bucket_count];
    auto made = std::make_unique<Node>();
    made->hash = key.hash;
    made->def = *key.def;
    made->workgroup = key.workgroup;
    made->ndrange = key.ndrange;
    made->next.store(head.load(std::memory_order_relaxed), std::memory_order_relaxed);
    // A reader that sees the new head sees the node's fields too. The table owns the node from
    // here on (freed by evict() or ~KernelTable).
    n = made.release();
    head.store(n, std::memory_order_seq_cst);
  }
  // Under links_mutex_, where evict() reads pins: a pinned node is never chosen.
  n->pins.fetch_add(1, std::memory_order_relaxed);
  n->last_used.store(2 * clock_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  return Pin(*n);
}

void KernelTable::publish(Node& node, Kernel kernel, std::uint64_t bytes) {
  node.kernel = std::move(kernel);
  node.bytes = bytes;
  node.ready.store(true, std::memory_order_release);
  entries_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(bytes, std::memory_order_relaxed);
  if (bytes_.load(std::memory_order_relaxed) > budget_) evict();
}

void KernelTable::evict() {
  std::vector<Node*> unlinked;
  {
    std::lock_guard<std::mutex> lock(links_mutex_);
    // Candidates: compiled, not pinned, held by no handle but ours (a lookup racing with this
    // may take a handle right after; it keeps the kernel alive, only the entry goes).
    std::vector<Node*> candidates;
    std::uint64_t held = 0;
    for (auto& head : buckets_) {
      for (Node* n = head.load(std::memory_order_relaxed); n;
           n = n->next.load(std::memory_order_relaxed)) {
        const bool pinned = n->pins.load(std::memory_order_acquire) != 0;
        const bool ready = n->ready.load(std::memory_order_acquire);
        if (ready) held += n->bytes;
        if (pinned) continue;
        // Not compiled and not pinned: its compile threw. Nothing will fill it in.
        if (!ready || KernelAccess::holders(n->kernel) == 1) candidates.push_back(n);
      }
    }
    std::sort(candidates.begin(), candidates.end(), [](const Node* a, const Node* b) {
      const bool a_failed = !a->ready.load(std::memory_order_relaxed);
      const bool b_failed = !b->ready.load(std::memory_order_relaxed);
      if (a_failed != b_failed) return a_failed;  // failed compiles first: they cost nothing
      return a->last_used.load(std::memory_order_relaxed) <
             b->last_used.load(std::memory_order_relaxed);
    });
    for (Node* victim : candidates) {
      const bool failed = !victim->ready.load(std::memory_order_relaxed);
      if (!failed && held <= budget_) break;
      auto* link = &buckets_[victim->hash % bucket_count];
      while (link->load(std::memory_order_relaxed) != victim) {
        link = &link->load(std::memory_order_relaxed)->next;
      }
      link->store(victim->next.load(std::memory_order_relaxed), std::memory_order_seq_cst);
      unlinked.push_back(victim);
      if (!failed) {
        held -= victim->bytes;
        bytes_.fetch_sub(victim->bytes, std::memory_order_relaxed);
        entries_.fetch_sub(1, std::memory_order_relaxed);
        evictions_.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
  if (unlinked.empty()) return;
  ReadSections::process().wait_for_readers();
  // Outside the links: freeing a kernel releases its OpenCL objects.
  for (Node* n : unlinked) delete n;
}

TableCounts KernelTable::counts() const noexcept {
  TableCounts c;
  c.hits = hits_.sum();
  c.misses = misses_.load(std::memory_order_relaxed);
  c.evictions = evictions_.load(std::memory_order_relaxed);
  c.entries = entries_.load(std::memory_order_relaxed);
  c.bytes = bytes_.load(std::memory_order_relaxed);
  return c;
}

}  // namespace spvjit::detail
