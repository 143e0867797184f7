"""A benchmark's kernel in two builds of nnuelab_bench: whether its machine code changed,
and where it sits. ./lab ab notes this under its table for every benchmark it calls
slower or faster, as a build can move an unchanged kernel and its time with it (on a Zen 5
guest affine/ssse3/dot1 ran 1.8x slower between two builds that left its code byte for
byte the same: docs/ab-runs.md, 2026-12-05).

A benchmark <op>/<isa>/<technique>/<shape>/... times the function
nnuelab::<isa>::<op>::<technique>_run (<isa> with '-' as '_'), its _run_bits for a
*_from_bits technique, _run_list for *_from_list (a pointer constant: the function it
holds), _run_many for a "<shape>+inlined" one and quantize's _run_i8 / _run_i16 by the
shape's output type; floors, peaks and the scalar
references have no kernel of their own. Most of these are a few instructions and a jump
to a template's function that does the work, so a kernel's code is that of the entry and
of every nnuelab function it calls or jumps to, transitively (until 2026-12-06 only the
entry's: 196 of them were a lone jump, whose target's changes went unseen). The code is
compared as `objdump -d` prints it with every absolute address left out (jump and call
targets by symbol, RIP-relative data by the symbol objdump names): a moved function whose
instructions are the same compares equal. The data it reads (constants, tables) is not
compared, nor library functions it calls. Needs binutils (nm, objdump).
"""
import hashlib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots"))
from results import MACHINE_OPS, base_name, parse  # noqa: E402  (the one reader of the name grammar)

LINE = 64  # bytes in a cache line (and in Zen's op-cache and fetch windows' multiples)


# What reading a binary's code can fail with (binutils missing, or a file that is not a
# binary: the stand-in benches of tests/check_ab.py), and the reason to print for it.
FAILURES = (OSError, subprocess.CalledProcessError)


def why_failed(e):
    detail = getattr(e, "stderr", "") or ""
    return f"binutils' nm and objdump: {detail.strip() or e}"


def kernel_function(bench_name):
    """The kernel function a benchmark times (see above), or None when it has none (a
    name outside the harness grammar included)."""
    p = parse(bench_name)
    if not p or p["op"] in MACHINE_OPS or p["tech"].startswith("reference"):
        return None
    op, isa, tech, shape = p["op"], p["isa"], p["tech"], p["shape"]
    suffix = "_run"
    m = re.fullmatch(r"(.+)_from_(bits|list)", tech)
    if m:
        tech, suffix = m.group(1), "_run_" + m.group(2)
    elif shape.endswith("+inlined"):
        suffix = "_run_many"
    elif op == "quantize":
        m = re.search(r"x(i8|i16)", shape)  # 1048576xi8b8: one entry per output type
        suffix += "_" + m.group(1) if m else ""
    return f"nnuelab::{isa.replace('-', '_')}::{op}::{tech}{suffix}"


# objdump's absolute addresses: a jump's or call's target before its <symbol>, a
# RIP-relative displacement, and the "#" comment naming what it resolves to, dropped whole:
# a constant is named after the nearest symbol before it, plus an offset that moves with
# the data's layout (which constant a load reads is not compared).
_TARGET = re.compile(r"\b[0-9a-f]+ (<[^>]*>)")
_RIP = re.compile(r"-?0x[0-9a-f]+\(%rip\)")
_COMMENT = re.compile(r"\s*#.*$")


def _rows(objdump_text):
    """(address, instruction without addresses) of each instruction of objdump -d output."""
    out = []
    for line in objdump_text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\t(.*)", line)
        if not m or not m.group(2).strip():
            continue
        ins = _COMMENT.sub("", _RIP.sub("(%rip)", _TARGET.sub(r"\1", m.group(2))))
        out.append((int(m.group(1), 16), " ".join(ins.split())))
    return out


def normalized(objdump_text):
    """The instructions of objdump -d output without their addresses, one per line."""
    return [ins for _, ins in _rows(objdump_text)]


