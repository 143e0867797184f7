#!/usr/bin/python3
"""One self-contained HTML page and a Markdown summary of ./lab bench result files.

    plots/report.py [--out results/report.html] [--md results/report.md]
                    [--plots DIR] [--readme README.md] [RESULT.json ...]

The page: every chart of plot.py inline (PNG as base64 data URIs, nothing to fetch), the
sparse/dense crossovers, per machine the winners per op, shape and density (fastest
native variant, its time, speedup over the scalar reference, % of MAC peak), the
semantics table from README.md's "## Semantics" section, and the machine context. The
Markdown file holds the crossovers and winners, for CI logs.
"""
import argparse
import base64
import html
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results as R  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Densities in the winners tables: the quick grid's points (also in the full grid) and the
# real traces. The full density sweep is in the charts and their CSV files.
TABLE_KINDS = {("dense", 100.0), ("chunk", 15.0), ("byte", 15.0)}

CONTEXT_KEYS = [("nnuelab_cpu_model", "CPU"), ("nnuelab_cpu_signature", "CPU signature"),
                ("nnuelab_cpu_features", "CPU features"), ("host_name", "host"),
                ("num_cpus", "logical CPUs"), ("mhz_per_cpu", "MHz (reported)"), ("nnuelab_compiler", "compiler"),
                ("nnuelab_build_type", "build type"), ("nnuelab_cxx_flags", "C++ flags"),
                ("nnuelab_grid", "grid"), ("nnuelab_timing", "timing"), ("nnuelab_pool_inputs", "distinct inputs"),
                ("nnuelab_noise", "slow spells (probe before the run)"),
                ("nnuelab_ft_weight_pages", "feature-transformer weight pages"),
                ("library_build_type", "Google Benchmark library build"), ("date", "date")]


def winners(rf):
    """[(op, shape, density, winner, runner_up, ns, spread, best, speedup, pct_peak, variants)] per point:
    the fastest native variant (the scalar reference competes too)."""
    points = {}
    for r in rf:
        if not r.ok or r.op in (None,) + R.MACHINE_OPS:
            continue
        if not ((r.kind, r.pct) in TABLE_KINDS or r.kind.startswith("real")):
            continue
        if r.given == "list":  # the walk given the list: part of a call, not a way to run it
            continue
        points.setdefault((r.op, r.shape, r.density), []).append(r)
    rows = []
    for (op, shape, density), rs in points.items():
        rs.sort(key=lambda r: r.time)
        w = rs[0]
        rows.append(dict(op=op, shape=shape, density=density, winner=w.variant,
                         runner_up=f"{rs[1].variant} ({rs[1].time:.1f} ns)" if len(rs) > 1 else "",
                         ns=w.time, spread=w.spread, best=w.best, speedup=rf.speedup(w), pct_peak=rf.pct_peak(w),
                         n=len(rs)))
    kind_order = {"dense": 0, "chunk": 1, "byte": 2}
    rows.sort(key=lambda d: (d["op"], shape_key(d["shape"]), kind_order.get(d["density"].split(":")[0], 3), d["density"]))
    return rows


REFRESH_HEADER = ["isa", "shape", "rows", "naive ns", "fastest form", "ns", "rows read front to back ns",
                  "slice by slice ns", "naive / faster read", "fastest / faster read"]
REFRESH_TEXT = ("Each refresh point beside its rows read alone (`floor/<isa>/ft_rows_read`, front to back as naive "
                "and grouped read them; `_sliced`, a 256-lane slice of every row at a time as AVX2's tiled forms do), "
                "timed on the same rows: naive over the faster read is the most a form reading every row once could "
                "gain where reading the rows is the limit, and the fastest form over it how close that form comes "
                "(below 1x it reads its rows faster than the plain read does, as prefetching forms can on cold rows). "
                "Cold rows: the weights out of cache; L2-hot: the call's rows in L2. The xsimd builds have no reads of "
                "their own: each is set beside those of the intrinsic ISA of its width (named in the isa cell; the "
                "`xsimd` front end beside those of the widest ISA timed, the arch it dispatches to).")


def refresh_rows(rf):
    """The cells (strings) of the refresh-against-its-reads table, one list per point."""
    rows = []
    for d in R.refresh_against_reads(rf):
        reads = dict(d["reads"])
        read_ns = [fmt(reads[o].time, ",.1f") if o in reads else "" for o, _ in R.ROW_READS]
        floor = d["faster_read"].time
        naive = d["naive"].time if d["naive"] else None
        isa = d["isa"] if d["read_isa"] == d["isa"] else f'{d["isa"]} ({d["read_isa"]} reads)'
        rows.append([isa, d["shape"], d["rows"], fmt(naive, ",.1f"), d["fastest"].tech,
                     fmt(d["fastest"].time, ",.1f")] + read_ns
                    + [fmt(naive / floor if naive else None, ".2f", "x"), fmt(d["fastest"].time / floor, ".2f", "x")])
    return rows


