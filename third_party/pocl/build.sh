#!/usr/bin/env bash
# Builds PoCL 6.0 (Debian source package pocl 6.0-6, suite trixie) against Debian 12's LLVM 15 into
# a prefix outside the clone, and registers it with the ICD loader.
#
# Why: Debian 12 ships PoCL 3.1, whose clCreateProgramWithIL returns CL_INVALID_VALUE (no SPIR-V).
# Only the *source* comes from trixie; its binary packages would pull in a newer libc.
#
# This PoCL is made to live inside someone else's process:
# - LLVM, Clang and lld are linked into libpocl.so statically and privately (STATIC_LLVM,
#   -Bsymbolic, --exclude-libs, only cl* exported), with the CPU drivers inside it
#   (ENABLE_LOADABLE_DRIVERS=OFF): it no longer loads the shared libLLVM-15, so it coexists
#   with Debian's PoCL 3.1, whose LLVM options in that one shared LLVM clashed with ours.
# - Patches (patches/, applied after dpkg-source), each explained at its top:
#   0001: SPIR-V is translated by lib/pocl/pocl-spirv-tool, a small program on Debian's
#     shared translator library and shared libLLVM, run as a child process: started without
#     copying the host (glibc's own clone CLONE_VM|CLONE_VFORK|CLONE_PIDFD + execve, as
#     posix_spawn; never a sanitizer's clone interceptor),
#     input in a memfd, output from pipes with a time limit, waited for through its pidfd,
#     and judged by its self-delimiting reply, so a host that ignores SIGCHLD or reaps
#     children itself does not break it.  libpocl never loads the shared libLLVM (which
#     clashes with a host's own exported LLVM: "Option ... registered more than once!"),
#     and the translator's exit()/abort() on bad input ends only the tool: any failure of
#     the tool is a build error with its reason in the build log.  The llvm-spirv program
#     is only looked at by PoCL's CMake (-DLLVM_SPIRV turns SPIR-V support on), never run.
#   0002: kernels are linked in-process by lld (no ld child process).
#   0003: libpocl exports the OpenCL entry points only.
#   0004: barrier tail replication copies each barrier's tail once, so a work-item dependent
#     branch after a barrier loop no longer looks like a uniform one (wrong results: Rodinia's
#     hotspot, a scan writing `if (active)` after its loop).  Adds "+spvjit-barrier-tails" to
#     the platform version.
#   0005: the SPIR wrapper passes wide vectors to the kernel library byval (builtins on vectors
#     over 256 bits returned garbage).  Adds "+spvjit-spir-byval" to the platform version.
#   0006: the guard against a recursive first device probe is per thread, so a second
#     thread's first OpenCL call waits for the probe instead of finding no device (a host
#     thread enumerating platforms while spvjit made a Runtime lost its devices, issue #29).
#   0007: clFinish on the basic device waits for the queue's commands that another thread's
#     enqueue took from the device's shared ready list (two threads on basic read results
#     before their kernels ran and corrupted the heap, issue #29).
#   0008: a launch's commands, events, event data and argument copies are recycled (the basic
#     driver's argument arrays live on its stack), so a warm launch + clFinish allocates
#     nothing in the process (15 on pthread, 3 on basic before; issue #32).
#   0009: LLVM never installs its signal handlers over the host's (RemoveFileOnSignal is a
#     no-op in libpocl), so a host's SIGHUP/INT/TERM/USR1/USR2 handlers stay its own and a
#     signal no longer deletes the output of a kernel link in flight (abort, issue #53).
#   0010: a kernel keeps 8 spare argument blocks, not one, so the parts of a split launch in
#     flight at once on one cl_kernel allocate nothing either (issue #49).
#   0011: the basic device lays a launch's local buffers out in one block its thread keeps, so
#     launches of kernels with local memory allocate nothing either (issue #49).
#   0012: a kernel's own local arrays, made arguments by PoCL, are `noalias` arguments, so the
#     vectorizer keeps them apart from private and global memory as it did when they were
#     globals (KA's tiled matmul's group loop stayed scalar, issue #52).  Adds
#     "+spvjit-local-noalias" to the platform version.
#   0013: a SPIR-V program's functions get the "no-builtins" attribute OpenCL C kernels get from
#     -fno-builtin, so the kernel library's builtins (sqrt, fabs, fma, mad, ...) inline into them
#     instead of staying calls.  Adds "+spvjit-builtins-inline" to the platform version.
#   0014: each math builtin computes the same bits at every vector width (scalar SLEEF functions
#     as lane 0 of the 128-bit ones, libclc's FMA paths for every width, sin/cos/tan's large
#     reduction per lane, one exact ldexp, sinh's NaN), so coarsened kernels call vector math.
#     Adds "+spvjit-vector-math" to the platform version.
#   0015: a built program frees its parsed IR (one built from a pocl binary never parses it;
#     a work-group function generated later parses program.bc) and files are read into buffers
#     of their own size, so a cached program holds less (issue #71).
#   0016: PoCL's kernel runner runs a launch's groups on the calling thread (issue #64).
#   0017: double exp and pow overflow at ln(DBL_MAX), not 1.7e-6 below it, and tgamma keeps its
#     digits where its result nears the ends of double's range (issue #67).
#   0018: clCreateProgramWithIL reads the module's specialization constants itself instead of
#     asking pocl-spirv-tool, so creating a program starts no process (issue #70: 2,876 of the
#     tool's 3,516 starts over 590 tests of a warm ctest run; about 20 ms of CPU each).
#   spvjit reads those markers (runtime/device.cpp) to drop its workarounds.
#   So the only process PoCL starts is pocl-spirv-tool, once per SPIR-V translation (a build
#   PoCL's kernel cache does not hold).
# The build is reused while the stamp (version, flags, patches, translator and linker library
# versions) matches; anything else rebuilds it.
set -euo pipefail
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

