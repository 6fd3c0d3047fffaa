#!/usr/bin/env python3
"""Congestion control against the HPCC authors' ns-3 simulator, same work.

Reference: the outputs of the HPCC paper's own simulator
(github.com/alibaba-edu/High-Precision-Congestion-Control @9f4be2a) on the
paper's 320-host fat-tree with WebSearch flows at 30% load, for DCQCN,
HPCC, TIMELY and DCTCP (tests/data/cc-ns3/README.md). For each algorithm
this runs fabemu on the same work (tools/hpcc-ns3.py maps the simulator's
config, topology and flow file to an experiment), bins both sides' flows
the way the simulator's analysis/fct_analysis.py does (sorted by size, the
largest flow dropped, 10% of the flows per bin, slowdown below 1 taken as
1; percentile p is the element at int(n p) of the sorted slowdowns), and
prints the per-bin median and p99 slowdown side by side with their ratio.

It fails (exit 1) when, in any bin, fabemu's median or p99 slowdown is off
the reference's by more than the tolerance: 15% (DCQCN, HPCC, TIMELY),
25% (DCTCP, rate-based). Independent expectation: the reference run's
per-flow FCTs, not anything fabemu computed.

    cc_ns3.py FABEMU [--cc dcqcn,hpcc,timely,dctcp] [--out DIR] [-j N]
              [--data DIR] [--config CFG --fct FCT.gz --flows FLOWS.gz]

--config/--fct/--flows run one other piece of work of the same simulator
(another load, seed or algorithm setting) against its own reference.
--until T (ns) runs only the flows that start before T and compares only
those the reference completed before T: a flow's completion depends only
on what happened before it, in either simulator, so this is the same
work, cut short (a CI-sized check); --bins N sets the bins (10 by
default; fewer for a short cut). Also prints wall time and peak memory of
each fabemu run (wall, CPU and peak resident memory).
"""
import argparse
import csv
import gzip
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "tests", "data", "cc-ns3")
CONVERT = os.path.join(ROOT, "tools", "hpcc-ns3.py")
# fabemu name -> the reference's file name part, tolerance.
ALGOS = {"dcqcn": ("dcqcn", 0.15), "hpcc": ("hp95ai50", 0.15),
         "timely": ("timely", 0.15), "dctcp": ("dctcp", 0.25)}
STEP = 10  # percent of the flows per bin (--bins)
TAIL = [0.99]  # the tail percentile compared (--tail)


