#!/usr/bin/python3
"""Prints a short table of a benchmark JSON written by ./lab bench.

Every row: the benchmark (op/isa/technique/shape/density), the median time per call, the
spread of its repetitions (coefficient of variation, %; blank for a single run), the
fastest repetition (blank for a single run), the
effective int8 MAC rate for affine, and the speedup over the op's scalar reference at the
same shape, measured in the same run. Standard library only; parsing is results.py's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import ResultError, load  # noqa: E402


def main(paths):
    for path in paths:
        rf = load(path)
        ctx = rf.context
        print(f"\n{path}\nCPU: {rf.cpu if ctx.get('nnuelab_cpu_model') else '?'}"
              f"{'  signature: ' + rf.cpu_signature if rf.cpu_signature else ''}  features: {ctx.get('nnuelab_cpu_features', '?')}"
              f"\ncompiler: {ctx.get('nnuelab_compiler', '?')}  grid: {ctx.get('nnuelab_grid', '?')}  date: {ctx.get('date', '?')}")
        if ctx.get("nnuelab_noise"):  # the slow-spell probe before the run (bench/noise_probe.h)
            print(f"noise: {ctx['nnuelab_noise']}")
        if ctx.get("nnuelab_interrupted"):  # SIGINT/SIGTERM: the rest of the run was skipped
            print(f"INTERRUPTED: {ctx['nnuelab_interrupted']}")
        if ctx.get("nnuelab_ft_weight_pages", "4 KiB") != "4 KiB":  # ./lab bench --huge-pages
            print(f"ft weights: {ctx['nnuelab_ft_weight_pages']}")
        header = f"{'benchmark':58} {'ns/call':>10} {'cv %':>6} {'min':>10} {'GMAC/s':>8} {'x ref':>7}"
        print(header)
        print("-" * len(header))
        for r in rf:
            if r.error is not None:
                print(f"{r.name:58} {r.error}")
                continue
            if not r.times:
                continue
            t = r.time
            cv = f"{r.spread:6.1f}" if r.spread is not None else " " * 6
            best = f"{r.best:10.1f}" if r.best is not None else " " * 10
            macs = r.counter("macs")
            gmacs = f"{macs / 1e9:8.1f}" if macs else " " * 8
            s = rf.speedup(r) if r.op else None
            speed = f"{s:7.1f}" if s else " " * 7
            label = " (emulated)" if r.label == "emulated" else ""
            if r.skipped:  # some repetitions timed, the rest skipped
                label += f" ({len(r.times)} of {len(r.times) + r.skipped} repetitions: {r.skip_reason})"
            print(f"{r.name:58} {t:10.1f} {cv} {best} {gmacs} {speed}{label}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: summary.py RESULT.json [...]")
    try:
        main(sys.argv[1:])
    except ResultError as e:
        sys.exit(f"summary.py: {e}")
