#!/usr/bin/python3
"""Charts of one or more ./lab bench result files (PNG + SVG + the chart's data as CSV).

    plots/plot.py [--out DIR] [RESULT.json ...]     (default: the newest bench run in results/)

Several files (several machines) are drawn side by side: one column of subplots per
file, or one bar per file, labelled by CPU. Every chart is titled with CPU, compiler and
date. Emulated variants (isa *-emu, label "emulated") are never drawn: their times are not
speed. Charts:
  affine_density_<shape>  time per call vs density for every affine variant of an input
                          layer, dense variants as flat lines, the sparse/dense crossover
  find_nnz_density        nnz extraction (lsb, lookup table, bitset, compress): ns per 1024
                          inputs vs density
  dot_u8i8_isa            dpbusd vs maddubs+madd vs two maddubs in int16, per ISA
  isa_speedup_peak        per ISA and op: speedup over the scalar reference, % of MAC peak
  byte_vs_chunk           byte vs 4-byte-chunk density, and what each kind of skipping costs
Needs Debian's python3-matplotlib and python3-numpy.
"""
import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results as R  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ISA_ORDER = ["scalar", "sse2", "ssse3", "sse41", "avx2", "avxvnni", "avx512bw", "avx512vnni", "avx512vbmi2", "neon"]
ISA_STYLE = {"scalar": ":", "sse2": (0, (1, 1)), "ssse3": ":", "sse41": ":", "avx2": "-", "avxvnni": "-.",
             "avx512bw": "--", "avx512vnni": "--", "avx512vbmi2": (0, (5, 1, 1, 1))}
MARKERS = "os^vD<>ph*Xd"
# Enough distinct colours for ~40 variants in one legend (tab20, then tab20b).
PALETTE = [plt.get_cmap("tab20")(i) for i in range(20)] + [plt.get_cmap("tab20b")(i) for i in range(20)]


def isa_key(isa):
    return ISA_ORDER.index(isa) if isa in ISA_ORDER else len(ISA_ORDER)


def is_sparse_affine(r):
    return r.tech.startswith("sparse")


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


class Chart:
    """One written chart: its files and what it shows (report.py lists these)."""

    def __init__(self, name, title, description, out_dir):
        self.name, self.title, self.description = name, title, description
        self.png = os.path.join(out_dir, name + ".png")
        self.svg = os.path.join(out_dir, name + ".svg")
        self.csv = os.path.join(out_dir, name + ".csv")
        self.notes = []        # findings printed with the chart (crossovers), one line each
        self.crossovers = []   # the same as dicts, for the report's table

    @property
    def paths(self):
        return [self.png, self.svg, self.csv]


def save(fig, chart, header, rows):
    fig.savefig(chart.png, dpi=110, bbox_inches="tight")
    fig.savefig(chart.svg, bbox_inches="tight")
    plt.close(fig)
    with open(chart.csv, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def suptitle(fig, what, files):
    """The chart's title: what it shows, then CPU | compiler | date of each file."""
    lines = [what] + [f.title for f in files]
    fig.suptitle("\n".join(lines), fontsize=11, y=1.0 + 0.012 * len(files))


def density_series(results, kind):
    """(pct, ns) points of one variant along one density kind; dense:100 stands in for 100%
    (every byte uniform 0..127: 99%+ non-zero)."""
    pts = {}
    for r in results:
        if r.kind == kind or (r.kind == "dense" and r.pct == 100 and 100 not in pts):
            pts[r.pct] = r.time
    return sorted(pts.items())


def crossover(best_sparse, dense_ns):
    """The density where the best sparse variant starts to beat the best dense one, going
    down from 100%: linear interpolation between the grid points around the crossing.
    Returns (pct, how): pct None when sparse never wins; 100 when it wins everywhere."""
    wins = [i for i, (_, t) in enumerate(best_sparse) if t < dense_ns]
    if not wins:
        return None, "dense wins at every measured density"
    i = wins[-1]
    if i == len(best_sparse) - 1:
        return best_sparse[i][0], "sparse wins at every measured density"
    (p0, t0), (p1, t1) = best_sparse[i], best_sparse[i + 1]
    p = p0 + (dense_ns - t0) * (p1 - p0) / (t1 - t0) if t1 != t0 else p0
    return p, f"sparse wins below {p:.1f}% (interpolated between the grid points {p0:g}% and {p1:g}%)"


def variant_styles(results):
    """Colour and marker per variant, the same in every subplot (sorted by ISA, then name)."""
    names = sorted_variants(results)
    return {v: (PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)]) for i, v in enumerate(names)}


