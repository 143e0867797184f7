#!/usr/bin/python3
"""Mutation testing of the kernels (./lab mutate): does the test suite notice a planted bug?

Each mutant changes one thing on one line of a kernel source: an intrinsic for its sibling
(add for sub, a saturating add for a wrapping one, packs for packus, max for min, an
arithmetic shift for a logical one, unpacklo for unpackhi, ...), an immediate (a shift
count, a permute or extract selector) or a comparison's boundary (< for <=, > for >=, and
back: loop bounds, tails, shape checks). The mutant is compiled into a private copy of the
tree (build/mutate/src: the user's files are never touched, even when the run is killed)
and the GoogleTest suite runs on it: first the tests of the mutated file's variants, then,
if they all pass, the whole suite. A mutant the suite passes "survived": either the tests
miss a bug there, or the change is equivalent (it cannot alter an output: say why, and
keep it in tools/mutate_equivalent.txt). A mutant whose build leaves the test binary
byte-identical to the unmutated one is "same binary", not run: its line is not in this
build (another architecture's file, a package such as xsimd or SIMDe missing) or compiles
to the same code, and no test could tell.

  mutate.py list [--file GLOB ...] [--at FILE:LINE ...] [--operator NAME ...]
      the mutants, one line each (file:line operator: before -> after), nothing built
  mutate.py run  [--file GLOB ...] [--at FILE:LINE ...] [--operator NAME ...] [--max N]
                 [--seed S] [--budget TIME] [--jobs J] [--out F] [--fail-on-survivor]
                 [--checked [bounds|address]] [--gate] [--listed]
      build and test each mutant; prints a line per mutant, then the survivors and a table
      per file; writes the results (JSON) to --out (default results/<host>-mutate-<time>.json).
      --checked builds its own copy (build/mutate-checked) with GCC's array-bounds and shift
      checks (trapping) and libstdc++'s assertions, so a mutant whose only effect is undefined
      behaviour (a write one past an array, a shift by the width) fails instead of surviving.
      --checked address adds AddressSanitizer (own copy: build/mutate-address; a slower
      suite): it also sees one-past accesses through a pointer or into an array of a class
      type, which the bounds checks let through.
      --gate: a mutant the suite passes (survived, or a listed equivalent) also meets CI's
      instruction-count gate: the copy's nnuelab_regress under callgrind, every case against
      the unmutated copy's counts at the gate's threshold (2%). A case grown past it fails the
      gate, as it would fail CI: the mutant is "gated" (a change of speed only, which no test
      can see, such as a dispatch that takes a slower form). Not with --checked.
      --listed: only the mutants tools/mutate_equivalent.txt lists (to check them again).

Files: kernels/<op>/*.cpp|*.h|*.inc and kernels/common/*.h, but the registries and the CPU
detection (--file takes globs relative to the repository, e.g. 'kernels/crelu32/*').
Standard library only.
"""
import argparse
import datetime
import fnmatch
import functools
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from common import at_least, build_targets
from reasons import read_reasons

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def copy_paths(work, preset):
    """(WORK, COPY, BUILD, TEST_BIN, DIRTY, PRESET) of a private copy under build/<work>,
    built with the CMake preset `preset`. DIRTY names the copy's file under a mutant, if any."""
    copy = os.path.join(ROOT, "build", work, "src")
    build = os.path.join(copy, "build", preset)
    return (os.path.join(ROOT, "build", work), copy, build, os.path.join(build, "tests", "nnuelab_tests"),
            os.path.join(ROOT, "build", work, "mutated-file"), preset)


WORK, COPY, BUILD, TEST_BIN, DIRTY, PRESET = copy_paths("mutate", "default")
GATE = False  # run --gate: the copy's nnuelab_regress is built too, and survivors meet the gate
EQUIVALENT = os.path.join(ROOT, "tools", "mutate_equivalent.txt")

# The ISA files' names (kernels/<op>/<isa>.cpp) as the test names spell them.
ISA_FILES = {"scalar", "sse2", "ssse3", "sse41", "avx2", "avx512bw", "avx512vnni",
             "avx512vbmi2", "avxvnni", "xsimd", "neon", "neon-dotprod", "neon-i8mm"}
# Sources that hold no kernel arithmetic: the registries, the dispatch, CPU detection.
NOT_KERNELS = ("registry", "all_variants.cpp", "cpu.cpp", "cpu.h", "variant.cpp", "variant.h",
               "isa.h", "registry_macros.h", "packed.cpp", "packed.h", "simde_shim.h")


def die(msg, code=2):
    print(f"mutate: {msg}", file=sys.stderr)
    sys.exit(code)


# ---- the mutation operators ---------------------------------------------------------------
# Each: a name, a pattern, and what a match becomes (a string for re's sub, or a function of
# the match returning the new text or None when that match is not to be mutated).
X = r"(_mm(?:256|512)?_)"  # the x86 intrinsic prefix of every width


def _imm(step):
    """An immediate literal changed by `step` (a function of the value)."""
    def f(m):
        text = m.group(2)
        value = int(text, 16) if text.lower().startswith("0x") else int(text)
        new = step(value)
        if new is None or new == value or new < 0:
            return None
        spelled = hex(new) if text.lower().startswith("0x") else str(new)
        return m.group(1) + spelled + m.group(3)
    return f


