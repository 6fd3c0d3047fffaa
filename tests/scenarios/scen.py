"""Shared by the scenario scripts' Python checks (lib.sh puts this folder
on PYTHONPATH): say() prints an "ok: ..." or "FAIL: ..." line and
remembers a failure; done() ends the check, with status 1 after any;
flat() gives a summary.json's values by dotted key."""
import json
import sys

_failed = False


def say(good, text):
    global _failed
    print(("ok: " if good else "FAIL: ") + text)
    if not good:
        _failed = True


def done():
    sys.exit(1 if _failed else 0)


def flat(d, p=""):
    """The leaves of nested dict @d by dotted key (summary.json's
    "wall_clock.run_s" ...)."""
    out = {}
    for k, v in d.items():
        out.update(flat(v, p + k + ".") if isinstance(v, dict) else {p + k: v})
    return out


def summary(path, skip=("wall_clock.", "provenance.")):
    """summary.json at @path flattened, less the keys starting with one of
    @skip (by default the wall clock's and the provenance's)."""
    return {k: v for k, v in flat(json.load(open(path))).items() if not k.startswith(skip)}
