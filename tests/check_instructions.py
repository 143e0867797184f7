#!/usr/bin/env python3
"""Checks that native ISA objects contain the instructions their variants are named for.

usage: check_instructions.py TABLE OBJECT...   (OBJECT may be a ';'-separated list)
Every table row must match at least one function in the objects of its ISA: a row that
matches nothing fails too, so a renamed kernel cannot pass vacuously.
"""
import re
import subprocess
import sys


def functions(obj):
    """{demangled function name: instruction text} of one object file."""
    out = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", obj],
                         check=True, capture_output=True, text=True).stdout
    funcs, name = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            name = m.group(1)
            funcs[name] = []
        elif name and "\t" in line:
            funcs[name].append(line.split("\t", 1)[1])
    return {k: "\n".join(v) for k, v in funcs.items()}


def main():
    table, objs = sys.argv[1], [o for arg in sys.argv[2:] for o in arg.split(";") if o]
    by_isa = {}
    for obj in objs:
        m = re.search(r"nnuelab_isa_([A-Za-z0-9_]+)\.dir/", obj)
        if m:
            by_isa.setdefault(m.group(1), {}).update(functions(obj))
    failures, checked = [], 0
    for raw in open(table):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        isa, func, mnemonic = line
        if isa not in by_isa:
            print(f"note: ISA {isa} is not built natively here; row skipped: {raw.strip()}")
            continue
        wanted = f"nnuelab::{isa}::{func}("
        matches = {n: body for n, body in by_isa[isa].items() if n.startswith(wanted)}
        if not matches:
            failures.append(f"{isa} {func}: no such function in the {isa} objects")
            continue
        for name, body in matches.items():
            checked += 1
            if not re.search(r"\b" + mnemonic + r"\b", body):
                failures.append(f"{name}: expected instruction {mnemonic} is missing")
    for f in failures:
        print("FAIL", f)
    print(f"{checked} function/instruction pairs checked, {len(failures)} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
