#!/usr/bin/python3
"""Line coverage of the kernels and references by the test suite (./lab coverage).

Which kernel lines does no test ever run? A tail loop no shape reaches, a variant whose
case list is empty, a branch for an input no test builds: code whose bugs no test could
see, however bit-exact the rest. The mutation tester (./lab mutate) asks whether the tests
notice a planted change on a line; this asks the cheaper, earlier question of whether any
test gets to the line at all, for every line at once, in one instrumented build and one
run of the suite.

  coverage.py run [--jobs J] [--out F] [--fail-on-unrun]
      configures and builds the `coverage` preset (build/coverage: GCC's --coverage at -O1,
      the -emu objects too, no benchmark harness), runs the whole GoogleTest suite in J
      shards side by side and CTest's tests of NNUELAB_FORCE_VARIANT and
      NNUELAB_DISABLE_FEATURES, reads every object's counts with gcov (its JSON form), and
      reports the kernel and reference lines that no test ran, as line ranges with their
      text; writes the figures to --out (default results/<host>-coverage-<time>.json).
  coverage.py report [--fail-on-unrun] [BUILD_DIR]
      the same report from the counts an earlier run left in BUILD_DIR (default
      build/coverage), without building or running anything.

A line counts as run when any object that compiles it ran it (a kernel source is built
natively and as its SIMDe -emu twin; a header is compiled into many objects). Lines the
compiler emits no code for (declarations, code folded away at -O1, templates never
instantiated) are not counted either way, nor are lines of braces alone.
tools/coverage_expected.txt lists the unrun lines that no test can reach on purpose, with
the reason (`file | the line's text | why`); they are reported as expected, not as unrun.
Then, as information, the lines one ISA's build runs and another compiles but never runs
(a technique in a shared header reached at one register width only). What runs depends on
the CPU: on a machine without AVX-512 a native AVX-512 object runs nothing, but its -emu
twin runs the same lines, so the verdict per line rarely changes. Where it does (CPUID's
AVX-512 and AVX-VNNI detection), tools/coverage_expected_cpu.txt names the feature
(`feature | file | the line's text | why`): the line is expected on a CPU without it (the
build's nnuelab_list says which features this CPU has) and must run on one with it, so
--fail-on-unrun holds on any x86 CPU. The results file names the CPU and its features.

Standard library only; needs GCC's gcov of the compiler that built the tree.
"""
import argparse
import datetime
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from common import at_least, cpu_model
from mutate import run_tests
from reasons import read_reasons

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "coverage")
EXPECTED = os.path.join(ROOT, "tools", "coverage_expected.txt")
# The lines only a CPU with some feature runs (kernels/common/cpu.cpp's AVX-512 detection):
# expected unrun on a CPU without it, and required on one with it.
EXPECTED_CPU = os.path.join(ROOT, "tools", "coverage_expected_cpu.txt")
# Where the lab names the features it detects ({kAVX2, "avx2"}, ...).
FEATURE_TABLE = os.path.join(ROOT, "kernels", "common", "cpu.cpp")
# The folders whose lines are reported: the kernels and the scalar references they are
# checked against (the harness, tests and workloads run anyway or are not the subject).
SCOPE = ("kernels/", "reference/")
# CTest's tests of the environment variables (tests/CMakeLists.txt), run after the suite.
ENV_TESTS = r"^(force_variant|disabled_features)\."


def die(msg, code=2):
    print(f"coverage: {msg}", file=sys.stderr)
    sys.exit(code)


# ---- reading gcov's counts ------------------------------------------------------------------
def gcov_json(gcda_files, gcov="gcov", batch=64):
    """gcov's JSON documents for the given .gcda files (gcov -j -t prints one document per
    data file, one per line). Run from each file's folder, as gcov looks for the .gcno
    beside the .gcda."""
    docs = []
    for i in range(0, len(gcda_files), batch):
        part = gcda_files[i:i + batch]
        p = subprocess.run([gcov, "--json-format", "--stdout"] + part, capture_output=True, text=True)
        if p.returncode != 0:
            die(f"gcov failed ({p.returncode}): {p.stderr.strip()[-1500:]}")
        for line in p.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                docs.append(json.loads(line))
    return docs


def merge(docs, root=ROOT, scope=SCOPE):
    """{file relative to root: {line number: count}} over every document, summed across
    objects (a line runs if any object ran it); only files under `scope`."""
    counts = {}
    for doc in docs:
        cwd = doc.get("current_working_directory", "")
        for f in doc.get("files", []):
            path = os.path.realpath(os.path.join(cwd, f["file"]))
            rel = os.path.relpath(path, root)
            if rel.startswith("..") or not rel.startswith(scope):
                continue
            lines = counts.setdefault(rel, {})
            for ln in f.get("lines", []):
                n = ln["line_number"]
                lines[n] = lines.get(n, 0) + int(ln["count"])
    return counts


