"""Reading benchmark result files written by ./lab bench (Google Benchmark JSON).

The one parser of result files: summary.py, plot.py and report.py all import it.
Standard library only (summary.py runs without matplotlib).

A result name follows the harness grammar <op>/<isa>/<technique>/<shape>/<kind>:<percent>,
e.g. affine/avx2/dense_rows4/64x32/dense:100; Google Benchmark appends /min_time:<s> and
/manual_time, which base_name() strips.
"""
import glob
import json
import math
import os
import re
import statistics
import sys
from collections import OrderedDict

# tools/common.py's json_number: the one test of a number read from a JSON file (the
# result readers of ./lab ab and ./lab regress use it too).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from common import json_number  # noqa: E402

NAME = re.compile(r"^(?P<op>[a-z0-9_]+)/(?P<isa>[a-z0-9-]+)/(?P<tech>[a-z0-9_]+)/"
                  r"(?P<shape>[^/]+)/(?P<kind>[a-z0-9-]+):(?P<pct>[0-9.]+)")

# Google Benchmark appends these to the names the harness registers.
GB_SUFFIX = re.compile(r"/(min_time:[0-9.]+|manual_time|repeats:[0-9]+|iterations:[0-9]+|real_time)")

# Keys of a Google Benchmark JSON entry that are not user counters.
GB_FIELDS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
             "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "label",
             "error_occurred", "error_message", "aggregate_name", "aggregate_unit"}

TIME_SCALE = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}

# Ops that measure the machine or the harness, not a kernel: the per-ISA MAC peak and the
# timed loop's own cost per call (floor/scalar/empty_call). Winners tables and speed
# charts leave them out.
MACHINE_OPS = ("peak", "floor")

# The feature-transformer refresh's yardsticks (kernels/ft_refresh/floor.inc): a refresh
# call's rows read alone, nothing else done, in the two orders its forms read them. They
# are floors (op "floor"), so never winners; the report and ./lab targets set them beside
# the refresh forms measured on the same rows.
ROW_READS = (("front to back", "ft_rows_read"), ("slice by slice", "ft_rows_read_sliced"))
# The xsimd builds have no floor of their own: each is set beside the reads of the
# intrinsic ISA of its vector width, the first of these that was timed. The xsimd front end
# runs the widest arch the CPU has (xsimd::dispatch: avx2, else sse4_1; neon64 on arm), and
# a floor is timed only where the CPU runs it, so the first timed candidate is its arch's.
FLOOR_READS_OF = {"xsimd-avx2": ("avx2",), "xsimd-sse41": ("sse2",), "xsimd-neon": ("neon",),
                  "xsimd": ("avx2", "sse2", "neon")}
# The register-tiled refresh forms (grouped reads whole rows and is not register-tiled).
REFRESH_TILED = ("tiled", "tiled_prefetch", "tiled_stream")
# A refresh benchmark's density kind says where its rows come from.
ROW_TEMPERATURE = {"dense": "cold", "l2hot": "L2-hot"}


# The cores the lab's findings were measured on, by CPUID vendor, display family and model
# (the context's nnuelab_cpu_signature, bench/harness.cpp): a VM's brand string is often
# only "AMD EPYC" or "Intel Xeon", the same for every generation. Intel's model 85 spans
# Skylake-SP (stepping 4), Cascade Lake (5-7) and Cooper Lake (10-11).
CORES = {("AuthenticAMD", 25, 1): "Zen 3", ("AuthenticAMD", 25, 17): "Zen 4", ("AuthenticAMD", 26, 2): "Zen 5",
         ("GenuineIntel", 6, 143): "Sapphire Rapids", ("GenuineIntel", 6, 207): "Emerald Rapids"}
SIGNATURE = re.compile(r"^(?P<vendor>\S+) family (?P<family>\d+) model (?P<model>\d+) stepping (?P<stepping>\d+)$")


