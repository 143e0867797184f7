#!/usr/bin/python3
"""CTest check of tools/ab.py (./lab ab): the comparison of two revisions in turns.

    check_ab.py SOURCE_DIR

The verdicts on turns written here, with the answer known: B 10% slower in every turn
with noise of +-3% around it (B slower), the same cut 10% (B faster), equal turns (same,
p = 1), a difference of 0.5% in every turn (under the 1% threshold: same), a doubling in
only 5 turns (too few for p < 0.05: same), turns that disagree (half slower, half faster:
same), whole runs slowed by the machine in three turns (left out; --keep-spells keeps
them), a benchmark one side lacks (listed, not compared); a bench JSON's repetitions read
as their fastest or their median under the name without Google Benchmark's suffixes; the
result file read again by `report` (--fail-on-slower: exit 1 on a slower B only); the
p-values adjusted for the number of benchmarks (Benjamini-Hochberg and Holm on p-values
worked by hand; 44 equal benchmarks of which some clear p < 0.05 alone: none called once
adjusted; 20 of 44 moved 10% in every one of 10 turns: all called by Benjamini-Hochberg,
none by Holm, which needs 11 turns, as the report says); the least-recently-used pruning
of build/ab's exported trees and run folders; `bisect`'s halving (every first slower
commit of every list of 1 to 12 found in at most ceil(log2(n)) steps; a commit it cannot
time skipped and named when it lies just before the answer; a candidate placed between
GOOD and BAD: as slow as BAD near 1, as GOOD near 0, half way near 0.5 and unsure, a slow
spell left out, None when BAD is not slower); `slots`' slot effects (the median's interval;
no middle bias found under a drift within the turn, which shows as first over last; a
middle slot 3% slower found; a whole run on a stand-in bench whose middle runs are 5%
slower, read again by `report`); `bisect --rotate`'s turn orders (every side twice in every
slot over six turns) and a candidate as fast as GOOD placed near 0 with the middle slot 2%
slower, where the plain orders place it past 0.25; bad revisions, arguments and files exit 2
with a message. One whole comparison runs on two stand-in benches (scripts that write
a bench JSON, B 10% slower): the turns' files, the result file where it belongs, the
verdict. One whole bisect runs in a scratch git repository on stand-in benches (the answer,
its confirmation, every step's turns kept in the summary file, `report` printing the file
again with commits this repository lacks named by sha). The runs themselves (exporting,
building, timing) take minutes and are not run here.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from checks import check, failures

SRC = sys.argv[1]
sys.path.insert(0, os.path.join(SRC, "tools"))
import ab  # noqa: E402

TOOL = os.path.join(SRC, "tools", "ab.py")


def turns(n, base, factor, noise, seed, drift=(0.8, 1.3)):
    """n turns of {name: ns}: B's time is factor x A's in each, both with uniform noise,
    both scaled by the turn's drift (the machine's slow and fast turns)."""
    rng = random.Random(seed)
    a, b = [], []
    for _ in range(n):
        d = rng.uniform(*drift)
        a.append({"x/avx2/t/64/dense:100": base * d * rng.uniform(1 - noise, 1 + noise)})
        b.append({"x/avx2/t/64/dense:100": base * factor * d * rng.uniform(1 - noise, 1 + noise)})
    return a, b


def verdict(a, b, threshold=1.0):
    rows, _ = ab.compare(a, b, threshold)
    return rows[0]


def moved_turns(m, moved, n, factor, seed=11):
    """n turns of m benchmarks, the first `moved` of them B = factor x A in every turn,
    the rest with 0.5% noise each side (their B/A stays under the 1% threshold); all under
    a common drift per turn."""
    rng = random.Random(seed)
    a, b = [], []
    for _ in range(n):
        d = rng.uniform(0.9, 1.2)
        a.append({f"x/avx2/t{i:02}/64/dense:100": 100.0 * d * rng.uniform(0.995, 1.005) for i in range(m)})
        b.append({k: (v * factor if int(k[8:10]) < moved else 100.0 * d * rng.uniform(0.995, 1.005))
                  for k, v in a[-1].items()})
    return a, b


def check_adjust():
    ps = [0.01, 0.04, 0.03, 0.005, None]
    got = [None if q is None else round(q, 6) for q in ab.adjust_p(ps, "bh")]
    # By hand: sorted 0.005, 0.01, 0.03, 0.04 times m / k = 0.02, 0.02, 0.04, 0.04 (m = 4;
    # None is not a test), already non-decreasing.
    check(got == [0.02, 0.04, 0.04, 0.02, None], f"Benjamini-Hochberg of four p-values and a None: {got}")
    got = [None if q is None else round(q, 6) for q in ab.adjust_p(ps, "holm")]
    # Holm: 0.005 x 4, 0.01 x 3, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 raised to 0.06.
    check(got == [0.03, 0.06, 0.06, 0.02, None], f"Holm of the same: {got}")
    got = ab.adjust_p([0.5, 0.9, 0.7], "bh")
    check(got == [0.9, 0.9, 0.9], f"Benjamini-Hochberg made non-decreasing from the largest p: {got}")
    check(ab.adjust_p(ps, "none") == ps, "--adjust none leaves the p-values as they are")
    need = [ab.turns_for_lone_call(1, "bh"), ab.turns_for_lone_call(44, "bh"), ab.turns_for_lone_call(44, "none")]
    check(need == [ab.MIN_TURNS_FOR_TEST, 11, ab.MIN_TURNS_FOR_TEST],
          f"turns for a lone change to be called (1 benchmark, 44 adjusted, 44 not): {need}")

    # 44 benchmarks of which 3 look as the A/A run's chance calls did (B 3% slower in 8 of
    # 10 turns, 1% faster in 2: p about 0.02 alone): unadjusted, called; adjusted, not.
    a, b = moved_turns(44, 0, 10, 1.0, seed=12)
    for i in range(3):
        for t in range(10):
            key = f"x/avx2/t{i:02}/64/dense:100"
            b[t][key] = a[t][key] * (0.99 if t in (2 + i, 6 + i) else 1.03)
    called = {adj: sum(ab.is_call(r) for r in ab.compare(a, b, 1.0, adjust=adj)[0])
              for adj in ("none", "bh", "holm")}
    check(called["none"] == 3 and called["bh"] == 0 and called["holm"] == 0,
          f"3 of 44 at p about 0.02, calls without and with the adjustment: {called}")
    # 20 of 44 moved 10% in every turn: each p is 2 / 2^10; BH calls all 20 (20 x 0.002 / 20
    # x 44 < 0.05); Holm needs 0.002 x 44 < 0.05, which 10 turns do not give.
    a, b = moved_turns(44, 20, 10, 1.10)
    rows = {adj: ab.compare(a, b, 1.0, adjust=adj)[0] for adj in ("bh", "holm")}
    bh = sorted(r["name"] for r in rows["bh"] if r["verdict"] == "B slower")
    holm = [r for r in rows["holm"] if ab.is_call(r)]
    check(bh == [f"x/avx2/t{i:02}/64/dense:100" for i in range(20)] and not holm,
          f"20 of 44 moved 10%: Benjamini-Hochberg calls {len(bh)}, Holm {len(holm)}")
    few = sum(r["verdict"] == ab.TOO_FEW for r in rows["holm"])
    check(few == 20, f"... Holm's 20 uncalled rows, every turn agreeing, read '{ab.TOO_FEW}', not 'same': {few}")
    # The report of a run like 2026-12-06's: 4 rows, one 8x faster in every kept turn of 7
    # (a spell left out): not called, and the report says what would settle it.
    result = {"kind": "nnuelab-ab", "A": "a", "B": "b", "grid": "quick", "scrub": None, "repetitions": 1,
              "min_time": 0.1, "pinned": False, "date": "today", "cpu": "test",
              "turns": {"A": [{f"x/avx2/t{k}/64/dense:100": 64.0 + (i + k) % 3 for k in range(4)} for i in range(8)],
                        "B": [{f"x/avx2/t{k}/64/dense:100": (8.0 + i % 2 if k == 0 else 64.0 + (i + 2 * k) % 3)
                               * (1.6 if k == 0 and i == 5 else 1.0) for k in range(4)} for i in range(8)]}}
    import contextlib
    import io
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        ab.print_report(result, 1.0)
    row = [x for x in text.getvalue().splitlines() if x.startswith("x/avx2/t0/")]
    check(row and row[0].endswith(ab.TOO_FEW) and " 0/7 " in row[0] and
          f"{ab.TOO_FEW}: 1 row whose kept turns all agree" in text.getvalue() and
          "a row among these needs 8 kept turns (--turns 9 or more)" in text.getvalue() and
          "of those, 1 agree in every turn, their spells included" in text.getvalue() and "0 of 4 called" in text.getvalue(),
          f"an 8x speed-up in 7 kept turns among 4 rows: {text.getvalue()[-700:]!r}")
    a, b = moved_turns(44, 20, 12, 1.10)
    holm = sum(r["verdict"] == "B slower" for r in ab.compare(a, b, 1.0, adjust="holm")[0])
    check(holm == 20, f"... and with 12 turns Holm calls them too: {holm}")


def check_prune():
    with tempfile.TemporaryDirectory() as tmp:
        shas = [f"{i:x}" * 40 for i in range(1, 5)]
        now = time.time()
        for age, sha in enumerate(shas):        # shas[0] used last, shas[3] first
            d = os.path.join(tmp, sha, "build")
            os.makedirs(d)
            with open(os.path.join(d, "obj"), "wb") as f:
                f.write(b"x" * 1000)
            mark = os.path.join(tmp, sha, ab.USED)
            open(mark, "w").close()
            os.utime(mark, (now - 100 * age, now - 100 * age))
        os.makedirs(os.path.join(tmp, "not-a-tree"))
        for i in range(12):
            os.makedirs(os.path.join(tmp, "runs", f"20261204-1200{i:02}"))
        spare = {os.path.join(tmp, shas[3])}
        trees, runs, freed = ab.prune(2, 10, spare=spare, ab_dir=tmp)
        left = sorted(n for n in os.listdir(tmp))
        check(trees == 1 and runs == 2 and freed >= 1000 and
              left == sorted([shas[0], shas[1], shas[3], "not-a-tree", "runs"]) and
              sorted(os.listdir(os.path.join(tmp, "runs")))[0] == "20261204-120002",
              f"prune keeps the 2 most recently used trees and the run's own, the 10 newest runs: removed "
              f"{trees} tree, {runs} runs, {freed} bytes; left {[n[:6] for n in left]}")


def check_bisect():
    wrong, most = [], 0
    for n in range(1, 13):
        commits = [f"c{i}" for i in range(n)]
        for k in range(n):                     # commits[k] and after are slower
            first, dropped, steps = ab.bisect_commits(commits, lambda c: int(c[1:]) >= k)
            most = max(most, len(steps) - math.ceil(math.log2(n)) if n > 1 else len(steps))
            if first != commits[k] or dropped:
                wrong.append((n, k, first))
    check(not wrong and most <= 0, f"bisect finds the first slower of every list of 1-12 commits in at most "
          f"ceil(log2 n) steps: wrong {wrong[:3]}, steps over the bound {most}")
    commits = [f"c{i}" for i in range(10)]
    outcome = lambda c: None if c in ("c4", "c5") else int(c[1:]) >= 6  # noqa: E731
    first, dropped, steps = ab.bisect_commits(commits, outcome)
    check(first == "c6" and dropped == ["c4", "c5"] and all(c not in ("c4", "c5") or o is None for c, o in steps),
          f"two commits it cannot time, just before the first slower: {first}, skipped {dropped}")
    outcome = lambda c: None if c == "c2" else int(c[1:]) >= 6  # noqa: E731
    first, dropped, steps = ab.bisect_commits(commits, outcome)
    check(first == "c6" and dropped == [], f"a skipped commit far from the answer is not named: {first}, {dropped}")


FAKE_BENCH = """#!/usr/bin/python3
import json, random, sys
arg = {a.split("=", 1)[0]: a.split("=", 1)[1] for a in sys.argv[1:] if "=" in a}
name = "x/avx2/t/64/dense:100"
runs = [dict(name=name + "/manual_time", run_name=name, run_type="iteration", time_unit="ns",
             real_time=NS * random.uniform(0.99, 1.01)) for _ in range(int(arg["--benchmark_repetitions"]))]
