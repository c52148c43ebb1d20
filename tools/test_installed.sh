#!/usr/bin/env bash
# CTest driver: installs the build into a fresh prefix and starts the installed `spvjit` with an
# empty environment (no LD_LIBRARY_PATH): it must find its libspvjit.so through its RUNPATH.
# OCL_ICD_VENDORS and POCL_CACHE_DIR pass through when set, so `devices` sees the spvjit PoCL.
set -u
build=$1
prefix=$(mktemp -d /tmp/spvjit-install-XXXXXX)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
cli=$(find "$prefix" -path '*/bin/spvjit' -type f)
keep=()
for v in OCL_ICD_VENDORS POCL_CACHE_DIR; do
  [ -n "${!v:-}" ] && keep+=("$v=${!v}")
done
fail=0
for args in "--help" "devices"; do
  # shellcheck disable=SC2086  # one word or none
  if out=$(env -i "${keep[@]}" "$cli" $args 2>&1); then
    echo "ok: installed spvjit $args"
  else
    echo "FAIL: installed spvjit $args (readelf: $(readelf -d "$cli" | grep -E 'RUNPATH|RPATH'))"
    echo "$out" | head -20
    fail=1
  fi
done
exit $fail
