#!/usr/bin/env bash
# Runs one test process of a sanitizer build (the CROSSCOMPILING_EMULATOR of spvjit_tests there)
# and runs it once more when its only failure is LeakSanitizer's own tracer crashing in the
# exit-time leak check ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal
# error", after "Status: SUCCESS!"): seen in 2 of 464 case processes of one ASan run on this
# 2-core VM, and in the fuzz targets (fuzz/run.sh has the same rule). A leak report, an ASan or
# UBSan report, or any other failure is final.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for attempt in 1 2; do
  "$@" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  if [ "$status" -ne 0 ] && [ "$attempt" -eq 1 ] && grep -q "^Tracer caught signal" "$log" &&
     grep -q "LeakSanitizer has encountered a fatal error" "$log" &&
     ! grep -qE "ERROR: (AddressSanitizer|LeakSanitizer: detected)|runtime error:" "$log"; then
    echo "sanitizers: LeakSanitizer's tracer crashed at exit; running the case once more"
    continue
  fi
  exit "$status"
done
