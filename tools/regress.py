#!/usr/bin/python3
"""The kernel regression gate (./lab regress) and its timing report. Standard library only.

  regress.py check  --binary B [--baseline F] [--threshold PCT] [--filter REGEX]
      instructions per call of every case of B (nnuelab_regress) under callgrind, compared
      with the baseline: exit 1 when any case grew by more than PCT (default 2), naming it
  regress.py update --binary B [--baseline F]       rewrite the baseline from this tree
  regress.py repeat --binary B [--filter REGEX]     two runs must give identical counts
  regress.py timing --bench NNUELAB_BENCH --binary B [--baseline F | --baseline-dir D --default-baseline F]
                    [--out F] [--update-baseline]
      the same cases timed interleaved, pinned, 9 repetitions; compare.py (U test) against
      the time baseline; ratios to the scalar reference. Never fails (exit 0). Stopped part
      way (Ctrl-C, SIGTERM, the bench killed): reports what was timed, writes no baseline,
      and, stopped by a signal, ends by it after the report.
      The time baseline: this core's (results/baseline-timing/<signature>.json), else one of
      the same model, else results/baseline-timing.json; --baseline F reads F instead.
      --update-baseline: then writes this run to this core's baseline (or F), compact form.

Exit 77 (CTest's skip) when valgrind is not installed: the gate never passes silently.
"""
import argparse
import ctypes
import datetime
import glob
import json
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "plots"))
import results as R  # noqa: E402  (the result files' CPU naming: plots/results.py)
from common import at_least, json_number, number_in, pin_command, robust_spread  # noqa: E402  (shared with tools/ab.py)
import kernel_code  # noqa: E402  (the kernels' machine code, shared with tools/ab.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIP = 77
ITERATIONS = 32


def die(msg, code=2):
    """Exit with the message: 2 (the default, as argparse's) for arguments refused, 1 for a
    run that failed. ./lab regress --timing tells them apart: information only, it reports a
    failed run and goes on, but stops on a refused argument."""
    print(f"regress: {msg}", file=sys.stderr)
    sys.exit(code)


# ---- instruction counts ----------------------------------------------------------------
class MeasureFailed(Exception):
    """The counting run failed (the workload crashed, or its dumps do not add up): the gate's
    command line exits 1 with it; ./lab mutate --gate calls the mutant gated. `output`: the
    end of valgrind's own output, when it has any."""
    def __init__(self, message, output=""):
        super().__init__(message)
        self.output = output


def need_binary(binary):
    """Exit 2 with what to build when the counting binary is not there."""
    if not os.access(binary, os.X_OK):
        die(f"{binary} not found: build the nnuelab_regress target")


def check_filter(binary, filt):
    """Exit 2 with the reason when --filter cannot be used: the binary's, which selects the
    cases with std::regex (ECMAScript), when it matches no case or does not compile there;
    then Python's re, which selects the baseline's cases (compare()), must compile it too
    (the two syntaxes differ: a lookbehind compiles in Python only)."""
    need_binary(binary)
    p = subprocess.run([binary, "--list", "--filter", filt], capture_output=True, text=True)
    if p.returncode != 0:
        die(p.stderr.strip().removeprefix(os.path.basename(binary) + ": ") or
            f"{binary} --list --filter '{filt}' failed (exit {p.returncode})")
    try:
        re.compile(filt)
    except re.error as e:
        die(f"--filter '{filt}' is not a regular expression in Python's re, which picks the baseline's "
            f"cases: {e} (use a pattern both it and std::regex take)")


def measure(binary, filt=None, iterations=ITERATIONS):
    """{case: instructions per call}, from one valgrind process for all cases; MeasureFailed
    when that run fails."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        print("regress: SKIPPED: valgrind is not installed (Debian: apt-get install valgrind); "
              "the instruction-count gate cannot run", file=sys.stderr)
        sys.exit(SKIP)
    need_binary(binary)
    with tempfile.TemporaryDirectory(prefix="nnuelab-regress-") as d:
        cmd = [valgrind, "--tool=callgrind", "--collect-atstart=no",
               f"--callgrind-out-file={d}/cg.out", binary, "--run", "--iterations", str(iterations)]
        if filt:
            cmd += ["--filter", filt]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise MeasureFailed(f"{' '.join(cmd)} failed (exit {p.returncode})", p.stderr[-4000:])
        ran = [l[5:] for l in p.stdout.splitlines() if l.startswith("case ")]
        if "valgrind 1" not in p.stdout:
            raise MeasureFailed("the workload did not see valgrind (built without valgrind/callgrind.h?)")
        counts = {}
        for f in glob.glob(f"{d}/cg.out.*"):
            name, ir = None, None
            with open(f) as fh:
                for line in fh:
                    if line.startswith("desc: Trigger: Client Request: "):
                        name = line[len("desc: Trigger: Client Request: "):].rstrip("\n")
                    elif line.startswith("summary:") or line.startswith("totals:"):
                        ir = int(line.split()[1])
                        break
            if name is None or ir is None:
                raise MeasureFailed(f"cannot read {f} (no trigger or summary line)")
            counts[name] = ir / iterations
        missing = [c for c in ran if c not in counts]
        if missing or len(counts) != len(ran):
            raise MeasureFailed(f"callgrind dumps do not match the cases run (missing: {missing[:5]})")
        return dict(sorted(counts.items()))


def cmake_cache(build_dir):
    out = {}
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"^([A-Za-z_]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    out[m.group(1)] = m.group(2)
    except OSError:
        pass
    return out


def first_line(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        return "unknown"


def simde_of(cache):
    """The SIMDe the -emu cases were built against, and those objects' optimisation flag:
    their counts are SIMDe's code, so another SIMDe moves them. "none" for a build without
    emulation (no -emu case then)."""
    if cache.get("NNUELAB_EMULATION", "ON").upper() in ("OFF", "0", "FALSE", "NO"):
        return "none"
    header = os.path.join(cache.get("NNUELAB_SIMDE_INCLUDE", "/usr/include"), "simde", "simde-common.h")
    try:
        with open(header) as f:
            parts = dict(re.findall(r"#define SIMDE_VERSION_(MAJOR|MINOR|MICRO) (\d+)", f.read()))
        version = ".".join(parts[k] for k in ("MAJOR", "MINOR", "MICRO"))
    except (OSError, KeyError):
        version = "unknown"
    return f"SIMDe {version}, emulated objects at '{cache.get('NNUELAB_EMU_OPT', '')}'"


def environment(binary):
    """What the counts depend on besides the source: compiler, flags, valgrind, SIMDe, CPU."""
    cache = cmake_cache(os.path.dirname(os.path.abspath(binary)))
    cxx = cache.get("CMAKE_CXX_COMPILER", "c++")
    bt = cache.get("CMAKE_BUILD_TYPE", "")
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    return {
        "compiler": first_line([cxx, "--version"]),
        "flags": f"{bt} {cache.get('CMAKE_CXX_FLAGS', '')} {cache.get('CMAKE_CXX_FLAGS_' + bt.upper(), '')}".strip(),
        "valgrind": first_line(["valgrind", "--version"]),
        "simde": simde_of(cache),
        "cpu": cpu,
        "os": first_line(["sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"]),
    }


def reference_of(name):
    """affine/avx2/dense_rows4/1024x32/chunk:15 -> affine/scalar/reference/1024x32/chunk:15
    (None for a name outside the grammar, results.parse)."""
    p = R.parse(name)
    return p and f"{p['op']}/scalar/reference/{p['shape']}/{p['kind']}:{p['pct']}"


def is_reference(name):
    """Whether a benchmark name <op>/<isa>/<technique>/... is its op's scalar reference."""
    p = R.parse(name)
    return bool(p) and (p["isa"], p["tech"]) == ("scalar", "reference")


