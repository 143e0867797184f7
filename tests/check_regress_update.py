#!/usr/bin/python3
"""A filtered gate update rewrites only its cases: usage check_regress_update.py REGRESS_PY BASELINE BINARY

`tools/regress.py update --filter REGEX` (./lab regress --update --filter) measures the
cases matching REGEX and keeps every other count of the baseline as it was; when the
baseline's CPU is not this machine's, its `cpu` field names both (notes of earlier filtered
updates kept). Checked on a copy of the baseline with one kept case and the CPU changed by
hand, and the field's composition on its own. Also the toolchain the counts compare
within: the `simde` field (the -emu cases' counts are SIMDe's code) is read from the
build's SIMDe header, and a baseline of another SIMDe makes `check --skip-on-other-toolchain`
skip; an -emu case's row shows "emu" instead of a ratio to the native reference; a --filter
that is not a regular expression or matches no case exits 2, and so does a baseline
that is not one (check and a filtered update; a whole update writes over it). Exit 1 on
a failure (each a line starting "FAIL  "), 77 without valgrind.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from checks import check, failures

regress, baseline, binary = sys.argv[1:4]
MEASURED = "crelu16/avx2/packs_max_permute/1024/dense:100"
KEPT = "crelu16/scalar/clamp/1024/dense:100"


if not shutil.which("valgrind"):
    print("regress: SKIPPED: valgrind is not installed")
    sys.exit(77)
with open(baseline) as f:
    base = json.load(f)
base["meta"]["cpu"] = "Some Other CPU"
base["cases"][KEPT] = 12345.0       # not what the binary counts: an update must keep it
base["cases"][MEASURED] = 1.0       # far from the count: the update must replace it
with tempfile.TemporaryDirectory(prefix="nnuelab-regress-") as d:
    path = os.path.join(d, "b.json")
    with open(path, "w") as f:
        json.dump(base, f)
    p = subprocess.run(["/usr/bin/python3", regress, "update", "--filter", "^" + MEASURED.replace(".", r"\.") + "$",
                        "--baseline", path, "--binary", binary], capture_output=True, text=True)
    check(p.returncode == 0, f"the update ran (exit {p.returncode}: {p.stderr[-300:]})")
    with open(path) as f:
        after = json.load(f)
cases, meta = after["cases"], after["meta"]
check(cases.get(KEPT) == 12345.0, f"a case outside the filter keeps its count (got {cases.get(KEPT)})")
check(cases.get(MEASURED, 1.0) > 10, f"the filter's case is measured again (got {cases.get(MEASURED)})")
check(set(cases) == set(base["cases"]), "no case is dropped or added")
check(meta["cpu"].startswith("Some Other CPU (cases matching ") and meta["cpu"].endswith(")")
      and "packs_max_permute" in meta["cpu"],
      f"the cpu field names the baseline's CPU and this one's for the filter (got '{meta['cpu']}')")
# The cpu field over several filtered updates: notes kept, one added per other machine.
sys.path.insert(0, os.path.dirname(os.path.abspath(regress)))
import regress as R  # noqa: E402
check(R.cpu_after_update(None, "x", "A") == "A", "no cpu field yet: this machine's")
check(R.cpu_after_update("A", "x", "A") == "A", "an update on the baseline's machine leaves the field alone")
two = "A (cases matching _from_list: B)"
check(R.cpu_after_update(two, "^pool", "A") == two,
      "an update on the baseline's machine keeps the notes of updates made elsewhere")
got = R.cpu_after_update(two, "^pool", "C")
check(got == "A (cases matching _from_list: B; cases matching ^pool: C)",
      f"an update on a third machine adds its note to the others ({got})")
check(R.cpu_after_update(got, "^x", "D").count("cases matching ") == 3, "and the next one too")

# The SIMDe field: the version from the build's header, the -emu objects' flag, "none"
# without emulation; and a baseline of another SIMDe is not compared with.
with tempfile.TemporaryDirectory(prefix="nnuelab-regress-") as d:
    os.makedirs(os.path.join(d, "simde"))
    with open(os.path.join(d, "simde", "simde-common.h"), "w") as f:
        f.write("#define SIMDE_VERSION_MAJOR 1\n#define SIMDE_VERSION_MINOR 2\n#define SIMDE_VERSION_MICRO 3\n")
    got = R.simde_of({"NNUELAB_SIMDE_INCLUDE": d, "NNUELAB_EMU_OPT": "-O1"})
    check(got == "SIMDe 1.2.3, emulated objects at '-O1'", f"the SIMDe version is read from the header ({got})")
    got = R.simde_of({"NNUELAB_SIMDE_INCLUDE": os.path.join(d, "none"), "NNUELAB_EMU_OPT": "-O2"})
    check(got.startswith("SIMDe unknown"), f"no header: the version is unknown, not made up ({got})")
    check(R.simde_of({"NNUELAB_EMULATION": "OFF"}) == "none", "a build without emulation has none")
    env = R.environment(binary)
    check(meta.get("simde") == env["simde"] and env["simde"].startswith("SIMDe "),
          f"an update records this build's SIMDe ({meta.get('simde')} / {env['simde']})")
    other = dict(base, meta=dict(base["meta"], simde="SIMDe 9.9.9, emulated objects at '-O2'"))
    path = os.path.join(d, "other.json")
    with open(path, "w") as f:
        json.dump(other, f)
    p = subprocess.run(["/usr/bin/python3", regress, "check", "--skip-on-other-toolchain", "--filter", "^crelu16/",
                        "--baseline", path, "--binary", binary], capture_output=True, text=True)
    check(p.returncode == 77 and "the baseline's simde is 'SIMDe 9.9.9" in p.stdout,
          f"a baseline of another SIMDe is skipped, not compared (exit {p.returncode}: {p.stdout[-200:]})")
cases_here = subprocess.run([binary, "--list"], capture_output=True, text=True, check=True).stdout.split()
emu = next((c for c in cases_here if "-emu/" in c), None)
if emu is None:
    print("skipped: this build has no -emu case (NNUELAB_EMULATION=OFF)")
else:
    p = subprocess.run(["/usr/bin/python3", regress, "check", "--filter", "^" + re.escape(emu) + "$",
                        "--baseline", baseline, "--binary", binary], capture_output=True, text=True)
    row = next((l for l in p.stdout.splitlines() if l.startswith(emu + " ")), "")
    check(p.returncode == 0 and row.split()[-2:] == ["emu", "ok"],
          f"an -emu case is counted and its row says emu, not a ratio ({row!r})")
# A filter that is no regular expression, or that matches no case, is an error (exit 2), not
# a pass over nothing. The binary's std::regex (ECMAScript) decides which cases run and
# Python's re which of the baseline's are compared: a pattern only one of them takes (a
# lookbehind; a control escape \cJ) is refused with the reason too, not a traceback or a
# valgrind failure.
for filt, said in (("(", "is not a regular expression (ECMAScript)"), ("^no/such/case$", "no case matches"),
                   ("(?<=a)b", "is not a regular expression (ECMAScript)"),
                   ("^crelu16/|\\cJ", "is not a regular expression in Python's re")):
    p = subprocess.run(["/usr/bin/python3", regress, "check", "--filter", filt, "--baseline", baseline,
                        "--binary", binary], capture_output=True, text=True)
    check(p.returncode == 2 and said in p.stderr and "Traceback" not in p.stderr,
          f"check --filter '{filt}': exit {p.returncode}, {p.stderr.strip()[-120:]!r}")
# A NaN threshold (float("nan") passes `< 0`) would call no case regressed: refused, as is
# a negative one.
for thr in ("nan", "-1", "inf"):
    p = subprocess.run(["/usr/bin/python3", regress, "check", "--threshold", thr, "--baseline", baseline,
                        "--binary", binary], capture_output=True, text=True)
    check(p.returncode == 2 and "argument --threshold: takes a percentage >= 0" in p.stderr,
          f"check --threshold {thr}: exit {p.returncode}, {p.stderr.strip()[-120:]!r}")
# An instruction baseline that is not one (a merge's conflict lines, a count that is no
# number > 0, NaN included, a threshold that is no percentage) stops check before the
# counting and a filtered update (which keeps its cases), naming the problem: exit 2, no
# traceback. A whole update writes over it, as it writes over a missing one.
good_case = {KEPT: 12345.0}
bad_files = [("conflict lines", "<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> other\n", "not JSON"),
             ("no case table", json.dumps({"meta": {}}), "no table of cases"),
             ("a NaN count", json.dumps({"meta": {}, "cases": dict(good_case, x=float("nan"))}),
              "x has a count of nan"),
             ("a text count", json.dumps({"meta": {}, "cases": dict(good_case, x="12")}), "x has a count of '12'"),
             ("a zero count", json.dumps({"meta": {}, "cases": dict(good_case, x=0)}), "x has a count of 0"),
             ("a NaN threshold", json.dumps({"meta": {"threshold_percent": float("nan")}, "cases": good_case}),
              "its threshold_percent is nan")]
with tempfile.TemporaryDirectory(prefix="nnuelab-regress-") as d:
    for what, text, said in bad_files:
        path = os.path.join(d, "bad.json")
        for argv in (["check"], ["update", "--filter", "^" + re.escape(MEASURED) + "$"]):
            with open(path, "w") as f:
                f.write(text)
            p = subprocess.run(["/usr/bin/python3", regress, *argv, "--baseline", path, "--binary", binary],
                               capture_output=True, text=True)
            with open(path) as f:
                kept = f.read() == text
            check(p.returncode == 2 and "is not an instruction baseline" in p.stderr and said in p.stderr and
                  "Traceback" not in p.stderr and kept,
                  f"{argv[0]} with {what}: exit {p.returncode}, file kept {kept}, {p.stderr.strip()[-120:]!r}")
    # (cmd_update's reader, called here: a whole update measures every case, minutes on the Zen 3)
    path2 = os.path.join(d, "whole.json")
    with open(path2, "w") as f:
        f.write(bad_files[0][1])
    import contextlib, io  # noqa: E401,E402
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        got = R.read_instruction_baseline(path2, update=True)
    check(got is None and "is not an instruction baseline (not JSON" in said.getvalue(),
          f"a whole update reads a broken baseline as none, to write over it ({said.getvalue().strip()!r})")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
