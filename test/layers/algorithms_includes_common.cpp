// Must not compile: algorithms/ is built on the public API alone and sees no internal folder.
#include "common/geometry.hpp"
