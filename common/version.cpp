#include "spvjit/version.hpp"

namespace spvjit {
const char* version() noexcept { return SPVJIT_VERSION_STRING; }
}  // namespace spvjit