with open(arg["--benchmark_out"], "w") as f:
    json.dump({"context": {"nnuelab_cpu_model": "Fixture CPU"}, "benchmarks": runs}, f)
"""


def check_place():
    name = "x/avx2/t/64/dense:100"

    def three(c_factor, n=14, seed=21, drift=(0.8, 1.3)):
        rng = random.Random(seed)
        g, c, b = [], [], []
        for _ in range(n):
            d = rng.uniform(*drift)                         # the turn's drift, common to all
            noise = lambda: rng.uniform(0.985, 1.015)      # noqa: E731
            g.append({name: 40.0 * d * noise()})
            c.append({name: 40.0 * c_factor * d * noise()})
            b.append({name: 40.0 * 1.06 * d * noise()})
        return g, c, b

    like_bad = ab.place(*three(1.06), [name])
    like_good = ab.place(*three(1.0), [name])
    half = ab.place(*three(1.03), [name])
    check(0.8 < like_bad["position"] < 1.2 and like_bad["p"] < 0.05 and
          -0.2 < like_good["position"] < 0.2 and like_good["p"] < 0.05 and
          0.3 < half["position"] < 0.7 and half["p"] > like_bad["p"],
          f"a candidate placed between GOOD and BAD (6% apart, 1.5% noise, 30% drift): as BAD "
          f"{like_bad['position']:.2f} (p {like_bad['p']:.4f}), as GOOD {like_good['position']:.2f}, "
          f"half way {half['position']:.2f} (p {half['p']:.3f})")
    g, c, b = three(1.0, drift=(0.97, 1.03))
    c[3][name] *= 1.8                                  # a slow spell in the candidate's run
    where = ab.place(g, c, b, [name])
    kept = ab.place(g, c, b, [name], keep_spells=True)
    check(where["spells"] == 1 and where["kept"] == 13 and where["position"] < 0.2 and kept["kept"] == 14,
          f"a slow spell in one of the candidate's turns left out: {where['spells']} out, position "
          f"{where['position']:.2f}")
    g, c, b = three(1.0)
    check(ab.place(g, c, [dict(t) for t in g], [name]) is None, "BAD no slower than GOOD in the step's turns: None")


def check_rotate():
    """bisect --rotate: every side in every slot, so a biased middle slot no longer moves
    the candidate's position."""
    orders = [ab.turn_order("GCB", t, rotate=True) for t in range(6)]
    every_slot = all(sorted(o[j] for o in orders) == sorted("GGCCBB") for j in range(3))
    check(orders == ["GCB", "BCG", "CBG", "GBC", "BGC", "CGB"] and every_slot and
          [ab.turn_order("AB", t, rotate=True) for t in range(4)] == ["AB", "BA", "AB", "BA"] and
          [ab.turn_order("GCB", t) for t in range(3)] == ["GCB", "BCG", "GCB"],
          f"turn orders: rotated {orders}, each side twice in each slot: {every_slot}; two sides and "
          f"the plain orders unchanged")
    name = "x/avx2/t/64/dense:100"

    def step(rotate, n=24, seed=9):
        # C as fast as GOOD, BAD 6% slower, the middle slot 2% slower by itself
        rng = random.Random(seed)
        out = {k: [] for k in "GCB"}
        for t in range(n):
            d = rng.uniform(0.8, 1.3)
            for slot, key in enumerate(ab.turn_order("GCB", t, rotate)):
                ns = 40.0 * d * (1.06 if key == "B" else 1.0) * (1.02 if slot == 1 else 1.0) * rng.uniform(0.995, 1.005)
                out[key].append({name: ns})
        return ab.place(out["G"], out["C"], out["B"], [name])["position"]

    plain, rotated = step(False), step(True)
    check(plain > 0.25 and abs(rotated) < 0.15,
          f"a middle slot 2% slower places a candidate as fast as GOOD (BAD 6% slower) at {plain:.2f} in the "
          f"plain orders and {rotated:.2f} rotated")


