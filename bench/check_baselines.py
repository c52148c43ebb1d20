#!/usr/bin/env python3
"""The baselines' own check: each compares its result with the expected one and marks its case
with an error when they differ (SkipWithError), which Google Benchmark reports but does not turn
into an exit status. This test runs the given cases briefly and fails on any error.

  check_baselines.py REGEX BENCH_BINARY...
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    regex, binaries = sys.argv[1], sys.argv[2:]
    failures, ran = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for binary in binaries:
            out = os.path.join(tmp, "out.json")
            subprocess.run([binary, f"--benchmark_filter={regex}", "--benchmark_min_time=0.001",
                            f"--benchmark_out={out}", "--benchmark_out_format=json"],
                           check=True, stdout=subprocess.DEVNULL)
            with open(out, encoding="utf-8") as f:
                for case in json.load(f).get("benchmarks", []):
                    ran += 1
                    if case.get("error_occurred"):
                        failures.append(f"{case['name']}: {case.get('error_message', '')}")
    for failure in failures:
        print("FAILED:", failure)
    if ran == 0:
        print(f"FAILED: no case matched {regex!r}")
        return 1
    if not failures:
        print(f"ok: {ran} baseline cases computed the expected results")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
