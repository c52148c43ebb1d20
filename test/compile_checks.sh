#!/usr/bin/env bash
# Compiles test/compile_checks/ against the public headers as an application would:
# designated_initializers.cpp must build under -Wall -Wextra -Werror; each fail_*.cpp must not
# compile, with the text of its "// expect:" line in the compiler's message.
# Usage: compile_checks.sh <c++ compiler> <include dir>...
set -u
cxx=$1
shift
includes=()
for dir in "$@"; do includes+=("-I$dir"); done
here="$(dirname "$0")/compile_checks"
export LC_ALL=C  # ASCII quotes in messages, as the expect lines write them
flags=(-std=c++20 -Wall -Wextra -Werror -fsyntax-only)
status=0
if ! "$cxx" "${flags[@]}" "${includes[@]}" "$here/designated_initializers.cpp"; then
  echo "FAIL designated_initializers.cpp: designated initializers warn or do not compile"
  status=1
fi
for file in "$here"/fail_*.cpp; do
  expect=$(sed -n 's|^// expect: ||p' "$file")
  # Without it any refusal would pass (clang-format once folded such a line into the comment
  # above it).
  if [ -z "$expect" ]; then
    echo "FAIL $(basename "$file"): no \"// expect: <text of the compiler's message>\" line"
    status=1
    continue
  fi
  if out=$("$cxx" "${flags[@]}" "${includes[@]}" "$file" 2>&1); then
    echo "FAIL $(basename "$file"): compiled, but must not"
    status=1
  elif ! grep -qF -- "$expect" <<<"$out"; then
    echo "FAIL $(basename "$file"): the compiler's message lacks \"$expect\":"
    echo "$out" | head -40
    status=1
  fi
done
[ $status -eq 0 ] && echo "compile checks: designated initializers build warning-free; each fail_*.cpp is refused as expected"
exit $status
