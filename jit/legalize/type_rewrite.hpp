// What the two type legalizations share (promote_integers.hpp widens odd integers,
// scalarize_vectors.hpp splits odd vectors into lanes): finding the types they rewrite, and the
// walk that rewrites one function with definitions before their uses.
#pragma once

#include <functional>
#include <vector>

namespace llvm {
class Function;
class Instruction;
class PHINode;
class Type;
}  // namespace llvm

namespace spvjit::detail {

/// Whether `t`, or a type inside it (a vector's, an array's or a struct's elements, what a
/// pointer points at), is one `odd` picks.
bool holds_type(llvm::Type* t, bool (*odd)(llvm::Type*));

/// Whether `inst`'s type or an operand's (a call's callee aside) holds a type `odd` picks.
bool mentions_type(const llvm::Instruction& inst, bool (*odd)(llvm::Type*));

/// One rewrite's own steps, for rewrite_function.
struct TypeRewrite {
  bool (*odd)(llvm::Type*) = nullptr;
  /// A parameter or the result holds an odd type: throws (the signature cannot change).
  std::function<void()> refuse_signature;
  /// Whether the phi is rewritten; if so, make_phi makes its replacement and fill_phi, once
  /// every instruction is rewritten, gives it its incoming values.
  std::function<bool(const llvm::PHINode&)> takes_phi;
  std::function<void(llvm::PHINode&)> make_phi;
  std::function<void(llvm::PHINode&)> fill_phi;
  /// Whether a non-phi instruction is rewritten, and its rewrite.
  std::function<bool(const llvm::Instruction&)> involved;
  std::function<void(llvm::Instruction&)> rewrite;
};

/// Refuses a signature that holds an odd type; when no instruction mentions one, leaves `f` as
/// it is and returns false. Otherwise drops unreachable blocks, makes the rewritten phis first
/// (their incoming values may be defined later in the order), rewrites every involved
/// instruction in reverse post-order, fills the phis, then erases `dead` (the instructions
/// the rewrite replaced, their remaining uses poisoned first) and returns true.
bool rewrite_function(llvm::Function& f, const TypeRewrite& steps,
                      std::vector<llvm::Instruction*>& dead);

}  // namespace spvjit::detail
