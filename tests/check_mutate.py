#!/usr/bin/python3
"""The mutation tester's own parts: usage check_mutate.py MUTATE_PY TEST_BINARY

`tools/mutate.py` (./lab mutate) plants one change per mutant in a private copy of the tree,
builds it and runs the suite; a full run takes hours, so CTest checks its parts instead:
- the operators: each turns a sample line into the expected mutant, and nothing is mutated
  in a comment, a string, a preprocessor line or a static_assert;
- every kernel file with mutants gets a first-stage test filter that selects tests of the
  real suite (TEST_BINARY --gtest_list_tests), so no mutant is "killed" or "survives" on
  an empty selection;
- every entry of tools/mutate_equivalent.txt names a mutant the tool still makes (a stale
  entry would excuse nothing, or the wrong line);
- the copy: changed files copied, unchanged ones untouched, files gone from git removed,
  the copy's build folder kept; the user's tree never written;
- the test runs' verdicts, on stand-in test binaries: a pass, a failure naming the test, a
  crash (signal), a timeout, and a shard that fails stopping the other; the binary's digest
  (a mutant leaving the binary byte-identical is not run: "same binary");
- the report: the counts per verdict, each survivor as a diff, the results file;
- --at FILE:LINE selects one line's mutants (and refuses a line without one); --checked
  uses its own copy and a preset with array-bounds checks and libstdc++ assertions, and
  --checked address another with AddressSanitizer too (and a sanitizer's report, which
  fails no test, is named as the verdict's detail);
- --gate: the gate's verdict on a mutant's counts against the unmutated copy's (a case grown
  past the threshold, gone or new fails; fewer instructions pass), a failed gate run, the
  refusal of --gate with --checked; --listed selects exactly the listed equivalents.
Exit 1 on a failure (each a line starting "FAIL  ").
"""
import contextlib
import importlib
import io
import json
import os
import stat
import subprocess
import sys
import tempfile
import time
from checks import check, failures

mutate_py, test_binary = sys.argv[1:3]
sys.path.insert(0, os.path.dirname(os.path.abspath(mutate_py)))
import mutate as M  # noqa: E402


class Args:
    """The selection options of `mutate.py list/run`, as argparse gives them."""
    def __init__(self, file=None, operator=None, at=None, listed=False):
        self.file, self.operator, self.at, self.listed = file, operator, at, listed


def one(line, operator):
    found = M.mutants_of_text("kernels/x/avx2.cpp", line, [operator])
    return [m["after"] for m in found]


