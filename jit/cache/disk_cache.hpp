// The persistent kernel cache: one file per key (cache_entry.hpp) in one directory. Writes go to
// a temporary file renamed into place, so a reader or a second process sees a whole entry or
// none; a corrupt entry is removed with a warning and reads as a miss; a directory that cannot be
// written turns the cache off for this Jit with one warning; past the size cap the least
// recently used entries (by mtime, refreshed on every hit) are deleted. Nothing at an entry's
// path can hang or exhaust a compile: see load().
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "jit/cache/cache_entry.hpp"
#include "spvjit/jit.hpp"

namespace spvjit::detail {

/// The largest entry the cache reads or writes, whatever its byte budget: an entry is read whole
/// into memory, so this bounds what one load may take. saxpy's entries measured 54-109 KB.
inline constexpr std::uint64_t max_entry_size = std::uint64_t{256} << 20;

struct DiskCacheSettings {
  bool enabled = false;
  std::string dir;
  std::uint64_t max_bytes = 0;
};

/// Resolves `options` against the environment: SPVJIT_CACHE off disables the cache (a value
/// that is no flag throws UserError, common/env.hpp); the directory is options.cache_dir, else
/// $SPVJIT_CACHE_DIR, else $XDG_CACHE_HOME/spvjit, else $HOME/.cache/spvjit (the passwd
/// entry's home when HOME is unset).
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
  /// The entry stored under `key`, or nothing: missing, another key, or rejected with one
  /// warning. A corrupt entry, one larger than max_entry_bytes() and anything at its path that
  /// is not a regular file (a symlink, a FIFO: opened without following or blocking) are
  /// removed; a directory or a file that cannot be opened is left alone.
  std::optional<Loaded> load(const std::string& key);
  /// Writes the entry atomically, then evicts past the cap; true when written. Failure disables
  /// the cache; an entry above max_entry_bytes() or a directory at its path leaves this one
  /// entry unwritten.
  bool store(const std::string& key, std::span<const std::uint32_t> spirv,
             std::span<const std::uint8_t> binary, EntryLaunch launch);
  /// Deletes the entry for `key` (the device rejected its binary).
  void remove(const std::string& key);
  /// The path of the entry for `key`.
  std::string path_for(const std::string& key) const;
  /// The byte budget, at most max_entry_size: an entry above the budget would be evicted at
  /// once anyway.
  std::uint64_t max_entry_bytes() const;

 private:
  void disable(const std::string& why);
  void evict();

  DiskCacheSettings settings_;
  std::atomic<bool> enabled_;
};

}  // namespace spvjit::detail