def sorted_variants(results):
    """The results' variant names (op/isa/technique), sorted by ISA, then name."""
    isa = {r.variant: r.isa for r in results}
    return sorted(isa, key=lambda v: (isa_key(isa[v]), v))


def short(variant):
    """isa/technique: the legend's name of a variant (the op is in the title)."""
    return variant.partition("/")[2]


def no_data(ax, text):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9, color="0.4", wrap=True)


def density_axes(ax, xlabel, ylabel, title):
    """The density charts' axes: log-log, the grid's densities as plain ticks (0.5 ... 100)."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([0.5, 1, 2, 5, 10, 15, 20, 30, 50, 75, 100])
    ax.get_xaxis().set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)


# ---- 1. affine: time per call vs density ------------------------------------------------
def chart_affine_density(files, out_dir):
    shapes = []
    for rf in files:
        for r in rf.select("affine"):
            if r.kind in ("chunk", "byte") and r.shape not in shapes:
                shapes.append(r.shape)
    charts = []
    for shape in shapes:
        chart = Chart(f"affine_density_{shape}", f"affine {shape}: time per call vs input density",
                      f"Every native affine variant at {shape}: sparse variants as lines over the density grid, "
                      "dense variants as flat lines (their time does not depend on the input), and the density "
                      "below which the best sparse variant beats the best dense one (vertical line).", out_dir)
        kinds = [k for k in ("chunk", "byte") if any(r.kind == k for rf in files for r in rf.select("affine", shape=shape))]
        styles = variant_styles(r for rf in files for r in rf.select("affine", shape=shape) if not r.is_reference)
        fig, axes = plt.subplots(len(kinds), len(files), figsize=(7.5 * len(files), 4.8 * len(kinds)),
                                 squeeze=False, sharey="row")
        rows = []
        handles = {}
        for col, rf in enumerate(files):
            res = [r for r in rf.select("affine", shape=shape) if not r.is_reference]
            dense = {r.variant: r for r in res if not is_sparse_affine(r) and r.kind == "dense"}
            by_variant = {}
            for r in res:
                if is_sparse_affine(r):
                    by_variant.setdefault(r.variant, []).append(r)
            for row, kind in enumerate(kinds):
                ax = axes[row][col]
                best = {}
                for v, rs in sorted(by_variant.items(), key=lambda kv: (isa_key(kv[1][0].isa), kv[0])):
                    pts = density_series(rs, kind)
                    if not pts:
                        continue
                    isa = rs[0].isa
                    h, = ax.plot([p for p, _ in pts], [t for _, t in pts], color=styles[v][0], lw=1.3,
                                 ls=ISA_STYLE.get(isa, "-"), marker=styles[v][1], ms=3.5, label=short(v))
                    handles.setdefault(short(v), h)
                    for p, t in pts:
                        best[p] = min(best.get(p, t), t)
                        rows.append([rf.label, shape, kind, v, "sparse", p, f"{t:.2f}"])
                for v, r in sorted(dense.items(), key=lambda kv: (isa_key(kv[1].isa), kv[0])):
                    h = ax.axhline(r.time, color=styles[v][0], lw=1.3, ls=(0, (6, 3)), label=f"{short(v)} (dense)")
                    handles.setdefault(f"{short(v)} (dense)", h)
                    rows.append([rf.label, shape, kind, v, "dense", "any", f"{r.time:.2f}"])
                if dense and best:
                    d_var, d = min(dense.items(), key=lambda kv: kv[1].time)
                    p, how = crossover(sorted(best.items()), d.time)
                    note = f"affine {shape}, {kind} density, {rf.label}: {how}; best dense {d_var} {d.time:.1f} ns"
                    chart.notes.append(note)
                    chart.crossovers.append(dict(machine=rf.label, shape=shape, kind=kind, pct=p, how=how,
                                                 dense=d_var, dense_ns=d.time))
                    rows.append([rf.label, shape, kind, "crossover", "", f"{p:.2f}" if p is not None else "none", ""])
                    if p is None:
                        ax.text(0.02, 0.97, "no crossover: dense wins at every measured density", color="crimson",
                                transform=ax.transAxes, va="top", fontsize=9)
                    else:
                        ax.axvline(p, color="crimson", lw=2, alpha=0.7)
                        ax.annotate(f"crossover\n{p:.1f}%", (p, 0.96), xycoords=("data", "axes fraction"),
                                    ha="right" if p > 20 else "left", va="top", color="crimson", fontsize=9,
                                    xytext=(-4 if p > 20 else 4, 0), textcoords="offset points")
                if not best and not dense:
                    no_data(ax, "no native results")
                density_axes(ax, f"{kind} density (% of {'4-byte chunks' if kind == 'chunk' else 'bytes'} non-zero; "
                                 "100 = dense input)", "time per call (ns, log)", f"{rf.label}: {kind}-independent inputs")
        suptitle(fig, chart.title, files)
        fig.legend(list(handles.values()), list(handles.keys()), loc="upper left", bbox_to_anchor=(1.0, 0.95),
                   fontsize=7.5, title="affine variant (line style: isa;\ndashed flat: dense)", title_fontsize=8)
        fig.tight_layout()
        save(fig, chart, ["machine", "shape", "density_kind", "variant", "class", "density_pct", "ns_per_call"], rows)
        charts.append(chart)
    return charts


# ---- 2. find_nnz: ns per 1024 inputs vs density -----------------------------------------
NNZ_FAMILY = [("compress", "tab:purple"), ("bitset", "tab:green"), ("lut", "tab:blue"), ("lsb", "tab:red"),
              ("reference", "black"), ("branch", "0.5")]


def nnz_styles(results):
    """Colour per variant by family (shades within it), marker per variant; the same in every subplot."""
    results = list(results)  # read twice below; callers pass generators
    tech_of = {r.variant: r.tech for r in results}
    seen, out = {}, {}
    for i, v in enumerate(sorted_variants(results)):
        tech = tech_of[v]
        base = next((c for key, c in NNZ_FAMILY if key in tech), None)
        k = seen[base] = seen.get(base, -1) + 1
        color = tuple(x * (1 - 0.25 * (k % 3)) for x in matplotlib.colors.to_rgb(base)) if base else PALETTE[i % 20]
        out[v] = (color, MARKERS[i % len(MARKERS)])
    return out


def ns_per_1024(r):
    v = r.counter("ns_per_1024_inputs")
    if v:
        return v
    n = int("".join(ch for ch in r.shape if ch.isdigit()) or 1024)
    return r.time * 1024 / n


def chart_find_nnz(files, out_dir):
    chart = Chart("find_nnz_density", "nnz extraction: lsb vs lookup table vs bitset vs compress",
                  "Time to list the non-zero chunks (4-byte form) and bytes (byte form) of one input, normalised "
                  "to ns per 1024 input bytes, against the density of the form it lists. "
                  "Colours: lsb (tzcnt+blsr walk) red, lookup table blue, bitset green, compress purple, scalar grey/black.",
                  out_dir)
    sizes = sorted({int(r.shape[:-1]) for rf in files for r in rf.select("find_nnz") if r.shape[:-1].isdigit()})
    if not sizes:
        return []
    n = 1024 if 1024 in sizes else sizes[0]
    forms = [("c", "chunk", "chunk form: non-zero 4-byte chunks"), ("b", "byte", "byte form: non-zero bytes")]
    fig, axes = plt.subplots(2, len(files), figsize=(7.5 * len(files), 9.5), squeeze=False, sharey="row")
    rows, handles = [], {}
    styles = nnz_styles(r for rf in files for r in rf.select("find_nnz") if r.shape[:-1] == str(n))
    for col, rf in enumerate(files):
        for row, (suffix, kind, what) in enumerate(forms):
            ax = axes[row][col]
            res = rf.select("find_nnz", shape=f"{n}{suffix}")
            by_variant = {}
            for r in res:
                by_variant.setdefault(r.variant, []).append(r)
            for v, rs in sorted(by_variant.items(), key=lambda kv: (isa_key(kv[1][0].isa), kv[0])):
                pts = sorted({r.pct if r.kind == kind else 100.0: ns_per_1024(r)
                              for r in rs if r.kind == kind or r.kind == "dense"}.items())
                if not pts:
                    continue
                h, = ax.plot([p for p, _ in pts], [t for _, t in pts], color=styles[v][0],
                             ls=ISA_STYLE.get(rs[0].isa, "-"), marker=styles[v][1], ms=4, lw=1.4, label=short(v))
                handles.setdefault(short(v), h)
                rows += [[rf.label, f"{n}{suffix}", kind, v, p, f"{t:.2f}"] for p, t in pts]
            if not by_variant:
                no_data(ax, "no native results")
            density_axes(ax, f"{kind} density (% non-zero; 100 = dense input)", "ns per 1024 input bytes (log)",
                         f"{rf.label}: {what}, n = {n}")
    suptitle(fig, chart.title, files)
    fig.legend(list(handles.values()), list(handles.keys()), loc="upper left", bbox_to_anchor=(1.0, 0.95),
               fontsize=8, title="find_nnz variant (line style: isa)", title_fontsize=8)
    fig.tight_layout()
    save(fig, chart, ["machine", "shape", "density_kind", "variant", "density_pct", "ns_per_1024_inputs"], rows)
    return [chart]


# ---- 3. dot_u8i8: dpbusd vs maddubs+madd vs the int16 trick, per ISA ---------------------
DOT_FAMILY = [("dpbusds", "dpbusds (saturating)", "tab:purple"),
              ("dpbusd", "dpbusd (VNNI; scalar: the exact reference)", "tab:green"),
              ("maddubs_x2", "two maddubs summed in int16", "tab:orange"), ("maddubs", "maddubs+madd", "tab:blue")]


def dot_family(tech):
    for key, label, color in DOT_FAMILY:
        if tech.startswith(key) or tech.startswith("reference_" + key) or (key == "dpbusd" and tech == "reference"):
            return label, color
    return tech, "0.5"


def chart_dot(files, out_dir):
    chart = Chart("dot_u8i8_isa", "dot_u8i8: dpbusd vs maddubs+madd vs two maddubs in int16, per ISA",
                  "The 4-byte group dot (two inputs per lane per call) in GMAC/s for each native variant, grouped by "
                  "ISA; scalar bars are the references of each semantics. Emulated variants are left out: an "
                  "ISA missing here was not run natively on that machine.", out_dir)
    shapes = []
    for rf in files:
        for r in rf.select("dot_u8i8"):
            if r.shape not in shapes:
                shapes.append(r.shape)
    if not shapes:
        return []
    shapes.sort(key=lambda s: int(s) if s.isdigit() else 0)
    fig, axes = plt.subplots(len(shapes), len(files), figsize=(8 * len(files), 3.6 * len(shapes)), squeeze=False)
    rows, handles = [], {}
    for col, rf in enumerate(files):
        for row, shape in enumerate(shapes):
            ax = axes[row][col]
            res = rf.select("dot_u8i8", shape=shape)
            isas = sorted({r.isa for r in res}, key=isa_key)
            x, labels = 0.0, []
            for isa in isas:
                group = sorted((r for r in res if r.isa == isa), key=lambda r: (dot_family(r.tech)[0], r.tech))
                start = x
                for r in group:
                    fam, color = dot_family(r.tech)
                    gm = (r.counter("macs") or 0) / 1e9
                    h = ax.bar(x, gm, width=0.8, color=color, edgecolor="black", lw=0.4, label=fam)
                    handles.setdefault(fam, h)
                    ax.text(x, gm, r.tech, rotation=90, fontsize=6.5, ha="center", va="bottom")
                    rows.append([rf.label, shape, isa, r.tech, fam, f"{r.time:.2f}", f"{gm:.2f}"])
                    x += 1
                labels.append(((start + x - 1) / 2, isa))
                x += 0.8
            if not res:
                no_data(ax, "no native results")
            elif not any(r.tech.startswith("dpbusd") for r in res):
                ax.text(0.01, 0.97, "no native VNNI ISA here: SIMD dpbusd not measured (emulated runs are not speed)",
                        transform=ax.transAxes, va="top", fontsize=8, color="0.35")
            ax.set_xticks([p for p, _ in labels])
            ax.set_xticklabels([l for _, l in labels])
            ax.set_xlabel("ISA (native only)")
            ax.set_ylabel("GMAC/s (higher is better)")
            ax.set_title(f"{rf.label}: {shape} groups of 4 bytes per call", fontsize=9)
            ax.grid(True, axis="y", alpha=0.3)
            ax.margins(y=0.35)
    suptitle(fig, chart.title, files)
    fig.legend(list(handles.values()), list(handles.keys()), loc="upper left", bbox_to_anchor=(1.0, 0.95),
               fontsize=8, title="technique", title_fontsize=8)
    fig.tight_layout()
    save(fig, chart, ["machine", "groups", "isa", "technique", "family", "ns_per_call", "gmac_per_s"], rows)
    return [chart]


# ---- 4. per-ISA bars for every op: speedup over the reference, % of MAC peak --------------
def isa_summary(rf):
    """{op: {isa: (geomean speedup, geomean % of peak or None, points)}}: at every (shape,
    density) point the ISA's best variant, then the geometric mean over the points."""
    best = {}   # (op, isa, shape, density) -> (speedup, pct)
    for r in rf:
        if not r.ok or r.op in (None,) + R.MACHINE_OPS or r.is_reference:
            continue
        s = rf.speedup(r)
        pct = rf.pct_peak(r)  # affine and dot_u8i8; None for the ops that count no MACs
        key = (r.op, r.isa, r.shape, r.density)
        old = best.get(key)
        if old is None or (s or 0) > (old[0] or 0):
            best[key] = (s, pct)
    out = {}
    for (op, isa, _, _), (s, pct) in best.items():
        out.setdefault(op, {}).setdefault(isa, []).append((s, pct))
    return {op: {isa: (geomean([s for s, _ in v]), geomean([p for _, p in v]), len(v)) for isa, v in d.items()}
            for op, d in out.items()}