def signature_fields(signature):
    """An x86 signature's (vendor, family, model, stepping), or None (none recorded, an ARM
    core's)."""
    m = SIGNATURE.match(signature or "")
    return (m["vendor"], int(m["family"]), int(m["model"]), int(m["stepping"])) if m else None


def core_name(signature):
    """The core a signature names ("Zen 3", "Cascade Lake", ...), or None when the lab has
    not met it (or the signature is not an x86 one)."""
    fields = signature_fields(signature)
    if not fields:
        return None
    vendor, family, model, stepping = fields
    if (vendor, family, model) == ("GenuineIntel", 6, 85):
        return "Skylake-SP" if stepping <= 4 else "Cascade Lake" if stepping <= 7 else "Cooper Lake"
    return CORES.get((vendor, family, model))


class ResultError(Exception):
    """A result file that is missing or not a benchmark result; the message says which and why."""


# The slow-spell probe's line (context nnuelab_noise, bench/noise_probe.cpp) ends with its
# fast passes' absolute times since 2026-12-07.
NOISE_TIMES = re.compile(r"\((\S+) pass\b.*; fast passes: ([0-9.]+) ns a kernel call, ([0-9.]+) ns a register chain$")


def noise_times(ctx):
    """(kernel, ns a kernel call, ns a register chain): the fast passes of the slow-spell
    probe that ran before the bench, or None when its line has no such times (--noise=0,
    or a run before 2026-12-07) or a time of 0 (a probe that timed nothing), so that a
    ratio of two runs' times never divides by zero."""
    m = NOISE_TIMES.search(str(ctx.get("nnuelab_noise", "")))
    times = m and (float(m.group(2)), float(m.group(3)))
    return (m.group(1), *times) if times and min(times) > 0 else None


def probe_against(then_ctx, now_ctx, within=0.05, then="the baseline"):
    """A line comparing the noise probe's fast passes of an earlier run (`then` names it:
    the timing report's baseline, the targets report's previous run) with this run's, on
    one core. The probe's share of slow passes is judged against its own fastest tenth, so
    only these absolute times tell a machine (or a guest's state) slower as a whole for a
    whole run. When the cores differ, the probes timed different kernels or either side
    has no times, the line says so and compares nothing."""
    b, n = noise_times(then_ctx), noise_times(now_ctx)
    b_sig, n_sig = then_ctx.get("nnuelab_cpu_signature"), now_ctx.get("nnuelab_cpu_signature")
    if not b or not n or not b_sig or b_sig != n_sig:
        why = ("the two runs are not of one known core" if not b_sig or b_sig != n_sig else
               f"{then}'s probe line has no fast-pass times (runs before 2026-12-07, --noise=0, or a probe "
               "that timed nothing)" if not b else
               "this run's probe line has no fast-pass times (--noise=0, or a probe that timed nothing)")
        return f"the noise probe's fast passes not compared: {why}"
    if b[0] != n[0]:
        return f"the noise probe's fast passes not compared: it timed {b[0]} then, {n[0]} now"
    kernel, chain = n[1] / b[1] - 1, n[2] / b[2] - 1
    line = (f"the noise probe's fast passes, {then} then this run: {n[0]} {b[1]:.1f} -> {n[1]:.1f} ns a call "
            f"({kernel:+.1%}), the register chain {b[2]:.0f} -> {n[2]:.0f} ns ({chain:+.1%})")
    if max(abs(kernel), abs(chain)) <= within:
        return line + f": both within {within:.0%}, the machine ran as fast as for {then}"
    if abs(chain) > within:
        return line + (": the register chain moved, so the clock differs; every time moves with it, a ratio "
                       "within one run (to the reference, to the peak) less")
    return line + (": the kernel call moved, the register chain did not: the machine's state differs (a guest's "
                   "slow state adds more to some kernels than to others, docs/findings/zen5.md), and a ratio "
                   "within one run carries part of it")


def base_name(name):
    """The grammar name <op>/<isa>/<technique>/<shape>/<kind>:<percent> of a result."""
    return GB_SUFFIX.sub("", name)


