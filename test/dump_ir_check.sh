#!/usr/bin/env bash
# Every step from finish() to the SPIR-V is logged and dumped (jit/pipeline.hpp): one barrier
# kernel of the stream example run with SPVJIT_DUMP_IR and SPVJIT_LOG=debug must leave its
# definition's steps and its compile's passes as files, and a log line for each, checks included.
#
#   test/dump_ir_check.sh <spvjit_tests>
set -euo pipefail
tests=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The defaults decide which conditional passes run, and so the steps' numbers below.
log=$(env -u SPVJIT_COARSEN -u SPVJIT_COARSEN_VECTORS -u SPVJIT_BOUNDS_CHECKS -u SPVJIT_GROUP_LOOPS \
  -u SPVJIT_GROUP_UNIFORM_LOOPS -u SPVJIT_GROUP_GRID_STRIDE SPVJIT_DUMP_IR="$dir" SPVJIT_LOG=debug SPVJIT_CACHE=off \
  "$tests" --test-case="examples::stream_dot: each group*" 2>&1) || {
  echo "$log" | tail -20
  exit 1
}
status=0
files=$(ls "$dir")
expect_file() {  # <step> <extension>
  if ! grep -qE "^stream_dot64\.[0-9]+\.[0-9]{2}-$1\.$2\$" <<<"$files"; then
    echo "FAIL: no dump of stream_dot64's step $1 (.$2)"
    status=1
  fi
}
for step in close-body enter-body hidden-arguments declarations order-blocks; do
  expect_file "$step" ll
done
for step in specialize canonicalize fuse-fmuladd unroll-private-array-loops promote-private-arrays merge-bounds-checks cse lower-bounds-checks group-loops \
  lower-float-atomics; do
  expect_file "$step" ll
done
expect_file translate spv
for line in "kernel 'stream_dot64' definition: pass 1 close-body" \
  "kernel 'stream_dot64' definition: pass 7 verify" \
  "kernel 'stream_dot64' definition: pass 8 check-barriers-uniform" \
  "kernel 'stream_dot64' (workgroup (64,), ndrange dynamic): pass 1 specialize" \
  "kernel 'stream_dot64' (workgroup (64,), ndrange dynamic): pass 15 device-refusals" \
  "kernel 'stream_dot64' (workgroup (64,), ndrange dynamic): pass 16 translate" \
  "kernel 'stream_dot64' (workgroup (64,), ndrange dynamic): pass 17 offset-safety"; do
  if ! grep -qF -- "$line" <<<"$log"; then
    echo "FAIL: no log line with \"$line\""
    status=1
  fi
done
# A dump that cannot be written (here the first file goes to /dev/full, as to a full disk) is
# warned of, and the host's process goes on: raw_fd_ostream ends it with report_fatal_error if
# the write error is left unread.
full=$(mktemp -d)
trap 'rm -rf "$dir" "$full"' EXIT
ln -s /dev/full "$full/stream_dot1.1.01-close-body.ll"
if ! log=$(env -u SPVJIT_LOG SPVJIT_DUMP_IR="$full" SPVJIT_CACHE=off \
  "$tests" --test-case="examples::stream_dot: each group*" 2>&1); then
  echo "FAIL: a dump that cannot be written stopped the process:"
  echo "$log" | tail -5
  status=1
elif ! grep -qF "SPVJIT_DUMP_IR: cannot write $full/stream_dot1.1.01-close-body.ll" <<<"$log"; then
  echo "FAIL: no warning of the dump that could not be written"
  status=1
fi
[ $status -eq 0 ] && echo "dump_ir: stream_dot64's definition steps and compile passes dumped and logged; a failed dump is warned of"
exit $status
