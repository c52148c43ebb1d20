#!/usr/bin/env bash
# Runs one stage of a make target and says how long it took: `stage.sh <name> <command...>`
# prints "stage <name>: <seconds> s" after the command, and exits with the command's status.
set -uo pipefail
name=$1
shift
start=$(date +%s)
"$@"
status=$?
echo "stage $name: $(( $(date +%s) - start )) s$([ $status -eq 0 ] || echo " (failed, exit $status)")"
exit $status
