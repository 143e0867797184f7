#!/usr/bin/python3
"""The JSON's pct_peak is final (bench/pct_peak.h): usage check_pct_peak.py BENCH OUT.json

Runs nnuelab_bench on dense_blocked4 64x32 of every native ISA, three repetitions long
enough for a later peak window per ISA, and checks the file it writes: the context names
each ISA's final peak (nnuelab_pct_peak_basis), and every result's pct_peak is its rate
(useful_macs) as % of that peak, the cv aggregate the rate's own cv. The console's
provisional figures, made against the peak so far, would not match. The context also
carries the table of ISAs measured against another's peak (nnuelab_peak_isa_of), which
plots/results.py reads (checked on made-up files too). Exit 1 on a failure.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots"))
import results as R  # noqa: E402


def peak_isa_from_context():
    """results.py measures avx512vbmi2 against avx512vnni's peak benchmark as the file's
    context says, and falls back on the counter for a file that does not say it."""
    failures = []
    peak = {"name": "peak/avx512vnni/vpdpbusd/chains8/dense:100/manual_time", "run_type": "iteration",
            "iterations": 1, "real_time": 1.0, "time_unit": "ns", "macs_per_ns": 100.0}
    vbmi2 = {"name": "affine/avx512vbmi2/x/1024x32/chunk:15/manual_time", "run_type": "iteration", "iterations": 1,
             "real_time": 10.0, "time_unit": "ns", "useful_macs": 50e9, "pct_peak": 42.0}
    with tempfile.TemporaryDirectory() as d:
        for context, want in (({"nnuelab_peak_isa_of": "avx512vbmi2=avx512vnni"}, 50.0), ({}, 42.0)):
            path = os.path.join(d, "made_up.json")
            with open(path, "w") as f:
                json.dump({"context": context, "benchmarks": [peak, vbmi2]}, f)
            rf = R.load(path)
            got = rf.pct_peak(rf.results["affine/avx512vbmi2/x/1024x32/chunk:15"])
            if got is None or abs(got - want) > 1e-9:
                failures.append(f"results.py, context {context}: avx512vbmi2's pct_peak {got}, expected {want}")
    return failures


def main():
    bench, out = sys.argv[1], sys.argv[2]
    cmd = [bench, "--noise=0", "--benchmark_filter=^affine/[a-z0-9]+/dense_blocked4/64x32/",
           "--benchmark_repetitions=3", "--benchmark_min_time=0.3", f"--benchmark_out={out}"]
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        print(f"FAIL  nnuelab_bench exited {run.returncode}: {run.stderr.strip()}")
        return 1
    with open(out) as f:
        data = json.load(f)
    basis_text = data["context"].get("nnuelab_pct_peak_basis")
    if not basis_text:
        print("FAIL  no nnuelab_pct_peak_basis in the context")
        return 1
    basis = {}
    for isa, peak, windows in re.findall(r"([a-z0-9-]+) ([0-9.e+]+) MAC/ns \((\d+) windows", basis_text):
        basis[isa] = (float(peak), int(windows))
    print(f"basis: {basis_text}")
    failures, checked = [], 0
    for b in data["benchmarks"]:
        if "pct_peak" not in b:
            continue
        isa = b["name"].split("/")[1]
        if isa not in basis:
            failures.append(f"{b['name']}: pct_peak without a basis for {isa}")
            continue
        peak = basis[isa][0]
        want = b["useful_macs"] if b.get("aggregate_name") == "cv" else b["useful_macs"] * 1e-7 / peak
        got = b["pct_peak"]
        checked += 1
        if abs(got - want) > 1e-4 * abs(want) + 1e-12:
            failures.append(f"{b['name']}: pct_peak {got:.6g}, its rate against the final peak {want:.6g}")
    if checked == 0:
        failures.append("no result has pct_peak (no native ISA with a peak kernel was timed)")
    if data["context"].get("nnuelab_peak_isa_of") != "avx512vbmi2=avx512vnni":
        failures.append(f"context nnuelab_peak_isa_of: {data['context'].get('nnuelab_peak_isa_of')!r}")
    failures += peak_isa_from_context()
    # Each ISA's three repetitions span more than 0.5 s (about 2 s on the 2026-11-29 Xeon):
    # at least one window after the first.
    for isa, (_, windows) in basis.items():
        if windows < 2:
            failures.append(f"{isa}: one peak window, none later in the run")
    for f in failures:
        print(f"FAIL  {f}")
    print(f"{checked} pct_peak figures checked against {len(basis)} ISA peaks")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
