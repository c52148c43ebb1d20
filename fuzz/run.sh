#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-15 (+ ASan and UBSan) in build-fuzz/ (CMake preset
# fuzz, CMakePresets.json) and runs each one for a bounded time, starting from its checked-in
# seed corpus (`make fuzz`):
#
#   fuzz/run.sh [seconds per target, default 60]
#
# New inputs go to a scratch directory, never into fuzz/corpus/; a crashing input is saved
# under build-fuzz/fuzz/artifacts/ and the script fails. Without clang-15 or its libFuzzer
# runtime (Debian 12: libclang-common-15-dev) the targets are skipped, not failed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
dir=build-fuzz  # the fuzz preset's binaryDir
root=$PWD
export OCL_ICD_VENDORS=${OCL_ICD_VENDORS:-/opt/spvjit-pocl-6.0/etc/OpenCL/vendors}

if ! command -v clang++-15 >/dev/null; then
  echo "fuzz: clang++-15 not installed; fuzz targets skipped"
  exit 0
fi
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

# libFuzzer's own leak check runs per input; LSan suppressions cover PoCL's caches.
source sanitizers/asan_env.sh "$root"
mkdir -p "$dir/fuzz/artifacts"
# One target: runs it, its output to $2; returns 3 when the target was not built.
fuzz_one() {
  local corpus=$1 out=$2 name exe scratch log status
  name=$(basename "$corpus")
  exe="$dir/fuzz/$name"
  if [ ! -x "$exe" ]; then
    echo "fuzz: $name was not built (libFuzzer runtime missing?); skipped" >"$out"
    return 3
  fi
  scratch=$(mktemp -d)
  log=$(mktemp)
  {
    echo "fuzz: $name for ${seconds} s from $(ls "$corpus" | wc -l) seeds"
    status=0
    "$exe" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$dir/fuzz/artifacts/$name-" "$scratch" "$corpus" >"$log" 2>&1 ||
      status=$?
    cat "$log"
  } >"$out" 2>&1
  rm -f "$log"
  echo "fuzz: $name grew the corpus to $(ls "$scratch" | wc -l) new inputs" >>"$out"
  rm -rf "$scratch"
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $name FAILED (exit $status); the input is in $dir/fuzz/artifacts/" >>"$out"
    return 1
  fi
}

# The targets side by side, as many at a time as there are cores (each keeps a core for its
# whole time: a 60 s target is 60 s of one core's fuzzing, as when they ran one by one, and
# make test waits a third less on two cores). Each target's output is shown whole when it ends.
slots=$(nproc)
outs=$(mktemp -d)
corpora=(fuzz/corpus/*/)
ran=0
failed=0
for ((i = 0; i < ${#corpora[@]}; i += slots)); do
  pids=()
  for ((j = i; j < i + slots && j < ${#corpora[@]}; j++)); do
    fuzz_one "${corpora[$j]}" "$outs/$j" &
    pids+=($!)
  done
  for ((j = i; j < i + slots && j < ${#corpora[@]}; j++)); do
    status=0
    wait "${pids[$((j - i))]}" || status=$?
    cat "$outs/$j"
    case "$status" in
      0) ran=$((ran + 1)) ;;
      3) ;;  # not built: skipped
      *) failed=1 ;;
    esac
  done
done
rm -rf "$outs"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a target failed (above)" >&2
  exit 1
fi
echo "fuzz: $ran target(s) ran clean"
