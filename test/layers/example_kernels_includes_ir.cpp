// The example kernels are written on the public API alone: the builder's internals are not found.
#include "ir/state.hpp"
