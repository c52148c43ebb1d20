// Must compile under each layer's rules that allow it: proves the probes beside it fail for
// the include they name, not for a broken setup. LAYER_USES_* come from CMakeLists.txt.
#include "spvjit/spvjit.hpp"
#include "common/geometry.hpp"
#if LAYER_USES_OPENCL
#include <CL/cl.h>
#include "runtime/core.hpp"
#endif
#if LAYER_USES_LLVM
#include <llvm/IR/Module.h>
#include "ir/state.hpp"
#endif
int layer_probe_compiles = 1;
