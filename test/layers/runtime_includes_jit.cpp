// Must not compile: runtime/ is below jit/ and does not see it.
#include "jit/specialize.hpp"