# Calls whose last argument is an immediate: its count or selector.
_SHIFT_CALL = r"((?:_mm(?:256|512)?_(?:srai|srli|slli|bsrli|bslli)_\w+|v(?:q?r?shr[nu]?|q?shl|shrn|rshrn|qshrun|qrshrun)\w*_n_\w+)\([^;()]*(?:\([^;()]*\)[^;()]*)*,\s*)(0x[0-9a-fA-F]+|\d+)(\s*\))"
_SELECT_CALL = r"((?:_mm(?:256|512)?_(?:permute\w*|shuffle_epi32|shufflehi\w*|shufflelo\w*|extract\w*|insert\w*|alignr\w*|blend_epi\w*)|vextq_\w+|vgetq_lane_\w+)\([^;()]*(?:\([^;()]*\)[^;()]*)*,\s*)(0x[0-9a-fA-F]+|\d+)(\s*\))"

OPERATORS = [
    # x86: the arithmetic and its saturation domain
    ("add->sub", X + r"add_(epi(?:8|16|32|64))\b", r"\1sub_\2"),
    ("sub->add", X + r"sub_(epi(?:8|16|32|64))\b", r"\1add_\2"),
    ("adds->add", X + r"adds_ep[iu](8|16)\b", r"\1add_epi\2"),
    ("subs->sub", X + r"subs_ep[iu](8|16)\b", r"\1sub_epi\2"),
    ("packs->packus", X + r"packs_epi(16|32)\b", r"\1packus_epi\2"),
    ("packus->packs", X + r"packus_epi(16|32)\b", r"\1packs_epi\2"),
    ("max->min", X + r"max_(ep[iu](?:8|16|32))\b", r"\1min_\2"),
    ("min->max", X + r"min_(ep[iu](?:8|16|32))\b", r"\1max_\2"),
    ("srai->srli", X + r"srai_(epi(?:16|32))\b", r"\1srli_\2"),
    ("srli->srai", X + r"srli_(epi(?:16|32))\b", r"\1srai_\2"),
    ("mulhi-signedness", X + r"mulhi_ep([iu])16\b", None),  # epi16 <-> epu16, below
    ("mullo->mulhi", X + r"mullo_epi16\b", r"\1mulhi_epi16"),
    ("unpacklo<->hi", X + r"unpack(lo|hi)_", None),
    ("cmpgt->cmpeq", X + r"cmpgt_(epi\d+)\b", r"\1cmpeq_\2"),
    ("cmpeq->cmpgt", X + r"cmpeq_(epi\d+)\b", r"\1cmpgt_\2"),
    ("andnot->and", X + r"andnot_si(128|256|512)\b", r"\1and_si\2"),
    ("and->or", X + r"and_si(128|256|512)\b", r"\1or_si\2"),
    # the dot primitives: the unsigned and signed operands swapped (maddubs and dpbusd read
    # their first operand as u8, the second as i8), and dpbusd's wrap against dpbusds' saturation
    ("u8/i8-operands-swapped", X + r"(maddubs_epi16|dpbusds?_(?:avx_)?epi32)\(", None),
    ("dpbusd<->dpbusds", X + r"dpbusd(s?)_", None),
    # NEON
    ("vadd->vsub", r"\bvaddq_([su](?:8|16|32|64))\b", r"vsubq_\1"),
    ("vsub->vadd", r"\bvsubq_([su](?:8|16|32|64))\b", r"vaddq_\1"),
    ("vqadd->vadd", r"\bvqaddq_([su](?:8|16|32))\b", r"vaddq_\1"),
    ("vqsub->vsub", r"\bvqsubq_([su](?:8|16|32))\b", r"vsubq_\1"),
    ("vmax->vmin", r"\bvmaxq_([su](?:8|16|32))\b", r"vminq_\1"),
    ("vmin->vmax", r"\bvminq_([su](?:8|16|32))\b", r"vmaxq_\1"),
    ("vqmovn->vmovn", r"\bvqmovn_([su](?:16|32|64))\b", r"vmovn_\1"),
    ("vget_low<->high", r"\bvget_(low|high)_", None),
    ("vzip/uzp 1<->2", r"\bv(zip|uzp|trn)([12])q_", None),
    ("vtst->vceq", r"\bvtstq_", r"vceqq_"),
    # xsimd and scalar code in the kernels
    ("xs::max->min", r"\bxs::max\(", r"xs::min("),
    ("xs::min->max", r"\bxs::min\(", r"xs::max("),
    ("shift+1", r"((?<![<>])(?:>>|<<)\s*)(\d+)(\b)", None),
    # loop bounds, tails and shape checks: a comparison's boundary moved by one (< for <=,
    # > for >=, and back); written with a space on both sides, so that no template's angle
    # bracket, shift or arrow is taken for one
    ("relational-boundary", r"(?<=[\w)\]] )(<=|>=|<|>)(?= [\w(!+\-*&~.])", None),
    # immediates
    ("shift-count+1", _SHIFT_CALL, None),
    ("selector^1", _SELECT_CALL, None),
]


