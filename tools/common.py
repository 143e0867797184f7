"""What the Python tools share (tools/ab.py, coverage.py, mutate.py, regress.py): a whole
number argument's type and a bounded number's, the test for a number read from a JSON file, the CPU's brand
string for their result files, pinning a benchmark command to one CPU, the robust spread
that tells a case (or a turn) unlike the rest, and building targets of a copy of the tree
(ab's exported commits, mutate's private copy)."""
import argparse
import math
import os
import re
import shutil
import subprocess
import time
from statistics import median


def at_least(lo):
    """An argparse type: a whole number >= lo; argparse exits 2 naming the argument
    otherwise (a --jobs of -1 or a --max of -1 went on to a traceback or to no shards)."""
    def whole(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: '{text}'") from None
        if v < lo:
            raise argparse.ArgumentTypeError(f"takes a whole number >= {lo}, not {v}")
        return v
    return whole


def number_in(what, lo, hi=math.inf, above=False, below=True):
    """An argparse type: a finite number x with lo <= x (lo < x with above) and x < hi
    (x <= hi with below=False); argparse exits 2 with "argument --NAME: takes WHAT, not X".
    float("nan") passes every `x < lo` test, so each bound is tested as what must hold: a
    NaN --threshold once made a gate that passes all, a NaN --min-time a run of nothing."""
    def number(text):
        try:
            v = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: '{text}'") from None
        if not (math.isfinite(v) and (v > lo if above else v >= lo) and (v < hi if below else v <= hi)):
            raise argparse.ArgumentTypeError(f"takes {what}, not {text}")
        return v
    return number


def json_number(x, positive=False):
    """Whether x, read by json.load, is a finite number (> 0 with positive): json reads NaN
    and Infinity, and true is an int to Python; a result or baseline file holding either
    where a count or a time belongs is refused by its reader, not averaged."""
    ok = isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
    return ok and (x > 0 or not positive)


def cpu_model():
    """This machine's CPU brand string (/proc/cpuinfo's "model name"), else its
    architecture."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return os.uname().machine


def pin_command(cmd, cpu=1):
    """(cmd run through `taskset -c CPU`, "pinned to CPU n"), or (cmd, why it is not
    pinned) without taskset or when this process may not use that CPU."""
    taskset = shutil.which("taskset")
    if taskset and cpu in os.sched_getaffinity(0):
        return [taskset, "-c", str(cpu)] + list(cmd), f"pinned to CPU {cpu}"
    return list(cmd), "NOT pinned (no taskset, or CPU %d not allowed)" % cpu


def robust_spread(logs, z=3.5, floor=0.10):
    """(median, spread) of values in log space: spread is z robust standard deviations
    (1.4826 x the median absolute deviation) but at least log(1 + floor), so a value
    farther than spread from the median stands out from the rest."""
    m = median(logs)
    return m, max(z * 1.4826 * median([abs(x - m) for x in logs]), math.log1p(floor))


def build_targets(src, preset, targets, log, jobs=None, timeout=None):
    """Builds `targets` of the source tree `src` in src/build/<preset>, configuring it with
    the CMake preset first when that folder has no build.ninja yet; both commands' output
    goes to the file `log` (written anew). Returns (ok, seconds, what went wrong: the
    log's last 30 lines but ninja's progress lines, "configuring failed", or "timed
    out"). A timeout stops the build tool; ninja's compilers end with it."""
    started = time.monotonic()
    build_dir = os.path.join(src, "build", preset)
    os.makedirs(os.path.dirname(log), exist_ok=True)
    steps = []
    if not os.path.isfile(os.path.join(build_dir, "build.ninja")):
        steps.append(("configuring", ["cmake", "--preset", preset]))
    steps.append(("building", ["cmake", "--build", build_dir, "--target", *targets] +
                  (["-j", str(jobs)] if jobs else [])))
    with open(log, "w") as f:
        for what, cmd in steps:
            f.write(f"$ {' '.join(cmd)}\n")
            f.flush()
            left = None if timeout is None else max(1.0, timeout - (time.monotonic() - started))
            try:
                p = subprocess.run(cmd, cwd=src, stdout=f, stderr=subprocess.STDOUT, timeout=left)
            except subprocess.TimeoutExpired:
                return False, time.monotonic() - started, f"{what} timed out (over {timeout:.0f} s)"
            if p.returncode != 0:
                break
        else:
            return True, time.monotonic() - started, ""
    with open(log, errors="replace") as f:
        tail = [ln for ln in f.read().splitlines() if not re.match(r"^\[\d+/\d+\] ", ln)][-30:]
    return False, time.monotonic() - started, f"{what} failed:\n" + "\n".join(tail)
