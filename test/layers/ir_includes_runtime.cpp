// Must not compile: ir/ is beside runtime/ and does not see it.
#include "runtime/core.hpp"