def parse(name):
    """The fields of a grammar name as a dict (op, isa, tech, shape, kind, pct), or None."""
    m = NAME.match(name)
    return m.groupdict() if m else None


def emulated_isa(isa):
    """An ISA field naming a SIMDe-emulated build (avx512bw-emu, neon-emu, ...)."""
    return (isa or "").endswith("-emu")


def given_of(tech):
    """What a timed affine form was handed instead of finding its non-zero chunks itself,
    by its technique's name: "bits" (`_from_bits`, the producer's bitset), "list"
    (`_from_list`, the list made outside the clock: the walk alone), or None."""
    for what in ("bits", "list"):
        if (tech or "").endswith("_from_" + what):
            return what
    return None


class Result:
    """One benchmark: all its repetitions folded into medians."""

    def __init__(self, name):
        self.name = name
        p = parse(name) or {}
        self.op = p.get("op")
        self.isa = p.get("isa")
        self.tech = p.get("tech")
        self.shape = p.get("shape")
        self.kind = p.get("kind")
        self.pct = float(p["pct"]) if p else None
        self.times = []        # ns per call, one per repetition
        self._counters = {}    # name -> list of values, one per repetition
        self.label = ""
        self.error = None      # why a benchmark has no time at all (unavailable, budget, interrupted)
        self.skipped = 0       # repetitions skipped (with error) beside timed ones: an interrupted run
        self.skip_reason = None

    @property
    def given(self):
        """given_of(the technique)."""
        return given_of(self.tech)

    @property
    def variant(self):
        """op/isa/technique: the registry name."""
        return f"{self.op}/{self.isa}/{self.tech}"

    @property
    def density(self):
        return f"{self.kind}:{self.pct:g}" if self.kind else None

    @property
    def time(self):
        """Median ns per call, or None when it never ran."""
        return statistics.median(self.times) if self.times else None

    @property
    def best(self):
        """The fastest repetition's ns per call, or None with fewer than two. On a machine
        with slow spells (a shared VM: see docs/findings/zen3.md, "Slow spells"), noise only
        adds time, so this is the closest figure to the kernel's own cost; the median stays the headline."""
        return min(self.times) if len(self.times) >= 2 else None

    @property
    def spread(self):
        """The repetitions' coefficient of variation (sample standard deviation over mean,
        in %), or None with fewer than two (./lab bench --repetitions N gives N)."""
        if len(self.times) < 2:
            return None
        mean = statistics.fmean(self.times)
        return statistics.stdev(self.times) / mean * 100 if mean > 0 else None

    @property
    def counters(self):
        return {k: statistics.median(v) for k, v in self._counters.items()}

    def counter(self, key, default=None):
        v = self._counters.get(key)
        return statistics.median(v) if v else default

    @property
    def emulated(self):
        """SIMDe-emulated: timed only to show it runs, never a speed claim."""
        return emulated_isa(self.isa) or self.label == "emulated"

    @property
    def is_reference(self):
        return self.isa == "scalar" and self.tech == "reference"

    @property
    def ok(self):
        """Ran natively: a time that may be plotted as speed."""
        return self.error is None and bool(self.times) and not self.emulated


