#!/usr/bin/python3
"""The timing report reads this core's time baseline: usage check_timing_baseline.py REGRESS_PY BENCH BINARY

`tools/regress.py timing` (./lab regress --timing) keeps one time baseline per CPUID
signature in results/baseline-timing/ and reads this core's, else one of the same model at
another stepping, else the unsigned default (results/baseline-timing.json);
`--update-baseline` writes this core's file. Checked two ways:
- the choice itself (pick_baseline, baseline_for_update) over hand-made baseline files of
  several signatures, an unreadable file and the run's own output in the folder;
- short real runs (crelu32's reference and one AVX2 form, 2 repetitions) into an empty folder: the first
  finds no baseline and writes this core's, named after the signature its context records;
  the second reads that file as this core's and calls it the same core. A third run with
  only a baseline of another signature and an unsigned default reads the default.
A filtered update of the committed baselines is refused. The list of cases that moved
unlike the rest (unlike_the_rest) is checked on planted changes. Runs stopped part way (a
Ctrl-C, a SIGINT or SIGTERM to the script alone, the bench killed outright) report what they
timed and write no baseline; a report killed outright takes its bench with it.
Exit 1 on a failure (each a line starting "FAIL  ").
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from checks import check, failures

regress_py, bench, binary = sys.argv[1:4]
sys.path.insert(0, os.path.dirname(os.path.abspath(regress_py)))
import regress  # noqa: E402

ZEN5 = "AuthenticAMD family 26 model 2 stepping 1"
ZEN5_B0 = "AuthenticAMD family 26 model 2 stepping 0"
ZEN3 = "AuthenticAMD family 25 model 1 stepping 1"
ARM = "implementer 0x41 part 0xd0c variant 0x3 revision 1"


def write(path, signature):
    ctx = {"date": "2026-12-01T00:00:00+00:00", "nnuelab_cpu_model": "AMD EPYC"}
    if signature:
        ctx["nnuelab_cpu_signature"] = signature
    with open(path, "w") as f:
        json.dump({"format": regress.BASELINE_FORMAT, "context": ctx, "time_unit": "ns",
                   "real_time": {"crelu32/scalar/reference/32/dense:100": [10.0, 11.0]}}, f)


# ---- the choice -------------------------------------------------------------------------
with tempfile.TemporaryDirectory(prefix="nnuelab-timing-baseline-") as d:
    folder, default = os.path.join(d, "per-core"), os.path.join(d, "default.json")
    os.mkdir(folder)
    slug = regress.signature_slug(ZEN5)
    check(slug == "authenticamd-family-26-model-2-stepping-1", f"a signature's file name: {slug}")
    check(regress.baseline_for_update(ZEN5, folder, default) == os.path.join(folder, slug + ".json"),
          "an update writes the signature's file")
    check(regress.baseline_for_update(None, folder, default) == default,
          "an update of a run without a signature writes the default file")

    path, why = regress.pick_baseline(ZEN5, folder, default)
    check(path is None and why.startswith("none"), f"an empty folder and no default: no baseline ({why})")
    write(default, None)
    path, why = regress.pick_baseline(ZEN5, folder, default)
    check(path == default and "default" in why, f"nothing of this core: the default ({why})")
    write(os.path.join(folder, "zen3.json"), ZEN3)
    write(os.path.join(folder, "arm.json"), ARM)
    with open(os.path.join(folder, "broken.json"), "w") as f:
        f.write("{ not json")
    path, why = regress.pick_baseline(ZEN5, folder, default)
    check(path == default, f"other cores' files and a broken one: still the default ({why})")
    write(os.path.join(folder, "zen5-b0.json"), ZEN5_B0)
    path, why = regress.pick_baseline(ZEN5, folder, default)
    check(path == os.path.join(folder, "zen5-b0.json") and "stepping 0" in why,
          f"the same model at another stepping before the default ({why})")
    write(os.path.join(folder, "zen5.json"), ZEN5)
    path, why = regress.pick_baseline(ZEN5, folder, default)
    check(path == os.path.join(folder, "zen5.json") and why == "this core's", f"this core's file first ({why})")
    path, why = regress.pick_baseline(ZEN5, folder, default, this_run=os.path.join(folder, "zen5.json"))
    check(path == os.path.join(folder, "zen5-b0.json"), f"the run's own output is never its baseline ({why})")
    path, why = regress.pick_baseline(ARM, folder, default)
    check(path == os.path.join(folder, "arm.json"), f"an ARM signature finds its file ({why})")
    path, why = regress.pick_baseline(None, folder, default)
    check(path == default, f"a run without a signature reads the default ({why})")
    # A time that is not a finite number > 0 (json reads NaN and Infinity) makes a file not a
    # baseline: this core's file with one is passed over, with the reason.
    for t in ("NaN", "Infinity", "0", "-3.5", '"12"', "true"):
        with open(os.path.join(folder, "zen5.json"), "w") as f:
            f.write('{"format": "%s", "context": {"nnuelab_cpu_signature": "%s"}, "time_unit": "ns", '
                    '"real_time": {"crelu32/scalar/reference/32/dense:100": [10.0, %s]}}' % (regress.BASELINE_FORMAT, ZEN5, t))
        try:
            regress.read_time_baseline(os.path.join(folder, "zen5.json"))
            said = ""
        except ValueError as e:
            said = str(e)
        check("crelu32/scalar/reference/32/dense:100" in said and "finite number > 0" in said,
              f"a time of {t}: not a time baseline, naming the case ({said})")
        path, why = regress.pick_baseline(ZEN5, folder, default)
        check(path == os.path.join(folder, "zen5-b0.json"), f"this core's file with a time of {t} is passed over ({why})")
    for text, what in (('{"context": {}, "real_time": [1]}', "times not by case"), ('[1, 2]', "no context")):
        with open(os.path.join(folder, "zen5.json"), "w") as f:
            f.write(text)
        try:
            regress.read_time_baseline(os.path.join(folder, "zen5.json"))
            said = ""
        except ValueError as e:
            said = str(e)
        check(said != "", f"{what}: not a time baseline ({said})")
    write(os.path.join(folder, "zen5.json"), ZEN5)


# ---- the kernels' fingerprints: a bad table refused; what a listed case's note says ---------
# Which reference a timing ratio divides by: the same shape and density where the run timed
# it, else the same shape's dense one, else none.
meds = {"affine/scalar/reference/1024x32/dense:100": 400.0, "affine/scalar/reference/1024x32/chunk:15": 100.0,
        "affine/scalar/reference/1536x16/real-x:1": 50.0, "affine/scalar/reference/1536x16/dense:100": 300.0,
        "affine/scalar/reference/3072x16/real-y:1": 70.0}
picks = [regress.reference_time(n, meds) for n in (
    "affine/avx2/lut_x2/1024x32/chunk:15", "affine/avx2/lut_x2/1024x32/chunk:25", "affine/avx2/lut_x2/1536x16/chunk:15",
    "affine/avx2/lut_x2/3072x16/chunk:15", "affine/avx2/lut_x2/512x16/chunk:15")]
check(picks == [100.0, 400.0, 300.0, 70.0, None],
      f"timing ratios: the same density's reference, else the dense one, else the shape's only one, else none ({picks})")

# The noise probe's fast passes of the baseline's run against this run's: compared on one
# core and one probe kernel only, read as the same machine, another clock (the register
# chain moved) or another state (the kernel call alone moved).
probe = ("0.9% of 404470 samples slow over 1.0 s (affine/avx512vnni/dense_blocked4 pass 2.50x slower, register "
         "chain 1.00x; longest slow stretch 3 ms); fast passes: {k} ns a kernel call, {c} ns a register chain")


def ctx(k="130.2", c="1283", sig="authenticamd-family-26-model-2-stepping-1", line=probe):
    return {"nnuelab_noise": line.format(k=k, c=c), "nnuelab_cpu_signature": sig}


noise_times, probe_against = regress.R.noise_times, regress.R.probe_against  # plots/results.py's
bare = probe.split(";")[0] + ")"  # a line of a run before 2026-12-07
check(noise_times(ctx()) == ("affine/avx512vnni/dense_blocked4", 130.2, 1283.0)
      and noise_times({"nnuelab_noise": bare}) is None and noise_times({}) is None and noise_times(ctx(k="0.0")) is None,
      f"the probe's fast passes read from its line, none from a line without them or with a time of 0 "
      f"({noise_times(ctx())})")
readings = [probe_against(ctx(), ctx(k="133.0", c="1290")), probe_against(ctx(), ctx(k="150.0")),
            probe_against(ctx(), ctx(k="150.0", c="1500")), probe_against(ctx(line=bare), ctx()),
            probe_against(ctx(), ctx(sig="x")), probe_against(ctx(), ctx(line=probe.replace("avx512vnni", "avx2")))]
check("130.2 -> 133.0 ns a call (+2.2%)" in readings[0] and "ran as fast as for the baseline" in readings[0]
      and "the machine's state differs" in readings[1] and "+15.2%" in readings[1]
      and "the clock differs" in readings[2] and "the baseline's probe line has no fast-pass times" in readings[3]
      and "not of one known core" in readings[4] and "it timed affine/avx512vnni/dense_blocked4 then" in readings[5],
      f"the probe's fast passes against the baseline's: {readings}")

with tempfile.TemporaryDirectory(prefix="nnuelab-timing-baseline-") as d:
    path = os.path.join(d, "b.json")
    with open(path, "w") as f:
        f.write('{"format": "%s", "context": {}, "code": {"x/avx2/t/1/dense:100": 7}, "time_unit": "ns", '
                '"real_time": {"x/scalar/reference/1": [1.0]}}' % regress.BASELINE_FORMAT)
    try:
        regress.read_time_baseline(path)
        said = ""
    except ValueError as e:
        said = str(e)
    check("fingerprints" in said, f"a fingerprint that is not a text: not a time baseline ({said})")
    notes = [regress.code_note("a1", "a1"), regress.code_note("a1", "b2"), regress.code_note(None, "b2"),
             regress.code_note("a1", None)]
    check("is the baseline's" in notes[0] and "changed since the baseline" in notes[1] and notes[2:] == ["", ""],
          f"a listed case's note: the same code, changed code, unknown either side: {notes}")


# ---- a --baseline that is not one: refused before the minutes of timing ---------------------
with tempfile.TemporaryDirectory(prefix="nnuelab-timing-baseline-") as d:
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        f.write('{"format": "%s", "context": {}, "time_unit": "ns", "real_time": {"x/scalar/reference/1": [NaN]}}'
                % regress.BASELINE_FORMAT)
    start = time.monotonic()
    p = subprocess.run(["/usr/bin/python3", regress_py, "timing", "--bench", bench, "--binary", binary,
                        "--baseline", bad, "--out", os.path.join(d, "out.json")], capture_output=True, text=True)
    check(p.returncode == 2 and "is not a time baseline" in p.stderr and "has a time of nan" in p.stderr and
          "Traceback" not in p.stderr and not os.path.exists(os.path.join(d, "out.json")),
          f"--baseline with a NaN time: exit 2 before any timing, {time.monotonic() - start:.1f} s "
          f"(exit {p.returncode}: {p.stderr.strip()[-160:]})")


# ---- the cases that moved unlike the rest ------------------------------------------------
spread = {f"case{i}": 0.30 + 0.05 * ((i % 11) - 5) / 5 for i in range(40)}  # every case +25..+35%
edges, cases = regress.unlike_the_rest(spread)
check(cases == [], f"every case moved alike (+25% to +35%): none listed, edges {edges[0]:+.1%} {edges[1]:+.1%}")
planted = dict(spread, slower=(1 + 0.30) * 2 - 1, faster=(1 + 0.30) / 2 - 1)
edges, cases = regress.unlike_the_rest(planted)
check([k for _, k in cases] == ["slower", "faster"],
      f"one case 2x slower and one 2x faster than the rest: both listed, slower first ({cases})")
flat = {f"case{i}": 0.0 for i in range(20)}
check(regress.unlike_the_rest(dict(flat, small=0.05))[1] == [] and
      [k for _, k in regress.unlike_the_rest(dict(flat, big=0.15))[1]] == ["big"],
      "with no spread at all, a change under 10% is not listed and one over it is")
check(regress.unlike_the_rest({f"case{i}": 0.0 for i in range(7)}) is None, "fewer than 8 cases: no verdict")


# ---- two real runs ------------------------------------------------------------------------
def report_cmd(folder, default, out, repetitions, *extra):
    """The report over crelu32's reference and one AVX2 form, into the folder and files given."""
    return ["/usr/bin/python3", regress_py, "timing", "--bench", bench, "--binary", binary,
            "--filter", r"^crelu32/(scalar/reference|avx2/packs_shift_permute)/", "--repetitions", str(repetitions),
            "--min-time", "0.001", "--baseline-dir", folder, "--default-baseline", default, "--out", out, *extra]


