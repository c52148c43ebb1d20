"""Google Benchmark JSON (as spvjit_bench writes it with repetitions) reduced to one record per
case: median real time and its spread across repetitions, and the counters."""
import json
import statistics
from dataclasses import dataclass, field

SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
COUNTERS = ("allocs", "bytes", "bytes_per_second", "allocs_over_raw", "raw_allocs", "steps",
            "us_per_step")


@dataclass
class Case:
    name: str
    median: float = 0.0  # seconds per iteration
    spread: float = 0.0  # standard deviation across repetitions, seconds
    counters: dict = field(default_factory=dict)  # medians across repetitions
    error: str = ""


def _seconds(entry):
    return entry["real_time"] * SECONDS[entry.get("time_unit", "ns")]


def load(path):
    """{case name: Case}, in the order the suite ran them."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    runs, aggregates, order = {}, {}, []
    for e in data.get("benchmarks", []):
        name = e.get("run_name", e["name"])
        if name not in runs:
            runs[name], aggregates[name] = [], {}
            order.append(name)
        if e.get("error_occurred"):
            runs[name].append(e)
        elif e.get("run_type") == "aggregate":
            aggregates[name][e.get("aggregate_name")] = e
        else:
            runs[name].append(e)
    cases = {}
    for name in order:
        case = Case(name)
        errors = [e for e in runs[name] if e.get("error_occurred")]
        if errors:
            case.error = errors[0].get("error_message", "error")
        elif "median" in aggregates[name]:
            med = aggregates[name]["median"]
            case.median = _seconds(med)
            if "stddev" in aggregates[name]:
                case.spread = _seconds(aggregates[name]["stddev"])
            case.counters = {k: med[k] for k in COUNTERS if k in med}
        elif runs[name]:
            times = [_seconds(e) for e in runs[name]]
            case.median = statistics.median(times)
            case.spread = statistics.stdev(times) if len(times) > 1 else 0.0
            for k in COUNTERS:
                values = [e[k] for e in runs[name] if k in e]
                if values:
                    case.counters[k] = statistics.median(values)
        cases[name] = case
    return cases
