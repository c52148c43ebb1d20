#include "jit/cache/disk_cache.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "jit/cache/cache_key.hpp"
#include "common/log.hpp"
#include "common/env.hpp"

namespace spvjit::detail {

namespace fs = std::filesystem;

namespace {

constexpr const char* entry_suffix = ".spvk";
constexpr const char* temp_marker = ".tmp.";
// A temporary file this old belongs to a writer that died (a compile takes about a second).
constexpr auto stale_temp_age = std::chrono::minutes(10);
// Temporary names are <entry>.tmp.<pid>.<n>: unique across processes by pid, and across the
// Jits and threads of one process by this counter (O_EXCL would fail on a repeat).
std::atomic<std::uint64_t> temp_counter{0};

std::string default_dir() {
  if (auto d = env_value("SPVJIT_CACHE_DIR")) return *d;
  if (auto x = env_value("XDG_CACHE_HOME"); x && (*x)[0] == '/') return *x + "/spvjit";
  std::string home = env_value("HOME").value_or(std::string());
  if (home.empty()) {
    if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_dir) home = pw->pw_dir;
  }
  return home.empty() ? std::string() : home + "/.cache/spvjit";
}

// What is at an entry's path, as read_entry_file found it.
enum class Found { missing, entry, not_regular, directory, too_large };

const char* kind_of(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Reads the regular file at `path` into `out` when it holds at most `limit` bytes. The open
// neither blocks (a FIFO would block open() until a writer came) nor follows a symlink, and the
// descriptor is checked with fstat before a byte is read, so the size is the file's own. A file
// that cannot be opened reads as missing, as before: store() replaces it, or reports the
// directory's problem once.
Found read_entry_file(const std::string& path, std::uint64_t limit, std::vector<std::uint8_t>& out,
                      std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    // O_NOFOLLOW fails a symlink with ELOOP, a socket fails with ENXIO: say which it was.
    struct stat st {};
    if (errno != ENOENT && ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISDIR(st.st_mode)) {
      return what = kind_of(st.st_mode), Found::not_regular;
    }
    return Found::missing;
  }
  struct stat st {};
  Found found = Found::entry;
  if (::fstat(fd, &st) != 0) {
    found = Found::missing;
  } else if (S_ISDIR(st.st_mode)) {
    found = Found::directory;
  } else if (!S_ISREG(st.st_mode)) {
    what = kind_of(st.st_mode);
    found = Found::not_regular;
  } else if (static_cast<std::uint64_t>(st.st_size) > limit) {
    what = std::to_string(st.st_size) + " bytes";
    found = Found::too_large;
  } else {
    out.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        out.resize(done);  // shrunk underneath us: let the decoder call it truncated
        break;
      }
      done += static_cast<std::size_t>(n);
    }
  }
  ::close(fd);
  return found;
}

// Returns errno of the first failure, 0 on success.
int write_file(const std::string& path, std::span<const std::uint8_t> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  std::size_t done = 0;
  int err = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      err = errno;
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  // No fsync: after a power loss a torn entry fails its checksum and is rebuilt, while fsync
  // would add milliseconds to every compile.
  if (::close(fd) != 0 && err == 0) err = errno;
  return err;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

DiskCacheSettings disk_cache_settings(const JitOptions& options) {
  DiskCacheSettings s;
  s.max_bytes = options.cache_max_bytes;
  s.dir = options.cache_dir.empty() ? default_dir() : options.cache_dir;
  s.enabled = options.disk_cache && env_flag("SPVJIT_CACHE").value_or(true);
  if (s.enabled && s.dir.empty()) {
    warn_once("cache-dir-unknown",
              "no kernel cache directory (SPVJIT_CACHE_DIR, XDG_CACHE_HOME and HOME are unset); "
              "caching in memory only");
    s.enabled = false;
  }
  return s;
}

DiskCache::DiskCache(DiskCacheSettings settings)
    : settings_(std::move(settings)), enabled_(settings_.enabled) {}

std::string DiskCache::path_for(const std::string& key) const {
  return settings_.dir + "/" + cache_file_name(key);
}

void DiskCache::disable(const std::string& why) {
  enabled_.store(false, std::memory_order_relaxed);
  warn_once("cache-dir:" + settings_.dir, "cannot write the kernel cache in " + settings_.dir +
                                              " (" + why + "); caching in memory only");
}

std::uint64_t DiskCache::max_entry_bytes() const {
  return std::min(settings_.max_bytes, max_entry_size);
}

std::optional<DiskCache::Loaded> DiskCache::load(const std::string& key) {
  if (!enabled()) return std::nullopt;
  const std::string path = path_for(key);
  Loaded l;
  std::string what;
  const auto rejected = [&](const std::string& problem, bool remove) {
    if (remove) ::unlink(path.c_str());
    warn_once("rejected-entry:" + path,
              "kernel cache entry " + path + " " + problem +
                  (remove ? "; removed" : "; left alone (remove it to cache this kernel on disk)") +
                  ", rebuilding the kernel");
    return std::nullopt;
  };
  switch (read_entry_file(path, max_entry_bytes(), l.bytes, what)) {
    case Found::missing:
      return std::nullopt;  // an ordinary miss
    case Found::not_regular:
      // unlink removes the name only: a symlink's target, a FIFO's writer stay untouched.
      return rejected("is " + what + ", not a regular file", true);
    case Found::directory:
      return rejected("is a directory, not a regular file", false);
    case Found::too_large:
      return rejected("is " + what + ", more than an entry may hold (" +
                          std::to_string(max_entry_bytes()) +
                          " bytes: the smaller of the cache's byte budget and " +
                          std::to_string(max_entry_size >> 20) + " MiB)",
                      true);
    case Found::entry:
      break;
  }
  const DecodedEntry d = decode_entry(l.bytes);
  if (!d.ok()) {
    ::unlink(path.c_str());
    warn_once("corrupt:" + path, "kernel cache entry " + path + " is corrupt (" + d.error +
                                     "); removed, rebuilding the kernel");
    return std::nullopt;
  }
  if (d.entry.key != key) return std::nullopt;  // a file-name collision: rewritten on store
  l.entry = d.entry;
  // Least recently used is judged by mtime: atime is unreliable under relatime/noatime.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return l;
}

bool DiskCache::store(const std::string& key, std::span<const std::uint32_t> spirv,
                      std::span<const std::uint8_t> binary, EntryLaunch launch) {
  if (!enabled()) return false;
  std::error_code ec;
  fs::create_directories(settings_.dir, ec);
  if (ec) {
    disable(ec.message());
    return false;
  }
  const std::string path = path_for(key);
  const std::string temp = path + temp_marker + std::to_string(::getpid()) + "." +
                           std::to_string(temp_counter.fetch_add(1));
  const auto bytes = encode_entry(key, spirv, binary, launch);
  if (bytes.size() > max_entry_bytes()) return false;  // load would reject it
  if (const int err = write_file(temp, bytes); err != 0) {
    ::unlink(temp.c_str());
    disable(std::strerror(err));
    return false;
  }
  // rename() replaces atomically: two processes storing the same key both succeed and the
  // last one's (equally valid) entry stays.
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    // A directory at the entry's path (load warned about it): only this kernel goes uncached.
    if (err != EISDIR && err != ENOTEMPTY && err != EEXIST) disable(std::strerror(err));
    return false;
  }
  evict();
  return true;
}