def shape_key(shape):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", shape)]


def fmt(v, spec, suffix=""):
    return f"{v:{spec}}{suffix}" if v is not None else ""


def semantics_table(readme):
    """The rows of README.md's "## Semantics" markdown table: [header, row, ...] or []."""
    try:
        text = open(readme, encoding="utf-8").read()
    except OSError:
        return []
    m = re.search(r"^## Semantics\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not m:
        return []
    rows = []
    for line in m.group(1).splitlines():
        line = line.strip()
        if not line.startswith("|"):
            if rows:
                break
            continue
        # Split on | not escaped as \|.
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip("|"))]
        if all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        rows.append(cells)
    return rows


def inline_md(text):
    """Markdown cell text to HTML: escaping, `code`, *emphasis*."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for p in parts:
        if p.startswith("`") and p.endswith("`") and len(p) >= 2:
            out.append(f"<code>{html.escape(p[1:-1])}</code>")
        else:
            # *emphasis* only as a word of its own: 2*127*128 stays a product.
            out.append(re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"<em>\1</em>", html.escape(p)))
    return "".join(out)


CSS = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1d2330; background: #f6f7f9; }
main { max-width: 1280px; margin: 0 auto; padding: 24px 32px 64px; background: #fff; }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 20px; margin-top: 40px; border-bottom: 2px solid #dde1e8; padding-bottom: 4px; }
h3 { font-size: 16px; margin-top: 28px; }
.sub { color: #5a6272; margin: 0 0 16px; }
nav { background: #eef1f5; padding: 10px 14px; border-radius: 6px; font-size: 14px; }
nav a { margin-right: 14px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; width: 100%; }
th, td { border: 1px solid #d5d9e0; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #eef1f5; position: sticky; top: 0; }
tr:nth-child(even) td { background: #fafbfc; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font: 12.5px ui-monospace, "DejaVu Sans Mono", monospace; background: #f0f2f5; padding: 0 3px; border-radius: 3px; }
figure { margin: 16px 0 32px; } figure img { max-width: 100%; height: auto; border: 1px solid #e3e6eb; }
figcaption { color: #3d4452; font-size: 14px; margin: 6px 0; }
.links { font-size: 13px; color: #5a6272; }
.notes { background: #fff8e6; border-left: 4px solid #e0a800; padding: 8px 14px; }
.notes li { margin: 2px 0; }
.ctx td:first-child { width: 220px; color: #3d4452; }
"""


def pools_text(files):
    """How many distinct inputs the timed batches rotate through, from the files' context
    (the harness writes nnuelab_sparse_pool_inputs and nnuelab_pool_inputs)."""
    sizes = sorted({(f.context.get("nnuelab_sparse_pool_inputs"), f.context.get("nnuelab_pool_inputs")) for f in files})
    texts = []
    for sp, el in sizes:
        if sp and el:
            texts.append(f"{int(sp):,} distinct sparse activation vectors (affine, find_nnz, dot_u8i8) and "
                         f"{int(el):,} distinct inputs for the other ops")
        elif el:  # results written before the sparse pools had their own size: one pool for all
            texts.append(f"{int(el):,} distinct inputs")
    return "; ".join(texts) if texts else "a pool of distinct inputs"


