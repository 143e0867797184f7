#!/usr/bin/python3
"""Prints a short table of a benchmark JSON written by ./lab bench.

Every row: the benchmark (op/isa/technique/shape/density), the median time per call,
the effective int8 MAC rate for affine, and the speedup over the op's scalar reference at
the same shape, measured in the same run. Standard library only.
"""
import json
import re
import statistics
import sys
from collections import OrderedDict

NAME = re.compile(r"^(?P<op>[a-z0-9_]+)/(?P<isa>[a-z0-9-]+)/(?P<tech>[a-z0-9_]+)/"
                  r"(?P<shape>[^/]+)/(?P<kind>[a-z0-9-]+):(?P<pct>[0-9.]+)")


# Google Benchmark appends these to the names the harness registers.
GB_SUFFIX = re.compile(r"/(min_time:[0-9.]+|manual_time|repeats:[0-9]+|iterations:[0-9]+|real_time)")


def base_name(name):
    """The grammar name <op>/<isa>/<technique>/<shape>/<kind>:<percent> of a result."""
    return GB_SUFFIX.sub("", name)


def parse(name):
    m = NAME.match(name)
    return m.groupdict() if m else None


def load(path):
    with open(path) as f:
        data = json.load(f)
    runs = OrderedDict()   # name -> list of per-call ns (several with repetitions)
    extra = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate":
            continue
        name = base_name(b["name"])
        if b.get("error_occurred"):
            extra[name] = {"error": b.get("error_message", "error")}
            runs.setdefault(name, [])
            continue
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        runs.setdefault(name, []).append(b["real_time"] * scale)
        extra[name] = b
    return data.get("context", {}), runs, extra


def main(paths):
    for path in paths:
        ctx, runs, extra = load(path)
        print(f"\n{path}\nCPU: {ctx.get('nnuelab_cpu_model', '?')}  features: {ctx.get('nnuelab_cpu_features', '?')}"
              f"\ncompiler: {ctx.get('nnuelab_compiler', '?')}  grid: {ctx.get('nnuelab_grid', '?')}  date: {ctx.get('date', '?')}")
        ref = {}
        for name, times in runs.items():
            p = parse(name)
            if p and p["tech"] == "reference" and times:
                ref[(p["op"], p["shape"])] = statistics.median(times)
        header = f"{'benchmark':58} {'ns/call':>10} {'GMAC/s':>8} {'x ref':>7}"
        print(header)
        print("-" * len(header))
        for name, times in runs.items():
            p = parse(name)
            e = extra.get(name, {})
            if "error" in e:
                print(f"{name:58} {e['error']}")
                continue
            if not times:
                continue
            t = statistics.median(times)
            macs = e.get("macs")
            gmacs = f"{macs / 1e9:8.1f}" if macs else " " * 8
            r = ref.get((p["op"], p["shape"])) if p else None
            speed = f"{r / t:7.1f}" if r and t > 0 else " " * 7
            label = " (emulated)" if e.get("label") == "emulated" else ""
            print(f"{name:58} {t:10.1f} {gmacs} {speed}{label}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: summary.py RESULT.json [...]")
    main(sys.argv[1:])
