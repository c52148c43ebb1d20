#include "jit/legalize/drop_unused_intrinsics.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

namespace spvjit::detail {

unsigned drop_unused_intrinsics(llvm::Module& m) {
  unsigned dropped = 0;
  for (auto it = m.begin(); it != m.end();) {
    llvm::Function& f = *it++;
    if (f.isIntrinsic() && f.use_empty()) {
      f.eraseFromParent();
      ++dropped;
    }
  }
  return dropped;
}

}  // namespace spvjit::detail
