#include "jit/cache/in_flight.hpp"

#include <utility>

namespace spvjit::detail {

InFlight& InFlight::process() {
  static InFlight* const registry = new InFlight;
  return *registry;
}

InFlight::Claim InFlight::claim(std::string signature) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto [at, added] = builds_.try_emplace(signature);
  if (added) at->second = std::make_shared<Build>();
  return Claim(*this, at->second, std::move(signature), added);
}

std::shared_ptr<const void> InFlight::Claim::wait() const {
  std::unique_lock<std::mutex> lock(registry_.mutex_);
  registry_.finished_.wait(lock, [&] { return build_->done; });
  return build_->result;
}

void InFlight::Claim::publish(std::shared_ptr<const void> result) {
  if (!leads_ || published_) return;
  published_ = true;
  {
    std::lock_guard<std::mutex> lock(registry_.mutex_);
    build_->done = true;
    build_->result = std::move(result);
    // A claim after this one leads a build of its own (the kernel may have been evicted).
    registry_.builds_.erase(signature_);
  }
  registry_.finished_.notify_all();
}

InFlight::Claim::~Claim() {
  if (leads_ && !published_) {
    // Its build threw: waiters build for themselves. Nothing here may throw.
    try {
      publish(nullptr);
    } catch (...) {
      std::lock_guard<std::mutex> lock(registry_.mutex_);
      build_->done = true;
      registry_.finished_.notify_all();
    }
  }
}

}  // namespace spvjit::detail