def chart_isa(files, out_dir):
    chart = Chart("isa_speedup_peak", "per ISA and op: speedup over the scalar reference, % of the MAC peak",
                  "Top row: for each op and ISA, the speedup of the ISA's best variant over the op's scalar reference "
                  "at the same shape and density, geometric mean over every measured point. Bottom row: the same "
                  "best variants' MAC rate as % of the ISA's measured int8 MAC peak (affine: useful MACs, dot_u8i8: "
                  "MACs, over the peak benchmark of the same results, else the pct_peak counter).", out_dir)
    summaries = [isa_summary(rf) for rf in files]
    ops = sorted({op for s in summaries for op in s})
    mac_ops = [op for op in ops if any(v[1] for s in summaries for v in s.get(op, {}).values())]
    if not ops:
        return []
    # Speedup panels for every op, then % of peak for the ops that do MACs; 4 per row.
    panels = [("speedup", op) for op in ops] + [("pct_peak", op) for op in mac_ops]
    ncol = min(4, len(panels))
    nrow = math.ceil(len(panels) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.4 * ncol + 1, 4.1 * nrow), squeeze=False)
    rows = []
    hue = [PALETTE[2 * i % len(PALETTE)] for i in range(len(files))]
    for j in range(nrow * ncol):
        ax = axes[j // ncol][j % ncol]
        if j >= len(panels):
            ax.axis("off")
            continue
        metric, op = panels[j]
        idx = 0 if metric == "speedup" else 1
        isas = sorted({isa for s in summaries for isa, v in s.get(op, {}).items() if v[idx]}, key=isa_key)
        width = 0.8 / len(files)
        for k, (rf, s) in enumerate(zip(files, summaries)):
            for i, isa in enumerate(isas):
                v = s.get(op, {}).get(isa)
                val = v[idx] if v else None
                if not val:
                    continue
                xpos = i - 0.4 + width * (k + 0.5)
                ax.bar(xpos, val, width=width, color=hue[k], edgecolor="black", lw=0.4)
                ax.text(xpos, val, f"{val:.1f}" if metric == "speedup" else f"{val:.0f}%",
                        ha="center", va="bottom", fontsize=7)
                rows.append([rf.label, op, isa, metric, f"{val:.3f}", v[2]])
        ax.set_xticks(range(len(isas)))
        ax.set_xticklabels(isas, rotation=30, ha="right", fontsize=8)
        ax.set_xlabel("ISA (native variants only)")
        if metric == "speedup":
            ax.set_ylabel("speedup over scalar reference (x, geo. mean)")
            ax.axhline(1, color="black", lw=0.8)
        else:
            ax.set_ylabel("% of the ISA's int8 MAC peak (geo. mean)")
            ax.axhline(100, color="black", lw=0.8, ls="--")
        ax.set_title(f"{op}: {'speedup' if metric == 'speedup' else '% of MAC peak'}", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.margins(y=0.15)
    # One legend: the machines.
    handles = [matplotlib.patches.Patch(facecolor=hue[k], edgecolor="black", label=rf.label) for k, rf in enumerate(files)]
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 0.95), fontsize=8, title="machine")
    suptitle(fig, chart.title, files)
    fig.tight_layout()
    save(fig, chart, ["machine", "op", "isa", "metric", "value", "points"], rows)
    return [chart]