def isa_of(doc):
    """The ISA build a document's object belongs to: nnuelab_isa_<ns>.dir, its -emu twin
    (<ns>_emu) counted with it (the same ISA's code, run natively or through SIMDe); None for
    objects outside the ISA builds (the common kernels, the references, the tests)."""
    m = re.search(r"nnuelab_isa_(\w+?)(?:_emu)?\.dir", doc.get("data_file", ""))
    return m.group(1) if m else None


def isa_gaps(docs, counts, known, root=ROOT):
    """Lines that some test runs in one ISA's build but that another ISA build compiles and
    never runs: a header technique reached at one width only, a fallback one register width
    never takes. [(file, line, text, [isa, ...])], lines of braces alone and expected
    lines left out."""
    by_isa = {}
    for doc in docs:
        g = isa_of(doc)
        if g:
            by_isa.setdefault(g, []).append(doc)
    gaps = {}
    for g, group_docs in sorted(by_isa.items()):
        for rel, lines in merge(group_docs, root).items():
            for n, c in lines.items():
                if c == 0 and counts.get(rel, {}).get(n, 0) > 0:
                    gaps.setdefault((rel, n), []).append(g)
    out = []
    for (rel, n), isas in sorted(gaps.items()):
        text = source_lines(root, rel) or ()
        src = text[n - 1] if 0 < n <= len(text) else ""
        if BRACES.fullmatch(src) or (rel, src) in known:
            continue
        out.append((rel, n, src, isas))
    return out


def ranges(numbers):
    """[(first, last)] runs of consecutive numbers."""
    out = []
    for n in sorted(numbers):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return [tuple(r) for r in out]


# ---- the expected unrun lines ---------------------------------------------------------------
def load_expected(path=EXPECTED):
    """{(file, stripped line text): reason} from lines `file | the line's text | why`."""
    return read_reasons(path, 3, "file | the line's text | why no test runs it", "coverage")


def feature_names(path=FEATURE_TABLE):
    """The feature names the lab detects, read from cpu.cpp's table of {kBIT, "name"} pairs."""
    with open(path) as f:
        return set(re.findall(r'\{k\w+,\s*"([a-z0-9_.]+)"\}', f.read()))


def load_expected_cpu(path=EXPECTED_CPU, names=None):
    """{(feature, file, stripped line text): reason} from lines `feature | file | the line's
    text | why`: a line that only a CPU with the feature runs. A feature the lab does not
    detect (a typo would excuse the line everywhere) ends the program (exit 2)."""
    entries = read_reasons(path, 4, "feature | file | the line's text | why only a CPU with the feature runs it",
                           "coverage")
    names = feature_names() if names is None else names
    for feature, rel, _ in entries:
        if feature not in names:
            die(f"{os.path.basename(path)}: '{feature}' ({rel}) is not a feature the lab detects "
                f"({', '.join(sorted(names))})")
    return entries


def applying(cpu_entries, features):
    """The CPU-dependent entries that excuse their line on a CPU with `features` (the ones
    whose feature it lacks), as {(file, text): reason}; on a CPU with the feature the line
    must run like any other."""
    return {(rel, text): f"{why} (this CPU has no {feature})"
            for (feature, rel, text), why in cpu_entries.items() if feature not in features}


def features_of(listing):
    """The features in nnuelab_list's `features: a,b,...` line; None without that line."""
    for line in listing.splitlines():
        if line.startswith("features:"):
            return {f for f in line.split(":", 1)[1].strip().split(",") if f}
    return None


