// Looking inside a kernel: its SPIR-V as disassembly text (KernelDef::to_string() gives the
// LLVM IR). For debugging and for bug reports; nothing here is on a hot path.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>

#include "spvjit/jit.hpp"
#include "spvjit/export.hpp"

SPVJIT_API_BEGIN

namespace spvjit {

/// SPIR-V words as the text spirv-dis prints (SPIRV-Tools' disassembler, linked in).
/// Throws UserError when the words are not a SPIR-V module.
std::string disassemble_spirv(std::span<const std::uint32_t> words);

/// The SPIR-V that `jit.compile(def, spec)` would build, disassembled.
std::string spirv_text(Jit& jit, const KernelDef& def, const Specialization& spec = {});

/// Writes the kernel's LLVM IR, and its SPIR-V disassembly when a Jit is given, to `out`.
void dump(const KernelDef& def, std::ostream& out, Jit* jit = nullptr,
          const Specialization& spec = {});

}  // namespace spvjit

SPVJIT_API_END
