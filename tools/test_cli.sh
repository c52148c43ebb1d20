#!/usr/bin/env bash
# CTest driver for the spvjit CLI: each command's output and exit code.
#   test_cli.sh <spvjit> with-bench|without-bench (whether the build has the benchmark suite)
set -u
cli=$1
bench=${2:-with-bench}
fail=0
expect() {  # expect <exit code> <text the output must contain> <args...>
  local code=$1 text=$2
  shift 2
  local out rc
  out=$(timeout 60 "$cli" "$@" 2>&1)  # a hang fails (exit 124) instead of stalling CTest
  rc=$?
  if [ "$rc" -ne "$code" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL: spvjit $* -> exit $rc (expected $code), output lacks '$text':"
    echo "$out" | head -20
    fail=1
  else
    echo "ok: spvjit $* -> $rc"
  fi
}
expect 0 "spvjit " version
expect 0 "usage: spvjit" help
expect 2 "usage: spvjit" 
expect 2 "unknown command 'frobnicate'" frobnicate
expect 0 "SPIR-V:          yes" devices
expect 2 "takes no arguments" devices extra
expect 0 "define spir_kernel void @saxpy_f32" dump saxpy-f32
expect 0 "OpEntryPoint Kernel" dump saxpy-f16
expect 2 "unknown kernel 'nope'" dump nope
expect 2 "usage: spvjit dump" dump
if [ "$bench" = with-bench ]; then
  expect 0 "launch/static workgroup, static ndrange" bench --benchmark_list_tests
else
  expect 1 "cannot find the benchmark executable" bench --benchmark_list_tests
fi
# Diagnostics: SPVJIT_LOG=info names the device; unset, nothing is logged.
if SPVJIT_LOG=info "$cli" dump saxpy-f32 2>&1 >/dev/null | grep -q '^\[spvjit info\] device: '; then
  echo "ok: SPVJIT_LOG=info logs the device choice"
else
  echo "FAIL: SPVJIT_LOG=info did not log the device choice"; fail=1
fi
if "$cli" dump saxpy-f32 2>&1 >/dev/null | grep -q '\[spvjit'; then
  echo "FAIL: logging without SPVJIT_LOG"; fail=1
fi
# SPVJIT_DUMP_IR: the module after each pass of the pipeline, and SPVJIT_LOG=debug names each.
dump=$(mktemp -d)
log=$(SPVJIT_DUMP_IR="$dump" SPVJIT_LOG=debug "$cli" dump saxpy-f32 2>&1 >/dev/null)
if ls "$dump" | grep -q -- '-merge-bounds-checks\.ll$' &&
   grep -q "define spir_kernel void @saxpy_f32" "$dump"/*-lower-bounds-checks.ll &&
   grep -q ': pass [0-9]* merge-bounds-checks in ' <<<"$log"; then
  echo "ok: SPVJIT_DUMP_IR writes the IR after each pass, SPVJIT_LOG=debug logs each"
else
  echo "FAIL: SPVJIT_DUMP_IR wrote: $(ls "$dump" | head -5); log: $(head -5 <<<"$log")"; fail=1
fi
rm -rf "$dump"

# The cache commands on a private directory holding one compiled kernel.
export SPVJIT_CACHE_DIR=$(mktemp -d)
expect 0 "$SPVJIT_CACHE_DIR" cache dir
expect 0 "entries:     0" cache stats
"$cli" dump saxpy-f32 >/dev/null 2>&1  # dump only translates: still no entry
expect 2 "usage: spvjit cache" cache bogus
expect 0 "removed 0 files" cache clear
# A FIFO named like an entry is no entry: stats skip it, clear removes it, neither opens it.
mkfifo "$SPVJIT_CACHE_DIR/odd.spvk"
expect 0 "entries:     0" cache stats
expect 0 "removed 1 files" cache clear
rm -rf "$SPVJIT_CACHE_DIR"
unset SPVJIT_CACHE_DIR

# Without a device, `devices` says why PoCL did not start.
out=$(POCL_DEVICES=garbage "$cli" devices 2>&1)
if [ $? -eq 1 ] && grep -qF "POCL_DEVICES='garbage' names no CPU driver" <<<"$out"; then
  echo "ok: spvjit devices names a POCL_DEVICES without a CPU driver"
else
  echo "FAIL: POCL_DEVICES=garbage spvjit devices:"; echo "$out" | head -5; fail=1
fi
exit $fail
