"""What the tests/check_*.py scripts share: one line per check, starting "ok    " or
"FAIL  " (CTest fails a script's test on "FAIL  "), and the failures kept for the exit
status. Imported from the scripts' own folder (Python puts it first on sys.path)."""

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)
