#!/usr/bin/env python3
"""Joins the Google Benchmark JSON files of one suite run (run_suite.sh runs the in-process and
the fresh-process cases apart) into one: the first file's context, every file's benchmarks in
the order the suite registers them (random interleaving shuffles the order cases finish in).
Missing or empty inputs (Google Benchmark leaves an empty file when FILTER matched nothing in a
group) are skipped.

  merge_results.py OUT.json IN.json...
"""
import json
import os
import sys


def main():
    out = sys.argv[1]
    inputs = [p for p in sys.argv[2:] if os.path.exists(p) and os.path.getsize(p) > 0]
    merged = None
    for path in inputs:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        data["benchmarks"] = sorted(data.get("benchmarks", []),
                                    key=lambda e: e.get("family_index", 0))
        if merged is None:
            merged = data
        else:
            merged["benchmarks"].extend(data.get("benchmarks", []))
    if merged is None:
        print("merge_results: no results to merge (did FILTER match any case?)", file=sys.stderr)
        return 1
    with open(out, "w", encoding="utf-8") as f:
        json.dump(merged, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