def op_shape(name):
    """A grammar name's (op, shape): the key of its reference in the timing ratios."""
    p = R.parse(name)
    return p and (p["op"], p["shape"])


def shape_references(meds):
    """Each op and shape's fallback reference time, from meds (base name -> median ns): its
    dense:100 scalar reference if the run timed one, else the first other one by name. Made
    once per run; reference_time reads it for every case."""
    table = {}
    for k in sorted(meds, key=lambda k: (not k.endswith("/dense:100"), k)):
        if is_reference(k):
            table.setdefault(op_shape(k), meds[k])
    return table


def reference_time(name, meds, table=None):
    """The time `name` is divided by in the timing ratios, from meds (base name -> median ns):
    its op's scalar reference at the same shape and density kind where the run timed it
    (reference_of), else at the same shape, the dense:100 one if there are several (the
    quick grid times each op's reference at one density per shape, so the sparse affine
    cases take the dense reference); None when the run has none. `table` is
    shape_references(meds), made here when not given."""
    if (same := meds.get(reference_of(name))) is not None:
        return same
    return (shape_references(meds) if table is None else table).get(op_shape(name))


def fmt(x):
    return "-" if x is None else f"{x:,.1f}"


def verdict_of(b, c, threshold):
    """One case's verdict: ("new" | "missing" | "regressed" | "improved" | "ok", percent change
    or None). The gate fails on "regressed" alone; ./lab mutate --gate reads the same verdicts."""
    if b is None:
        return "new", None
    if c is None:
        return "missing", None
    pct = (c - b) / b * 100 if b else 0.0
    return ("regressed" if pct > threshold else "improved" if pct < -threshold else "ok"), pct


def compare(base, now, threshold, filt=None):
    """Prints the table; returns the regressed case names."""
    rx = re.compile(filt) if filt else None
    base = {k: v for k, v in base.items() if rx is None or rx.search(k)}
    names = sorted(set(base) | set(now))
    w = max([len(n) for n in names] + [4])
    print(f"{'case':<{w}}  {'baseline':>12}  {'now':>12}  {'change':>8}  {'x ref':>6}  status")
    regressed, improved, new, missing = [], [], [], []
    for n in names:
        b, c = base.get(n), now.get(n)
        ref = now.get(reference_of(n))
        # An -emu case's ratio would compare SIMDe's emulation with a native reference.
        emulated = R.emulated_isa((R.parse(n) or {}).get("isa"))
        ratio = "   emu" if emulated else f"{c / ref:6.2f}" if c is not None and ref else "     -"
        verdict, pct = verdict_of(b, c, threshold)
        change = "-" if pct is None else f"{pct:+7.2f}%"
        status = {"new": "NEW (no baseline: reported, not failed)",
                  "missing": "MISSING (in the baseline, not run here)",
                  "regressed": f"REGRESSED (> +{threshold:g}%)", "improved": "improved", "ok": "ok"}[verdict]
        if verdict == "regressed":
            regressed.append((n, b, c, pct))
        elif verdict == "improved":
            improved.append(n)
        elif verdict == "new":
            new.append(n)
        elif verdict == "missing":
            missing.append(n)
        print(f"{n:<{w}}  {fmt(b):>12}  {fmt(c):>12}  {change:>8}  {ratio}  {status}")
    print()
    print(f"regress: {len(now)} cases measured, threshold +{threshold:g}% instructions per call: "
          f"{len(regressed)} regressed, {len(improved)} improved, {len(new)} new, {len(missing)} missing")
    for n, b, c, pct in regressed:
        print(f"regress: REGRESSION {n}: {b:,.1f} -> {c:,.1f} instructions per call ({pct:+.2f}%)")
    if improved:
        print("regress: improvements are not failures; once reviewed, record them with ./lab regress --update")
    return [r[0] for r in regressed]


# The environment fields counts compare within (the CPU is not one: valgrind's CPUID is).
TOOLCHAIN = ("compiler", "flags", "valgrind", "simde")