# ---- 5. byte density vs chunk density ----------------------------------------------------
BYTE_LISTING = ("sparse_lsb_i16", "sparse_lut_i8_tile64")   # techniques that skip zero bytes


def chart_byte_chunk(files, out_dir):
    chart = Chart("byte_vs_chunk", "byte density vs 4-byte-chunk density: why blocked sparse wins though it skips less",
                  "Left: the fraction of 4-byte chunks that are non-zero for a byte density d is 1-(1-d)^4 when bytes "
                  "are independent (curve), measured on the benchmark input pools and real traces (points): a "
                  "blocked kernel skips far less than a byte-sparse one. Right: at the same byte-independent inputs, "
                  "the best chunk-skipping (blocked) affine variant against the best byte-skipping one and the best "
                  "dense one: 4 MACs per listed chunk in one broadcast beat per-byte work.", out_dir)
    import numpy as np
    fig, axes = plt.subplots(1, 1 + len(files), figsize=(6.5 * (1 + len(files)), 5.2), squeeze=False)
    ax = axes[0][0]
    d = np.linspace(0, 1, 200)
    ax.plot(d * 100, (1 - (1 - d) ** 4) * 100, color="black", lw=1.5, label="independent bytes: $1-(1-d)^4$")
    ax.plot(d * 100, d * 100, color="0.6", lw=1, ls="--", label="chunk density = byte density")
    rows = []
    markers = {"byte": "o", "chunk": "s"}
    for k, rf in enumerate(files):
        seen = set()
        for r in rf:
            bd, cd = r.counter("byte_density"), r.counter("chunk_density")
            if bd is None or cd is None or r.kind not in ("byte", "chunk") and not r.kind.startswith("real"):
                continue
            key = (r.kind, r.pct, r.shape)
            if key in seen:
                continue
            seen.add(key)
            real = r.kind.startswith("real")
            ax.scatter(bd * 100, cd * 100, marker="*" if real else markers[r.kind], s=70 if real else 22,
                       color=PALETTE[(2 * k + (0 if r.kind == "byte" else 1)) % 20] if not real else "crimson",
                       edgecolor="black", lw=0.3, zorder=3,
                       label=f"{rf.label}: {r.kind}-independent pools" if not real else f"{rf.label}: real traces")
            rows.append(["pools", rf.label, r.kind, r.shape, r.pct, f"{bd * 100:.3f}", f"{cd * 100:.3f}"])
    h, l = ax.get_legend_handles_labels()
    uniq = dict(zip(l, h))
    ax.legend(uniq.values(), uniq.keys(), fontsize=7.5, loc="lower right")
    ax.set_xlabel("byte density (% of bytes non-zero)")
    ax.set_ylabel("chunk density (% of 4-byte chunks non-zero)")
    ax.set_title("what each kind of sparse kernel has to process", fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    for col, rf in enumerate(files, start=1):
        ax = axes[0][col]
        res = [r for r in rf.select("affine") if not r.is_reference]
        shapes = [s for s in ("1024x32", "1536x16", "3072x16") if any(r.shape == s and r.kind == "byte" for r in res)]
        if not shapes:
            no_data(ax, "no byte-density affine results")
            ax.set_xlabel("byte density (%)")
            ax.set_ylabel("time per call (ns)")
            continue
        shape = shapes[0]
        res = [r for r in res if r.shape == shape]
        classes = {"chunk-skipping (blocked)": lambda r: is_sparse_affine(r) and r.tech not in BYTE_LISTING,
                   "byte-skipping": lambda r: r.tech in BYTE_LISTING}
        for (name, pred), color in zip(classes.items(), ("tab:blue", "tab:orange")):
            best = {}
            for r in res:
                if pred(r) and (r.kind == "byte" or r.kind == "dense"):
                    p = r.pct if r.kind == "byte" else 100.0
                    if p not in best or r.time < best[p][0]:
                        best[p] = (r.time, r.variant)
            if best:
                pts = sorted(best.items())
                ax.plot([p for p, _ in pts], [t for _, (t, _) in pts], marker="o", ms=4, color=color,
                        label=f"best {name}")
                rows += [["time", rf.label, "byte", shape, p, f"{t:.2f}", name, v] for p, (t, v) in pts]
        dense = [r for r in res if not is_sparse_affine(r) and r.kind == "dense"]
        if dense:
            d0 = min(dense, key=lambda r: r.time)
            ax.axhline(d0.time, color="black", ls="--", lw=1.2, label=f"best dense ({d0.variant})")
            rows.append(["time", rf.label, "dense", shape, "any", f"{d0.time:.2f}", "dense", d0.variant])
        density_axes(ax, "byte density (% of bytes non-zero, bytes independent; 100 = dense)",
                     "time per call (ns, log)", f"{rf.label}: affine {shape}")
        ax.legend(fontsize=7.5)
    suptitle(fig, chart.title, files)
    fig.tight_layout()
    save(fig, chart, ["series", "machine", "density_kind", "shape", "density_pct", "byte_density_pct_or_ns",
                      "chunk_density_pct_or_class", "variant"], rows)
    return [chart]


CHARTS = [chart_affine_density, chart_find_nnz, chart_dot, chart_isa, chart_byte_chunk]


def render_all(files, out_dir):
    """Writes every chart of the loaded result files into out_dir; returns the Charts."""
    os.makedirs(out_dir, exist_ok=True)
    plt.rcParams.update({"svg.hashsalt": "nnuelab", "font.size": 9})   # reproducible SVG ids
    charts = []
    for make in CHARTS:
        charts += make(files, out_dir)
    return charts


def main(argv):
    ap = argparse.ArgumentParser(description="Charts (PNG, SVG, CSV) of ./lab bench result files.")
    ap.add_argument("files", nargs="*", help="result JSON files (default: the newest bench run in results/)")
    ap.add_argument("--out", default="results/plots", help="output directory (default: results/plots)")
    args = ap.parse_args(argv)
    files = R.load_cli(args.files, "plot.py")
    if files is None:
        return 1
    charts = render_all(files, args.out)
    for c in charts:
        for n in c.notes:
            print(f"crossover: {n}")
    for c in charts:
        print(f"wrote {c.png} (+ .svg, .csv)")
    if not charts:
        print("plot.py: no results to chart in " + ", ".join(f.path for f in files), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