# ---- the operators -------------------------------------------------------------------------
cases = [
    ("add->sub", "  a = _mm256_add_epi32(a, b);", "  a = _mm256_sub_epi32(a, b);"),
    ("adds->add", "x = _mm_adds_epu8(x, y);", "x = _mm_add_epi8(x, y);"),
    ("subs->sub", "x = _mm512_subs_epi16(x, y);", "x = _mm512_sub_epi16(x, y);"),
    ("packs->packus", "p = _mm256_packs_epi32(a, b);", "p = _mm256_packus_epi32(a, b);"),
    ("packus->packs", "p = _mm_packus_epi16(a, b);", "p = _mm_packs_epi16(a, b);"),
    ("max->min", "m = _mm256_max_epi8(a, z);", "m = _mm256_min_epi8(a, z);"),
    ("srai->srli", "s = _mm256_srai_epi16(a, 6);", "s = _mm256_srli_epi16(a, 6);"),
    ("mulhi-signedness", "h = _mm256_mulhi_epu16(a, b);", "h = _mm256_mulhi_epi16(a, b);"),
    ("unpacklo<->hi", "u = _mm_unpackhi_epi8(a, b);", "u = _mm_unpacklo_epi8(a, b);"),
    ("cmpgt->cmpeq", "c = _mm_cmpgt_epi8(a, b);", "c = _mm_cmpeq_epi8(a, b);"),
    ("andnot->and", "c = _mm256_andnot_si256(a, b);", "c = _mm256_and_si256(a, b);"),
    ("vadd->vsub", "acc = vaddq_s32(acc, t);", "acc = vsubq_s32(acc, t);"),
    ("vget_low<->high", "int8x8_t l = vget_high_s8(w);", "int8x8_t l = vget_low_s8(w);"),
    ("vzip/uzp 1<->2", "t = vzip2q_s16(a, b);", "t = vzip1q_s16(a, b);"),
    ("xs::max->min", "d = xs::max(c, -c);", "d = xs::min(c, -c);"),
    ("u8/i8-operands-swapped", "p = _mm256_maddubs_epi16(x, V::load(w + 4 * k));",
     "p = _mm256_maddubs_epi16(V::load(w + 4 * k), x);"),
    ("u8/i8-operands-swapped", "return _mm512_dpbusd_epi32(acc, u, w);", "return _mm512_dpbusd_epi32(acc, w, u);"),
    ("dpbusd<->dpbusds", "return _mm256_dpbusds_avx_epi32(acc, u, w);", "return _mm256_dpbusd_avx_epi32(acc, u, w);"),
    ("shift+1", "const V m = (d * d) >> 8;", "const V m = (d * d) >> 9;"),
    ("shift-count+1", "s = _mm256_srli_epi16(_mm256_mulhi_epi16(a, b), 7);",
     "s = _mm256_srli_epi16(_mm256_mulhi_epi16(a, b), 8);"),
    ("shift-count+1", "n = vshrn_n_u16(v, 4);", "n = vshrn_n_u16(v, 5);"),
    ("selector^1", "r = _mm256_permute4x64_epi64(p, 0xD8);", "r = _mm256_permute4x64_epi64(p, 0xd9);"),
    ("selector^1", "h = _mm256_extracti128_si256(v, 1);", "h = _mm256_extracti128_si256(v, 0);"),
    ("relational-boundary", "for (int i = 0; i < n; ++i) {", "for (int i = 0; i <= n; ++i) {"),
    ("relational-boundary", "for (; k + 4 <= vectors; k += 4) {", "for (; k + 4 < vectors; k += 4) {"),
    ("relational-boundary", "if (regs >= 8) {", "if (regs > 8) {"),
    ("relational-boundary", "if (v > kBound / group) {", "if (v >= kBound / group) {"),
]
for op, before, after in cases:
    got = one(before, op)
    check(got == [after], f"{op}: {before.strip()!r} -> {after.strip()!r} (got {got})")
check(one("a = _mm256_add_epi32(b, _mm256_add_epi32(c, d));", "add->sub") ==
      ["a = _mm256_sub_epi32(b, _mm256_add_epi32(c, d));", "a = _mm256_add_epi32(b, _mm256_sub_epi32(c, d));"],
      "two matches on a line: two mutants, each changing one")
for line, what in [("  // _mm256_add_epi32 sums the lanes", "a comment line"),
                   ("x = y;  // then _mm256_add_epi32(x, y)", "a trailing comment"),
                   ('  return "needs _mm256_add_epi32 (x >> 2)";', "a string"),
                   ("#define ADD _mm256_add_epi32", "a preprocessor line"),
                   ("static_assert(std::int64_t(c) * c < (std::int64_t(1) << 31), \"fits\");", "a static_assert"),
                   ("  std::vector<std::vector<int>> v;", "a template's closing >>"),
                   ("  x >>= 1;", "a compound shift (not an operator of the tool)"),
                   ("  auto v = std::max<int>(w[0], 0) + static_cast<std::uint8_t>(x);", "a template's brackets"),
                   ("template <int N> struct A {};", "a template parameter list"),
                   ("auto f = [](int a) -> int { return a; };", "an arrow"),
                   ("  out[i] = std::uint8_t(x < 0 ? 0 : x > 127 ? 127 : x);", "a clamp (x < c ? c : x: "
                    "equivalent at the boundary)")]:
    check(not M.mutants_of_text("kernels/x/avx2.cpp", line), f"nothing mutated in {what}")
check(one("if (s.in < 1 || s.in > 65536) return r;", "relational-boundary") ==
      ["if (s.in <= 1 || s.in > 65536) return r;", "if (s.in < 1 || s.in >= 65536) return r;"],
      "a shape check's two bounds: a mutant each")
check(one("  out[i] = std::uint8_t(x < 0 ? lo : x);", "relational-boundary") ==
      ["  out[i] = std::uint8_t(x <= 0 ? lo : x);"], "a comparison whose branch is not its bound is mutated")
