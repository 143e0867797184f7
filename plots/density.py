#!/usr/bin/python3
"""The density box plot of real first-layer inputs (the seed document's figure, reproduced).

For every trace (one row of L1 bytes per position of positions.epd: Stockfish's recordings
in <data>/traces, and those `./lab trace` wrote to results/traces), the per-position byte
density (non-zero bytes / L1) and 4-byte-chunk density (non-zero chunks / (L1 / 4)), as
boxes (25-75%) with whiskers at 1 and 99%, per net and split by position source; the
numbers go to a CSV and a Markdown table, compared with the seed's claim of <= 15%.

usage: density.py [--data DIR] [--traces DIR] [--out DIR]
"""
import argparse
import csv
import os
import re
import sys

import numpy as np

# positions-sources.tsv names, shortened for axis labels
SHORT = {"sf_bench": "sf-bench", "UHO_4060_v4": "UHO", "popularpos_lichess_v3": "lichess", "closedpos": "closed", "endgames": "endgames"}

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def find_traces(data, traces):
    """[(label, L1, path)], Stockfish's own recordings first, one per net."""
    found = {}
    known = {"nn-5af11540bbfe": 1536, "nn-1c0000000000": 3072}
    for net, l1 in known.items():
        p = os.path.join(data, "traces", net + ".u8")
        if os.path.exists(p):
            found[net] = (l1, p)
    if os.path.isdir(traces):
        for name in sorted(os.listdir(traces)):
            m = re.match(r"^(nn-[0-9a-f]+)\.L1-(\d+)\.u8$", name)  # permuted traces are left out
            if m and m.group(1) not in found:
                found[m.group(1)] = (int(m.group(2)), os.path.join(traces, name))
    return sorted(((net, l1, p) for net, (l1, p) in found.items()), key=lambda t: t[1])


def densities(path, l1):
    rows = np.fromfile(path, dtype=np.uint8)
    if rows.size == 0 or rows.size % l1:
        raise SystemExit(f"density.py: {path} is not whole rows of {l1} bytes")
    rows = rows.reshape(-1, l1)
    byte = (rows != 0).mean(axis=1)
    chunk = (rows.reshape(rows.shape[0], -1, 4) != 0).any(axis=2).mean(axis=1)
    return byte * 100, chunk * 100


def sources(data, n):
    path = os.path.join(data, "positions-sources.tsv")
    if not os.path.exists(path):
        return ["all"] * n
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    names = [r[1] for r in rows if len(r) >= 2 and r[0].isdigit()]
    return names[:n] if len(names) >= n else ["all"] * n


def stats(x):
    p = np.percentile(x, [1, 25, 50, 75, 99])
    return dict(n=len(x), p1=p[0], p25=p[1], median=p[2], p75=p[3], p99=p[4], mean=float(np.mean(x)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.environ.get("NNUELAB_DATA", os.path.join(ROOT, "..", "shared", "data")))
    ap.add_argument("--traces", default=os.environ.get("NNUELAB_TRACES", os.path.join(ROOT, "results", "traces")))
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "plots"))
    a = ap.parse_args()
    traces = find_traces(a.data, a.traces)
    if not traces:
        raise SystemExit("density.py: no traces found (the data folder's traces/, or run ./lab trace)")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(a.out, exist_ok=True)
    table = []
    per_net = []
    for net, l1, path in traces:
        byte, chunk = densities(path, l1)
        src = np.array(sources(a.data, len(byte)))
        per_net.append((net, l1, byte, chunk, src))
        for name in ["all"] + sorted(set(src) - {"all"}):
            sel = np.ones(len(byte), bool) if name == "all" else src == name
            for kind, x in (("byte", byte[sel]), ("chunk", chunk[sel])):
                table.append(dict(net=net, l1=l1, source=name, density=kind, **stats(x)))

    csv_path = os.path.join(a.out, "density.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
        w.writeheader()
        for r in table:
            w.writerow({k: (f"{v:.2f}" if isinstance(v, float) else v) for k, v in r.items()})

    # Figure: per net, byte and chunk boxes side by side; second panel split by source.
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5), gridspec_kw={"width_ratios": [1, 2]})
    ax = axes[0]
    data, labels, colors = [], [], []
    for net, l1, byte, chunk, _ in per_net:
        data += [byte, chunk]
        labels += [f"{l1}\nbyte", f"{l1}\nchunk"]
        colors += ["#4c72b0", "#dd8452"]
    bp = ax.boxplot(data, whis=(1, 99), showfliers=False, patch_artist=True, labels=labels)
    for patch, c in zip(bp["boxes"], colors):
        patch.set_facecolor(c)
    ax.axhline(15, color="red", ls="--", lw=1, label="seed's claim: <= 15%")
    ax.tick_params(axis="x", labelsize=8)
    ax.set_xlabel("L1 of the net / density kind")
    ax.set_ylabel("density of the first affine layer's input (%)")
    ax.set_title("per net (box 25-75%, whiskers 1-99%)")
    ax.legend(handles=[bp["boxes"][0], bp["boxes"][1], ax.lines[-1]], labels=["byte density", "4-byte-chunk density", "seed's claim: <= 15%"], fontsize=8)
    ax = axes[1]
    srcs = sorted(set(per_net[0][4]) - {"all"}) or ["all"]
    data, labels, colors = [], [], []
    for net, l1, byte, chunk, src in per_net:
        for s in srcs:
            sel = src == s if s != "all" else np.ones(len(byte), bool)
            data.append(chunk[sel])
            labels.append(f"{l1} {SHORT.get(s, s[:8])}")
            colors.append("#dd8452")
    bp = ax.boxplot(data, whis=(1, 99), showfliers=False, patch_artist=True, labels=labels)
    for patch, c in zip(bp["boxes"], colors):
        patch.set_facecolor(c)
    ax.axhline(15, color="red", ls="--", lw=1)
    ax.tick_params(axis="x", labelsize=7, labelrotation=60)
    ax.set_xlabel("L1 of the net, position source")
    ax.set_ylabel("4-byte-chunk density (%)")
    ax.set_title("chunk density by position source (L1 / source)")
    fig.suptitle(f"Real input density of the first affine layer, {len(per_net[0][2])} positions of positions.epd "
                 f"(Stockfish nets; traces from the lab's forward pass, byte-identical to Stockfish's)", fontsize=10)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(a.out, "density." + ext), dpi=110)
    plt.close(fig)

    print("| net | L1 | density | p1 | p25 | median | p75 | p99 | <= 15% at median? |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in table:
        if r["source"] != "all":
            continue
        print(f"| {r['net']} | {r['l1']} | {r['density']} | {r['p1']:.1f} | {r['p25']:.1f} | {r['median']:.1f} | "
              f"{r['p75']:.1f} | {r['p99']:.1f} | {'yes' if r['median'] <= 15 else 'no'} |")
    print(f"wrote {os.path.join(a.out, 'density.png')}, .svg and {csv_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
