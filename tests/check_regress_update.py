#!/usr/bin/python3
"""A filtered gate update rewrites only its cases: usage check_regress_update.py REGRESS_PY BASELINE BINARY

`tools/regress.py update --filter REGEX` (./lab regress --update --filter) measures the
cases matching REGEX and keeps every other count of the baseline as it was; when the
baseline's CPU is not this machine's, its `cpu` field names both. Checked on a copy of the
baseline with one kept case and the CPU changed by hand. Exit 1 on a failure (each a line
starting "FAIL  "), 77 without valgrind.
"""
import json
import os
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
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