def top_level_args(text, open_paren):
    """[(start, end)] of the comma-separated arguments of the call whose '(' is at
    open_paren, or None when the call does not close on this line."""
    spans, depth, start = [], 0, open_paren + 1
    for i in range(open_paren, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                spans.append((start, i))
                return spans
        elif c == "," and depth == 1:
            spans.append((start, i))
            start = i + 1
    return None


def _swap_u8_i8(m, line, code):
    """The whole line with the call's last two arguments swapped: maddubs(a, b) ->
    maddubs(b, a), dpbusd(acc, a, b) -> dpbusd(acc, b, a) (each keeps its spacing)."""
    spans = top_level_args(code, m.end() - 1)
    if not spans or len(spans) not in (2, 3):
        return None
    (a0, a1), (b0, b1) = spans[-2], spans[-1]
    a, b = line[a0:a1], line[b0:b1]
    return line[:a0] + a.replace(a.strip(), b.strip()) + "," + b.replace(b.strip(), a.strip()) + line[b1:]


_TERNARY = re.compile(r"\s*(?P<b>[^?;:]+?)\s*\?\s*(?P<x>[^?:;]+?)\s*:\s*(?P<y>[^;,)]+)")
_NESTED_CLAMP = re.compile(r"(.+?)\s*(?:<=|>=|<|>)\s*([\w.:-]+)\s*\?\s*\2\s*:\s*\1")


def _same_at_boundary(m):
    """Whether `a OP b ? x : y` gives the same value either way at a == b: a clamp
    (`a < b ? b : a`, the else branch possibly the usual clamp to the other side,
    `a > c ? c : a`) or a min/max (`a < b ? a : b`). Compared as text, a being the
    comparison's left operand."""
    t = _TERNARY.match(m.string, m.end())
    if not t:
        return False
    a = _left_operand(m.string[: m.start()])
    b, x, y = t["b"].strip(), t["x"].strip(), t["y"].strip()
    nested = _NESTED_CLAMP.fullmatch(y)
    if nested and nested.group(1) == a:
        y = a
    return (x == b and y == a) or (x == a and y == b)


def _left_operand(text):
    """The comparison's left operand: `text` back to the nearest unmatched bracket, or an
    assignment, comma, ?, :, &&, || or `return` outside brackets (a comparison binds looser
    than arithmetic, tighter than those)."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        c = text[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            if depth == 0:
                return text[i + 1:].strip()
            depth -= 1
        elif depth == 0:
            if c == ":" and (text[i - 1:i] == ":" or text[i + 1:i + 2] == ":"):
                continue  # a scope, std::
            if re.match(r"return\b", text[i:]) and not text[i - 1:i].isalnum():
                return text[i + len("return"):].strip()
            assignment = c == "=" and text[i - 1:i] not in "=!<>" and text[i + 1:i + 2] != "="
            if c in ",?:;{" or assignment or text[max(0, i - 1):i + 1] in ("&&", "||"):
                return text[i + 1:].strip()
    return text.strip()


def _boundary(m):
    """< <-> <=, > <-> >=; None where both forms give the same value at the boundary (a
    clamp or a min/max, above): equivalent by construction and not worth a build."""
    if _same_at_boundary(m):
        return None
    return {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[m.group(1)]


# Operators that rewrite more than their match: f(match, line, code) -> the new line or None.
WHOLE_LINE = {"u8/i8-operands-swapped": _swap_u8_i8}

SPECIAL = {
    "dpbusd<->dpbusds": lambda m: m.group(1) + ("dpbusd_" if m.group(2) == "s" else "dpbusds_"),
    "mulhi-signedness": lambda m: m.group(1) + ("mulhi_epu16" if m.group(2) == "i" else "mulhi_epi16"),
    "unpacklo<->hi": lambda m: m.group(1) + ("unpackhi_" if m.group(2) == "lo" else "unpacklo_"),
    "vget_low<->high": lambda m: "vget_" + ("high_" if m.group(1) == "low" else "low_"),
    "vzip/uzp 1<->2": lambda m: "v" + m.group(1) + ("2" if m.group(2) == "1" else "1") + "q_",
    "shift+1": _imm(lambda v: v + 1),
    "relational-boundary": _boundary,
    "shift-count+1": _imm(lambda v: v + 1),
    "selector^1": _imm(lambda v: v ^ 1),
}

COMPILED = [(name, re.compile(pat), SPECIAL.get(name, repl)) for name, pat, repl in OPERATORS]
OPERATOR_NAMES = [name for name, _, _ in OPERATORS]


def code_part(line):
    """The line with its comment cut off and its string literals blanked (same length), so
    that no operator matches inside a comment or a message; None for preprocessor lines and
    static_asserts (checked by the compiler, never run: loosening one changes no output)."""
    s = line.lstrip()
    if s.startswith(("#", "//", "*", "/*", "static_assert")):
        return None
    out, i, n = [], 0, len(line)
    while i < n:
        c = line[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            out.append(c + " " * (min(j, n - 1) - i - 1) + (c if j < n else ""))
            i = j + 1
            continue
        if line.startswith("//", i):
            break
        out.append(c)
        i += 1
    return "".join(out)[: len(line)]


def mutants_of_text(path, text, operators=None):
    """Every mutant of one file: dicts with file, line (1-based), operator, col, before,
    after (the whole line). One mutant per match of each operator."""
    found = []
    for lineno, line in enumerate(text.split("\n"), 1):
        code = code_part(line)
        if not code:
            continue
        for name, rx, repl in COMPILED:
            if operators and name not in operators:
                continue
            for m in rx.finditer(code):
                if name in WHOLE_LINE:
                    after = WHOLE_LINE[name](m, line, code)
                else:
                    new = repl(m) if callable(repl) else m.expand(repl)
                    after = None if new is None else line[: m.start()] + new + line[m.end():]
                if after is None or after == line:
                    continue
                found.append({"file": path, "line": lineno, "operator": name, "col": m.start() + 1,
                              "before": line, "after": after})
    # Identical lines give identical mutants: each one's place among those of its file with
    # the same operator and mutated text (1, 2, ... from the top), for key_of.
    seen = {}
    for m in found:
        k = (m["operator"], m["after"].strip())
        seen[k] = seen.get(k, 0) + 1
        m["nth"] = seen[k]
    for m in found:
        m["of"] = seen[(m["operator"], m["after"].strip())]
    return found


def kernel_files(globs):
    """The kernel sources, relative to ROOT, sorted; only those matching a glob if given."""
    files = []
    for dirpath, _, names in os.walk(os.path.join(ROOT, "kernels")):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), ROOT)
            if not n.endswith((".cpp", ".h", ".inc")) or n.startswith(NOT_KERNELS):
                continue
            if globs and not any(fnmatch.fnmatch(rel, g) for g in globs):
                continue
            files.append(rel)
    return sorted(files)


_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes_closure(rel, root=ROOT, seen=None):
    """The repository files `rel` includes, directly or not (quoted includes only)."""
    seen = set() if seen is None else seen
    try:
        with open(os.path.join(root, rel)) as f:
            text = f.read()
    except OSError:
        return seen
    for inc in _INCLUDE.findall(text):
        for cand in (inc, os.path.normpath(os.path.join(os.path.dirname(rel), inc))):
            if cand not in seen and os.path.isfile(os.path.join(root, cand)):
                seen.add(cand)
                includes_closure(cand, root, seen)
                break
    return seen


@functools.lru_cache(maxsize=None)
def test_filter(path, root=ROOT):
    """The GoogleTest filter of the tests of the variants a kernel file builds, the first
    stage of a mutant's tests: the parameterised tests' names start with <op>_<isa>_ (the
    -emu builds: <op>_<isa>_emu_); a header: the tests of every ISA file that includes it.
    None: the whole suite. Cached: a header's answer reads every kernel source, and each of
    its mutants asks again."""
    parts = path.split("/")
    if len(parts) != 3 or parts[0] != "kernels":
        return None
    op, stem = parts[1], os.path.splitext(parts[2])[0]
    if op != "common" and path.endswith(".cpp"):
        return f"*/{op}_{stem.replace('-', '_')}_*" if stem in ISA_FILES else f"*/{op}_*"
    # A header: the ISA files that include it, directly or through other headers; a
    # source that is not an ISA file (an op's layout code, say) stands for its whole op.
    pats = set()
    kernels = os.path.join(root, "kernels")
    for o in sorted(os.listdir(kernels)):
        if o == "common" or not os.path.isdir(os.path.join(kernels, o)):
            continue
        for n in sorted(os.listdir(os.path.join(kernels, o))):
            stem = os.path.splitext(n)[0]
            if n.endswith(".cpp") and path in includes_closure(f"kernels/{o}/{n}", root):
                pats.add(f"*/{o}_{stem.replace('-', '_')}_*" if stem in ISA_FILES else f"*/{o}_*")
    # An op-wide pattern covers that op's ISA patterns.
    wide = {p for p in pats if p.count("_*") == 1 and p[2:-2] in os.listdir(kernels)}
    pats = {p for p in pats if p in wide or not any(p.startswith(w[:-1]) for w in wide)}
    return ":".join(sorted(pats)) or None


# ---- the private copy and its build ------------------------------------------------------
def tracked_files():
    try:
        out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True, check=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        die("needs a git checkout (the copy is made of the files git tracks)")


# --checked KIND: (copy folder and preset, what its build checks). Each kind has a copy of its
# own, so no kind of run ever rebuilds another's objects and they can follow each other freely.
CHECKED = {
    "bounds": ("mutate-checked", "GCC's array-bounds and shift checks, trapping (-fsanitize=bounds,shift), "
                                 "and libstdc++'s assertions"),
    "address": ("mutate-address", "the same and AddressSanitizer (with libstdc++'s std::vector annotations)"),
}


def use_checked_build(kind="bounds"):
    """run --checked [KIND]: a copy of its own (build/<preset>/src) built with the preset of
    CHECKED[kind]. "bounds": GCC's array-bounds and shift checks, trapping, and libstdc++'s
    assertions: a mutant whose only effect is undefined behaviour (a write one past a stack
    array or a std::vector, a 64-bit shift by 64) crashes the suite instead of surviving.
    "address" adds AddressSanitizer, which also sees what the bounds checks let through: a
    one-past access through a pointer, or into an array of a class type (its one-past element
    is an address computation the bounds check allows)."""
    global WORK, COPY, BUILD, TEST_BIN, DIRTY, PRESET
    name = CHECKED[kind][0]
    WORK, COPY, BUILD, TEST_BIN, DIRTY, PRESET = copy_paths(name, name)


def sync_copy():
    """build/mutate/src = the tracked files as they are in the working tree (uncommitted edits
    included); unchanged files are not written, so the copy's build redoes only what moved."""
    files = set(tracked_files())
    # A run killed under a mutant (even by SIGKILL) left that file's objects built from the
    # mutant: the file is written again with a fresh time below, so they are rebuilt.
    stale = None
    if os.path.exists(DIRTY):
        with open(DIRTY) as f:
            stale = f.read().strip()
    for rel in files:
        src, dst = os.path.join(ROOT, rel), os.path.join(COPY, rel)
        if not os.path.isfile(src):
            continue  # deleted in the working tree, not yet in git
        with open(src, "rb") as f:
            data = f.read()
        try:
            with open(dst, "rb") as f:
                if f.read() == data and rel != stale:
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        # A fresh time, not the tree's: a copy left mutated by a killed run was built after
        # the tree's file was last written, and keeping that older time would keep the
        # mutant's objects.
        shutil.copyfile(src, dst)
        shutil.copymode(src, dst)
    for dirpath, dirnames, names in os.walk(COPY):
        if os.path.relpath(dirpath, COPY) == ".":
            dirnames[:] = [d for d in dirnames if d != "build"]
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), COPY)
            if rel not in files:
                os.remove(os.path.join(dirpath, n))
    if stale is not None:
        os.remove(DIRTY)


