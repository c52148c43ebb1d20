#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-15 (+ ASan and UBSan) in build-fuzz/ (CMake preset
# fuzz, CMakePresets.json) and runs each one for a bounded time, starting from its checked-in
# seed corpus (`make fuzz`):
#
#   fuzz/run.sh [seconds of the stage's cores, default 60: each target's share below]
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
# One target: runs it for $3 seconds, its output to $2; returns 3 when the target was not built.
fuzz_one() {
  local corpus=$1 out=$2 seconds=$3 name exe scratch log status
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

# The stage's cores for `seconds`: each target gets a share of slots x seconds core-seconds (at
# most `seconds`), by how slowly it finds its inputs, and the targets run side by side, the
# longest first, a slot taking the next target as it frees (each keeps a core for its whole
# time). Runs per minute at 637ebd2, cold: disk_cache_entry 9.6 million (one entry parsed per
# input; its coverage stops growing within seconds), launch_geometry 2,500 (a launch per
# input), kernel_builder 558 (a kernel compiled per input). On two cores at 60 s: 60, 45 and 15
# s in 60 s of the stage, where each for 60 s, two at a time, took 120. A target not listed
# weighs as kernel_builder. Each target's output is shown whole when it ends.
declare -A weight=([kernel_builder_fuzzer]=4 [launch_geometry_fuzzer]=3 [disk_cache_entry_fuzzer]=1)
slots=$(nproc)
outs=$(mktemp -d)
corpora=(fuzz/corpus/*/)
total_weight=0
for corpus in "${corpora[@]}"; do
  total_weight=$((total_weight + ${weight[$(basename "$corpus")]:-4}))
done
# Longest first: the corpora sorted by weight, heaviest first.
mapfile -t queue < <(for corpus in "${corpora[@]}"; do
  echo "${weight[$(basename "$corpus")]:-4} $corpus"
done | sort -k1,1nr -k2 | cut -d' ' -f2-)
declare -A running=()  # pid -> index into queue
ran=0
failed=0
finish() {  # the target that ended as pid $1 with status $2
  local k=${running[$1]}
  unset "running[$1]"
  cat "$outs/$k"
  case "$2" in
    0) ran=$((ran + 1)) ;;
    3) ;;  # not built: skipped
    *) failed=1 ;;
  esac
}
for ((k = 0; k < ${#queue[@]}; k++)); do
  if [ "${#running[@]}" -ge "$slots" ]; then
    status=0
    wait -n -p ended "${!running[@]}" || status=$?
    finish "$ended" "$status"
  fi
  share=$(( ${weight[$(basename "${queue[$k]}")]:-4} * slots * seconds / total_weight ))
  [ "$share" -gt "$seconds" ] && share=$seconds
  [ "$share" -lt 1 ] && share=1
  fuzz_one "${queue[$k]}" "$outs/$k" "$share" &
  running[$!]=$k
done
while [ "${#running[@]}" -gt 0 ]; do
  status=0
  wait -n -p ended "${!running[@]}" || status=$?
  finish "$ended" "$status"
done
rm -rf "$outs"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: a target failed (above)" >&2
  exit 1
fi
echo "fuzz: $ran target(s) ran clean"
