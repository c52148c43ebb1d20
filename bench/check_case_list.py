#!/usr/bin/env python3
"""The case-list test: every benchmark named in KA's reference table must be a case of
spvjit_bench (`--benchmark_list_tests`), spelled exactly the same. spvjit's extra cases
(baselines, compile/*, launch_async/*) are fine. Exits 77 (skipped) without the table.

  check_case_list.py path/to/spvjit_bench path/to/ka-pr768-benchmarks.tsv
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ka_reference  # noqa: E402

SKIPPED = 77


def main():
    bench, reference = sys.argv[1], sys.argv[2]
    if not os.path.exists(reference):
        print(f"SKIPPED: KA's reference table is not at {reference} "
              "(it comes from shared/reference beside the repository)")
        return SKIPPED
    expected = ka_reference.names(reference)
    if not expected:
        print(f"FAILED: no benchmark names in the time section of {reference}")
        return 1
    listed = subprocess.run([bench, "--benchmark_list_tests"], check=True,
                            capture_output=True, text=True).stdout.splitlines()
    missing = [name for name in expected if name not in set(listed)]
    if missing:
        print(f"FAILED: {len(missing)} of KA's {len(expected)} benchmarks are not in the suite:")
        for name in missing:
            print(f"  {name}")
        return 1
    extra = len(set(listed) - set(expected))
    print(f"ok: all {len(expected)} of KA's benchmarks are cases of the suite "
          f"(plus {extra} of spvjit's own)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
