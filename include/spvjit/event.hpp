// Event: a launch's completion, for callers that ask for one (Kernel::launch_event). Plain
// launches create no cl_event: PoCL allocates one per event, and synchronize() needs none.
#pragma once

#include <memory>
#include <utility>
#include "spvjit/export.hpp"
#include "spvjit/handle.hpp"

SPVJIT_API_BEGIN

struct _cl_event;

namespace spvjit {

namespace detail {
class RuntimeCore;
/// Waits for `e`, then throws BoundsError for a failed bounds check `core`'s kernels recorded.
void event_wait(_cl_event* e, RuntimeCore* core);
bool event_complete(_cl_event* e);
}  // namespace detail

class Kernel;

/// A launch's completion (Kernel::launch_event). Move-only; a moved-from Event is empty.
class Event {
 public:
  Event() = default;

  /// Blocks until the launch has finished (an empty Event, from an empty ndrange, at once).
  /// Throws BoundsError when a kernel of the runtime failed a bounds check (this launch or an
  /// earlier one not yet synchronized).
  void wait() const {
    if (event_.get()) detail::event_wait(event_.get(), event_.core().get());
  }
  /// Whether the launch has finished, without waiting.
  bool complete() const { return !event_.get() || detail::event_complete(event_.get()); }
  _cl_event* handle() const noexcept { return event_.get(); }

 private:
  friend class Kernel;
  Event(_cl_event* e, std::shared_ptr<detail::RuntimeCore> core) noexcept
      : event_(std::move(core), e) {}

  detail::Owned<detail::EventObject> event_;
};

}  // namespace spvjit

SPVJIT_API_END