def opener(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def node(ip_hex):
    """The simulator's node id of an address (third.cc: 11.x.y.1)."""
    return (int(ip_hex, 16) >> 8) & 0xffff


def ref_flows(path, until_ns=None):
    """(size, slowdown) of the reference's flows: fct / standalone fct; with
    @until_ns only those that completed before it, and their keys."""
    out, keys = [], set()
    with opener(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 8:
                continue
            size, start, fct, ideal = int(w[4]), int(w[5]), int(w[6]), int(w[7])
            if until_ns is not None and start + fct >= until_ns:
                continue
            out.append((size, max(1.0, fct / ideal)))
            # its start truncated to 1 us: the simulator's times drift by a
            # nanosecond from the flow file's decimals
            keys.add((node(w[0]), node(w[1]), size, start // 1000))
    return out, keys


def fab_flows(path, keys=None):
    """(size, slowdown) of fabemu's flows (with @keys, those the reference
    completed: matched by hosts, size and start), and how many did not
    complete."""
    out, incomplete = [], 0
    with open(path) as f:
        for row in csv.DictReader(f):
            if keys is not None:
                start_ns = int(float(row["start_ns"]))
                k = (int(row["src"].lstrip("h")), int(row["dst"].lstrip("h")), int(row["bytes"]))
                if not any(k + (t,) in keys for t in ((start_ns - 1) // 1000, start_ns // 1000)):
                    continue
            if row["status"] != "complete":
                incomplete += 1
                continue
            out.append((int(row["bytes"]), max(1.0, float(row["slowdown"]))))
    return out, incomplete


def bins(flows, step=STEP):
    """fct_analysis.py's table: per bin (max size, p50, p95, p99)."""
    a = sorted(flows, key=lambda x: (x[0], x[1]))[:-1]  # the largest flow dropped
    n = len(a)
    res = []
    for i in range(0, 100, step):
        part = a[i * n // 100:(i + step) * n // 100]
        s = sorted(x[1] for x in part)
        pct = lambda p: s[int(len(s) * p)]
        res.append((part[-1][0], pct(0.5), pct(0.95), pct(TAIL[0])))
    return res


def check(name, tol, ref, fab, out, step=STEP, tail_name="p99"):
    worst, bad = 0.0, []
    out.write("\n%s (tolerance %d%%): slowdown per %d%% size bin, fabemu / ns-3\n" % (name, tol * 100, step))
    out.write("%-5s %10s | %8s %8s %6s | %8s %8s %6s\n" %
              ("bin", "max size", "p50 ns3", "fabemu", "ratio", tail_name + " ns3", "fabemu", "ratio"))
    for i, (r, f) in enumerate(zip(ref, fab)):
        r50, r99, f50, f99 = r[1], r[3], f[1], f[3]
        q50, q99 = f50 / r50, f99 / r99
        out.write("%-5s %10d | %8.3f %8.3f %6.3f | %8.3f %8.3f %6.3f\n" %
                  ("%d%%" % (i * step), r[0], r50, f50, q50, r99, f99, q99))
        for what, q in (("p50", q50), (tail_name, q99)):
            worst = max(worst, abs(q - 1))
            if abs(q - 1) > tol:
                bad.append("bin %d%% %s: %.3f vs %.3f (x%.3f)" %
                           (i * step, what, f50 if what == "p50" else f99,
                            r50 if what == "p50" else r99, q))
    return worst, bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fabemu")
    ap.add_argument("--cc", default="dcqcn,hpcc,timely,dctcp")
    ap.add_argument("--out", default=None)
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--config")
    ap.add_argument("--fct")
    ap.add_argument("--flows")
    ap.add_argument("--topology")
    ap.add_argument("--tolerance", type=float, default=None)
    ap.add_argument("--until", type=int, default=None, help="ns after the first flow's start")
    ap.add_argument("--bins", type=int, default=100 // STEP)
    ap.add_argument("-j", dest="jobs", type=int, default=1)
    ap.add_argument("--set", dest="sets", action="append", default=[],
                    help="KEY=VALUE for every fabemu run (to show a check can fail)")
    ap.add_argument("--tail", type=float, default=0.99,
                    help="the tail percentile compared beside the median (0.99)")
    a = ap.parse_args()
    if a.bins < 1 or 100 % a.bins:
        sys.stderr.write("--bins must divide 100\n")
        return 2
    step = 100 // a.bins
    TAIL[0] = a.tail
    tail_name = "p%g" % (a.tail * 100)
    out_dir = a.out or os.path.join(os.getcwd(), "validation-cc-ns3")
    os.makedirs(out_dir, exist_ok=True)
    fabemu = os.path.abspath(a.fabemu)
    topo = a.topology or os.path.join(a.data, "fat.txt")

    jobs = []
    if a.config:
        name = os.path.basename(a.config)
        tol = a.tolerance if a.tolerance is not None else 0.15
        jobs.append((name, a.config, a.fct, a.flows, tol))
    else:
        for cc in a.cc.split(","):
            if cc not in ALGOS:
                sys.stderr.write("unknown algorithm '%s' (dcqcn, hpcc, timely, dctcp)\n" % cc)
                return 2
            part, tol = ALGOS[cc]
            if a.tolerance is not None:
                tol = a.tolerance
            jobs.append((cc, os.path.join(a.data, "config_fat_ws_l30_t20ms_%s.txt" % part),
                         os.path.join(a.data, "fct_fat_ws_l30_t20ms_%s.txt.gz" % part),
                         os.path.join(a.data, "ws_l30_t20ms.txt.gz"), tol))
    failed, summary, ready = [], [], []
    for name, config, fct, flows, tol in jobs:
        work = os.path.join(out_dir, name)
        os.makedirs(work, exist_ok=True)
        flow_txt = os.path.join(work, "flows.txt")
        with opener(flows) as fi:
            lines = fi.read().split("\n")
        cut_ns = None
        if a.until is not None:
            # Flows that start before the cut (the file is sorted by start;
            # its times are in seconds from the first flow's second).
            body = [l for l in lines[1:] if l.strip()]
            t0 = float(body[0].split()[5])
            t_first_ns = int(round(t0 * 1e9))
            cut_ns = t_first_ns + a.until
            keep = [l for l in body if float(l.split()[5]) * 1e9 < cut_ns]
            lines = [str(len(keep))] + keep
        with open(flow_txt, "w") as fo:
            fo.write("\n".join(lines) + "\n")
        exp = os.path.join(work, "experiment.yaml")
        rc = subprocess.call([sys.executable, CONVERT, config, "--topology", topo,
                              "--flows", flow_txt, "-o", exp])
        if rc != 0:
            failed.append("%s: conversion failed" % name)
            continue
        ready.append((name, fct, tol, exp, os.path.join(work, "results"), cut_ns))
    # The runs, -j at a time.
    running, done = {}, {}
    queue = list(ready)
    while queue or running:
        while queue and len(running) < max(1, a.jobs):
            name, fct, tol, exp, res, _ = queue.pop(0)
            sets = [x for kv in a.sets for x in ("--set", kv)]
            p = subprocess.Popen([fabemu, "run", exp, "-o", res, "-q"] + sets,
                                 stdout=subprocess.DEVNULL)
            running[p.pid] = (name, time.monotonic())
        pid, status, ru = os.wait4(-1, 0)
        if pid not in running:
            continue
        name, t0 = running.pop(pid)
        done[name] = (os.waitstatus_to_exitcode(status), time.monotonic() - t0, ru.ru_maxrss / 1024.0,
                      ru.ru_utime + ru.ru_stime)
    for name, fct, tol, exp, res, cut_ns in ready:
        code, wall, rss, cpu = done[name]
        if code != 0:
            failed.append("%s: fabemu exited %d" % (name, code))
            continue
        ref, keys = ref_flows(fct, cut_ns)
        fab, incomplete = fab_flows(os.path.join(res, "flows.csv"), keys if cut_ns else None)
        if incomplete or len(fab) != len(ref):
            failed.append("%s: %d flows complete of %d (reference: %d)" %
                          (name, len(fab), len(fab) + incomplete, len(ref)))
            continue
        worst, bad = check(name, tol, bins(ref, step), bins(fab, step), sys.stdout, step, tail_name)
        summary.append("%-8s %5d flows, worst bin off by %5.1f%% (tolerance %d%%), wall %6.1f s, CPU %6.1f s, peak %5.0f MiB" %
                       (name, len(fab), worst * 100, tol * 100, wall, cpu, rss))
        failed += ["%s: %s" % (name, b) for b in bad]
    print()
    for s in summary:
        print(s)
    for f in failed:
        print("FAIL:", f)
    bad = set(f.split(":")[0] for f in failed)
    print("%d passed, %d failed" % (len(jobs) - len(bad), len(bad)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
