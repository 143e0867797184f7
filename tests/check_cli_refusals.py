#!/usr/bin/python3
"""The command-line tools refuse bad numbers and impossible requests with a reason, never
an abort: usage check_cli_refusals.py BUILD_DIR

Each row runs one of nnuelab_quantize, nnuelab_regress, nnuelab_noise, nnuelab_eval or
nnuelab_bench with arguments that std::stoi/std::atoi/std::atof would have read as some
number ("1536x", "1e3", "nan", a 14-digit count), or that asked for nothing or for an
all-zero tensor, and checks the exit status, the reason on stderr, and that no exception
escaped ("terminate called", a signal). Before tools/args.h, `nnuelab_quantize --n 0`, `--coarse -1` and
`--net 7` died of SIGABRT, `--net 1536x` ran the L1 = 1536 net, `nnuelab_noise nan` said no
kernel ran on this CPU, and `nnuelab_regress --iterations 99999999999999` was undefined.
Exit 1 on a failure.
"""
import os
import subprocess
import sys

from checks import check, failures

ROWS = (
    # binary, arguments, exit status, what stderr (or, for exit 0, stdout) says
    ("nnuelab_quantize", ["--n", "0", "--no-nets"], 2, "--n takes a whole number 1..1073741824, not '0'"),
    ("nnuelab_quantize", ["--coarse", "-1"], 2, "--coarse takes a whole number 1..10000000, not '-1'"),
    ("nnuelab_quantize", ["--fine", "0"], 2, "--fine takes a whole number 1..10000000, not '0'"),
    ("nnuelab_quantize", ["--net", "1536x"], 2, "--net takes a whole number 1..1048576, not '1536x'"),
    ("nnuelab_quantize", ["--bucket", "1e3"], 2, "--bucket takes a whole number 0..7, not '1e3'"),
    ("nnuelab_quantize", ["--ft-max", "-1"], 2, "--ft-max takes a whole number 0..1099511627776, not '-1'"),
    ("nnuelab_quantize", ["--bits", "8,x"], 2, "--bits (each) takes a whole number 2..16, not 'x'"),
    ("nnuelab_quantize", ["--bits", ","], 2, "--bits needs at least one bit width"),
    ("nnuelab_quantize", ["--no-nets", "--no-synthetic"], 2, "nothing to quantize"),
    ("nnuelab_quantize", ["--csv", "/nonexistent/folder"], 2, "--csv /nonexistent/folder: not a folder"),
    ("nnuelab_quantize", ["--net", "7", "--no-synthetic"], 1, "no net of L1 = 7"),
    ("nnuelab_quantize", ["--no-nets", "--synthetic", "sparse", "--n", "1", "--bits", "8"], 0,
     "all zeros: no clipping scalar to choose, left out"),
    ("nnuelab_regress", ["--run", "--iterations", "3x"], 2, "--iterations takes a whole number 1..1000000, not '3x'"),
    ("nnuelab_regress", ["--run", "--iterations", "99999999999999"], 2,
     "--iterations takes a whole number 1..1000000, not '99999999999999'"),
    ("nnuelab_regress", ["--list", "--filter", "("], 2, "is not a regular expression (ECMAScript)"),
    ("nnuelab_regress", ["--list", "--filter", "^no/such/case$"], 2, "no case matches --filter"),
    ("nnuelab_noise", ["nan"], 2, "SECONDS takes a number > 0 and <= 3600, not 'nan'"),
    ("nnuelab_noise", ["0.1x"], 2, "SECONDS takes a number > 0 and <= 3600, not '0.1x'"),
    ("nnuelab_noise", ["1", "2"], 2, "one argument at most"),
    ("nnuelab_eval", ["--net", "99999999999", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], 1,
     "--net takes a whole number 1..1048576, not '99999999999'"),
    # A folder given as the net read as libstdc++'s "basic_filebuf::underflow error".
    ("nnuelab_eval", ["--net", "/", "--fen", "8/8/8/8/8/8/8/K6k w"], 1, "net /: is a folder, not a file"),
    ("nnuelab_eval", ["--net", "/nonexistent/nn.nnue", "--fen", "8/8/8/8/8/8/8/K6k w"], 1,
     "net /nonexistent/nn.nnue: no such file"),
    # Google Benchmark timed nothing at 0 repetitions and exited 0; -1 failed in it with
    # "vector::reserve"; --budget=nan passed a `b < 0` test.
    ("bench/nnuelab_bench", ["--benchmark_repetitions=0", "--benchmark_filter=^crelu16/scalar/"], 2,
     "--benchmark_repetitions takes a whole number 1..1000000, not '0'"),
    ("bench/nnuelab_bench", ["--benchmark_repetitions=-1", "--benchmark_filter=^crelu16/scalar/"], 2,
     "--benchmark_repetitions takes a whole number 1..1000000, not '-1'"),
    ("bench/nnuelab_bench", ["--budget=nan", "--benchmark_filter=^crelu16/scalar/"], 2, "--budget takes a number >= 0 and <= 10000000, not 'nan'"),
    # Google Benchmark said it could not compile the filter, then nnuelab_bench that no
    # benchmark was selected; a leading '-' (a negative filter) is not part of the regex.
    ("bench/nnuelab_bench", ["--benchmark_filter=crelu16/(scalar"], 2,
     "--benchmark_filter 'crelu16/(scalar' is not a regular expression (POSIX extended"),
    ("bench/nnuelab_bench", ["--benchmark_filter=-[", "--benchmark_list_tests"], 2, "--benchmark_filter '-[' is not a regular expression"),
    ("bench/nnuelab_bench", ["--benchmark_filter=-^[^c]", "--benchmark_list_tests"], 0, "crelu16/scalar/"),
)

build = sys.argv[1]
absent = sorted({b for b, *_ in ROWS if not os.access(os.path.join(build, b), os.X_OK)})
for b in absent:  # nnuelab_regress in a sanitizer build (valgrind cannot run it)
    print(f"skip  {b}: not built in {build}; its rows are not run")
check(len(absent) < len({b for b, *_ in ROWS}), "some binary to run")
for binary, args, status, said in ROWS:
    if binary in absent:
        continue
    run = subprocess.run([os.path.join(build, binary), *args], capture_output=True, text=True, timeout=120)
    text = run.stdout if status == 0 else run.stderr
    what = f"{binary} {' '.join(args)}"
    check(run.returncode == status, f"{what}: exit {run.returncode} ({status} expected)")
    check(said in text, f"{what}: says {said!r} ({text.strip()[-200:]!r})")
    check("terminate called" not in run.stderr, f"{what}: no exception escaped")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
