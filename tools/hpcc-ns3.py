#!/usr/bin/env python3
"""Turn a run of the HPCC authors' ns-3 simulator into a fabemu experiment.

The simulator (github.com/alibaba-edu/High-Precision-Congestion-Control,
scratch/third.cc, run.py) reads a config file (`KEY value` lines), a
topology file and a flow file. This tool reads the same three and writes
one fabemu experiment that runs the same work: the topology file as it is
(`topology: {kind: ns3}`), the flow file as it is (`traffic: kind: trace,
format: hpcc-flow`, one QP per flow as the simulator opens one), and every
parameter of the config mapped to its fabemu key, or refused with the
reason when fabemu has no equivalent (never silently dropped).

    tools/hpcc-ns3.py CONFIG [--topology FILE] [--flows FILE] [-o EXP.yaml]

TOPOLOGY_FILE and FLOW_FILE are taken from the config, relative to the
config's folder (the simulator's `mix/` or `OUT/` prefix is tried both as
written and as the file's base name beside the config); --topology and
--flows override them. Paths in the experiment are relative to its own
folder. Exit status 0, or 2 with `CONFIG:LINE: message` on bad input.

What the mapping assumes and why (facts from third.cc, rdma-hw.cc,
switch-mmu.cc at commit 9f4be2a):
- the NICs' rate is the rate of the hosts' links (all equal); the switch
  buffer is BUFFER_SIZE MiB with a 4 KiB reserve per ingress priority and
  PFC resuming 3 KiB under the dynamic threshold, whose shift is 3 (alpha
  1/8) on NIC-rate ports and one less per doubling of a port's rate above
  it; ECN marks at dequeue on the egress queue's bytes with KMIN/KMAX/PMAX
  per port rate (KB = 1000 B);
- an ACK per packet (L2_ACK_INTERVAL 1), no retransmission timer, a CNP
  for every CE-marked packet (the simulator flags the ACK);
- ACKs and CNPs in the data's class: the simulator's switches queue ACKs
  (and the CNP flags they carry) with the data of their priority group,
  since third.cc never sets SwitchNode's AckHighPrio (default 0);
  ACK_HIGH_PRIO only names the priority whose PFC pause stops a host's
  ACK queue, which the host NIC serves before data either way (fabemu's
  NICs send queued ACKs before pulled data too), and no run pauses;
- HPCC's INT: the simulator's 8-byte record and its INT_MULTI
  (`fabric.int_record: compact`, `fabric.int_multi`);
- GLOBAL_T 1: T (HPCC) and the window's RTT (HPCC, DCTCP with VAR_WIN) are
  the fabric's largest base RTT, 2 x delay + the serialisation of one
  payload per link along the longest host-to-host shortest path, as
  third.cc computes maxRtt.
"""
import argparse
import collections
import os
import sys

CC_MODES = {1: "dcqcn", 3: "hpcc", 7: "timely", 8: "dctcp"}


class Bad(Exception):
    """Bad input: message already says where."""