# Padding: the nops that align loop heads (NNUELAB_LOOP_ALIGN) and the segment and
# operand-size prefixes the assembler adds to keep branches off 32-byte boundaries
# (-mbranches-within-32B-boundaries); both depend on where the function sits.
_PREFIXES = re.compile(r"^((cs|ds|es|ss|data16) )+")
_PADDING = re.compile(r"nop[wlq]?( .*)?|xchg %ax,%ax")
_OWN_TARGET = re.compile(r"<(.*)\+0x([0-9a-f]+)>")


def instructions(objdump_text):
    """A function's instructions without padding (see above), its jumps within itself
    aimed at instruction numbers instead of offsets: equal for the same code wherever the
    function sits and however it is padded. objdump_text starts with the function's
    "<address> <name>:" line."""
    head = re.search(r"^([0-9a-f]+) <(.*)>:$", objdump_text, re.M)
    rows = _rows(objdump_text)
    kept, index, pending = [], {}, []
    for at, ins in rows:
        pending.append(at)
        core = _PREFIXES.sub("", ins)
        if _PADDING.fullmatch(core):
            continue
        index.update((a, len(kept)) for a in pending)
        pending = []
        kept.append(core)
    index.update((a, len(kept)) for a in pending)
    if not head:
        return kept
    start, own = int(head.group(1), 16), head.group(2)

    def aim(m):
        return f"<.{index.get(start + int(m.group(2), 16), '?')}>" if m.group(1) == own else m.group(0)
    return [_OWN_TARGET.sub(aim, ins) for ins in kept]


_CALL = re.compile(r"\t(?:(?:bnd|notrack) )?(?:call|jmp)\w*\s+([0-9a-f]+) <([^>]*)>")
MAX_CALLEES = 64  # functions a kernel reaches, itself included, at most (a safety bound)


class _Blocks:
    """Binary.blocks(): where each function's listing starts in objdump's text, found once;
    its lines (the head line, then each instruction before the symbol's end) on first use."""

    def __init__(self, text, starts):
        self._text, self._starts, self._spans, self._lines = text, starts, {}, {}
        heads = [(int(m.group(1), 16), m.start()) for m in re.finditer(r"^([0-9a-f]+) <.*>:$", text, re.M)]
        for (at, begin), (_, end) in zip(heads, heads[1:] + [(None, len(text))]):
            if at in starts:
                self._spans.setdefault(at, (begin, end))

    def __contains__(self, at):
        return at in self._spans

    def __getitem__(self, at):
        if at not in self._lines:
            begin, end = self._spans[at]
            stop = at + self._starts[at][1]
            lines = self._text[begin:end].splitlines()
            kept = lines[:1]
            for line in lines[1:]:
                m = re.match(r"\s*([0-9a-f]+):", line)
                if m and int(m.group(1), 16) < stop:
                    kept.append(line)
            self._lines[at] = kept
        return self._lines[at]


