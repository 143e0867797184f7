#!/usr/bin/python3
"""The coverage report's own parts: usage check_coverage.py COVERAGE_PY CXX

`tools/coverage.py` (./lab coverage) builds the tree instrumented, runs the suite and
reports the kernel lines no test ran; the build and run take minutes, so CTest checks the
parts on a small program instead, built with CXX --coverage from one source twice (as a
kernel is built natively and as its -emu twin) in a scratch tree:
- a line one object ran and the other did not counts as run (the counts are summed over
  objects); a line neither ran is reported unrun, with its text; a line the compiler
  emitted no code for is not counted, nor a line of braces alone;
- an entry of the expected list turns its line from unrun to expected; an entry whose line
  is gone is stale; a malformed entry is refused;
- files outside kernels/ and reference/ are left out;
- a line one ISA build runs (or its -emu twin) and another compiles but never runs is listed
  as that build's gap;
- the results file holds the totals and the unrun line numbers;
- an entry of the CPU-dependent list excuses its line only on a CPU without its feature (read
  from nnuelab_list's `features:` line); an unknown feature name is refused;
- every entry of the real tools/coverage_expected.txt and tools/coverage_expected_cpu.txt
  still names a line of its file, and each of the latter names a feature cpu.cpp detects.
Exit 1 on a failure (each a line starting "FAIL  ").
"""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from checks import check, failures

coverage_py, cxx = sys.argv[1:3]
sys.path.insert(0, os.path.dirname(os.path.abspath(coverage_py)))
import coverage as C  # noqa: E402

SOURCE = """#include <cstdio>
int only_in_one(int x) {
#if TWIN
  return x + 1;
#else
  return x - 1;
#endif
}
int never(int x) {
  return x * 3;
}
int main(int argc, char**) {
  int s = only_in_one(argc);
  if (argc > 5)
    s += never(s);
  std::printf("%d\\n", s);
  return 0;
}
"""
HELPER = "int helper(int x) { return x + 2; }\n"


