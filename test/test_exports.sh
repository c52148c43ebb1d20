#!/usr/bin/env bash
# What libspvjit.so exports (include/spvjit/export.hpp): spvjit's public API and nothing else —
# no LLVM, no SPIRV-Tools, no standard-library instantiation, and of spvjit::detail only the
# functions and classes that public headers declare (their inline code calls them).
# Usage: test_exports.sh <libspvjit.so> <include/spvjit folder>
set -euo pipefail
lib="$1"
include="$2"
symbols=$(nm -D --defined-only "$lib" | awk '{print $3}' | c++filt)
[ -n "$symbols" ] || { echo "no exported symbols in $lib"; exit 1; }
status=0
foreign=$(grep -Ev '^(spvjit::|(typeinfo|typeinfo name|vtable|VTT) for spvjit::)' <<<"$symbols" || true)
if [ -n "$foreign" ]; then
  echo "exported symbols outside spvjit:"; head -20 <<<"$foreign"; status=1
fi
leaked=$(grep -Ei '(^|[^a-z])(llvm|spvtools|spv)::' <<<"$symbols" | grep -Ev '^spvjit::' || true)
if [ -n "$leaked" ]; then
  echo "LLVM or SPIRV-Tools symbols exported:"; head -20 <<<"$leaked"; status=1
fi
# Each spvjit::detail name exported must be declared in a public header.
names=$(grep -oE '^((typeinfo|typeinfo name|vtable) for )?spvjit::detail::[A-Za-z_0-9]+' <<<"$symbols" |
        sed -E 's/.*spvjit::detail:://' | sort -u)
for name in $names; do
  if ! grep -qrw -- "$name" "$include"; then
    echo "spvjit::detail::$name is exported but no public header declares it"; status=1
  fi
done
echo "$(wc -l <<<"$symbols") symbols exported; spvjit::detail names from public headers: $(wc -w <<<"$names")"
exit $status