class ResultFile:
    """One result file: the machine context and the results in file order."""

    def __init__(self, path, context, results):
        self.path = path
        self.context = context
        self.results = results   # OrderedDict name -> Result
        self._peaks = None       # peak_rates(), once: pct_peak asks for it per result
        self.label = self.cpu    # made unique by label_files() when several files share a CPU

    @property
    def cpu(self):
        """The brand string, with the core's name where the signature gives one (a VM's
        "AMD EPYC" is every generation's), or its family and model where the lab has not
        met it; the host or file name when the file records no CPU."""
        c = self.context
        brand = c.get("nnuelab_cpu_model")
        if not brand:
            return c.get("host_name") or os.path.basename(self.path)
        fields = signature_fields(self.cpu_signature)
        if not fields:
            return brand
        return f"{brand} ({core_name(self.cpu_signature) or f'family {fields[1]} model {fields[2]}'})"

    @property
    def cpu_signature(self):
        """CPUID's vendor, family, model and stepping (or an ARM core's implementer and part)
        as nnuelab_bench recorded them; None in files made before it did (2026-12-01)."""
        return self.context.get("nnuelab_cpu_signature") or None

    @property
    def compiler(self):
        return self.context.get("nnuelab_compiler", "unknown compiler")

    @property
    def date(self):
        """The day of the run (the context's ISO timestamp, date part)."""
        return str(self.context.get("date", "unknown date"))[:10]

    @property
    def title(self):
        """CPU (the label: CPU, plus the file name when several files share a CPU), compiler
        and date: every chart's title line for this file."""
        return f"{self.label} | {self.compiler} | {self.date}"

    def __iter__(self):
        return iter(self.results.values())

    def select(self, op=None, ok=True, **fields):
        """Results of an op (and matching other fields); by default only native timed ones."""
        out = []
        for r in self.results.values():
            if op is not None and r.op != op:
                continue
            if ok and not r.ok:
                continue
            if any(getattr(r, k) != v for k, v in fields.items()):
                continue
            out.append(r)
        return out

    def reference_time(self, r):
        """The op's scalar reference time at r's shape: at the same density when measured
        there, else at any density (affine's reference is timed once, at dense inputs). An
        inlined form's shape (<shape>+inlined) has no reference of its own (the reference is
        only ever called): it gets the reference's plain call at <shape>."""
        shapes = [r.shape]
        if r.shape and r.shape.endswith("+inlined"):
            shapes.append(r.shape[: -len("+inlined")])
        for shape in shapes:
            best = None
            for x in self.results.values():
                if x.op == r.op and x.shape == shape and x.is_reference and x.time:
                    if x.density == r.density:
                        return x.time
                    best = best or x.time
            if best:
                return best
        return None

    def speedup(self, r):
        ref = self.reference_time(r)
        return ref / r.time if ref and r.time else None

    @property
    def call_floor(self):
        """The harness's own time per call (floor/scalar/empty_call: the timed loop calling
        an empty kernel through a function pointer, 32 elements), or None if not measured."""
        for r in self.select("floor", tech="empty_call"):
            return r.time
        return None

    @property
    def floors_text(self):
        """The harness's floors as the report's header names them: "; harness floor 1.0 ns per
        call" and, when floor/scalar/checked_call was timed too (the same loop and empty
        kernel reached through crelu32::run), "; checked entry +7.9 ns" (its time minus
        empty_call's: what an elementwise op's checks add per call). "" without them."""
        if self.call_floor is None:
            return ""
        text = f"; harness floor {self.call_floor:.1f} ns per call"
        for r in self.select("floor", tech="checked_call"):
            text += f"; checked entry {r.time - self.call_floor:+.1f} ns"
            break
        return text

    def peak_rates(self):
        """{isa: MAC/ns}: the fastest peak kernel of each ISA timed in these results
        (peak/<isa>/<instruction>/chains<k>, the median of its repetitions)."""
        if self._peaks is None:
            self._peaks = {}
            for r in self.select("peak"):
                v = r.counter("macs_per_ns") or (r.counter("macs") or 0) / 1e9
                self._peaks[r.isa] = max(self._peaks.get(r.isa, 0), v)
        return self._peaks

    def peak_isa(self, isa):
        """The ISA whose peak benchmark <isa>'s MAC rates are measured against: its own, or
        as the file's context says (nnuelab_peak_isa_of, "from=to" pairs: bench/pct_peak.h's
        table, where avx512vbmi2 dots with AVX-512 VNNI's vpdpbusd). A file written before
        2026-11-30 has none: its avx512vbmi2 results fall back on their pct_peak counter."""
        for pair in str(self.context.get("nnuelab_peak_isa_of", "")).split(","):
            source, _, target = pair.partition("=")
            if source == isa and target:
                return target
        return isa

    def pct_peak(self, r):
        """An affine or dot_u8i8 result's MAC rate (affine: its useful MACs; dot_u8i8: its
        MACs) as % of its ISA's peak (avx512vbmi2 dots with vpdpbusd: AVX-512 VNNI's), the
        peak being the peak benchmark timed in these results,
        median against median, so a run's verdicts and the peak it prints agree. Without
        that benchmark: the pct_peak counter, whose peak the benchmark process measured in
        windows spaced through the run (the upper median of their fastest runs; before
        2026-11-29 one window of 50 ms, which a slow spell moved by 16% once:
        docs/findings/emerald-rapids.md).
        None if neither."""
        rate = r.counter("useful_macs") or r.counter("macs")
        peak = self.peak_rates().get(self.peak_isa(r.isa))
        if rate and peak:
            return rate * 1e-9 / peak * 100
        return r.counter("pct_peak")

    def row_reads(self, isa, shape, density):
        """[(order, Result)] of the refresh rows-read floors timed natively at this point
        (ROW_READS' order; the ones not measured left out)."""
        found = []
        for order, tech in ROW_READS:
            rs = self.select("floor", isa=isa, tech=tech, shape=shape, density=density)
            if rs:
                found.append((order, rs[0]))
        return found