check(one("const int n = chunks - first < 64 ? chunks - first : 64;", "relational-boundary") == [],
      "a min (a < b ? a : b) is left alone: equivalent at a == b")
check(one("const int n = chunks - first < 64 ? first : 64;", "relational-boundary") ==
      ["const int n = chunks - first <= 64 ? first : 64;"], "a ternary whose branch is not the compared operand is mutated")
check(one("return v < -32768 ? -32768 : v > 32767 ? 32767 : v;", "relational-boundary") == [],
      "both comparisons of a clamp to two sides are left alone")
check(one("return u < -32768 ? -32768 : v > 32767 ? 32767 : v;", "relational-boundary") ==
      ["return u <= -32768 ? -32768 : v > 32767 ? 32767 : v;"], "a clamp whose else branch is another value is mutated")
check(one("s = _mm256_slli_epi16(a, 0);", "shift-count+1") == ["s = _mm256_slli_epi16(a, 1);"],
      "a shift count of 0 becomes 1")

# ---- the first stage's filters select real tests ------------------------------------------
listed = subprocess.run([test_binary, "--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
names, suite = [], None
for line in listed.splitlines():
    if not line.startswith(" "):
        suite = line.strip()
    else:
        names.append(suite + line.split()[0])


def selects(gfilter):
    import fnmatch
    pats = gfilter.split(":")
    return sum(1 for n in names if any(fnmatch.fnmatchcase(n, p) for p in pats))


files = sorted({m["file"] for m in M.select(Args())[1]})
check(len(files) > 20, f"mutants in {len(files)} kernel files")
empty = [f for f in files if M.test_filter(f) and selects(M.test_filter(f)) == 0]
check(not empty, f"every file's first-stage filter selects tests ({empty or 'all do'})")
check(M.test_filter("kernels/find_nnz/avx2.cpp") == "*/find_nnz_avx2_*", "an ISA file: its op and ISA")
check(M.test_filter("kernels/affine/neon-dotprod.cpp") == "*/affine_neon_dotprod_*", "neon-dotprod spelled as in the tests")
check(M.test_filter("kernels/affine/neon_techniques.h") == "*/affine_neon_*:*/affine_neon_dotprod_*:*/affine_neon_i8mm_*", "an op header: the ISA files of the op that include it")
f = M.test_filter("kernels/common/avx2.h") or ""
check("*/affine_avx2_*" in f.split(":") and not any(p.startswith("*/crelu") or "neon" in p for p in f.split(":")),
      f"a common header: the ISA files that include it ({f})")

# ---- the equivalent mutants' list is current --------------------------------------------------
known = M.load_equivalent()
every = M.select(Args())[1]
all_keys = {M.key_of(m) for m in every}
stale = [k for k in known if k not in all_keys]
# A stale entry that names a text several lines share: say which #k each line is.
hints = [f"{k[0]}: {k[2]!r} is on lines " + ", ".join(f"{m['line']} ({M.key_of(m)[0]})" for m in every
                                                     if m["file"] == k[0].split("#")[0] and M.key_of(m)[1:] == k[1:])
         for k in stale]
check(not stale, f"every entry of tools/mutate_equivalent.txt ({len(known)}) is a mutant the tool makes"
      + (f"; stale: {stale}; {hints}" if stale else ""))
# Identical lines: one key each (file#1, file#2), a line of its own the bare file.
twice = "for (int i = 0; i < n; ++i) {\nx = 1;\nfor (int i = 0; i < n; ++i) {\nfor (int j = 0; j < m; ++j) {\n"
keys = [M.key_of(m) for m in M.mutants_of_text("kernels/x/scalar.cpp", twice, ["relational-boundary"])]
check([k[0] for k in keys] == ["kernels/x/scalar.cpp#1", "kernels/x/scalar.cpp#2", "kernels/x/scalar.cpp"] and
      keys[0][1:] == keys[1][1:], f"identical lines' mutants: one key each, from the top ({keys})")

with tempfile.TemporaryDirectory(prefix="nnuelab-mutate-") as d:
    bad = os.path.join(d, "bad.txt")
    with open(bad, "w") as fh:
        fh.write("kernels/a.cpp | add->sub | only three fields\n")
    p = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {os.path.dirname(os.path.abspath(mutate_py))!r});"
                        f"import mutate; mutate.load_equivalent({bad!r})"], capture_output=True, text=True)
    check(p.returncode == 2 and "bad.txt:1" in p.stderr, "a malformed equivalents line is a clear error naming it")

    # ---- the copy ---------------------------------------------------------------------------
    root, copy = os.path.join(d, "tree"), os.path.join(d, "copy")
    os.makedirs(os.path.join(root, "kernels"))
    for rel, text in [("kernels/a.cpp", "one\n"), ("kernels/b.cpp", "two\n"), ("README.md", "r\n")]:
        with open(os.path.join(root, rel), "w") as fh:
            fh.write(text)
    subprocess.run(["git", "init", "-q", root], check=True)
    subprocess.run(["git", "-C", root, "add", "."], check=True)
    M.ROOT, M.COPY, M.DIRTY = root, copy, os.path.join(d, "mutated-file")
    M.sync_copy()
    check(open(os.path.join(copy, "kernels/a.cpp")).read() == "one\n", "the copy holds the tracked files")
    os.makedirs(os.path.join(copy, "build", "default"))
    open(os.path.join(copy, "build", "default", "keep"), "w").close()
    open(os.path.join(copy, "kernels", "stale.cpp"), "w").close()
    os.utime(os.path.join(copy, "kernels/b.cpp"), (1, 1))
    with open(os.path.join(root, "kernels/a.cpp"), "w") as fh:
        fh.write("one, edited\n")
    os.utime(os.path.join(root, "kernels/a.cpp"), (1000, 1000))  # older than the copy's objects
    before = {rel: os.stat(os.path.join(root, rel)).st_mtime_ns for rel in ("kernels/a.cpp", "kernels/b.cpp", "README.md")}
    M.sync_copy()
    check(open(os.path.join(copy, "kernels/a.cpp")).read() == "one, edited\n", "an edit in the tree reaches the copy")
    check(os.stat(os.path.join(copy, "kernels/b.cpp")).st_mtime == 1, "an unchanged file is not rewritten (its build is kept)")
    check(os.stat(os.path.join(copy, "kernels/a.cpp")).st_mtime > 1e9,
          "a changed file gets a fresh time, not the tree's older one (its objects are rebuilt)")
    check(not os.path.exists(os.path.join(copy, "kernels", "stale.cpp")), "a file git does not track is removed from the copy")
    check(os.path.exists(os.path.join(copy, "build", "default", "keep")), "the copy's build folder is kept")
    os.utime(os.path.join(copy, "kernels/b.cpp"), (1, 1))
    with open(M.DIRTY, "w") as fh:
        fh.write("kernels/b.cpp")  # as a run killed under a mutant of b.cpp leaves it
    M.sync_copy()
    check(os.stat(os.path.join(copy, "kernels/b.cpp")).st_mtime > 1e9 and not os.path.exists(M.DIRTY),
          "after a run killed under a mutant, that file is written again with a fresh time (its objects rebuilt)")
    after = {rel: os.stat(os.path.join(root, rel)).st_mtime_ns for rel in before}
    check(before == after, "the tree itself is not written")

    # ---- the verdicts of a test run -----------------------------------------------------------
    M.BUILD = d

    def fake(body):
        path = os.path.join(d, "fake-tests")
        with open(path, "w") as fh:
            fh.write("#!/bin/sh\n" + body + "\n")
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        M.TEST_BIN = path

    fake('echo "[==========] 7 tests from 2 test suites ran."; exit 0')
    v = M.run_tests(None, 2, timeout=30)
    check(v[0] == "pass" and v[1] == 14, f"two passing shards: pass, their tests summed ({v})")
    fake('if [ "$GTEST_SHARD_INDEX" = 1 ]; then echo "[  FAILED  ] Crelu32.MatchesReference/x_1"; '
         'echo "[  FAILED  ] Crelu32.MatchesReference/x_1"; exit 1; fi; sleep 20; exit 0')
    v = M.run_tests("*/crelu32_*", 2, timeout=60)
    check(v[0] == "fail" and v[3] == "Crelu32.MatchesReference/x_1" and v[2] < 10,
          f"a failing shard: fail, the test named, the other shard stopped ({v[0]}, {v[3]!r}, {v[2]:.1f} s)")
    fake('kill -SEGV $$')
    v = M.run_tests(None, 1, timeout=30)
    check(v[0] == "crash" and v[3] == "signal 11", f"a crash: its signal ({v})")
    fake('echo "==9==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffd"; exit 1')
    v = M.run_tests(None, 1, timeout=30)
    check(v[0] == "fail" and v[3] == "AddressSanitizer: stack-buffer-overflow",
          f"a sanitizer's report (no test failed): fail, the report's kind named ({v})")
    fake("sleep 30")
    v = M.run_tests(None, 2, timeout=1)
    check(v[0] == "timeout" and v[2] < 10, f"a hang: timeout, the shards stopped ({v[0]}, {v[2]:.1f} s)")

    # ---- a mutant that leaves the binary as it was --------------------------------------------
    fake("exit 0")
    first = M.binary_digest()
    fake("exit 0")  # written again, byte for byte
    same = M.binary_digest()
    fake("exit 1")
    check(first == same and M.binary_digest() != first,
          "the binary's digest: the same bytes written again match, one byte changed does not")