def fail(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(2)


def read_config(path):
    """KEY -> (value words, line number)."""
    cfg = {}
    try:
        with open(path, encoding="utf-8") as f:
            for no, line in enumerate(f, 1):
                words = line.split()
                if not words:
                    continue
                cfg[words[0]] = (words[1:], no)
    except (OSError, UnicodeDecodeError) as e:
        raise Bad("%s: cannot read: %s" % (path, e))
    return cfg


def rate_bps(s):
    """An ns-3 DataRate string (100Gbps, 20Mb/s, 1000Mb/s) in bit/s."""
    units = [("Gbps", 1e9), ("Gb/s", 1e9), ("Mbps", 1e6), ("Mb/s", 1e6),
             ("Kbps", 1e3), ("Kb/s", 1e3), ("bps", 1), ("b/s", 1)]
    for u, m in units:
        if s.endswith(u):
            return int(round(float(s[: -len(u)]) * m))
    raise ValueError("rate '%s' has no unit (Gbps, Mb/s, ...)" % s)


def time_ns(s):
    for u, m in [("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9)]:
        if s.endswith(u):
            return float(s[: -len(u)]) * m
    raise ValueError("time '%s' has no unit" % s)


def fmt_rate(bps):
    if bps % 1000000000 == 0:
        return "%dGbps" % (bps // 1000000000)
    if bps % 1000000 == 0:
        return "%dMbps" % (bps // 1000000)
    return "%dbps" % bps


def read_topology(path):
    """(hosts, links [(a, b, rate_bps, delay_ns)]) of an ns-3 topology file."""
    try:
        with open(path, encoding="utf-8") as f:
            tok = f.read().split()
    except (OSError, UnicodeDecodeError) as e:
        raise Bad("%s: cannot read: %s" % (path, e))
    try:
        n, s, l = int(tok[0]), int(tok[1]), int(tok[2])
        switches = set(int(x) for x in tok[3:3 + s])
        links = []
        k = 3 + s
        for _ in range(l):
            a, b, r, d = int(tok[k]), int(tok[k + 1]), rate_bps(tok[k + 2]), time_ns(tok[k + 3])
            links.append((a, b, r, d))
            k += 5
    except (IndexError, ValueError) as e:
        raise Bad("%s: not an ns-3 topology file: %s" % (path, e))
    hosts = [i for i in range(n) if i not in switches]
    return hosts, switches, links


def max_rtt_ns(hosts, switches, links, payload):
    """third.cc's maxRtt: per host, a BFS through switches; rtt = 2 x
    delay + payload serialisation per link, the largest over host pairs."""
    adj = collections.defaultdict(list)
    for a, b, r, d in links:
        adj[a].append((b, r, d))
        adj[b].append((a, r, d))
    best = 0.0
    for h in hosts:
        dis, delay, tx = {h: 0}, {h: 0.0}, {h: 0}
        q = [h]
        i = 0
        while i < len(q):
            now = q[i]
            i += 1
            for nxt, r, d in adj[now]:
                if nxt in dis:
                    continue
                dis[nxt] = dis[now] + 1
                delay[nxt] = delay[now] + d
                tx[nxt] = tx[now] + payload * 1000000000 * 8 // r
                if nxt in switches:
                    q.append(nxt)
        for o in hosts:
            if o != h and o in dis:
                best = max(best, 2 * delay[o] + tx[o])
    return best


def host_rate(hosts, links):
    rates = set()
    hs = set(hosts)
    for a, b, r, _ in links:
        if a in hs or b in hs:
            rates.add(r)
    if len(rates) != 1:
        raise Bad("hosts' links have rates %s: the mapping needs one NIC rate" %
                  sorted(rates))
    return rates.pop()


def find_file(cfg_path, name):
    base = os.path.dirname(os.path.abspath(cfg_path))
    for cand in (name, os.path.join(base, name), os.path.join(base, os.path.basename(name))):
        if os.path.isfile(cand):
            return cand
    return None


def convert(cfg_path, topo_arg, flows_arg, out_path):
    cfg = read_config(cfg_path)

    def get(key, default=None):
        if key not in cfg:
            if default is None:
                raise Bad("%s: missing %s" % (cfg_path, key))
            return default, 0
        v, no = cfg[key]
        return v, no

    def one(key, conv=str, default=None):
        v, no = get(key, default if default is None else [default])
        try:
            return conv(v[0])
        except (IndexError, ValueError) as e:
            raise Bad("%s:%d: %s: %s" % (cfg_path, no, key, e))

    def refuse(key, why):
        no = cfg[key][1] if key in cfg else 0
        raise Bad("%s:%d: %s: %s" % (cfg_path, no, key, why))

    mode = one("CC_MODE", int)
    if mode not in CC_MODES:
        refuse("CC_MODE", "mode %d has no fabemu algorithm (1 dcqcn, 3 hpcc, 7 timely, 8 dctcp)" % mode)
    cc = CC_MODES[mode]
    payload = one("PACKET_PAYLOAD_SIZE", int)
    if not 256 <= payload <= 4096:
        refuse("PACKET_PAYLOAD_SIZE", "%d bytes: fabemu sends 256..4096 per packet" % payload)
    # What fabemu does not model is refused, not dropped.
    checks = [("L2_BACK_TO_ZERO", "0", "go-back-0 is not modelled (fabemu's NACKs resend from the hole)"),
              ("L2_ACK_INTERVAL", "1", "fabemu is mapped with an ACK per packet only"),
              ("ERROR_RATE_PER_LINK", None, "per-link loss: use fabric.loss by hand"),
              ("MULTI_RATE", "0", "HPCC's per-hop rates are not modelled"),
              ("SAMPLE_FEEDBACK", "0", "HPCC's sampled feedback is not modelled"),
              ("RATE_BOUND", "1", "unpaced sending is not modelled"),
              ("USE_DYNAMIC_PFC_THRESHOLD", "1", "only the dynamic PFC threshold is mapped"),
              ("ENABLE_TRACE", "0", None)]
    for key, want, why in checks:
        if key not in cfg:
            continue
        v = cfg[key][0]
        if key == "ERROR_RATE_PER_LINK":
            if float(v[0]) != 0:
                refuse(key, why)
            continue
        if why and v[0] != want:
            refuse(key, why)
    if "LINK_DOWN" in cfg and cfg["LINK_DOWN"][0] != ["0", "0", "0"]:
        refuse("LINK_DOWN", "link failures: write a faults: entry by hand")
    has_win = one("HAS_WIN", int, "0")
    var_win = one("VAR_WIN", int, "0")
    global_t = one("GLOBAL_T", int, "1")

    topo_name = topo_arg or one("TOPOLOGY_FILE")
    flow_name = flows_arg or one("FLOW_FILE")
    topo_path = topo_arg if topo_arg else find_file(cfg_path, topo_name)
    flow_path = flows_arg if flows_arg else find_file(cfg_path, flow_name)
    if not topo_path or not os.path.isfile(topo_path):
        raise Bad("%s: topology file %s not found (--topology)" % (cfg_path, topo_name))
    if not flow_path or not os.path.isfile(flow_path):
        raise Bad("%s: flow file %s not found (--flows)" % (cfg_path, flow_name))
    hosts, switches, links = read_topology(topo_path)
    nic_bps = host_rate(hosts, links)
    t_ns = max_rtt_ns(hosts, switches, links, payload)

    # Per port rate: ECN thresholds (KB = 1000 B) and the PFC alpha shift.
    def rate_map(key, conv):
        v, no = get(key)
        try:
            n = int(v[0])
            return {int(v[1 + 2 * i]): conv(v[2 + 2 * i]) for i in range(n)}
        except (IndexError, ValueError) as e:
            raise Bad("%s:%d: %s: %s" % (cfg_path, no, key, e))

    port_rates = sorted(set(r for _, _, r, _ in links))
    # Marks reach only algorithms that react to them: the simulator sets a
    # flag in the ACK that HPCC and TIMELY ignore; fabemu's receivers would
    # send CNPs for them, so their runs leave marking off.
    ecn = one("ENABLE_QCN", int, "1") and cc in ("dcqcn", "dctcp")
    by_rate = []
    if ecn:
        kmin, kmax, pmax = rate_map("KMIN_MAP", int), rate_map("KMAX_MAP", int), rate_map("PMAX_MAP", float)
        for r in port_rates:
            if r not in kmin or r not in kmax or r not in pmax:
                refuse("KMIN_MAP", "no thresholds for %s ports (the simulator asserts too)" % fmt_rate(r))
            by_rate.append("{rate: %s, kmin: %dKB, kmax: %dKB, pmax: %g%%}" %
                           (fmt_rate(r), kmin[r], kmax[r], pmax[r] * 100))
    alpha_by_rate = []
    for r in port_rates:
        shift, rr = 3, r
        while rr > nic_bps and shift > 0:
            shift -= 1
            rr //= 2
        if shift != 3:
            alpha_by_rate.append("{rate: %s, alpha: %g%%}" % (fmt_rate(r), 100.0 / (1 << shift)))

    one("ACK_HIGH_PRIO", int, "0")  # read, and no effect here: see the module comment
    min_rate = fmt_rate(rate_bps(one("MIN_RATE")))
    rai = fmt_rate(rate_bps(one("RATE_AI")))
    rhai = fmt_rate(rate_bps(one("RATE_HAI")))
    t_str = "%gns" % t_ns if global_t else "0us"
    if cc == "dcqcn":
        if has_win:
            refuse("HAS_WIN", "DCQCN with a window (dcqcn_vwin) is not modelled")
        cc_line = ("dcqcn: {preset: connectx, g: %s, alpha_period: %gus, alpha_init: 1, "
                   "reduce_period: %gus, timer: %gus, byte_counter: 0B, threshold: %d, "
                   "rai: %s, rhai: %s, hyper: fixed, min_rate: %s, clamp_target: %s}" %
                   (one("EWMA_GAIN"), one("ALPHA_RESUME_INTERVAL", float),
                    one("RATE_DECREASE_INTERVAL", float), one("RP_TIMER", float),
                    one("FAST_RECOVERY_TIMES", int), rai, rhai, min_rate,
                    "true" if one("CLAMP_TARGET_RATE", int) else "false"))
    elif cc == "hpcc":
        if not (has_win and var_win):
            refuse("HAS_WIN", "fabemu's HPCC is a window with rate W/T: HAS_WIN 1 and VAR_WIN 1")
        if one("FAST_REACT", int, "1") != 1:
            refuse("FAST_REACT", "fabemu's HPCC reacts on every ACK (FAST_REACT 1)")
        cc_line = ("hpcc: {eta: %s, max_stage: %d, ai: %.9g, t: %s, min_rate: %s}" %
                   (one("U_TARGET"), one("MI_THRESH", int), rate_bps(one("RATE_AI")) / nic_bps,
                    t_str, min_rate))
    elif cc == "timely":
        if has_win:
            refuse("HAS_WIN", "TIMELY with a window (timely_vwin) is not modelled")
        cc_line = "timely: {rai: %s, rhai: %s, min_rate: %s}" % (rai, rhai, min_rate)
    else:
        if not (has_win and var_win):
            refuse("HAS_WIN", "DCTCP's rate mode keeps the window rate x T: HAS_WIN 1 and VAR_WIN 1")
        cc_line = ("dctcp: {mode: rate, g: %s, alpha_init: 1, rai: %s, min_rate: %s, t: %s}" %
                   (one("EWMA_GAIN"), fmt_rate(rate_bps(one("DCTCP_RATE_AI"))), min_rate,
                    t_str if global_t else "0us"))

    out_dir = os.path.dirname(os.path.abspath(out_path)) if out_path else os.getcwd()
    rel = lambda p: os.path.relpath(os.path.abspath(p), out_dir)
    buf_mib = one("BUFFER_SIZE", float)
    name = os.path.splitext(os.path.basename(cfg_path))[0]
    lines = [
        "# Made by tools/hpcc-ns3.py from %s: the HPCC authors' ns-3 simulator's" % os.path.basename(cfg_path),
        "# run (github.com/alibaba-edu/High-Precision-Congestion-Control), same",
        "# topology file, flow file and parameters. maxRtt %g ns." % t_ns,
        "name: %s" % name.replace("config_", "ns3-"),
        "seed: 1",
        "topology: {kind: ns3, file: %s}" % rel(topo_path),
        "fabric:",
        "  buffer: %gMiB" % buf_mib,
        "  reserve: 4KiB",
        "  pfc: {priorities: [3], alpha: 12.5%%, xon_offset: 3KiB%s}" %
        (", alpha_by_rate: [%s]" % ", ".join(alpha_by_rate) if alpha_by_rate else ""),
    ]
    if ecn:
        lines.append("  ecn: {tcs: [3], mark_on: dequeue, by_rate: [%s]}" % ", ".join(by_rate))
    if cc == "hpcc":
        # The simulator's 8-byte INT record and its multiplier.
        lines += ["  int: true", "  int_record: compact",
                  "  int_multi: %d" % one("INT_MULTI", int, "1")]
    lines += [
        "nic:",
        "  cc: %s" % cc,
        "  mtu: %d" % payload,
        "  ack_every: 1",
        "  dscp: 26",
        "  ack_dscp: 26",
        "  cnp_dscp: 26",
        "  cnp_interval: 0us",
        "  rto: off",
        "  %s" % cc_line,
        "traffic:",
        "  - {kind: trace, name: flows, format: hpcc-flow, file: %s, qp: per-message}" % rel(flow_path),
    ]
    text = "\n".join(lines) + "\n"
    if out_path:
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("config")
    ap.add_argument("--topology")
    ap.add_argument("--flows")
    ap.add_argument("-o", dest="out")
    a = ap.parse_args()
    try:
        convert(a.config, a.topology, a.flows, a.out)
    except Bad as e:
        fail(str(e))


if __name__ == "__main__":
    main()
