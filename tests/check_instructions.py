#!/usr/bin/env python3
"""Checks that native ISA objects contain the instructions their variants are named for
(and that the workloads library's staging copy has no `rep movs` or call:
workloads/synthetic.h).

usage: check_instructions.py [--compiler ID] (TABLE | --row ROW) OBJECT...
(OBJECT may be a ';'-separated list; --row ROW checks that one table row, as the tests that
show a row can fail do.)
Every table row must match at least one function in the objects of its ISA: a row that
matches nothing fails too, so a renamed kernel cannot pass vacuously. A mnemonic written
!REGEX must be absent instead (a variant named for what it leaves out, e.g. a permute).
A row whose ISA is written <isa>@<compiler> applies only when --compiler (CMake's compiler
id: GNU, Clang) names that compiler; otherwise it is skipped with a note.
"""
import re
import subprocess
import sys


def functions(obj):
    """{demangled function name: (instruction text, names of functions it calls or jumps to)}."""
    out = subprocess.run(["objdump", "-d", "-r", "-C", "--no-show-raw-insn", obj],
                         check=True, capture_output=True, text=True).stdout
    funcs, name = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            name = m.group(1)
            funcs[name] = ([], set())
        elif name and re.search(r"R_X86_64_PLT32\s", line):
            # A call or tail jump into another function (a template body in its own section).
            funcs[name][1].add(re.split(r"\s+", line.strip(), maxsplit=2)[2].rsplit("-0x", 1)[0])
        elif name and "\t" in line:
            funcs[name][0].append(line.split("\t", 1)[1])
    return {k: ("\n".join(v[0]), v[1]) for k, v in funcs.items()}


def body_with_callees(funcs, name, depth=3):
    """A function's instructions plus those of the functions it reaches (kernels are often
    thin wrappers that tail-jump into a template instantiation)."""
    text, callees = funcs.get(name, ("", set()))
    if depth:
        for callee in callees:
            if callee in funcs and callee != name:
                text += "\n" + body_with_callees(funcs, callee, depth - 1)
    return text


def main():
    args = sys.argv[1:]
    compiler = None
    if args[:1] == ["--compiler"] and len(args) > 1:
        compiler, args = args[1].lower(), args[2:]
    if args[:1] == ["--row"] and len(args) > 1:
        rows, args = [args[1]], args[2:]
    elif args and not args[0].startswith("--"):
        try:
            with open(args[0]) as f:
                rows, args = f.readlines(), args[1:]
        except OSError as e:
            print(f"check_instructions: the table {args[0]}: {e.strerror}", file=sys.stderr)
            return 2
    else:
        print(__doc__.split("\n\n", 1)[1].split("\n", 1)[0], file=sys.stderr)
        return 2
    objs = [o for arg in args for o in arg.split(";") if o]
    by_isa = {}
    for obj in objs:
        # An ISA library's objects (nnuelab_isa_<isa>.dir/), or the workloads library's
        # (nnuelab_workloads.dir/: its rows name ISA "workloads", e.g. the bench's staging copy).
        m = re.search(r"nnuelab_(?:isa_)?([A-Za-z0-9_]+)\.dir/", obj)
        if m:
            by_isa.setdefault(m.group(1), {}).update(functions(obj))
    failures, checked = [], 0
    for raw in rows:
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        isa, func, mnemonic = line[0], line[1], " ".join(line[2:])
        isa, _, only = isa.partition("@")
        if only and only != compiler:
            print(f"note: a row for {only}-built objects; these are {compiler or 'of an unnamed compiler'}: "
                  f"skipped: {raw.strip()}")
            continue
        if isa not in by_isa:
            print(f"note: ISA {isa} is not built natively here; row skipped: {raw.strip()}")
            continue
        wanted = f"nnuelab::{isa}::{func}("
        funcs = by_isa[isa]
        # The function and its compiler-made parts ([clone .cold], .part.N, .isra ...) and
        # whatever they call or jump to count as one body.
        matches = [n for n in funcs if n.startswith(wanted)]
        if not matches:
            failures.append(f"{isa} {func}: no such function in the {isa} objects")
            continue
        checked += 1
        body = "\n".join(body_with_callees(funcs, n) for n in matches)
        absent = mnemonic.startswith("!")
        pattern = r"(?<!\w)" + mnemonic.lstrip("!") + r"(?!\w)"
        found = re.search(pattern, body)
        if absent and found:
            failures.append(f"nnuelab::{isa}::{func}: instruction {mnemonic[1:]} must be absent, found: {found.group(0)}")
        elif not absent and not found:
            failures.append(f"nnuelab::{isa}::{func}: expected instruction {mnemonic} is missing")
    for f in failures:
        print("FAIL", f)
    print(f"{checked} function/instruction pairs checked, {len(failures)} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
