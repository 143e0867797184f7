#!/usr/bin/python3
"""./lab ab: two revisions' benchmarks timed in turns on this machine.

On a shared VM the time of one call drifts by tens of percent over an hour (the guest's
placement, the host's load: docs/findings/). Two bench runs made minutes apart therefore
cannot tell a change of a few percent from the drift. Timing the two builds in turns, A
then B, then B then A, ..., each run pinned to the same CPU, and comparing each turn's B
with the same turn's A cancels what drifts slower than a turn.

  run REV_A REV_B --filter REGEX [--turns N] [--repetitions R] [--per-turn min|median]
      [--min-time S] [--scrub N] [--full] [--threshold PCT] [--no-pin] [--out FILE] [--fail-on-slower]
      [--keep-spells] [--adjust bh|holm|none] [--keep-trees N]
  report RESULT.json (of run, bisect or slots) [--threshold PCT] [--fail-on-slower] [--keep-spells] [--adjust ...]
  bisect GOOD BAD --filter REGEX [the run options] [--paths P ...] [--no-confirm] [--rotate]
  slots [REV] --filter REGEX [the run options] [--out FILE]
  prune [--keep N]

A revision is anything `git rev-parse` takes (a commit, HEAD~3, a branch, a tag), or '.'
for the working tree as it is (uncommitted changes too), built in build/default. A
commit's tree is exported with `git archive` to build/ab/<commit>/ and its bench built
there with the default preset; the copy is kept, so comparing against the same commit
again builds nothing. At most --keep-trees copies (default 6, about 0.9 GB each) are kept
after a run, the least recently used removed first (never the run's own); `prune` removes
them all but the --keep most recently used, and the per-turn files of build/ab/runs/. The
same revision twice (`./lab ab HEAD HEAD`) runs one binary in both roles: the comparison's
own noise floor.

A turn's figure of a benchmark is its fastest repetition (--per-turn min, the default:
noise on a VM only adds time, and a slow spell that spans one repetition of the three then
moves nothing) or their median (--per-turn median).

A turn in which one side's figure stands out slow against that side's own other turns
(more than 3.5 robust standard deviations and 10% above its median: the same binary on the
same inputs, so the machine's slow spell) is left out of the comparison, and counted
(--keep-spells: every turn compared).

Per benchmark: each side's median over the turns kept of its turn figures (ns per call)
and the range over all turns; the ratio B/A as the median of the turns' paired ratios; how
many turns B took longer; and Wilcoxon's signed-rank test on the turns' log ratios
(scipy), whose p-value says how likely so consistent a difference is from noise alone.
Each benchmark is its own test, so among many some clear p < 0.05 by chance: the p-values
are adjusted for their number (--adjust bh, the default: Benjamini-Hochberg, which keeps
the expected share of chance calls among the calls under 5%; holm: Holm's step-down, which
keeps the chance of any chance call under 5%; none: each p as it is). The verdict is "B
slower" or "B faster" when the adjusted p < 0.05 and the ratio is off 1 by more than
--threshold (default 1%); "too few turns" when every turn kept agrees beyond the threshold
but their p cannot pass (so few turns that even perfect agreement is not enough); else
"same" (a difference smaller than the threshold, or one the turns do not agree on). Six
turns is the least with which the test can reach p < 0.05 (the least two-sided p of n
turns is 2 / 2^n); a benchmark that changed alone among m needs 2 / 2^n < 0.05 / m after
the adjustment (11 turns for 44 benchmarks), and the report says when the turns are fewer.
--fail-on-slower: exit 1 when some benchmark is "B slower" (`git bisect run`); a bad
argument, revision, build or file exits 2. Results: results/<host>-ab-<time>.json (every
turn's times; `report` reads it again).

bisect: which commit between GOOD and BAD made BAD slower. It first times BAD against GOOD
and follows the benchmarks BAD is slower on (none: nothing to bisect, exit 1); the
candidates are the commits after GOOD up to BAD that touch --paths (default: what the
bench is built from; other commits build the same bench). Each step times GOOD, the middle
candidate and BAD together in turns (G C B, B C G, ...) and places the candidate between
them: 0 as fast as GOOD, 1 as slow as BAD (see place()); past 0.5 it is taken as slower,
and the range halves. A step whose p says it is not sure of the side (p >= 0.05) gets
--turns more turns, twice at most. No threshold decides a step: the day's own slowdown is
the scale, where a fixed threshold misjudged steps when the VM's drift shrank a 7%
slowdown to 3% (2026-12-04). A candidate that fails to build or lacks a followed benchmark
is skipped, as `git bisect skip` does. Then the first slower commit is timed against the
candidate before it as `run` does (--no-confirm: not), which says whether that one commit
holds the slowdown. --rotate: the three take every slot in turn (G C B, B C G, C B G,
G B C, B G C, C G B), for a machine where `slots` finds the middle slot biased; a drift
within a turn then cancels over each pair of turns rather than in each turn's C. The
steps, their turns and positions:
results/<host>-ab-bisect-<time>.json. Exit 0 with an answer, 1 when BAD is not slower, 2
on a bad argument, 130 on Ctrl-C (the steps so far printed).

slots: whether a slot of the turn runs faster or slower by itself on this machine, which
would bias a bisect step's positions (the candidate always runs in the middle). One
revision's bench (default '.') is timed three times per turn in the bisect's orders;
per benchmark the middle run over the geometric mean of the ends and the first run over
the last (a drift within the turn), as medians over the turns with the median's
distribution-free 95% interval and Wilcoxon's p (adjusted as --adjust says), and the same
of each turn's mean over the benchmarks. Results: results/<host>-ab-slots-<time>.json
(`report` reads it again)."""
import argparse
import datetime
import json
import math
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "plots"))
from results import ResultError, base_name, load  # noqa: E402
from common import at_least, build_targets, cpu_model, json_number, number_in, pin_command, robust_spread  # noqa: E402  (shared)
import kernel_code  # noqa: E402

AB_DIR = os.path.join(ROOT, "build", "ab")
BENCH = os.path.join("build", "default", "bench", "nnuelab_bench")
MIN_TURNS_FOR_TEST = 6
# The verdict of a row whose kept turns all agree beyond the threshold but are too few to
# be called (compare()); neither a call nor "same".
TOO_FEW = "too few turns"
P_LEVEL = 0.05
SPELL_MIN = 0.10   # a slow spell's turn is at least this much slower than the side's median
ADJUST = {"bh": "Benjamini-Hochberg", "holm": "Holm", "none": "none"}
KEEP_TREES = 6     # exported commit trees kept after a run (about 0.9 GB each)
BENCH_PATHS = ("kernels", "bench", "reference", "workloads", "cmake", "CMakeLists.txt", "CMakePresets.json")
EXTRA_ROUNDS = 2   # bisect: a step not sure of its side (p >= P_LEVEL) is timed again, up to twice
KEEP_RUNS = 10     # per-turn folders of build/ab/runs/ kept after a run
USED = ".ab-last-used"  # touched in an exported tree each time a run uses it


class AbError(Exception):
    """A bad argument, revision or build; the message says which, no traceback."""


def say(msg):
    print(f"\033[1m[ab]\033[0m {msg}", file=sys.stderr, flush=True)


