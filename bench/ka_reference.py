"""KernelAbstractions' published benchmark table (PR #768), read from the tab-separated file in
shared/reference: section (time or allocs), benchmark, main, pr, ratio."""
import csv
import os
import re
from dataclasses import dataclass

# Seconds per unit as KA's table writes them (BenchmarkTools' prettytime).
TIME_UNITS = {"ns": 1e-9, "μs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
TIME_RE = re.compile(r"^\s*([0-9.eE+-]+)\s*±\s*([0-9.eE+-]+)\s*(ns|μs|us|ms|s)\s*$")
ALLOCS_RE = re.compile(r"^\s*([0-9.eE+-]+)\s*(k\s*)?allocs:\s*([0-9.eE+-]+)\s*(B|kB|MB|GB)\s*$")
BYTE_UNITS = {"B": 1, "kB": 1024, "MB": 1024**2, "GB": 1024**3}


@dataclass
class Time:
    median: float  # seconds
    spread: float  # seconds


@dataclass
class Allocs:
    count: float
    bytes: float


@dataclass
class Entry:
    main: object = None  # Time or Allocs
    pr: object = None


def parse_time(text):
    m = TIME_RE.match(text)
    if not m:
        return None
    scale = TIME_UNITS[m.group(3)]
    return Time(float(m.group(1)) * scale, float(m.group(2)) * scale)


def parse_allocs(text):
    m = ALLOCS_RE.match(text)
    if not m:
        return None
    count = float(m.group(1)) * (1000 if m.group(2) else 1)
    return Allocs(count, float(m.group(3)) * BYTE_UNITS[m.group(4)])


def load(path):
    """{"time": {name: Entry}, "allocs": {name: Entry}}; empty when the file is absent."""
    table = {"time": {}, "allocs": {}}
    if not path or not os.path.exists(path):
        return table
    with open(path, encoding="utf-8") as f:
        rows = [line for line in f if line.strip() and not line.startswith("#")]
    for row in csv.DictReader(rows, delimiter="\t"):
        section = row.get("section")
        parse = {"time": parse_time, "allocs": parse_allocs}.get(section)
        if parse is None:
            continue
        table[section][row["benchmark"]] = Entry(parse(row["main"]), parse(row["pr"]))
    return table


def names(path):
    """The benchmark names of the time section, in file order."""
    return list(load(path)["time"].keys())
