#include "jit/cache/cache_key.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/SHA256.h>

#include "jit/cache/cache_entry.hpp"

#ifndef SPVJIT_VERSION
#error "SPVJIT_VERSION must be defined by the build (CMakeLists.txt)"
#endif
#ifndef SPVJIT_TRANSLATOR_VERSION
#error "SPVJIT_TRANSLATOR_VERSION must be defined by the build (CMakeLists.txt)"
#endif

namespace spvjit::detail {

namespace {

void field(std::string& out, std::string_view name, std::string_view value) {
  out.append(name).append("=").append(std::to_string(value.size())).append(":");
  out.append(value).append("\n");
}

std::string extent(const std::optional<detail::Extent3>& e) {
  return e ? e->to_string() + "/" + std::to_string(e->dims) : std::string("dynamic");
}

std::string sha256_hex(std::string_view text) {
  llvm::SHA256 sha;
  sha.update(llvm::StringRef(text.data(), text.size()));
  return llvm::toHex(sha.final(), /*LowerCase=*/true);
}

// The code generation's own version, within one library version: bump it with every change to
// what lowering makes of a kernel (jit/pipeline.cpp), or a cache written by the previous build
// hands back that build's code. 2: group loops keep uniform values once per group and stop a
// region's loop at its last working work-item. 3: a work-group loop's bounds checks tested once
// before it. 4: a group-looped kernel's group id is its work-item's global id (it may run split).
// 5: a coarsened store straddling an array's end stores the lanes inside. 6: one lane buffer per
// element type in a coarsened body (issue #46). 7: bounds checks the kernel's conditions prove
// are dropped before coarsening, and a partial vector's load is whole when it lies inside its
// parameter's elements (issue #47). 8: a 32-bit index of get_global_id(0) coarsened (issue #48).
// 9: a coarsened check tests a computed index lane by lane (cast()'s conversion check).
// 10: a region's guard `lid < X` that holds for every work-item its loop runs is `X > 0`, and
// each side effect's bound counts only on its own group-wide path (issue #52). 11: 10's fold
// no longer reads a condition tested below a guard as holding where the guard is reached.
// 12: the narrowing makes one bound per guarded block, not one per side effect in it.
// 13: the builder adds the hidden arguments in HiddenArgs' sequence, after the checks are
// settled: the ndrange's uses come in another order, and merged bounds-failure blocks with them.
// 14: checks of expressions of a static group's local ids against constant extents proven and
// dropped; a loop with a constant trip count is versioned on its hoisted test alone.
// 15: merged bounds-failure blocks are made in the order their reports are met (they followed
// the report functions' addresses, so names and places changed from compile to compile).
// 16: a coarsened kernel reads and writes one element per lane at indices that are not
// consecutive (gathers and scatters: x[4 * i + c]), calls every math builtin's vector form on a
// PoCL with patch 0014, and its private arrays of constant indices are variables (issue #63).
// 17: loops of at most 16 trips whose counters index a private array are unrolled before it is
// made variables (issue #63). 18: loops whose exit test differs between lanes are coarsened under
// lane masks (issue #63). 19: a varying branch inside a loop every lane runs alike is
// if-converted.
constexpr int codegen_version = 19;

}  // namespace

ToolVersions ToolVersions::current() {
  return {SPVJIT_VERSION, LLVM_VERSION_STRING, SPVJIT_TRANSLATOR_VERSION};
}

std::string cache_key(const KeyInputs& in) {
  std::string out;
  field(out, "spvjit-cache-entry", std::to_string(entry_format_version));
  field(out, "library", in.tools.library);
  field(out, "codegen", std::to_string(codegen_version));
  field(out, "llvm", in.tools.llvm);
  field(out, "translator", in.tools.translator);
  if (in.device) {
    field(out, "platform", in.device->platform_name);
    field(out, "platform-version", in.device->platform_version);  // names PoCL's version
    field(out, "device", in.device->name);  // PoCL's CPU device names the CPU model
    field(out, "device-version", in.device->version);
    field(out, "driver-version", in.device->driver_version);
  }
  field(out, "kernel", in.kernel_name);
  field(out, "ir-sha256", sha256_hex(in.ir_text));
  std::string params;
  for (const auto& p : in.params) {
    params += p.describe() + (p.read_only ? " ro" : "");
    // A struct's name says nothing of its layout: the scalars and their offsets do.
    if (p.struct_layout) params += " [" + p.struct_layout->signature() + "]";
    params += ";";
  }
  field(out, "params", params);
  field(out, "hidden-ndrange", in.hidden_ndrange ? "1" : "0");
  field(out, "workgroup", extent(in.spec.workgroup));
  field(out, "ndrange", extent(in.spec.ndrange));
  field(out, "build-options", in.build_options);
  return out;
}

std::string cache_file_name(std::string_view key) {
  return sha256_hex(key).substr(0, 32) + ".spvk";
}

}  // namespace spvjit::detail
