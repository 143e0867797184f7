#!/usr/bin/python3
"""CTest check of plots/targets.py (./lab targets): the verdicts on a result written here.

    check_targets.py SOURCE_DIR

The fixture holds one benchmark per case, with times and pct_peak counters chosen on both
sides of each target (and at its edges: 10% of the call, the 10% tolerance, exactly 2x),
densities of issue 3's 10-25% range judged row by row (and one outside it ignored), a
faster `_from_bits` form that must not count for the scanning verdict, a faster emulated
result and a skipped one that must be ignored, and cases left out (not measured). Each
row's verdict is checked against the one this file expects from those numbers;
--fail-on-miss must exit 1, a missing or corrupt file 2 with a message. The fixed and
per-chunk cost table fits each form's line through its own densities; the instruction
budget reads an instruction file of the gate's form. Results of ISAs
above AVX2 (--every-isa) move no verdict and fill the per-ISA table: the best scanning
native form per ISA, dense forms only at dense 64x32, the fastest ISA against AVX2. The
header names the core from the CPUID signature and says whether it is the issues' Zen 3;
files of two CPUs are refused. The noise probe's fast passes are compared with the
previous targets run's of the same core beside the file (older, readable, same signature).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from checks import check, failures


def bench(name, ns, reps=3, label="", times=None, **counters):
    # Repetitions around the median ns (the median is ns exactly), or the given times.
    return [dict(name=name + "/min_time:0.010/manual_time", run_name=name, run_type="iteration", real_time=t,
                 time_unit="ns", label=label, **counters) for t in times or (ns * 0.98, ns, ns * 1.05)[:reps]]


def fixture():
    b = []
    b += bench("peak/avx2/maddubs_madd/chains8/dense:100", 50000.0, macs_per_ns=90.0)
    # Issue 3: 1024x32 at 90% exactly (met), 1536x16 at 79.9% (missed) though its
    # from_bits form reaches 99%; an emulated result at 99% must not count either.
    b += bench("affine/avx2/sparse_blocked4_lut_acc1/1024x32/chunk:15", 100.0, pct_peak=90.0)
    b += bench("affine/avx2/sparse_blocked4_lut_acc2/1024x32/chunk:15", 120.0, pct_peak=75.0)
    # The other densities of the 10-25% range are rows of their own: 1024x32 at 10% just
    # under 90% (missed; its 50 ns must not become the nnz row's divisor), at 20% met;
    # 25% is not measured though 30% (outside the range) is at 99%; 3072x16 at 25% exactly
    # at 80% (met).
    b += bench("affine/avx2/sparse_blocked4_lut_acc1/1024x32/chunk:10", 50.0, pct_peak=89.9)
    b += bench("affine/avx2/sparse_blocked4_lut_x2/1024x32/chunk:20", 130.0, pct_peak=95.0)
    b += bench("affine/avx2/sparse_blocked4_lut_acc1/1024x32/chunk:30", 140.0, pct_peak=99.0)
    b += bench("affine/avx2/sparse_blocked4_lut_x2/3072x16/chunk:25", 500.0, pct_peak=80.0)
    b += bench("affine/avx2/sparse_blocked4_lut_acc1/1536x16/chunk:15", 200.0, pct_peak=79.9)
    b += bench("affine/avx2/sparse_blocked4_lut_acc1_from_bits/1536x16/chunk:15", 150.0, pct_peak=99.0)
    b += bench("affine/avx2/sparse_blocked4_lut_acc1_from_bits/1024x32/chunk:15", 60.0, pct_peak=99.0)
    # The walks given the list (the dots alone) are faster still: shown, never the verdict's.
    b += bench("affine/avx2/sparse_blocked4_lut_acc1_from_list/1536x16/chunk:15", 120.0, pct_peak=99.5)
    b += bench("affine/avx2/sparse_blocked4_lut_x2_from_list/1024x32/chunk:15", 40.0, pct_peak=99.9)
    b += bench("affine/avx2/sparse_blocked4_lut_acc3/1536x16/chunk:15", 10.0, label="emulated", pct_peak=99.0)
    # A benchmark skipped for this CPU (no times): neither a winner nor a crash.
    b.append(dict(name="affine/avx2/sparse_blocked4_lut_x4/1024x32/chunk:15/min_time:0.010/manual_time",
                  run_name="affine/avx2/sparse_blocked4_lut_x4/1024x32/chunk:15", run_type="iteration",
                  error_occurred=True, error_message="unavailable: needs avx2"))
    b += bench("affine/avx2/dense_blocked4/64x32/dense:100", 25.0, pct_peak=96.0)
    b += bench("affine/avx2/sparse_blocked4_lut_x2/1536x16/real-5af11540bbfe:29.2", 300.0, pct_peak=64.9)
    # 1536x16 at 10/20/25%, 3072x16 at 10/15/20%, real 3072x16 and real 1536x32 / 3072x32
    # are left out: not measured.
    # The nnz list at exactly 10% of the 1024x32 winner's 100 ns: met.
    b += bench("find_nnz/avx2/lut8_zero/1024c/chunk:15", 10.0)
    b += bench("find_nnz/avx2/lut8_popcnt/1024c/chunk:15", 12.0)
    # Issue 4: crelu32 at 1.1 ns (the 10% tolerance's edge: met), pool_product2 at 33.1
    # (missed), its _bits form at 30 (met against ~38).
    b += bench("crelu32/avx2/packs_shift_imm_lanes/32>>6+inlined/dense:100", 1.1)
    b += bench("crelu32/scalar/reference/32>>6/dense:100", 13.0)
    b += bench("pool_product2/avx2/mullo_srli_packus_permute/2048/dense:100", 33.1)
    b += bench("pool_product2/avx2/mullo_srli_packus_permute_bits/2048/dense:100", 30.0)
    # ft_refresh: cold rows naive / best tiled = 2.00x (met); L2-hot 1.5x (missed), and
    # `grouped` (not register-tiled) faster there must not count.
    b += bench("ft_refresh/avx2/naive/1024x30/dense:100", 2000.0)
    b += bench("ft_refresh/avx2/tiled/1024x30/dense:100", 1100.0)
    b += bench("ft_refresh/avx2/tiled_prefetch/1024x30/dense:100", 1000.0)
    b += bench("ft_refresh/avx2/naive/1024x30/l2hot:100", 1500.0)
    b += bench("ft_refresh/avx2/tiled/1024x30/l2hot:100", 1000.0)
    b += bench("ft_refresh/avx2/grouped/1024x30/l2hot:100", 500.0)
    # The rows read alone: shown beside the L2-hot row in both orders (naive 2.00x the
    # faster, the sliced one), never a tiled form (counted as one, the L2-hot verdict would
    # turn to met); none at cold rows.
    b += bench("floor/avx2/ft_rows_read/1024x30/l2hot:100", 800.0)
    b += bench("floor/avx2/ft_rows_read_sliced/1024x30/l2hot:100", 750.0)
    return {"context": {"nnuelab_cpu_model": "Fixture CPU", "nnuelab_compiler": "GNU 0", "date": "2026-11-27T00:00:00",
                        "nnuelab_pct_peak_basis": "avxvnni 190 MAC/ns (3 windows, 180-200); avx2 88.5 MAC/ns (12 windows, 80.1-91.2)"},
            "benchmarks": b}


def wide_isas():
    """Results of ISAs above AVX2 (./lab targets --every-isa) for the third table: none of
    them may move an AVX2 verdict."""
    b = []
    b += bench("peak/avx512vnni/dpbusd/chains12/dense:100", 50000.0, macs_per_ns=360.0)
    # 1024x32 at 15%: avx512vnni's best scanning form at 50 ns, 2.00x AVX2's 100 ns winner;
    # its faster _from_bits form and a faster emulated avx512bw result must not count.
    b += bench("affine/avx512vnni/sparse_blocked4_compress_acc3/1024x32/chunk:15", 50.0, pct_peak=20.0)
    b += bench("affine/avx512vnni/sparse_blocked4_lut_acc1/1024x32/chunk:15", 60.0, pct_peak=17.0)
    b += bench("affine/avx512vnni/sparse_blocked4_lut_acc1_from_bits/1024x32/chunk:15", 40.0, pct_peak=25.0)
    b += bench("affine/avx512bw/sparse_blocked4_lut_acc1/1024x32/chunk:15", 5.0, label="emulated", pct_peak=99.0)
    # Dense 64x32: only dense forms; avx512bw's sparse form at dense inputs is faster but
    # not one; avx512bw's dense form (30 ns) loses to AVX2's 25 ns, so AVX2 is the fastest.
    b += bench("affine/avx512bw/dense_blocked4_x4/64x32/dense:100", 30.0, pct_peak=60.0)
    b += bench("affine/avx512bw/sparse_blocked4_lut_acc1/64x32/dense:100", 20.0, pct_peak=90.0)
    # --every-isa=all: 1536x16 at 25% on avx512bw too, so that density has its row; the
    # densities no ISA above AVX2 was timed at have none.
    b += bench("affine/avx512bw/sparse_blocked4_lut_x2/1536x16/chunk:25", 80.0, pct_peak=40.0)
    return b


def costs():
    """Where the synthetic calls' time goes: 1536x16's winner at 15% (lut_acc1) timed at
    every density with times exactly 40 + 2 x its non-zero chunks, so the line must give
    40 ns fixed and 2.00 ns per chunk, half the peak's rate (64 MAC/ns: 1.00 ns for a
    chunk's 64 MACs). Other forms must not enter its line: lut_x2 (faster at 10%, slower
    at 15%) and a faster _from_bits form at 10 and 15% (not the winner, no line). 1024x32 is timed at one
    density only: no line, no row."""
    b = bench("peak/avx2/maddubs_madd/chains8/dense:100", 50000.0, macs_per_ns=64.0)
    for pct, chunks in ((10, 38.4), (15, 57.6), (20, 76.8), (25, 96.0)):
        b += bench(f"affine/avx2/sparse_blocked4_lut_acc1/1536x16/chunk:{pct}", 40.0 + 2.0 * chunks,
                   pct_peak=50.0, nnz_chunks=chunks)
    b += bench("affine/avx2/sparse_blocked4_lut_x2/1536x16/chunk:10", 20.0, pct_peak=90.0, nnz_chunks=38.4)
    b += bench("affine/avx2/sparse_blocked4_lut_x2/1536x16/chunk:15", 300.0, pct_peak=30.0, nnz_chunks=57.6)
    b += bench("affine/avx2/sparse_blocked4_lut_acc1_from_bits/1536x16/chunk:15", 50.0, pct_peak=99.0, nnz_chunks=57.6)
    b += bench("affine/avx2/sparse_blocked4_lut_acc1_from_bits/1536x16/chunk:10", 30.0, pct_peak=99.0, nnz_chunks=38.4)
    b += bench("affine/avx2/sparse_blocked4_lut_acc1/1024x32/chunk:15", 100.0, pct_peak=50.0, nnz_chunks=38.4)
    # lut_acc2: medians that scatter (a slow spell in two of three repetitions at each
    # density) while each density's fastest repetition is exactly 30 + 1.5 x its chunks:
    # the row must add that line. Its 15% median (250) keeps lut_acc1 the winner.
    for pct, chunks, median in ((10, 38.4, 200.0), (15, 57.6, 250.0), (20, 76.8, 180.0), (25, 96.0, 260.0)):
        b += bench(f"affine/avx2/sparse_blocked4_lut_acc2/1536x16/chunk:{pct}", median,
                   times=(30.0 + 1.5 * chunks, median, median * 1.05), pct_peak=40.0, nnz_chunks=chunks)
    return {"context": {"nnuelab_cpu_model": "Fixture CPU", "nnuelab_compiler": "GNU 0", "date": "2026-11-29T00:00:00"},
            "benchmarks": b}


EXPECTED = {
    "sparse 1024x32, chunk 10%": "missed",
    "sparse 1024x32, chunk 15%": "met",
    "sparse 1024x32, chunk 20%": "met",
    "sparse 1024x32, chunk 25%": "not measured",
    "sparse 1536x16, chunk 10%": "not measured",
    "sparse 1536x16, chunk 15%": "missed",
    "sparse 1536x16, chunk 20%": "not measured",
    "sparse 1536x16, chunk 25%": "not measured",
    "sparse 3072x16, chunk 10%": "not measured",
    "sparse 3072x16, chunk 15%": "not measured",
    "sparse 3072x16, chunk 20%": "not measured",
    "sparse 3072x16, chunk 25%": "met",
    "dense 64x32": "met",
    "real 1536x16": "missed",
    "real 3072x16": "not measured",
    "real 1536x32": "not measured",
    "real 3072x32": "not measured",
    "nnz list of 1024 inputs, chunk 15%": "met",
    "crelu32 of 32 (shift 6), inlined": "met",
    "pool_product2 2x1024": "missed",
    "pool_product2 2x1024, fused nnz bitset": "met",
    "ft_refresh 1024x30, cold rows": "met",
    "ft_refresh 1024x30, L2-hot rows": "missed",
}


def main():
    src = sys.argv[1]
    script = os.path.join(src, "plots", "targets.py")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "fixture.json")
        with open(path, "w") as f:
            json.dump(fixture(), f)
        p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
        check(p.returncode == 0, f"exit 0 without --fail-on-miss (got {p.returncode}: {p.stderr.strip()})")
        rows = {}
        for line in p.stdout.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 4 and cells[0] in EXPECTED:
                rows[cells[0]] = cells
        for case, verdict in EXPECTED.items():
            got = rows.get(case, ["?"])[-1]
            check(got == verdict, f"{case}: {verdict} (got {got})")
        check("sparse_blocked4_lut_acc1_from_bits" in rows.get("sparse 1536x16, chunk 15%", [""] * 3)[2],
              "the from_bits form is shown beside the scanning winner")
        check("`tiled_prefetch`" in rows.get("ft_refresh 1024x30, cold rows", [""] * 2)[1],
              "ft_refresh compares the best register-tiled form")
        check("rows read alone 800.0 ns front to back, 750.0 ns slice by slice (naive 2.00x the faster)"
              in rows.get("ft_refresh 1024x30, L2-hot rows", [""] * 2)[1],
              "the rows-read floor and naive's time over it beside the L2-hot verdict")
        check("**2.00x**; fastest repetitions 1,960.0 ns and 980.0 ns: 2.00x" in rows.get("ft_refresh 1024x30, cold rows", [""] * 2)[1],
              "the same two forms' fastest repetitions and their ratio beside the median ratio")
        check("rows read alone" not in rows.get("ft_refresh 1024x30, cold rows", [""] * 2)[1],
              "no floor cell where no floor was measured")
        check("`sparse_blocked4_lut_acc1`'s 100.0 ns" in rows.get("nnz list of 1024 inputs, chunk 15%", [""] * 2)[1],
              "the nnz share is of the 1024x32 winner at 15%")
        check(rows.get("sparse 1536x16, chunk 15%", [""] * 4)[3].startswith("`sparse_blocked4_lut_acc1_from_list` 120.0 ns"),
              "the walk given the list in its own column")
        check(rows.get("nnz list of 1024 inputs, chunk 15%", [""] * 4)[3] == "25% of `sparse_blocked4_lut_x2_from_list`'s 40.0 ns",
              "beside the nnz verdict, the list over the walk alone")
        # Beside it, the bitset fused into the producer (pool_product2's _bits form against
        # its plain twin, here 3.1 ns faster: no share) over the best form given a bitset.
        check(rows.get("nnz list of 1024 inputs, chunk 15%", [""] * 3)[2] ==
              "the bitset fused into `pool_product2/mullo_srli_packus_permute_bits`: -3.10 ns on "
              "`mullo_srli_packus_permute` (30.0 against 33.1 ns), none of `sparse_blocked4_lut_acc1_from_bits`'s 60.0 ns",
              "beside the nnz verdict, the fused bitset's cost over the best form given it")
        check("8 met, 5 missed, 10 not measured." in p.stdout, "the count line")
        check("**1.10 ns**" in rows.get("crelu32 of 32 (shift 6), inlined", [""] * 2)[1],
              "times under 10 ns with two decimals (1.12 must not print as a 1.1 beside 'missed')")
        check("AVX2 peak (`maddubs_madd`): 90.0 MAC/ns; the pct_peak counter's own, from its windows: "
              "88.5 MAC/ns (12 windows, 80.1-91.2)." in p.stdout,
              "the counter's own AVX2 peak (the context's, not another ISA's) beside the peak benchmark")
        check("every ISA" not in p.stdout and "above AVX2" not in p.stdout,
              "no per-ISA table or note without results of ISAs above AVX2")
        # The same with results of ISAs above AVX2: the verdicts stay, a third table appears.
        wide = fixture()
        wide["benchmarks"] += wide_isas()
        del wide["context"]["nnuelab_pct_peak_basis"]  # an older file: the peak line alone
        with open(path, "w") as f:
            json.dump(wide, f)
        p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
        check("8 met, 5 missed, 10 not measured." in p.stdout, "ISAs above AVX2 move no verdict")
        check("AVX2 peak (`maddubs_madd`): 90.0 MAC/ns.\n" in p.stdout, "no counter's peak without the context line")
        isa = {}
        for line in p.stdout.split("every ISA", 1)[-1].splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 5 and cells[0] != "case":
                isa[cells[0]] = cells
        row = isa.get("sparse 1024x32, chunk 15%", [""] * 5)
        check(row[1].startswith("`lut_acc1` 100.0 (90%)"), f"AVX2's cell: its scanning winner (got {row[1]})")
        check(row[3].startswith("`compress_acc3` 50.0 (20%)"),
              f"avx512vnni's cell: the best scanning native form, not _from_bits (got {row[3]})")
        check(row[2] == "-", f"avx512bw's emulated result is not shown (got {row[2]})")
        check(row[4] == "`avx512vnni`, 2.00x AVX2", f"the fastest ISA and its speed-up (got {row[4]})")
        row = isa.get("dense 64x32", [""] * 5)
        check(row[2].startswith("`dense_blocked4_x4` 30.0") and row[4] == "`avx2`, 1.00x AVX2",
              f"dense 64x32 takes dense forms only (got {row[2]} / {row[4]})")
        check("avx512vnni 360.0" in p.stdout, "the peaks of the ISAs shown")
        row = isa.get("sparse 1536x16, chunk 25%", [""] * 5)
        check(row[2].startswith("`lut_x2` 80.0 (40%)"), f"a density timed above AVX2 has its row (got {row[2]})")
        check("sparse 1024x32, chunk 10%" not in isa and "sparse 1536x16, chunk 10%" not in isa,
              f"no row at a density only AVX2 was timed at (rows: {sorted(isa)})")
        # The % of the peak is the useful MAC rate over the peak benchmark of the same files,
        # median against median, not the pct_peak counter (whose peak the bench process
        # measures in its own windows): a counter of 95% (met) beside 76.5 GMAC/s against the
        # fixture's 90 MAC/ns peak, 85.0% (missed; the fastest repetition, 2% faster than
        # the median, 85.0 / 0.98).
        calib = fixture()
        for e in calib["benchmarks"]:
            if e.get("run_name") == "affine/avx2/sparse_blocked4_lut_acc1/1024x32/chunk:15":
                e.update(pct_peak=95.0, useful_macs=76.5e9)
        with open(path, "w") as f:
            json.dump(calib, f)
        p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
        row = next((line for line in p.stdout.splitlines() if line.startswith("| sparse 1024x32, chunk 15%")), "")
        check("**85.0%** (fastest repetition 86.7%)" in row and row.rstrip().endswith("| missed |"),
              f"% of the peak from the run's peak benchmark, not the pct_peak counter (got {row})")
        # Where the synthetic calls' time goes: the line through the 15% winner's densities.
        with open(path, "w") as f:
            json.dump(costs(), f)
        p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
        cost = []
        for line in p.stdout.split("time goes", 1)[-1].split("###", 1)[0].splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 6 and cells[0].startswith("sparse "):
                cost.append(cells)
        # 40 ns of the 15% call's 40 + 2 x 57.6 = 155.2 ns is 26%.
        check(cost[:1] == [["sparse 1536x16", "`sparse_blocked4_lut_acc1` (the 15% winner) at 10/15/20/25%",
                            "40.0 ns (26% of its 15% call)", "2.00 ns (50% of the peak's rate)", "1.00 ns", "R^2 1.00"]],
              f"the 15% winner's line first, through its own densities only, on it exactly (got {cost[:1]})")
        # lut_x2's own two points: (38.4, 20) and (57.6, 300) give 14.58 ns per chunk.
        check(len(cost) == 3 and cost[2][1] == "`sparse_blocked4_lut_x2` at 10/15%" and cost[2][3].startswith("14.58 ns"),
              f"each other form its own line, the _from_bits form none (got {cost[1:]})")
        # lut_acc2's medians scatter: their R^2 is low and the fastest repetitions' line is given.
        fit = cost[1][5] if len(cost) > 1 else ""
        r2 = re.match(r"R\^2 (-?[0-9.]+); the fastest repetitions: 30\.0 ns \+ 1\.50 ns per chunk \(R\^2 1\.00\)$", fit)
        check(cost[1][1].startswith("`sparse_blocked4_lut_acc2`") and r2 is not None and float(r2.group(1)) < 0.9,
              f"a line the medians scatter about gives its R^2 and the fastest repetitions' line (got {cost[1:2]})")
        check(not any(c[0] == "sparse 1024x32" for c in cost), "no cost row for a form timed at one density")
        # The instruction budget, from an instruction file of the gate's form: 1536x16 at 15%
        # at 80% has 57.6 x 64 / 32 / 0.8 = 144 cycles; seven AVX2 forms at 5.0-11.0
        # instructions per cycle (the leanest six shown, the seventh counted), an avx512bw
        # form and a 10% case that must not appear.
        counts = {f"affine/avx2/sparse_blocked4_x{i}/1536x16/chunk:15": 144.0 * (5 + i) for i in range(7)}
        counts["affine/avx512bw/sparse_blocked4_lut_acc1/1536x16/chunk:15"] = 10.0
        counts["affine/avx2/sparse_blocked4_lut_acc1/1536x16/chunk:10"] = 10.0
        # Walks given the list: leaner than every whole call, never ranked with them; the
        # leanest gets its own row after the count.
        counts["affine/avx2/sparse_blocked4_lut_x2_from_list/1536x16/chunk:15"] = 144.0 * 4
        counts["affine/avx2/sparse_blocked4_lut_acc1_from_list/1536x16/chunk:15"] = 144.0 * 4.5
        instr = os.path.join(d, "instructions.json")
        with open(instr, "w") as f:
            json.dump({"meta": {}, "cases": counts}, f)
        p = subprocess.run([sys.executable, script, "--instructions", instr, path], capture_output=True, text=True)
        budget = []
        for line in p.stdout.split("instruction budget", 1)[-1].split("#", 1)[0].splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 5 and cells[0].startswith("sparse "):
                budget.append(cells)
        case = "sparse 1536x16, chunk 15% (144 cycles at 80%)"
        check(budget[:1] == [[case, "`x0`", "720", "5.0", "96%"]],
              f"the budget: cycles from the target, instructions per cycle, the ceiling at 6 per cycle (got {budget[:1]})")
        check(len(budget) == 8 and budget[5][1] == "`x5`" and budget[6] == [case, "1 more form", "1,584 or more",
                                                                          "11.0 or more", ""],
              f"the leanest six forms, the rest counted; no other ISA, no other density (got {budget[5:]})")
        check(budget[7:] == [[case, "`lut_x2_from_list` (the walk alone, given the list)", "576", "4.0", "120%"]],
              f"the leanest walk given the list in a row of its own, after the ranked forms (got {budget[7:]})")
        p = subprocess.run([sys.executable, script, "--instructions", os.path.join(d, "none.json"), path],
                           capture_output=True, text=True)
        check(p.returncode == 0 and "Not shown: no instruction counts" in p.stdout and "none.json" in p.stdout,
              "a missing instruction file: the budget says so, the rest stands")
        # Results of ISAs above AVX2 that are all errors (a CPU without them): a note, no table.
        only_errors = fixture()
        only_errors["benchmarks"].append(dict(
            name="affine/avx512vnni/sparse_blocked4_compress_acc3/1024x32/chunk:15/min_time:0.010/manual_time",
            run_name="affine/avx512vnni/sparse_blocked4_compress_acc3/1024x32/chunk:15", run_type="iteration",
            error_occurred=True, error_message="unavailable: this CPU lacks avx512vnni"))
        with open(path, "w") as f:
            json.dump(only_errors, f)
        p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
        check("none of them runs on this CPU" in p.stdout and "every ISA" not in p.stdout,
              "ISAs above AVX2 that did not run: a note and no table")
        with open(path, "w") as f:
            json.dump(fixture(), f)
        p = subprocess.run([sys.executable, script, "--fail-on-miss", path], capture_output=True, text=True)
        check(p.returncode == 1, f"--fail-on-miss exits 1 with targets missed (got {p.returncode})")
        # The header: whether the files' CPU is the issues' Zen 3, by its CPUID signature.
        for sig, want in (("AuthenticAMD family 25 model 1 stepping 1",
                           ("# Speed targets on Fixture CPU (Zen 3):", "is the issues' kind of machine")),
                          ("AuthenticAMD family 26 model 2 stepping 1",
                           ("# Speed targets on Fixture CPU (Zen 5):", "this CPU is AuthenticAMD family 26 model 2 "
                            "stepping 1 (Zen 5), so the verdicts say how it does against the Zen 3 figures")),
                          ("GenuineIntel family 6 model 85 stepping 7", ("(Cascade Lake):", "not whether")),
                          ("GenuineIntel family 6 model 99 stepping 0",
                           ("# Speed targets on Fixture CPU (family 6 model 99):", "not whether")),
                          (None, ("# Speed targets on Fixture CPU:", "record no CPUID signature"))):
            f_sig = fixture()
            if sig:
                f_sig["context"]["nnuelab_cpu_signature"] = sig
            with open(path, "w") as f:
                json.dump(f_sig, f)
            p = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
            check(all(w in p.stdout for w in want) and "8 met, 5 missed" in p.stdout,
                  f"signature {sig}: the header says {want} (got {p.stdout[:300]!r})")
        # Files of two CPUs are refused (each one's % of peak is against its own run's peak),
        # by signature where the files have one, else by brand string; one CPU's files merge.
        other = os.path.join(d, "other.json")
        for key, a, b in (("nnuelab_cpu_signature", "AuthenticAMD family 25 model 1 stepping 1",
                           "AuthenticAMD family 26 model 2 stepping 1"),
                          ("nnuelab_cpu_model", "Fixture CPU", "Another CPU")):
            for f_path, value in ((path, a), (other, b)):
                fx = fixture()
                fx["context"][key] = value
                with open(f_path, "w") as f:
                    json.dump(fx, f)
            p = subprocess.run([sys.executable, script, path, other], capture_output=True, text=True)
            check(p.returncode == 2 and "different CPUs" in p.stderr and a in p.stderr and b in p.stderr
                  and "Traceback" not in p.stderr and p.stdout == "",
                  f"files of two CPUs ({key}) refused, naming both (got {p.returncode}: {p.stderr.strip()[:200]})")
        p = subprocess.run([sys.executable, script, path, path], capture_output=True, text=True)
        check(p.returncode == 0 and "8 met, 5 missed" in p.stdout, "files of one CPU merge")
        # The noise probe's fast passes against the previous `./lab targets` run of the same
        # part and core beside the file: an older file of another core, a corrupt older one and
        # a newer one are passed over; a file not named as a targets run has none.
        check("fixture.json: no CPUID signature recorded" in p.stdout,
              "a file without a signature: no previous run of its core to compare the probe with")
        runs = os.path.join(d, "runs")
        os.makedirs(runs)
        probe = ("0.1% of 9 samples slow over 1.0 s (affine/avx2/dense_blocked4 pass 2.00x slower, register chain "
                 "1.00x; longest slow stretch 0 ms); fast passes: {} ns a kernel call, 1000 ns a register chain")
        zen5 = "AuthenticAMD family 26 model 2 stepping 1"
        for stamp, sig, kernel in (("070000", zen5, "100.0"), ("080000", "AuthenticAMD family 25 model 1 stepping 1",
                                   "50.0"), ("090000", zen5, "110.0"), ("100000", zen5, "200.0")):
            fx = fixture()
            fx["context"].update(nnuelab_cpu_signature=sig, nnuelab_noise=probe.format(kernel))
            with open(os.path.join(runs, f"h-targets-20261207-{stamp}-affine.json"), "w") as f:
                json.dump(fx, f)
        with open(os.path.join(runs, "h-targets-20261207-075000-affine.json"), "w") as f:
            f.write("{not json")
        p = subprocess.run([sys.executable, script, os.path.join(runs, "h-targets-20261207-090000-affine.json"),
                            os.path.join(runs, "h-targets-20261207-070000-affine.json")], capture_output=True, text=True)
        check("h-targets-20261207-090000-affine.json against h-targets-20261207-070000-affine.json: the noise probe's "
              "fast passes, the previous run then this run: affine/avx2/dense_blocked4 100.0 -> 110.0 ns a call (+10.0%)"
              in p.stdout and "the machine's state differs" in p.stdout,
              f"the probe against the previous run of this core (got {p.stdout[:900]!r})")
        check("h-targets-20261207-070000-affine.json: no earlier `./lab targets` file of this core beside it"
              in p.stdout, "the oldest run of its core: none earlier to compare the probe with")
        renamed = os.path.join(runs, "renamed.json")  # a targets run's file under another name
        with open(os.path.join(runs, "h-targets-20261207-090000-affine.json")) as src, open(renamed, "w") as f:
            f.write(src.read())
        p = subprocess.run([sys.executable, script, renamed], capture_output=True, text=True)
        check("renamed.json: no earlier `./lab targets` file of this core beside it" in p.stdout,
              "a file not named as a targets run: no previous run to compare the probe with")
        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            f.write("{not json")
        for arg, what in ((bad, "a corrupt file"), (os.path.join(d, "none.json"), "a missing file")):
            p = subprocess.run([sys.executable, script, arg], capture_output=True, text=True)
            check(p.returncode == 2 and arg in p.stderr and "Traceback" not in p.stderr,
                  f"{what}: exit 2 naming it, no traceback (got {p.returncode}: {p.stderr.strip()[:120]})")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