def check_whole_run():
    """ab.timed_comparison from the turns to the result file, on two stand-in benches
    (the build replaced by their paths; ROOT and AB_DIR moved into a scratch folder)."""
    with tempfile.TemporaryDirectory() as tmp:
        fake = {}
        for side, ns in (("A", 100.0), ("B", 110.0)):
            fake[side] = os.path.join(tmp, f"bench-{side}")
            with open(fake[side], "w") as f:
                f.write(FAKE_BENCH.replace("NS", repr(ns)))
            os.chmod(fake[side], 0o755)
        saved = ab.build, ab.AB_DIR, ab.ROOT
        ab.build = lambda sha, src, jobs: fake[os.path.basename(src)]
        ab.ROOT, ab.AB_DIR = tmp, os.path.join(tmp, "build", "ab")
        args = argparse.Namespace(turns=6, repetitions=2, per_turn="min", min_time=0.1, scrub=None, full=False,
                                  threshold=1.0, no_pin=True, keep_spells=False, adjust="bh", keep_trees=6,
                                  filter=".")
        try:
            rows, out = ab.timed_comparison(args, ("a", None, os.path.join(tmp, "A")),
                                            ("b", None, os.path.join(tmp, "B")))
        finally:
            ab.build, ab.AB_DIR, ab.ROOT = saved
        with open(out) as f:
            result = json.load(f)
        runs = os.path.join(tmp, "build", "ab", "runs")
        turn_files = sorted(os.listdir(os.path.join(runs, os.listdir(runs)[0])))
        check(os.path.dirname(out) == os.path.join(tmp, "results") and result["kind"] == "nnuelab-ab" and
              len(result["turns"]["A"]) == 6 and len(turn_files) == 12 and
              rows[0]["verdict"] == "B slower" and 1.07 < rows[0]["ratio"] < 1.13,
              f"a whole comparison of two stand-in benches (B 10% slower): result {os.path.relpath(out, tmp)}, "
              f"{len(turn_files)} turn files, {rows[0]['verdict']} at {rows[0]['ratio']:.3f}")


