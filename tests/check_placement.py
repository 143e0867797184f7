#!/usr/bin/python3
"""./lab placement moves a kernel and times it: usage check_placement.py BENCH OUT_DIR

- tools/placement.py's reading of a listing (hand-written objdump lines with real
  encodings): the displacements that leave the function become fields at their byte
  offsets, those that stay in it do not, backward jumps are loops (innermost first), and a
  jump table (indirect jump), a short jump out of the function or a listing with a gap are
  refused.
- Short real runs: a dense kernel (dot1, run), a sparse one given its bitsets (run_bits,
  an entry that jumps to the kernel proper: both copied), find_nnz, dot_u8i8, crelu32
  (run and run_many), ft_refresh and ft_update at two placements each; the bench checks
  each copy's outputs against the original's before timing it, so a run that finishes
  means the copy computed the same bytes.
- A copy spoiled on purpose (NNUELAB_PLACE's patches: its vector adds made subtracts, its
  shift counts changed) is refused on each path that takes a copy: affine run, run_bits
  through an entry and run_list, find_nnz, dot_u8i8, elementwise run and run_many,
  ft_refresh, ft_update.
- --each sweeps the kernels of a filter one after the other and compares them; one it
  cannot sweep is named and skipped, the exit 1.
- The bench refuses a malformed NNUELAB_PLACE before it starts, and bytes at the address
  that are not the described ones (the hash) when the kernel is first called; the tool
  refuses a filter of several kernels and a non-affine one.
Exit 1 on a failure (each a line starting "FAIL  ").
"""
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import types
from checks import check, failures

bench, out_dir = sys.argv[1:3]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import placement  # noqa: E402

LISTING = """
0000000000001000 <f>:
    1000:\t48 8b 05 f9 0f 00 00 \tmov    0xff9(%rip),%rax        # 2000 <k>
    1007:\t48 8d 05 02 00 00 00 \tlea    0x2(%rip),%rax        # 100e <f+0xe>
    100e:\t66 0f 3a 0f 0d 00 01 00 00 08 \tpalignr $0x8,0x100(%rip),%xmm1        # 1118 <k>
    1018:\tff c9                \tdec    %ecx
    101a:\t75 f2                \tjne    100e <f+0xe>
    101c:\te8 df 0f 00 00       \tcall   2000 <g>
    1021:\tc3                   \tret
"""

# A loop (head 1002) whose body leaves for a side path (100e) that jumps back into its
# latch (1006): the backward jmp at 1010 is not a loop of its own, 1006 does not
# dominate it. IRREDUCIBLE: a cycle (1004-1008) entered at its head and, from 1010, at
# 1006: no head dominates it; it is named by 1004, where a depth-first search meets it.
SIDE_PATH = """
    1000:\t31 c0                \txor    %eax,%eax
    1002:\tff c9                \tdec    %ecx
    1004:\t74 08                \tje     100e <f+0xe>
    1006:\tff c2                \tinc    %edx
    1008:\t85 c9                \ttest   %ecx,%ecx
    100a:\t75 f6                \tjne    1002 <f+0x2>
    100c:\tc3                   \tret
    100d:\t90                   \tnop
    100e:\tff c0                \tinc    %eax
    1010:\teb f4                \tjmp    1006 <f+0x6>
"""
# A rotated loop: entered at its test (1008), its top (1004) the backward jump's target.
ROTATED = """
    1000:\t31 c0                \txor    %eax,%eax
    1002:\teb 04                \tjmp    1008 <f+0x8>
    1004:\tff c0                \tinc    %eax
    1006:\tff c9                \tdec    %ecx
    1008:\t85 c9                \ttest   %ecx,%ecx
    100a:\t75 f8                \tjne    1004 <f+0x4>
    100c:\tc3                   \tret
"""
IRREDUCIBLE = """
    1000:\t85 ff                \ttest   %edi,%edi
    1002:\t74 0a                \tje     100e <f+0xe>
    1004:\tff c9                \tdec    %ecx
    1006:\tff c2                \tinc    %edx
    1008:\t75 fa                \tjne    1004 <f+0x4>
    100a:\tc3                   \tret
    100b:\t0f 1f 00             \tnopl   (%rax)
    100e:\tff c0                \tinc    %eax
    1010:\teb f4                \tjmp    1006 <f+0x6>
"""
# A callgrind file in --dump-instr=yes's form: absolute, "+N", "-N" and "*" positions, a
# call whose next line is its inclusive cost (not the caller's own), another object's
# costs, a jump line, and a summary the own costs add up to (1+1+5+5+5+7+2 = 26).
CALLGRIND = """# callgrind format
version: 1
positions: instr line
events: Ir
summary: 26

ob=(1) /lib/other.so
fn=(1) g
0x500 0 1
+2 0 1
ob=(2) /bench
fn=(2) f
0x1002 0 5
+2 0 5
jcnd=4/5 -2 0
* 0
+2 0 5
cob=(1)
cfn=(1)
calls=1 0x500 0
* 0 999
-4 0 7
+8 0 2
"""