def timing(folder, default, out, *extra):
    p = subprocess.run(report_cmd(folder, default, out, 2, *extra), capture_output=True, text=True)
    check(p.returncode == 0, f"the report ran (exit {p.returncode}{': ' + p.stderr[-300:] if p.returncode else ''})")
    return p.stdout


# A filtered update of the committed baselines is refused before anything runs: it would cut
# this core's baseline down to the filter's cases.
p = subprocess.run(["/usr/bin/python3", regress_py, "timing", "--bench", bench, "--binary", binary, "--filter", "crelu32",
                    "--update-baseline", "--out", os.devnull], capture_output=True, text=True)
check(p.returncode == 2 and "--update-baseline with --filter" in p.stderr,
      f"a filtered update of the committed baselines is refused (exit {p.returncode}: {p.stderr.strip()[-200:]})")

with tempfile.TemporaryDirectory(prefix="nnuelab-timing-baseline-") as d:
    folder, default, out = os.path.join(d, "per-core"), os.path.join(d, "default.json"), os.path.join(d, "run.json")
    text = timing(folder, default, out, "--update-baseline")
    with open(out) as f:
        run = json.load(f)
    signature = run["context"].get("nnuelab_cpu_signature")
    ran = regress.compact_timing(run)["real_time"]
    if not signature:
        check(os.path.exists(default), "a run without a CPU signature wrote the default baseline")
    else:
        own = os.path.join(folder, regress.signature_slug(signature) + ".json")
        check("time baseline: none" in text, "the first run found no baseline")
        check(os.path.exists(own), f"the first run wrote this core's baseline {os.path.basename(own)}")
        if os.path.exists(own):
            with open(own) as f:
                written = json.load(f)
            check(written["format"] == regress.BASELINE_FORMAT and
                  written["context"].get("nnuelab_cpu_signature") == signature and
                  written["real_time"] == ran and len(ran) >= 2 and all(len(v) == 2 for v in ran.values()),
                  f"it holds this run: its signature, its {len(ran)} benchmarks' 2 repetitions each")
            # The kernels' fingerprints: one per form with a kernel of its own (not the
            # reference), by the report's case names (no /manual_time), equal to the
            # fingerprint of that function's code in the bench.
            import kernel_code
            forms = sorted({"/".join(k.split("/")[:5]) for k in ran if kernel_code.kernel_function(k)})
            code = written.get("code", {})
            fn = kernel_code.kernel_function(forms[0]) if forms else None
            own_code = kernel_code.Binary(bench).code(fn) if fn else None
            check(forms and sorted(code) == sorted(forms) and own_code is not None and
                  code[forms[0]] == kernel_code.fingerprint(own_code[2]) and
                  regress.read_time_baseline(own)["code"] == code,
                  f"and its kernels' fingerprints, read back with it: {code} for {forms}")
        text = timing(folder, default, out)
        check("(this core's)" in text and ": the same core" in text, "the second run read it as this core's")
        check(re.search(r"kernels against the baseline's fingerprints: [1-9][0-9]* with the same instructions "
                        r"\(padding aside\), 0 changed; [1-9][0-9]* cases without", text),
              "and found its kernels' fingerprints the same as the first run's (the same bench)")
        # Its forms at the shapes with a reference (not the inlined shape: no reference there).
        check(re.search(r"the ratios to the reference against the baseline's, over 2 benchmarks: median [+-]", text),
              "and summed up the changes of its 2 forms' ratios to the reference")
        # Only another core's file and an unsigned default: the default, and the report says
        # it cannot tell whether the cores match.
        os.rename(own, os.path.join(folder, "other.json"))
        with open(os.path.join(folder, "other.json")) as f:
            other = json.load(f)
        other["context"]["nnuelab_cpu_signature"] = "GenuineIntel family 6 model 85 stepping 7"
        with open(os.path.join(folder, "other.json"), "w") as f:
            json.dump(other, f)
        del other["context"]["nnuelab_cpu_signature"]
        with open(default, "w") as f:
            json.dump(other, f)
        text = timing(folder, default, out)
        check(f"time baseline: {os.path.relpath(default, regress.ROOT)} (the default" in text and
              "is not recorded" in text, "another core's file only: the default read, the cores not known to match")
        # An update given a --baseline that is not one (a NaN time) compares with nothing and
        # writes a good one over it; the same file without --update-baseline was refused above.
        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            f.write('{"format": "%s", "context": {}, "time_unit": "ns", "real_time": {"x/scalar/reference/1": [NaN]}}'
                    % regress.BASELINE_FORMAT)
        text = timing(folder, default, out, "--update-baseline", "--baseline", bad)
        ok = True
        try:
            regress.read_time_baseline(bad)
        except ValueError:
            ok = False
        check("is not a time baseline" in text and "NO time baseline" in text and ok,
              "an update over a --baseline that is not one: nothing compared, a good baseline written over it")


