"""The lists of known exceptions that the test tools keep beside them, each entry with its
reason: tools/mutate_equivalent.txt (mutants that cannot change an output) and
tools/coverage_expected.txt (lines no test can reach). One entry per line, fields separated
by " | ", the reason last; blank lines and lines starting with '#' are comments.
Standard library only."""
import os
import sys


def read_reasons(path, fields, usage, tool):
    """{(the first fields - 1, as a tuple): the reason} of the list at `path` ({} when there is
    none). A line without exactly `fields` non-empty fields ends the program (exit 2) with
    `tool: path:line: want 'usage'`."""
    known = {}
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = [p.strip() for p in line.rstrip("\n").split(" | ")]
            if len(parts) != fields or not all(parts):
                print(f"{tool}: {path}:{n}: want '{usage}'", file=sys.stderr)
                sys.exit(2)
            known[tuple(parts[:-1])] = parts[-1]
    return known