class Binary:
    """The functions of one binary by name (demangled, without the parameter list), and the
    pointer constants that name one (the registry's tech_run_list)."""

    def __init__(self, path):
        self.path = path
        listing = subprocess.run(["nm", "-C", "-S", "--defined-only", path], capture_output=True, text=True,
                                 check=True).stdout
        self.functions, self.data, self.starts = {}, {}, {}
        for line in listing.splitlines():
            f = line.split(" ", 3)
            if len(f) != 4:
                continue
            at, size, name = int(f[0], 16), int(f[1], 16), f[3].split("(")[0]
            if f[2] in ("t", "T", "W", "w"):
                self.functions.setdefault(name, (at, size))
                self.starts.setdefault(at, (name, size))
            elif f[2] in ("d", "D", "r", "R") and size == 8:
                self.data.setdefault(name, at)
        self._blocks = self._relocs = None
        self._forms = {}  # start address: (normalized, instructions) of its block
        self._callees = {}  # start address: the nnuelab functions it calls or jumps to

    def resolve(self, name):
        """The function `name` is, or the one a pointer constant of that name holds (read
        from its R_X86_64_RELATIVE relocation: a PIE's pointers are filled in at load time),
        or None."""
        if name in self.functions:
            return name
        if name not in self.data:
            return None
        if self._relocs is None:
            text = subprocess.run(["objdump", "-R", self.path], capture_output=True, text=True, check=True).stdout
            self._relocs = {int(m.group(1), 16): int(m.group(2), 16) for m in
                            re.finditer(r"^([0-9a-f]+) R_X86_64_RELATIVE\s+\*ABS\*\+0x([0-9a-f]+)", text, re.M)}
        target = self.starts.get(self._relocs.get(self.data[name], -1))
        return target[0] if target else None

    def blocks(self):
        """{start address: objdump -d lines of the function starting there}, every function
        of the binary from one objdump pass (about a second for nnuelab_bench), each cut at
        its symbol's size (the padding after a function changes with where the next one
        starts). A function's lines are split out of the listing when first asked for: a
        few dozen kernels' worth, not the whole binary's."""
        if self._blocks is None:
            text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", self.path], capture_output=True,
                                  text=True, check=True).stdout
            self._blocks = _Blocks(text, self.starts)
        return self._blocks

    def reached(self, at):
        """Start addresses of the function at `at` and of the nnuelab functions it calls or
        jumps to, transitively, in the order first reached. Most registry entries are a few
        instructions and a jump to a template's function: that one holds the kernel."""
        order, todo = [], [at]
        while todo and len(order) < MAX_CALLEES:
            a = todo.pop(0)
            if a in order or a not in self.blocks():
                continue
            order.append(a)
            if a not in self._callees:
                self._callees[a] = [int(m.group(1), 16) for line in self.blocks()[a][1:] if (m := _CALL.search(line))
                                    and "nnuelab::" in m.group(2) and not re.search(r"\+0x[0-9a-f]+$", m.group(2))]
            todo += self._callees[a]
        return order

    def codes(self, names):
        """{name: (address, normalized instructions, instructions without padding, body)}
        of the kernels named that the binary has (a function's name, or a pointer
        constant's: resolve()): each function reached (reached()) in turn, from a line
        naming it; address and body name the largest of them, where its loops are."""
        out = {}
        for name in names:
            fn = self.resolve(name)
            if fn is None:
                continue
            funcs = self.reached(self.functions[fn][0])
            norm, unpadded = [], []
            for a in funcs:
                if a not in self._forms:  # a template's function is reached from many entries
                    block = "\n".join(self.blocks()[a])
                    self._forms[a] = (normalized(block), instructions(block))
                label = [] if a == funcs[0] else [f"<{self.starts[a][0]}>:"]
                norm += label + self._forms[a][0]
                unpadded += label + self._forms[a][1]
            body = max(funcs, key=lambda a: self.starts[a][1]) if funcs else self.functions[fn][0]
            out[name] = (body, norm, unpadded, self.starts[body][0])
        return out

    def code(self, name):
        """codes() of one kernel, or None when the binary has none."""
        return self.codes({name}).get(name)


# Fingerprints carry the rule they were taken by: "r2-" (the entry and every function it
# reaches); those of 2026-12-05 have no prefix (the entry's own instructions only) and are
# not compared with these (tools/regress.py says so).
RULE = "r2-"


def fingerprint(code):
    """A short digest of instructions without padding: equal for the same code wherever it
    sits and however it is padded."""
    return RULE + hashlib.sha1("\n".join(code).encode()).hexdigest()[:16]


def fingerprints(path, bench_names):
    """{benchmark: its kernel's fingerprint} for the names with a kernel found in the binary
    (the timing report's baseline keeps them, to say later whether a moved case's kernel
    changed since)."""
    functions = Binary(path).codes({kernel_function(n) for n in bench_names} - {None})
    return {name: fingerprint(functions[fn][2]) for name in bench_names
            if (fn := kernel_function(name)) in functions}