def lineno(text, needle):
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, "kernels", "x"))
    os.makedirs(os.path.join(root, "tests"))
    src = os.path.join(root, "kernels", "x", "a.cpp")
    other = os.path.join(root, "tests", "b.cpp")
    with open(src, "w") as f:
        f.write(SOURCE)
    with open(other, "w") as f:
        f.write(HELPER)
    build = os.path.join(root, "build")
    # Named as the ISA builds are (nnuelab_isa_<ns>.dir): the sse2 build and the avx2 build
    # compile the twins; the avx2 build's -emu twin also runs never() (more arguments).
    objects = [("nnuelab_isa_sse2.dir", 0, []), ("nnuelab_isa_avx2.dir", 1, []),
               ("nnuelab_isa_avx2_emu.dir", 1, ["a"] * 6)]
    for name, twin, argv in objects:
        d = os.path.join(build, name)
        os.makedirs(d)
        subprocess.run([cxx, "-O0", "--coverage", f"-DTWIN={twin}", "-c", src, "-o", os.path.join(d, "a.o")],
                       cwd=d, check=True)
        subprocess.run([cxx, "-O0", "--coverage", "-c", other, "-o", os.path.join(d, "b.o")], cwd=d, check=True)
        subprocess.run([cxx, "--coverage", os.path.join(d, "a.o"), os.path.join(d, "b.o"), "-o",
                        os.path.join(d, "prog")], cwd=d, check=True)
        subprocess.run([os.path.join(d, "prog")] + argv, cwd=d, check=True, capture_output=True)
    files = C.gcda_files(build)
    check(len(files) == 6, f"gcda_files finds each object's counts ({len(files)} of 6)")
    all_docs = C.gcov_json(files)
    check(len(all_docs) == 6, f"gcov gives one JSON document per data file ({len(all_docs)})")
    check(sorted({C.isa_of(d) for d in all_docs}) == ["avx2", "sse2"],
          f"each object's ISA read from its folder, the -emu twin's as its ISA's: {sorted({C.isa_of(d) for d in all_docs})}")
    # The first two objects only (never() unrun everywhere) for the checks below.
    docs = [d for d in all_docs if "_emu.dir" not in d["data_file"]]
    counts = C.merge(docs, root=root)
    check(list(counts) == ["kernels/x/a.cpp"], f"only files under kernels/ and reference/ are kept: {list(counts)}")
    a = counts.get("kernels/x/a.cpp", {})
    plus, minus = lineno(SOURCE, "x + 1"), lineno(SOURCE, "x - 1")
    check(a.get(plus) == 1 and a.get(minus) == 1,
          f"each twin's line counted once, from its own object ({a.get(plus)}, {a.get(minus)})")
    body = lineno(SOURCE, "x * 3")
    check(a.get(body) == 0, f"a line no object ran counts 0 ({a.get(body)})")
    check(lineno(SOURCE, "#else") not in a, "a line without code is not counted")
    main_line = lineno(SOURCE, "int s = only_in_one")
    check(a.get(main_line) == 2, f"a line both objects ran sums their counts ({a.get(main_line)})")

    # Every object: never() ran in the avx2 build (its -emu twin) and not in the sse2 one,
    # which compiles it too: a gap of the sse2 build, not an unrun line.
    everything = C.merge(all_docs, root=root)
    gaps = C.isa_gaps(all_docs, everything, {}, root=root)
    check((("kernels/x/a.cpp", body, "return x * 3;", ["sse2"]) in gaps)
          and not any(n in (plus, minus) for _, n, _, _ in gaps),
          f"a line one ISA build runs and another compiles but never runs is that build's gap: {gaps}")
    known_body = {("kernels/x/a.cpp", "return x * 3;"): "why"}
    check(all(t != "return x * 3;" for _, _, t, _ in C.isa_gaps(all_docs, everything, known_body, root=root)),
          "an expected line is not listed as a gap")

    table = C.classify(counts, {}, root=root)
    row = table["kernels/x/a.cpp"]
    unrun = [n for n, _ in row["unrun"]]
    check(body in unrun and plus not in unrun and minus not in unrun,
          f"unrun: the line neither object ran, not the lines one ran ({unrun})")
    check(any(t == "return x * 3;" for n, t in row["unrun"] if n == body), "an unrun line keeps its text")
    close = lineno(SOURCE, "return x * 3;") + 1  # never()'s closing brace
    braced = C.classify({"kernels/x/a.cpp": {**a, close: 0}}, {}, root=root)["kernels/x/a.cpp"]
    check(close not in [n for n, _ in braced["unrun"]] and braced["lines"] == row["lines"],
          "a line of braces alone counted 0 (a scope's clean-up) is neither reported nor counted")

    known = {("kernels/x/a.cpp", "return x * 3;"): "no test passes argc > 5"}
    row = C.classify(counts, known, root=root)["kernels/x/a.cpp"]
    check(body not in [n for n, _ in row["unrun"]] and [n for n, _, _ in row["expected"]] == [body],
          "an expected entry turns its line from unrun to expected")
    check(C.stale_expected(known, root=root) == [], "an entry whose line exists is not stale")
    gone = {("kernels/x/a.cpp", "return x * 4;"): "gone", ("kernels/x/nofile.cpp", "x;"): "no file"}
    check(len(C.stale_expected(gone, root=root)) == 2, "an entry whose line (or file) is gone is stale")

    lst = os.path.join(root, "expected.txt")
    with open(lst, "w") as f:
        f.write("# comment\n\nkernels/x/a.cpp | return x * 3; | no test passes argc > 5\n")
    check(C.load_expected(lst) == known, "the expected list is read (comments and blank lines skipped)")
    with open(lst, "w") as f:
        f.write("kernels/x/a.cpp | return x * 3;\n")
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            C.load_expected(lst)
        check(False, "a malformed expected entry is refused")
    except SystemExit as e:
        check(e.code == 2, "a malformed expected entry is refused")

    # The CPU-dependent list: the entry excuses never()'s line on a CPU without "avx512f"
    # only; on one with it the line is unrun as before.
    with open(lst, "w") as f:
        f.write("# comment\navx512f | kernels/x/a.cpp | return x * 3; | only with AVX-512\n")
    names = {"avx2", "avx512f"}
    cpu_entries = C.load_expected_cpu(lst, names)
    check(cpu_entries == {("avx512f", "kernels/x/a.cpp", "return x * 3;"): "only with AVX-512"},
          f"the CPU-dependent list is read: {cpu_entries}")
    without = C.applying(cpu_entries, {"avx2"})
    row = C.classify(counts, without, root=root)["kernels/x/a.cpp"]
    check([n for n, _, _ in row["expected"]] == [body] and body not in [n for n, _ in row["unrun"]]
          and "this CPU has no avx512f" in row["expected"][0][2],
          "a CPU-dependent entry excuses its line on a CPU without the feature, saying so")
    row = C.classify(counts, C.applying(cpu_entries, {"avx2", "avx512f"}), root=root)["kernels/x/a.cpp"]
    check(body in [n for n, _ in row["unrun"]] and not row["expected"],
          "on a CPU with the feature the line must run: unrun, not expected")
    with open(lst, "w") as f:
        f.write("avx512 | kernels/x/a.cpp | return x * 3; | a typo\n")
    try:
        with contextlib.redirect_stderr(io.StringIO()) as err:
            C.load_expected_cpu(lst, names)
        check(False, "a CPU-dependent entry naming an unknown feature is refused")
    except SystemExit as e:
        check(e.code == 2 and "'avx512'" in err.getvalue(),
              f"a CPU-dependent entry naming an unknown feature is refused, naming it ({e.code})")
    check(C.features_of("CPU: x\nfeatures: sse2,avx2\n\naffine/...") == {"sse2", "avx2"}
          and C.features_of("CPU: x\n") is None, "the features are read from nnuelab_list's features line")
    check(C.cpu_features(os.path.join(root, "nowhere")) is None, "no listing binary: the features are unknown (None)")
    # A stand-in listing, instrumented as the coverage build's is: its features are read with
    # the dispatch variables unset, and its counts land outside the build.
    lb = os.path.join(root, "listbuild")
    os.makedirs(lb)
    with open(os.path.join(lb, "list.cpp"), "w") as f:
        f.write('#include <cstdio>\n#include <cstdlib>\nint main() {\n'
                '  std::printf("CPU: x\\nfeatures: %s\\n", std::getenv("NNUELAB_DISABLE_FEATURES") ? "none" : "sse2,avx2");\n'
                '  return 0;\n}\n')
    subprocess.run([cxx, "-O0", "--coverage", "list.cpp", "-o", "nnuelab_list"], cwd=lb, check=True)
    os.environ["NNUELAB_DISABLE_FEATURES"] = "avx2"
    try:
        got = C.cpu_features(lb)
    finally:
        del os.environ["NNUELAB_DISABLE_FEATURES"]
    check(got == {"sse2", "avx2"}, f"the listing runs with NNUELAB_DISABLE_FEATURES unset: {got}")
    check(not C.gcda_files(lb), f"the listing's counts do not join the build's: {C.gcda_files(lb)}")
    check({"avx2", "avx512f", "avxvnni", "sse2"} <= C.feature_names(),
          f"cpu.cpp's feature names are read: {sorted(C.feature_names())}")

    check(C.ranges([7, 3, 4, 5, 9]) == [(3, 5), (7, 7), (9, 9)], "ranges groups consecutive lines")
    out = os.path.join(root, "cov.json")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        n = C.report(C.classify(counts, {}, root=root), out, {"cpu": "test"})
    printed = buf.getvalue()
    check(n == len(unrun) and f"kernels/x/a.cpp:{body - 1}-{body}  int never(int x) {{" in printed,
          "the report returns the unrun count and names each range with its first line")
    with open(out) as f:
        res = json.load(f)
    check(res["totals"]["unrun"] == len(unrun) and res["files"]["kernels/x/a.cpp"]["unrun"] == unrun
          and res["context"]["cpu"] == "test", "the results file holds the totals and the unrun lines")

# The project's own list: every entry names a line its file still has.
known = C.load_expected()
stale = C.stale_expected(known)
check(not stale, f"tools/coverage_expected.txt: no stale entry ({len(known)} entries; stale: {stale})")
cpu_known = C.load_expected_cpu()  # exits 2 on a feature cpu.cpp does not name
cpu_stale = C.stale_expected({(rel, text): why for (_, rel, text), why in cpu_known.items()})
check(cpu_known and not cpu_stale,
      f"tools/coverage_expected_cpu.txt: no stale entry ({len(cpu_known)} entries; stale: {cpu_stale})")

sys.exit(1 if failures else 0)
