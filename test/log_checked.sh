#!/usr/bin/env bash
# A test that passes when a program succeeds and its log says what it must (CTest's tests made by
# spvjit_log_checked_test, test/CMakeLists.txt):
#
#   test/log_checked.sh [--has TEXT]... [--lacks TEXT]... -- PROGRAM [ARGUMENTS]...
#
# Runs PROGRAM, prints its output without spvjit's debug lines, and fails, saying which, when
# the output lacks a --has TEXT or holds a --lacks TEXT (grep's basic expressions), or with the
# program's own status. The texts are what makes such a test able to fail: the path it checks
# really ran (a loop cut, a kernel coarsened in dimension 1), or really did not.
# No pipefail: grep -q stops reading at its first match, which would fail the writer.
set -u
has=()
lacks=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    --has) has+=("$2"); shift 2 ;;
    --lacks) lacks+=("$2"); shift 2 ;;
    *) echo "log_checked.sh: unknown option '$1'; expected --has, --lacks or --" >&2; exit 2 ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: log_checked.sh [--has TEXT]... [--lacks TEXT]... -- PROGRAM [ARGUMENTS]..." >&2; exit 2; }
shift
out=$("$@" 2>&1)
rc=$?
grep -v '^.spvjit debug' <<<"$out"
for text in "${has[@]}"; do
  grep -q -- "$text" <<<"$out" || { echo "log_checked.sh: the log never says '$text'"; exit 1; }
done
for text in "${lacks[@]}"; do
  ! grep -q -- "$text" <<<"$out" || { echo "log_checked.sh: the log says '$text'"; exit 1; }
done
exit $rc