def refresh_against_reads(rf):
    """Per ft_refresh point (isa, shape, density) that has a rows-read floor, a dict: isa,
    shape, rows (cold or L2-hot), naive, fastest (the fastest native form, the reference
    left out), reads ([(order, Result)]), faster_read (the faster floor) and read_isa (the
    floors' ISA: the point's own, or for an xsimd build that of FLOOR_READS_OF). Sorted by
    isa, shape, rows; [] without floors."""
    points = {}
    for r in rf.select("ft_refresh"):
        if not r.is_reference:
            points.setdefault((r.isa, r.shape, r.density), []).append(r)
    rows = []
    for (isa, shape, density), rs in points.items():
        reads, read_isa = [], None
        for candidate in FLOOR_READS_OF.get(isa, (isa,)):
            reads = rf.row_reads(candidate, shape, density)
            if reads:
                read_isa = candidate
                break
        if not reads:
            continue
        rows.append(dict(isa=isa, shape=shape, rows=ROW_TEMPERATURE.get(density.split(":")[0], density),
                         naive=next((r for r in rs if r.tech == "naive"), None),
                         fastest=min(rs, key=lambda r: r.time),
                         reads=reads, read_isa=read_isa, faster_read=min((f for _, f in reads), key=lambda f: f.time)))
    size = lambda shape: [int(x) for x in re.findall(r"\d+", shape)]  # noqa: E731
    rows.sort(key=lambda d: (d["isa"], size(d["shape"]), d["rows"] != "cold"))
    return rows


def counter_peak_basis(context, isa):
    """What the bench process's pct_peak counter of `isa` was finally given against, as the
    context line nnuelab_pct_peak_basis names it ("86.0 MAC/ns (12 windows, 80.1-88.0)"),
    or None (an older file, or no counter of that ISA)."""
    for part in str(context.get("nnuelab_pct_peak_basis", "")).split("; "):
        name, _, rest = part.partition(" ")
        if name == isa and rest:
            return rest
    return None


CUT_OFF = "killed before the end of the run"


_CONTEXT_KEY = re.compile(r'\s*\{\s*"context"\s*:\s*')
_BENCHMARKS_KEY = re.compile(r'\s*,\s*"benchmarks"\s*:\s*\[\s*')
_COMMA = re.compile(r"\s*,\s*")
_LIST_END = re.compile(r"\s*\]")


