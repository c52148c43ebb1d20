// InFlight: builds of the same signature under way in this process, whichever Jit runs them.
// The first thread to claim a signature leads: it builds and publishes what it built; the
// threads that claim it while the build runs wait and take that result instead of building it
// again (eight Jits compiling one kernel at the same instant build it once). A leader that
// publishes nothing (its build threw) leaves each waiter to build for itself. The Jit publishes
// only once the build's disk entry is written: a claim after the publish finds the entry.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace spvjit::detail {

class InFlight {
  struct Build {
    bool done = false;                   // under InFlight::mutex_
    std::shared_ptr<const void> result;  // under InFlight::mutex_
  };

 public:
  class Claim {
   public:
    Claim(const Claim&) = delete;
    Claim& operator=(const Claim&) = delete;
    /// A leader that has not published publishes nothing.
    ~Claim();
    bool leads() const noexcept { return leads_; }
    /// The leader's result; null when it published nothing. Waiters only; blocks.
    std::shared_ptr<const void> wait() const;
    /// The leader's result, handed to the waiters. Leader only, at most once.
    void publish(std::shared_ptr<const void> result);

   private:
    friend class InFlight;
    Claim(InFlight& registry, std::shared_ptr<Build> build, std::string signature,
          bool leads) noexcept
        : registry_(registry),
          build_(std::move(build)),
          signature_(std::move(signature)),
          leads_(leads) {}
    InFlight& registry_;
    std::shared_ptr<Build> build_;
    std::string signature_;
    bool leads_;
    bool published_ = false;
  };

  /// The process's registry (never destroyed: exit() may run while a build is under way).
  static InFlight& process();
  /// Leads the build of `signature` if none is under way, else joins the one that is.
  Claim claim(std::string signature);

 private:
  std::mutex mutex_;
  std::condition_variable finished_;
  std::unordered_map<std::string, std::shared_ptr<Build>> builds_;  // under mutex_
};

}  // namespace spvjit::detail
