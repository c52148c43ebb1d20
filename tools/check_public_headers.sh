#!/usr/bin/env bash
# The public headers must not drag LLVM or OpenCL into an embedding application: only
# raw_module.hpp (the raw llvm::Module entry point) may include LLVM, and none OpenCL.
set -u
cd "$(dirname "$0")/../include/spvjit"
bad=$(grep -lE '^#include <(llvm|CL|OpenCL)/' *.hpp *.hpp.in 2>/dev/null | grep -v '^raw_module.hpp$')
if grep -qE '^#include <CL/' raw_module.hpp; then bad="$bad raw_module.hpp"; fi
if [ -n "$bad" ]; then
  echo "public headers that include LLVM or OpenCL: $bad"
  exit 1
fi
echo "public headers: only raw_module.hpp includes LLVM; none includes OpenCL"
