#!/usr/bin/env bash
# Every C++ file under version control is formatted as .clang-format says, by one pinned
# clang-format: Debian 12's clang-format-14 (third_party/install-deps.sh installs it). Versions
# format the same file differently, so the check names its version rather than taking whichever
# `clang-format` is first on PATH. To fix a failure: `tools/check_format.sh --fix`.
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${SPVJIT_CLANG_FORMAT:-clang-format-14}
if ! command -v "$CLANG_FORMAT" >/dev/null; then
  echo "format: $CLANG_FORMAT not found (expected Debian 12's clang-format-14; make deps installs it)"
  exit 1
fi
if ! "$CLANG_FORMAT" --version | grep -q 'version 14\.'; then
  echo "format: $CLANG_FORMAT is $("$CLANG_FORMAT" --version); expected version 14 (the pinned one)"
  exit 1
fi
if ! git rev-parse --show-toplevel >/dev/null 2>&1; then
  # A source archive: the files to check are the ones git tracks, and there is no git here.
  echo "format: skipped: not a git checkout (the check lists the files git tracks)"
  exit 77
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
if [ "${1:-}" = "--fix" ]; then
  "$CLANG_FORMAT" -i "${files[@]}"
  echo "format: ${#files[@]} files formatted"
  exit 0
fi
# One clang-format per batch of files on every core, not one per file: 516 processes took 48 s
# of the test suite's time (issue #70), the batches 2 s. --dry-run -Werror names each file whose
# formatted text differs ("FILE:LINE:COL: error: code should be clang-formatted").
mapfile -t bad < <(printf '%s\0' "${files[@]}" |
  xargs -0 -P "$(nproc)" -n 32 "$CLANG_FORMAT" --dry-run -Werror 2>&1 >/dev/null |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ ${#bad[@]} -gt 0 ]; then
  echo "format: ${#bad[@]} of ${#files[@]} files differ from $CLANG_FORMAT's output:"
  printf '  %s\n' "${bad[@]}"
  echo "run tools/check_format.sh --fix (or $CLANG_FORMAT -i FILE) and commit the result"
  exit 1
fi
echo "format: all ${#files[@]} files as $CLANG_FORMAT formats them"
