#!/usr/bin/python3
"""Writes the committed seed corpus fuzz/corpus/<target>/ (small files only).

Op targets: byte strings the driver (fuzz/driver.h) decodes into shape, pattern and data:
all-zero and all-0xFF (every decision at its lowest / highest), and deterministic random
strings of several lengths. nnue_loader: descriptions of synthetic nets (mode byte 1: the
target builds a whole L1 = 16..64 image from them and edits it), and a raw header prefix
(mode 0). No real .nnue bytes: nets are never committed. fen: well-known public test
positions and edge cases. Re-run after adding a target; existing files are rewritten
identically (fixed seeds).
"""
import os
import random
import struct
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(ROOT, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def op_seeds(target):
    rng = random.Random("nnuelab-" + target)
    write(target, "zeros-64", bytes(64))
    write(target, "ones-64", b"\xff" * 64)
    for i, n in enumerate([16, 48, 128, 256, 512, 1024]):
        write(target, f"random-{i}-{n}", bytes(rng.randrange(256) for _ in range(n)))


def loader_seeds():
    t = "nnue_loader"
    rng = random.Random("nnuelab-loader")
    for i in range(12):  # mode 1 + fuzzer-provided decisions (consumed from the end)
        write(t, f"synthetic-{i}", b"\x01" + bytes(rng.randrange(256) for _ in range(rng.choice([8, 24, 48]))))
    ft = 0x7F234CB8 ^ 32
    header = struct.pack("<IIII", 0x7AF32F20, ft ^ 0x12345678, 5, 0) + b"seed!" + struct.pack("<I", ft)
    write(t, "raw-header-l1-16", b"\x00" + header)
    write(t, "raw-leb128-start", b"\x00" + header + b"COMPRESSED_LEB128" + struct.pack("<I", 16) + bytes(16))
    write(t, "raw-huge-l1", b"\x00" + struct.pack("<IIII", 0x7AF32F20, 0, 0, 0x7F234CB8 ^ 16384))
    # Reproducer of the finding fixed in workloads/nnue.cpp: L1 = 4096 with its biases
    # and nothing else. The loader used to allocate the 184 MB transformer first (over
    # ./lab fuzz's -malloc_limit_mb=128); now it fails on the declared size at once.
    # Regression test: Errors.LoaderChecksDeclaredSizesBeforeAllocating.
    ft4096 = 0x7F234CB8 ^ 8192
    write(t, "regression-declared-size-l1-4096",
          b"\x00" + struct.pack("<IIII", 0x7AF32F20, ft4096 ^ 0x12345678, 0, ft4096) + bytes(8192))


FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "8/8/8/8/8/8/8/K6k w",
    "k7/8/8/8/8/8/8/7K b - - 99 200",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "9/8/8/8/8/8/8/K6k w",
    "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/8/8/8/K6k w",
]


def fen_seeds():
    for i, f in enumerate(FENS):
        write("fen", f"fen-{i}", f.encode())


def main():
    targets = sorted(os.path.splitext(f)[0] for f in os.listdir(ROOT) if f.endswith(".cpp"))
    for t in targets:
        if t == "nnue_loader":
            loader_seeds()
        elif t == "fen":
            fen_seeds()
        else:
            op_seeds(t)
    print(f"seed corpus written for {len(targets)} targets", file=sys.stderr)


if __name__ == "__main__":
    main()
