// The persistent cache key: everything that decides what a compiled kernel is, as one text.
// Written field by field with lengths ("name=<len>:<value>\n") so no two different inputs print
// the same key. Equal across processes and runs for equal inputs: it holds a SHA-256 of the
// kernel's IR text (the content), never addresses or times. Dynamic sizes are not in it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "spvjit/kernel.hpp"
#include "spvjit/runtime.hpp"

namespace spvjit::detail {

/// Versions of what turns IR into a device binary. Defaults are this build's.
struct ToolVersions {
  std::string library;     ///< spvjit
  std::string llvm;        ///< LLVM the IR was written with
  std::string translator;  ///< SPIRV-LLVM-Translator
  static ToolVersions current();
};

struct KeyInputs {
  std::string_view kernel_name;
  std::string_view ir_text;  ///< hashed (SHA-256), not stored
  std::span<const Param> params;
  bool hidden_ndrange = false;
  Specialization spec;  ///< after normalization: the static sizes actually compiled in
  std::string_view build_options;
  const DeviceInfo* device = nullptr;  ///< platform, driver and device identity
  ToolVersions tools;
};

/// The key text; two inputs give the same key exactly when every field is equal.
std::string cache_key(const KeyInputs& inputs);

/// The entry's file name for `key`: 32 hex digits of the key's SHA-256 plus ".spvk".
std::string cache_file_name(std::string_view key);

}  // namespace spvjit::detail
