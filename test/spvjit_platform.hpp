// spvjit's PoCL among the OpenCL ICD's platforms, for tests that call OpenCL themselves: the
// platform whose version carries the "+spvjit" markers of its patches (third_party/pocl), with
// Debian's PoCL 3.1 or another ICD possibly installed beside it.
#pragma once

#include <CL/cl.h>

#include <cstring>

namespace spvjit::test {

struct FoundPlatform {
  cl_platform_id id = nullptr;  ///< spvjit's PoCL; else the first platform listed; else null
  bool spvjit = false;          ///< whether `id` is spvjit's PoCL
};

inline FoundPlatform find_spvjit_platform() {
  cl_platform_id platforms[8];
  cl_uint count = 0;
  FoundPlatform found;
  if (clGetPlatformIDs(8, platforms, &count) != CL_SUCCESS) return found;
  for (cl_uint p = 0; p < count && p < 8; ++p) {
    char version[512] = {};
    clGetPlatformInfo(platforms[p], CL_PLATFORM_VERSION, sizeof version, version, nullptr);
    if (std::strstr(version, "+spvjit")) return {platforms[p], true};
    if (!found.id) found.id = platforms[p];
  }
  return found;
}

}  // namespace spvjit::test
