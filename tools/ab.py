#!/usr/bin/python3
"""./lab ab: two revisions' benchmarks timed in turns on this machine.

On a shared VM the time of one call drifts by tens of percent over an hour (the guest's
placement, the host's load: docs/findings/). Two bench runs made minutes apart therefore
cannot tell a change of a few percent from the drift. Timing the two builds in turns,
A then B, then B then A, ..., each run pinned to the same CPU, and comparing each turn's
B with the same turn's A cancels what drifts slower than a turn.

  run REV_A REV_B --filter REGEX [--turns N] [--repetitions R] [--per-turn min|median]
      [--min-time S] [--scrub N] [--full] [--threshold PCT] [--no-pin] [--out FILE] [--fail-on-slower]
      [--keep-spells]
  report RESULT.json [--threshold PCT] [--fail-on-slower] [--keep-spells]

A revision is anything `git rev-parse` takes (a commit, HEAD~3, a branch, a tag), or '.'
for the working tree as it is (uncommitted changes too), built in build/default. A
commit's tree is exported with `git archive` to build/ab/<commit>/ and its bench built
there with the default preset; the copy is kept, so comparing against the same commit
again builds nothing. The same revision twice (`./lab ab HEAD HEAD`) runs one binary in
both roles: the comparison's own noise floor.

A turn's figure of a benchmark is its fastest repetition (--per-turn min, the default:
noise on a VM only adds time, and a slow spell that spans one repetition of the three
then moves nothing) or their median (--per-turn median).

A turn in which one side's figure stands out slow against that side's own other turns
(more than 3.5 robust standard deviations and 10% above its median: the same binary on
the same inputs, so the machine's slow spell) is left out of the comparison, and counted
(--keep-spells: every turn compared).

Per benchmark: each side's median over the turns kept of its turn figures (ns per call)
and the range over all turns; the ratio B/A as the median of the turns' paired ratios;
how many turns B took longer; and Wilcoxon's signed-rank test on the turns' log ratios (scipy), whose
p-value says how likely so consistent a difference is from noise alone. The verdict is
"B slower" or "B faster" when p < 0.05 and the ratio is off 1 by more than --threshold
(default 1%), else "same" (a difference smaller than the threshold, or one the turns
do not agree on). Six turns is the least with which the test can reach p < 0.05.
--fail-on-slower: exit 1 when some benchmark is "B slower" (`git bisect run`); a bad
argument, revision, build or file exits 2.
Results: results/<host>-ab-<time>.json (every turn's times; `report` reads it again).
"""
import argparse
import datetime
import json
import math
import os
import re
import socket
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "plots"))
from results import ResultError, base_name, load  # noqa: E402
from common import cpu_model, pin_command, robust_spread  # noqa: E402  (shared with regress.py)

AB_DIR = os.path.join(ROOT, "build", "ab")
BENCH = os.path.join("build", "default", "bench", "nnuelab_bench")
MIN_TURNS_FOR_TEST = 6
P_LEVEL = 0.05
SPELL_MIN = 0.10   # a slow spell's turn is at least this much slower than the side's median


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
    return f"{rev} ({sha[:10]})", sha, os.path.join(AB_DIR, sha)


def run_logged(cmd, cwd, log, what):
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        p = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        with open(log) as f:
            tail = [ln for ln in f.read().splitlines() if not re.match(r"^\[\d+/\d+\] ", ln)][-30:]
        print("\n".join(tail), file=sys.stderr)
        raise AbError(f"{what} failed; full log: {log}")


def build(sha, src, jobs):
    """Builds nnuelab_bench of a commit's exported tree (or of the working tree); returns
    the binary's path."""
    if sha is not None and not os.path.isfile(os.path.join(src, "CMakePresets.json")):
        os.makedirs(src, exist_ok=True)
        say(f"exporting {sha[:10]} to {os.path.relpath(src, ROOT)}")
        archive = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", sha],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    log = os.path.join(src, "build", "ab-build.log") if sha else os.path.join(ROOT, "build", "ab-worktree-build.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    open(log, "w").close()
    if not os.path.isfile(os.path.join(src, "build", "default", "CMakeCache.txt")):
        say(f"configuring {os.path.relpath(src, ROOT) or '.'} (default preset)")
        run_logged(["cmake", "--preset", "default"], src, log, "configuring")
    say(f"building nnuelab_bench of {sha[:10] if sha else 'the working tree'}")
    run_logged(["cmake", "--build", "--preset", "default", "-j", str(jobs), "--target", "nnuelab_bench"],
               src, log, "building")
    return os.path.join(src, BENCH)


def turn_times(path, per_turn="min"):
    """{benchmark: ns per call} of one bench JSON: its repetitions' fastest (min) or median."""
    out = {}
    for r in load(path):
        if r.error is None and r.times:
            out[base_name(r.name)] = min(r.times) if per_turn == "min" else r.time
    return out