# A kernel for check_kernel_code, compiled three ways: as it is, moved by a function
# defined before it, and with one constant changed. w_run is an entry as most of the
# registry's are: a jump to a template's function, where the constant is.
KERNEL = """
PAD
namespace nnuelab::avx2::x {
[[gnu::noinline]] int t_run(const int* p, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i] * K;
  return s;
}
template <class T>
[[gnu::noinline]] int body(const T* p, int n) {
  T s = 0;
  for (int i = 0; i < n; ++i) s += p[i] * K + i;
  return int(s);
}
[[gnu::noinline]] int w_run(const int* p, int n) { return body(p, n); }
}  // namespace nnuelab::avx2::x
int main(int argc, char**) {
  int v[4] = {argc, 2, 3, 4};
  return (nnuelab::avx2::x::t_run(v, 4) + nnuelab::avx2::x::w_run(v, argc)) & 1;
}
"""


def check_kernel_code():
    """tools/kernel_code.py: the kernel a benchmark name times; a moved function with the
    same instructions compares equal, one with a changed constant does not (also where the
    constant is in the function an entry jumps to); a benchmark
    without a kernel, and one whose function is missing, are said so; ab's report prints
    the note under a called row and the result file keeps it."""
    import kernel_code
    want = {"affine/ssse3/dot1/1024x32/chunk:15": "nnuelab::ssse3::affine::dot1_run",
            "affine/avx2/sparse_blocked4_lut_x2_from_bits/1536x16/real-5af11540bbfe:29.2": "nnuelab::avx2::affine::sparse_blocked4_lut_x2_run_bits",
            "affine/avx2/sparse_blocked4_lut_acc1_from_list/1024x32/chunk:15": "nnuelab::avx2::affine::sparse_blocked4_lut_acc1_run_list",
            "crelu32/avx2/packs_shift_imm_lanes/32>>6+inlined/dense:100": "nnuelab::avx2::crelu32::packs_shift_imm_lanes_run_many",
            "ft_refresh/xsimd-avx2/tiled/1024x30/dense:100": "nnuelab::xsimd_avx2::ft_refresh::tiled_run",
            "floor/scalar/checked_call/32>>6/dense:100": None, "peak/avx2/maddubs_madd/chains8": None,
            "affine/scalar/reference/1024x32/dense:100": None, "affine/avx2/dot1/1024x32": None}
    got = {n: kernel_code.kernel_function(n) for n in want}
    check(got == want, f"the kernel functions of benchmark names: {got}")
    # Padding: a loop-head nop and a branch's padding prefix change nothing; the jump is
    # aimed at the same instruction (its number, not its offset); another target differs.
    padded = ("0000000000001000 <f(int)>:\n    1000:\tmov    %edi,%eax\n    1002:\tnopl   0x0(%rax)\n"
              "    1008:\tadd    $0x1,%eax\n    100b:\tcmp    $0x9,%eax\n    100e:\tjne    1008 <f(int)+0x8>\n"
              "    1010:\tret\n")
    tight = ("0000000000002040 <f(int)>:\n    2040:\tmov    %edi,%eax\n    2042:\tadd    $0x1,%eax\n"
             "    2045:\tcmp    $0x9,%eax\n    2048:\tcs jne 2042 <f(int)+0x2>\n    204b:\tret\n")
    other = tight.replace("2042 <f(int)+0x2>", "2040 <f(int)>")
    got = [kernel_code.instructions(t) for t in (padded, tight, other)]
    check(got[0] == got[1] == ["mov %edi,%eax", "add $0x1,%eax", "cmp $0x9,%eax", "jne <.1>", "ret"] and
          got[2] != got[1] and kernel_code.normalized(padded) != kernel_code.normalized(tight),
          f"padding left out, a jump within the function aimed by instruction number: {got}")
    with tempfile.TemporaryDirectory() as tmp:
        bins = {}
        for key, pad, k in (("a", "", "3"), ("moved", "int pad(int a) { volatile int x = a; return x * 3 + x / 7 + 1; }", "3"),
                            ("changed", "", "5")):
            src = os.path.join(tmp, key + ".cpp")
            with open(src, "w") as f:
                f.write(KERNEL.replace("PAD", pad).replace("K", k))
            bins[key] = os.path.join(tmp, key)
            subprocess.run(["g++", "-O2", "-o", bins[key], src], check=True)
        name = "x/avx2/t/64/dense:100"
        moved = kernel_code.compare_builds(bins["a"], bins["moved"], [name, "floor/scalar/empty_call/32"])
        changed = kernel_code.compare_builds(bins["a"], bins["changed"], [name])[name]
        lacking = kernel_code.compare_builds(bins["a"], bins["a"], ["x/avx2/u/64/dense:100"])
        m = moved[name]
        check(m["function"] == "nnuelab::avx2::x::t_run" and m["same"] and m["A"] != m["B"] and
              m["instructions"][0] == m["instructions"][1] > 3 and not changed["same"] and
              moved["floor/scalar/empty_call/32"] == {"function": None},
              f"the same kernel moved compares equal, a changed one does not: {m}, {changed}")
        # The entry alone is the same jump in both: its target's code is compared too.
        entry = "x/avx2/w/64/dense:100"
        w_moved = kernel_code.compare_builds(bins["a"], bins["moved"], [entry])[entry]
        w_changed = kernel_code.compare_builds(bins["a"], bins["changed"], [entry])[entry]
        w_unchanged = kernel_code.Binary(bins["a"]).codes(["nnuelab::avx2::x::w_run"])
        check(w_moved["same"] and not w_changed["same"] and w_moved["function"] == "nnuelab::avx2::x::w_run" and
              "body<int>" in w_moved.get("body", "") and
              any("body<int>" in line for line in w_unchanged["nnuelab::avx2::x::w_run"][2]),
              f"an entry that jumps to a template's function: that function's code compared, the same when "
              f"moved, changed with its constant: {w_moved}, {w_changed}")
        said = [kernel_code.describe(e) for e in (m, changed, lacking["x/avx2/u/64/dense:100"])]
        check("machine code the same in A and B" in said[0] and "placement" in said[0] and
              "machine code changed" in said[1] and "not found in either binary" in said[2],
              f"what the report says of each: {said}")
        # The report under a called row, and the result file read again with it.
        result = {"kind": "nnuelab-ab", "A": "a", "B": "b", "grid": "quick", "scrub": None, "repetitions": 1,
                  "min_time": 0.1, "pinned": False, "date": "today", "cpu": "test",
                  "turns": {"A": [{name: 100.0} for _ in range(8)], "B": [{name: 110.0 + i} for i in range(8)]},
                  "code": moved}
        ab.check_result(json.loads(json.dumps(result)), "r.json")
        import contextlib
        import io
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            ab.print_report(result, 1.0)
        check(f"  {name}: nnuelab::avx2::x::t_run: machine code the same in A and B, at " in text.getvalue(),
              f"the report notes the called row's kernel: {text.getvalue()[-300:]!r}")
        result["code"] = {name: {"function": "f", "A": -1, "B": 0, "same": True, "instructions": [1, 1]}}
        try:
            ab.check_result(result, "r.json")
            refused = ""
        except ab.AbError as e:
            refused = str(e)
        check("code of " + name + ": A is -1" in refused, f"a bad code entry refused: {refused!r}")