def cpu_features(build):
    """The features the lab detects on this CPU: the build's nnuelab_list, run with the
    dispatch variables unset (the CPU's own features decide which detection lines run) and
    GCOV_PREFIX sending its counts to a scratch folder (the listing's own lines must not count
    as run by a test). None when the listing cannot be run or read."""
    binary = os.path.join(build, "nnuelab_list")
    env = {k: v for k, v in os.environ.items() if k not in ("NNUELAB_DISABLE_FEATURES", "NNUELAB_FORCE_VARIANT")}
    with tempfile.TemporaryDirectory() as scratch:
        env["GCOV_PREFIX"] = scratch
        try:
            p = subprocess.run([binary], capture_output=True, text=True, env=env, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            return None
    return features_of(p.stdout) if p.returncode == 0 else None


@functools.lru_cache(maxsize=None)
def source_lines(root, rel):
    """The lines of a source file, stripped (index 0 is line 1); None if it cannot be read.
    Cached: the classification, the ISA gaps and the stale-entry check all read them."""
    try:
        with open(os.path.join(root, rel)) as f:
            return tuple(line.strip() for line in f.read().split("\n"))
    except OSError:
        return None


def stale_expected(known, root=ROOT):
    """The entries whose file no longer holds that line (each would excuse nothing)."""
    return [(rel, text) for (rel, text) in known if text not in (source_lines(root, rel) or ())]


# A line of braces alone carries no code of its own; gcov still gives some a count (a
# scope's end, where destructors and exception clean-ups land), and at -O1 such a line can
# read 0 in a function that ran, for a clean-up no test threw through. They are not
# counted: the lines with statements say whether a function ran.
BRACES = re.compile(r"[{}();]*")


def classify(counts, known, root=ROOT):
    """Per file: run, counted, the unrun line numbers and the expected ones (each with its
    text). Returns {file: {"lines", "run", "unrun": [(n, text)], "expected": [(n, text, why)]}}."""
    out = {}
    for rel in sorted(counts):
        text = source_lines(root, rel)
        if text is None:
            continue
        row = {"lines": 0, "run": 0, "unrun": [], "expected": []}
        for n, c in sorted(counts[rel].items()):
            src = text[n - 1] if 0 < n <= len(text) else ""
            if BRACES.fullmatch(src):
                continue  # no code of its own (see BRACES)
            row["lines"] += 1
            if c > 0:
                row["run"] += 1
                continue
            why = known.get((rel, src))
            if why:
                row["expected"].append((n, src, why))
            else:
                row["unrun"].append((n, src))
        out[rel] = row
    return out


def report(table, out=None, context=None, gaps=()):
    lines = sum(r["lines"] for r in table.values())
    run = sum(r["run"] for r in table.values())
    unrun = sum(len(r["unrun"]) for r in table.values())
    expected = sum(len(r["expected"]) for r in table.values())
    print("\nper folder: lines with code, run by a test, unrun, expected unrun")
    folders = {}
    for rel, r in table.items():
        key = os.path.dirname(rel)
        agg = folders.setdefault(key, [0, 0, 0, 0])
        agg[0] += r["lines"]
        agg[1] += r["run"]
        agg[2] += len(r["unrun"])
        agg[3] += len(r["expected"])
    for key, (n, ran, un, ex) in sorted(folders.items()):
        print(f"  {key:28s} {n:6d} {ran:6d} {un:5d} {ex:5d}  {100.0 * ran / n if n else 100.0:5.1f}%")
    print(f"\n{lines} lines with code in {len(table)} files: {run} run by a test ({100.0 * run / max(lines, 1):.2f}%), "
          f"{unrun} unrun, {expected} expected unrun (tools/coverage_expected*.txt)")
    if unrun:
        print("\nunrun lines (no test reaches them: a missing case, dead code, or a line to list as expected "
              "with the reason):")
        for rel, r in table.items():
            nums = {n: t for n, t in r["unrun"]}
            for a, b in ranges(nums):
                span = f"{a}" if a == b else f"{a}-{b}"
                print(f"  {rel}:{span}  {nums[a][:90]}")
    if gaps:
        print(f"\n{len(gaps)} lines run in some ISA builds but never in others that compile them (information: "
              "at -O1 an inlined line's count can land on a neighbour, so read the code before adding a case):")
        for rel, n, src, isas in gaps:
            print(f"  {rel}:{n} [{', '.join(isas)}]  {src[:80]}")
    if out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w") as f:
            json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"), "context": context or {},
                       "totals": {"lines": lines, "run": run, "unrun": unrun, "expected": expected},
                       "files": {rel: {"lines": r["lines"], "run": r["run"],
                                       "unrun": [n for n, _ in r["unrun"]],
                                       "expected": [n for n, _, _ in r["expected"]]}
                                 for rel, r in table.items()},
                       "isa_gaps": [{"file": rel, "line": n, "isas": isas} for rel, n, _, isas in gaps]},
                      f, indent=1)
        print(f"\nresults: {os.path.relpath(out, ROOT) if out.startswith(ROOT) else out}")
    return unrun


# ---- the run -------------------------------------------------------------------------------
def gcda_files(build):
    found = []
    for dirpath, _, names in os.walk(build):
        found += [os.path.join(dirpath, n) for n in names if n.endswith(".gcda")]
    return sorted(found)


def run_suite(build, jobs):
    """The whole suite in `jobs` shards side by side, as ./lab mutate runs it (libgcov merges
    each process's counts into the .gcda files under a lock). Returns the tests run; dies if
    a shard fails."""
    verdict, ran, _, detail = run_tests(None, jobs, timeout=4 * 3600,
                                        binary=os.path.join(build, "tests", "nnuelab_tests"), cwd=build)
    if verdict != "pass":
        die(f"the suite failed under coverage ({verdict}: {detail})")
    return ran