def compare_builds(path_a, path_b, bench_names):
    """{benchmark: what its kernel did between A and B} for each name: {"function": None}
    when it has no kernel; else the function's name, "A" and "B" its address in each
    (None where that binary lacks it), "same" whether its code is, byte for byte but for
    addresses, "same_unpadded" whether its instructions are without padding, and
    "instructions" their two counts; "body" the function holding the loops when that is
    not the entry itself (Binary.codes: A's, else B's). The code compared is the entry's
    and that of every nnuelab function it reaches; the addresses are the body's."""
    wanted = {kernel_function(n) for n in bench_names} - {None}
    code_a, code_b = Binary(path_a).codes(wanted), Binary(path_b).codes(wanted)
    out = {}
    for name in bench_names:
        fn = kernel_function(name)
        if fn is None:
            out[name] = {"function": None}
            continue
        ca, cb = code_a.get(fn), code_b.get(fn)
        out[name] = {"function": fn, "A": ca and ca[0], "B": cb and cb[0],
                     "same": bool(ca and cb and ca[1] == cb[1]),
                     "same_unpadded": bool(ca and cb and ca[2] == cb[2]),
                     "instructions": [len(ca[2]) if ca else None, len(cb[2]) if cb else None]}
        body = (ca or cb or (None, None, None, None))[3]
        if body is not None and body != fn:
            out[name]["body"] = body
    return out


def describe(entry):
    """One line on a benchmark's kernel for ./lab ab's report."""
    fn = entry.get("function")
    if fn is None:
        return "no kernel function of its own (a floor, peak or reference benchmark)"
    if entry.get("A") is None or entry.get("B") is None:
        side = "either binary" if entry.get("A") == entry.get("B") else \
            f"{'A' if entry.get('A') is None else 'B'}'s binary"
        return f"{fn} not found in {side} (renamed, inlined, added or removed)"
    a, b = entry["A"], entry["B"]
    if isinstance(entry.get("body"), str):
        fn = f"{fn} (its loops in {entry['body']})"
    where = f"at {a:#x} (byte {a % LINE} of its {LINE}-byte line) and {b:#x} (byte {b % LINE})"
    if entry["same"]:
        moved = "in place" if a == b else where
        return (f"{fn}: machine code the same in A and B, {moved}"
                f"{': a change in placement or around the kernel, not in it' if a != b else ''}")
    if entry.get("same_unpadded"):
        return (f"{fn}: the same instructions in A and B, padded differently (loop alignment, prefixes), "
                f"{where}: a change in placement, not in the kernel")
    na, nb = entry["instructions"]
    return f"{fn}: machine code changed ({na} -> {nb} instructions without padding), {where}"


def main(argv):
    """kernel_code.py fingerprint-baseline BASELINE BENCH: adds to a time baseline (compact
    form, results/baseline-timing/) its cases' kernel fingerprints, taken from BENCH, an
    nnuelab_bench built from the commit the baseline was timed on (./lab regress
    --update-timing writes them itself; this is for the baselines made before it did)."""
    import json
    import sys
    if len(argv) != 4 or argv[1] != "fingerprint-baseline":
        print(main.__doc__, file=sys.stderr)
        return 2
    import regress  # the baseline's form and writer (tools/regress.py)
    path, bench = argv[2], argv[3]
    try:
        regress.read_time_baseline(path)
        with open(path) as f:
            c = json.load(f)
        if c.get("format") != regress.BASELINE_FORMAT:
            raise ValueError("not in the compact form the committed baselines have")
        cases = sorted({base_name(k) for k in c["real_time"]})
        c["code"] = fingerprints(bench, cases)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"kernel_code: {path}: {e}", file=sys.stderr)
        return 1
    regress.write_compact(c, path)
    print(f"{path}: {len(c['code'])} of {len(cases)} cases fingerprinted from {bench}")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv))
