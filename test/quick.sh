#!/usr/bin/env bash
# The inner loop's tests (`make check`; docs/contributing.md, "Which tests when"):
#
#   test/quick.sh BUILD_DIR SECONDS
#
# Runs every CTest test of BUILD_DIR, two at a time, except those that took more than SECONDS
# when they last ran there, and except the soak. CTest records each test's time in
# Testing/Temporary/CTestCostData.txt but keeps only the tests of its latest run, so the times
# are merged into Testing/quick-costs.txt, the latest time of each test that ever ran. A test
# with no time yet (new, renamed) runs: the first check in a fresh build directory runs them all.
# The cases it leaves out run in `make test`.
set -euo pipefail
build=${1:?usage: test/quick.sh BUILD_DIR SECONDS}
seconds=${2:?usage: test/quick.sh BUILD_DIR SECONDS}
costs="$build/Testing/Temporary/CTestCostData.txt"
known="$build/Testing/quick-costs.txt"

# Lines "<name> <runs> <seconds>", up to a line "---" (failed tests follow it): the newer file's
# line for a name wins.
merge_costs() {
  [ -f "$costs" ] || return 0
  mkdir -p "$(dirname "$known")"
  touch "$known"
  awk '
    function name_of(line) { sub(/ [^ ]+ [^ ]+$/, "", line); return line }
    FNR == 1 { file++ }
    /^---/ { skip[file] = 1 }
    # A test left out of the latest run comes back mangled: the first word of its name and two
    # numbers, one of them 0 (a run count or a time no run has). Dropped.
    skip[file] || NF < 3 || $(NF - 1) + 0 == 0 || $NF + 0 == 0 { next }
    file == 1 { newer[name_of($0)] = $0; order[++n] = name_of($0); next }
    !(name_of($0) in newer) { print }
    END { for (i = 1; i <= n; i++) print newer[order[i]] }' "$costs" "$known" >"$known.new"
  mv "$known.new" "$known"
}

merge_costs
slow=()
if [ -f "$known" ]; then
  mapfile -t slow < <(awk -v limit="$seconds" '
    NF >= 3 && $NF + 0 > limit + 0 { name = $0; sub(/ [^ ]+ [^ ]+$/, "", name); print name }' "$known")
fi
# CTest's -E takes a regular expression: every name matched whole, its specials escaped.
escape() { sed -e 's/[][(){}.*+?^$|\\]/\\&/g' <<<"$1"; }
exclude='^spvjit_soak$'
for name in "${slow[@]}"; do exclude+="|^$(escape "$name")\$"; done
echo "check: leaving out ${#slow[@]} tests that took over $seconds s when they last ran, and the soak"
cd "$build"
status=0
ctest --output-on-failure -j2 -E "$exclude" || status=$?
cd - >/dev/null
merge_costs
exit $status