def run(args):
    if args.turns < 1 or args.repetitions < 1:
        raise AbError("--turns and --repetitions take whole numbers >= 1")
    if args.min_time <= 0:
        raise AbError("--min-time takes seconds > 0")
    if args.scrub is not None and args.scrub < 0:
        raise AbError("--scrub takes a number of branches >= 0")
    try:
        re.compile(args.filter)
    except re.error as e:
        raise AbError(f"--filter '{args.filter}' is not a regular expression: {e}")
    sides = [resolve(args.rev_a), resolve(args.rev_b)]
    if args.turns < MIN_TURNS_FOR_TEST:
        say(f"{args.turns} turns: fewer than {MIN_TURNS_FOR_TEST}, so no difference can be called "
            f"(p stays >= {P_LEVEL})")
    jobs = os.cpu_count() or 2
    binaries = {}
    for label, sha, src in sides:
        if src not in binaries:
            binaries[src] = build(sha, src, jobs)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    work = os.path.join(AB_DIR, "runs", stamp)
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    # Both sides read the same data and traces (a copy's compiled-in default would be the
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
    # Decided once for every run: the same CPU for both sides and every turn.
    pin_prefix, pin = pin_command([], 1) if not args.no_pin else ([], "")
    if not args.no_pin and not pin_prefix:
        say(pin)
    turns = {"A": [], "B": []}
    say(f"{args.turns} turns of A = {sides[0][0]} and B = {sides[1][0]}, order alternating; "
        f"runs in {os.path.relpath(work, ROOT)}")
    try:
        for t in range(args.turns):
            for side in ("AB" if t % 2 == 0 else "BA"):
                label, sha, src = sides[0 if side == "A" else 1]
                out = os.path.join(work, f"{side}-{t + 1}.json")
                p = subprocess.run(pin_prefix + [binaries[src], *flags, f"--benchmark_out={out}"],
                                   cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if p.returncode != 0:
                    raise AbError(f"the bench of {side} ({label}) failed in turn {t + 1} (exit {p.returncode}): "
                                  f"{p.stderr.strip()[-400:]}")
                times = turn_times(out, args.per_turn)
                if not times:
                    raise AbError(f"--filter '{args.filter}' matches no benchmark {side} ({label}) can run")
                turns[side].append(times)
            say(f"turn {t + 1}/{args.turns} done")
    except KeyboardInterrupt:
        say(f"interrupted: reporting the {min(len(turns['A']), len(turns['B']))} complete turns")
    n = min(len(turns["A"]), len(turns["B"]))
    turns = {"A": turns["A"][:n], "B": turns["B"][:n]}
    if n == 0:
        raise AbError("no complete turn")
    result = {
        "kind": "nnuelab-ab",
        "host": socket.gethostname(),
        "cpu": cpu_model(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "A": sides[0][0], "B": sides[1][0],
        "commit_A": sides[0][1], "commit_B": sides[1][1],
        "filter": args.filter, "per_turn": args.per_turn, "repetitions": args.repetitions, "min_time": args.min_time,
        "scrub": args.scrub, "grid": "full" if args.full else "quick", "pinned": bool(pin_prefix),
        "turns": turns,
    }
    out = args.out or os.path.join(ROOT, "results", f"{socket.gethostname().split('.')[0]}-ab-{stamp}.json")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    rows = print_report(result, args.threshold, args.keep_spells)
    say(f"wrote {os.path.relpath(out, ROOT) if out.startswith(ROOT) else out}")
    return slower_exit(rows, args)


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


def compare(a_turns, b_turns, threshold_pct, keep_spells=False):
    """One row per benchmark timed in every turn of both sides: medians, ranges, the
    paired ratio, p and the verdict over the turns no slow spell hit; then the names timed
    on one side only."""
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
        ratio = statistics.median(ratios)
        p = wilcoxon_p([math.log(r) for r in ratios])
        if p is not None and p < P_LEVEL and abs(ratio - 1) * 100 > threshold_pct:
            verdict = "B slower" if ratio > 1 else "B faster"
        else:
            verdict = "same"
        rows.append({"name": name, "a": statistics.median(a), "a_range": (min(a_all), max(a_all)),
                     "b": statistics.median(b), "b_range": (min(b_all), max(b_all)), "ratio": ratio,
                     "b_longer": sum(r > 1 for r in ratios), "turns": len(ratios), "spells": len(spells),
                     "p": p, "verdict": verdict})
    every = set().union(*a_turns, *b_turns)
    only = sorted(every - (names_a & names_b))
    return rows, only


def print_report(result, threshold_pct, keep_spells=False):
    turns = result["turns"]
    rows, only = compare(turns["A"], turns["B"], threshold_pct, keep_spells)
    print(f"A: {result['A']}\nB: {result['B']}")
    print(f"CPU: {result.get('cpu', '?')}  {len(turns['A'])} turns, {result['repetitions']} repetitions of "
          f"{result['min_time']} s each, grid {result['grid']}, scrub {result['scrub'] or 0}, "
          f"{'pinned to CPU 1' if result['pinned'] else 'not pinned'}, {result['date']}")
    per_turn = "fastest repetition" if result.get("per_turn", "median") == "min" else "median"
    print(f"ns: median over the turns of each turn's {per_turn}, ns per call; range: fastest-slowest turn\n"
          f"spell: turns left out, one side's figure slow against its own other turns (> 3.5 robust SD and\n"
          f"  > {SPELL_MIN:.0%} above its median: the machine's slow spell); ns, B/A, B>A and p are of\n"
          f"  the other turns\n"
          f"B/A: median of the turns' paired ratios; B>A: turns B took longer; p: Wilcoxon signed-rank\n"
          f"verdict: B slower/faster at p < {P_LEVEL} and |B/A - 1| > {threshold_pct:g}%, else same")
    w = max([len(r["name"]) for r in rows] + [9])
    print(f"{'benchmark':{w}} {'A ns':>9} {'A range':>17} {'B ns':>9} {'B range':>17} {'B/A':>7} {'B>A':>6} "
          f"{'spell':>5} {'p':>7}  verdict")
    for r in rows:
        rng = lambda lo_hi: f"[{lo_hi[0]:.1f}-{lo_hi[1]:.1f}]"  # noqa: E731
        p = "n/a" if r["p"] is None else f"{r['p']:.3f}"
        print(f"{r['name']:{w}} {r['a']:9.1f} {rng(r['a_range']):>17} {r['b']:9.1f} {rng(r['b_range']):>17} "
              f"{r['ratio']:7.3f} {r['b_longer']:>3}/{r['turns']:<2} {r['spells']:>5} {p:>7}  {r['verdict']}")
    for name in only:
        print(f"{name:{w}} timed on one side only or not in every turn (a benchmark one revision lacks)")
    if not rows:
        print("no benchmark timed in every turn of both sides")
    called = sum(r["verdict"] != "same" for r in rows)
    if len(rows) >= 10:
        # Each row is its own test: among many, some clear p < 0.05 by chance (README,
        # "./lab ab": an A/A run of 44 called 3, at 1.02-1.04).
        print(f"{called} of {len(rows)} called; at p < {P_LEVEL} about {len(rows) * P_LEVEL:.0f} of {len(rows)} "
              f"equal benchmarks may be called by chance: repeat a call that matters, or give it more turns")
    if any(r["p"] is None for r in rows):
        print("p n/a: scipy is missing (Debian's python3-scipy; ./lab installs it)")
    return rows


def report(args):
    try:
        with open(args.result) as f:
            result = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise AbError(f"{args.result}: cannot read an ab result ({e})")
    if not isinstance(result, dict) or result.get("kind") != "nnuelab-ab":
        raise AbError(f"{args.result}: not a result of ./lab ab")
    if not result["turns"]["A"]:
        raise AbError(f"{args.result}: no turns")
    return slower_exit(print_report(result, args.threshold, args.keep_spells), args)


def slower_exit(rows, args):
    """--fail-on-slower: 1 when some benchmark's verdict is "B slower" (for `git bisect run`
    and scripts), else 0."""
    slower = [r["name"] for r in rows if r["verdict"] == "B slower"]
    if args.fail_on_slower and slower:
        say(f"B slower: {', '.join(slower)}")
        return 1
    return 0


def main(argv):
    ap = argparse.ArgumentParser(prog="./lab ab", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run", prog="./lab ab")
    r.add_argument("rev_a")
    r.add_argument("rev_b")
    r.add_argument("--filter", required=True, help="the benchmarks to compare (as ./lab bench --filter)")
    r.add_argument("--turns", type=int, default=10)
    r.add_argument("--repetitions", type=int, default=3)
    r.add_argument("--per-turn", choices=("min", "median"), default="min")
    r.add_argument("--min-time", type=float, default=0.1)
    r.add_argument("--scrub", type=int)
    r.add_argument("--full", action="store_true")
    r.add_argument("--threshold", type=float, default=1.0)
    r.add_argument("--no-pin", action="store_true")
    r.add_argument("--out")
    r.add_argument("--fail-on-slower", action="store_true")
    r.add_argument("--keep-spells", action="store_true")
    q = sub.add_parser("report", prog="./lab ab report")
    q.add_argument("result")
    q.add_argument("--threshold", type=float, default=1.0)
    q.add_argument("--fail-on-slower", action="store_true")
    q.add_argument("--keep-spells", action="store_true")
    args = ap.parse_args(argv)
    try:
        if args.threshold < 0:
            raise AbError("--threshold takes a percentage >= 0")
        return run(args) if args.mode == "run" else report(args)
    except (AbError, ResultError) as e:
        print(f"ab: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