def build(timeout):
    """(ok, seconds, what went wrong) of building the copy's test binary (and the gate's)."""
    return build_targets(COPY, PRESET, ["nnuelab_tests"] + (["nnuelab_regress"] if GATE else []),
                         os.path.join(WORK, "build.log"), timeout=timeout)


def binary_digest(path=None):
    """The sha256 of the test binary (the copy's unless `path` is given). A mutant whose build
    leaves the binary byte-identical to the unmutated one cannot change a test's outcome: its
    line is not compiled in this build (another architecture's file, a file that needs a
    package this machine lacks, such as xsimd or SIMDe) or compiles to the same code."""
    h = hashlib.sha256()
    with open(path or TEST_BIN, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def run_tests(gfilter, jobs, timeout, binary=None, cwd=None):
    """Runs the test binary (GoogleTest shards, one per job, side by side; the copy's unless
    `binary` and its build folder `cwd` are given: ./lab coverage runs its own). Returns
    (verdict, tests run, seconds, detail): verdict 'pass', 'fail', 'crash', 'timeout'.
    The first shard that fails stops the others."""
    env = dict(os.environ)
    data = os.path.join(os.path.dirname(ROOT), "shared", "data")
    if "NNUELAB_DATA" not in env and os.path.isdir(data):
        env["NNUELAB_DATA"] = data
    env["GTEST_TOTAL_SHARDS"] = str(jobs)
    args = [binary or TEST_BIN, "--gtest_brief=1"] + ([f"--gtest_filter={gfilter}"] if gfilter else [])
    t = time.monotonic()
    procs, logs = [], {}
    for i in range(jobs):
        e = dict(env, GTEST_SHARD_INDEX=str(i))
        # The output goes to a file, not a pipe: a mutant's failures can print megabytes, and
        # a pipe nobody reads until the end would stop the test binary when it fills.
        log = tempfile.TemporaryFile(mode="w+")
        p = subprocess.Popen(args, cwd=cwd or BUILD, env=e, stdout=log, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        procs.append(p)
        logs[p.pid] = log
    verdict, detail, ran = "pass", "", 0
    pending = list(procs)
    while pending:
        for p in list(pending):
            if p.poll() is None:
                continue
            pending.remove(p)
            logs[p.pid].seek(0)
            out = logs[p.pid].read()
            m = re.search(r"\[==========\] (\d+) tests? from", out)
            ran += int(m.group(1)) if m else 0
            if p.returncode != 0 and verdict == "pass":
                verdict = "crash" if p.returncode < 0 else "fail"
                failed = re.findall(r"\[  FAILED  \] (\S+)", out)
                # A sanitizer's report (AddressSanitizer exits 1 mid-test, no test failed).
                sanitizer = re.search(r"ERROR: (\w+Sanitizer: [\w-]+)", out)
                detail = (f"signal {-p.returncode}" if p.returncode < 0 else
                          sanitizer.group(1) if sanitizer and not failed else
                          (failed[0] + (f" (+{len(set(failed)) - 1} more)" if len(set(failed)) > 1 else "")
                           if failed else f"exit {p.returncode}"))
        if verdict != "pass" or time.monotonic() - t > timeout:
            if verdict == "pass":
                verdict, detail = "timeout", f"over {timeout:.0f} s"
            for p in pending:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            break
        time.sleep(0.05)
    for log in logs.values():
        log.close()
    return verdict, ran, time.monotonic() - t, detail


# ---- the instruction-count gate (run --gate) -----------------------------------------------
def regress_module():
    """tools/regress.py, the gate itself: its callgrind measurement and its verdict per case."""
    import regress
    return regress


def gate_threshold():
    """The gate's threshold in percent: the committed baseline's, as CI's gate reads it (2)."""
    path = os.path.join(ROOT, "results", "baseline-instructions.json")
    try:
        base = regress_module().load_baseline(path) or {}
    except ValueError as e:
        die(f"{os.path.relpath(path, ROOT)} is not an instruction baseline ({e}); --gate reads its threshold there")
    return float(base.get("meta", {}).get("threshold_percent", 2.0))


def case_word(k):
    return "case" if k == 1 else "cases"


def gate_verdict(base, now, threshold):
    """(gated, detail) of a mutant's counts `now` against the unmutated copy's `base`: gated when
    a case needs more than `threshold` percent more instructions (CI's gate would fail), a case
    is missing or a new one appears (the cases themselves changed). The detail names the worst."""
    R = regress_module()
    seen = {}
    for n in sorted(set(base) | set(now)):
        verdict, pct = R.verdict_of(base.get(n), now.get(n), threshold)
        seen.setdefault(verdict, []).append((pct, n))
    if "regressed" in seen:
        pct, n = max(seen["regressed"])
        k = len(seen["regressed"]) - 1
        more = f" (+{k} more {case_word(k)})" if k else ""
        return True, f"the gate: {n} {pct:+.1f}% instructions{more}"
    for kind in ("missing", "new"):
        if kind in seen:
            k = len(seen[kind])
            return True, f"the gate: {k} {case_word(k)} {kind} ({seen[kind][0][1]})"
    if "improved" in seen:
        pct, n = min(seen["improved"])
        k = len(seen["improved"])
        return False, f"the gate passes; {k} {case_word(k)} with fewer instructions (most: {n} {pct:+.1f}%)"
    return False, f"the gate passes: no case moved by more than {threshold:g}%"


def gate_counts(binary):
    """({case: instructions per call} of `binary`, "") or (None, the reason the gate's run
    failed: a crash under the mutant, which would fail CI's gate too)."""
    R = regress_module()
    try:
        return R.measure(binary), ""
    except R.MeasureFailed as e:
        return None, str(e)


# ---- the equivalent mutants ---------------------------------------------------------------
def load_equivalent(path=EQUIVALENT):
    """{key_of: reason} from lines `file | operator | the mutated line | why it cannot change
    an output`, the file written `file#N` when several of its lines mutate to that text."""
    return read_reasons(path, 4, "file | operator | mutated line | reason", "mutate")


def key_of(m):
    """A mutant's key in the equivalents list: its file, operator and mutated line (stripped),
    so an entry survives edits elsewhere in the file. When N lines of the file give that same
    mutant (a loop head written twice), the file is `file#k`, the k-th of them from the top:
    an entry names which one it means (the others may be bugs), and one without the `#k`
    matches none of them (CTest mutate.parts then calls it stale)."""
    rel = m["file"] if m.get("of", 1) == 1 else f"{m['file']}#{m['nth']}"
    return (rel, m["operator"], m["after"].strip())


# ---- the commands -------------------------------------------------------------------------
def parse_time(text):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([smh]?)", text.strip())
    if not m:
        die(f"--budget {text}: want e.g. 90s, 20m, 1h (a bare number is minutes)")
    return float(m.group(1)) * {"s": 1, "m": 60, "": 60, "h": 3600}[m.group(2)]


def select(args):
    at = set()  # --at FILE:LINE: only the mutants of those lines
    for spec in args.at or []:
        rel, _, line = spec.rpartition(":")
        if not rel or not line.isdigit():
            die(f"--at {spec}: want FILE:LINE (e.g. kernels/common/lane_order.h:30)")
        at.add((rel, int(line)))
    globs = args.file or sorted({rel for rel, _ in at})
    files = kernel_files(globs or None)
    if not files:
        die("no kernel file matches " + " ".join(globs))
    for o in args.operator or []:
        if o not in OPERATOR_NAMES:
            die(f"unknown operator {o!r}; operators: {', '.join(OPERATOR_NAMES)}")
    mutants = []
    for rel in files:
        with open(os.path.join(ROOT, rel)) as f:
            mutants += mutants_of_text(rel, f.read(), args.operator)
    if at:
        mutants = [m for m in mutants if (m["file"], m["line"]) in at]
        for rel, line in sorted(at - {(m["file"], m["line"]) for m in mutants}):
            die(f"--at {rel}:{line}: no mutant on that line (of the operators chosen)")
    if getattr(args, "listed", False):
        known = load_equivalent()
        mutants = [m for m in mutants if key_of(m) in known]
        if not mutants:
            die(f"--listed: {os.path.relpath(EQUIVALENT, ROOT)} lists none of the mutants selected")
    return files, mutants


def cmd_list(args):
    files, mutants = select(args)
    for m in mutants:
        print(f"{m['file']}:{m['line']}:{m['col']} {m['operator']}: {m['before'].strip()}  ->  {m['after'].strip()}")
    print(f"{len(mutants)} mutants in {len({m['file'] for m in mutants})} of the {len(files)} kernel files read")


STATUSES = ("killed", "gated", "survived", "equivalent", "not compiled", "same binary", "no test")


def report(results, started, out):
    by_file = {}
    for r in results:
        row = by_file.setdefault(r["file"], dict.fromkeys(("mutants",) + STATUSES, 0))
        row["mutants"] += 1
        row[r["status"]] += 1
    print("\nper file: mutants, killed, gated (failed the gate only), survived, known equivalent, not compiled, "
          "same binary, no test ran")
    for f, row in by_file.items():
        print(f"  {f:44s} {row['mutants']:4d} {row['killed']:5d} {row['gated']:5d} {row['survived']:5d}"
              f" {row['equivalent']:5d} {row['not compiled']:5d} {row['same binary']:5d} {row['no test']:4d}")
    total = {k: sum(r[k] for r in by_file.values()) for k in ("mutants",) + STATUSES}
    compiled = total["mutants"] - total["not compiled"]
    gated = f"{total['gated']} failing only the instruction gate, " if total["gated"] else ""
    print(f"\n{total['mutants']} mutants: {compiled} compiled, {total['killed']} killed, {gated}"
          f"{total['survived']} survived, {total['equivalent']} known equivalent, {total['no test']} with no test, "
          f"{total['same binary']} leaving the test binary unchanged ({(time.monotonic() - started) / 60:.1f} min)")
    if total["same binary"]:
        print("  (same binary: the line is not compiled in this build, e.g. another architecture's file or one "
              "that needs a package this machine lacks, or it compiles to the same code; no test can tell)")
    surv = [r for r in results if r["status"] in ("survived", "no test")]
    if surv:
        print("\nsurvivors (the suite passed them): a missing test, or an equivalent change to be listed "
              f"in {os.path.relpath(EQUIVALENT, ROOT)} with the reason")
        for r in surv:
            print(f"  {r['file']}:{r['line']} {r['operator']}{' (no test ran)' if r['status'] == 'no test' else ''}\n"
                  f"      - {r['before'].strip()}\n      + {r['after'].strip()}")
    if out:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w") as f:
            json.dump({"date": datetime.datetime.now().isoformat(timespec="seconds"), "totals": total,
                       "mutants": results}, f, indent=1)
        print(f"\nresults: {os.path.relpath(out, ROOT) if out.startswith(ROOT) else out}")
    return total


def _stop(signum, frame):
    raise KeyboardInterrupt  # SIGTERM as Ctrl-C: the copy's file put back, the results written


def cmd_run(args):
    global GATE
    signal.signal(signal.SIGTERM, _stop)
    if args.gate:
        if args.checked:
            die("--gate counts the instructions of the release build, as CI's gate does; a --checked build's "
                "counts are another program's (and valgrind cannot run AddressSanitizer): run them apart")
        if not shutil.which("valgrind"):
            die("--gate needs valgrind (Debian: apt-get install valgrind)")
        GATE = True
    if args.checked:
        use_checked_build(args.checked)
    files, mutants = select(args)
    known = load_equivalent()
    if args.max and len(mutants) > args.max:
        mutants = random.Random(args.seed).sample(mutants, args.max)
    # x86 and portable files first, the NEON ones (slow SIMDe builds here) last: a budget
    # that runs out leaves the part that runs under emulation only.
    mutants.sort(key=lambda m: ("neon" in m["file"], m["file"], m["line"], m["col"], m["operator"]))
    budget = parse_time(args.budget) if args.budget else None
    jobs = args.jobs or os.cpu_count() or 2
    started = time.monotonic()
    print(f"mutate: {len(mutants)} mutants in {len({m['file'] for m in mutants})} of the {len(files)} kernel "
          f"files read; the copy: {os.path.relpath(COPY, ROOT)}", flush=True)
    if args.checked:
        print(f"mutate: --checked {args.checked}: {CHECKED[args.checked][1]}", flush=True)
    os.makedirs(COPY, exist_ok=True)
    sync_copy()
    ok, secs, log = build(timeout=3600)
    if not ok:
        die("the unmutated copy does not build:\n" + log)
    verdict, ran, secs, detail = run_tests(None, jobs, timeout=3600)
    if verdict != "pass":
        die(f"the unmutated suite does not pass ({verdict}: {detail}); fix that first")
    whole_suite = secs
    unmutated = binary_digest()
    print(f"mutate: the unmutated copy builds and passes ({ran} tests, {secs:.0f} s)", flush=True)
    if GATE:
        regress_bin = os.path.join(BUILD, "nnuelab_regress")
        gate_base, why = gate_counts(regress_bin)
        if gate_base is None:
            die(f"--gate: the unmutated copy's gate run failed: {why}")
        gate_digest, threshold = binary_digest(regress_bin), gate_threshold()
        print(f"mutate: --gate: the unmutated copy's {len(gate_base)} gate cases counted; a mutant the suite "
              f"passes fails the gate when a case grows by more than {threshold:g}%", flush=True)
    results, originals = [], {}
    try:
        for i, m in enumerate(mutants, 1):
            if budget and time.monotonic() - started > budget:
                print(f"mutate: the budget ran out; {len(mutants) - i + 1} mutants not tried", flush=True)
                break
            path = os.path.join(COPY, m["file"])
            if m["file"] not in originals:
                with open(path) as f:
                    originals[m["file"]] = f.read()
            lines = originals[m["file"]].split("\n")
            assert lines[m["line"] - 1] == m["before"], "the copy differs from the tree"
            lines[m["line"] - 1] = m["after"]
            with open(DIRTY, "w") as f:
                f.write(m["file"])
            with open(path, "w") as f:
                f.write("\n".join(lines))
            r = dict(m)
            try:
                ok, bsecs, log = build(timeout=1800)
                r["build_s"] = round(bsecs, 1)
                if not ok:
                    r["status"], r["detail"] = "not compiled", ""
                elif binary_digest() == unmutated:
                    r["status"], r["detail"] = "same binary", ""
                else:
                    gf = test_filter(m["file"])
                    stages = [gf, None] if gf else [None]
                    r["status"] = "survived"
                    for stage in stages:
                        verdict, ran, tsecs, detail = run_tests(stage, jobs, timeout=3 * whole_suite + 60)
                        r.setdefault("test_s", 0)
                        r["test_s"] = round(r["test_s"] + tsecs, 1)
                        if verdict != "pass":
                            r["status"], r["detail"] = "killed", f"{verdict}: {detail}" + (
                                "" if stage else " (whole suite)")
                            break
                        if ran == 0 and stage is None:
                            r["status"] = "no test"
                    if r["status"] == "survived" and key_of(m) in known:
                        r["status"], r["detail"] = "equivalent", known[key_of(m)]
                    if GATE and r["status"] in ("survived", "equivalent"):
                        if binary_digest(regress_bin) == gate_digest:
                            r["gate"] = "the gate's binary is unchanged (the line is not in it, or compiles alike)"
                        else:
                            now, why = gate_counts(regress_bin)
                            gated, r["gate"] = (True, f"the gate's run failed: {why}") if now is None else \
                                gate_verdict(gate_base, now, threshold)
                            if gated:
                                r["status"] = "gated"
            finally:
                with open(path, "w") as f:
                    f.write(originals[m["file"]])
            results.append(r)
            tag = {"killed": "killed  ", "survived": "SURVIVED", "equivalent": "equiv.  ", "gated": "gated   ",
                   "not compiled": "no build", "same binary": "same bin", "no test": "NO TEST "}[r["status"]]
            print(f"[{i}/{len(mutants)}] {tag} {m['file']}:{m['line']} {m['operator']}"
                  f"{'  ' + r.get('detail', '') if r['status'] in ('killed', 'equivalent') else ''}"
                  f"{'  ' + r['gate'] if 'gate' in r else ''}", flush=True)
    except KeyboardInterrupt:
        print("mutate: interrupted; the results so far", flush=True)
    finally:
        for rel, text in originals.items():
            with open(os.path.join(COPY, rel), "w") as f:
                f.write(text)
        if os.path.exists(DIRTY):
            os.remove(DIRTY)  # the file is back, with a fresh time: the next build redoes it
    out = args.out or os.path.join(ROOT, "results", f"{os.uname().nodename.split('.')[0]}-mutate-"
                                   f"{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
    total = report(results, started, out)
    if args.fail_on_survivor and (total["survived"] or total["no test"]):
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("list", "run"):
        p = sub.add_parser(name)
        p.add_argument("--file", action="append", help="glob relative to the repository (repeatable)")
        p.add_argument("--operator", action="append", help="only this operator (repeatable)")
        p.add_argument("--at", action="append", metavar="FILE:LINE",
                       help="only the mutants of this line (repeatable)")
        if name == "run":
            p.add_argument("--max", type=at_least(1), help="at most N mutants, drawn at random (--seed)")
            p.add_argument("--seed", type=int, default=1)
            p.add_argument("--budget", help="stop trying new mutants after this long (90s, 20m, 1h)")
            p.add_argument("--jobs", type=at_least(1), help="test shards side by side (default: the cores)")
            p.add_argument("--out", help="the results file (JSON)")
            p.add_argument("--fail-on-survivor", action="store_true", help="exit 1 if a mutant survived")
            p.add_argument("--checked", nargs="?", const="bounds", choices=sorted(CHECKED),
                           help="bounds (the default): build with array-bounds, shift and libstdc++ checks (own "
                                "copy: build/mutate-checked); address: and AddressSanitizer (build/mutate-address)")
            p.add_argument("--gate", action="store_true",
                           help="a mutant the suite passes meets the instruction-count gate too (valgrind)")
        p.add_argument("--listed", action="store_true", help="only the mutants tools/mutate_equivalent.txt lists")
    args = ap.parse_args()
    return cmd_list(args) if args.cmd == "list" else cmd_run(args)


if __name__ == "__main__":
    sys.exit(main() or 0)
