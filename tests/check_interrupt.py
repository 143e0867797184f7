#!/usr/bin/python3
"""An interrupted run keeps what it timed: usage check_interrupt.py BENCH WORKDIR

nnuelab_bench on SIGINT or SIGTERM (bench/harness.h, install_interrupt_handler) lets the
benchmark being timed finish, skips the rest with "interrupted by SIG...", writes its
--benchmark_out file and exits 128 + the signal; a second signal ends it at once. A run
killed outright (SIGKILL) leaves what it wrote as it went, cut off, and every repetition it
finished in <file>.reps (bench/journal.h), and results.py reads both. Checked here against a
live process each way, the journal against the file of a whole run (--keep-journal), plus how
plots/results.py and plots/summary.py read a benchmark with some repetitions timed and the
rest skipped (a made-up file). Exit 1 on a failure; each failure is a line starting "FAIL  ".
"""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots"))
import results as R  # noqa: E402
from checks import check, failures  # noqa: E402

# Many short elementwise benchmarks, three interleaved repetitions each: minutes in all, a
# run every second or so (the first ones are done within the waits below).
FILTER = "^(crelu16|crelu32|pool_avg2)/"


def start(bench, out, min_time, interleave=True):
    cmd = [bench, "--noise=0", f"--benchmark_filter={FILTER}", f"--benchmark_min_time={min_time}",
           "--benchmark_repetitions=3", f"--benchmark_enable_random_interleaving={str(interleave).lower()}",
           f"--benchmark_out={out}"]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # The timed pass begins after this line (registration and the listing pass before it).
    first = p.stderr.readline()
    if not first.startswith("[bench] timing "):
        p.kill()
        p.wait()
        raise SystemExit(f"FAIL  nnuelab_bench did not start its run: {first.strip()!r}")
    return p


