// The whole public API of spvjit (without the raw LLVM-module entry point, raw_module.hpp).
#pragma once

#include "spvjit/builder.hpp"
#include "spvjit/error.hpp"
#include "spvjit/event.hpp"
#include "spvjit/jit.hpp"
#include "spvjit/kernel.hpp"
#include "spvjit/kernel_def.hpp"
#include "spvjit/ndrange.hpp"
#include "spvjit/pointer.hpp"
#include "spvjit/runtime.hpp"
#include "spvjit/shared_array.hpp"
#include "spvjit/signature.hpp"
#include "spvjit/types.hpp"
#include "spvjit/value.hpp"
#include "spvjit/view.hpp"
