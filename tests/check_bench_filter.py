#!/usr/bin/python3
"""A filter that selects no benchmark is refused: usage check_bench_filter.py BENCH OUT.json

Google Benchmark alone exits 0 after timing nothing when --benchmark_filter matches no name
or does not compile, so a script's typo passed as a run with nothing in it. nnuelab_bench
exits 2 instead, after Google Benchmark's own reason and a line of its own, runs no noise
probe and writes no result file (nor the journal beside it; a file already at the
--benchmark_out path is left as it was); --benchmark_list_tests with such a filter is
refused the same way. A filter that matches is listed and exits 0 (the
control: the check sees the difference). Exit 1 on a failure.
"""
import os
import subprocess
import sys

SENTINEL = '{"an earlier result": 1}\n'
CASES = (("^no_such_op/", "Failed to match any benchmarks against regex: ^no_such_op/"),
         ("^affine/(avx2", "Could not compile benchmark re:"))


def main():
    bench, out = sys.argv[1], sys.argv[2]
    failures = []
    for filt, reason in CASES:
        for mode, flags in (("time", ["--noise=0", "--benchmark_min_time=0.01", f"--benchmark_out={out}"]),
                            ("list", ["--benchmark_list_tests"])):
            # A result already at the path stays as it was (Google Benchmark would empty it).
            with open(out, "w") as f:
                f.write(SENTINEL)
            if os.path.exists(out + ".reps"):
                os.remove(out + ".reps")
            run = subprocess.run([bench, f"--benchmark_filter={filt}", *flags], capture_output=True, text=True)
            what = f"--benchmark_filter={filt} ({mode})"
            print(f"{what}: exit {run.returncode}, stderr {run.stderr.strip()!r}")
            if run.returncode != 2:
                failures.append(f"{what}: exit {run.returncode}, expected 2")
            if reason not in run.stderr:
                failures.append(f"{what}: Google Benchmark's reason ({reason!r}) not on stderr")
            if f"nnuelab_bench: no benchmark selected: nothing to {mode}" not in run.stderr:
                failures.append(f"{what}: no line of nnuelab_bench's own saying nothing is selected")
            if run.stdout.strip():
                failures.append(f"{what}: printed {run.stdout.strip()[:200]!r} on stdout")
            with open(out) as f:
                if f.read() != SENTINEL:
                    failures.append(f"{what}: overwrote the file already at {out}")
            if os.path.exists(out + ".reps"):
                failures.append(f"{what}: wrote {out}.reps")
    run = subprocess.run([bench, "--benchmark_filter=^crelu16/scalar/clamp/32/", "--benchmark_list_tests"],
                         capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout.startswith("crelu16/scalar/clamp/32/"):
        failures.append(f"a filter that matches: exit {run.returncode}, stdout {run.stdout[:200]!r}")
    for f in failures:
        print(f"FAIL  {f}")
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
