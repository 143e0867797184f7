"""What the Python tools share (tools/ab.py, coverage.py, regress.py): the CPU's brand
string for their result files, pinning a benchmark command to one CPU, and the robust
spread that tells a case (or a turn) unlike the rest."""
import math
import os
import shutil
from statistics import median


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