def check_whole_bisect():
    """ab.cmd_bisect from the first comparison to the summary file, in a scratch git
    repository of six commits (GOOD, four candidates touching kernels/, one touching only
    docs/) whose stand-in benches are 10% slower from the third candidate on."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = os.path.join(tmp, "repo")
        os.makedirs(os.path.join(repo, "kernels"))
        git = lambda *a: subprocess.run(["git", "-C", repo, *a], capture_output=True, text=True,  # noqa: E731
                                        check=True).stdout.strip()
        git("init", "-q")
        shas = []
        for i, path in enumerate(["kernels/k", "kernels/k", "docs", "kernels/k", "kernels/k", "kernels/k"]):
            os.makedirs(os.path.dirname(os.path.join(repo, path)) or repo, exist_ok=True)
            with open(os.path.join(repo, path), "w") as f:
                f.write(str(i))
            git("add", "-A")
            git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", f"c{i}")
            shas.append(git("rev-parse", "HEAD"))
        slow_from = shas[4]            # candidates: shas[1], [3], [4], [5]; the answer shas[4]
        benches = {}
        for i, sha in enumerate(shas):
            benches[sha] = os.path.join(tmp, f"bench-{i}")
            with open(benches[sha], "w") as f:
                f.write(FAKE_BENCH.replace("NS", "110.0" if i >= shas.index(slow_from) else "100.0"))
            os.chmod(benches[sha], 0o755)

        def fake_build(sha, src, jobs):
            os.makedirs(src, exist_ok=True)
            return benches[sha]

        saved = ab.build, ab.AB_DIR, ab.ROOT
        ab.build, ab.ROOT, ab.AB_DIR = fake_build, repo, os.path.join(repo, "build", "ab")
        args = argparse.Namespace(good=shas[0], bad=shas[5], turns=6, repetitions=2, per_turn="min", min_time=0.1,
                                  scrub=None, full=False, threshold=1.0, no_pin=True, keep_spells=False,
                                  adjust="bh", keep_trees=6, filter=".", paths=["kernels"], no_confirm=False,
                                  rotate=False)
        try:
            code = ab.cmd_bisect(args)
        finally:
            ab.build, ab.AB_DIR, ab.ROOT = saved
        files = [f for f in os.listdir(os.path.join(repo, "results")) if "-ab-bisect-" in f]
        with open(os.path.join(repo, "results", files[0])) as f:
            summary = json.load(f)
        # (read by this checkout's ab.py, whose repository lacks the scratch commits: named by sha)
        again = subprocess.run([sys.executable, TOOL, "report", os.path.join(repo, "results", files[0])],
                               capture_output=True, text=True)
        check(again.returncode == 0 and f"first slower: {slow_from[:10]}" in again.stdout and
              "confirmed against its predecessor" in again.stdout,
              f"report prints a bisect's summary file again: exit {again.returncode}, "
              f"{[l for l in again.stdout.splitlines() if l.startswith('first slower')]}")
        steps = [st for st in summary["steps"][1:] if st["outcome"] != "skipped"]
        kept = all(isinstance(st["turns"], dict) and len(st["turns"]["C"]) >= 6 for st in steps)
        placed = {st["commit"]: (round(st["position"], 2), [round(x, 2) for x in st["interval"]]) for st in steps}
        check(code == 0 and summary["first_slower"] == slow_from and shas[2] not in placed and
              summary["confirm"]["slower"] and kept and
              all((p > 0.8) == (c in shas[4:]) and (p > 0.8 or p < 0.2) for c, (p, _) in placed.items()),
              f"a whole bisect over stand-in benches (4 candidates touching kernels/, the third on 10% "
              f"slower): answer {'the right one' if summary['first_slower'] == slow_from else summary['first_slower']}, "
              f"confirmed {summary['confirm']['slower']}, every step's turns kept {kept}, positions "
              f"{list(placed.values())}")


def check_slots():
    """slots: the turn's own bias from one binary timed in all three slots."""
    check(ab.median_interval(list(range(1, 31))) == (10, 21) and ab.median_interval([1, 2, 3, 4, 5]) is None,
          f"the median's 95% interval of 1..30 is the 10th to 21st: {ab.median_interval(list(range(1, 31)))}")
    name = "x/avx2/t/64/dense:100"

    def slots(mid_factor, slope, n=20, seed=5):
        # each turn's drift common to the three runs, a drift of `slope` per slot within the
        # turn (the turn's first run fastest), 1% noise, the middle slot mid_factor slower
        rng = random.Random(seed)
        out = {k: [] for k in "XYZ"}
        for t in range(n):
            d = rng.uniform(0.8, 1.3)
            order = "XYZ" if t % 2 == 0 else "ZYX"
            for slot, key in enumerate(order):
                ns = 50.0 * d * (1 + slope * slot) * (mid_factor if slot == 1 else 1.0) * rng.uniform(0.99, 1.01)
                out[key].append({name: ns})
        return out

    rows, pooled = ab.slot_effects(slots(1.0, 0.02))
    r = rows[0]
    lo, hi = r["middle_interval"]
    check(lo < 1.0 < hi and r["middle_p"] > 0.05 and 0.95 < r["first"] < 0.97 and r["first_p"] < 0.05,
          f"no middle bias under a 2% drift per slot: middle {r['middle']:.3f} [{lo:.3f}-{hi:.3f}], p "
          f"{r['middle_p']:.3f}; the drift shows as first over last {r['first']:.3f} (p {r['first_p']:.4f})")
    r = ab.slot_effects(slots(1.03, 0.0))[0][0]
    check(r["middle_interval"][0] > 1.0 and r["middle_p"] < 0.05 and 1.02 < r["middle"] < 1.04,
          f"a middle slot 3% slower: middle {r['middle']:.3f}, p {r['middle_p']:.4f}")
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "bench")
        with open(fake, "w") as f:     # the stand-in counts its runs; every middle one is 5% slower
            f.write(FAKE_BENCH.replace("NS *", "NS * (1.05 if COUNT % 3 == 1 else 1.0) *").replace(
                "import json, random, sys\n", "import json, os, random, sys\n"
                f"c = {os.path.join(tmp, 'count')!r}\nCOUNT = int(open(c).read()) if os.path.exists(c) else 0\n"
                "open(c, 'w').write(str(COUNT + 1))\n").replace("NS", "50.0"))
        os.chmod(fake, 0o755)
        saved = ab.build, ab.AB_DIR, ab.ROOT, ab.resolve
        ab.build = lambda sha, src, jobs: fake
        ab.resolve = lambda rev: ("stand-in", None, os.path.join(tmp, "X"))
        ab.ROOT, ab.AB_DIR = tmp, os.path.join(tmp, "build", "ab")
        os.makedirs(os.path.join(tmp, "results"))
        args = argparse.Namespace(rev=".", turns=8, repetitions=2, per_turn="min", min_time=0.1, scrub=None,
                                  full=False, threshold=1.0, no_pin=True, keep_spells=False, adjust="bh",
                                  keep_trees=6, filter=".", out=None)
        try:
            ab.cmd_slots(args)
        finally:
            ab.build, ab.AB_DIR, ab.ROOT, ab.resolve = saved
        out = [f for f in os.listdir(os.path.join(tmp, "results")) if "-ab-slots-" in f]
        p = subprocess.run([sys.executable, TOOL, "report", os.path.join(tmp, "results", out[0])],
                           capture_output=True, text=True) if out else None
        line = [x for x in (p.stdout if p else "").splitlines() if x.startswith(name)]
        check(p is not None and p.returncode == 0 and line and 1.04 < float(line[0].split()[1]) < 1.06,
              f"a whole slots run on a stand-in bench whose middle runs are 5% slower, read again by report: "
              f"{line[0] if line else (p.stderr.strip()[-200:] if p else 'no result file')}")