def render_html(files, charts, sem, out_path):
    esc = html.escape
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>nnuelab report</title>"
             f"<style>{CSS}</style></head><body><main>",
             "<h1>nnuelab benchmark report</h1>",
             "<p class='sub'>" + "<br>".join(esc(f"{f.label}: {f.compiler}, {f.date} ({os.path.basename(f.path)})"
                                                + f.floors_text)
                                            for f in files) + "</p>",
             "<nav><a href='#crossovers'>Crossovers</a><a href='#winners'>Winners</a><a href='#refresh'>Refresh</a>"
             "<a href='#charts'>Charts</a>"
             "<a href='#semantics'>Semantics</a><a href='#machines'>Machines</a></nav>",
             "<p>Times are per kernel call, medians over repetitions, L1-hot inputs rotating through "
             + esc(pools_text(files)) + ". <em>x ref</em> is the speedup over the op's scalar reference at the same shape, measured in the "
             "same run; <em>% peak</em> is the useful int8 MAC rate as % of the ISA's measured peak. Emulated "
             "(SIMDe) variants are never shown as speed. The <em>harness floor</em> is the timed loop calling an empty "
             "kernel through a function pointer (32 elements): every time includes it, and at small shapes it is "
             "much of the time. The <em>checked entry</em> is what the op's checked <code>run</code> adds to that "
             "call (the variants are timed without it).</p>"]
    parts.append("<h2 id='crossovers'>Where sparse overtakes dense (affine)</h2>")
    crossovers = [x for c in charts for x in c.crossovers]
    if crossovers:
        parts.append("<p>The input density below which the best sparse variant is faster than the best dense one "
                     "(linear interpolation between the two grid points around the crossing; the quick grid has only "
                     "15% and 100%, <code>./lab bench --full</code> measures 0.5-100%).</p>"
                     "<table><tr><th>machine</th><th>shape</th><th>density kind</th><th>sparse wins below</th>"
                     "<th>best dense variant</th><th>its ns/call</th></tr>")
        for x in crossovers:
            where = (f"{x['pct']:.1f}%" if x["pct"] is not None and x["pct"] < 100 else
                     "every density" if x["pct"] is not None else "never (dense wins everywhere)")
            parts.append(f"<tr><td>{esc(x['machine'])}</td><td>{esc(x['shape'])}</td><td>{esc(x['kind'])}</td>"
                         f"<td class='num'><b>{esc(where)}</b></td><td><code>{esc(x['dense'])}</code></td>"
                         f"<td class='num'>{x['dense_ns']:.1f}</td></tr>")
        parts.append("</table>")
    else:
        parts.append("<p>No affine density sweep in these results.</p>")
    parts.append("<h2 id='winners'>Winners per op, shape and density</h2><p>The fastest native variant at each "
                 "point of the quick grid (dense, chunk 15%, byte 15%) and on real traces; every density of the "
                 "full grid is in the charts' CSV files. ns/call is the median of the repetitions; cv % is "
                 "their spread (standard deviation over mean) and min the fastest repetition (on a shared VM's slow "
                 "spells noise only adds time, so min is the closest to the kernel's own cost), both blank for a "
                 "run of one repetition (<code>./lab bench --repetitions N</code>).</p>")
    for f in files:
        parts.append(f"<h3>{esc(f.label)}</h3><table><tr><th>op</th><th>shape</th><th>density</th><th>fastest "
                     "variant</th><th>ns/call</th><th>cv %</th><th>min ns</th><th>x ref</th><th>% peak</th><th>runner-up</th><th>variants</th></tr>")
        for w in winners(f):
            parts.append(f"<tr><td>{esc(w['op'])}</td><td>{esc(w['shape'])}</td><td>{esc(w['density'])}</td>"
                         f"<td><code>{esc(w['winner'])}</code></td><td class='num'>{fmt(w['ns'], '.1f')}</td>"
                         f"<td class='num'>{fmt(w['spread'], '.1f')}</td><td class='num'>{fmt(w['best'], '.1f')}</td>"
                         f"<td class='num'>{fmt(w['speedup'], '.1f')}</td><td class='num'>{fmt(w['pct_peak'], '.0f', '%')}</td>"
                         f"<td>{esc(w['runner_up'])}</td><td class='num'>{w['n']}</td></tr>")
        parts.append("</table>")
    refresh = [(f, refresh_rows(f)) for f in files]
    if any(rows for _, rows in refresh):
        parts.append(f"<h2 id='refresh'>The feature-transformer refresh against its rows read alone</h2><p>{inline_md(REFRESH_TEXT)}</p>")
        for f, rows in refresh:
            if not rows:
                continue
            parts.append(f"<h3>{esc(f.label)}</h3><table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in REFRESH_HEADER)
                         + "</tr>")
            for row in rows:
                parts.append("<tr>" + "".join(f"<td><code>{esc(c)}</code></td>" if i == 4 else
                                              f"<td class='num'>{esc(c)}</td>" if i >= 3 else f"<td>{esc(c)}</td>"
                                              for i, c in enumerate(row)) + "</tr>")
            parts.append("</table>")
    parts.append("<h2 id='charts'>Charts</h2>")
    out_dir = os.path.dirname(os.path.abspath(out_path))
    for c in charts:
        with open(c.png, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        links = " | ".join(f"<a href='{esc(os.path.relpath(p, out_dir))}'>{os.path.splitext(p)[1][1:].upper()}</a>"
                           for p in (c.svg, c.csv))
        parts.append(f"<figure id='{esc(c.name)}'><h3>{esc(c.title)}</h3><figcaption>{esc(c.description)}</figcaption>"
                     f"<img alt='{esc(c.title)}' src='data:image/png;base64,{data}'>"
                     f"<div class='links'>{esc(c.name)}: {links}</div></figure>")
    parts.append("<h2 id='semantics'>Semantics</h2><p>Each op's contract is its scalar reference in "
                 "<code>reference/</code>; from README.md:</p>")
    if sem:
        parts.append("<table><tr>" + "".join(f"<th>{inline_md(c)}</th>" for c in sem[0]) + "</tr>")
        for row in sem[1:]:
            parts.append("<tr>" + "".join(f"<td>{inline_md(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
    else:
        parts.append("<p>(README.md has no Semantics table.)</p>")
    parts.append("<h2 id='machines'>Machines</h2>")
    for f in files:
        ctx = f.context
        parts.append(f"<h3>{esc(f.label)}</h3><table class='ctx'>")
        parts.append(f"<tr><td>result file</td><td><code>{esc(f.path)}</code></td></tr>")
        for key, name in CONTEXT_KEYS:
            if key in ctx:
                parts.append(f"<tr><td>{esc(name)}</td><td>{esc(str(ctx[key]))}</td></tr>")
        caches = ctx.get("caches") or []
        if caches:
            desc = ", ".join(f"L{c.get('level')} {c.get('type', '').lower()} {c.get('size', 0) // 1024} KiB"
                             for c in caches)
            parts.append(f"<tr><td>caches</td><td>{esc(desc)}</td></tr>")
        for key in sorted(k for k in ctx if k.startswith("nnuelab_isa_flags_")):
            parts.append(f"<tr><td>flags: {esc(key[len('nnuelab_isa_flags_'):])}</td><td><code>{esc(str(ctx[key]))}"
                         "</code></td></tr>")
        counts = {}
        for r in f:
            k = "emulated" if r.emulated else ("skipped: " + r.error.split(":")[0] if r.error else "timed natively")
            counts[k] = counts.get(k, 0) + 1
        parts.append("<tr><td>benchmarks</td><td>" + esc(", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
                     + "</td></tr></table>")
    parts.append("</main></body></html>")
    with open(out_path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(parts))


def render_md(files, charts, out_path):
    md = ["# nnuelab benchmark summary", ""]
    for f in files:
        floor = f.floors_text
        noise = f"; slow spells: {f.context['nnuelab_noise']}" if f.context.get("nnuelab_noise") else ""
        md.append(f"- **{f.label}**: {f.compiler}, {f.date}, grid {f.context.get('nnuelab_grid', '?')}{floor}{noise} "
                  f"(`{f.path}`)")
    notes = [n for c in charts for n in c.notes]
    if notes:
        md += ["", "## Where sparse overtakes dense (affine)", ""] + [f"- {n}" for n in notes]
    for f in files:
        md += ["", f"## Winners: {f.label}", "", "| op | shape | density | fastest variant | ns/call | cv % | min ns | x ref | % peak |",
               "|---|---|---|---|---:|---:|---:|---:|---:|"]
        for w in winners(f):
            md.append(f"| {w['op']} | {w['shape']} | {w['density']} | `{w['winner']}` | {fmt(w['ns'], '.1f')} | "
                      f"{fmt(w['spread'], '.1f')} | {fmt(w['best'], '.1f')} | {fmt(w['speedup'], '.1f')} | {fmt(w['pct_peak'], '.0f', '%')} |")
    for f in files:
        rows = refresh_rows(f)
        if rows:
            md += ["", f"## The feature-transformer refresh against its rows read alone: {f.label}", "",
                   REFRESH_TEXT, "",
                   "| " + " | ".join(REFRESH_HEADER) + " |", "|---|---|---|---:|---|" + "---:|" * 5]
            md += ["| " + " | ".join(f"`{c}`" if i == 4 else c for i, c in enumerate(row)) + " |" for row in rows]
    md += ["", "Charts: " + ", ".join(f"`{os.path.basename(c.png)}`" for c in charts), ""]
    with open(out_path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(md))


def main(argv):
    ap = argparse.ArgumentParser(description="HTML report and Markdown summary of ./lab bench result files.")
    ap.add_argument("files", nargs="*", help="result JSON files (default: the newest bench run in results/)")
    ap.add_argument("--out", default="results/report.html", help="the HTML page (default: results/report.html)")
    ap.add_argument("--md", help="the Markdown summary (default: the page's name with .md)")
    ap.add_argument("--plots", help="where the charts go (default: plots/ beside the page)")
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"), help="source of the semantics table")
    args = ap.parse_args(argv)
    for flag, path in (("--out", args.out), ("--md", args.md)):
        if path and os.path.isdir(path):
            print(f"report.py: {flag} {path} is a folder; name the file, e.g. {os.path.join(path, 'report.html' if flag == '--out' else 'report.md')}",
                  file=sys.stderr)
            return 2
    files = R.load_cli(args.files, "report.py")
    if files is None:
        return 1
    import plot   # matplotlib: only needed from here on
    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    charts = plot.render_all(files, args.plots or os.path.join(out_dir, "plots"))
    md_path = args.md or os.path.splitext(args.out)[0] + ".md"
    render_html(files, charts, semantics_table(args.readme), args.out)
    render_md(files, charts, md_path)
    print(f"wrote {args.out} and {md_path} ({len(charts)} charts)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
