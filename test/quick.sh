#!/usr/bin/env bash
# The inner loop's tests (`make check`; docs/contributing.md, "Which tests when"):
#
#   test/quick.sh BUILD_DIR SECONDS
#
# Runs every CTest test of BUILD_DIR, two at a time, except those that took more than SECONDS in
# the last run CTest recorded there (its own Testing/Temporary/CTestCostData.txt), and except
# the soak. A test CTest has no time for (new, renamed, or no run yet) runs: the first check in
# a fresh build directory runs them all. The cases it leaves out run in `make test`.
set -euo pipefail
build=${1:?usage: test/quick.sh BUILD_DIR SECONDS}
seconds=${2:?usage: test/quick.sh BUILD_DIR SECONDS}
costs="$build/Testing/Temporary/CTestCostData.txt"

# One name a line, "<name> <runs> <seconds>", up to a line "---" (failed tests follow it).
slow=()
if [ -f "$costs" ]; then
  mapfile -t slow < <(awk -v limit="$seconds" '
    /^---/ { exit }
    NF >= 3 && $NF + 0 > limit + 0 { name = $0; sub(/ [^ ]+ [^ ]+$/, "", name); print name }' "$costs")
fi
# CTest's -E takes a regular expression: every name matched whole, its specials escaped.
escape() { sed -e 's/[][(){}.*+?^$|\\]/\\&/g' <<<"$1"; }
exclude='^spvjit_soak$'
for name in "${slow[@]}"; do exclude+="|^$(escape "$name")\$"; done
echo "check: leaving out ${#slow[@]} tests that took over $seconds s last time, and the soak"
cd "$build"
ctest --output-on-failure -j2 -E "$exclude"
