#!/usr/bin/env python3
"""Compare two results folders for tools/identity-check.sh: every file of A
must be in B with the same content; summary.json key by key, less the
wall-clock fields, the provenance block (the build's commit; the digest
follows the files, which are compared themselves), keys A does not have and
engine.packet_pool (the pool's
size when the experiment leaves it unset: the default pool sizes itself
since the seams round, and a pool that never ran dry changes no result;
summary.json's valid and nic.pool_exhausted say when one did).
resolved.yaml likewise: every value of A's must be in B's (B may name new
keys with their defaults). Prints the differences; exit 1 when there are
any."""
import json
import os
import sys

import yaml


def flat(d, prefix=""):
    out = {}
    for k, v in d.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flat(v, key + "."))
        else:
            out[key] = v
    return out


def subset(x, y, path, diffs):
    """Every value of x is in y (maps: key by key; lists and scalars: equal)."""
    if isinstance(x, dict) and isinstance(y, dict):
        for k, v in x.items():
            if k not in y:
                diffs.append(f"  resolved {path}{k}: missing in new")
            else:
                subset(v, y[k], f"{path}{k}.", diffs)
    elif x != y:
        diffs.append(f"  resolved {path.rstrip('.')}: {x} -> {y}")


def main():
    a, b = sys.argv[1], sys.argv[2]
    diffs = []
    for root, _, names in os.walk(a):
        for name in names:
            pa = os.path.join(root, name)
            rel = os.path.relpath(pa, a)
            pb = os.path.join(b, rel)
            if not os.path.exists(pb):
                diffs.append(f"  {rel}: missing in new")
                continue
            if rel == "summary.json":
                ja, jb = flat(json.load(open(pa))), flat(json.load(open(pb)))
                for k, v in ja.items():
                    if (k.startswith("wall_clock.") or k.startswith("provenance.")
                            or k == "engine.packet_pool"):
                        continue
                    if k not in jb:
                        diffs.append(f"  summary {k}: missing in new")
                    elif jb[k] != v:
                        diffs.append(f"  summary {k}: {v} -> {jb[k]}")
            elif rel == "resolved.yaml":
                subset(yaml.safe_load(open(pa)), yaml.safe_load(open(pb)), "", diffs)
            elif open(pa, "rb").read() != open(pb, "rb").read():
                diffs.append(f"  {rel}: differs")
    for d in diffs[:10]:
        print(d)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