def cut_off(text):
    """The text of a file that nnuelab_bench was writing as its run went when it was
    killed outright (SIGKILL, a second Ctrl-C: bench/main.cpp): its context and every
    complete benchmark entry before the cut, with the context saying so
    (nnuelab_interrupted, as a run that was interrupted and skipped the rest). None when
    the text is not such a beginning."""
    dec = json.JSONDecoder()
    m = _CONTEXT_KEY.match(text)
    if not m:
        return None
    try:
        context, i = dec.raw_decode(text, m.end())
    except json.JSONDecodeError:
        return None
    m = _BENCHMARKS_KEY.match(text, i)
    if not isinstance(context, dict) or not context or not m:
        return None  # nnuelab_bench's context is never empty
    benchmarks, i = [], m.end()
    while True:
        try:
            entry, i = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            break  # the cut, within an entry or at its end
        benchmarks.append(entry)
        m = _COMMA.match(text, i)
        if not m:
            break
        i = m.end()
    if _LIST_END.match(text, i):
        return None  # the list is closed: the file's error is elsewhere, not a cut
    context = dict(context)
    context.setdefault("nnuelab_interrupted", f"{CUT_OFF}: the file ends after {len(benchmarks)} complete entries "
                                              "(benchmarks not finished are absent, but for the repetitions of the "
                                              "journal beside it; pct_peak against the peak so far)")
    return {"context": context, "benchmarks": benchmarks}


JOURNAL_SUFFIX = ".reps"


def journal_entries(path):
    """The repetitions nnuelab_bench wrote to <path>.reps as it went (bench/journal.h): one
    JSON entry per line, a line cut by the kill left out; [] without the file."""
    entries = []
    try:
        with open(path + JOURNAL_SUFFIX) as f:
            for line in f:
                try:
                    e = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the last line, cut by the kill
                if isinstance(e, dict) and "name" in e and "real_time" in e:
                    entries.append(e)
    except (OSError, UnicodeDecodeError):
        return []
    return entries


def with_journal(path, data):
    """A cut-off file's data plus, for each benchmark it lacks, the repetitions its journal
    holds (a run with interleaved repetitions reports a benchmark only after its last one,
    so the cut file holds few), the context saying how many came from there."""
    entries = journal_entries(path)
    have = {base_name(b.get("name", "")) for b in data["benchmarks"] if isinstance(b, dict)}
    added = [e for e in entries if base_name(e["name"]) not in have]
    if added:
        data["benchmarks"] = data["benchmarks"] + added
        names = {base_name(e["name"]) for e in added}
        data["context"]["nnuelab_interrupted"] += (f"; {len(added)} repetitions of {len(names)} benchmarks not finished "
                                                   f"taken from {os.path.basename(path)}{JOURNAL_SUFFIX}")
    return data


def read_data(path):
    """One result file's JSON as written (its context and benchmark entries); ResultError with
    a clear message if missing or corrupt. A file cut off by a kill gets the repetitions of
    its journal (<path>.reps) for the benchmarks it lacks."""
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise ResultError(f"{path}: no such file (run ./lab bench first)") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ResultError(f"{path}: cannot read: {e}") from None
    except json.JSONDecodeError as e:
        data = cut_off(e.doc)
        if data is not None:
            data = with_journal(path, data)
        if data is None and e.doc.strip() == "":
            raise ResultError(f"{path}: empty: no benchmark result (a run killed before it wrote its context, "
                              "or a file that is not one)") from None
        if data is None:
            raise ResultError(f"{path}: not a benchmark result: invalid JSON ({e})") from None
        if not data["benchmarks"]:
            raise ResultError(f"{path}: not a benchmark result yet: cut off before its first complete result, and "
                              f"no repetition in {os.path.basename(path)}{JOURNAL_SUFFIX} (a run killed outright before "
                              "it finished a repetition, or one still running)") from None
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        raise ResultError(f"{path}: not a benchmark result: no \"benchmarks\" list "
                          "(expected Google Benchmark JSON from ./lab bench)")
    return data


