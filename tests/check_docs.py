#!/usr/bin/env python3
"""The README's table of contents and the documents' relative links (CTest docs.*).

    check_docs.py SOURCE_DIR            check: exit 1 naming every difference
    check_docs.py SOURCE_DIR --write    rewrite README.md's contents from its headings

README.md's "## Contents" list must name every "##" and "###" heading after it, in order,
each linked to GitHub's anchor for it (lower case; punctuation but '-' and '_' dropped;
spaces to '-'; a repeated heading's anchor gets -1, -2, ...). Headings inside fenced code
blocks are not headings. Every relative link of README.md and docs/**/*.md must name a
file of the tree, and a link to a README.md anchor (#...) one of its headings.

Standard library only.
"""
import os
import re
import sys

from checks import check, failures

CONTENTS = "## Contents"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def headings(lines):
    """(level, text, line index) of the Markdown headings outside fenced code blocks."""
    out, fenced = [], False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^(#{1,6}) (.*\S)\s*$", line)):
            out.append((len(m.group(1)), m.group(2), i))
    return out


def anchors(heads):
    """GitHub's anchor for each heading, in order (repeats numbered as GitHub does)."""
    seen, out = {}, []
    for _, text, _ in heads:
        a = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.append(a if n == 0 else f"{a}-{n}")
    return out


def contents_at(heads):
    """The index in heads of the "## Contents" heading, or None."""
    return next((k for k, (lvl, text, _) in enumerate(heads) if f"{'#' * lvl} {text}" == CONTENTS), None)


def contents_block(lines, heads):
    """(first, end) line indices of the list under "## Contents" (end exclusive), or None."""
    at = contents_at(heads)
    if at is None:
        return None
    first = heads[at][2] + 1
    while first < len(lines) and not lines[first].strip():
        first += 1
    end = first
    while end < len(lines) and lines[end].lstrip().startswith("- "):
        end += 1
    return first, end


def wanted_contents(heads, names):
    """The contents list: every ## and ### heading after the contents' own, linked."""
    at = contents_at(heads)
    start = at + 1 if at is not None else 0
    rows = []
    for (lvl, text, _), a in list(zip(heads, names))[start:]:
        if lvl in (2, 3):
            rows.append(f"{'  ' * (lvl - 2)}- [{text}](#{a})")
    return rows


def check_links(src, path, readme_anchors):
    with open(path) as f:
        text = f.read()
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            where = f"{os.path.relpath(path, src)}:{n}: link {target}"
            file, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            exists = os.path.exists(full)
            check(exists, f"{where} names a file of the tree")
            if anchor and exists and os.path.samefile(full, os.path.join(src, "README.md")):
                check(anchor in readme_anchors, f"{where} names a heading of README.md")


def main(argv):
    if len(argv) not in (1, 2) or (len(argv) == 2 and argv[1] != "--write"):
        print(__doc__, file=sys.stderr)
        return 2
    src = argv[0]
    readme = os.path.join(src, "README.md")
    with open(readme) as f:
        lines = f.read().split("\n")
    heads = headings(lines)
    names = anchors(heads)
    block = contents_block(lines, heads)
    want = wanted_contents(heads, names)
    if len(argv) == 2:
        if block is None:
            print(f"{readme}: no '{CONTENTS}' heading to write under", file=sys.stderr)
            return 1
        first, end = block
        lines[first:end] = want
        with open(readme, "w") as f:
            f.write("\n".join(lines))
        print(f"{readme}: {len(want)} contents lines written")
        return 0
    check(block is not None, f"README.md has a '{CONTENTS}' section")
    if block is not None:
        have = lines[block[0]:block[1]]
        check(have == want, "README.md's contents list every ## and ### heading after it, in order, with GitHub's "
              "anchors (tests/check_docs.py SOURCE_DIR --write rewrites them)" +
              "".join(f"\n      - {x}" for x in have if x not in want) +
              "".join(f"\n      + {x}" for x in want if x not in have))
    check(len(names) == len(set(names)), "README.md's headings have distinct anchors")
    for root, _, files in os.walk(os.path.join(src, "docs")):
        for name in sorted(files):
            if name.endswith(".md"):
                check_links(src, os.path.join(root, name), set(names))
    check_links(src, readme, set(names))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