def cmd_run(args):
    if not shutil.which("gcov"):
        die("needs gcov (Debian: gcc)")
    if not os.path.exists(os.path.join(BUILD, "build.ninja")):
        subprocess.run(["cmake", "--preset", "coverage"], cwd=ROOT, check=True)
    jobs = args.jobs or os.cpu_count() or 2
    # Counts of an earlier run go before the build as well: the build runs the test binary
    # (CTest's test discovery), and libgcov would warn when it meets counts of the old objects.
    for f in gcda_files(BUILD):
        os.remove(f)
    p = subprocess.run(["cmake", "--build", BUILD, "--target", "nnuelab_tests", "nnuelab_list", "-j", str(jobs)],
                       cwd=ROOT)
    if p.returncode:
        die("the coverage build failed")
    for f in gcda_files(BUILD):
        os.remove(f)  # the discovery's counts: only the suite's below
    print(f"coverage: running the suite in {jobs} shards (instrumented, -O1)", flush=True)
    ran = run_suite(BUILD, jobs)
    # CTest's tests that run the suite's code under the environment variables that change
    # dispatch (a forced variant, a known and an unknown one; features masked off): the
    # lines that parse them and refuse bad values run only there.
    p = subprocess.run(["ctest", "--test-dir", BUILD, "-R", ENV_TESTS, "--output-on-failure"],
                       capture_output=True, text=True)
    m = re.search(r"(\d+) tests? failed out of (\d+)", p.stdout)
    if p.returncode or not m:
        die(f"CTest's environment tests failed under coverage:\n{p.stdout[-3000:]}{p.stderr[-1000:]}")
    print(f"coverage: {ran} tests ran, and CTest's {m.group(2)} environment tests; reading the counts", flush=True)
    return cmd_report(args, build=BUILD, context={"tests": ran, "ctest_env_tests": int(m.group(2))})


def cmd_report(args, build=None, context=None):
    build = build or (args.build_dir if getattr(args, "build_dir", None) else BUILD)
    files = gcda_files(build)
    if not files:
        die(f"no counts in {build} (run `./lab coverage` first)")
    known = load_expected()
    cpu_entries = load_expected_cpu()
    stale = []
    for path, entries in ((EXPECTED, known), (EXPECTED_CPU, {k[1:]: w for k, w in cpu_entries.items()})):
        for rel, text in stale_expected(entries):
            print(f"coverage: stale entry in {os.path.relpath(path, ROOT)}: {rel} has no line '{text}'")
            stale.append((rel, text))
    features = cpu_features(build)
    if features is None:
        print(f"coverage: warning: could not read this CPU's features from {build}/nnuelab_list; "
              f"no entry of {os.path.relpath(EXPECTED_CPU, ROOT)} is applied")
        applied = {}
    else:
        applied = applying(cpu_entries, features)
        lacking = sorted({f for f, _, _ in cpu_entries} - features)
        print(f"coverage: {len(applied)} of the {len(cpu_entries)} CPU-dependent entries apply "
              f"(this CPU lacks: {', '.join(lacking) or 'none of their features'})")
    known = {**known, **applied}
    docs = gcov_json(files)
    counts = merge(docs)
    # Counts older than a source they describe point at the wrong lines: say so.
    newest = max(os.path.getmtime(f) for f in files)
    moved = [rel for rel in counts if os.path.getmtime(os.path.join(ROOT, rel)) > newest]
    if moved:
        print(f"coverage: warning: {len(moved)} sources changed after these counts were taken (e.g. {moved[0]}); "
              "their lines may be misplaced: run ./lab coverage again")
    table = classify(counts, known)
    gaps = isa_gaps(docs, counts, known)
    ctx = dict(context or {}, cpu=cpu_model(), objects=len(files),
               features=sorted(features) if features is not None else None, cpu_entries_applied=len(applied))
    out = args.out or os.path.join(ROOT, "results", f"{os.uname().nodename.split('.')[0]}-coverage-"
                                   f"{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
    unrun = report(table, out, ctx, gaps)
    return 1 if args.fail_on_unrun and (unrun or stale) else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "report"):
        p = sub.add_parser(name)
        p.add_argument("--out", help="the results file (JSON)")
        p.add_argument("--fail-on-unrun", action="store_true",
                       help="exit 1 if a line is unrun (and not listed as expected) or an entry is stale")
        if name == "run":
            p.add_argument("--jobs", type=at_least(1), help="build jobs and test shards (default: the cores)")
        else:
            p.add_argument("build_dir", nargs="?", help="the instrumented build (default build/coverage)")
    args = ap.parse_args()
    return cmd_run(args) if args.cmd == "run" else cmd_report(args)


if __name__ == "__main__":
    sys.exit(main() or 0)
