// Block layout that SPIR-V accepts. Private to ir/.
#pragma once

namespace llvm {
class Function;
}

namespace spvjit::detail {

/// Reorders `fn`'s blocks in reverse post-order, unreachable blocks last. The builder creates
/// a loop's latch before its body; spirv-val rejects that layout ("Block '...loop_latch'
/// appears in the binary before its dominator '...loop_body'"), and RPO puts every dominator
/// before the blocks it dominates.
void order_blocks(llvm::Function& fn);

}  // namespace spvjit::detail
