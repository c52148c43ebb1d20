#!/usr/bin/env bash
# Installs the Debian 12 packages spvjit builds against (and those PoCL's build needs).
# Skips apt entirely when everything is already installed.
set -euo pipefail
PACKAGES=(
  llvm-15-dev libllvmspirvlib-15-dev llvm-spirv-15 clang-15
  ocl-icd-opencl-dev opencl-c-headers ocl-icd-dev
  doctest-dev libbenchmark-dev spirv-tools cmake ninja-build
  spirv-headers  # SPIR-V opcode and enum names (jit/spirv/offset_safety.cpp)
  libclang-15-dev libclang-cpp15-dev libhwloc-dev pkg-config
  liblld-15-dev  # PoCL links kernels in-process with lld (third_party/pocl/patches)
  llvm-15-tools  # FileCheck, for the pass tests (test/passes)
  clang-format-14  # the pinned formatter tools/check_format.sh checks every C++ file with
  dpkg-dev python3 python3-matplotlib
  pocl-opencl-icd clinfo  # Debian's PoCL 3.1 beside ours: the embedding tests check they coexist
  libopenmpi-dev openmpi-bin
  libclang-common-15-dev  # clang-15's libFuzzer and sanitizer runtimes (make fuzz)
  libopenblas-dev libhalide14-0-dev libtbb-dev  # the rival libraries the benchmarks compare with
  libjemalloc2  # another allocator under the hostile-host tests (test_hostile_hosts.cpp)
  ccache  # compiles shared by build/, build-asan/, build-tsan/ and later clones (Makefile)
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "deps: installing ${missing[*]}"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