def git(*args):
    p = subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise AbError(f"git {' '.join(args)}: {p.stderr.strip() or 'failed'}")
    return p.stdout.strip()


def resolve(rev):
    """(label, commit or None for the working tree, source directory of its build)."""
    if rev == ".":
        dirty = git("status", "--porcelain", "--untracked-files=no")
        return (f". (working tree at {git('rev-parse', '--short', 'HEAD')}{', modified' if dirty else ''})",
                None, ROOT)
    try:
        sha = git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except AbError:
        sha = ""
    if not re.fullmatch(r"[0-9a-f]{40}", sha):
        raise AbError(f"'{rev}' is not a revision of this repository (a commit, branch, tag, "
                      "HEAD~N, or '.' for the working tree)")
    return f"{rev if rev != sha else sha[:7]} ({sha[:10]})", sha, os.path.join(AB_DIR, sha)


_BUILT = {}   # src -> bench path: each tree is built once per process (a bisect times
             # GOOD and BAD in every round of every step)


def build(sha, src, jobs):
    """Builds nnuelab_bench of a commit's exported tree (or of the working tree), once per
    process; returns the binary's path."""
    if src in _BUILT:
        return _BUILT[src]
    if sha is not None and not os.path.isdir(src):
        # Exported beside it and renamed when whole, so an export cut short (Ctrl-C, a
        # full disk) leaves no tree that looks complete.
        part = src + ".part"
        shutil.rmtree(part, ignore_errors=True)
        os.makedirs(part)
        say(f"exporting {sha[:10]} to {os.path.relpath(src, ROOT)}")
        archive = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", sha],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", part], input=archive, check=True)
        os.rename(part, src)
    log = os.path.join(src, "build", "ab-build.log") if sha else os.path.join(ROOT, "build", "ab-worktree-build.log")
    say(f"building nnuelab_bench of {sha[:10] if sha else 'the working tree'} "
        f"({os.path.relpath(src, ROOT) if sha else 'build/default'}, default preset)")
    ok, _, why = build_targets(src, "default", ["nnuelab_bench"], log, jobs=jobs)
    if not ok:
        print(why, file=sys.stderr)
        raise AbError(f"building {sha[:10] if sha else 'the working tree'} failed; full log: {log}")
    _BUILT[src] = os.path.join(src, BENCH)
    return _BUILT[src]


def mark_used(sha, src):
    """Stamps an exported tree as just used (what pruning keeps by)."""
    if sha is not None:
        with open(os.path.join(src, USED), "w") as f:
            f.write(datetime.datetime.now().isoformat(timespec="seconds") + "\n")


def exported_trees(ab_dir=None):
    """[(last use, path)] of the exported commit trees under ab_dir, the most recently
    used first (a tree no run has marked counts from its folder's time)."""
    out, ab_dir = [], ab_dir or AB_DIR
    if os.path.isdir(ab_dir):
        for n in os.listdir(ab_dir):
            path = os.path.join(ab_dir, n)
            if re.fullmatch(r"[0-9a-f]{40}", n) and os.path.isdir(path):
                mark = os.path.join(path, USED)
                out.append((os.path.getmtime(mark if os.path.exists(mark) else path), path))
    return sorted(out, reverse=True)


def tree_size(path):
    total = 0
    for dirpath, _, files in os.walk(path):
        for n in files:
            try:
                total += os.lstat(os.path.join(dirpath, n)).st_size
            except OSError:
                pass
    return total


def prune(keep_trees, keep_runs, spare=(), ab_dir=None):
    """Removes the exported trees but the keep_trees most recently used (and those in
    spare), and the per-turn folders of ab_dir/runs but the keep_runs newest (their
    figures are in the results file). Returns (trees removed, run folders removed,
    bytes freed)."""
    ab_dir = ab_dir or AB_DIR
    trees = runs = freed = 0
    for _, path in exported_trees(ab_dir)[keep_trees:]:
        if path in spare:
            continue
        freed += tree_size(path)
        shutil.rmtree(path)
        trees += 1
    for n in os.listdir(ab_dir) if os.path.isdir(ab_dir) else []:
        if n.endswith(".part"):            # an export cut short
            shutil.rmtree(os.path.join(ab_dir, n), ignore_errors=True)
    runs_dir = os.path.join(ab_dir, "runs")
    if os.path.isdir(runs_dir):
        stamps = sorted(n for n in os.listdir(runs_dir) if os.path.isdir(os.path.join(runs_dir, n)))
        for n in stamps[:max(0, len(stamps) - keep_runs)]:
            freed += tree_size(os.path.join(runs_dir, n))
            shutil.rmtree(os.path.join(runs_dir, n))
            runs += 1
    return trees, runs, freed


def say_pruned(trees, runs, freed):
    if trees:
        say(f"removed {trees} exported tree(s) and {runs} run folder(s) of {os.path.relpath(AB_DIR, ROOT)}: "
            f"{freed / 2**30:.1f} GiB freed")


def turn_times(path, per_turn="min"):
    """{benchmark: ns per call} of one bench JSON: its repetitions' fastest (min) or median."""
    out = {}
    for r in load(path):
        if r.error is None and r.times:
            out[base_name(r.name)] = min(r.times) if per_turn == "min" else r.time
    return out


def check_run_args(args):
    try:
        re.compile(args.filter)
    except re.error as e:
        raise AbError(f"--filter '{args.filter}' is not a regular expression: {e}")


def run(args):
    check_run_args(args)
    rows, _ = timed_comparison(args, resolve(args.rev_a), resolve(args.rev_b), args.out)
    return slower_exit(rows, args)