# ---- the report -------------------------------------------------------------------------------
with tempfile.TemporaryDirectory(prefix="nnuelab-mutate-") as d:
    rows = [dict(file="kernels/a/avx2.cpp", line=3, operator="add->sub", before="x = _mm_add_epi8(a, b);",
                 after="x = _mm_sub_epi8(a, b);", status="killed", detail="fail: T.x"),
            dict(file="kernels/a/avx2.cpp", line=9, operator="max->min", before="y = _mm_max_epi8(a, b);",
                 after="y = _mm_min_epi8(a, b);", status="survived"),
            dict(file="kernels/b/sse2.cpp", line=4, operator="packs->packus", before="p;", after="q;",
                 status="not compiled"),
            dict(file="kernels/c/xsimd.cpp", line=7, operator="relational-boundary", before="k < n;",
                 after="k <= n;", status="same binary"),
            dict(file="kernels/a/avx2.cpp", line=12, operator="relational-boundary", before="if (4 * k <= b)",
                 after="if (4 * k < b)", status="gated", gate="the gate: a/avx2/x +9.0% instructions")]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        total = M.report(rows, time.monotonic(), os.path.join(d, "r.json"))
    text = out.getvalue()
    saved = json.load(open(os.path.join(d, "r.json")))
    check(total["mutants"] == 5 and total["killed"] == 1 and total["survived"] == 1 and total["not compiled"] == 1
          and total["same binary"] == 1 and total["gated"] == 1, f"the report counts each verdict ({total})")
    check("5 mutants: 4 compiled, 1 killed, 1 failing only the instruction gate, 1 survived" in text
          and "- y = _mm_max_epi8(a, b);" in text
          and "+ y = _mm_min_epi8(a, b);" in text and "_mm_add_epi8" not in text.split("survivors")[1]
          and "k <= n;" not in text.split("survivors")[1] and "4 * k < b" not in text.split("survivors")[1],
          "the report lists the survivor as a diff, not the killed mutant, the gated one nor the one that left "
          "the binary unchanged")
    check("1 leaving the test binary unchanged" in text and "not compiled in this build" in text,
          "the report counts the mutants that left the binary unchanged and says what that means")
    check(saved["totals"] == total and len(saved["mutants"]) == 5
          and saved["mutants"][4]["gate"].startswith("the gate:"),
          "the results file holds the totals and every mutant, with the gate's verdict")

