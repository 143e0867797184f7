#!/usr/bin/python3
"""A filter that selects no benchmark is refused: usage check_bench_filter.py BENCH OUT.json

Google Benchmark alone exits 0 after timing nothing when --benchmark_filter matches no name
or does not compile, so a script's typo passed as a run with nothing in it. nnuelab_bench
exits 2 instead, runs no noise probe and writes no result file (nor the journal beside
it; a file already at the --benchmark_out path is left as it was): after Google
Benchmark's own reason and a line of its own when nothing matches, with one line naming
the filter and the regex error when it does not compile (POSIX extended, as Google
Benchmark compiles it; before, Google Benchmark's "Could not compile" and then "no
benchmark selected"). --benchmark_list_tests with such a filter is refused the same way.
A filter that matches is listed and exits 0 (the control: the check sees the
difference). Exit 1 on a failure.
"""
import os
import subprocess
import sys

from checks import check, failures

SENTINEL = '{"an earlier result": 1}\n'
# (filter, the reason on stderr, nnuelab_bench's own line: {mode} is time or list)
CASES = (("^no_such_op/", "Failed to match any benchmarks against regex: ^no_such_op/",
          "nnuelab_bench: no benchmark selected: nothing to {mode}"),
         ("^affine/(avx2", "Mismatched '(' and ')'",
          "nnuelab_bench: --benchmark_filter '^affine/(avx2' is not a regular expression (POSIX extended"))

bench, out = sys.argv[1], sys.argv[2]
for filt, reason, own in CASES:
    for mode, flags in (("time", ["--noise=0", "--benchmark_min_time=0.01", f"--benchmark_out={out}"]),
                        ("list", ["--benchmark_list_tests"])):
        with open(out, "w") as f:
            f.write(SENTINEL)
        if os.path.exists(out + ".reps"):
            os.remove(out + ".reps")
        run = subprocess.run([bench, f"--benchmark_filter={filt}", *flags], capture_output=True, text=True)
        what = f"--benchmark_filter={filt} ({mode})"
        check(run.returncode == 2, f"{what}: exit {run.returncode} (2 expected)")
        check(reason in run.stderr, f"{what}: the reason on stderr ({run.stderr.strip()!r})")
        check(own.format(mode=mode) in run.stderr, f"{what}: a line of nnuelab_bench's own saying why nothing runs")
        check(not run.stdout.strip(), f"{what}: nothing on stdout ({run.stdout.strip()[:200]!r})")
        with open(out) as f:
            check(f.read() == SENTINEL, f"{what}: the file already at {out} left as it was")
        check(not os.path.exists(out + ".reps"), f"{what}: no {out}.reps written")
run = subprocess.run([bench, "--benchmark_filter=^crelu16/scalar/clamp/32/", "--benchmark_list_tests"],
                     capture_output=True, text=True)
check(run.returncode == 0 and run.stdout.startswith("crelu16/scalar/clamp/32/"),
      f"a filter that matches is listed: exit {run.returncode}, stdout {run.stdout[:200]!r}")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
