#!/usr/bin/env bash
# Builds spvjit under a sanitizer in its own build directory and runs the tests that matter
# for it (`make check-asan`, `make check-tsan`):
#
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer): the whole doctest
#         suite, in build-asan/ (CMake preset asan, CMakePresets.json)
#   tsan  ThreadSanitizer: the doctest suite "concurrency", in build-tsan/ (CMake preset tsan)
#
# PoCL, libLLVM and the kernels PoCL compiles are not instrumented; sanitizers/*.supp hold
# the suppressions for their own reports, each with its reason. The malloc-interposing
# allocation counter is left out of these builds (SPVJIT_ALLOC_COUNTER=OFF, the default there).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:?usage: sanitizers/check.sh asan|tsan}
root=$PWD
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-/opt/spvjit-pocl-6.0/etc/OpenCL/vendors}

case "$kind" in
  asan)
    dir=build-asan  # the preset's binaryDir
    # use_sigaltstack=0: PoCL's static LLVM gives the thread that first registers its signal
    # handlers an alternate signal stack from malloc (lib/Support/Unix/Signals.inc,
    # CreateSigAltStack); when that thread (an inline worker, a compile's companion) exits, ASan
    # took the stack for its own and munmap'ed it: "AddressSanitizer failed to deallocate ...
    # unable to unmap" in AsanThread::Destroy, 1 run in 2 of the adaptive probe.
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:use_sigaltstack=0"
    export LSAN_OPTIONS="suppressions=$root/sanitizers/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    run=(test/spvjit_tests)
    ;;
  tsan)
    dir=build-tsan  # the preset's binaryDir
    # die_after_fork=0: TSan builds start spvjit-translate with fork() + exec
    # (common/child_process.cpp says why), which TSan would otherwise refuse in a threaded process.
    export TSAN_OPTIONS="suppressions=$root/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1:print_suppressions=0:die_after_fork=0"
    run=(test/spvjit_tests -ts=concurrency)
    ;;
  *) echo "sanitizers/check.sh: unknown kind '$kind'; expected asan or tsan" >&2; exit 2 ;;
esac

cmake --preset "$kind" >/dev/null
cmake --build --preset "$kind"
start=$(date +%s)
(cd "$dir" && "${run[@]}")
echo "sanitizers: $kind passed in $(( $(date +%s) - start )) s (${run[*]})"
