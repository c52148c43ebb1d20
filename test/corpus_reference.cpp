#include "test/corpus_reference.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace spvjit::corpus {

// Appended in place: GCC 12 at -O1 warns (-Wstringop-overflow) of a memcpy past the small-string
// buffer when `std::string(macro) + "/"` is inlined, a false positive on std::string.
std::string source_path(const std::string& file) {
  std::string path = SPVJIT_CORPUS_SOURCE_DIR;
  path += '/';
  path += file;
  return path;
}

std::string bitcode_path(const std::string& file, Opt opt) {
  std::string path = SPVJIT_CORPUS_BITCODE_DIR;
  path += '/';
  path.append(file, 0, file.rfind(".cl"));
  path += opt == Opt::O2 ? ".O2.bc" : ".O0.bc";
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string reference_source(const std::string& file) {
  return "#pragma OPENCL FP_CONTRACT OFF\n" + read_file(source_path(file));
}

detail::ClHandle<cl_program> build_reference(const detail::RuntimeCore& core,
                                             const std::string& source) {
  const char* text = source.c_str();
  const std::size_t length = source.size();
  cl_int err = CL_SUCCESS;
  detail::ClHandle<cl_program> program(
      clCreateProgramWithSource(core.context.get(), 1, &text, &length, &err));
  detail::check_cl(err, "clCreateProgramWithSource");
  err = clBuildProgram(program.get(), 1, &core.device, "-cl-std=CL1.2", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::size_t size = 0;
    clGetProgramBuildInfo(program.get(), core.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program.get(), core.device, CL_PROGRAM_BUILD_LOG, size, log.data(),
                          nullptr);
    throw BuildError(err, "(corpus reference)", log);
  }
  return program;
}

}  // namespace spvjit::corpus
