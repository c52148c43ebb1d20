#!/usr/bin/env bash
# `make test` as a new machine runs it (issue #70): a fresh clone of HEAD, an empty compiler
# cache, no PoCL (built again, into a prefix of this run's own), and no PoCL or spvjit kernel
# caches. Nothing of the usual clone's state is moved or deleted.
#
#   tools/cold_test.sh [WORK_DIR]      (default /var/tmp/spvjit-cold, emptied first)
#
# Prints each stage's time (make test's "stage" lines) and the total, and exits with make
# test's status; WORK_DIR keeps the clone, the caches and make-test.log for a look.
# Not cold here: the Debian packages third_party/install-deps.sh installs stay installed, so
# the deps stage is quicker than on a new machine; and the system ICD file
# (/etc/OpenCL/vendors/spvjit-pocl6.icd) names this run's PoCL afterwards, until `make deps` in
# the usual clone (which reuses its PoCL) names /opt/spvjit-pocl-6.0 again.
set -euo pipefail
src=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=${1:-/var/tmp/spvjit-cold}
rm -rf "$work"
mkdir -p "$work"
git clone -q "$src" "$work/clone"
echo "cold make test of $(git -C "$work/clone" rev-parse --short HEAD) in $work/clone"
export CCACHE_DIR=$work/ccache XDG_CACHE_HOME=$work/cache
unset POCL_CACHE_DIR SPVJIT_CACHE_DIR OCL_ICD_VENDORS
start=$(date +%s)
status=0
make -C "$work/clone" test POCL_PREFIX="$work/pocl" >"$work/make-test.log" 2>&1 || status=$?
grep '^stage ' "$work/make-test.log" || true
echo "total: $(( $(date +%s) - start )) s; make test exit $status (log: $work/make-test.log)"
exit $status