def spoiled(kernel):
    """Patches that make the kernel's copy compute other values without touching memory or
    control flow: every vector add of words or dwords becomes a subtract (paddw/paddd ->
    psubw/psubd, opcode 0xfd/0xfe -> 0xf9/0xfa), every float vector multiply an add
    (mulps/mulpd -> addps/addpd, 0x59 -> 0x58), every vector shift by an immediate shifts
    by one more or one less (the last byte)."""
    patches = []
    for at, code, text in kernel.rows:
        mnemonic = text.split()[0] if text else ""
        # The opcode's byte: after 66 [REX] 0f in the legacy form, after the VEX (c5 xx,
        # c4 xx xx) or EVEX (62 xx xx xx) prefix.
        where = {0xc5: 2, 0xc4: 3, 0x62: 4}.get(code[0], code.find(b"\x0f") + 1)
        if re.fullmatch(r"v?padd[wd]", mnemonic) and code[where] in (0xfd, 0xfe):
            patches.append((at - kernel.start + where, bytes([code[where] - 4])))
        elif re.fullmatch(r"v?mulp[sd]", mnemonic) and code[where] == 0x59:
            patches.append((at - kernel.start + where, b"\x58"))  # a float multiply becomes an add
        elif re.fullmatch(r"v?ps[rl][la][wdq]", mnemonic) and "$" in text and code[where] in (0x71, 0x72, 0x73):
            patches.append((at - kernel.start + len(code) - 1, bytes([code[-1] + 1 if code[-1] < 7 else code[-1] - 1])))
    return patches


def refused(text, why):
    try:
        placement.relocation(placement.listing_rows(text), 0x1000, 0x22)
    except placement.PlacementError as e:
        return why in str(e)
    return False