# ---- a run stopped part way ---------------------------------------------------------------
# A Ctrl-C (SIGINT to the whole process group), a SIGINT or SIGTERM to the script alone, and
# the bench killed outright (SIGKILL, as the out-of-memory killer would): each report covers what was
# timed, writes no baseline, and leaves no journal behind; a report stopped by a signal ends
# by it (so ./lab stops too). A bench killed before its first repetition: nothing to report.
def timed_run(pid):
    """The pid of the report's timed bench run (not its listing of the benchmarks), or None.
    Only once the child runs the bench itself: the report starts it through `taskset`, and
    a child seen as taskset can read as nothing a moment later while it execs the bench
    (its cmdline is briefly empty), which once failed the kill check below."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            for child in f.read().split():
                with open(f"/proc/{child}/cmdline") as c:
                    argv = c.read().split("\0")
                if os.path.basename(argv[0]) == os.path.basename(bench) and any(
                        a.startswith("--benchmark_out=") for a in argv):
                    return int(child)
    except OSError:
        pass
    return None


def started(folder, default, out, lines):
    """A long report (400 repetitions) running, once the journal holds `lines` repetitions."""
    for f in (out, out + ".reps"):
        if os.path.exists(f):
            os.remove(f)
    cmd = report_cmd(folder, default, out, 400, "--update-baseline")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    # Waits for `lines` repetitions in the journal; 0: for the bench to start (its noise probe
    # runs a second before the first repetition).
    deadline = time.time() + 120
    while time.time() < deadline and p.poll() is None:
        try:
            if lines == 0:
                if timed_run(p.pid):
                    break
            else:
                with open(out + ".reps") as f:
                    if sum(1 for _ in f) >= lines:
                        break
        except OSError:
            pass
        time.sleep(0.02)
    return p


def report_killed(folder, default, out):
    """The report killed outright (SIGKILL): its bench must not run on alone. It should end by
    the parent-death SIGTERM, skipping the rest and writing its file, which says so."""
    p = started(folder, default, out, 6)
    b = timed_run(p.pid)
    os.kill(p.pid, signal.SIGKILL)
    p.communicate(timeout=120)
    deadline = time.time() + 60
    while b and os.path.exists(f"/proc/{b}") and time.time() < deadline:
        try:
            with open(f"/proc/{b}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break  # ended, not yet reaped
        except OSError:
            break
        time.sleep(0.05)
    try:
        with open(out) as f:
            why = json.load(f)["context"].get("nnuelab_interrupted", "")
    except (OSError, ValueError, KeyError) as e:
        why = f"no file ({e})"
    check(b and time.time() < deadline and why.startswith("interrupted by SIGTERM"),
          f"report: its bench (pid {b}) ended by the parent-death SIGTERM, not run to its end ({why})")


def stopped(how, folder, default, out, lines=6):
    p = started(folder, default, out, lines)
    if how == "int":
        os.killpg(p.pid, signal.SIGINT)
    elif how in ("int-self", "term"):
        os.kill(p.pid, signal.SIGINT if how == "int-self" else signal.SIGTERM)
    elif timed_run(p.pid):
        os.kill(timed_run(p.pid), signal.SIGKILL)
    else:
        check(False, f"{how}: the bench's timed run was found running, to be killed")
    text, err = p.communicate(timeout=120)
    return p.returncode, text, err


def rows(text):
    return re.findall(r"^(crelu32/\S+)\s+[0-9.]+\s", text, re.M)


with tempfile.TemporaryDirectory(prefix="nnuelab-timing-stopped-") as d:
    folder, default, out = os.path.join(d, "per-core"), os.path.join(d, "default.json"), os.path.join(d, "run.json")
    for how, status, said in (("int", -signal.SIGINT, "interrupted by SIGINT"),
                              ("int-self", -signal.SIGINT, "interrupted by SIGINT"),
                              ("term", -signal.SIGTERM, "interrupted by SIGTERM"),
                              ("kill", 0, "killed by SIGKILL")):
        code, text, err = stopped(how, folder, default, out)
        check(code == status, f"{how}: the report ended with {status} (got {code}: {err.strip()[-300:]})")
        check("timing: PARTIAL RUN: nnuelab_bench" in text and said in text, f"{how}: the report says the run was stopped ({said})")
        check(len(rows(text)) >= 1, f"{how}: and reports the benchmarks timed ({len(rows(text))} rows)")
        check("the time baseline NOT updated" in text and not os.path.exists(folder) and not os.path.exists(default),
              f"{how}: and writes no baseline from it")
        check(not os.path.exists(out + ".reps"), f"{how}: no journal left beside {os.path.basename(out)}")
        try:
            with open(out) as f:
                kept = json.load(f)["benchmarks"]
            check(kept and all(not b.get("error_occurred") for b in kept) and
                  {"/".join(b["name"].split("/")[:5]) for b in kept} == set(rows(text)),
                  f"{how}: {os.path.basename(out)} holds the timed repetitions of the benchmarks reported, no skipped ones")
        except (OSError, ValueError, KeyError) as e:
            check(False, f"{how}: {os.path.basename(out)} reads as JSON ({e})")
    check("taken from run.json.reps" in text, "kill: the repetitions came from the journal")
    report_killed(folder, default, out)
    check(not os.path.exists(folder) and not os.path.exists(default), "report: no baseline written")
    # Against a baseline: compare.py's U test over the repetitions timed.
    text = timing(folder, default, out, "--update-baseline")
    code, text, err = stopped("int", folder, default, out)
    check(code == -signal.SIGINT and re.search(r"timing: \d+ of \d+ benchmarks differ from the time baseline", text),
          f"int, with a baseline: compared with it ({text[-400:]})" +
          ("" if os.path.exists(regress.COMPARE_PY) else
           f" [needs {regress.COMPARE_PY}: apt-get install libbenchmark-tools, as ./lab test does]"))
    # Killed during the noise probe, before any repetition.
    code, text, err = stopped("kill", folder, default, out, lines=0)
    check(code == 0 and "nothing to report" in text and "PARTIAL" not in text,
          f"kill before the first repetition: nothing to report, exit 0 ({code}: {text[-300:]})")

sys.exit(1 if failures else 0)