def listed(bench):
    # The same min_time as the interrupted run: it is part of the names.
    run = subprocess.run([bench, "--noise=0", f"--benchmark_filter={FILTER}", "--benchmark_min_time=0.1",
                          "--benchmark_list_tests=true"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True)
    return set(run.stdout.split())


def fresh(out):
    """Removes a result file and its journal left by an earlier run."""
    for p in (out, out + R.JOURNAL_SUFFIX):
        if os.path.exists(p):
            os.remove(p)


def interrupted_once(bench, work, sig, wait, names):
    out = os.path.join(work, f"interrupt_{sig.name}.json")
    fresh(out)
    p = start(bench, out, 0.1)
    time.sleep(wait)
    p.send_signal(sig)
    t = time.monotonic()
    err = p.stderr.read()
    rc = p.wait()
    took = time.monotonic() - t
    tag = f"{sig.name}:"
    check(rc == 128 + sig.value, f"{tag} exit status {rc} (expected {128 + sig.value})")
    check(took < 60, f"{tag} the run ended {took:.1f} s after the signal (the benchmark being timed, then skips)")
    check(f"interrupted by {sig.name}; the results so far are in {out}" in err, f"{tag} stderr names the file")
    check(not os.path.exists(out + ".tmp"), f"{tag} the final text replaced the file (no {out}.tmp left)")
    check(not os.path.exists(out + R.JOURNAL_SUFFIX), f"{tag} the journal is removed once the file is written")
    try:
        with open(out) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{tag} {out} is valid JSON ({e})")
        return
    runs = [b for b in data["benchmarks"] if b.get("run_type") == "iteration"]
    why = f"interrupted by {sig.name}"
    skipped = [b for b in runs if b.get("error_occurred") and b.get("error_message") == why]
    timed = [b for b in runs if not b.get("error_occurred")]
    # The filter's AVX-512 and AVX-VNNI variants are skipped as unavailable from the start
    # on a CPU without them (an AVX2-only Zen 3): neither timed nor cut by the signal.
    unavailable = [b for b in runs if b.get("error_occurred") and
                   b.get("error_message", "").startswith("unavailable: ")]
    note = data["context"].get("nnuelab_interrupted", "")
    check(note == f"{why}: {len(skipped)} of {len(runs)} runs skipped",
          f"{tag} context nnuelab_interrupted {note!r} counts the file's runs ({len(skipped)} of {len(runs)})")
    check(len(runs) == 3 * len(names), f"{tag} every repetition of every selected benchmark is in the file "
          f"({len(runs)} runs, {len(names)} benchmarks x 3)")
    check({b["run_name"] for b in runs} == names, f"{tag} the file's benchmarks are the filter's")
    check(len(skipped) > 0 and len(skipped) + len(timed) + len(unavailable) == len(runs),
          f"{tag} the rest were skipped with the signal's name ({len(skipped)} skipped, {len(timed)} timed, "
          f"{len(unavailable)} unavailable on this CPU, {len(runs)} runs)")
    return len(timed)


def killed_by_second(bench, work):
    out = os.path.join(work, "interrupt_twice.json")
    # Runs of many seconds each (the harness's real time per run is many times its
    # min_time's share; the first ends about 30 s in on a Zen 3): the second signal lands
    # while the first run is still being timed. On a loaded machine (CTest running another
    # check beside this one) the start-up can outlast the wait, and a first signal before
    # the first run skips every run at once: the process is then gone before a second
    # signal, which proves nothing either way, so that attempt is made again (3 at most).
    for attempt in range(1, 4):
        fresh(out)
        p = start(bench, out, 5.0)
        time.sleep(3.0)  # into the first run, where the start-up is as quick as usual
        p.send_signal(signal.SIGINT)
        time.sleep(0.3)
        if p.poll() is not None:
            p.stderr.read()
            print(f"note  attempt {attempt}: the run ended (exit status {p.returncode}) within 0.3 s of the first SIGINT "
                  "(it came before the first run): again")
            continue
        p.send_signal(signal.SIGINT)
        p.stderr.read()
        rc = p.wait()
        check(rc == -signal.SIGINT,
              f"a second SIGINT ends the process at once (returncode {rc}, expected {-signal.SIGINT}; attempt {attempt})")
        break
    else:
        check(False, "a second SIGINT ends the process at once: in 3 attempts the run ended before a second "
              "signal could be sent (each time the first one came before the first run)")
        return
    # Written as the run went: the context, no entry (interleaved repetitions are reported
    # when a benchmark's last one is done); results.py says so.
    try:
        R.load(out)
        check(False, "a process killed outright before its first result: results.py refuses the file")
    except R.ResultError as e:
        check("cut off before its first complete result" in str(e),
              f"a process killed outright before its first result: results.py says so ({e})")


def killed_outright(bench, work, names):
    """SIGKILL (nothing of the process runs) part way through a run without interleaving:
    the file holds every benchmark finished before it, cut off after the last one; the
    journal adds the repetitions of the one being timed, if any were done."""
    out = os.path.join(work, "killed.json")
    fresh(out)
    p = start(bench, out, 0.1, interleave=False)
    time.sleep(4.0)
    p.kill()
    p.stderr.read()
    rc = p.wait()
    check(rc == -signal.SIGKILL, f"SIGKILL: returncode {rc}")
    try:
        json.load(open(out))
        check(False, "SIGKILL: the file is cut off (it parsed whole)")
    except ValueError:
        pass
    try:
        rf = R.load(out)
    except R.ResultError as e:
        check(False, f"SIGKILL: results.py reads the cut-off file ({e})")
        return
    note = rf.context.get("nnuelab_interrupted", "")
    timed = [r for r in rf if r.times]
    partial = [r for r in timed if len(r.times) != 3]
    check(note.startswith(R.CUT_OFF), f"SIGKILL: the context says the run was cut off ({note!r})")
    check(len(timed) > 1 and len(partial) <= 1 and all(len(r.times) in (1, 2) for r in partial)
          and (not partial or f"{len(partial[0].times)} repetitions of 1 benchmarks not finished" in note),
          f"SIGKILL: the benchmarks finished before it are there, 3 repetitions each, and at most the one being "
          f"timed with 1-2 from the journal ({[len(r.times) for r in timed]}; {note!r})")
    check(all(any(n.startswith(r.name + "/") for n in names) for r in rf) and len(rf.results) < len(names),
          f"SIGKILL: the file's benchmarks are some of the filter's ({len(rf.results)} of {len(names)})")
    here = os.path.dirname(os.path.abspath(__file__))
    s = subprocess.run([sys.executable, os.path.join(here, "..", "plots", "summary.py"), out],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(s.returncode == 0 and f"INTERRUPTED: {R.CUT_OFF}" in s.stdout,
          f"SIGKILL: summary.py shows the cut-off run and flags it (exit {s.returncode})")


def killed_interleaved(bench, work, names):
    """SIGKILL part way through a run with interleaved repetitions: the file holds only the
    benchmarks whose last repetition was done (few or none), the journal every repetition
    finished; results.py reads the repetitions of both, and the context says how many came
    from the journal."""
    out = os.path.join(work, "killed_interleaved.json")
    fresh(out)
    p = start(bench, out, 0.1)
    time.sleep(5.0)
    p.kill()
    p.stderr.read()
    check(p.wait() == -signal.SIGKILL, "SIGKILL, interleaved: killed")
    lines = [json.loads(l) for l in open(out + R.JOURNAL_SUFFIX) if l.endswith("\n")]
    try:
        rf = R.load(out)
    except R.ResultError as e:
        check(False, f"SIGKILL, interleaved: results.py reads the file and its journal ({e})")
        return
    reps = sum(len(r.times) for r in rf)
    in_file = 0
    try:
        in_file = len(R.cut_off(open(out).read())["benchmarks"])
    except (TypeError, KeyError):
        pass
    note = rf.context.get("nnuelab_interrupted", "")
    check(len(lines) >= 2 and reps == len(lines) and in_file < len(lines),
          f"SIGKILL, interleaved: every repetition of the journal is read ({reps} read, {len(lines)} journal lines, "
          f"{in_file} entries in the cut file)")
    check(all(1 <= len(r.times) <= 3 for r in rf if r.times) and "taken from killed_interleaved.json.reps" in note,
          f"SIGKILL, interleaved: 1-3 repetitions per benchmark, the context names the journal ({note!r})")
    check(all(any(n.startswith(r.name + "/") for n in names) for r in rf),
          "SIGKILL, interleaved: the journal's benchmarks are the filter's")


def journal_matches_file(bench, work):
    """A whole run with --keep-journal: the journal holds exactly the file's repetitions (the
    runs Google Benchmark reported, with its iteration counts, times and finished counters);
    without the flag the journal is gone after the run."""
    out = os.path.join(work, "journal.json")
    fresh(out)
    args = [bench, "--noise=0", "--benchmark_filter=^(crelu16/.*/32/|peak/avx2/|affine/avx2/sparse_blocked4_lut_acc1/"
            "1536x16/chunk:15)", "--benchmark_min_time=0.01", "--benchmark_repetitions=3",
            "--benchmark_enable_random_interleaving=true", f"--benchmark_out={out}"]
    run = subprocess.run(args + ["--keep-journal"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    check(run.returncode == 0, f"journal: the run ends (exit {run.returncode})")
    try:
        data = json.load(open(out))
        journal = [json.loads(l) for l in open(out + R.JOURNAL_SUFFIX)]
    except (OSError, ValueError) as e:
        check(False, f"journal: the file and its kept journal read ({e})")
        return

    def key(e):
        return R.base_name(e["name"]), e["iterations"], e["real_time"]

    reported = sorted((b for b in data["benchmarks"] if b.get("run_type") == "iteration" and not b.get("error_occurred")),
                      key=key)
    journal.sort(key=key)
    check(len(reported) >= 30 and len(journal) == len(reported),
          f"journal: one line per reported repetition ({len(journal)} lines, {len(reported)} in the file)")
    bad = []
    for f, j in zip(reported, journal):
        same = (R.base_name(f["name"]) == j["name"] and f["iterations"] == j["iterations"]
                and abs(f["real_time"] - j["real_time"]) <= 1e-12 * f["real_time"])
        # pct_peak: the file's is against the final peak, the journal's against the peak so far.
        counters = {k: v for k, v in f.items() if k not in R.GB_FIELDS and isinstance(v, (int, float)) and k != "pct_peak"}
        same = same and all(abs(j.get(k, float("nan")) - v) <= 1e-9 * abs(v) for k, v in counters.items())
        if not same:
            bad.append(j["name"])
    check(not bad and len(reported) > 0, f"journal: each line is the file's entry (differ: {bad[:3]})")
    fresh(out)
    run = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    check(run.returncode == 0 and os.path.exists(out) and not os.path.exists(out + R.JOURNAL_SUFFIX),
          "journal: removed when the run ends")


def final_text_not_written(bench, work):
    """When the final text cannot be written beside the file (here <file>.tmp is a folder),
    the file keeps what was written as the run went, closed so that it reads whole."""
    out = os.path.join(work, "no_final.json")
    for p in (out, out + ".tmp"):
        if os.path.isdir(p):
            os.rmdir(p)
        elif os.path.exists(p):
            os.remove(p)
    os.mkdir(out + ".tmp")
    run = subprocess.run([bench, "--noise=0", "--benchmark_filter=^crelu16/scalar/", "--benchmark_min_time=0.01",
                          f"--benchmark_out={out}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    os.rmdir(out + ".tmp")
    check(run.returncode == 0 and f"could not rewrite {out} with the final pct_peak" in run.stderr,
          f"unwritable final text: exit {run.returncode}, stderr says so")
    try:
        with open(out) as f:
            data = json.load(f)
        check(len(data["benchmarks"]) > 0 and "nnuelab_interrupted" not in data["context"],
              f"unwritable final text: the file reads whole, with the run's {len(data['benchmarks'])} results")
    except (OSError, ValueError, KeyError) as e:
        check(False, f"unwritable final text: the file reads whole ({e})")


def cut_off_files(work):
    """results.py on files cut at every kind of place (made up from a whole one): after an
    entry or within one, read as cut off with the entries before the cut; within the
    context, or a whole file with text after it, invalid; empty, said so."""
    entry = {"name": "crelu16/sse2/packs_max/1024/dense:100/manual_time", "run_name": "x", "run_type": "iteration",
             "repetitions": 1, "iterations": 10, "real_time": 5.0, "cpu_time": 5.0, "time_unit": "ns"}
    whole = json.dumps({"context": {"nnuelab_cpu_model": "made up"}, "benchmarks": [entry, dict(entry, real_time=7.0)]},
                       indent=2)
    cut_after_first = whole.index("},", whole.index('"benchmarks"')) + 2
    cases = [("cut after the first entry", whole[:cut_after_first], 1), ("cut within the second entry", whole[:-40], 1),
             ("cut after the last entry, before the list's end", whole[:whole.rindex("]")], 2),
             ("cut within the context", whole[:30], "invalid JSON"), ("whole with text after it", whole + "x", "invalid JSON"),
             ("cut before any entry", whole[:whole.index("[") + 1], "cut off before its first complete result"),
             ("empty", "", "empty")]
    path = os.path.join(work, "cut.json")
    for what, text, expect in cases:
        with open(path, "w") as f:
            f.write(text)
        try:
            rf = R.load(path)
            r = rf.results.get("crelu16/sse2/packs_max/1024/dense:100")
            got = len(r.times) if r else 0
            check(expect == got and rf.context["nnuelab_interrupted"].startswith(R.CUT_OFF)
                  and rf.context["nnuelab_cpu_model"] == "made up",
                  f"results.py, a file {what}: {got} repetitions read, flagged cut off (expected {expect})")
        except R.ResultError as e:
            check(isinstance(expect, str) and expect in str(e), f"results.py, a file {what}: {e}")


def partial_repetitions(work):
    """results.py: timed repetitions stand beside skipped ones; never timed = skipped."""
    path = os.path.join(work, "interrupt_made_up.json")

    def run(name, t=None, err=None):
        b = {"name": name + "/manual_time", "run_name": name + "/manual_time", "run_type": "iteration",
             "repetitions": 3, "iterations": 10, "real_time": t if t is not None else 0, "cpu_time": 1,
             "time_unit": "ns"}
        if err:
            b.update(error_occurred=True, error_message=err)
        return b

    a, b = "crelu16/avx2/packs_max_permute/1024/dense:100", "crelu16/sse2/packs_max/1024/dense:100"
    why = "interrupted by SIGINT"
    data = {"context": {"nnuelab_interrupted": f"{why}: 4 of 6 runs skipped"},
            "benchmarks": [run(a, 10.0), run(b, err=why), run(a, 14.0), run(a, err=why), run(b, err=why),
                           run(b, err=why)]}
    with open(path, "w") as f:
        json.dump(data, f)
    rf = R.load(path)
    ra, rb = rf.results.get(a), rf.results.get(b)
    check(ra is not None and ra.error is None and ra.times == [10.0, 14.0] and ra.time == 12.0 and ra.skipped == 1,
          "results.py: two timed repetitions beside a skipped one give their median (12.0), no error")
    check(rb is not None and rb.error == why and not rb.times, "results.py: a benchmark never timed is skipped with the reason")
    here = os.path.dirname(os.path.abspath(__file__))
    s = subprocess.run([sys.executable, os.path.join(here, "..", "plots", "summary.py"), path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(f"INTERRUPTED: {why}: 4 of 6 runs skipped" in s.stdout, "summary.py flags the interrupted run")
    check(f"(2 of 3 repetitions: {why})" in s.stdout, "summary.py says how many repetitions stand")


def main():
    bench, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    partial_repetitions(work)
    cut_off_files(work)
    names = listed(bench)
    check(len(names) > 50, f"the filter selects {len(names)} benchmarks (enough for a run of minutes)")
    timed = interrupted_once(bench, work, signal.SIGINT, 4.0, names)
    check(bool(timed), f"SIGINT: runs timed before the signal are kept ({timed})")
    interrupted_once(bench, work, signal.SIGTERM, 1.0, names)
    killed_by_second(bench, work)
    killed_outright(bench, work, names)
    killed_interleaved(bench, work, names)
    journal_matches_file(bench, work)
    final_text_not_written(bench, work)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