def main():
    rows = placement.listing_rows(LISTING)
    moved = placement.relocation(rows, 0x1000, 0x22)
    check(moved["fields"] == [3, 0x13, 0x1d],
          f"fields of a load, a load with an immediate after it and a call out of the function: {moved['fields']}")
    check(moved["loops"] == [(0xe, 0xe, 0xe, 0x1c)],
          f"the backward jump is a loop at +0xe of 14 bytes, up to +0x1c: {moved['loops']}")
    loops = placement.relocation(placement.listing_rows(SIDE_PATH), 0x1000, 0x12)["loops"]
    check(loops == [(2, 14, 2, 0x12)],
          f"a jump back from a side path into the latch is no loop; the loop at +0x2 holds the side path, 14 bytes: "
          f"{loops}")
    # Its hot path: the side path ran once in ten turns, so each turn runs +0x2 to +0xc.
    rows = placement.listing_rows(SIDE_PATH)
    side = types.SimpleNamespace(start=0x1000, rows=rows, moved={"loops": loops})
    ran = {0x1002: 10, 0x1004: 10, 0x1006: 10, 0x1008: 10, 0x100a: 10, 0x100c: 1, 0x100e: 1, 0x1010: 1}
    path = placement.hot_path(side, ran, 2)
    check(placement.hot_loop(side, ran) == (2, 14, 10) and path == (2, 0xc, [2, 4, 6, 8, 0xa]) and
          placement.per_line(path, 60) == "1+4",
          f"the loop that ran, what ran in each of its turns, and (the function at byte 60) how many of those "
          f"instructions start in each line: {placement.hot_loop(side, ran)}, {path}, "
          f"{placement.per_line(path, 60) if path else None}")
    loops = placement.relocation(placement.listing_rows(ROTATED), 0x1000, 0xd)["loops"]
    check(loops == [(4, 8, 8, 0xc)],
          f"a loop entered at its test starts at its top (+0x4), its head the test (+0x8): {loops}")
    loops = placement.relocation(placement.listing_rows(IRREDUCIBLE), 0x1000, 0x12)["loops"]
    check(loops == [(4, 6, 4, 0xa)],
          f"a cycle entered at two places is one loop, at the entry met first (+0x4, 6 bytes): {loops}")
    counts = placement.read_callgrind(io.StringIO(CALLGRIND), "/bench")
    check(counts == {0x1002: 12, 0x1004: 5, 0x1006: 5, 0x100a: 2},
          f"callgrind's counts per address of the bench's own code, the call's inclusive line left out: {counts}")
    try:
        placement.read_callgrind(io.StringIO(CALLGRIND.replace("summary: 26", "summary: 25")), "/bench")
        why = ""
    except placement.PlacementError as e:
        why = str(e)
    check("add up to 26, its summary says 25" in why, f"counts that miss the summary are refused: {why!r}")
    check(len(moved["code"]) == 0x22 and moved["code"][:3] == bytes([0x48, 0x8b, 0x05]), "the bytes, in order")
    check(moved["tail"] is None, "a function ending in ret has no tail jump")
    wrapper = placement.listing_rows("    1000:\t48 89 d1             \tmov    %rdx,%rcx\n"
                                     "    1003:\te9 f8 0f 00 00       \tjmp    2000 <k>\n")
    check(placement.relocation(wrapper, 0x1000, 8)["tail"] == (4, 0x2000), "a jump out at the end is a tail jump")
    check(refused(LISTING.replace("ff c9                \tdec    %ecx",
                                  "ff e1                \tjmp    *%rcx"), "indirect jump"),
          "an indirect jump is refused")
    check(refused(LISTING.replace("75 f2                \tjne    100e <f+0xe>",
                                  "75 10                \tjne    102c <h>"), "without a 32-bit displacement"),
          "a short jump out of the function is refused")
    check(refused(LISTING.replace("    1018:\tff c9                \tdec    %ecx\n", ""), "gap"),
          "a listing with a gap is refused")

    spread = placement.turn_spread({"a": [{"n": 10}, {"n": 20}], "b": [{"n": 10}, {"n": 11}],
                                    "c": [{"n": 10}, {"n": 12}, {"m": 99}], "d": [{"n": 5}]}, "n")
    check(spread is not None and abs(spread - 1.2) < 1e-9,
          f"the turns' spread is the median over placements of max/min over their turns (1.2): {spread}")

    os.makedirs(out_dir, exist_ok=True)
    for regex, entry in (("^affine/ssse3/dot1/32x32/", False),
                         ("^affine/avx2/sparse_blocked4_bitset_acc1_from_bits/1536x16/chunk:15/", True),
                         ("^find_nnz/avx2/lut16_popcnt/1024c/", None), ("^dot_u8i8/avx2/maddubs_x2/64/", None), ("^crelu32/avx2/packs_shift_imm_lanes/32>>6/", None),
                         ("^crelu32/avx2/packs_shift_imm_lanes/32>>6[+]inlined/", None),
                         ("^ft_refresh/avx2/tiled/256x30/", None), ("^ft_update/avx2/fused_add1_sub1/1024[+]1-1/", None),
                         ("^octav_step/avx2/cmp_mask4/1048576/dense:100/", None),
                         ("^quantize/avx2/round_packs/1048576xi8b8/", None)):
        # One kernel's loops counted under callgrind (when valgrind is installed; the
        # others are not, to save the time).
        counting = "crelu32" in regex and "inlined" in regex and shutil.which("valgrind")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = placement.main([regex, "--step", "32", "--turns", "1", "--repetitions", "1", "--min-time", "0.001",
                                 "--bench", bench] + ([] if counting else ["--no-count"]))
        text = out.getvalue()
        rows = [line for line in text.splitlines() if line.startswith(("as linked", "byte 0", "byte 32"))]
        check(rc == 0 and len(rows) == 3 and all(any(c.isdigit() for c in r.split()[-1]) for r in rows) and
              (entry is None or ("jumps to the kernel proper" in text) == entry),
              f"{regex}: timed as linked and at bytes 0 and 32{', through its entry' if entry else ''} "
              f"(exit {rc}):\n{text[-700:]}")
        if counting:
            # The column names the counted loop: its head's byte in the line as linked.
            kernel, _ = placement.read_kernel(bench, placement.kernel_of(placement.benchmarks(bench, regex)))
            hot = re.search(r"the loop that runs most: \+0x([0-9a-f]+) \((\d+) bytes\), its head executed ([0-9,]+)",
                            text)
            head = int(hot.group(1), 16) if hot else None
            check(hot and (head, int(hot.group(2))) in [lp[:2] for lp in kernel.moved["loops"]] and
                  int(hot.group(3).replace(",", "")) > 0
                  and rows[0].split()[2:4] == ["byte", str((kernel.start + head) % 64)],
                  f"{regex}: the loop that runs most is one of the kernel's loops, and the table's loop head "
                  f"column is its byte as linked:\n{text[-900:]}")
        elif rc == 0:
            check("need not be the one that runs: not counted (--no-count)" in text,
                  f"{regex}: without counts the column is said to be the innermost loop's:\n{text[-500:]}")
    # --lines: the line of the page moves instead, the byte kept.
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        saved = os.path.join(out_dir, "lines.json")
    with contextlib.redirect_stdout(out):
        rc = placement.main(["^affine/ssse3/dot1/32x32/", "--lines", "32", "--turns", "1", "--repetitions", "1",
                             "--min-time", "0.001", "--bench", bench, "--out", saved])
    rows = [line for line in out.getvalue().splitlines() if line.startswith(("line 0", "line 32"))]
    with open(saved) as f:
        kept = json.load(f)
    check(rc == 0 and len(rows) == 2 and kept["sweep"] == "lines" and kept["offsets"]["linked"] is None and
          sorted(int(k) // 64 for k in kept["medians"] if k != "linked")[:1] == [0] and
          32 in [int(k) // 64 for k in kept["medians"] if k != "linked"] and
          all(len(v) == 1 for v in kept["turns"].values()),
          f"--lines 32 times copies at lines 0 and 32 of a page, --out keeps them (exit {rc}):\n"
          f"{out.getvalue()[-500:]}")
    if shutil.which("valgrind"):
        hot = kept.get("hot_loop")
        path = kept.get("hot_path")
        check(rc == 0 and isinstance(hot, list) and len(hot) == 3 and hot[:2] in [lp[:2] for lp in kept["loops"]] and
              hot[2] > 0 and isinstance(path, list) and hot[0] <= path[0] < path[1] and
              len(path[2]) > 0,
              f"--out keeps the loop that runs most (first byte, bytes, executions), one of the kernel's loops, and "
              f"what ran in each of its turns: {hot}, {path} of {kept.get('loops')}")

    # --each: two kernels swept one after the other, then compared.
    out = io.StringIO()
    saved = os.path.join(out_dir, "each.json")
    with contextlib.redirect_stdout(out):
        rc = placement.main(["^affine/ssse3/(dot1|dense_blocked4)/32x32/", "--each", "--step", "32", "--turns", "1",
                             "--repetitions", "1", "--min-time", "0.001", "--bench", bench, "--out", saved,
                             "--no-count"])
    with open(saved) as f:
        kept = json.load(f)
    text = out.getvalue()
    check(rc == 0 and "placement: 2 kernels, swept one after the other" in text and "Every kernel swept" in text and
          "affine/ssse3/dense_blocked4/32x32/dense:100" in text and "affine/ssse3/dot1/32x32/dense:100" in text and
          "32x32/dense:100: fastest as linked" in text and len(kept["kernels"]) == 2 and
          {k["kernel"] for k in kept["kernels"]} == {"nnuelab::ssse3::affine::dot1_run",
                                                     "nnuelab::ssse3::affine::dense_blocked4_run"},
          f"--each sweeps dot1 and dense_blocked4 in turn and compares them (exit {rc}):\n{text[-900:]}")

    # --each goes on past a kernel it cannot sweep, names it and exits 1 (read_kernel made to
    # refuse dot1 here, as it refuses code it cannot move).
    real_read = placement.read_kernel

    def refusing(bench_path, function):
        if function.endswith("dot1_run"):
            raise placement.PlacementError(f"{function}: refused for the check")
        return real_read(bench_path, function)
    placement.read_kernel = refusing
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = placement.main(["^affine/ssse3/(dot1|dense_blocked4)/32x32/", "--each", "--step", "32", "--turns", "1",
                                 "--repetitions", "1", "--min-time", "0.001", "--bench", bench, "--out", saved,
                                 "--no-count"])
    finally:
        placement.read_kernel = real_read
    with open(saved) as f:
        kept = json.load(f)
    check(rc == 1 and "nnuelab::ssse3::affine::dot1_run not swept: " in err.getvalue() and
          "1 of 2 kernels not swept: nnuelab::ssse3::affine::dot1_run" in out.getvalue() and
          [k["kernel"] for k in kept["kernels"]] == ["nnuelab::ssse3::affine::dense_blocked4_run"] and
          kept["not_swept"] == ["nnuelab::ssse3::affine::dot1_run"],
          f"--each sweeps the rest when one kernel is refused, and names it (exit {rc}): "
          f"{err.getvalue()[-300:]} {out.getvalue()[-300:]}")

    def run_bench(place, regex="^affine/ssse3/dot1/32x32/"):
        env = dict(os.environ, NNUELAB_PLACE=place)
        return subprocess.run([bench, "--noise=0", f"--benchmark_filter={regex}",
                               "--benchmark_min_time=0.001"], env=env, capture_output=True, text=True)
    for place, why in (("zz 10 0 0", "NNUELAB_PLACE: bad address 'zz'"),
                       ("1000 10 4096 0", "NNUELAB_PLACE: offset 4096 is not in 0..4095"),
                       ("1000 10 0 0 8", "NNUELAB_PLACE: field 8 is not 4 bytes inside the function"),
                       ("1000", "NNUELAB_PLACE: missing its size"),
                       ("1000 10 0 0; 2000 5 0 1", "NNUELAB_PLACE: the tail field 1 is not one of the entry's fields")):
        p = run_bench(place)
        check(p.returncode != 0 and why in p.stderr, f"'{place}' is refused with \"{why}\": {p.stderr.strip()[-200:]}")
    kernel, entry = placement.read_kernel(bench, "nnuelab::ssse3::affine::dot1_run")
    check(entry is None and kernel.moved["loops"], f"dot1_run is its own kernel, with loops: {kernel.moved['loops']}")
    kernel.moved = dict(kernel.moved, code=kernel.moved["code"][:-1] + b"\0")
    p = run_bench(placement.place_value(kernel, 8))
    check(p.returncode != 0 and "are not the ones described" in p.stderr,
          f"bytes other than the described ones are refused: {p.stderr.strip()[-200:]}")

    # A copy that computes something else must be refused before it is timed, on every
    # path that takes one: affine's run, run_bits (through an entry) and run_list,
    # find_nnz, dot_u8i8, an elementwise run and run_many, ft_refresh, ft_update, octav_step
    # and quantize.
    for regex in ("^affine/ssse3/dot1/32x32/", "^affine/avx2/sparse_blocked4_bitset_acc1_from_bits/1536x16/chunk:15/",
                  "^affine/avx2/sparse_blocked4_lut_x2_from_list/1536x16/chunk:15/",
                  "^find_nnz/avx2/lut16_popcnt/1024c/", "^dot_u8i8/avx2/maddubs_x2/64/",
                  "^crelu32/avx2/packs_shift_imm_lanes/32>>6/", "^crelu32/avx2/packs_shift_imm_lanes/32>>6[+]inlined/",
                  "^ft_refresh/avx2/tiled/256x30/", "^ft_update/avx2/fused_add1_sub1/1024[+]1-1/",
                  "^octav_step/avx2/cmp_mask4/1048576/dense:100/", "^quantize/avx2/round_packs/1048576xi8b8/"):
        kernel, entry = placement.read_kernel(bench, placement.kernel_of(placement.benchmarks(bench, regex)))
        patches = spoiled(kernel)
        p = run_bench(placement.place_value(kernel, 8, entry, patches), regex)
        check(patches and p.returncode != 0 and "its placed copy wrote other outputs than the original" in p.stderr
              and "bytes patched" in p.stderr,
              f"{regex}: a copy with {len(patches)} instructions changed is refused: {p.stderr.strip()[-300:]}")
    kernel, entry = placement.read_kernel(bench, "nnuelab::ssse3::affine::dot1_run")
    p = run_bench(placement.place_value(kernel, 8, entry, [(kernel.size - 1, b"\0\0")]))
    check(p.returncode != 0 and "is not inside the function" in p.stderr,
          f"a patch past the function's end is refused: {p.stderr.strip()[-200:]}")

    for regex, why in (("^affine/ssse3/", "narrow it to one, or sweep each in turn (--each)"),
                       ("^affine/scalar/reference/32x32/", "times no kernel of its own")):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = placement.main([regex, "--bench", bench])
        check(rc == 1 and why in err.getvalue(), f"'{regex}' is refused with \"{why}\": {err.getvalue().strip()}")
    # Every op's bench takes a copy now; an op added without that wiring is refused by name.
    try:
        placement.kernels_of(["newop/avx2/t/64/dense:100"])
        why = ""
    except placement.PlacementError as e:
        why = str(e)
    check("only the benchmarks of affine" in why and "octav_step" in why,
          f"a benchmark of an op whose bench takes no copy is refused: {why!r}")
    return 1 if failures else 0


sys.exit(main())
