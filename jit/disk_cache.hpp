// The persistent kernel cache: one file per key (cache_entry.hpp) in one directory. Writes go to
// a temporary file renamed into place, so a reader or a second process sees a whole entry or
// none; a corrupt entry is removed with a warning and reads as a miss; a directory that cannot be
// written turns the cache off for this Jit with one warning; past the size cap the least
// recently used entries (by mtime, refreshed on every hit) are deleted.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "jit/cache_entry.hpp"
#include "spvjit/jit.hpp"

namespace spvjit::detail {

struct DiskCacheSettings {
  bool enabled = false;
  std::string dir;
  std::uint64_t max_bytes = 0;
};

/// Resolves `options` against the environment: SPVJIT_CACHE=off disables the cache; the
/// directory is options.cache_dir, else $SPVJIT_CACHE_DIR, else $XDG_CACHE_HOME/spvjit, else
/// $HOME/.cache/spvjit (the passwd entry's home when HOME is unset).
DiskCacheSettings disk_cache_settings(const JitOptions& options);

class DiskCache {
 public:
  explicit DiskCache(DiskCacheSettings settings);

  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }
  const std::string& dir() const { return settings_.dir; }

  struct Loaded {
    std::vector<std::uint8_t> bytes;
    CacheEntry entry;  ///< views into `bytes`
  };
  /// The entry stored under `key`, or nothing (missing, another key, or corrupt: removed).
  std::optional<Loaded> load(const std::string& key);
  /// Writes the entry atomically, then evicts past the cap. Failure disables the cache.
  void store(const std::string& key, std::span<const std::uint32_t> spirv,
             std::span<const std::uint8_t> binary);
  /// Deletes the entry for `key` (the device rejected its binary).
  void remove(const std::string& key);
  /// The path of the entry for `key`.
  std::string path_for(const std::string& key) const;

 private:
  void disable(const std::string& why);
  void evict();

  DiskCacheSettings settings_;
  std::atomic<bool> enabled_;
};

}  // namespace spvjit::detail