def main():
    r = verdict(*turns(10, 100.0, 1.10, 0.03, 1))
    check(r["verdict"] == "B slower" and 1.05 < r["ratio"] < 1.15 and r["p"] < 0.05,
          f"B 10% slower in every turn under drift: {r['verdict']}, B/A {r['ratio']:.3f}, p {r['p']:.4f}")
    r = verdict(*turns(10, 100.0, 0.90, 0.03, 2))
    check(r["verdict"] == "B faster" and 0.85 < r["ratio"] < 0.95,
          f"B 10% faster: {r['verdict']}, B/A {r['ratio']:.3f}")
    a, _ = turns(8, 100.0, 1.0, 0.03, 3)
    r = verdict(a, [dict(t) for t in a])
    check(r["verdict"] == "same" and r["ratio"] == 1.0 and r["p"] == 1.0, f"equal turns: {r['verdict']}, p {r['p']}")
    a, _ = turns(10, 100.0, 1.0, 0.0, 4)
    r = verdict(a, [{k: v * 1.005 for k, v in t.items()} for t in a])
    check(r["verdict"] == "same" and r["p"] < 0.05,
          f"0.5% in every turn, under the 1% threshold: {r['verdict']} (p {r['p']:.4f})")
    r = verdict(a, [{k: v * 1.005 for k, v in t.items()} for t in a], threshold=0.2)
    check(r["verdict"] == "B slower", f"the same 0.5% over a 0.2% threshold: {r['verdict']}")
    a, b = turns(5, 100.0, 2.0, 0.0, 5)
    r = verdict(a, b)
    check(r["verdict"] == ab.TOO_FEW and r["p"] >= 0.05 and r["b_longer"] == 5,
          f"a doubling in {ab.MIN_TURNS_FOR_TEST - 1} turns cannot be called, nor read as the same: "
          f"{r['verdict']}, p {r['p']:.4f}")
    a, _ = turns(10, 100.0, 1.0, 0.0, 6)
    b = [{k: v * (1.2 if i % 2 else 0.8) for k, v in t.items()} for i, t in enumerate(a)]
    r = verdict(a, b)
    check(r["verdict"] == "same" and r["b_longer"] == 5,
          f"turns that disagree: {r['verdict']}, B longer in {r['b_longer']}/10")
    # Slow spells: a run the machine slowed whole (1.8x, 1.7x) in two of A's turns and one
    # of B's, beside a 5% slowdown of B with 1% noise and a drift of 4% over the turns.
    # Left out, B is slower in the 9 turns kept; kept (--keep-spells), the spells' ranks
    # outweigh the 5% (what the Xeon VM did to a 7% step on 2026-12-04: 9/12, p 0.30).
    a, b = turns(12, 40.0, 1.05, 0.01, 9, drift=(0.98, 1.02))
    key = "x/avx2/t/64/dense:100"
    a[1][key] *= 1.8
    a[8][key] *= 1.8
    b[4][key] *= 1.7
    r = verdict(a, b)
    check(r["verdict"] == "B slower" and r["spells"] == 3 and r["turns"] == 9 and r["b_longer"] == 9,
          f"slow spells left out: {r['spells']} turns out, {r['verdict']} in {r['b_longer']}/{r['turns']}")
    rows, _ = ab.compare(a, b, 1.0, keep_spells=True)
    check(rows[0]["spells"] == 0 and rows[0]["turns"] == 12 and rows[0]["p"] > r["p"],
          f"--keep-spells compares every turn: {rows[0]['turns']} turns, p {rows[0]['p']:.4f} against {r['p']:.4f}")
    a = [{"x/avx2/t/64/dense:100": 10.0, "y/avx2/old/64/dense:100": 5.0} for _ in range(6)]
    b = [{"x/avx2/t/64/dense:100": 10.0, "z/avx2/new/64/dense:100": 5.0} for _ in range(6)]
    rows, only = ab.compare(a, b, 1.0)
    check([r["name"] for r in rows] == ["x/avx2/t/64/dense:100"] and
          only == ["y/avx2/old/64/dense:100", "z/avx2/new/64/dense:100"],
          f"a benchmark one side lacks is listed, not compared: {only}")

    check_adjust()
    check_prune()
    check_bisect()
    check_place()
    check_whole_run()
    check_kernel_code()
    check_whole_bisect()
    check_slots()
    check_rotate()

    with tempfile.TemporaryDirectory() as tmp:
        name = "affine/avx2/sparse_blocked4_lut_acc1/1024x32/chunk:15"
        bench = {"context": {"nnuelab_cpu_model": "Fixture CPU", "date": "2026-12-04T00:00:00"},
                 "benchmarks": [dict(name=f"{name}/min_time:0.100/manual_time", run_name=name,
                                     run_type="iteration", real_time=t, time_unit="ns") for t in (90.0, 70.0, 100.0)]}
        path = os.path.join(tmp, "turn.json")
        with open(path, "w") as f:
            json.dump(bench, f)
        got = ab.turn_times(path, "median")
        check(got == {name: 90.0}, f"a bench run's repetitions read as their median under the plain name: {got}")
        got = ab.turn_times(path)
        check(got == {name: 70.0}, f"... or as their fastest (--per-turn min, the default): {got}")

        a, b = turns(8, 50.0, 1.2, 0.02, 7)
        result = {"kind": "nnuelab-ab", "cpu": "Fixture CPU", "date": "2026-12-04T00:00:00", "A": "a (1)", "B": "b (2)",
                  "filter": ".", "repetitions": 3, "min_time": 0.1, "scrub": None, "grid": "quick", "pinned": True,
                  "turns": {"A": a, "B": b}}
        res = os.path.join(tmp, "ab.json")
        with open(res, "w") as f:
            json.dump(result, f)
        p = subprocess.run([sys.executable, TOOL, "report", res], capture_output=True, text=True)
        check(p.returncode == 0 and "B slower" in p.stdout and "8 turns" in p.stdout,
              f"report reads a result again (exit {p.returncode}): {p.stdout.splitlines()[-1:] or p.stderr}")
        p = subprocess.run([sys.executable, TOOL, "report", res, "--fail-on-slower"], capture_output=True, text=True)
        check(p.returncode == 1 and "B slower: x/avx2/t/64/dense:100" in p.stderr,
              f"--fail-on-slower exits 1 on a slower B: exit {p.returncode}")
        a, _ = turns(8, 50.0, 1.0, 0.02, 8)
        result["turns"] = {"A": a, "B": [dict(t) for t in a]}
        same = os.path.join(tmp, "ab-same.json")
        with open(same, "w") as f:
            json.dump(result, f)
        p = subprocess.run([sys.executable, TOOL, "report", same, "--fail-on-slower"], capture_output=True, text=True)
        check(p.returncode == 0 and " same" in p.stdout,
              f"--fail-on-slower exits 0 when nothing is slower: exit {p.returncode}")
        p = subprocess.run([sys.executable, TOOL, "report", res, "--adjust", "holm"], capture_output=True, text=True)
        check(p.returncode == 0 and "B slower" in p.stdout and "p adj" not in p.stdout,
              f"one benchmark: nothing to adjust, no 'p adj' column (exit {p.returncode})")
        many = dict(result, turns={"A": moved_turns(44, 20, 10, 1.10)[0], "B": moved_turns(44, 20, 10, 1.10)[1]})
        res44 = os.path.join(tmp, "ab-44.json")
        with open(res44, "w") as f:
            json.dump(many, f)
        p = subprocess.run([sys.executable, TOOL, "report", res44, "--adjust", "holm"], capture_output=True, text=True)
        check(p.returncode == 0 and "p adj" in p.stdout and "0 of 44 called" in p.stdout and
              "takes 11 turns" in p.stdout,
              f"report --adjust holm on 44 rows of 10 turns: {p.stdout.splitlines()[-2:]}")
        # Files report must refuse naming the field, not read into a traceback: one change
        # each to the run result above, and two other kinds cut short.
        a8 = result["turns"]["A"]
        malformed = [("a run without its repetitions", {k: v for k, v in result.items() if k != "repetitions"},
                      "repetitions is missing"),
                     ("a run with a text time", dict(result, turns={"A": a8, "B": a8[:-1] + [{"x": "a"}]}),
                      'turn 8 of B: x took "a", not a time > 0'),
                     ("a run with a NaN time", dict(result, turns={"A": a8, "B": a8[:-1] + [{"x": math.nan}]}),
                      "turn 8 of B: x took NaN, not a time > 0"),
                     ("a run with a negative time", dict(result, turns={"A": a8, "B": a8[:-1] + [{"x": -1}]}),
                      "turn 8 of B: x took -1, not a time > 0"),
                     ("a run whose sides have other turn counts", dict(result, turns={"A": a8, "B": a8[:-1]}),
                      "the sides' turns are A: 8, B: 7, not the same number >= 1"),
                     ("a run with one side", dict(result, turns={"A": a8}), "turns holds ['A'], not the sides A, B"),
                     ("a run whose turn is a list", dict(result, turns={"A": a8, "B": [[1]] * 8}),
                      "turn 1 of B is not a table"),
                     ("a run with no turns", dict(result, turns={"A": [], "B": []}),
                      "the sides' turns are A: 0, B: 0"),
                     ("a run with a text pin", dict(result, pinned="yes"), 'pinned is "yes", not true or false'),
                     ("slots cut short", {"kind": "nnuelab-ab-slots", "turns": {"X": [1]}}, "side is missing"),
                     ("a bisect summary cut short", {"kind": "nnuelab-ab-bisect"}, "good is missing"),
                     ("a bisect step without its commit",
                      {"kind": "nnuelab-ab-bisect", "good": "g", "bad": "b", "followed": ["x"], "candidates": 2,
                       "first_slower": "b", "dropped": [], "steps": [{"commit": "b", "outcome": "slower"},
                                                                     {"outcome": "slower", "position": 0.9}]},
                      "steps[1].commit is missing")]
        for i, (what, content, reason) in enumerate(malformed):
            bad_file = os.path.join(tmp, f"malformed-{i}.json")
            with open(bad_file, "w") as f:
                json.dump(content, f)
            p = subprocess.run([sys.executable, TOOL, "report", bad_file], capture_output=True, text=True)
            check(p.returncode == 2 and p.stderr.startswith("ab: ") and "Traceback" not in p.stderr and
                  f"not a well-formed ab result: {reason}" in p.stderr,
                  f"report refuses {what}: exit {p.returncode}, {p.stderr.strip()[-160:]}")
        for what, argv in [("a file that is not an ab result", ["report", path]),
                           ("a missing file", ["report", os.path.join(tmp, "none.json")]),
                           ("--turns 0", ["run", "HEAD", "HEAD", "--filter", ".", "--turns", "0"]),
                           ("a bad --filter", ["run", "HEAD", "HEAD", "--filter", "("]),
                           ("a negative --threshold", ["report", res, "--threshold", "-1"]),
                           ("a NaN --threshold", ["report", res, "--threshold", "nan"]),
                           ("a NaN --min-time", ["run", "HEAD", "HEAD", "--filter", ".", "--min-time", "nan"]),
                           ("a negative --keep-trees", ["run", "HEAD", "HEAD", "--filter", ".", "--keep-trees", "-1"]),
                           ("prune --keep -1", ["prune", "--keep", "-1"]),
                           ("bisect of the working tree", ["bisect", "HEAD", ".", "--filter", "."]),
                           ("slots with --turns 0", ["slots", "--filter", ".", "--turns", "0"])]:
            p = subprocess.run([sys.executable, TOOL, *argv], capture_output=True, text=True)
            check(p.returncode == 2 and p.stderr.startswith("ab: ") and "Traceback" not in p.stderr,
                  f"{what}: exit {p.returncode}, {p.stderr.strip()[:100]}")

    if subprocess.run(["git", "-C", SRC, "rev-parse", "HEAD"], capture_output=True).returncode == 0:
        p = subprocess.run([sys.executable, TOOL, "run", "no-such-revision", "HEAD", "--filter", "."],
                           capture_output=True, text=True)
        check(p.returncode == 2 and "'no-such-revision' is not a revision" in p.stderr,
              f"an unknown revision: exit {p.returncode}, {p.stderr.strip()[:100]}")
        if subprocess.run(["git", "-C", SRC, "rev-parse", "HEAD~1"], capture_output=True).returncode == 0:
            p = subprocess.run([sys.executable, TOOL, "bisect", "HEAD", "HEAD~1", "--filter", "."],
                               capture_output=True, text=True)
            check(p.returncode == 2 and "is not an ancestor" in p.stderr,
                  f"bisect backwards (HEAD..HEAD~1): exit {p.returncode}, {p.stderr.strip()[:100]}")
    else:
        print(f"skip  an unknown revision: {SRC} is not a git checkout (the other checks ran)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
