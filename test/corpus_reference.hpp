// The reference side of a corpus case: the same .cl file built from source by clBuildProgram,
// on spvjit's own device and context, its kernels launched with plain OpenCL calls.
#pragma once

#include <CL/cl.h>

#include <string>

#include "runtime/cl_handle.hpp"
#include "runtime/core.hpp"
#include "test/corpus_case.hpp"

namespace spvjit::corpus {

/// test/corpus/<file> in the source tree, and its clang-15 bitcode in the build tree.
std::string source_path(const std::string& file);
std::string bitcode_path(const std::string& file, Opt opt);
std::string read_file(const std::string& path);

/// The text clBuildProgram gets: the file after `#pragma OPENCL FP_CONTRACT OFF`, the
/// counterpart of clang's -ffp-contract=off for the bitcode.
std::string reference_source(const std::string& file);

/// clBuildProgram(-cl-std=CL1.2) of `source` for the core's device; throws BuildError with
/// PoCL's log when it fails.
detail::ClHandle<cl_program> build_reference(const detail::RuntimeCore& core,
                                             const std::string& source);

}  // namespace spvjit::corpus
