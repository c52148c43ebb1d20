// Integers of widths SPIR-V kernels cannot hold (i2..i63 other than i8/i16/i32; clang -O2 makes
// an i4 of four comparison results) computed in the next width they can, as LLVM's own code
// generators do: a promoted value's extra high bits are left unspecified, and each use that
// reads them (compares, right shifts, division, extension, conversion to float, switch) first
// makes them the zero or sign extension of the narrow value it stands for.
#pragma once

#include "common/error_report.hpp"

namespace llvm {
class Module;
}

namespace spvjit::detail {

/// Widens every odd-width integer value in `m`'s functions. Throws UserError naming the
/// function and the instruction for what it does not widen: such integers in memory (loads,
/// stores, allocas, globals), in vectors other than of i1, wider than 64 bits, or crossing
/// calls other than the integer intrinsics it knows (ctpop, ctlz, cttz, abs, smax, smin, umax,
/// umin). The message starts with `where` ("kernel_from_bitcode of kernel 'k'").
void promote_odd_integers(llvm::Module& m, Where where);

}  // namespace spvjit::detail
