#!/usr/bin/python3
"""OCTAV: MSE vs clipping scalar of real layers, with max-scaling, the NNUE constant,
OCTAV's s* and the brute-force best marked, and the MSE-reduction table.

Reads octav_table.csv and octav_curves.csv that `nnuelab_quantize --csv DIR` wrote (./lab
plot runs it on the real nets' fc_0, fc_1 and transformer weights at B = 4 and 8). Writes
DIR/octav.png, DIR/octav.svg, DIR/octav_reduction.csv, and prints the table as Markdown.
Every MSE is the actual MSE of the symmetric quantizer (the `quantize` op).

usage: octav.py [--out DIR]
"""
import argparse
import csv
import datetime
import os
import sys


def read(path):
    try:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"octav.py: cannot read {path}: {e.strerror}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="results/plots")
    a = ap.parse_args()
    table = read(os.path.join(a.out, "octav_table.csv"))
    curves = read(os.path.join(a.out, "octav_curves.csv"))
    if not table or not curves:
        sys.exit("octav.py: empty OCTAV table or curves (no tensors?)")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bits_list = sorted({int(r["bits"]) for r in curves})
    tensors = []
    for r in curves:
        if r["tensor"] not in tensors:
            tensors.append(r["tensor"])
    rows = {(r["tensor"], int(r["bits"])): r for r in table}
    fig, axes = plt.subplots(len(tensors), len(bits_list), figsize=(5.2 * len(bits_list), 2.9 * len(tensors)),
                             squeeze=False)
    for i, t in enumerate(tensors):
        for j, b in enumerate(bits_list):
            ax = axes[i][j]
            pts = [(float(r["s"]), float(r["mse"])) for r in curves if r["tensor"] == t and int(r["bits"]) == b]
            ax.plot([p[0] for p in pts], [max(p[1], 1e-18) for p in pts], color="0.3", lw=1)
            ax.set_yscale("log")
            r = rows.get((t, b))
            if r:
                xmax = pts[-1][0]
                marks = [("max|x|", float(r["max_s"]), "tab:gray", "--"),
                         ("NNUE", float(r["nnue_s"]), "tab:red", ":"),
                         ("OCTAV s*", float(r["octav_s"]), "tab:blue", "-"),
                         ("sweep best", float(r["sweep_s"]), "tab:green", "-.")]
                for label, s, color, ls in marks:
                    if s <= xmax:
                        ax.axvline(s, color=color, ls=ls, lw=1.2, label=label)
                    else:  # the NNUE constant of the transformer (258) is far off the axis
                        ax.annotate(f"{label} s={s:.3g} ->", xy=(0.98, 0.04), xycoords="axes fraction", ha="right",
                                    color=color, fontsize=8)
            ax.set_title(f"{t}, B = {b}", fontsize=9)
            ax.set_xlabel("clipping scalar s", fontsize=8)
            ax.set_ylabel("MSE", fontsize=8)
            ax.tick_params(labelsize=7)
            if i == 0 and j == 0:
                ax.legend(fontsize=7, loc="upper center")
    fig.suptitle("OCTAV: MSE vs clipping scalar, symmetric quantizer (step s / (2^(B-1) - 1)), "
                 + datetime.date.today().isoformat(), fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(a.out, f"octav.{ext}"), dpi=110)

    # The reduction table: every tensor and B of the table.
    out_rows = []
    for r in table:
        octav, mx, nnue, sweep = (float(r[k]) for k in ("octav_mse", "max_mse", "nnue_mse", "sweep_mse"))
        # A baseline with MSE 0 (the NNUE constant on its own weights' grid) cannot be reduced.
        red = lambda m: f"{(1 - octav / m) * 100:.1f}" if m > 0 else "baseline exact (MSE 0)"
        gap = (octav / sweep - 1) * 100 if sweep > 0 else float("inf")
        out_rows.append([r["tensor"], r["bits"], f"{float(r['octav_s']):.4g}", r["iterations"], f"{octav:.3e}",
                         red(mx), red(nnue), f"{gap:.3f}"])
    head = ["tensor", "B", "OCTAV s*", "iterations", "OCTAV MSE", "reduction vs max-scaling %",
            "reduction vs NNUE constant %", "gap to sweep %"]
    with open(os.path.join(a.out, "octav_reduction.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(out_rows)
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in out_rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