def load_baseline(path):
    """The instruction baseline at `path`, None when there is none; ValueError saying what
    is wrong when the file is not one (not JSON, a merge's conflict lines, no case table, a
    count that is not a finite number > 0, a threshold that is not a percentage >= 0):
    the gate's verdicts would otherwise end in a traceback or compare with NaN."""
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise ValueError(f"not JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), dict) \
            or not isinstance(data.get("meta", {}), dict):
        raise ValueError("no table of cases and their counts")
    for name, n in data["cases"].items():
        if not json_number(n, positive=True):
            raise ValueError(f"{name} has a count of {n!r} (a finite number > 0 expected)")
    threshold = data.get("meta", {}).get("threshold_percent", 2.0)
    if not (json_number(threshold) and threshold >= 0):
        raise ValueError(f"its threshold_percent is {threshold!r} (a percentage >= 0 expected)")
    return data


def read_instruction_baseline(path, update=False):
    """load_baseline for the gate's commands: a bad file stops the check (exit 2, before the
    counting) and a filtered update, which would keep its cases; a whole update writes over
    it, which is how it gets mended."""
    try:
        return load_baseline(path)
    except ValueError as e:
        if update:
            print(f"regress: NOTE {path} is not an instruction baseline ({e}): written over")
            return None
        die(f"{path} is not an instruction baseline: {e}")


def cmd_check(a):
    base = read_instruction_baseline(a.baseline)
    if a.skip_on_other_toolchain and base is not None:
        # CTest: counts of another compiler, flag set (sanitizers), valgrind or SIMDe are not comparable.
        env, meta = environment(a.binary), base.get("meta", {})
        for k in TOOLCHAIN:
            if meta.get(k, env[k]) != env[k]:
                print(f"regress: SKIPPED: the baseline's {k} is '{meta[k]}', this build's '{env[k]}' "
                      f"(counts compare only within one toolchain)")
                sys.exit(SKIP)
    now = measure(a.binary, a.filter)
    if base is None:
        print(f"regress: no baseline at {a.baseline}: every case is new (create it with ./lab regress --update)")
        base = {"meta": {}, "cases": {}}
    env, meta = environment(a.binary), base.get("meta", {})
    for k in TOOLCHAIN:
        if meta.get(k) and meta[k] != env[k]:
            print(f"regress: NOTE the baseline's {k} was '{meta[k]}', this build's is '{env[k]}': "
                  f"counts may move for that reason alone")
    threshold = a.threshold if a.threshold is not None else float(meta.get("threshold_percent", 2.0))
    regressed = compare(base.get("cases", {}), now, threshold, a.filter)
    if regressed:
        print(f"regress: FAILED: {len(regressed)} case(s) need more instructions than the baseline "
              f"({os.path.relpath(a.baseline, ROOT)}); fix the kernel, or if the change is intended, "
              f"./lab regress --update and commit the baseline with the reason")
        return 1
    print("regress: passed")
    return 0


def cpu_after_update(old_cpu, filt, this_cpu):
    """The baseline's `cpu` field after an update of the cases matching `filt` on `this_cpu`:
    `BASE (cases matching F1: CPU1; cases matching F2: CPU2)` names the machine of most cases
    and those of the filtered updates made elsewhere. On the base machine it stays as it was
    (the earlier notes still hold for their cases); on another machine a note is added."""
    if old_cpu is None:
        return this_cpu
    base, _, notes = old_cpu.partition(" (cases matching ")
    if this_cpu == base:
        return old_cpu
    notes = [n if n.startswith("cases matching ") else "cases matching " + n
             for n in notes.removesuffix(")").split("; ") if n]
    return f"{base} ({'; '.join(notes + [f'cases matching {filt}: {this_cpu}'])})"


def cmd_update(a):
    old = read_instruction_baseline(a.baseline, update=not a.filter) or {"meta": {}, "cases": {}}
    now = measure(a.binary, a.filter)
    cases = dict(old.get("cases", {})) if a.filter else {}
    cases.update(now)
    meta = environment(a.binary)
    meta["date"] = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    if a.filter:
        meta["cpu"] = cpu_after_update(old.get("meta", {}).get("cpu"), a.filter, meta["cpu"])
    meta["threshold_percent"] = a.threshold if a.threshold is not None else float(
        old.get("meta", {}).get("threshold_percent", 2.0))
    meta["iterations"] = ITERATIONS
    meta["unit"] = "instructions per kernel call (callgrind Ir / iterations)"
    os.makedirs(os.path.dirname(os.path.abspath(a.baseline)), exist_ok=True)
    with open(a.baseline, "w") as f:
        json.dump({"meta": meta, "cases": dict(sorted(cases.items()))}, f, indent=1)
        f.write("\n")
    print(f"regress: wrote {len(cases)} cases to {a.baseline}; commit it with the reason for the update")
    return 0


def cmd_repeat(a):
    first = measure(a.binary, a.filter)
    second = measure(a.binary, a.filter)
    differ = [n for n in first if first[n] != second.get(n)] + [n for n in second if n not in first]
    for n in first:
        print(f"{n}: {first[n]:,.1f} {second.get(n, float('nan')):,.1f}")
    if differ or not first:
        print(f"regress: NOT reproducible: {differ or 'no cases'}")
        return 1
    print(f"regress: {len(first)} cases, identical counts in two runs")
    return 0


# ---- timing report ---------------------------------------------------------------------
def ere_escape(s):
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", s)


def bench_names(bench, binary, filt):
    """The benchmarks timing the gate's cases: the same name, or for a technique benchmarked
    at dense inputs only (dense affine kernels), the same shape at dense:100."""
    listed = subprocess.run([bench, "--benchmark_list_tests"], capture_output=True, text=True, check=True).stdout
    by_prefix = {}
    for line in listed.splitlines():
        if R.parse(line):
            by_prefix.setdefault(R.base_name(line), line)
    p = subprocess.run([binary, "--list"] + (["--filter", filt] if filt else []), capture_output=True, text=True)
    if p.returncode != 0:
        die(f"{binary} --list failed (exit {p.returncode}): {p.stderr.strip()[-300:]}", 1)
    cases = p.stdout.split()
    picked = []
    for c in cases:
        f = R.parse(c)
        dense = f and f"{f['op']}/{f['isa']}/{f['tech']}/{f['shape']}/dense:100"
        key = c if c in by_prefix else dense if dense in by_prefix else None
        if key and key not in picked:
            picked.append(key)
    return picked


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2 if n else float("nan")


# The committed time baseline keeps, per benchmark, its repetitions' times and nothing else:
# Google Benchmark's JSON repeats the long name and every field for each repetition (1 MB
# for the gate's 499 cases x 9; this form is about a tenth of it). compare.py reads only
# Google Benchmark's JSON, which expand_timing rebuilds in a temporary file.
BASELINE_FORMAT = "nnuelab-timing-baseline/1"


def case_name(name):
    """A benchmark's name without Google Benchmark's /min_time:X part: the harness scales each
    case's minimum time from --min-time, so a run at another --min-time (the report's default
    was 0.02 s until 2026-11-28, 0.01 s since) still meets the baseline's names."""
    return re.sub(r"/min_time:[0-9.]+", "", name)


def timed(b):
    """A result entry that is one repetition actually timed (not an aggregate, not skipped)."""
    return isinstance(b, dict) and b.get("run_type") == "iteration" and not b.get("error_occurred")


def compact_timing(data):
    times = {}
    for b in data["benchmarks"]:
        if timed(b):
            if b.get("time_unit", "ns") != "ns":
                die(f"timing: {b['name']} is in {b['time_unit']}, the baseline holds ns", 1)
            times.setdefault(case_name(b["name"]), []).append(b["real_time"])
    out = {"format": BASELINE_FORMAT, "context": data.get("context", {}), "time_unit": "ns", "real_time": times}
    if data.get("code"):
        out["code"] = data["code"]  # {case: its kernel's fingerprint} (kernel_code.fingerprints)
    return out


def write_compact_timing(data, path):
    write_compact(compact_timing(data), path)


def write_compact(c, path):
    """Writes a baseline in its compact form (compact_timing's), a case per line."""
    with open(path, "w") as f:
        f.write('{"format": ' + json.dumps(c["format"]) + ',\n"context": ' + json.dumps(c["context"]) + ",\n")
        if c.get("code"):
            f.write('"code": ' + json.dumps(c["code"], sort_keys=True) + ",\n")
        f.write('"time_unit": "ns",\n"real_time": {\n')
        f.write(",\n".join(json.dumps(k) + ": " + json.dumps(v) for k, v in sorted(c["real_time"].items())))
        f.write("\n}}\n")


def expand_timing(data):
    """Google Benchmark's JSON of a result in either form: the repetitions as iteration rows and
    their median as an aggregate row. Both sides given to compare.py go through it, with
    cpu_time = real_time: these benchmarks time manually, and their CPU time would count the
    staging outside the clock."""
    if data.get("format") != BASELINE_FORMAT:
        data = compact_timing(data)
    rows = []
    for name, ts in sorted((case_name(k), v) for k, v in data["real_time"].items()):
        row = {"name": name, "run_type": "iteration", "repetitions": len(ts), "iterations": 1, "time_unit": "ns"}
        rows += [dict(row, real_time=t, cpu_time=t) for t in ts]
        m = median(ts)
        rows.append(dict(row, name=name + "_median", run_type="aggregate", aggregate_name="median",
                         real_time=m, cpu_time=m))
    return {"context": data["context"], "benchmarks": rows, "code": data.get("code") or {}}


def read_time_baseline(path):
    """The time baseline at `path` through expand_timing; ValueError saying what is wrong
    when the file is not one: not JSON, no context or times, or a time that is not a finite
    number > 0 (Python's json reads NaN and Infinity: one NaN made every ratio it met, and
    the spread line, "nan")."""
    try:
        with open(path) as f:
            data = json.load(f)
        if not isinstance(data, dict) or not isinstance(data.get("context"), dict):
            raise ValueError("no context")
        if data.get("format") != BASELINE_FORMAT:
            data = compact_timing(data)  # a timing run's own file
        times = data["real_time"]
    except (KeyError, TypeError, AttributeError) as e:  # a field missing or of another kind
        raise ValueError(f"not in the baseline's form ({type(e).__name__}: {e})") from None
    if not isinstance(times, dict):
        raise ValueError("its times are not listed by case")
    code = data.get("code", {})
    if not isinstance(code, dict) or not all(isinstance(v, str) for v in code.values()):
        raise ValueError("its code is not a table of cases and their kernels' fingerprints")
    for name, ts in times.items():
        if not isinstance(ts, list) or not ts:
            raise ValueError(f"{name} has no list of times")
        for t in ts:
            if not json_number(t, positive=True):
                raise ValueError(f"{name} has a time of {t!r} (a finite number > 0 expected)")
    return expand_timing(data)


def slim(path, data=None):
    """Rewrites a run's JSON (results/<host>-timing.json; `data`: that JSON already read) with
    what compare.py and the ratios read: per benchmark its repetitions (the U test's samples)
    and their median, times to 5 significant digits. The committed baseline is smaller still
    (compact_timing)."""
    if data is None:
        with open(path) as f:
            data = json.load(f)
    keep = ("name", "run_type", "aggregate_name", "repetitions", "iterations", "real_time", "cpu_time",
            "time_unit", "error_occurred", "error_message")
    rows = []
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        r = {k: b[k] for k in keep if k in b}
        r["name"] = case_name(r["name"])
        for k in ("real_time", "cpu_time"):
            if k in r:
                r[k] = float(f"{r[k]:.5g}")
        rows.append(r)
    # By name (repetitions keep their order): compare.py then lists benchmarks alphabetically.
    rows.sort(key=lambda r: r["name"])
    ctx = {k: v for k, v in data.get("context", {}).items() if k not in ("caches", "load_avg")}
    with open(path, "w") as f:
        f.write('{"context": ' + json.dumps(ctx) + ',\n"benchmarks": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in rows))
        f.write("\n]}\n")
    return {"context": ctx, "benchmarks": rows}


COMPARE_PY = "/usr/share/benchmark/compare.py"

# Time baselines, one per core: a run's ratios to the reference move with the core (a Zen 5
# run against the Zen 3 baseline: -63% to +160%, README), so a report against another
# core's baseline says little about a change of code. results/baseline-timing/ holds one
# file per CPUID signature (bench/harness.cpp's nnuelab_cpu_signature), named after it; the
# report reads this core's, else one of the same model at another stepping, else the
# unsigned default (results/baseline-timing.json: the Zen 3 VM of 2026-11-26, timed before
# runs recorded a signature). The file's own context decides, not its name.
BASELINE_DIR = os.path.join(ROOT, "results", "baseline-timing")
DEFAULT_TIMING_BASELINE = os.path.join(ROOT, "results", "baseline-timing.json")


def signature_slug(signature):
    """A signature as a file name: "AuthenticAMD family 26 model 2 stepping 1" ->
    "authenticamd-family-26-model-2-stepping-1"."""
    return re.sub(r"[^a-z0-9]+", "-", signature.lower()).strip("-")


def baseline_for_update(signature, directory, default):
    """Where --update-baseline writes a run of this core: its signature's file, or the default
    file for a run without a signature (an ARM kernel without CPU identification lines)."""
    return os.path.join(directory, signature_slug(signature) + ".json") if signature else default


def pick_baseline(signature, directory, default, this_run=None):
    """(path, why) of the time baseline for a run of this signature, or (None, why). The run's
    own file (this_run) is never its baseline, should it be written into the directory."""
    same_model = []
    fields = R.signature_fields(signature)
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        if this_run and os.path.abspath(path) == os.path.abspath(this_run):
            continue
        try:
            theirs = read_time_baseline(path)["context"].get("nnuelab_cpu_signature")
        except (OSError, ValueError) as e:
            print(f"timing: ignoring {os.path.relpath(path, ROOT)}: not a time baseline ({e})")
            continue
        if signature and theirs == signature:
            return path, "this core's"
        other = R.signature_fields(theirs)
        if fields and other and other[:3] == fields[:3]:
            same_model.append((path, other[3]))
    if same_model:
        path, stepping = same_model[0]
        return path, f"the same model's at stepping {stepping} (none of this stepping)"
    where = os.path.relpath(directory, ROOT)
    if os.path.exists(default):
        return default, f"the default: no baseline of this core in {where}/"
    return None, f"none: no baseline of this core in {where}/ and no {os.path.relpath(default, ROOT)}"


def unlike_the_rest(changes, z=3.5, floor=0.10):
    """The cases whose change (of the ratio to the reference, against the baseline's) lies
    more than z robust standard deviations from the median change (1.4826 x the median
    absolute deviation, taken over log(1 + change): a halving and a doubling weigh alike) and
    at least `floor` from it: ((low, high), [(change, name), ...] largest first), low and
    high the changes at the edges; None for fewer than 8 cases. On a machine whose slow
    spells move every case, the edges widen with them instead of listing half the cases."""
    if len(changes) < 8:
        return None
    logs = {k: math.log1p(v) for k, v in changes.items()}
    m, spread = robust_spread(list(logs.values()), z, floor)
    out = sorted(((math.expm1(x), k) for k, x in logs.items() if abs(x - m) > spread), reverse=True)
    return (math.expm1(m - spread), math.expm1(m + spread)), out


def code_note(then, now):
    """What a listed case's kernel did since the baseline: its fingerprints then and now
    (None where unknown: no kernel of its own, or a baseline without them)."""
    if then is None or now is None:
        return ""
    if then == now:
        return "  (its kernel's machine code is the baseline's: the placement or the machine moved it)"
    return "  (its kernel's machine code changed since the baseline)"


def cmd_timing(a):
    # A --baseline given to compare with is read before the minutes of timing: one that is
    # not a time baseline is a refused argument (an update overwrites it: see below).
    if a.baseline and os.path.exists(a.baseline) and not a.update_baseline:
        try:
            read_time_baseline(a.baseline)
        except (OSError, ValueError) as e:
            die(f"timing: --baseline {a.baseline} is not a time baseline: {e}")
    names = bench_names(a.bench, a.binary, a.filter)
    if not names:
        die(f"timing: no benchmark times the gate's cases{' that --filter selects' if a.filter else ''} "
            f"({a.bench} --benchmark_list_tests names the benchmarks)", 2 if a.filter else 1)
    filt = "^(" + "|".join(ere_escape(n) for n in names) + ")/"
    cmd = [a.bench, f"--benchmark_filter={filt}", "--benchmark_enable_random_interleaving=true",
           f"--benchmark_repetitions={a.repetitions}", "--benchmark_report_aggregates_only=false",
           f"--benchmark_min_time={a.min_time}", f"--benchmark_out={a.out}", "--benchmark_out_format=json"]
    cmd, pin = pin_command(cmd, a.cpu)
    print(f"timing: {len(names)} benchmarks, {a.repetitions} repetitions, interleaved at random, {pin}", flush=True)
    status, err, stopped_by = run_bench(cmd)
    partial = None
    if status == 0:
        data = slim(a.out)
    else:
        data, partial = kept_of_stopped_run(a, status, err, len(names))
        if data is None:
            print(f"timing: {partial}")
            return stop_as_signalled(stopped_by, 0)
        print(f"timing: PARTIAL RUN: {partial}")
    # Ratios to the scalar reference: medians over the repetitions, same process. A machine
    # slowed down as a whole (another build on the other core) moves both alike.
    def ratios(d):
        runs = {}
        for b in d["benchmarks"]:
            if timed(b):
                runs.setdefault(R.base_name(b["name"]), []).append(b["real_time"])
        meds = {k: median(v) for k, v in runs.items()}
        table = shape_references(meds)
        return meds, {k: v / ref for k, v in meds.items() if (ref := reference_time(k, meds, table))}

    meds, now_ratio = ratios(data)
    # Each case's kernel fingerprinted (kernel_code: its machine code without addresses), so
    # that the report can say whether a case that moved had its kernel's code changed since
    # the baseline, or only its placement or the machine (a baseline keeps them).
    try:
        data["code"] = kernel_code.fingerprints(a.bench, list(meds))
    except kernel_code.FAILURES as e:
        print(f"timing: the kernels' machine code not fingerprinted ({kernel_code.why_failed(e)})")
    if data["context"].get("nnuelab_noise"):  # the slow-spell probe the bench ran first
        print(f"timing: machine noise before the run: {data['context']['nnuelab_noise']}")
    signature = data["context"].get("nnuelab_cpu_signature")
    if a.baseline:
        baseline, why = (a.baseline, "given") if os.path.exists(a.baseline) else (None, f"{a.baseline} does not exist")
    else:
        baseline, why = pick_baseline(signature, a.baseline_dir, a.default_baseline, a.out)
    print(f"timing: time baseline: {os.path.relpath(baseline, ROOT) if baseline else 'none'} ({why})")
    base_ratio, base = {}, None
    if baseline:
        try:
            base = read_time_baseline(baseline)  # the default is not read by pick_baseline
        except (OSError, ValueError) as e:
            if not a.update_baseline:
                die(f"timing: {os.path.relpath(baseline, ROOT)} is not a time baseline: {e}", 1)
            print(f"timing: {os.path.relpath(baseline, ROOT)} is not a time baseline ({e}): nothing to compare "
                  f"with (the update below writes this run's)")
            baseline = None
    if base is not None:
        base_ratio = ratios(base)[1]
        print(f"timing: {machines(base['context'], data['context'])}")
        print(f"timing: {R.probe_against(base['context'], data['context'])}")
    w = max(len(k) for k in meds)
    head = f"benchmark (median of {'the repetitions timed' if partial else a.repetitions})"
    print(f"\n{head:<{w}}  {'ns':>9}  {'/ ref':>7}  "
          f"{'baseline':>8}  {'change':>7}")
    for k in sorted(meds):
        r, b = now_ratio.get(k), base_ratio.get(k)
        rs = f"{r:7.3f}" if r is not None else "      -"
        bs = f"{b:8.3f}" if b is not None else "       -"
        cs = f"{(r / b - 1):+7.1%}" if r is not None and b else "      -"
        print(f"{k:<{w}}  {meds[k]:>9.1f}  {rs}  {bs}  {cs}")
    print("(/ ref: time over the op's scalar reference at the same shape (and density, where the run timed "
          "it there), measured in this process; baseline: that ratio in the time baseline)")
    # The spread of those changes in one line: a change of code shows as a few cases outside
    # it; a machine in another state (or another core) as a wide spread of every case.
    changes = {k: now_ratio[k] / base_ratio[k] - 1 for k in now_ratio
               if base_ratio.get(k) and not is_reference(k)}
    moved = sorted(changes.values())
    if moved:
        def pct(q):
            return moved[min(len(moved) - 1, int(q * len(moved)))]
        print(f"timing: the ratios to the reference against the baseline's, over {len(moved)} benchmarks: "
              f"median {median(moved):+.1%}, 10th to 90th percentile {pct(0.1):+.1%} to {pct(0.9):+.1%}, "
              f"extremes {moved[0]:+.1%} and {moved[-1]:+.1%}")
    # Which kernels changed since the baseline's build, whatever their times did.
    base_code, now_code = (base or {}).get("code") or {}, data.get("code") or {}
    older_rule = bool(base_code) and not any(v.startswith(kernel_code.RULE) for v in base_code.values())
    if older_rule:
        print("timing: the baseline's kernel fingerprints were taken by an older rule (an entry's own "
              "instructions, not the functions it jumps to): not compared; tools/kernel_code.py "
              "fingerprint-baseline takes them again from a build of the baseline's commit")
        base_code = {}
    if base_code and now_code:
        known = [k for k in meds if k in base_code and k in now_code]
        changed = sorted(k for k in known if base_code[k] != now_code[k])
        print(f"timing: kernels against the baseline's fingerprints: {len(known) - len(changed)} with the same "
              f"instructions (padding aside), {len(changed)} changed"
              f"{': ' + ', '.join(changed[:8]) + (' ...' if len(changed) > 8 else '') if changed else ''}"
              f"; {len(meds) - len(known)} cases without a kernel of their own or a fingerprint"
              f"{' (every change of these kernels times is the placement or the machine)' if known and not changed else ''}")
    unlike = unlike_the_rest(changes)
    if unlike:
        (low, high), cases = unlike
        print(f"timing: {len(cases)} moved unlike the rest (a ratio change outside {low:+.1%} to {high:+.1%}: "
              f"3.5 robust deviations from the median change, this run's spread){':' if cases else ''}")
        for change, name in cases:
            print(f"timing:   {change:+7.1%}  {name}{code_note(base_code.get(name), now_code.get(name))}")
        if cases and base is not None and not base_code and not older_rule:
            print("timing: (the baseline keeps no kernel fingerprints, as those written before 2026-12-06: "
                  "whether a listed case's kernel changed since is not known)")
    print(f"\ntiming: wrote {os.path.relpath(a.out, ROOT)}{' (what the stopped run kept)' if partial else ''}")
    try:
        status = compare_timing(a, base, baseline, data)
    finally:
        if a.update_baseline and partial:
            print("timing: the time baseline NOT updated: this run was stopped part way (a baseline holds "
                  "every case's repetitions of one whole run)")
        elif a.update_baseline:
            target = a.baseline or baseline_for_update(signature, a.baseline_dir, a.default_baseline)
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
            write_compact_timing(data, target)
            print(f"timing: wrote the time baseline {os.path.relpath(target, ROOT)} from this run "
                  f"({os.path.getsize(target):,} bytes, {cpu_of(data['context'])}): "
                  f"commit it with the reason")
    return stop_as_signalled(stopped_by, status)


def run_bench(cmd):
    """Runs nnuelab_bench for the timing report: (its exit status, the tail of its stderr, the
    signal that stopped this report or None). A SIGINT or SIGTERM no longer ends this script
    at once (Python's default would leave nothing to report). The bench runs in its own
    process group, so it hears of a signal only from here: a Ctrl-C (which reaches this
    script's group), a SIGINT or SIGTERM sent to this script alone, each is passed on to it,
    once per signal. The first makes it skip the rest and write what it timed
    (bench/main.cpp); a second stops it at once, its journal holding what it timed. Should
    this script die without a word (SIGKILL), the kernel sends the bench SIGTERM
    (PR_SET_PDEATHSIG): it stops early and writes its file instead of running on alone."""
    parent = os.getpid()

    def bench_child():  # in the child, before exec
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
        if os.getppid() != parent:  # died before the line above: nobody is left to tell it
            os._exit(1)
        # Its stderr is a pipe to this script: once this script is gone, the bench's "skipping
        # the rest" must fail quietly (EPIPE), not kill it (SIGPIPE) before it writes its file.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         process_group=0, preexec_fn=bench_child)
    got = []

    def on_signal(sig, frame):
        got.append(sig)
        if p.poll() is None:
            p.send_signal(sig)

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        _, err = p.communicate()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        if p.poll() is None:  # this script is ending by an exception: no bench left behind
            p.kill()
            p.wait()
    return p.returncode, (err or "")[-2000:], (got[0] if got else None)


def kept_of_stopped_run(a, status, err, asked):
    """What a bench run that did not end normally kept (interrupted: its file with the rest
    skipped; killed outright: the file's complete entries plus its journal, read by
    plots/results.py), slimmed into a.out as a whole run's is: (data, a line saying what
    was stopped and what was kept), or (None, why nothing can be reported)."""
    how = (f"killed by {signal.Signals(-status).name}" if status < 0 and -status in signal.valid_signals()
           else f"exit {status}")
    said = f": {err.strip()}" if err.strip() else ""
    if not os.path.exists(a.out):
        return None, f"nnuelab_bench stopped ({how}) before it wrote {os.path.relpath(a.out, ROOT)}: nothing to report{said}"
    try:
        raw = R.read_data(a.out)
    except R.ResultError as e:
        return None, f"nnuelab_bench stopped ({how}), nothing to report: {e}{said}"
    # The repetitions timed: not the skipped ones, nor Google Benchmark's aggregates of a
    # benchmark cut part way (recomputed from the repetitions, as for every run).
    raw["benchmarks"] = [b for b in raw["benchmarks"] if timed(b)]
    if not raw["benchmarks"]:
        return None, f"nnuelab_bench stopped ({how}) before it finished a repetition: nothing to report"
    names = {case_name(R.base_name(b["name"])) for b in raw["benchmarks"]}
    data = slim(a.out, raw)
    journal = a.out + R.JOURNAL_SUFFIX
    if os.path.exists(journal):
        os.remove(journal)  # its repetitions are in a.out now
    why = raw["context"].get("nnuelab_interrupted") or how
    return data, (f"nnuelab_bench {how} ({why}); {len(names)} of the {asked} benchmarks timed, "
                  f"{len(raw['benchmarks'])} of the {asked * a.repetitions} repetitions asked: the report covers those")


def stop_as_signalled(sig, status):
    """status, or, when a SIGINT or SIGTERM stopped the run, this script ending by that signal
    after its report (so the shell that ran it, ./lab, stops as well, as after a Ctrl-C)."""
    if sig is None:
        return status
    sys.stdout.flush()
    signal.signal(sig, signal.SIG_DFL)
    os.kill(os.getpid(), sig)
    return 128 + sig  # not reached


def cpu_of(ctx):
    """A run context's CPU as the result files name it ("AMD EPYC (Zen 5)")."""
    return R.ResultFile("", ctx, {}).cpu if ctx.get("nnuelab_cpu_model") else "an unrecorded CPU"


def machines(base_ctx, now_ctx):
    """Which CPUs the time baseline and this run come from, and whether they are one core
    (the ratios to the reference move with the core: a baseline of another core says
    nothing about a change of code)."""
    b_sig, n_sig = base_ctx.get("nnuelab_cpu_signature"), now_ctx.get("nnuelab_cpu_signature")
    day = str(base_ctx.get("date", ""))[:10]
    line = f"the baseline was timed on {cpu_of(base_ctx)}{' on ' + day if day else ''}, this run on {cpu_of(now_ctx)}"
    if b_sig and n_sig:
        return line + (": the same core" if b_sig == n_sig else
                       f": another core ({b_sig}, now {n_sig}), so a change in the ratios below is the core's as much as the code's")
    return line + ": whether they are the same core is not recorded (a baseline made before 2026-12-01 has no CPUID signature)"


def compare_timing(a, base, baseline, data):
    if base is None:
        print("timing: NO time baseline: nothing to compare (to create this core's: "
              "./lab regress --timing --update-timing)")
        return 0
    if not os.path.exists(COMPARE_PY):
        print(f"timing: {COMPARE_PY} is missing (Debian: apt-get install libbenchmark-tools): no U test")
        return 0
    print(f"timing: compare.py against {os.path.relpath(baseline, ROOT)} "
          f"(Time/CPU: relative change, negative = faster; U test p-values on the _pvalue rows; "
          f"wall time on a shared machine: information, never a failure)\n", flush=True)
    with tempfile.TemporaryDirectory(prefix="nnuelab-timing-") as d:
        dump = os.path.join(d, "diff.json")
        sides = []
        for side, result in (("baseline", base), ("now", expand_timing(data))):
            sides.append(os.path.join(d, side + ".json"))
            with open(sides[-1], "w") as f:
                json.dump(result, f)
        q = subprocess.run(["/usr/bin/python3", COMPARE_PY, "--no-color", "-a", "-d", dump, "benchmarks",
                            *sides], capture_output=True, text=True)
        sys.stdout.write(q.stdout)
        if q.returncode != 0:
            print(f"timing: compare.py failed (exit {q.returncode}): {q.stderr[-2000:]}")
            return 0
        try:
            with open(dump) as f:
                diff = json.load(f)
        except (OSError, ValueError):
            return 0
    # The short form: medians that moved, where the U test says the samples differ.
    pvalue = {e["name"]: e["utest"].get("time_pvalue") for e in diff if e.get("utest")}
    moved, changes = [], []
    for e in diff:
        if e.get("aggregate_name") != "median" or not e.get("measurements"):
            continue
        base_name = e["name"][: -len("_median")]
        p = pvalue.get(base_name)
        change = e["measurements"][0]["time"]
        changes.append(change)
        if p is not None and p < a.alpha:
            moved.append((change, base_name, p))
    counts = sorted(len(v) for v in compact_timing(data)["real_time"].values())
    # The repetitions each benchmark had: a.repetitions, or fewer in a run stopped part way.
    reps = "no" if not counts else f"{counts[0]} to {counts[-1]}" if counts[0] != counts[-1] else counts[0]
    print(f"\ntiming: {len(moved)} of {len(pvalue)} benchmarks differ from the time baseline at "
          f"p < {a.alpha:g} (U test, {reps} repetitions); information only:")
    for change, name, p in sorted(moved, reverse=True):
        print(f"timing:   {change:+7.1%}  p = {p:.4f}  {name}")
    if changes:
        print(f"timing: median change over all {len(changes)} benchmarks: {median(changes):+.1%} (a shift every "
              f"benchmark shares is the machine, not a kernel: read the '/ ref' ratios above)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["check", "update", "repeat", "timing"])
    ap.add_argument("--binary", required=True, help="nnuelab_regress (or nnuelab_regress_planted)")
    ap.add_argument("--baseline", help="default: results/baseline-instructions.json (timing: this core's file "
                                       "in --baseline-dir, else one of its model, else results/baseline-timing.json)")
    ap.add_argument("--baseline-dir", default=BASELINE_DIR,
                    help="timing: the per-core time baselines, one file per CPUID signature "
                         "(default results/baseline-timing/)")
    ap.add_argument("--default-baseline", default=DEFAULT_TIMING_BASELINE,
                    help="timing: read when --baseline-dir has no file of this core, written by "
                         "--update-baseline for a run without a signature (default results/baseline-timing.json)")
    ap.add_argument("--threshold", type=number_in("a percentage >= 0", 0), help="percent growth that fails (default: the baseline's, 2)")
    ap.add_argument("--filter", help="only the cases matching this regex")
    ap.add_argument("--bench", help="timing: the nnuelab_bench binary")
    ap.add_argument("--out", help="timing: where to write the JSON (default results/<host>-timing.json)")
    ap.add_argument("--repetitions", type=at_least(1), default=9, help="timing: 9 or more for a meaningful U test")
    ap.add_argument("--min-time", type=number_in("seconds > 0", 0, above=True), default=0.01,
                    help="timing: Google Benchmark's minimum time per repetition, before the harness's "
                         "per-case scaling (default 0.01 s: the report's 535 or so cases x 9 in about 2.5 minutes)")
    ap.add_argument("--skip-on-other-toolchain", action="store_true",
                    help="check: exit 77 (skip) when compiler, flags, valgrind or SIMDe differ from the baseline's")
    ap.add_argument("--alpha", type=number_in("a level between 0 and 1", 0, 1, above=True), default=0.05, help="timing: U test significance level")
    ap.add_argument("--cpu", type=at_least(0), default=1, help="timing: the CPU taskset pins to")
    ap.add_argument("--update-baseline", action="store_true",
                    help="timing: write this run to the baseline afterwards (compact form)")
    a = ap.parse_args()
    if a.filter:
        check_filter(a.binary, a.filter)
    if a.command == "timing":
        a.out = a.out or os.path.join(ROOT, "results", f"{platform.node().split('.')[0]}-timing.json")
        if not a.bench:
            die("timing needs --bench")
        committed = (os.path.abspath(a.baseline_dir), os.path.abspath(a.default_baseline)) == \
            (os.path.abspath(BASELINE_DIR), os.path.abspath(DEFAULT_TIMING_BASELINE))
        if a.update_baseline and a.filter and not a.baseline and committed:
            # A core's committed baseline is one run of every case: a filtered run would replace
            # it with a few cases (and merging two runs' repetitions would mix two machine states).
            die("timing: --update-baseline with --filter would cut this core's time baseline down to the "
                "filter's cases: run it without --filter (or write elsewhere with --baseline F)")
        return cmd_timing(a)
    a.baseline = a.baseline or os.path.join(ROOT, "results", "baseline-instructions.json")
    try:
        return {"check": cmd_check, "update": cmd_update, "repeat": cmd_repeat}[a.command](a)
    except MeasureFailed as e:
        sys.stderr.write(e.output)
        die(str(e), 1)


if __name__ == "__main__":
    sys.exit(main())