POCL_VERSION=6.0-6
PREFIX=${SPVJIT_POCL_PREFIX:-/opt/spvjit-pocl-6.0}
WORK=${SPVJIT_POCL_WORK:-/var/tmp/spvjit-pocl-build}
ICD_FILE=/etc/OpenCL/vendors/spvjit-pocl6.icd
PATCH_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/patches"

# LLVM 15 cannot name this CPU, so PoCL's autodetection fails: name a portable AVX2 target.
CMAKE_FLAGS=(
  -G Ninja
  -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_INSTALL_PREFIX=$PREFIX"
  -DWITH_LLVM_CONFIG=/usr/bin/llvm-config-15
  -DLLVM_SPIRV=/usr/bin/llvm-spirv-15
  -DLLC_HOST_CPU=x86-64-v3
  -DENABLE_ICD=ON
  -DENABLE_TESTS=OFF
  -DENABLE_EXAMPLES=OFF
  -DENABLE_POCL_BUILDING=OFF
  -DPOCL_ICD_ABSOLUTE_PATH=ON
  # Debian's gcc builds PIE objects by default; without this, linking libpocl.so fails on
  # spirv_parser.cc.o ("relocation R_X86_64_PC32 against __libc_single_threaded").
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  # LLVM and Clang static, inside libpocl.so (Debian's static archives are PIC).
  -DSTATIC_LLVM=ON
  # The basic and pthread drivers inside libpocl.so, so nothing outside it needs its internals
  # (patches/0003 then exports cl* only).
  -DENABLE_LOADABLE_DRIVERS=OFF
)
# What else the result is made of: the patches, and the libraries the patches bring in (the
# shared translator pocl-spirv-tool runs on, the static lld and SPIRV-Tools linked in).
PATCHES_HASH=$(cd "$PATCH_DIR" && cat ./*.patch | sha256sum | cut -c1-16)
LIB_VERSIONS=$(dpkg-query -W -f='${Package}=${Version} ' libllvmspirvlib15 liblld-15-dev spirv-tools 2>/dev/null || true)
STAMP_TEXT="pocl=$POCL_VERSION flags=${CMAKE_FLAGS[*]} patches=$PATCHES_HASH libs=$LIB_VERSIONS"
STAMP_FILE="$PREFIX/.spvjit-stamp"

if [ -f "$STAMP_FILE" ] && [ "$(cat "$STAMP_FILE")" = "$STAMP_TEXT" ] && [ -f "$PREFIX/lib/libpocl.so" ]; then
  echo "pocl: reusing $PREFIX ($POCL_VERSION)"
else
  echo "pocl: building $POCL_VERSION into $PREFIX (2 to 4 minutes on 2 cores)"
  for pkg in liblld-15-dev libllvmspirvlib-15-dev spirv-tools; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
      { echo "pocl: $pkg is missing; run third_party/install-deps.sh" >&2; exit 1; }
  done
  # A deb-src entry for trixie, made from this machine's own Debian entry: only the type and
  # the suite change, so no registry host is written down anywhere but in apt's own copy.
  SRC_LIST=/etc/apt/sources.list.d/spvjit-trixie-src.sources
  if [ ! -f "$SRC_LIST" ]; then
    $SUDO python3 - "$SRC_LIST" <<'PY'
import re, sys, pathlib
entries = []
for path in [pathlib.Path("/etc/apt/sources.list.d/debian.sources")]:
    if path.exists():
        entries += path.read_text().split("\n\n")
stanza = next((e for e in entries
               if re.search(r"^Suites:.*\bbookworm\b(?![-/])", e, re.M) and "Types:" in e), None)
if stanza is None:
    # One-line format fallback: /etc/apt/sources.list
    legacy = pathlib.Path("/etc/apt/sources.list")
    for line in legacy.read_text().splitlines() if legacy.exists() else []:
        m = re.match(r"^deb\s+(\[[^]]*\]\s+)?(\S+)\s+bookworm\s", line)
        if m:
            stanza = f"Types: deb\nURIs: {m.group(2)}\nSuites: bookworm\nComponents: main\n"
            break
if stanza is None:
    sys.exit("pocl: no Debian bookworm entry found in apt's sources to derive a trixie deb-src entry from")
out = []
for line in stanza.strip().splitlines():
    if line.startswith("#"):
        continue
    if line.startswith("Types:"):
        line = "Types: deb-src"
    elif line.startswith("Suites:"):
        line = "Suites: trixie"
    elif line.startswith("Components:"):
        line = "Components: main"
    out.append(line)
pathlib.Path(sys.argv[1]).write_text("\n".join(out) + "\n")
PY
  fi
  $SUDO apt-get update -o Dir::Etc::sourcelist="$SRC_LIST" -o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0
  rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
  apt-get source --download-only "pocl=$POCL_VERSION"
  dpkg-source --no-check -x pocl_*.dsc src >/dev/null
  for patch_file in "$PATCH_DIR"/*.patch; do
    patch -d src -p1 --forward --batch --quiet <"$patch_file" ||
      { echo "pocl: $(basename "$patch_file") does not apply" >&2; exit 1; }
  done
  mkdir -p build; cd build
  cmake ../src "${CMAKE_FLAGS[@]}" >cmake.log 2>&1 || { tail -50 cmake.log; exit 1; }
  ninja -j"$(nproc)" >ninja.log 2>&1 || { tail -80 ninja.log; exit 1; }
  $SUDO rm -rf "$PREFIX"
  $SUDO ninja install >/dev/null
  echo "$STAMP_TEXT" | $SUDO tee "$STAMP_FILE" >/dev/null
  rm -rf "$WORK"
fi

$SUDO mkdir -p /etc/OpenCL/vendors "$PREFIX/etc/OpenCL/vendors"
echo "$PREFIX/lib/libpocl.so.2" | $SUDO tee "$ICD_FILE" >/dev/null
# A vendor folder holding only this PoCL, for OCL_ICD_VENDORS: tests see exactly one platform
# even when Debian's PoCL 3.1 is installed too.
echo "$PREFIX/lib/libpocl.so.2" | $SUDO tee "$PREFIX/etc/OpenCL/vendors/pocl.icd" >/dev/null
