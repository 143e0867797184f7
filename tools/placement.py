"""./lab placement: a kernel timed with its machine code at each chosen byte of a 64-byte
line (or line of a page), beside where the linker put it.

A build decides where each kernel's loops fall in the cache lines, and with them, on some
cores, its time: on a Zen 5 guest affine/ssse3/dot1 ran 1.8x slower with its inner loop's
head in the first bytes of a line (docs/findings/zen5.md). This tool reads the kernel a
benchmark times (kernel_code.kernel_function) from nnuelab_bench with nm and objdump:
the 4-byte RIP-relative displacements that leave the function (constant loads, calls,
tail jumps), its switches' jump tables, and whether it is a registry entry that jumps to
the kernel proper (then both are moved). It runs the bench once per placement and turn
with NNUELAB_PLACE set, so that the bench copies the function to that offset of a fresh
page (16 MiB multiples from its own: only the offset in the page differs in the low 24
address bits), re-aims those fields and times the copy (bench/placement.h; the copy must
first write the original's outputs). The default sweep moves the byte within the
kernel's own line of a page; --lines moves the line within the page at the kernel's own
byte. The copy at the linked offset is always timed too: it differs from the original
only in its high address bits and neighbours. Placements run round robin, the order
reversed every other turn; each placement's time is the median over turns of a turn's
fastest repetition. --each lets the filter select several kernels: each is swept in
turn, and a summary ranks them as linked and at their fastest and slowest placements,
beside how much the turns of one placement (fresh processes) differ.

The table's "loop head" column is where the head of the loop that runs most falls in its
line: the loops are the function's natural loops (natural_loops: a backward jump whose
target does not dominate it, as from a side path into a shared latch, is none), and one
short run of the same benchmarks under valgrind's callgrind (--dump-instr) counts how
often each head runs (before the sweep; --no-count skips it, and then the column is the
innermost loop's, which need not run at all).

What it cannot move: the functions the kernel calls and the data it reads stay where they
are. A function with an indirect jump other than a bounded jump table, or a short jump
out of itself, is refused. Every op's benchmarks take a placed copy (PLACEABLE_OPS:
affine, find_nnz, dot_u8i8, the elementwise ops, ft_refresh, ft_update, octav_step and
quantize); a benchmark of an op not listed is refused.
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "plots"))
from results import ResultError, base_name, given_of, parse  # noqa: E402  (the one reader of the name grammar)
from common import at_least, cpu_model, number_in, pin_command  # noqa: E402
import ab  # noqa: E402  (its turn order and per-turn reading)
import kernel_code  # noqa: E402
import regress  # noqa: E402  (its escaping of benchmark names for a filter)

LINE = kernel_code.LINE
PAGE = 4096  # x86-64's base page: map_near in bench/placement.cpp keeps the offset in it
BENCH = os.path.join(ROOT, "build", "default", "bench", "nnuelab_bench")
# The benches that pass their kernels through bench::placed() (and check the copy's outputs).
PLACEABLE_OPS = ("affine", "find_nnz", "dot_u8i8", "crelu16", "crelu32", "crelu32_pair", "sqr_crelu32", "quantmoid4", "pool_avg2",
                 "pool_max2", "pool_product2", "ft_output", "ft_refresh", "ft_update", "octav_step", "quantize")


class PlacementError(Exception):
    pass


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return h


_ROW = re.compile(r"\s*([0-9a-f]+):\t((?:[0-9a-f]{2} )+)\s*\t?(.*)$")
_BRANCH = re.compile(r"(?:(?:bnd|notrack) )?(j[a-z]+|call[a-z]*|loop[a-z]*)\s+([0-9a-f]+)(?: <.*>)?$")
_RIP = re.compile(r"(-?)0x([0-9a-f]+)\(%rip\)")
_INDIRECT = re.compile(r"(?:(?:bnd|notrack) )?jmp[a-z]*\s+\*")


def listing_rows(objdump_text):
    """(address, bytes, instruction text) of each instruction of `objdump -d
    --insn-width=16` output."""
    rows = []
    for line in objdump_text.splitlines():
        m = _ROW.match(line)
        if m:
            rows.append((int(m.group(1), 16), bytes.fromhex(m.group(2).replace(" ", "")), m.group(3).strip()))
    return rows


def relocation(rows, start, size):
    """What moving the function of these rows takes: {"fields": offsets of its 4-byte
    displacements that leave it, "loops": natural_loops() (without a switch's cases, not
    known here: Piece reads them and finds the loops again), "code": its bytes, "tail":
    (field, target) when its last instruction is a jump out of it (a tail call), else None,
    "tables": its switches' (lea field, table address, entries), "switches": {indirect
    jump: (table address, entries)}}; PlacementError when it cannot be moved (an indirect
    jump, a short jump or an unreadable displacement that leaves it)."""
    end = start + size
    code = bytearray()
    fields, tail, tables, switches, seen = [], None, [], {}, []
    for at, raw, text in rows:
        if not start <= at < end:
            continue
        if at != start + len(code):
            raise PlacementError(f"objdump's listing has a gap at {at:#x}")
        code += raw
        after = at + len(raw)
        where = f"+{at - start:#x} ({text})"
        tail = None
        seen.append((at, after, text))
        if _INDIRECT.match(text) and "(%rip)" not in text:  # through a GOT slot: an absolute target
            tables.append(jump_table(seen, start, end, where))
            switches[at] = tables[-1][1:]
            continue
        b = _BRANCH.match(text)
        if b:
            target = int(b.group(2), 16)
            if start <= target < end:
                continue
            if len(raw) < 5 or struct.unpack("<i", raw[-4:])[0] != target - after:
                raise PlacementError(f"a jump out of the function without a 32-bit displacement at {where}")
            fields.append(after - 4 - start)
            if b.group(1) == "jmp":
                tail = (after - 4 - start, target)
            continue
        r = _RIP.search(text)
        if r:
            disp = int(r.group(2), 16) * (-1 if r.group(1) else 1)
            if start <= after + disp < end:
                continue  # its own code: moves with it
            enc = struct.pack("<i", disp)
            # The displacement is followed by an immediate of 0, 1, 2 or 4 bytes at most.
            spots = [p for p in range(len(raw) - 3) if raw[p:p + 4] == enc and len(raw) - p - 4 in (0, 1, 2, 4)]
            if len(spots) != 1:
                raise PlacementError(f"cannot tell where the displacement is in {where}")
            fields.append(at + spots[0] - start)
    if len(code) != size:
        raise PlacementError(f"objdump listed {len(code)} of the function's {size} bytes")
    table_fields = {f for f, _, _ in tables}
    return {"fields": [f for f in fields if f not in table_fields], "loops": natural_loops(rows, start, size),
            "code": bytes(code), "tail": tail, "tables": tables, "switches": switches}


_TABLE_LEA = re.compile(r"(?:(?:cs|ds) )*lea\s+(-?)0x([0-9a-f]+)\(%rip\),%r")
_BOUND = re.compile(r"cmp[lq]?\s+\$0x([0-9a-f]+),%")


def jump_table(seen, start, end, where):
    """(offset of the lea's displacement, table address, entries) of the switch whose
    indirect jump ends `seen` (the instructions so far), in GCC's form: "cmp $N,%i; ja
    default; lea TABLE(%rip),%t; movslq (%t,%i,4),%x; add %t,%x; jmp *%x", N + 1 entries
    of 4 bytes, each the target's distance from the table; PlacementError otherwise."""
    lea = bound = None
    for k in range(len(seen) - 2, max(-1, len(seen) - 16), -1):
        at, after, text = seen[k]
        m = _TABLE_LEA.match(text)
        if lea is None and m:
            disp = int(m.group(2), 16) * (-1 if m.group(1) else 1)
            if not start <= after + disp < end:
                lea = (after - 4 - start, after + disp)
        b = _BOUND.match(text)
        if lea is not None and b and k + 1 < len(seen) and seen[k + 1][2].startswith("ja "):
            bound = int(b.group(1), 16) + 1
            break
    if lea is None or bound is None:
        raise PlacementError(f"an indirect jump at {where} that is not a bounded jump table")
    return (lea[0], lea[1], bound)


_STOP = re.compile(r"(?:(?:bnd|notrack|rep|repz) )?(?:ret[a-z]*|ud2|hlt|int3)\b")


def natural_loops(rows, start, size, cases=None):
    """The function's loops, innermost (fewest bytes) first: [(offset of its first byte,
    bytes of its body, its head's offset, offset past its last byte)]; the first byte is
    the head's but in a loop
    entered at its test (GCC's rotated loops: the top, which the build aligns, is the
    target of the test's backward jump). A loop is the natural loop of the edges back to
    one head: an edge from an
    instruction to one that every path from the function's start to it passes through (the
    head dominates it); its body, the head and every instruction that reaches an edge's
    source without passing the head. A backward jump into another path's code (into a
    shared latch, or to a shared exit) is no loop: its target does not dominate it. A
    cycle with two entries (no head dominates it) is named by the entry a depth-first
    search from the start meets first.
    `cases`: {address of an indirect jump: its targets} (a switch's cases); code reached
    only through an indirect jump not in it is not searched for loops."""
    end = start + size
    insts = [(at, len(raw), text) for at, raw, text in rows if start <= at < end]
    index = {at: i for i, (at, _, _) in enumerate(insts)}
    succ = []
    for i, (at, n, text) in enumerate(insts):
        nxt = [i + 1] if i + 1 < len(insts) else []
        b = _BRANCH.match(text)
        if b:
            target = int(b.group(2), 16)
            inside = start <= target < end
            if inside and target not in index:
                raise PlacementError(f"a jump into the middle of an instruction at +{at - start:#x} ({text})")
            if b.group(1).startswith("call"):
                succ.append(nxt)
            elif b.group(1) == "jmp":
                succ.append([index[target]] if inside else [])
            else:
                succ.append(nxt + ([index[target]] if inside else []))
        elif _INDIRECT.match(text):
            succ.append([index[t] for t in (cases or {}).get(at, ()) if t in index])
        elif _STOP.match(text):
            succ.append([])
        else:
            succ.append(nxt)
    if not insts:
        return []
    # Reverse postorder from the start, then each instruction's immediate dominator
    # (Cooper, Harvey and Kennedy's iteration; a few thousand instructions at most).
    # An edge to an instruction still on the search's stack is a retreating edge: every
    # cycle has one.
    order, seen, stack, open_, retreating = [], {0}, [(0, iter(succ[0]))], {0}, []
    while stack:
        node, it = stack[-1]
        for s in it:
            if s in open_:
                retreating.append((node, s))
            elif s not in seen:
                seen.add(s)
                open_.add(s)
                stack.append((s, iter(succ[s])))
                break
        else:
            order.append(node)
            open_.discard(node)
            stack.pop()
    order.reverse()
    rank = {v: k for k, v in enumerate(order)}
    preds = {v: [] for v in order}
    for v in order:
        for s in succ[v]:
            preds[s].append(v)
    idom = {0: 0}

    def meet(a, b):
        while a != b:
            while rank[a] > rank[b]:
                a = idom[a]
            while rank[b] > rank[a]:
                b = idom[b]
        return a
    changed = True
    while changed:
        changed = False
        for v in order[1:]:
            done = [p for p in preds[v] if p in idom]
            new = done[0]
            for p in done[1:]:
                new = meet(p, new)
            if idom.get(v) != new:
                idom[v], changed = new, True

    def dominates(h, v):
        while v != h and v != 0:
            v = idom[v]
        return v == h

    def reach(frm, step, within=None):
        out, todo = set(), [frm]
        while todo:
            u = todo.pop()
            if u not in out and (within is None or u in within):
                out.add(u)
                todo += step(u)
        return out
    bodies = {}
    for v, h in retreating:
        if dominates(h, v):  # a natural loop: what reaches v without passing h
            bodies.setdefault(h, {h}).update(reach(v, lambda u: [] if u == h else preds[u]))
        else:
            # A cycle entered at more than one place (irreducible, rare from GCC): its
            # head is where the search entered it; the body, what lies on a path from h
            # to v.
            bodies.setdefault(h, {h}).update(reach(v, lambda u: preds[u], reach(h, lambda u: succ[u])))
    loops = [(min(insts[u][0] for u in body) - start, sum(insts[u][1] for u in body), insts[h][0] - start,
              max(insts[u][0] + insts[u][1] for u in body) - start) for h, body in bodies.items()]
    return sorted(loops, key=lambda x: (x[1], x[0]))


class Piece:
    """One function of the bench: name, link address, size and relocation()."""

    def __init__(self, bench, binary, name, start=None):
        if start is None and name not in binary.functions:
            raise PlacementError(f"{bench} has no function {name}")
        self.name = name
        self.start, self.size = (start, binary.starts[start][1]) if start is not None else binary.functions[name]
        if self.size == 0:
            raise PlacementError(f"the symbol table gives {name} no size")
        text = subprocess.run(["objdump", "-d", "--insn-width=16", f"--start-address={self.start:#x}",
                               f"--stop-address={self.start + self.size:#x}", bench], capture_output=True, text=True,
                              check=True).stdout
        self.rows = rows = listing_rows(text)
        self.moved = relocation(rows, self.start, self.size)
        heads = {at for at, _, _ in rows}
        cases = {}
        for jump, (table, count) in self.moved["switches"].items():
            cases[jump] = [table + e for e in struct.unpack(f"<{count}i", read_bytes(bench, table, 4 * count))]
            for target in cases[jump]:
                if target not in heads:
                    raise PlacementError(f"{name}: its jump table at {table:#x} leads to {target:#x}, not an "
                                         f"instruction of the function")
        if cases:  # the loops again, now with the cases' code reached
            self.moved["loops"] = natural_loops(rows, self.start, self.size, cases)

    def value(self):
        """Its part of NNUELAB_PLACE after the address and size: hash, fields and tables
        (t<lea field>:<table address>:<entries>)."""
        return " ".join([f"{fnv1a(self.moved['code']):x}"] + [str(f) for f in self.moved["fields"]] +
                        [f"t{f}:{t:x}:{n}" for f, t, n in self.moved["tables"]])


def read_bytes(bench, address, n):
    """n bytes of the bench's file at link address `address` (in a section with contents)."""
    heads = subprocess.run(["objdump", "-h", bench], capture_output=True, text=True, check=True).stdout
    for m in re.finditer(r"^\s*\d+ (\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", heads, re.M):
        size, vma, offset = (int(m.group(i), 16) for i in (2, 3, 4))
        if vma <= address and address + n <= vma + size and m.group(1) != ".bss":
            with open(bench, "rb") as f:
                f.seek(offset + address - vma)
                return f.read(n)
    raise PlacementError(f"no section of {bench} holds {n} bytes at {address:#x}")


def read_kernel(bench, function):
    """(kernel, entry): the Pieces to move for the benchmarks calling `function` (demangled,
    no parameters). A function without loops whose last instruction jumps to the start of
    another function is an entry (a registry wrapper): the kernel is that function, and
    both are copied; otherwise the kernel is `function` and the entry None."""
    binary = kernel_code.Binary(bench)
    first = Piece(bench, binary, binary.resolve(function) or function)  # _run_list: the function it holds
    tail = first.moved["tail"]
    if first.moved["loops"] or not tail:
        return first, None
    starts = {at: name for at, (name, _) in binary.starts.items()}
    if tail[1] not in starts:
        return first, None
    if first.moved["tables"]:
        raise PlacementError(f"{function} has a jump table and ends in a jump out: not followed")
    kernel = Piece(bench, binary, starts[tail[1]], tail[1])
    if not kernel.moved["loops"] and kernel.moved["tail"] and kernel.moved["tail"][1] in starts:
        raise PlacementError(f"{function} jumps to {kernel.name}, which jumps on to "
                             f"{starts[kernel.moved['tail'][1]]}: two levels of entries are not followed")
    return kernel, first


def executions(bench, selected):
    """(counts, None), counts being {link address: times executed} of the bench's own
    instructions over one short run of the benchmarks `selected` (a filter) as linked,
    under valgrind's callgrind, whose --dump-instr gives each instruction's Ir: one per
    execution; or (None, why not) without valgrind, when the run fails or when its file
    does not read right (read_callgrind: the counts must add up to the file's summary)."""
    valgrind = shutil.which("valgrind")
    if not valgrind:
        return None, "valgrind is not installed (Debian: apt-get install valgrind)"
    env = dict(os.environ)
    env.pop("NNUELAB_PLACE", None)
    env.setdefault("NNUELAB_DATA", os.path.join(ROOT, "..", "shared", "data"))
    with tempfile.TemporaryDirectory(prefix="nnuelab-placement-count-") as d:
        out = os.path.join(d, "cg.out")
        p = subprocess.run([valgrind, "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}", bench,
                            f"--benchmark_filter={selected}", "--benchmark_min_time=0.01",
                            "--benchmark_repetitions=1", "--noise=0"], env=env, capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(out):
            return None, f"the bench failed under callgrind (exit {p.returncode}): {p.stderr.strip()[-200:]}"
        try:
            with open(out) as f:
                return read_callgrind(f, os.path.realpath(bench)), None
        except PlacementError as e:
            return None, str(e)


def read_callgrind(lines, binary):
    """{address: Ir} of `binary`'s instructions from a callgrind file written with
    --dump-instr=yes (positions "instr" or "instr line"; a position is absolute, "+N" or
    "-N" from the last cost line's, or "*" the same; the cost line after a "calls=" line is
    the call's inclusive cost, not the caller's own). PlacementError when the own costs do
    not add up to the file's summary."""
    positions, names, ob, inclusive, total, summary = None, {}, None, False, 0, None
    last, counts = [], {}
    for line in lines:
        c = line[0] if line else ""
        if c.isdigit() or c in "+-*":
            if positions is None:
                raise PlacementError("callgrind's file has cost lines before its positions line")
            f = line.split()
            at = []
            for k, tok in enumerate(f[:len(positions)]):
                prev = last[k] if k < len(last) else 0
                at.append(prev if tok == "*" else prev + int(tok[1:], 0) if tok[0] == "+" else
                          prev - int(tok[1:], 0) if tok[0] == "-" else int(tok, 0))
            last = at
            ir = int(f[len(positions)]) if len(f) > len(positions) else 0
            if inclusive:
                inclusive = False
                continue
            total += ir
            if ob == binary and ir:
                counts[at[0]] = counts.get(at[0], 0) + ir
        elif line.startswith("calls="):
            inclusive = True
        elif line.startswith(("ob=", "cob=")):
            m = re.match(r"c?ob=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if not m:
                raise PlacementError(f"callgrind's file has an object line it cannot read: {line.strip()}")
            if m.group(2):
                names[m.group(1)] = os.path.realpath(m.group(2)) if os.path.exists(m.group(2)) else m.group(2)
            if line.startswith("ob="):
                ob = names.get(m.group(1))
        elif line.startswith("positions:"):
            positions = line.split()[1:]
            if positions[0] != "instr":
                raise PlacementError(f"callgrind's file gives no instruction addresses (positions: {positions})")
        elif line.startswith(("summary:", "totals:")) and summary is None:
            summary = int(line.split()[1])
    if summary is None or total != summary:
        raise PlacementError(f"callgrind's file read wrong: its own costs add up to {total}, its summary says "
                             f"{summary}")
    return counts


def hot_path(kernel, counts, top):
    """(first offset, offset past the end, [offset of each instruction]) of what ran in the
    kernel's loop starting at `top` at least half as often as its head (in a loop with a
    side path, what each turn runs; the body counts the side path too), or None."""
    loop = next((lp for lp in kernel.moved["loops"] if lp[0] == top), None)
    if loop is None or not counts:
        return None
    floor = counts.get(kernel.start + loop[2], 0) / 2
    ran = [(at - kernel.start, at - kernel.start + len(raw)) for at, raw, _ in kernel.rows
           if kernel.start + top <= at < kernel.start + loop[3] and counts.get(at, 0) >= floor > 0]
    return (ran[0][0], ran[-1][1], [a for a, _ in ran]) if ran else None


def per_line(path, offset):
    """How many of a hot path's instructions start in each 64-byte line it touches, the
    function at `offset` (of a page or line): "14+2"."""
    lines = {}
    for at in path[2]:
        lines[(offset + at) // LINE] = lines.get((offset + at) // LINE, 0) + 1
    return "+".join(str(lines.get(k, 0)) for k in range(min(lines), max(lines) + 1))


def hot_loop(kernel, counts):
    """(offset of its first byte, body bytes, executions of its head) of the kernel's loop
    whose head ran most in `counts` (a head runs once per turn of its loop, an inner loop's
    more often than its outer loop's), or None when none ran."""
    ran = [(counts.get(kernel.start + h, 0), -n, top) for top, n, h, _ in kernel.moved["loops"]] if counts else []
    best = max(ran, default=(0, 0, 0))
    return (best[2], -best[1], best[0]) if best[0] else None


def place_value(kernel, offset, entry=None, patches=()):
    """NNUELAB_PLACE for the kernel at byte `offset` of a page, called through entry's copy;
    patches: (offset in the kernel, bytes) written over its copy (checks only)."""
    value = f"{kernel.start:x} {kernel.size} {offset} {kernel.value()}"
    value += "".join(f" p{at}:{data.hex()}" for at, data in patches)
    if entry:
        value += f"; {entry.start:x} {entry.size} {fnv1a(entry.moved['code']):x} {entry.moved['tail'][0]} " + \
            " ".join(str(f) for f in entry.moved["fields"])
    return value


def benchmarks(bench, regex):
    p = subprocess.run([bench, "--benchmark_list_tests=true", f"--benchmark_filter={regex}"], capture_output=True,
                       text=True)
    if p.returncode != 0:
        raise PlacementError(f"the bench refused the filter: {p.stderr.strip()[-300:]}")
    return [base_name(n) for n in p.stdout.split()]


def fields(name):
    """The grammar fields of a benchmark's name (results.parse of its base name), with
    `case`: <shape>/<kind>:<pct>, what the report's columns and groups are headed by."""
    p = parse(base_name(name))
    if p is None:
        raise PlacementError(f"{name} is not a benchmark name of the form op/isa/technique/shape/kind:percent")
    return dict(p, case=f"{p['shape']}/{p['kind']}:{p['pct']}")


def kernels_of(names):
    """{kernel function: [the benchmarks named that time it]}, in the order first named;
    PlacementError for a benchmark without a kernel of its own or not placeable."""
    funcs = {}
    for n in names:
        f = kernel_code.kernel_function(n)
        if f is None:
            raise PlacementError(f"{n} times no kernel of its own (a floor, a peak or a reference)")
        if fields(n)["op"] not in PLACEABLE_OPS:
            raise PlacementError(f"{n}: only the benchmarks of {', '.join(PLACEABLE_OPS)} run a placed copy")
        funcs.setdefault(f, []).append(n)
    return funcs


def kernel_of(names):
    """The one kernel function the benchmarks named time; PlacementError otherwise."""
    funcs = kernels_of(names)
    if len(funcs) != 1:
        some = sorted(funcs)
        raise PlacementError(f"the filter selects benchmarks of {len(some)} kernels ({', '.join(some[:3])}"
                             f"{', ...' if len(some) > 3 else ''}): narrow it to one, or sweep each in turn "
                             f"(--each)")
    return next(iter(funcs))


def exactly(names):
    """A benchmark filter selecting these benchmarks (base names) and no other (regress's
    escaping: the bench takes POSIX extended expressions, where re.escape's "\\-" is an
    invalid escape)."""
    return "^(" + "|".join(regress.ere_escape(n) for n in names) + ")(/|$)"


def run_turns(args, bench, sides, work, selected):
    """{side: [{benchmark: ns} per turn]}; sides: [(key, NNUELAB_PLACE or None)]; selected:
    the benchmark filter."""
    flags = [f"--benchmark_filter={selected}", f"--benchmark_min_time={args.min_time}",
             f"--benchmark_repetitions={args.repetitions}", "--benchmark_out_format=json", "--noise=0"]
    pin, how = pin_command([], 1)
    print(f"placement: {len(sides)} placements x {args.turns} turns, {how}", flush=True)
    keys = [k for k, _ in sides]
    places = dict(sides)
    times = {k: [] for k in keys}
    for t in range(args.turns):
        for key in ab.turn_order(keys, t):  # ab's order: as given, reversed every other turn
            place = places[key]
            env = dict(os.environ)
            env.pop("NNUELAB_PLACE", None)
            if place is not None:
                env["NNUELAB_PLACE"] = place
            env.setdefault("NNUELAB_DATA", os.path.join(ROOT, "..", "shared", "data"))
            out = os.path.join(work, f"{key}-{t}.json")
            p = subprocess.run(pin + [bench, *flags, f"--benchmark_out={out}"], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            if p.returncode != 0:
                raise PlacementError(f"the bench failed at {key} (exit {p.returncode}): {p.stderr.strip()[-400:]}")
            if place is not None and "nnuelab_place: copied to" not in p.stderr:
                raise PlacementError(f"the bench never called the kernel at {key}: nothing was placed (a "
                                     f"variant this CPU lacks, or its benchmarks skipped: {p.stderr.strip()[-200:]})")
            times[key].append(ab.turn_times(out, "min"))
        print(f"turn {t + 1}/{args.turns} done", flush=True)
    return times


def turn_spread(times, name):
    """How far the time moves between the turns of one placement (each a fresh process)
    while the placement stays: the median over placements of max/min over its turns; None
    with fewer than two turns. The median, as one slow turn somewhere is not the rule."""
    ratios = [max(v) / min(v) for ts in times.values() if len(v := [t[name] for t in ts if name in t]) > 1]
    return statistics.median(ratios) if ratios else None


def report(kernel, entry, names, keys, medians, lines=False, times=None, hot=None, path=None, why="not counted"):
    """hot, path: the kernel's hot_loop() and hot_path(), or None (why: why there are no
    counts, or None when the counted run did not run the kernel's loops)."""
    start, moved = kernel.start, kernel.moved
    loops = ", ".join(f"+{top:#x} ({n} bytes)" for top, n, _, _ in moved["loops"][:4]) or "none"
    if len(moved["loops"]) > 4:
        loops += f" and {len(moved['loops']) - 4} more"
    if entry:
        print(f"\n{entry.name} ({entry.size} bytes) jumps to the kernel proper; both are copied, the entry to "
              f"its own offset in the pages after the kernel's")
    print(f"\n{kernel.name}: {len(moved['code'])} bytes, linked at {start:#x} (byte {start % LINE} of line "
          f"{start % PAGE // LINE} of its page); "
          f"loops (first byte, bytes of its body), innermost first: {loops}; {len(moved['fields'])} displacement(s) "
          f"re-aimed")
    head = hot[0] if hot else moved["loops"][0][0] if moved["loops"] else None
    if hot:
        print(f"the loop that runs most: +{hot[0]:#x} ({hot[1]} bytes), its head executed {hot[2]:,} times in a "
              f"short run under callgrind; the 'loop head' column places its first byte" +
              (f"; what runs each turn (at least half as often as its head): +{path[0]:#x} to +{path[1]:#x}, "
               f"{path[1] - path[0]} bytes, {len(path[2])} instructions, the 'per line' column how many of them "
               f"start in each 64-byte line it touches" if path else ""))
    elif head is not None:
        why = why or "callgrind's run never executed the kernel's loops (a variant valgrind's CPU lacks?)"
        print(f"the 'loop head' column is the innermost loop's, which need not be the one that runs: {why}")
    print(f"CPU: {cpu_model()}; ns per call, median over turns of each turn's fastest repetition\n")
    short = [fields(n)["case"] for n in names]
    width = max(12, *(len(s) for s in short))
    print(f"{'placement':<20}{'loop head':>10}{'per line' if path else '':>10}  " +
          "  ".join(f"{s:>{width}}" for s in short))
    for key in keys:
        offset = start % PAGE if key == "linked" else int(key)
        at = "-" if head is None else f"byte {(offset + head) % LINE}"
        label = "as linked" if key == "linked" else \
            (f"line {offset // LINE}" if lines else f"byte {offset % LINE}") + \
            (" (linked's)" if offset == start % PAGE else "")
        cells = []
        for n in names:
            v = medians[key].get(n)
            base = medians["linked"].get(n)
            cells.append("-" if v is None else f"{v:,.1f}" + (f" {v / base:5.2f}x" if base and key != "linked" else ""))
        print(f"{label:<20}{at:>10}{per_line(path, offset) if path else '':>10}  " +
              "  ".join(f"{c:>{width}}" for c in cells))
    for n, s in zip(names, short):
        vals = [medians[k][n] for k in keys if k != "linked" and n in medians[k]]
        if vals:
            lo, hi = min(vals), max(vals)
            print(f"{s}: placed copies {lo:,.1f} to {hi:,.1f} ns ({hi / lo:.2f}x between the fastest and "
                  f"slowest placement)")
            within = turn_spread(times or {}, n)
            if within is not None:
                print(f"{' ' * len(s)}  the turns of one placement (fresh processes) differ by {within:.2f}x "
                      f"(median over placements)" +
                      (": the placements' spread is within that, not shown to be the placement's"
                       if hi / lo <= within else ""))


def sweep(args, function, names, work):
    """One kernel's sweep: {"kernel", "entry", "keys", "sides", "times", "medians"}."""
    kernel, entry = read_kernel(args.bench, function)
    # Copies start at the kernel's own byte of its own line of a page (the linked
    # placement: a copy there differs from the original only in address bits 24 and up)
    # but for what is swept: the byte in that line (--step), or the line in the page
    # (--lines), the other kept.
    own_line, own_byte = kernel.start % PAGE // LINE * LINE, kernel.start % LINE
    offsets = [own_line + b for b in range(0, LINE, args.step)] if not args.lines else \
        [line * LINE + own_byte for line in range(0, PAGE // LINE, args.lines)]
    keys = ["linked"] + [str(o) for o in sorted(set(offsets) | {kernel.start % PAGE})]
    sides = [("linked", None)] + [(k, place_value(kernel, int(k), entry)) for k in keys[1:]]
    times = run_turns(args, args.bench, sides, work, exactly(names))
    medians = {k: {n: statistics.median([t[n] for t in ts if n in t]) for n in names if any(n in t for t in ts)}
               for k, ts in times.items()}
    return {"kernel": kernel, "entry": entry, "keys": keys, "sides": sides, "times": times, "medians": medians}


def summary(swept):
    """--each: per benchmark, as linked, the copy at the linked offset, the fastest and
    slowest copies; then per shape and density (the *_from_bits and *_from_list forms
    apart: they are given their nnz) which kernel is fastest as linked, at its fastest
    placement and at its slowest, and which kernels beat the one with the best slowest
    placement at some placement of theirs: a winner that changes with the placement is the
    build's layout's, not the code's."""
    rows = []
    for s in swept:
        own = str(s["kernel"].start % PAGE)
        for n, linked in s["medians"]["linked"].items():
            copies = {k: m[n] for k, m in s["medians"].items() if k != "linked" and n in m}
            if copies:
                rows.append((n, linked, copies.get(own), min(copies.values()), max(copies.values()),
                             turn_spread(s.get("times", {}), n)))
    if not rows:
        return
    width = max(len(r[0]) for r in rows)
    print("\nEvery kernel swept, ns per call: as linked, its copy at the linked offset, the fastest and "
          "slowest copies, their spread, and the spread between the turns (fresh processes) of one "
          "placement (median over placements); '*' where the placements' spread is within the turns': "
          "not shown to be the placement's\n")
    print(f"{'benchmark':<{width}}  {'linked':>9}  {'copy':>9}  {'fastest':>9}  {'slowest':>9}  spread   turns")
    for n, linked, own, lo, hi, within in rows:
        copy = "-" if own is None else f"{own:,.1f}"
        turns = "     -" if within is None else f"{within:5.2f}x" + ("*" if hi / lo <= within else "")
        print(f"{n:<{width}}  {linked:>9,.1f}  {copy:>9}  {lo:>9,.1f}  {hi:>9,.1f}  {hi / lo:5.2f}x  {turns}")
    parsed = {r[0]: fields(r[0]) for r in rows}  # each name read once

    def tech(r):
        return parsed[r[0]]["tech"]
    groups = {}
    for r in rows:
        given = given_of(tech(r))
        where = parsed[r[0]]["case"] + (f", given the {given}" if given else "")
        groups.setdefault(where, []).append(r)

    def named(r, i):
        return f"{tech(r)} {r[i]:,.1f}"
    for where, rs in groups.items():
        if len(rs) < 2:
            continue
        linked, fastest, slowest = (min(rs, key=lambda r: r[i]) for i in (1, 3, 4))
        same = linked[0] == fastest[0] == slowest[0]
        # A winner that "moves" because one kernel's time jumps between processes at a
        # single placement says nothing of placement.
        unsure = sorted({tech(r) for r in (linked, fastest, slowest)
                         if r[5] is not None and r[4] / r[3] <= r[5]})
        verdict = "the same kernel" if same else "the winner moves with placement" + \
            (f", or from run to run: {', '.join(unsure)} moves as much between turns of one placement"
             if unsure else "")
        print(f"\n{where}: fastest as linked {named(linked, 1)}, at its fastest placement {named(fastest, 3)}, at "
              f"its slowest {named(slowest, 4)}: {verdict}")
        rivals = [r for r in sorted(rs, key=lambda r: r[3]) if r is not slowest and r[3] < slowest[4]]
        if rivals:
            print(f"  beating {tech(slowest)}'s slowest placement ({slowest[4]:,.1f}) at some placement: " +
                  ", ".join(f"{tech(r)} ({r[3]:,.1f}-{r[4]:,.1f})" for r in rivals))


def main(argv):
    ap = argparse.ArgumentParser(prog="./lab placement", description=__doc__.split("\n\n")[0])
    ap.add_argument("filter", help="benchmark regex selecting the benchmarks of one kernel (of several with --each)")
    ap.add_argument("--each", action="store_true",
                    help="the filter may select several kernels: each is swept in turn, then a summary compares them")
    ap.add_argument("--step", type=at_least(1), default=8,
                    help="copies at every STEP-th byte of the kernel's own line of a page (8)")
    ap.add_argument("--lines", type=at_least(1), metavar="STEP",
                    help="instead: copies at every STEP-th line of a page, at the kernel's own byte of a line")
    ap.add_argument("--turns", type=at_least(1), default=3)
    ap.add_argument("--repetitions", type=at_least(1), default=3)
    ap.add_argument("--min-time", type=number_in("a time in seconds > 0", 0, 60, above=True), default=0.05)
    ap.add_argument("--no-count", action="store_true",
                    help="skip the short callgrind run that finds the loop that runs most (the table's loop "
                         "head is then the innermost loop's)")
    ap.add_argument("--bench", default=BENCH)
    ap.add_argument("--out", metavar="FILE", help="also write the times as JSON (every turn, and the medians)")
    args = ap.parse_args(argv)
    try:
        if platform.machine() not in ("x86_64", "AMD64"):
            raise PlacementError(f"reads x86-64 code only (this machine: {platform.machine()})")
        re.compile(args.filter)
        names = benchmarks(args.bench, args.filter)
        if not names:
            raise PlacementError(f"'{args.filter}' selects no benchmark")
        funcs = kernels_of(names) if args.each else {kernel_of(names): names}
        if len(funcs) > 1:
            print(f"placement: {len(funcs)} kernels, swept one after the other", flush=True)
        swept, skipped = [], []
        counted = (None, "not counted (--no-count)") if args.no_count else executions(args.bench, exactly(names))
        with tempfile.TemporaryDirectory(prefix="nnuelab-placement-") as work:
            for function, its in funcs.items():
                try:
                    s = sweep(args, function, its, work)
                except PlacementError as e:
                    if len(funcs) == 1:
                        raise
                    # --each: one kernel that cannot be moved (or whose copy is refused)
                    # does not cost the others' sweeps; it is named, and the exit is 1.
                    print(f"placement: {function} not swept: {e}", file=sys.stderr, flush=True)
                    skipped.append(function)
                    continue
                s["hot"] = hot_loop(s["kernel"], counted[0])
                s["path"] = hot_path(s["kernel"], counted[0], s["hot"][0]) if s["hot"] else None
                report(s["kernel"], s["entry"], its, s["keys"], s["medians"], bool(args.lines), s["times"], s["hot"],
                       s["path"], counted[1])
                swept.append(s)
        if len(swept) > 1:
            summary(swept)
        if skipped:
            print(f"\nplacement: {len(skipped)} of {len(funcs)} kernels not swept: {', '.join(skipped)}")
        if args.out:
            kept = [{"kernel": s["kernel"].name, "entry": s["entry"].name if s["entry"] else None,
                     "linked": s["kernel"].start, "loops": s["kernel"].moved["loops"],
                     "hot_loop": s["hot"], "hot_path": s["path"],
                     "offsets": {k: v for k, v in s["sides"]}, "turns": s["times"], "medians": s["medians"]}
                    for s in swept]
            with open(args.out, "w") as f:
                json.dump(dict(kept[0], kind="nnuelab-placement", cpu=cpu_model(),
                               sweep="lines" if args.lines else "bytes") if not args.each else
                          {"kind": "nnuelab-placement", "cpu": cpu_model(), "sweep": "lines" if args.lines else "bytes",
                           "kernels": kept, "not_swept": skipped}, f, indent=1)
            print(f"placement: wrote {args.out}")
        if skipped:
            return 1
    except (PlacementError, ResultError) as e:
        print(f"placement: {e}", file=sys.stderr)
        return 1
    except re.error as e:
        print(f"placement: '{args.filter}' is not a regular expression: {e}", file=sys.stderr)
        return 2
    except kernel_code.FAILURES as e:
        print(f"placement: {kernel_code.why_failed(e)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
