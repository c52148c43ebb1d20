// Event: a launch's completion, for callers that ask for one (Kernel::launch_event). Plain
// launches create no cl_event: PoCL allocates one per event, and synchronize() needs none.
#pragma once

#include <memory>
#include <utility>
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

struct _cl_event;

namespace spvjit {

namespace detail {
class RuntimeCore;
void event_release(_cl_event* e) noexcept;
/// Waits for `e`, then throws BoundsError for a failed bounds check `core`'s kernels recorded.
void event_wait(_cl_event* e, RuntimeCore* core);
bool event_complete(_cl_event* e);
}  // namespace detail

class Event {
 public:
  Event() = default;
  explicit Event(_cl_event* e, std::shared_ptr<detail::RuntimeCore> core = nullptr) noexcept
      : e_(e), core_(std::move(core)) {}
  ~Event() { detail::event_release(e_); }
  Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)), core_(std::move(o.core_)) {}
  Event& operator=(Event&& o) noexcept {
    if (this != &o) {
      detail::event_release(e_);
      e_ = std::exchange(o.e_, nullptr);
      core_ = std::move(o.core_);
    }
    return *this;
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  /// Blocks until the launch has finished (an empty Event, from an empty ndrange, at once).
  /// Throws BoundsError when a kernel of the runtime failed a bounds check (this launch or an
  /// earlier one not yet synchronized).
  void wait() const {
    if (e_) detail::event_wait(e_, core_.get());
  }
  /// Whether the launch has finished, without waiting.
  bool complete() const { return !e_ || detail::event_complete(e_); }
  _cl_event* handle() const noexcept { return e_; }

 private:
  _cl_event* e_ = nullptr;
  std::shared_ptr<detail::RuntimeCore> core_;
};

}  // namespace spvjit

SPVJIT_API_END
