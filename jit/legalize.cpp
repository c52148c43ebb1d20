#include "jit/legalize.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <vector>

#include "jit/bool_bitcasts.hpp"
#include "jit/expand_intrinsics.hpp"
#include "jit/promote_integers.hpp"
#include "jit/scalarize_vectors.hpp"

namespace spvjit::detail {

namespace {

// freeze pins a possibly undef or poison value to one arbitrary value; the SPIR-V translator
// has no such instruction. A computed operand is a value the freeze may give (it is poison only
// where the source's behaviour was undefined); an undef or poison constant becomes zero, so
// that every use still sees the same value.
void drop_freeze(llvm::Module& m) {
  std::vector<llvm::FreezeInst*> freezes;
  for (auto& f : m) {
    for (auto& inst : llvm::instructions(f)) {
      if (auto* fr = llvm::dyn_cast<llvm::FreezeInst>(&inst)) freezes.push_back(fr);
    }
  }
  for (auto* fr : freezes) {
    llvm::Value* v = fr->getOperand(0);
    if (llvm::isa<llvm::UndefValue>(v)) v = llvm::Constant::getNullValue(v->getType());
    fr->replaceAllUsesWith(v);
    fr->eraseFromParent();
  }
}

}  // namespace

void legalize_raw_module(llvm::Module& m, const std::string& context) {
  drop_freeze(m);
  expand_untranslatable_intrinsics(m);
  expand_bool_vector_bitcasts(m);
  scalarize_odd_vectors(m, context);
  promote_odd_integers(m, context);
  // The rewrites leave the declarations of the intrinsics they replaced; once is enough.
  for (auto it = m.begin(); it != m.end();) {
    llvm::Function& f = *it++;
    if (f.isIntrinsic() && f.use_empty()) f.eraseFromParent();
  }
}

std::string printed_value(const llvm::Value& v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  v.print(os);
  const auto start = out.find_first_not_of(' ');
  return start == std::string::npos ? out : out.substr(start);
}

}  // namespace spvjit::detail
