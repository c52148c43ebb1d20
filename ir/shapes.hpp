// Array parameters' shapes and pointer parameters' lengths (ir/shapes.cpp). Private to ir/.
#pragma once

#include <vector>

#include "common/shape_args.hpp"
#include "ir/state.hpp"

namespace spvjit::detail {

/// At finish(), after the bounds checks' hidden arguments: turns every shape marker into a
/// hidden argument (listed in `shape_args`), or, for a parameter's count in a bounds-checked
/// kernel, into the bounds checks' extent marker of that parameter.
void resolve_shapes(BuilderState& s, bool bounds_checked, std::vector<ShapeArg>& shape_args);

}  // namespace spvjit::detail
