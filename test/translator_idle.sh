#!/usr/bin/env bash
# spvjit-translate --serve <seconds> (tools/spvjit_translate.cpp): with no request for that long
# it writes its goodbye (one byte, 2) and exits 0, before its input ends; a bad number of
# seconds is refused with status 2 and a message.
#
#   test/translator_idle.sh PATH-TO-spvjit-translate
set -u
translator="$1"
fail() { echo "translator_idle.sh: $*"; exit 1; }

# Its input stays open for 20 s: it must leave after 1 s of it idle, not at its end.
start=$(date +%s%N)
# The sleep holds the input open and nothing else (not CTest's output: it would wait for it).
exec {input}< <(exec sleep 20 2>/dev/null)
holder=$!
bytes=$(timeout 15 "$translator" --serve 1 <&"$input" | od -An -tx1 | tr -d ' \n'; exit "${PIPESTATUS[0]}")
status=$?
kill "$holder" 2>/dev/null
exec {input}<&-
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$bytes" = "02" ] || fail "idle server wrote '$bytes', expected its goodbye 02"
[ "$status" -eq 0 ] || fail "idle server ended with status $status, expected 0"
[ "$elapsed_ms" -lt 10000 ] || fail "idle server took $elapsed_ms ms to leave, expected about 1000"
echo "idle server: its goodbye and status 0 after $elapsed_ms ms"

for bad in 0 -3 x 86401 "1 2"; do
  # shellcheck disable=SC2086
  err=$("$translator" --serve $bad </dev/null 2>&1 >/dev/null)
  rc=$?
  [ $rc -eq 2 ] || fail "--serve $bad: status $rc, expected 2"
  grep -q -- "--serve takes" <<<"$err" || fail "--serve $bad: no message ('$err')"
done
echo "bad --serve arguments: status 2 with a message"