def turn_order(keys, t, rotate=False):
    """The sides' order in turn t (from 0): the keys' order in even turns and its reverse
    in odd ones, so each pair of turns gives every side the same mean slot and a drift
    linear over the pair cancels. rotate (three or more sides): pair k starts from the
    (k mod n)-th key, so every side runs in every slot (G C B, B C G, C B G, G B C, B G C,
    C G B) and no slot's own bias falls on one side."""
    if rotate and len(keys) > 2:
        r = (t // 2) % len(keys)
        keys = keys[r:] + keys[:r]
    return keys if t % 2 == 0 else keys[::-1]


def time_in_turns(args, sides, first_turn=None, stop_on_interrupt=False, start=0):
    """Builds the benches of sides ({key: resolve()'s triple}, keys in their order) and
    times them in turns as the run options in args say, in turn_order()'s orders (A B, B
    A for two sides; G C B, B C G for bisect's three, which keeps C in the middle, where a
    drift linear over the turn cancels in C against the mean of the other two; with
    args.rotate, every side in every slot), the first being turn `start`'s (a bisect's
    extra round goes on where the last ended). first_turn(turns) is called after the
    first turn. Ctrl-C ends
    the turns there (the complete ones are kept), or, with stop_on_interrupt, goes on up
    to the caller. Returns
    ({key: [{benchmark: ns} per turn]}, the time stamp, whether the runs were pinned)."""
    if args.turns < MIN_TURNS_FOR_TEST:
        say(f"{args.turns} turns: fewer than {MIN_TURNS_FOR_TEST}, so no difference can be called "
            f"(p stays >= {P_LEVEL})")
    jobs = os.cpu_count() or 2
    binaries = {}
    for label, sha, src in sides.values():
        binaries[src] = build(sha, src, jobs)
        mark_used(sha, src)
    say_pruned(*prune(args.keep_trees, KEEP_RUNS, spare={src for _, _, src in sides.values()}))
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    work = os.path.join(AB_DIR, "runs", stamp)
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    # Every side reads the same data and traces (a copy's compiled-in default would be the
    # copy's own results/traces, which ./lab trace never wrote).
    env.setdefault("NNUELAB_DATA", os.path.join(ROOT, "..", "shared", "data"))
    env.setdefault("NNUELAB_TRACES", os.path.join(ROOT, "results", "traces"))
    flags = [f"--benchmark_filter={args.filter}", f"--benchmark_min_time={args.min_time}",
             f"--benchmark_repetitions={args.repetitions}", "--benchmark_enable_random_interleaving=true",
             "--benchmark_out_format=json"]
    if args.full:
        flags.append("--grid=full")
    if args.scrub is not None:
        flags.append(f"--scrub={args.scrub}")
    # Decided once for every run: the same CPU for every side and every turn.
    pin_prefix, pin = pin_command([], 1) if not args.no_pin else ([], "")
    if not args.no_pin and not pin_prefix:
        say(pin)
    keys = "".join(sides)
    turns = {k: [] for k in keys}
    rotate = getattr(args, "rotate", False)
    orders = "alternating" if len(keys) == 2 else \
        ", ".join(turn_order(keys, start + t, rotate) for t in range(6 if rotate else 2)) + ", ..."
    say(f"{args.turns} turns of {', '.join(f'{k} = {sides[k][0]}' for k in keys)}, order {orders}; "
        f"runs in {os.path.relpath(work, ROOT)}")
    try:
        for t in range(args.turns):
            for key in turn_order(keys, start + t, rotate):
                label, sha, src = sides[key]
                turn_file = os.path.join(work, f"{key}-{t + 1}.json")
                p = subprocess.run(pin_prefix + [binaries[src], *flags, f"--benchmark_out={turn_file}"],
                                   cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if p.returncode != 0:
                    raise AbError(f"the bench of {key} ({label}) failed in turn {t + 1} (exit {p.returncode}): "
                                  f"{p.stderr.strip()[-400:]}")
                times = turn_times(turn_file, args.per_turn)
                if not times:
                    raise AbError(f"--filter '{args.filter}' matches no benchmark {key} ({label}) can run")
                turns[key].append(times)
            if t == 0 and first_turn:
                first_turn(turns)
            say(f"turn {t + 1}/{args.turns} done")
    except KeyboardInterrupt:
        if stop_on_interrupt:
            raise
        say(f"interrupted: reporting the {min(len(v) for v in turns.values())} complete turns")
    n = min(len(v) for v in turns.values())
    if n == 0:
        raise AbError("no complete turn")
    return {k: v[:n] for k, v in turns.items()}, stamp, bool(pin_prefix)


def timed_comparison(args, side_a, side_b, out=None, stop_on_interrupt=False):
    """Builds the two sides' benches (resolve()'s triples) and times them in turns as the
    run options in args say; writes the result file (out, or results/<host>-ab-<time>.json)
    and prints the table. Returns (the table's rows, the file's path)."""
    def lone_call_warning(turns):
        m = len(set(turns["A"][0]) & set(turns["B"][0]))
        need = turns_for_lone_call(m, args.adjust)
        if m > 1 and args.turns < need:
            say(f"{m} benchmarks, {args.turns} turns: after the {ADJUST[args.adjust]} adjustment a "
                f"benchmark that changed alone cannot be called under {need} turns "
                f"(--turns {need}, a narrower --filter, or --adjust none)")

    turns, stamp, pinned = time_in_turns(args, {"A": side_a, "B": side_b}, lone_call_warning, stop_on_interrupt)
    result = run_record("nnuelab-ab", args, turns, pinned, A=side_a[0], B=side_b[0], commit_A=side_a[1],
                        commit_B=side_b[1])
    compared = compare(result["turns"]["A"], result["turns"]["B"], args.threshold, args.keep_spells, args.adjust)
    # build() again only looks up the benches time_in_turns built.
    note_kernel_code(result, compared[0], build(*side_a[1:], jobs=1), build(*side_b[1:], jobs=1))
    out = write_result(result, out or result_path("ab", stamp))
    rows = print_report(result, args.threshold, args.keep_spells, args.adjust, compared)
    say(f"wrote {os.path.relpath(out, ROOT) if out.startswith(ROOT) else out}")
    return rows, out


def noted_rows(rows):
    """The rows whose kernels the report looks at: those called, and those with too few
    turns to be called (their turns agree: a change of code would show there too)."""
    return [r for r in rows if r["verdict"] != "same"]


def note_kernel_code(result, rows, bench_a, bench_b):
    """Adds to an A/B result (compare()'s rows of it) whether the kernels of the benchmarks
    it calls, or would with more turns, changed their machine code between the two builds,
    and where they sit (tools/kernel_code.py): a build can move an unchanged kernel, and
    its time with it."""
    called = [r["name"] for r in noted_rows(rows)]
    if not called:
        return
    try:
        result["code"] = kernel_code.compare_builds(bench_a, bench_b, called)
    except kernel_code.FAILURES as e:
        say(f"the called benchmarks' kernel code was not compared ({kernel_code.why_failed(e)})")


def run_record(kind, args, turns, pinned, **sides):
    """A timed run's result file: what was run, where and how, and every turn's figures."""
    return {"kind": kind, "host": socket.gethostname(), "cpu": cpu_model(),
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"), **sides,
            "filter": args.filter, "per_turn": args.per_turn, "repetitions": args.repetitions,
            "min_time": args.min_time, "scrub": args.scrub, "grid": "full" if args.full else "quick",
            "pinned": pinned, "turns": turns}


def result_path(what, stamp):
    return os.path.join(ROOT, "results", f"{socket.gethostname().split('.')[0]}-{what}-{stamp}.json")


def write_result(result, out):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    return out


def wilcoxon_p(log_ratios):
    """Two-sided p of Wilcoxon's signed-rank test that the log ratios centre on 0; 1.0
    when every turn is equal, None without scipy."""
    if all(x == 0 for x in log_ratios):
        return 1.0
    try:
        from scipy.stats import wilcoxon
    except ImportError:
        return None
    return float(wilcoxon(log_ratios).pvalue)


def adjust_p(ps, method):
    """The rows' p-values adjusted for their number m (None, a p scipy could not give,
    stays None and is not counted). bh: Benjamini-Hochberg, the k-th smallest p times m / k,
    made non-decreasing from the largest down; holm: Holm's step-down, the k-th smallest
    times m - k + 1, made non-decreasing from the smallest up; none: as they are. Both
    capped at 1."""
    idx = sorted((i for i, p in enumerate(ps) if p is not None), key=lambda i: ps[i])
    m = len(idx)
    out = list(ps)
    if method == "holm":
        run = 0.0
        for k, i in enumerate(idx):
            run = max(run, min(1.0, (m - k) * ps[i]))
            out[i] = run
    elif method == "bh":
        run = 1.0
        for k in range(m - 1, -1, -1):
            run = min(run, m * ps[idx[k]] / (k + 1))
            out[idx[k]] = run
    return out


def turns_for_lone_call(m, method):
    """The fewest turns with which one benchmark among m that changed alone (every turn
    agreeing, so p is the exact test's least, 2 / 2^n) can be called after the adjustment:
    2 / 2^n < P_LEVEL / m (Benjamini-Hochberg and Holm ask the same of the smallest p)."""
    m = 1 if method == "none" else max(m, 1)
    n = 1
    while 2 / 2 ** n * m >= P_LEVEL:
        n += 1
    return n


def slow_spells(times):
    """Indexes of the turns in which one side's figure stands out slow against its own
    other turns: above the median by more than 3.5 robust standard deviations (1.4826 x
    the median absolute deviation, in log time) and by more than SPELL_MIN. The same
    binary timed the same inputs in every turn, so such a turn is the machine's (a slow
    spell longer than all of the run's repetitions), not the code's; one-sided, since
    noise on a VM only adds time."""
    logs = [math.log(t) for t in times]
    mid, cut = robust_spread(logs, 3.5, SPELL_MIN)
    return {i for i, x in enumerate(logs) if x - mid > cut}


def compare(a_turns, b_turns, threshold_pct, keep_spells=False, adjust="bh"):
    """One row per benchmark timed in every turn of both sides: medians, ranges, the
    paired ratio, p, p adjusted for the rows' number (q) and the verdict over the turns
    no slow spell hit; then the names timed on one side only."""
    names_a = set.intersection(*(set(t) for t in a_turns))
    names_b = set.intersection(*(set(t) for t in b_turns))
    rows = []
    for name in sorted(names_a & names_b):
        a_all = [t[name] for t in a_turns]
        b_all = [t[name] for t in b_turns]
        if min(a_all + b_all) <= 0:
            continue
        spells = set() if keep_spells else slow_spells(a_all) | slow_spells(b_all)
        keep = [i for i in range(len(a_all)) if i not in spells]
        a = [a_all[i] for i in keep]
        b = [b_all[i] for i in keep]
        ratios = [y / x for x, y in zip(a, b)]
        every = [y / x for x, y in zip(a_all, b_all)]
        ratio = statistics.median(ratios)
        p = wilcoxon_p([math.log(r) for r in ratios])
        rows.append({"name": name, "a": statistics.median(a), "a_range": (min(a_all), max(a_all)),
                     "b": statistics.median(b), "b_range": (min(b_all), max(b_all)), "ratio": ratio,
                     "b_longer": sum(r > 1 for r in ratios), "turns": len(ratios), "spells": len(spells),
                     "p": p, "agree_with_spells": all(x > 1 for x in every) or all(x < 1 for x in every)})
    for r, q in zip(rows, adjust_p([r["p"] for r in rows], adjust)):
        r["q"] = q
        beyond = abs(r["ratio"] - 1) * 100 > threshold_pct
        if q is not None and q < P_LEVEL and beyond:
            r["verdict"] = "B slower" if r["ratio"] > 1 else "B faster"
        elif beyond and r["b_longer"] in (0, r["turns"]) and r["turns"] > 0:
            # Every turn kept agrees, beyond the threshold, and still no call: the p of
            # so few turns (2 / 2^n at best) cannot pass the level among these rows. Not
            # "same": more turns would settle it (an 8x speed-up in 7 turns among 4 rows,
            # 2026-12-06, read "same" before this verdict).
            r["verdict"] = TOO_FEW
        else:
            r["verdict"] = "same"
    every = set().union(*a_turns, *b_turns)
    only = sorted(every - (names_a & names_b))
    return rows, only


def is_call(row):
    """Whether compare() called the row B slower or B faster."""
    return row["verdict"] in ("B slower", "B faster")


def print_report(result, threshold_pct, keep_spells=False, adjust="bh", compared=None):
    """Prints the table of an A/B result and returns its rows; compared: compare()'s
    (rows, only) of it with the same options, when the caller has them."""
    turns = result["turns"]
    rows, only = compared or compare(turns["A"], turns["B"], threshold_pct, keep_spells, adjust)
    adjusted = adjust != "none" and len(rows) > 1
    print(f"A: {result['A']}\nB: {result['B']}")
    print(f"CPU: {result.get('cpu', '?')}  {len(turns['A'])} turns, {result['repetitions']} repetitions of "
          f"{result['min_time']} s each, grid {result['grid']}, scrub {result['scrub'] or 0}, "
          f"{'pinned to CPU 1' if result['pinned'] else 'not pinned'}, {result['date']}")
    per_turn = "fastest repetition" if result.get("per_turn", "median") == "min" else "median"
    print(f"ns: median over the turns of each turn's {per_turn}, ns per call; range: fastest-slowest turn\n"
          f"spell: turns left out, one side's figure slow against its own other turns (> 3.5 robust SD and\n"
          f"  > {SPELL_MIN:.0%} above its median: the machine's slow spell); ns, B/A, B>A and p are of\n"
          f"  the other turns\n"
          f"B/A: median of the turns' paired ratios; B>A: turns B took longer; p: Wilcoxon signed-rank")
    if adjusted:
        print(f"p adj: p adjusted for the {len(rows)} rows ({ADJUST[adjust]})\n"
              f"verdict: B slower/faster at p adj < {P_LEVEL} and |B/A - 1| > {threshold_pct:g}%, else same")
    else:
        print(f"verdict: B slower/faster at p < {P_LEVEL} and |B/A - 1| > {threshold_pct:g}%, else same")
    w = max([len(r["name"]) for r in rows] + [9])
    print(f"{'benchmark':{w}} {'A ns':>9} {'A range':>17} {'B ns':>9} {'B range':>17} {'B/A':>7} {'B>A':>6} "
          f"{'spell':>5} {'p':>7}{' p adj' if adjusted else ''}  verdict")
    for r in rows:
        q = f" {fmt_p(r['q']):>5}" if adjusted else ""
        print(f"{r['name']:{w}} {r['a']:9.1f} {fmt_interval(r['a_range'], 1, '-'):>17} {r['b']:9.1f} "
              f"{fmt_interval(r['b_range'], 1, '-'):>17} "
              f"{r['ratio']:7.3f} {r['b_longer']:>3}/{r['turns']:<2} {r['spells']:>5} {fmt_p(r['p']):>7}{q}  "
              f"{r['verdict']}")
    for name in only:
        print(f"{name:{w}} timed on one side only or not in every turn (a benchmark one revision lacks)")
    if not rows:
        print("no benchmark timed in every turn of both sides")
    called = sum(is_call(r) for r in rows)
    few = [r for r in rows if r["verdict"] == TOO_FEW]
    if few:
        need = turns_for_lone_call(len(rows), adjust)
        print(f"{TOO_FEW}: {len(few)} row{'s' if len(few) > 1 else ''} whose kept turns all agree, beyond "
              f"{threshold_pct:g}%, yet are too few for p{' adj' if adjusted else ''} < {P_LEVEL} "
              f"(at best 2 / 2^n with n turns; a spell left out takes one away): not called, not the "
              f"same; a row{' among these' if adjusted else ''} needs {need} kept turns "
              f"(--turns {need + max(r['spells'] for r in few)} or more)")
        spelled = [r for r in few if r["spells"] and r["agree_with_spells"]]
        if spelled and not keep_spells:
            print(f"  of those, {len(spelled)} agree in every turn, their spells included: `./lab ab report FILE "
                  f"--keep-spells` compares all turns")
    if adjusted:
        # Each row is its own test: unadjusted, some of many clear p < 0.05 by chance
        # (README, "./lab ab": an A/A run of 44 called 3 at 1.02-1.04, none adjusted).
        share = ("the expected share of chance calls among the calls is at most 5%" if adjust == "bh" else
                 "the chance that any call is chance is at most 5%")
        print(f"{called} of {len(rows)} called, p adjusted for {len(rows)} tests ({ADJUST[adjust]}: {share})")
        need = turns_for_lone_call(len(rows), adjust)
        if statistics.median(r["turns"] for r in rows) < need:
            print(f"with these turns, a benchmark that changed alone cannot be called among {len(rows)}: that "
                  f"takes {need} turns, a narrower --filter or --adjust none"
                  f"{' (a change shared by several benchmarks can be called with fewer)' if adjust == 'bh' else ''}")
    elif len(rows) >= 10:
        print(f"{called} of {len(rows)} called; at p < {P_LEVEL} about {len(rows) * P_LEVEL:.0f} of {len(rows)} "
              f"equal benchmarks may be called by chance: repeat a call that matters, or give it more turns")
    code = result.get("code") or {}
    noted = [r["name"] for r in noted_rows(rows) if r["name"] in code]
    if noted:
        print("the kernels of the rows called (or with too few turns) in the two builds (objdump, addresses "
              "left out):")
        for name in noted:
            print(f"  {name}: {kernel_code.describe(code[name])}")
    if any(r["p"] is None for r in rows):
        print("p n/a: scipy is missing (Debian's python3-scipy; ./lab installs it)")
    return rows


# What report reads of each kind of file, as (field, test, what it must be). A file
# written by this tool passes; a hand-edited, cut or foreign one is refused naming the
# field instead of failing in the middle of a table with a traceback.
_TEXT = (lambda x: isinstance(x, str), "a text")
_WHOLE = (lambda x: isinstance(x, int) and not isinstance(x, bool) and x >= 1, "a whole number >= 1")
_SECONDS = (lambda x: json_number(x, positive=True), "a number > 0")
_FLAG = (lambda x: isinstance(x, bool), "true or false")
_SCRUB = (lambda x: x is None or (isinstance(x, int) and not isinstance(x, bool) and x >= 0),
          "null or a whole number >= 0")
_TEXTS = (lambda x: isinstance(x, list) and all(isinstance(c, str) for c in x), "a list of texts")
_ADDRESS = (lambda x: x is None or (isinstance(x, int) and not isinstance(x, bool) and x >= 0),
            "null or a whole number >= 0")
_TIMED = {"repetitions": _WHOLE, "min_time": _SECONDS, "pinned": _FLAG, "date": _TEXT}
_FIELDS = {
    "nnuelab-ab": {"A": _TEXT, "B": _TEXT, "grid": _TEXT, "scrub": _SCRUB, **_TIMED},
    "nnuelab-ab-slots": {"side": _TEXT, **_TIMED},
    "nnuelab-ab-bisect": {"good": _TEXT, "bad": _TEXT, "followed": _TEXTS, "candidates": _WHOLE,
                          "first_slower": _TEXT, "dropped": _TEXTS,
                          "steps": (lambda x: isinstance(x, list) and len(x) >= 1, "a list of steps")},
}
_SIDES = {"nnuelab-ab": "AB", "nnuelab-ab-slots": "XYZ"}
_STEP = {"commit": _TEXT, "outcome": _TEXT}
_STEP_OPTIONAL = {"position": (json_number, "a number"), "p": (lambda x: x is None or json_number(x), "null or a number"),
                  "interval": (lambda x: x is None or (isinstance(x, list) and len(x) == 2 and all(map(json_number, x))),
                               "null or two numbers")}


def check_result(result, path):
    """Raises AbError naming the first field of an ab result (run, slots or bisect) that is
    missing or not what the report reads; returns the file's kind."""
    def bad(what):
        raise AbError(f"{path}: not a well-formed ab result: {what}")

    def fields(obj, spec, where, optional=False):
        for key, (ok, want) in spec.items():
            if key not in obj:
                if not optional:
                    bad(f"{where}{key} is missing")
            elif not ok(obj[key]):
                bad(f"{where}{key} is {json.dumps(obj[key])[:40]}, not {want}")

    kind = result.get("kind") if isinstance(result, dict) else None
    if kind not in _FIELDS:
        raise AbError(f"{path}: not a result of ./lab ab, ab slots or ab bisect")
    fields(result, _FIELDS[kind], "")
    if kind == "nnuelab-ab-bisect":
        for i, step in enumerate(result["steps"]):
            if not isinstance(step, dict):
                bad(f"steps[{i}] is not a step")
            fields(step, _STEP, f"steps[{i}].")
            fields(step, _STEP_OPTIONAL, f"steps[{i}].", optional=True)
        confirm = result.get("confirm")
        if confirm is not None:
            fields(confirm if isinstance(confirm, dict) else {}, {
                "A": _TEXT, "slower": _FLAG,
                "ratios": (lambda x: isinstance(x, dict) and all(map(json_number, x.values())), "benchmark: ratio")},
                "confirm.")
        return kind
    code = result.get("code")
    if code is not None:
        if not isinstance(code, dict):
            bad("code is not a table of benchmarks and their kernels")
        for name, entry in code.items():
            if not isinstance(entry, dict) or not (entry.get("function") is None or isinstance(entry["function"], str)):
                bad(f"code of {name} is not a kernel's entry")
            if entry.get("function") is not None:
                fields(entry, {"A": _ADDRESS, "B": _ADDRESS, "same": _FLAG,
                               "instructions": (lambda x: isinstance(x, list) and len(x) == 2 and
                                                all(v is None or _ADDRESS[0](v) for v in x),
                                                "two counts")}, f"code of {name}: ")
    turns, sides = result.get("turns"), _SIDES[kind]
    if not isinstance(turns, dict) or sorted(turns) != sorted(sides):
        bad(f"turns holds {sorted(turns) if isinstance(turns, dict) else 'no sides'}, not the sides "
            f"{', '.join(sides)}")
    counts = {len(v) if isinstance(v, list) else 0 for v in turns.values()}
    if len(counts) != 1 or 0 in counts:
        bad(f"the sides' turns are {', '.join(f'{k}: {len(v) if isinstance(v, list) else 0}' for k, v in turns.items())}"
            f", not the same number >= 1")
    for side in sides:
        for i, turn in enumerate(turns[side]):
            if not isinstance(turn, dict) or not turn:
                bad(f"turn {i + 1} of {side} is not a table of benchmarks and their ns")
            for name, ns in turn.items():
                if not json_number(ns, positive=True):
                    bad(f"turn {i + 1} of {side}: {name} took {json.dumps(ns)}, not a time > 0")
    return kind


def report(args):
    try:
        with open(args.result) as f:
            result = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise AbError(f"{args.result}: cannot read an ab result ({e})")
    kind = check_result(result, args.result)
    if kind == "nnuelab-ab-bisect":
        print_bisect(result)
        return 0
    if kind == "nnuelab-ab-slots":
        print_slots(result, args.keep_spells, args.adjust)
        return 0
    return slower_exit(print_report(result, args.threshold, args.keep_spells, args.adjust), args)


def cmd_prune(args):
    trees, runs, freed = prune(args.keep, 0)
    kept = exported_trees()
    say(f"removed {trees} exported tree(s) and {runs} run folder(s): {freed / 2**30:.1f} GiB freed; "
        f"{len(kept)} tree(s) kept" + (f" ({', '.join(os.path.basename(p)[:10] for _, p in kept)})" if kept else ""))
    return 0


def bisect_commits(commits, test):
    """The first commit of `commits` (oldest first; the last is known slower, the commit
    before the first known not) for which test(commit) is True, by halving: test says
    True (slower), False (not) or None (cannot tell: a build that fails, a benchmark the
    commit lacks), and a commit it cannot tell is dropped, as `git bisect skip` does.
    Returns (the first slower, the dropped commits between the last not slower and it,
    the steps as [(commit, outcome)])."""
    cands = list(commits)
    lo, hi = -1, len(cands) - 1        # cands[lo] not slower (-1: the good commit), cands[hi] slower
    steps, dropped = [], []
    while hi - lo > 1:
        mid = (lo + hi) // 2           # lo < mid < hi
        outcome = test(cands[mid])
        steps.append((cands[mid], outcome))
        if outcome is None:
            dropped.append(cands.pop(mid))
            hi -= 1
        elif outcome:
            hi = mid
        else:
            lo = mid
    order = {c: i for i, c in enumerate(commits)}
    after = order[cands[lo]] if lo >= 0 else -1
    between = [c for c in dropped if after < order[c] < order[cands[hi]]]
    return cands[hi], sorted(between, key=order.get), steps


def place(g_turns, c_turns, b_turns, names, keep_spells=False):
    """Where a candidate C stands between GOOD and BAD, from turns that timed all three:
    per benchmark, the median over the turns of log(C/G) over the median of log(B/G), so 0
    is as fast as GOOD and 1 as slow as BAD (no threshold: the scale is the day's own
    slowdown, which drifts on a VM); C is taken as slower when the mean over the names is
    above 0.5. Turns a slow spell hit on any side are left out. p: Wilcoxon's signed-rank
    test of the turns' log(C^2 / (G B)), summed over the names, which is 0 when C is
    half way: how sure the side taken is. interval: the 95% interval (median_interval) of
    the median of the turns' own positions (each turn's log(C/G) over the benchmark's
    median log(B/G), meaned over the names), None under 6 turns. Returns {"position",
    "p", "interval", "positions", "kept" (the turns compared), "spells"}, or None when BAD
    is not slower than GOOD in these turns."""
    spells = set()
    if not keep_spells:
        for name in names:
            for side in (g_turns, c_turns, b_turns):
                spells |= slow_spells([t[name] for t in side])
    keep = [i for i in range(len(g_turns)) if i not in spells]
    positions, d, per_turn = {}, [0.0] * len(keep), [0.0] * len(keep)
    for name in names:
        g, c, b = ([side[i][name] for i in keep] for side in (g_turns, c_turns, b_turns))
        bad = statistics.median(math.log(y / x) for x, y in zip(g, b))
        if bad <= 0:
            return None
        positions[name] = statistics.median(math.log(y / x) for x, y in zip(g, c)) / bad
        d = [acc + math.log(z * z / (x * y)) for acc, x, y, z in zip(d, g, b, c)]
        per_turn = [acc + math.log(y / x) / bad / len(names) for acc, x, y in zip(per_turn, g, c)]
    return {"position": statistics.mean(positions.values()), "p": wilcoxon_p(d),
            "interval": median_interval(per_turn), "positions": positions, "kept": len(keep),
            "spells": len(spells)}


def median_interval(xs, level=0.95):
    """A distribution-free interval for the median of xs: the k-th smallest and k-th
    largest, k the largest with P(Binomial(n, 1/2) < k) <= (1 - level) / 2; None under 6."""
    n = len(xs)
    if n < 6:
        return None
    xs = sorted(xs)
    k, below = 0, 0.0
    while below + math.comb(n, k) / 2 ** n <= (1 - level) / 2:
        below += math.comb(n, k) / 2 ** n
        k += 1
    k = max(k, 1)
    return xs[k - 1], xs[n - k]


def slot_effects(turns, keep_spells=False):
    """The turn's own bias, from one binary timed in the three slots of every turn (keys X
    Y Z, run XYZ in even turns and ZYX in odd ones, as a bisect step runs G C B): per
    benchmark, the middle run against the geometric mean of the two ends (the candidate's
    slot in a bisect step) and the turn's first run against its last; as medians over the
    turns of the log ratios, with the median's interval and Wilcoxon's p. "all": the
    turns' mean over the benchmarks. Turns a slow spell hit in any slot are left out."""
    names = sorted(set.intersection(*(set(t) for k in "XYZ" for t in turns[k])))
    n = min(len(turns[k]) for k in "XYZ")
    rows, mids, firsts = [], [], []
    for name in names:
        x, y, z = ([turns[k][i][name] for i in range(n)] for k in "XYZ")
        spells = set() if keep_spells else slow_spells(x) | slow_spells(y) | slow_spells(z)
        keep = [i for i in range(n) if i not in spells]
        mid = {i: math.log(y[i] / math.sqrt(x[i] * z[i])) for i in keep}
        first = {i: math.log(x[i] / z[i]) * (1 if i % 2 == 0 else -1) for i in keep}
        mids.append(mid)
        firsts.append(first)
        rows.append(effect_row(name, list(mid.values()), list(first.values()), len(spells)))
    common = sorted(set.intersection(*(set(m) for m in mids))) if mids else []
    pooled = effect_row("all", [statistics.mean(m[i] for m in mids) for i in common],
                        [statistics.mean(f[i] for f in firsts) for i in common], n - len(common))
    return rows, pooled


def effect_row(name, mid, first, spells):
    row = {"name": name, "turns": len(mid), "spells": spells}
    for key, logs in (("middle", mid), ("first", first)):
        interval = median_interval(logs)
        row[key] = math.exp(statistics.median(logs)) if logs else float("nan")
        row[key + "_interval"] = None if interval is None else tuple(math.exp(v) for v in interval)
        row[key + "_p"] = wilcoxon_p(logs) if logs else None
    return row


def print_slots(result, keep_spells=False, adjust="bh"):
    rows, pooled = slot_effects(result["turns"], keep_spells)
    for key in ("middle_p", "first_p"):   # each benchmark its own test, as in compare()
        for r, q in zip(rows, adjust_p([r[key] for r in rows], adjust)):
            r[key] = q
    n = min(len(v) for v in result["turns"].values())
    print(f"one binary in the three slots of each turn: {result['side']}")
    print(f"CPU: {result.get('cpu', '?')}  {n} turns (XYZ, ZYX, ...), {result['repetitions']} repetitions of "
          f"{result['min_time']} s each, {'pinned to CPU 1' if result['pinned'] else 'not pinned'}, {result['date']}")
    print("middle: the middle run over the ends' geometric mean (a bisect step's candidate); first: the turn's\n"
          f"  first run over its last: medians over the turns, [95% interval of the median], Wilcoxon p\n"
          f"  {f'(adjusted for the {len(rows)} benchmarks, {ADJUST[adjust]}); ' if len(rows) > 1 and adjust != 'none' else ''}"
          f"all: each turn's mean over the benchmarks, over the turns no spell hit")
    w = max([len(r["name"]) for r in rows] + [9])
    print(f"{'benchmark':{w}} {'middle':>7} {'interval':>15} {'p':>6} {'first':>7} {'interval':>15} {'p':>6} "
          f"{'turns':>5} {'spell':>5}")
    iv = lambda r, k: fmt_interval(r[k + "_interval"], 3, "-")  # noqa: E731
    for r in rows + [pooled]:
        print(f"{r['name']:{w}} {r['middle']:7.3f} {iv(r, 'middle'):>15} {fmt_p(r['middle_p']):>6} "
              f"{r['first']:7.3f} {iv(r, 'first'):>15} {fmt_p(r['first_p']):>6} {r['turns']:>5} {r['spells']:>5}")
    if pooled["middle_interval"] is not None:
        lo, hi = pooled["middle_interval"]
        worst = max(abs(math.log(lo)), abs(math.log(hi)))
        print(f"a bisect step's position (0 GOOD, 1 BAD) moves by the middle slot's bias over BAD's slowdown:\n"
              f"  by the interval of 'all', at most about {worst / math.log(1.05):.2f} at a 5% slowdown, "
              f"{worst / math.log(1.10):.2f} at 10%")
    return rows, pooled


def cmd_slots(args):
    """./lab ab slots [REV]: does a slot of the turn run faster by itself on this machine?"""
    check_run_args(args)
    side = resolve(args.rev)
    turns, stamp, pinned = time_in_turns(args, {"X": side, "Y": side, "Z": side})
    result = run_record("nnuelab-ab-slots", args, turns, pinned, side=side[0], commit=side[1])
    out = write_result(result, args.out or result_path("ab-slots", stamp))
    print_slots(result, args.keep_spells, args.adjust)
    say(f"wrote {os.path.relpath(out, ROOT) if out.startswith(ROOT) else out}")
    return 0


def cmd_bisect(args):
    """./lab ab bisect GOOD BAD: which commit between them made BAD's benchmarks slower.
    Every step times GOOD, a candidate and BAD in turns and places the candidate between
    them; the benchmarks followed are those BAD is slower on against GOOD."""
    check_run_args(args)
    good, bad = resolve(args.good), resolve(args.bad)
    if good[1] is None or bad[1] is None:
        raise AbError("bisect takes two commits ('.' is the working tree, which has no history)")
    if subprocess.run(["git", "-C", ROOT, "merge-base", "--is-ancestor", good[1], bad[1]]).returncode != 0 \
            or good[1] == bad[1]:
        raise AbError(f"{args.good} is not an ancestor of {args.bad}: nothing lies between them")
    listed = git("rev-list", "--reverse", "--ancestry-path", f"{good[1]}..{bad[1]}", "--", *args.paths).split()
    commits = [c for c in listed if c != bad[1]] + [bad[1]]
    say(f"bisect: {len(commits)} candidate commit(s) after {args.good} up to {args.bad} "
        f"(those touching {' '.join(args.paths)}, and {args.bad}); first, {args.bad} against {args.good}")
    rows, first_file = timed_comparison(args, good, bad)
    tracked = [r["name"] for r in rows if r["verdict"] == "B slower"]
    if not tracked:
        say(f"{args.bad} is not slower than {args.good} on '{args.filter}': nothing to bisect")
        return 1
    say(f"following: {', '.join(tracked)}")
    log = [{"commit": bad[1], "outcome": "slower", "file": first_file, "ratios": ratios_of(rows, tracked),
            "position": 1.0}]

    def test(commit):
        # GOOD, the candidate and BAD timed together; the candidate is placed between them.
        sides = {"G": good, "C": resolve(commit), "B": bad}
        try:
            turns, _, _ = time_in_turns(args, sides, stop_on_interrupt=True)
        except AbError as e:
            say(f"{commit[:10]} cannot be timed ({e}): skipped")
            log.append({"commit": commit, "outcome": "skipped", "why": str(e)})
            return None
        if any(name not in t for t in turns["C"] for name in tracked):
            say(f"{commit[:10]} lacks a followed benchmark: skipped")
            log.append({"commit": commit, "outcome": "skipped", "why": "lacks a followed benchmark"})
            return None
        where = place(turns["G"], turns["C"], turns["B"], tracked, args.keep_spells)
        for _ in range(EXTRA_ROUNDS):
            if where is None or (where["p"] is not None and where["p"] < P_LEVEL):
                break
            say(f"{commit[:10]}: position {where['position']:.2f}, not sure of its side (p {fmt_p(where['p'])}): "
                f"{args.turns} more turns")
            more, _, _ = time_in_turns(args, sides, stop_on_interrupt=True, start=len(turns["G"]))
            turns = {k: turns[k] + more[k] for k in turns}
            where = place(turns["G"], turns["C"], turns["B"], tracked, args.keep_spells)
        if where is None:
            say(f"step {len(log)}: {commit_subject(commit)}: BAD was not slower than GOOD in this step's turns: skipped")
            log.append({"commit": commit, "outcome": "skipped", "why": "BAD not slower in its turns", "turns": turns})
            return None
        slower = where["position"] > 0.5
        log.append({"commit": commit, "outcome": "slower" if slower else "not slower", "turns": turns, **where})
        say(f"step {len(log) - 1}: {commit_subject(commit)}: {'slower' if slower else 'not slower'} (position "
            f"{where['position']:.2f} {fmt_interval(where['interval'])} from GOOD 0 to BAD 1, p {fmt_p(where['p'])}, "
            f"{where['kept']} turns)")
        return slower

    try:
        first, dropped, steps = bisect_commits(commits, test)
    except KeyboardInterrupt:
        say(f"interrupted after {len(log) - 1} step(s); the steps so far:")
        print_steps(log)
        return 130
    # The candidate before the answer that was not skipped (else GOOD): the step's other side.
    earlier = [c for c in commits[:commits.index(first)] if c not in dropped]
    before = earlier[-1] if earlier else good[1]
    confirm = None
    if not args.no_confirm:
        say(f"confirming: {before[:10]} (A) against {first[:10]} (B), the two sides of the step")
        try:
            c_rows, c_file = timed_comparison(args, resolve(before), resolve(first), stop_on_interrupt=True)
        except (AbError, KeyboardInterrupt) as e:
            say(f"no confirmation: {e or 'interrupted'}")
        else:
            by_name = {r["name"]: r for r in c_rows}
            confirm = {"A": before, "B": first, "file": c_file, "ratios": ratios_of(c_rows, tracked),
                       "slower": any(by_name.get(n, {}).get("verdict") == "B slower" for n in tracked)}
    summary = {"kind": "nnuelab-ab-bisect", "cpu": cpu_model(),
               "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
               "good": good[1], "bad": bad[1], "filter": args.filter, "paths": args.paths,
               "candidates": len(commits), "followed": tracked, "rotate": args.rotate, "steps": log,
               "first_slower": first, "dropped": dropped, "confirm": confirm}
    out = write_result(summary, result_path("ab-bisect", datetime.datetime.now().strftime("%Y%m%d-%H%M%S")))
    print_bisect(summary)
    say(f"wrote {os.path.relpath(out, ROOT)}")
    return 0


def print_bisect(summary):
    """A bisect's summary (as its file keeps it): the steps, the answer, its confirmation."""
    log, first, confirm = summary["steps"], summary["first_slower"], summary["confirm"]
    print(f"\nbisect of {summary['good'][:10]}..{summary['bad'][:10]} on {', '.join(summary['followed'])}: "
          f"{summary['candidates']} candidates, {len(log) - 1} steps{' (rotated turns)' if summary.get('rotate') else ''}")
    print_steps(log)
    unsure = [e["commit"][:10] for e in log if e.get("p") is not None and e["p"] >= P_LEVEL]
    print(f"first slower: {commit_subject(first)}")
    if unsure:
        print(f"  steps not sure of their side (p >= {P_LEVEL} after up to {EXTRA_ROUNDS + 1}x the turns): "
              f"{', '.join(unsure)}; positions that stay near 0.5 say the slowdown is spread over several "
              f"commits (each a part, or code placement moving with every change), not one")
    if summary["dropped"]:
        print(f"  or one of the skipped commits just before it: {', '.join(c[:10] for c in summary['dropped'])}")
    if confirm is not None:
        ratios = ", ".join(f"{x:.3f}" for x in confirm["ratios"].values())
        before = confirm["A"][:10]
        print(f"confirmed against its predecessor {before}: B/A {ratios}" if confirm["slower"] else
              f"NOT confirmed against its predecessor {before} (B/A {ratios}): the slowdown may come "
              f"in parts over several commits (see the positions), or noise misled a step")


def print_steps(log):
    """The bisect's steps so far as a table: commit, outcome, position, its interval, p."""
    print(f"  {'commit':72}  {'outcome':10}  {'position':>8} {'95% interval':>13}  {'p':>5}   "
          f"(position: GOOD 0, BAD 1)")
    for entry in log:
        where = "" if "position" not in entry else \
            f"{entry['position']:8.2f} {fmt_interval(entry.get('interval')):>13}"
        sure = "" if entry.get("p") is None else f"  {fmt_p(entry['p']):>5}"
        print(f"  {commit_subject(entry['commit']):72}  {entry['outcome']:10}  {where}{sure}")


def commit_subject(commit):
    """'<short sha> <subject>' cut to 72 columns; the sha alone for a commit this repository
    lacks (a summary file from another clone)."""
    try:
        return git("log", "-1", "--format=%h %s", commit)[:72]
    except AbError:
        return commit[:10]


def fmt_interval(interval, digits=2, sep=" "):
    """(lo, hi) as "[lo hi]" ("" for None). sep "-" for what cannot be negative (times,
    ratios); positions on the GOOD-BAD line can be, so they keep the space."""
    return "" if interval is None else f"[{interval[0]:.{digits}f}{sep}{interval[1]:.{digits}f}]"


def fmt_p(p):
    return "n/a" if p is None else f"{p:.3f}"


def ratios_of(rows, names):
    by_name = {r["name"]: r for r in rows}
    return {n: round(by_name[n]["ratio"], 4) for n in names if n in by_name}


def slower_exit(rows, args):
    """--fail-on-slower: 1 when some benchmark's verdict is "B slower" (for `git bisect run`
    and scripts), else 0."""
    slower = [r["name"] for r in rows if r["verdict"] == "B slower"]
    if args.fail_on_slower and slower:
        say(f"B slower: {', '.join(slower)}")
        return 1
    return 0


class ArgParser(argparse.ArgumentParser):
    """argparse with its refusals said as ab's own are ("ab: <what>", exit 2), then the
    usage (the bounds of --turns, --min-time, --threshold and the like are argument types,
    common.at_least and number_in)."""
    def error(self, message):
        print(f"ab: {message}", file=sys.stderr)
        self.print_usage(sys.stderr)
        sys.exit(2)


def main(argv):
    ap = ArgParser(prog="./lab ab", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    def run_options(r):
        r.add_argument("--filter", required=True, help="the benchmarks to compare (as ./lab bench --filter)")
        r.add_argument("--turns", type=at_least(1), default=10)
        r.add_argument("--repetitions", type=at_least(1), default=3)
        r.add_argument("--per-turn", choices=("min", "median"), default="min")
        r.add_argument("--min-time", type=number_in("seconds > 0", 0, above=True), default=0.1)
        r.add_argument("--scrub", type=at_least(0))
        r.add_argument("--full", action="store_true")
        r.add_argument("--threshold", type=number_in("a percentage >= 0", 0), default=1.0)
        r.add_argument("--no-pin", action="store_true")
        r.add_argument("--keep-spells", action="store_true")
        r.add_argument("--adjust", choices=tuple(ADJUST), default="bh")
        r.add_argument("--keep-trees", type=at_least(0), default=KEEP_TREES)
    r = sub.add_parser("run", prog="./lab ab")
    r.add_argument("rev_a")
    r.add_argument("rev_b")
    run_options(r)
    r.add_argument("--out")
    r.add_argument("--fail-on-slower", action="store_true")
    b = sub.add_parser("bisect", prog="./lab ab bisect")
    b.add_argument("good")
    b.add_argument("bad")
    run_options(b)
    b.add_argument("--paths", nargs="+", default=list(BENCH_PATHS),
                   help="only commits touching these are candidates (default: what the bench is built from)")
    b.add_argument("--no-confirm", action="store_true")
    b.add_argument("--rotate", action="store_true",
                   help="every side in every slot of the turns (when ./lab ab slots finds a middle-slot bias)")
    o = sub.add_parser("slots", prog="./lab ab slots")
    o.add_argument("rev", nargs="?", default=".")
    run_options(o)
    o.add_argument("--out")
    q = sub.add_parser("report", prog="./lab ab report")
    q.add_argument("result")
    q.add_argument("--threshold", type=number_in("a percentage >= 0", 0), default=1.0)
    q.add_argument("--fail-on-slower", action="store_true")
    q.add_argument("--keep-spells", action="store_true")
    q.add_argument("--adjust", choices=tuple(ADJUST), default="bh")
    c = sub.add_parser("prune", prog="./lab ab prune")
    c.add_argument("--keep", type=at_least(0), default=0, help="the most recently used exported trees to keep")
    args = ap.parse_args(argv)
    try:
        if args.mode == "prune":
            return cmd_prune(args)
        if args.mode == "bisect":
            return cmd_bisect(args)
        if args.mode == "slots":
            return cmd_slots(args)
        return run(args) if args.mode == "run" else report(args)
    except (AbError, ResultError) as e:
        print(f"ab: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
