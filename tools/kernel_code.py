"""A benchmark's kernel in two builds of nnuelab_bench: whether its machine code changed,
and where it sits. ./lab ab notes this under its table for every benchmark it calls
slower or faster, as a build can move an unchanged kernel and its time with it (on a Zen 5
guest affine/ssse3/dot1 ran 1.8x slower between two builds that left its code byte for
byte the same: docs/ab-runs.md, 2026-12-05).

A benchmark <op>/<isa>/<technique>/<shape>/... times the function
nnuelab::<isa>::<op>::<technique>_run (<isa> with '-' as '_'), its _run_bits for a
*_from_bits technique, _run_list for *_from_list, and _run_many for a "<shape>+inlined"
one; floors, peaks and the scalar references have no kernel of their own. The code is
compared as `objdump -d` prints it with every absolute address left out (jump and call
targets by symbol, RIP-relative data by the symbol objdump names): a moved function whose
instructions are the same compares equal. Only the function's own instructions are
compared, not the functions it calls nor the data it reads. Needs binutils (nm, objdump).
"""
import hashlib
import re
import subprocess

LINE = 64  # bytes in a cache line (and in Zen's op-cache and fetch windows' multiples)


def kernel_function(bench_name):
    """The kernel function a benchmark times (see above), or None when it has none."""
    parts = bench_name.split("/")
    if len(parts) < 4 or parts[0] in ("floor", "peak") or parts[2].startswith("reference"):
        return None
    op, isa, tech, shape = parts[:4]
    suffix = "_run"
    m = re.fullmatch(r"(.+)_from_(bits|list)", tech)
    if m:
        tech, suffix = m.group(1), "_run_" + m.group(2)
    elif shape.endswith("+inlined"):
        suffix = "_run_many"
    return f"nnuelab::{isa.replace('-', '_')}::{op}::{tech}{suffix}"


# objdump's absolute addresses: a jump's or call's target before its <symbol>, a
# RIP-relative displacement, and the address a "#" comment resolves it to.
_TARGET = re.compile(r"\b[0-9a-f]+ (<[^>]*>)")
_RIP = re.compile(r"-?0x[0-9a-f]+\(%rip\)")
_COMMENT = re.compile(r"#\s*[0-9a-f]+\b")


def normalized(objdump_text):
    """The instructions of objdump -d output without their addresses, one per line."""
    out = []
    for line in objdump_text.splitlines():
        m = re.match(r"\s*[0-9a-f]+:\t(.*)", line)
        if not m or not m.group(1).strip():
            continue
        ins = _COMMENT.sub("#", _RIP.sub("(%rip)", _TARGET.sub(r"\1", m.group(1))))
        out.append(" ".join(ins.split()))
    return out


class Binary:
    """The functions of one binary by name (demangled, without the parameter list)."""

    def __init__(self, path):
        self.path = path
        listing = subprocess.run(["nm", "-C", "-S", "--defined-only", path], capture_output=True, text=True,
                                 check=True).stdout
        self.functions = {}
        for line in listing.splitlines():
            f = line.split(" ", 3)
            if len(f) == 4 and f[2] in ("t", "T", "W", "w"):
                self.functions.setdefault(f[3].split("(")[0], (int(f[0], 16), int(f[1], 16)))

    def code(self, name):
        """(address, normalized instructions) of a function, or None when the binary has none."""
        if name not in self.functions:
            return None
        at, size = self.functions[name]
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", f"--start-address={at:#x}",
                               f"--stop-address={at + size:#x}", self.path], capture_output=True, text=True,
                              check=True).stdout
        return at, normalized(text)


def functions_code(binary, wanted):
    """{function name: normalized instructions} of the functions named in `wanted` that a
    Binary has, in one objdump pass over the whole binary (about a second for
    nnuelab_bench), each cut at its symbol's size as code() cuts it (the padding after a
    function changes with where the next one starts)."""
    text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", binary.path], capture_output=True,
                          text=True, check=True).stdout
    out, name, body, end = {}, None, [], 0
    for line in text.splitlines() + [""]:
        head = re.match(r"([0-9a-f]+) <(.*)>:$", line)
        if head or not line:
            if name is not None:
                out.setdefault(name, normalized("\n".join(body)))
            name, body = None, []
            if head and head.group(2).split("(")[0] in wanted:
                name = head.group(2).split("(")[0]
                at, size = binary.functions.get(name, (int(head.group(1), 16), 0))
                end = at + size
        elif name is not None:
            m = re.match(r"\s*([0-9a-f]+):", line)
            if m and int(m.group(1), 16) < end:
                body.append(line)
    return out


def fingerprint(instructions):
    """A short digest of normalized instructions: equal for the same code wherever it sits."""
    return hashlib.sha1("\n".join(instructions).encode()).hexdigest()[:16]


def fingerprints(path, bench_names):
    """{benchmark: its kernel's fingerprint} for the names with a kernel found in the binary
    (the timing report's baseline keeps them, to say later whether a moved case's kernel
    changed since)."""
    wanted = {kernel_function(n) for n in bench_names} - {None}
    functions = functions_code(Binary(path), wanted)
    out = {}
    for name in bench_names:
        fn = kernel_function(name)
        if fn in functions:
            out[name] = fingerprint(functions[fn])
    return out


def compare_builds(path_a, path_b, bench_names):
    """{benchmark: what its kernel did between A and B} for each name: {"function": None}
    when it has no kernel; else the function's name, "A" and "B" its address in each
    (None where that binary lacks it), "same" whether the code is, and "instructions"
    the two counts."""
    a, b = Binary(path_a), Binary(path_b)
    out = {}
    for name in bench_names:
        fn = kernel_function(name)
        if fn is None:
            out[name] = {"function": None}
            continue
        ca, cb = a.code(fn), b.code(fn)
        out[name] = {"function": fn, "A": ca and ca[0], "B": cb and cb[0],
                     "same": bool(ca and cb and ca[1] == cb[1]),
                     "instructions": [len(ca[1]) if ca else None, len(cb[1]) if cb else None]}
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
    where = f"at {a:#x} (byte {a % LINE} of its {LINE}-byte line) and {b:#x} (byte {b % LINE})"
    if entry["same"]:
        moved = "in place" if a == b else where
        return (f"{fn}: machine code the same in A and B, {moved}"
                f"{': a change in placement or around the kernel, not in it' if a != b else ''}")
    na, nb = entry["instructions"]
    return f"{fn}: machine code changed ({na} -> {nb} instructions), {where}"
