"""Shared by the scenario scripts' Python checks (lib.sh puts this folder
on PYTHONPATH): say() prints an "ok: ..." or "FAIL: ..." line and
remembers a failure; done() ends the check, with status 1 after any."""
import sys

_failed = False


def say(good, text):
    global _failed
    print(("ok: " if good else "FAIL: ") + text)
    if not good:
        _failed = True


def done():
    sys.exit(1 if _failed else 0)
