#!/usr/bin/env bash
# One FileCheck test of one pass: the file's `; PASS: <name>` line names the pass, its CHECK
# lines say what the pass must make of the IR above them (test/pass_runner.cpp).
#
#   test/passes/check.sh <spvjit_pass> <FileCheck> <file.ll>
set -euo pipefail
runner=$1 filecheck=$2 file=$3
pass=$(sed -n 's/^; PASS: *//p' "$file" | head -1)
if [ -z "$pass" ]; then
  echo "$file: no '; PASS: <name>' line" >&2
  exit 1
fi
# The line may add the pass's key=value options after its name (test/pass_runner.cpp).
read -r -a words <<<"$pass"
"$runner" "${words[@]}" "$file" | "$filecheck" --dump-input=fail "$file"
