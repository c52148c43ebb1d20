#!/usr/bin/env python3
"""Draws the suite's two figures from a results JSON (Debian's python3-matplotlib):

  launch_latency.png    launch + synchronize per KA case: spvjit, raw OpenCL, KA's published
  saxpy_throughput.png  saxpy bytes/s against size, one panel per type: spvjit, OpenMP

  plot.py [--reference TSV] [--out-dir DIR] RESULTS.json
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only; no display on the benchmark machines
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gbench_results  # noqa: E402
import ka_reference  # noqa: E402

LAUNCH_CASES = [
    "static workgroup, static ndrange",
    "static workgroup, dynamic ndrange",
    "dynamic workgroup, dynamic ndrange",
    "dynamic workgroup, dynamic ndrange, workgroupsize given",
    "3D static workgroup, static ndrange",
    "3D static workgroup, dynamic ndrange",
]
TYPES = ["Float16", "Float32", "Float64"]
BYTES_PER_ELEMENT = {"Float16": 2, "Float32": 4, "Float64": 8}


def usable(case):
    return case is not None and not case.error and case.median > 0


def plot_launch(run, reference, path):
    series = [
        ("spvjit", lambda c: run.get(f"launch/{c}")),
        ("raw OpenCL (same SPIR-V)", lambda c: run.get(f"baseline/raw_opencl/launch/{c}")),
        ("KA PR #768 (published, GitHub runner)", lambda c: reference["time"].get(f"launch/{c}")),
    ]
    fig, ax = plt.subplots(figsize=(10, 5))
    height = 0.8 / len(series)
    drawn = False
    for s, (label, lookup) in enumerate(series):
        ys, xs, errs = [], [], []
        for i, case in enumerate(LAUNCH_CASES):
            found = lookup(case)
            if isinstance(found, ka_reference.Entry):
                found = found.pr
                if found is None:
                    continue
            elif not usable(found):
                continue
            ys.append(i + (s - (len(series) - 1) / 2) * height)
            xs.append(found.median * 1e6)
            errs.append(found.spread * 1e6)
        if xs:
            ax.barh(ys, xs, height=height, xerr=errs, capsize=2, label=label)
            drawn = True
    ax.set_yticks(range(len(LAUNCH_CASES)))
    ax.set_yticklabels(LAUNCH_CASES)
    ax.invert_yaxis()
    ax.set_xlabel("launch + synchronize, μs (median ± spread)")
    ax.set_title("Launch latency: A[i] = 2·B[i], 16 or 4×4×4 Float64 elements")
    if drawn:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=len(series),
                  fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)


def saxpy_points(cases, prefix, element_bytes):
    """(elements, GB/s) for every usable case named prefix + <elements>."""
    points = []
    for name, case in cases.items():
        if isinstance(case, ka_reference.Entry):
            case = case.pr
        elif not usable(case):
            continue
        if name.startswith(prefix) and case is not None:
            n = int(name[len(prefix):])
            points.append((n, 3 * n * element_bytes / case.median / 1e9))
    return sorted(points)


def plot_saxpy(run, reference, path):
    fig, axes = plt.subplots(1, len(TYPES), figsize=(15, 4.5), sharey=True)
    for ax, t in zip(axes, TYPES):
        for label, cases, prefix, style in (
            ("spvjit default", run, f"saxpy/default/{t}/", "o-"),
            ("spvjit static workgroup=(1024,)", run, f"saxpy/static workgroup=(1024,)/{t}/", "s-"),
            ("OpenMP (-O3 -march=native)", run, f"baseline/openmp/saxpy/{t}/", "^--"),
            ("KA PR #768 default (published)", reference["time"], f"saxpy/default/{t}/", "x:"),
        ):
            points = saxpy_points(cases, prefix, BYTES_PER_ELEMENT[t])
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], style, label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"saxpy {t}")
        ax.set_xlabel("elements")
        ax.grid(True, which="both", alpha=0.3)
        if ax.lines:
            ax.legend(loc="upper left", fontsize="small")
    axes[0].set_ylabel("GB/s moved (3 arrays), launch + synchronize")
    fig.tight_layout()
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", metavar="RESULTS.json")
    parser.add_argument("--reference", default="", help="KA's table (TSV); optional")
    parser.add_argument("--out-dir", default=".")
    args = parser.parse_args()
    run = gbench_results.load(args.results)
    reference = ka_reference.load(args.reference)
    os.makedirs(args.out_dir, exist_ok=True)
    launch_png = os.path.join(args.out_dir, "launch_latency.png")
    saxpy_png = os.path.join(args.out_dir, "saxpy_throughput.png")
    plot_launch(run, reference, launch_png)
    plot_saxpy(run, reference, saxpy_png)
    print(f"plots: {launch_png} {saxpy_png}")


if __name__ == "__main__":
    main()
