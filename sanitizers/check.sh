#!/usr/bin/env bash
# Builds spvjit under a sanitizer in its own build directory and runs the tests that matter
# for it (`make check-asan`, `make check-tsan`):
#
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer (+ LeakSanitizer): the whole doctest
#         suite in one process per core (each a range of its cases), in build-asan/ (CMake
#         preset asan, CMakePresets.json; only spvjit_tests and the programs it starts are
#         built, its test files at -O0: test/CMakeLists.txt): a few processes, each with the runtime's start-up
#         once, instead of one per case as CTest runs it. sanitizers/asan_env.sh has the options
#         every ASan run shares and why (LeakSanitizer's tracer crash at exit). With GCC:
#         clang-15, which the fuzz targets need (fuzz/run.sh, build-fuzz/), cannot capture
#         structured bindings in lambdas (C++20's P1091, clang 16), and the tests do, as
#         KernelAbstractions ports do.
#   tsan  ThreadSanitizer: the doctest suite "concurrency", in build-tsan/ (CMake preset tsan),
#         built alone: the library and the files that hold the suite (spvjit_concurrency_tests)
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
    source sanitizers/asan_env.sh "$root"
    export ASAN_OPTIONS="$ASAN_OPTIONS:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:use_sigaltstack=0"
    build=(cmake --build --preset asan --target spvjit_tests)
    run=(test/spvjit_tests)
    ;;
  tsan)
    dir=build-tsan  # the preset's binaryDir
    # No die_after_fork=0: nothing forks, and spvjit and PoCL start their translators with libc's
    # own clone (common/child_process.cpp says why). A start that reached TSan's clone interceptor
    # would make TSan take the process for a fork's child and refuse its next thread: the run
    # ends there, by name, rather than going on with the order between threads lost.
    export TSAN_OPTIONS="suppressions=$root/sanitizers/tsan.supp:halt_on_error=1:second_deadlock_stack=1:print_suppressions=0"
    # The suite's files are listed in test/CMakeLists.txt: a case added elsewhere would go
    # unchecked, so a file not in the list that holds one fails here.
    listed=$(sed -n '/^set(SPVJIT_CONCURRENCY_SOURCES/,/)/p' test/CMakeLists.txt | tr -s ' ()\n' '\n' |
             grep '\.cpp$' | sort)
    holding=$(grep -l 'TEST_SUITE("concurrency")' test/*.cpp | xargs -n1 basename | sort)
    if [ "$listed" != "$holding" ]; then
      echo "sanitizers: the files holding TEST_SUITE(\"concurrency\") are:" $holding >&2
      echo "  but SPVJIT_CONCURRENCY_SOURCES in test/CMakeLists.txt lists:" $listed >&2
      exit 1
    fi
    build=(cmake --build --preset tsan --target spvjit_concurrency_tests)
    run=(test/spvjit_concurrency_tests -ts=concurrency)
    ;;
  *) echo "sanitizers/check.sh: unknown kind '$kind'; expected asan or tsan" >&2; exit 2 ;;
esac

cmake --preset "$kind" >/dev/null
start=$(date +%s)
"${build[@]}"
echo "sanitizers: $kind built in $(( $(date +%s) - start )) s"
start=$(date +%s)
if [ "$kind" = asan ]; then
  # The suite in one process per core, each a range of the cases in one shuffled order: the cases
  # are independent (CTest runs each alone), and one process left the second core idle for the
  # 338 s of the run (issue #30). Each part's output is kept and shown whole, after the part ends.
  total=$(cd "$dir" && "${run[@]}" --count | sed -n 's/.*passing the current filters: \([0-9]*\).*/\1/p')
  parts=$(nproc); [ "$parts" -gt 4 ] && parts=4; [ "$parts" -lt 1 ] && parts=1
  logs=$(mktemp -d)
  pids=()
  for ((k = 0; k < parts; k++)); do
    first=$(( k * total / parts + 1 )); last=$(( (k + 1) * total / parts ))
    # One shuffled order for all parts (a fixed seed): the costly cases (kernel compiles, probe
    # processes) cluster by name, and contiguous ranges by name ran 2 and 4.5 minutes.
    (cd "$dir" && "${run[@]}" --order-by=rand --rand-seed=30 --first=$first --last=$last) \
      >"$logs/$k" 2>&1 &
    pids+=($!)
  done
  failed=0
  for ((k = 0; k < parts; k++)); do
    first=$(( k * total / parts + 1 )); last=$(( (k + 1) * total / parts ))
    wait "${pids[$k]}" || failed=1
    echo "sanitizers: asan part $((k + 1)) of $parts (cases $first-$last of $total, shuffled):"
    cat "$logs/$k"
  done
  rm -rf "$logs"
  if [ "$failed" != 0 ]; then
    echo "sanitizers: asan failed (a part above)" >&2
    exit 1
  fi
else
  (cd "$dir" && "${run[@]}")
fi
echo "sanitizers: $kind passed in $(( $(date +%s) - start )) s (${run[*]})"
