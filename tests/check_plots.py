#!/usr/bin/python3
"""CTest checks of plots/plot.py and plots/report.py.

    check_plots.py render SOURCE_DIR SAMPLE.json   every expected chart, CSV, page is written
    check_plots.py bad-input SOURCE_DIR            missing/corrupt inputs fail with a clear message;
                                                   the newest result passes over the other tools' files
    check_plots.py spread SOURCE_DIR               summary and report show the repetitions' spread

Exits 77 (CTest SKIP_RETURN_CODE) when /usr/bin/python3 lacks matplotlib: the charts were
not checked, which is not a pass.
"""
import importlib.util
import os
import subprocess
import sys
import tempfile
from checks import check, failures

SKIP = 77

# The charts of the checked-in sample (affine 1024x32 and 64x32, find_nnz 1024, dot_u8i8,
# crelu16/32, peak): one PNG, SVG and CSV each.
EXPECTED_CHARTS = ["affine_density_1024x32", "find_nnz_density", "dot_u8i8_isa", "isa_speedup_peak", "byte_vs_chunk"]


def run(args, cwd=None):
    p = subprocess.run([sys.executable] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def check_chart_files(plots_dir, where):
    for name in EXPECTED_CHARTS:
        for ext in ("png", "svg", "csv"):
            path = os.path.join(plots_dir, f"{name}.{ext}")
            ok = os.path.isfile(path) and os.path.getsize(path) > 0
            check(ok, f"{where}: {name}.{ext} exists and is not empty")
            if not ok:
                continue
            with open(path, "rb") as f:
                head = f.read(4096)
            if ext == "png":
                check(head.startswith(b"\x89PNG\r\n\x1a\n"), f"{where}: {name}.png is a PNG")
            elif ext == "svg":
                check(b"<svg" in head, f"{where}: {name}.svg is an SVG")
            else:
                lines = open(path).read().splitlines()
                check(len(lines) >= 2, f"{where}: {name}.csv has a header and data rows")
                check(not any("-emu/" in l for l in lines), f"{where}: {name}.csv has no emulated variant")


def render(src, sample):
    with tempfile.TemporaryDirectory() as tmp:
        plots = os.path.join(tmp, "plots")
        code, out, err = run([os.path.join(src, "plots", "plot.py"), "--out", plots, sample])
        check(code == 0, f"plot.py exits 0 (got {code}; stderr: {err.strip()[-500:]})")
        check("crossover: affine 1024x32" in out, "plot.py prints the affine crossover")
        check_chart_files(plots, "plot.py")
        page = os.path.join(tmp, "report", "report.html")
        code, out, err = run([os.path.join(src, "plots", "report.py"), "--out", page, sample])
        check(code == 0, f"report.py exits 0 (got {code}; stderr: {err.strip()[-500:]})")
        check_chart_files(os.path.join(tmp, "report", "plots"), "report.py")
        md = os.path.join(tmp, "report", "report.md")
        for path in (page, md):
            check(os.path.isfile(path) and os.path.getsize(path) > 0, f"{os.path.basename(path)} exists and is not empty")
        if os.path.isfile(page):
            text = open(page, encoding="utf-8").read()
            check(text.count("src='data:image/png;base64,") == len(EXPECTED_CHARTS),
                  "report.html has every chart inline as a data URI")
            check("<link " not in text and "<script" not in text, "report.html loads nothing from elsewhere")
            check("quantmoid4" in text and "id='semantics'" in text, "report.html has the semantics table")
            check("Winners" in text and "affine/avx2/" in text, "report.html has the winners tables")
            check("nnuelab_cpu_model" not in text and "CPU features" in text, "report.html has the machine context")
        if os.path.isfile(md):
            text = open(md, encoding="utf-8").read()
            check("| op | shape | density |" in text and "sparse wins below" in text, "report.md has winners and crossovers")


def bad_input(src):
    plot, report = os.path.join(src, "plots", "plot.py"), os.path.join(src, "plots", "report.py")
    with tempfile.TemporaryDirectory() as tmp:
        corrupt = os.path.join(tmp, "corrupt.json")
        with open(corrupt, "w") as f:
            f.write('{"context": {}, "benchmarks": [{"name": "affine/avx2/x/1x1/dense:100", "real_')
        not_result = os.path.join(tmp, "other.json")
        with open(not_result, "w") as f:
            f.write('{"hello": 1}')
        missing = os.path.join(tmp, "missing.json")
        cases = [(missing, "no such file"), (corrupt, "not a benchmark result"), (not_result, "not a benchmark result")]
        # A timed repetition whose time is not a finite number > 0 (Python's json reads NaN
        # and Infinity): refused, naming the benchmark, not taken into medians.
        for label, t in (("nan", "NaN"), ("inf", "Infinity"), ("zero", "0.0"), ("negative", "-5.0")):
            bad = os.path.join(tmp, f"time-{label}.json")
            with open(bad, "w") as f:
                f.write('{"context": {}, "benchmarks": [{"name": "crelu32/scalar/reference/32>>6/dense:100", '
                        f'"run_type": "iteration", "real_time": {t}, "time_unit": "ns"}}]}}')
            cases.append((bad, "crelu32/scalar/reference/32>>6/dense:100 has no valid real_time"))
        # Nothing timed: no benchmark listed, or every one skipped with its reason.
        empty = os.path.join(tmp, "empty.json")
        with open(empty, "w") as f:
            f.write('{"context": {}, "benchmarks": []}')
        cases.append((empty, "no benchmark in it has a time (it lists none)"))
        skipped = os.path.join(tmp, "skipped.json")
        with open(skipped, "w") as f:
            f.write('{"context": {}, "benchmarks": [{"name": "crelu32/avx2/packs_shift_permute/32>>6/dense:100", '
                    '"run_type": "iteration", "error_occurred": true, "error_message": "this CPU lacks avx2", '
                    '"real_time": 0, "time_unit": "ns"}]}')
        cases.append((skipped, "no benchmark in it has a time (skipped: this CPU lacks avx2)"))
        for script in (plot, report):
            name = os.path.basename(script)
            for path, message in cases:
                code, out, err = run([script, "--out", os.path.join(tmp, "out", "x.html" if script == report else ""),
                                      path])
                check(code != 0, f"{name} {os.path.basename(path)}: fails (exit {code})")
                check(message in err and path in err, f"{name} {os.path.basename(path)}: says '{message}' and names the file")
                check("Traceback" not in err, f"{name} {os.path.basename(path)}: no traceback")
            if script == report:
                # --out naming a folder (the page is a file): refused with the reason.
                code, out, err = run([script, "--out", tmp, corrupt])
                check(code == 2 and "is a folder" in err and "Traceback" not in err,
                      f"{name} --out a folder: refused with the reason (exit {code}: {err.strip()[-200:]})")
            # No file given and no results/ in the working directory: says what to do.
            code, out, err = run([script, "--out", os.path.join(tmp, "out2", "x.html")], cwd=tmp)
            check(code != 0 and "run ./lab bench first" in err, f"{name} without results: says to run ./lab bench first")
    # A non-finite counter is left out of its repetition: the median is over the finite
    # values, and a counter with none reads as not measured (None), never NaN.
    sys.path.insert(0, os.path.join(src, "plots"))
    import results
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "vm-counters.json")
        with open(path, "w") as f:
            f.write('{"context": {}, "benchmarks": [' + ", ".join(
                '{"name": "affine/avx2/dense_rows4/64x32/dense:100", "run_type": "iteration", "real_time": 10.0, '
                f'"time_unit": "ns", "pct_peak": {p}, "macs": {m}}}' for p, m in (("NaN", "Infinity"), ("40.0", "NaN"),
                                                                             ("50.0", "-Infinity"))) + "]}")
        r = results.load(path).results["affine/avx2/dense_rows4/64x32/dense:100"]
        check(r.counter("pct_peak") == 45.0, f"a NaN counter is left out of the median: {r.counter('pct_peak')}")
        check(r.counter("macs") is None, f"a counter with no finite value reads as not measured: {r.counter('macs')}")
    # The newest file of results/ is the newest bench run: the other tools' files there
    # (./lab ab, coverage, mutate) and the committed baselines are passed over.
    with tempfile.TemporaryDirectory() as tmp:
        made = []
        for name, text in (("vm-20261205-010000.json", '{\n  "context": {"date": "x"},\n  "benchmarks": []}'),
                           ("vm-ab-20261205-020000.json", '{\n "kind": "nnuelab-ab",\n "turns": {}}'),
                           ("vm-coverage-20261205-030000.json", '{"files": {}}'),
                           ("baseline-timing.json", '{"context": {}}')):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
            made.append(os.path.join(tmp, name))
            os.utime(made[-1], (1000 + len(made), 1000 + len(made)))
        got = results.newest(tmp)
        check(got == made[0], f"the newest bench result passes over newer ab, coverage and baseline files: "
              f"{os.path.basename(got) if got else None}")
        with open(os.path.join(tmp, "vm-killed.json"), "w"):
            pass
        os.utime(os.path.join(tmp, "vm-killed.json"), (2000, 2000))
        got = results.newest(tmp)
        check(got and got.endswith("vm-killed.json"), "an empty file (a run killed before its context) still counts: "
              "load() says what it is")