def load(path):
    """Reads one result file (read_data) into a ResultFile: per benchmark its repetitions'
    times and counters."""
    data = read_data(path)
    results = OrderedDict()
    for b in data["benchmarks"]:
        if not isinstance(b, dict) or "name" not in b:
            raise ResultError(f"{path}: not a benchmark result: an entry without a name")
        if b.get("run_type") == "aggregate":
            continue   # medians are recomputed from the repetitions
        name = base_name(b["name"])
        r = results.get(name) or results.setdefault(name, Result(name))
        if b.get("label"):
            r.label = b["label"]
        if b.get("error_occurred"):
            r.skipped += 1
            r.skip_reason = b.get("error_message") or "error"
            continue
        # A timed repetition's time is a finite number > 0: Python's json takes NaN and
        # Infinity (Google Benchmark writes them for non-finite values), and a NaN among the
        # times would make every median, ratio and winner after it arbitrary.
        t = b.get("real_time")
        scale = TIME_SCALE.get(b.get("time_unit", "ns"))
        t = float(t) * scale if json_number(t, positive=True) and scale else None
        if t is None or not math.isfinite(t):  # a huge time in seconds overflows
            raise ResultError(f"{path}: not a benchmark result: {name} has no valid real_time "
                              f"({b.get('real_time', 'none')!r}; a timed repetition's is a finite number > 0)")
        r.times.append(t)
        # A non-finite counter (a rate over no time, a density of nothing) is left out of
        # that repetition's counters, so the counter's median is over its finite values and a
        # counter with none reads as not measured (an empty cell), never "nan%".
        for k, v in b.items():
            if k not in GB_FIELDS and json_number(v):
                r._counters.setdefault(k, []).append(float(v))
    for r in results.values():
        # A benchmark that was timed in some repetitions (a run interrupted or out of budget
        # part way through its interleaved repetitions) keeps those: its figures are their
        # median and spread. One never timed is skipped, with the reason.
        if not r.times and r.skipped:
            r.error = r.skip_reason
    return ResultFile(path, data.get("context") or {}, results)


def label_files(files):
    """Labels files by CPU; files sharing a CPU also get their file name."""
    cpus = [f.cpu for f in files]
    for f in files:
        f.label = f.cpu if cpus.count(f.cpu) == 1 else f"{f.cpu} ({os.path.basename(f.path)})"
    return files


def load_all(paths):
    return label_files([load(p) for p in paths])


def is_bench_output(path):
    """Whether path is (or may be) a file nnuelab_bench wrote: Google Benchmark's JSON opens
    with its "context"; an empty file is a run killed before it wrote any (load() says so).
    The other tools' files in results/ (./lab ab, coverage, mutate: their own JSON) are not."""
    try:
        with open(path, "rb") as f:
            head = f.read(256).lstrip()
    except OSError:
        return False
    return not head or re.match(rb'\{\s*"context"', head) is not None


def newest(results_dir="results"):
    """The most recent result file of ./lab bench in results_dir, or None.
    Committed baselines and samples are not runs of this machine: left out; so are the
    files of ./lab ab, coverage and mutate, which share the folder."""
    cands = sorted((p for p in glob.glob(os.path.join(results_dir, "*.json"))
                    if not os.path.basename(p).startswith(("baseline-", "sample-"))),
                   key=os.path.getmtime, reverse=True)
    return next((p for p in cands if is_bench_output(p)), None)


def default_paths(paths, results_dir="results"):
    """The given files, or the newest result; ResultError when there is none."""
    if paths:
        return list(paths)
    p = newest(results_dir)
    if not p:
        raise ResultError(f"no result files in {results_dir}/: run ./lab bench first "
                          "(or name result files on the command line)")
    return [p]


def load_cli(paths, prog):
    """What a command-line tool reads: the named result files, or the newest; None (after
    saying why on stderr, prefixed with prog) when there are none or one is unreadable."""
    try:
        files = load_all(default_paths(paths))
        for f in files:
            # A file with nothing timed (every benchmark skipped, or a hand-cut one) would give
            # charts of nothing and an empty report without a word.
            if not any(r.error is None and r.times for r in f.results.values()):
                skipped = sorted({r.error for r in f.results.values() if r.error})
                raise ResultError(f"{f.path}: no benchmark in it has a time"
                                  + (f" (skipped: {'; '.join(skipped)[:200]})" if skipped else " (it lists none)"))
        return files
    except ResultError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return None