void DiskCache::remove(const std::string& key) { ::unlink(path_for(key).c_str()); }

// One directory scan per store: stores follow compiles (~1 s cold), never launches.
void DiskCache::evict() {
  struct File {
    fs::path path;
    std::uint64_t size;
    fs::file_time_type mtime;
  };
  std::vector<File> entries;
  std::uint64_t total = 0;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(settings_.dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code e1, e2, e3;
    // Regular files only, never through a symlink: the cache writes nothing else, and a
    // symlink's target is not the cache's to count or delete.
    const auto status = it->symlink_status(e1);
    if (e1 || !fs::is_regular_file(status)) continue;
    const auto size = it->file_size(e2);
    const auto mtime = it->last_write_time(e3);
    if (e2 || e3) continue;  // removed by another process meanwhile
    if (name.find(temp_marker) != std::string::npos) {
      if (now - mtime > stale_temp_age) fs::remove(it->path(), e1);
      continue;
    }
    if (!ends_with(name, entry_suffix)) continue;
    entries.push_back({it->path(), size, mtime});
    total += size;
  }
  if (total <= settings_.max_bytes) return;
  std::sort(entries.begin(), entries.end(),
            [](const File& a, const File& b) { return a.mtime < b.mtime; });
  for (const auto& f : entries) {
    if (total <= settings_.max_bytes) break;
    fs::remove(f.path, ec);
    total -= f.size;
  }
}

}  // namespace spvjit::detail

namespace spvjit {

namespace {
// The cache's files: entries and temporaries by name, never a directory (the cache makes none,
// and one of that name may hold someone's files). `regular` is false for a symlink (never
// followed), a FIFO or a socket: junk to clear, not entries to count.
template <class F>
void for_each_cache_file(const std::string& dir, F&& fn) {
  std::error_code ec;
  for (auto it = detail::fs::directory_iterator(dir, ec);
       !ec && it != detail::fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool temporary = name.find(detail::temp_marker) != std::string::npos;
    const bool entry = !temporary && name.ends_with(detail::entry_suffix);
    std::error_code e;
    const auto status = it->symlink_status(e);
    if (e || detail::fs::is_directory(status)) continue;
    if (entry || temporary) fn(*it, entry, detail::fs::is_regular_file(status));
  }
}
}  // namespace

DiskCacheInfo disk_cache_info(const JitOptions& options) {
  const auto settings = detail::disk_cache_settings(options);
  DiskCacheInfo info;
  info.dir = settings.dir;
  info.enabled = settings.enabled;
  if (info.dir.empty()) return info;
  for_each_cache_file(info.dir,
                      [&](const detail::fs::directory_entry& file, bool entry, bool regular) {
                        if (!regular) return;
                        std::error_code ec;
                        const auto size = file.file_size(ec);
                        if (entry) {
                          ++info.entries;
                          if (!ec) info.bytes += size;
                        } else {
                          ++info.temporaries;
                        }
                      });
  return info;
}

std::uint64_t clear_disk_cache(const JitOptions& options) {
  const auto settings = detail::disk_cache_settings(options);
  std::uint64_t removed = 0;
  if (settings.dir.empty()) return 0;
  for_each_cache_file(settings.dir, [&](const detail::fs::directory_entry& file, bool, bool) {
    std::error_code ec;
    if (detail::fs::remove(file.path(), ec)) ++removed;
  });
  return removed;
}

}  // namespace spvjit
