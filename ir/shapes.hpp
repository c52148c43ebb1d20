// Array parameters' shapes and pointer parameters' lengths (ir/shapes.cpp). Private to ir/.
#pragma once

#include <vector>

#include "common/shape_args.hpp"
#include "ir/state.hpp"

namespace spvjit::detail {

/// The hidden shape arguments the kernel's shape markers need, in their order: one per extent
/// it reads (by parameter, then dimension), except a parameter's count in a bounds-checked
/// kernel, which the bounds checks' extent carries.
std::vector<ShapeArg> shapes_passed(const BuilderState& s, bool bounds_checked);

/// At finish(), once the hidden arguments are added (HiddenArgs::sequence): turns every shape
/// marker into its argument, shapes_passed()[k] being argument `first_shape + k`, or, for a
/// parameter's count in a bounds-checked kernel, into the bounds checks' extent marker of that
/// parameter.
void resolve_shapes(BuilderState& s, bool bounds_checked, unsigned first_shape);

}  // namespace spvjit::detail