# ---- --gate: a mutant the suite passes meets the instruction-count gate --------------------------
base = {"affine/avx2/x/1024x32": 1000.0, "affine/avx2/y/1536x16": 2000.0, "crelu32/avx2/z": 50.0}
for now, gated, says, what in (
        (dict(base), False, "no case moved by more than 2%", "the same counts pass"),
        (dict(base, **{"crelu32/avx2/z": 51.0}), False, "no case moved", "2% more, at the threshold, passes"),
        (dict(base, **{"affine/avx2/x/1024x32": 1030.0, "crelu32/avx2/z": 60.0}), True,
         "the gate: crelu32/avx2/z +20.0% instructions (+1 more case)", "cases grown past 2% fail, the worst named"),
        (dict(base, **{"affine/avx2/y/1536x16": 1500.0}), False, "1 case with fewer instructions (most: "
         "affine/avx2/y/1536x16 -25.0%)", "fewer instructions pass, and are said"),
        ({k: v for k, v in base.items() if k != "crelu32/avx2/z"}, True, "1 case missing (crelu32/avx2/z)",
         "a case gone fails"),
        (dict(base, **{"new/case": 1.0}), True, "1 case new (new/case)", "a case come fails")):
    got = M.gate_verdict(base, now, 2.0)
    check(got[0] == gated and says in got[1], f"--gate: {what} ({got})")
