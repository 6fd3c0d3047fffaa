#!/usr/bin/env python3
"""Write N random, small, valid fabemu experiments into a folder.

The corpus for tools/identity-check.sh: a change that must not alter any
simulation result is run against the previous binary over these (and the
shipped experiments), and every result file must come out the same. The
experiments cover the three topology kinds, PFC (dynamic and static
thresholds, watchdog, disabled ports), ECN, link loss, every operation,
VLAN tags, both loss-recovery schemes, payload, captures and series.

    tools/stress-gen.py OUTDIR [N] [SEED]
"""
import os
import random
import sys


def topology(r):
    kind = r.choice(["leaf-spine", "leaf-spine", "fat-tree", "explicit"])
    rate = r.choice(["25Gbps", "100Gbps", "100Gbps", "400Gbps"])
    delay = r.choice(["500ns", "1us", "2us"])
    if kind == "leaf-spine":
        leaves, spines, hpl = r.randint(2, 4), r.randint(1, 3), r.randint(2, 4)
        lps = r.choice([1, 1, 2])
        frate = r.choice([rate, "100Gbps", "400Gbps"])
        t = (f"{{kind: leaf-spine, leaves: {leaves}, spines: {spines}, hosts_per_leaf: {hpl}, "
             f"links_per_spine: {lps}, host_link: {{rate: {rate}, delay: {delay}}}, "
             f"fabric_link: {{rate: {frate}, delay: {delay}}}}}")
        hosts = [f"h{i}" for i in range(leaves * hpl)]
        ports = [f"leaf0:{hpl}", "h0:0", f"spine0:0"]
        return t, hosts, ports
    if kind == "fat-tree":
        tiers = r.choice([2, 3])
        k = 4
        n = k * k // 2 if tiers == 2 else k ** 3 // 4
        t = (f"{{kind: fat-tree, k: {k}, tiers: {tiers}, host_link: {{rate: {rate}, delay: {delay}}}, "
             f"fabric_link: {{rate: {rate}, delay: {delay}}}}}")
        hosts = [f"h{i}" for i in range(n)]
        return t, hosts, ["edge0:0", "h1:0", f"edge0:{k // 2}"]
    # explicit: a ring of switches, hosts hung on them, optional dual homing
    ns = r.randint(2, 4)
    hps = r.randint(1, 3)
    nodes, links = [], []
    for s in range(ns):
        nodes.append(f"{{name: sw{s}, kind: switch}}")
    hosts = []
    for s in range(ns):
        for j in range(hps):
            h = f"h{s * hps + j}"
            hosts.append(h)
            nodes.append(f"{{name: {h}, kind: host}}")
            links.append(f'{{endpoints: ["{h}:0", "sw{s}:{j}"]}}')
    for s in range(ns - 1):
        links.append(f'{{endpoints: ["sw{s}:{hps + 1}", "sw{s + 1}:{hps}"], rate: {r.choice(["100Gbps", "200Gbps"])}}}')
    t = ("\n  kind: explicit\n"
         f"  default_link: {{rate: {rate}, delay: {delay}}}\n"
         f"  nodes: [{', '.join(nodes)}]\n"
         f"  links: [{', '.join(links)}]")
    return t, hosts, ["sw0:0", "h0:0"]


def workload(r, hosts, i):
    op = r.choice(["write", "write", "send", "read"])
    size = r.choice(["1KiB", "4KiB", "64KiB", "256KiB", "1MiB", "3000B", "100B"])
    dscp = r.choice(["", ", dscp: 26", ", dscp: 10", ", dscp: 34"])
    start = r.choice(["", ", start: 1us", ", start: 3us"])
    kind = r.choice(["permutation", "incast", "messages"])
    if kind == "permutation":
        return f"  - {{kind: permutation, name: w{i}, size: {size}, op: {op}{dscp}{start}}}"
    if kind == "incast":
        dst = r.choice(hosts)
        cnt = r.randint(1, min(6, len(hosts) - 1))
        return f"  - {{kind: incast, name: w{i}, dst: {dst}, count: {cnt}, size: {size}, op: {op}{dscp}{start}}}"
    msgs = []
    for _ in range(r.randint(1, 5)):
        a, b = r.sample(hosts, 2)
        msgs.append(f"{{src: {a}, dst: {b}, size: {r.choice(['2KiB', '64KiB', '512KiB'])}, "
                    f"op: {r.choice(['write', 'send', 'read'])}, start: {r.choice(['0ns', '2us', '5us'])}}}")
    return f"  - {{kind: messages, name: w{i}, messages: [{', '.join(msgs)}]}}"


def experiment(r, idx):
    t, hosts, ports = topology(r)
    out = [f"name: stress{idx}", f"seed: {r.randint(1, 1 << 30)}", f"topology: {t}"]
    fab = [f"buffer: {r.choice(['1MiB', '2MiB', '4MiB', '16MiB'])}"]
    if r.random() < 0.3:
        fab.append(f"reserve: {r.choice(['2KiB', '8KiB'])}")
    if r.random() < 0.3:
        fab.append(f"egress_alpha: {r.choice(['1', '0.5', '25%'])}")
    if r.random() < 0.25:
        fab.append(f"loss: {r.choice(['0.001', '0.01'])}")
    if r.random() < 0.2:
        fab.append("scheduler: {strict: [7], weights: [1, 2, 1, 4, 1, 1, 1, 1]}")
    if r.random() < 0.6:
        pfc = ["priorities: [3]"]
        if r.random() < 0.3:
            pfc.append("xoff: 64KiB")
            pfc.append("xon: 48KiB")
        if r.random() < 0.3:
            pfc.append("watchdog: {detection: 50us, restoration: 100us}")
        if r.random() < 0.2:
            pfc.append(f'disabled_ports: ["{ports[0]}"]')
        if r.random() < 0.2:
            pfc.append("pause_quanta: 1000")
        fab.append(f"pfc: {{{', '.join(pfc)}}}")
    if r.random() < 0.4:
        fab.append(f"ecn: {{tcs: [3], kmin: 20KB, kmax: 200KB, pmax: 20%, "
                   f"mark_on: {r.choice(['enqueue', 'dequeue'])}}}")
    out.append(f"fabric: {{{', '.join(fab)}}}")
    nic = [f"mtu: {r.choice([1024, 2048, 4096])}", f"ack_every: {r.choice([1, 4, 16])}"]
    if r.random() < 0.3:
        nic.append("vlan_id: 100")
    if r.random() < 0.3:
        nic.append("payload: true")
    if r.random() < 0.4:
        nic.append("recovery: selective-repeat")
    if r.random() < 0.3:
        nic.append("rto: 100us")
    out.append(f"nic: {{{', '.join(nic)}}}")
    if r.random() < 0.2:
        out.append(f"stop_time: {r.choice(['50us', '200us'])}")
    out.append("traffic:")
    for i in range(r.randint(1, 3)):
        out.append(workload(r, hosts, i))
    if r.random() < 0.4:
        out.append(f'capture: {{ports: ["{ports[1]}"]{", snaplen: 128" if r.random() < 0.5 else ""}}}')
    if r.random() < 0.3:
        out.append(f'outputs: {{series: {{ports: ["{ports[0]}"], interval: 5us}}}}')
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 80
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    r = random.Random(seed)
    os.makedirs(outdir, exist_ok=True)
    for i in range(n):
        with open(os.path.join(outdir, f"stress{i:03d}.yaml"), "w") as f:
            f.write(experiment(r, i))


if __name__ == "__main__":
    main()
