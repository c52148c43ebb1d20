// PoCL's own variables are read with getenv here, by PoCL's rules (an empty HOME is a HOME), not
// by common/env.hpp's: the point is to predict what PoCL did. The rules quoted are PoCL 6.0's.
#include "runtime/pocl_diagnosis.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace spvjit::detail {

namespace {

// lib/CL/devices/devices.c: POCL_DEVICES is split at spaces and each word compared, case and
// all, with a driver's name or its device name (pthread's device is "cpu", basic's
// "cpu-minimal", tbb's "cpu-tbb").
constexpr std::string_view cpu_drivers[] = {"basic", "cpu-minimal", "pthread",
                                            "cpu",   "tbb",         "cpu-tbb"};
constexpr std::string_view other_drivers[] = {"cuda",   "hsa",    "vulkan", "level0",
                                              "almaif", "ttasim", "proxy",  "remote"};

template <std::size_t N>
bool listed(const std::string_view (&names)[N], std::string_view word) {
  for (auto n : names) {
    if (n == word) return true;
  }
  return false;
}

std::string pocl_devices_problem() {
  const char* env = std::getenv("POCL_DEVICES");
  if (!env) return {};  // unset: PoCL opens one pthread device
  std::string unknown;
  bool cpu = false;
  const std::string_view value(env);
  for (std::size_t at = 0; at < value.size();) {
    const std::size_t end = std::min(value.find(' ', at), value.size());
    const std::string_view word = value.substr(at, end - at);
    if (!word.empty()) {
      cpu = cpu || listed(cpu_drivers, word);
      if (!listed(cpu_drivers, word) && !listed(other_drivers, word)) {
        unknown += (unknown.empty() ? "'" : ", '") + std::string(word) + "'";
      }
    }
    at = end + 1;
  }
  if (cpu) return {};
  std::string msg = "POCL_DEVICES='" + std::string(value) + "' names no CPU driver";
  if (!unknown.empty()) msg += " (PoCL knows no driver " + unknown + ")";
  return msg +
         ": PoCL's CPU drivers are pthread (also spelled cpu), basic (cpu-minimal) and, where "
         "PoCL was built with TBB, tbb (cpu-tbb), case-sensitive and separated by spaces; set "
         "POCL_DEVICES=pthread (\"basic pthread\" for Dispatch::Adaptive) or unset it.";
}

// lib/CL/pocl_cache.c, pocl_cache_init_topdir: $POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl/kcache
// when XDG_CACHE_HOME is set and not empty, else $HOME/.cache/pocl/kcache, else
// /tmp/pocl/kcache ("uncached" for "kcache" when POCL_KERNEL_CACHE does not start with 1). A
// folder it cannot make fails clGetPlatformIDs: the platform is not seen at all.
std::string pocl_cache_dir(bool& from_pocl_cache_dir) {
  from_pocl_cache_dir = false;
  if (const char* dir = std::getenv("POCL_CACHE_DIR")) {
    from_pocl_cache_dir = true;
    return dir;
  }
  const char* kernel_cache = std::getenv("POCL_KERNEL_CACHE");
  const std::string leaf =
      !kernel_cache || kernel_cache[0] == '1' ? "pocl/kcache" : "pocl/uncached";
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/" + leaf;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.cache/" + leaf;
  return "/tmp/" + leaf;
}

// Why pocl_mkdir_p(dir) fails (it makes each missing folder, a name that exists counts as made),
// or empty when it would succeed. Judged without creating anything: the deepest existing prefix
// must be a folder this process may write, unless it is the whole path.
std::string why_not_creatable(const std::string& dir) {
  if (dir.size() <= 1) return "PoCL refuses a path this short";
  std::string prefix = dir;
  struct stat st {};
  while (::stat(prefix.c_str(), &st) != 0) {
    const auto slash = prefix.find_last_of('/');
    if (slash == std::string::npos) return {};  // a relative path: judged against the cwd, skip
    prefix.resize(slash == 0 ? 1 : slash);
  }
  if (prefix == dir) return {};
  if (!S_ISDIR(st.st_mode)) return prefix + " is not a folder";
  // access() sees read-only mounts (EROFS) and immutable folders (EPERM) even for root.
  if (::access(prefix.c_str(), W_OK | X_OK) != 0) {
    return "cannot write in " + prefix + ": " + std::strerror(errno);
  }
  return {};
}

std::string pocl_cache_problem() {
  bool from_env = false;
  const std::string dir = pocl_cache_dir(from_env);
  const std::string why = why_not_creatable(dir);
  if (why.empty()) return {};
  return "PoCL cannot create its kernel cache folder " + dir + " (" + why +
         "), and without it PoCL starts no device; it uses $POCL_CACHE_DIR, else " +
         "$XDG_CACHE_HOME/pocl/kcache, else $HOME/.cache/pocl/kcache: " +
         (from_env ? std::string("point POCL_CACHE_DIR at a folder this process may write.")
                   : std::string("set POCL_CACHE_DIR to a folder this process may write."));
}

}  // namespace

std::string pocl_startup_problems(const std::vector<SeenDevice>& seen) {
  for (const auto& d : seen) {
    if (d.info.platform_name.find("Portable Computing Language") != std::string::npos) return {};
  }
  std::string out;
  for (const std::string& problem : {pocl_devices_problem(), pocl_cache_problem()}) {
    if (!problem.empty()) out += (out.empty() ? "" : " ") + problem;
  }
  return out;
}

}  // namespace spvjit::detail
