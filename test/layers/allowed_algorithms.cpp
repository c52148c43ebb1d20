// Must compile under the algorithms layer's rules: the public API, the algorithms included.
#include "spvjit/algorithms.hpp"
#include "spvjit/spvjit.hpp"
int layer_probe_compiles = 1;
