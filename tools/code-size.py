#!/usr/bin/env python3
"""Hold the sources to the house limits on size: no C function over 120
lines and no source file over 800 lines, outside tests/ (STYLE: a file
past about 800 lines is doing too much; a function that does not fit a
screen or two is several). Prints each one over, and exits 1 when any is.

    tools/code-size.py [SOURCE_ROOT]

A function is counted from the line of its opening brace (in column 0,
as every function here is written) to its closing brace in column 0.
"""
import os
import re
import sys

MAX_FUNC_LINES = 120
MAX_FILE_LINES = 800
SKIP_DIRS = {"tests", ".git", "subprojects"}


def sources(root):
    for top, dirs, files in os.walk(root):
        rel = os.path.relpath(top, root)
        parts = [] if rel == "." else rel.split(os.sep)
        if parts and (parts[0] in SKIP_DIRS or parts[0].startswith("build")
                      or parts[0].startswith(".")):
            dirs[:] = []
            continue
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.join(top, f)


def name_before(lines, i):
    """The identifier before the parameter list that ends above line i."""
    j = i - 1
    while j >= 0 and "(" not in lines[j]:
        j -= 1
    m = re.search(r"(\w+)\s*\(", lines[j]) if j >= 0 else None
    return m.group(1) if m else "?"


def check(path, root, out):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    rel = os.path.relpath(path, root)
    n = len(lines) - (1 if lines and lines[-1] == "" else 0)
    if n > MAX_FILE_LINES:
        out.append(f"{rel}: {n} lines (at most {MAX_FILE_LINES})")
    start = None
    for i, line in enumerate(lines):
        if start is None and line.startswith("{") and i > 0 and lines[i - 1].rstrip().endswith(")"):
            start = i
        elif start is not None and line.startswith("}"):
            length = i - start + 1
            if length > MAX_FUNC_LINES:
                out.append(f"{rel}:{start + 1}: {name_before(lines, start)}() is {length} lines "
                           f"(at most {MAX_FUNC_LINES})")
            start = None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(root)
    out = []
    count = 0
    for path in sources(root):
        check(path, root, out)
        count += 1
    if count < 50:
        print(f"code-size: only {count} source files under {root}: wrong folder?")
        return 1
    for line in out:
        print(line)
    print(f"code-size: {count} files, {len(out)} over the limits")
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
