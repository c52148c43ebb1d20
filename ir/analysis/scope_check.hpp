// The builder's check for values used outside the scope that computed them: a Value made
// inside an if_/loop body and read after it has no value on the paths that skipped the body.
// C++ cannot see this (a Value outlives its lambda), so finish() asks LLVM's dominator tree and
// turns the verifier's "Instruction does not dominate all uses!" into a UserError.
#pragma once

#include <string>

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Throws UserError naming the first value read where it may be undefined.
void check_values_defined_where_used(llvm::Function& kernel, const std::string& kernel_name);

}  // namespace spvjit::detail