with tempfile.TemporaryDirectory(prefix="nnuelab-mutate-") as d:
    failing = os.path.join(d, "nnuelab_regress")
    with open(failing, "w") as fh:
        fh.write("#!/bin/sh\nexit 3\n")
    os.chmod(failing, 0o755)
    counts, why = M.gate_counts(failing)
    check(counts is None and why,
          f"--gate: a gate run that fails (a mutant crashing it) is a reason, not counts ({why!r})")
check(M.gate_threshold() == 2.0, "--gate: the committed baseline's threshold, 2%")
bad = subprocess.run([sys.executable, sys.argv[1], "run", "--gate", "--checked"], capture_output=True, text=True)
check(bad.returncode == 2 and "--gate counts the instructions of the release build" in bad.stderr,
      "--gate refuses --checked, saying why")

# ---- --at and --checked -----------------------------------------------------------------------
M = importlib.reload(M)  # the real tree's paths again (the stand-ins above replaced them)
lo = [m for m in M.select(Args(file=["kernels/common/lane_order.h"], operator=["relational-boundary"]))[1]]
line = lo[0]["line"]
picked = M.select(Args(at=[f"kernels/common/lane_order.h:{line}"], operator=["relational-boundary"]))[1]
check(picked and {(m["file"], m["line"]) for m in picked} == {("kernels/common/lane_order.h", line)}
      and len(picked) == sum(m["line"] == line for m in lo), "--at FILE:LINE selects exactly that line's mutants")
for bad in ("kernels/common/lane_order.h", "kernels/common/lane_order.h:1"):
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            M.select(Args(at=[bad]))
        check(False, f"--at {bad} is refused")
    except SystemExit:
        check(True, f"--at {bad} is refused (no line, or a line without a mutant)")
presets = {p["name"]: p for p in json.load(open(os.path.join(M.ROOT, "CMakePresets.json")))["configurePresets"]}
for kind, copy, needs in (("bounds", "mutate-checked", {"bounds", "shift", "-D_GLIBCXX_ASSERTIONS"}),
                          ("address", "mutate-address", {"address", "bounds", "shift", "-D_GLIBCXX_ASSERTIONS",
                                                         "-D_GLIBCXX_SANITIZE_VECTOR"})):
    M = importlib.reload(M)
    M.use_checked_build(kind)
    flags = presets.get(M.PRESET, {}).get("cacheVariables", {}).get("CMAKE_CXX_FLAGS", "").split()
    has = {f for f in flags if f.startswith("-D")} | {s for f in flags if f.startswith("-fsanitize=")
                                                      for s in f.split("=", 1)[1].split(",")}
    check(M.COPY == os.path.join(M.ROOT, "build", copy, "src") and M.TEST_BIN.startswith(M.COPY)
          and M.DIRTY.startswith(os.path.dirname(M.COPY)) and needs <= has
          and presets[M.PRESET]["binaryDir"] == "${sourceDir}/build/" + M.PRESET,
          f"--checked {kind}: its own copy and build folder, and a preset with {', '.join(sorted(needs))}")
listed = M.select(Args(listed=True))[1]
known = M.load_equivalent()
check(listed and all(M.key_of(m) in known for m in listed) and len({M.key_of(m) for m in listed}) == len(known),
      f"--listed selects exactly the mutants the equivalents list names ({len(listed)} for {len(known)} entries)")
bad = subprocess.run([sys.executable, sys.argv[1], "run", "--checked", "thread"], capture_output=True, text=True)
check(bad.returncode == 2 and "invalid choice: 'thread'" in bad.stderr and "address" in bad.stderr,
      "--checked refuses a kind it does not have, naming those it has")

print(f"{len(failures)} failures" if failures else "all checks passed")
sys.exit(1 if failures else 0)