def spread(src):
    """A result of 3 repetitions (as ./lab bench --repetitions 3 writes it, aggregates
    included) and one of a single run: the table and report.md show the coefficient of
    variation of the repetitions, computed here independently, and their fastest
    repetition (min), and blanks for one run.
    The harness floor (floor/scalar/empty_call) is named in the report, not ranked."""
    import json
    reps = [2.0, 2.2, 2.5]
    # The sample standard deviation (n - 1 in the denominator) over the mean, written out
    # here rather than taken from the statistics module that plots/results.py uses.
    mean = sum(reps) / len(reps)
    sample_sd = (sum((x - mean) ** 2 for x in reps) / (len(reps) - 1)) ** 0.5
    expected = f"{sample_sd / mean * 100:.1f}"
    entries = []
    for name, times in [("crelu32/scalar/reference/32>>6/dense:100", [8.0, 8.0, 8.0]),
                        ("crelu32/avx2/packs_shift_permute/32>>6/dense:100", reps),
                        ("crelu16/avx2/packs_max_permute/32/dense:100", [3.0]),
                        ("crelu32/avx2/packs_shift_imm_lanes/32>>6+inlined/dense:100", [1.0, 1.0, 1.0]),
                        # A refresh's rows-read floor first: the harness floor is empty_call's, not
                        # the first floor result's.
                        ("floor/avx2/ft_rows_read/1024x30/l2hot:100", [600.0, 610.0, 605.0]),
                        # The refresh beside its rows read alone: the L2-hot point has both
                        # floors, the cold one none (so no row of its own).
                        ("floor/avx2/ft_rows_read_sliced/1024x30/l2hot:100", [580.0, 590.0, 585.0]),
                        ("ft_refresh/scalar/reference/1024x30/l2hot:100", [5000.0]),
                        ("ft_refresh/avx2/naive/1024x30/l2hot:100", [1210.0, 1200.0, 1190.0]),
                        ("ft_refresh/avx2/tiled/1024x30/l2hot:100", [650.0, 640.0, 660.0]),
                        ("ft_refresh/avx2/naive/1024x30/dense:100", [3000.0]),
                        # The xsimd builds beside the reads of the intrinsic ISA of their width:
                        # xsimd-avx2 and the front end beside avx2's, xsimd-sse41 beside sse2's
                        # (not timed here, so no row of its own).
                        ("ft_refresh/xsimd-avx2/naive/1024x30/l2hot:100", [1300.0]),
                        ("ft_refresh/xsimd-avx2/tiled/1024x30/l2hot:100", [700.0]),
                        ("ft_refresh/xsimd/naive/1024x30/l2hot:100", [1250.0]),
                        ("ft_refresh/xsimd-sse41/naive/1024x30/l2hot:100", [2000.0]),
                        ("floor/scalar/empty_call/32>>6/dense:100", [0.9, 1.1, 1.0]),
                        ("floor/scalar/checked_call/32>>6/dense:100", [9.1, 8.9, 9.0])]:
        full = name + "/manual_time"
        for i, t in enumerate(times):
            entries.append({"name": full, "run_name": full, "run_type": "iteration", "repetitions": len(times),
                            "repetition_index": i, "iterations": 100, "real_time": t, "cpu_time": t, "time_unit": "ns"})
        # Google Benchmark's own aggregates, which the readers must ignore.
        entries.append({"name": full + "_median", "run_name": full, "run_type": "aggregate", "aggregate_name": "median",
                        "iterations": len(times), "real_time": 999.0, "cpu_time": 999.0, "time_unit": "ns"})
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "reps.json")
        with open(path, "w") as f:
            json.dump({"context": {"nnuelab_cpu_model": "test CPU", "date": "2026-11-24T00:00:00",
                                   "nnuelab_sparse_pool_inputs": "16384", "nnuelab_pool_inputs": "1024",
                                   "nnuelab_noise": "12.5% of 800 samples slow over 1.0 s (test probe)"},
                       "benchmarks": entries}, f)
        code, out, err = run([os.path.join(src, "plots", "summary.py"), path])
        check(code == 0, f"summary.py exits 0 (got {code}; stderr: {err.strip()[-300:]})")
        rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("crelu")}
        avx2 = rows.get("crelu32/avx2/packs_shift_permute/32>>6/dense:100", [])
        check("noise: 12.5% of 800 samples slow over 1.0 s (test probe)" in out,
              "summary.py: prints the run's slow-spell probe (nnuelab_noise)")
        check(avx2[:3] == ["2.2", expected, "2.0"], f"summary.py: median 2.2, cv {expected}, min 2.0 (got {avx2})")
        check(rows.get("crelu32/scalar/reference/32>>6/dense:100", [])[:3] == ["8.0", "0.0", "8.0"],
              "summary.py: equal repetitions have cv 0.0 and min 8.0")
        inlined = rows.get("crelu32/avx2/packs_shift_imm_lanes/32>>6+inlined/dense:100", [])
        check(inlined == ["1.0", "0.0", "1.0", "8.0"],
              f"summary.py: an inlined form's x ref is against the reference's plain call, 8.0 / 1.0 (got {inlined})")
        single = rows.get("crelu16/avx2/packs_max_permute/32/dense:100", [])
        check(single[:1] == ["3.0"] and len(single) == 1, f"summary.py: one run has no cv and no min (got {single})")
        page = os.path.join(tmp, "report", "report.html")
        code, out, err = run([os.path.join(src, "plots", "report.py"), "--out", page, path])
        check(code == 0, f"report.py exits 0 (got {code}; stderr: {err.strip()[-300:]})")
        md = os.path.join(tmp, "report", "report.md")
        text = open(md, encoding="utf-8").read() if os.path.isfile(md) else ""
        check(f"| `crelu32/avx2/packs_shift_permute` | 2.2 | {expected} | 2.0 |" in text,
              f"report.md: the winner's row has its cv {expected} and min 2.0")
        check("harness floor 1.0 ns per call" in text, "report.md: names the harness floor (floor/scalar/empty_call)")
        check("harness floor 1.0 ns per call; checked entry +8.0 ns" in text,
              "report.md: names what the checked entry adds (checked_call 9.0 - empty_call 1.0)")
        check("floor/scalar/checked_call" not in text, "report.md: the checked-entry floor is not ranked")
        check("| `floor/" not in text and "| floor |" not in text, "report.md: the floor is not a winner of its own")
        # 1200 / 585 and 650 / 585, the faster read being the sliced one.
        check("| avx2 | 1024x30 | L2-hot | 1,200.0 | `tiled` | 650.0 | 605.0 | 585.0 | 2.05x | 1.11x |" in text,
              "report.md: the L2-hot refresh beside both rows-read floors (naive and the fastest form over the faster)")
        check("| avx2 | 1024x30 | cold |" not in text, "report.md: no refresh row where no floor was timed")
        # 1300 / 585, 700 / 585; 1250 / 585.
        check("| xsimd-avx2 (avx2 reads) | 1024x30 | L2-hot | 1,300.0 | `tiled` | 700.0 | 605.0 | 585.0 | 2.22x | 1.20x |"
              in text and "| xsimd (avx2 reads) | 1024x30 | L2-hot | 1,250.0 | `naive` | 1,250.0 | 605.0 | 585.0 | 2.14x | "
              "2.14x |" in text, "report.md: xsimd-avx2 and the xsimd front end beside avx2's rows read")
        check("| xsimd-sse41" not in text, "report.md: no xsimd-sse41 refresh row without sse2's rows read")
        page_text = open(page, encoding="utf-8").read() if os.path.isfile(page) else ""
        check("harness floor 1.0 ns per call; checked entry +8.0 ns" in page_text,
              "report.html: names the harness floor and the checked entry")
        check("id='refresh'" in page_text and "<td class='num'>2.05x</td><td class='num'>1.11x</td>" in page_text,
              "report.html: the refresh beside its rows read alone")
        check("12.5% of 800 samples slow over 1.0 s (test probe)" in page_text and "slow spells: 12.5% of 800" in text,
              "report.html and report.md: the run's slow-spell probe")
        check("16,384 distinct sparse activation vectors" in page_text and "1,024 distinct inputs for the other ops"
              in page_text, "report.html: the input pools' sizes from the result's context")


def main(argv):
    if importlib.util.find_spec("matplotlib") is None:
        print("SKIP: /usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)")
        return SKIP
    if len(argv) == 3 and argv[0] == "render":
        render(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "bad-input":
        bad_input(argv[1])
    elif len(argv) == 2 and argv[0] == "spread":
        spread(argv[1])
    else:
        print(__doc__)
        return 2
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
