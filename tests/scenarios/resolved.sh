#!/usr/bin/env bash
# resolved.yaml reproduces its run: run an experiment with --seed and --set
# overrides, run the resolved.yaml it wrote without overrides, and compare
# every result file (summary.json key by key less wall-clock and provenance
# fields; the rest byte for byte). The resolved file of the second run must
# say the same as the first (a fixed point), and overrides.txt lists the
# overrides as given.
#   resolved.sh FABEMU
set -u
fabemu=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/exp.yaml" <<'YAML'
name: resolved-check
topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 3}
fabric:
  buffer: 4MiB
  pfc: {priorities: [3], watchdog: {detection: 50us}}
  ecn: {kmin: 20KB, kmax: 200KB}
nic: {mtu: 2048}
traffic:
  - {kind: permutation, size: 64KiB}
  - {kind: incast, dst: h0, count: 3, size: 32KiB, start: 2us}
  - {kind: messages, messages: [{src: h1, dst: h4, size: 8KiB, op: send}]}
capture: {ports: ['h0:0']}
outputs: {series: {ports: ['leaf0:0'], interval: 5us}}
expect:
  - {metric: messages.incomplete, op: "==", value: 0}
YAML

fail=0
"$fabemu" run "$tmp/exp.yaml" -o "$tmp/a" -q --seed 11 --set nic.mtu=1024 \
	--set fabric.ecn.pmax=50% --set 'traffic.0.size=16KiB' || { echo "FAIL: first run"; exit 1; }
"$fabemu" run "$tmp/a/resolved.yaml" -o "$tmp/b" -q || { echo "FAIL: resolved run"; exit 1; }
printf '%s\n' '--seed 11' '--set nic.mtu=1024' '--set fabric.ecn.pmax=50%' \
	'--set traffic.0.size=16KiB' | cmp -s - "$tmp/a/overrides.txt" ||
	{ echo "FAIL: overrides.txt:"; cat "$tmp/a/overrides.txt"; fail=1; }
[ -s "$tmp/b/overrides.txt" ] && { echo "FAIL: the resolved run has overrides"; fail=1; }
grep -q '^seed: 11$' "$tmp/a/resolved.yaml" || { echo "FAIL: seed not resolved"; fail=1; }
cmp -s <(grep -v '^#' "$tmp/a/resolved.yaml") <(grep -v '^#' "$tmp/b/resolved.yaml") ||
	{ echo "FAIL: resolved.yaml is not a fixed point:"; diff "$tmp/a/resolved.yaml" "$tmp/b/resolved.yaml"; fail=1; }
python3 - "$tmp/a" "$tmp/b" <<'PY' || fail=1
import json, os, sys
a, b = sys.argv[1], sys.argv[2]
def flat(d, p=""):
    out = {}
    for k, v in d.items():
        out.update(flat(v, p + k + ".") if isinstance(v, dict) else {p + k: v})
    return out
bad = []
n = 0
for root, _, names in os.walk(a):
    for name in names:
        rel = os.path.relpath(os.path.join(root, name), a)
        if rel in ("resolved.yaml", "overrides.txt"):
            continue
        n += 1
        pa, pb = os.path.join(a, rel), os.path.join(b, rel)
        if not os.path.exists(pb):
            bad.append(rel + ": missing")
        elif rel == "summary.json":
            ja, jb = flat(json.load(open(pa))), flat(json.load(open(pb)))
            skip = lambda k: k.startswith("wall_clock.") or k.startswith("provenance.")
            for k in set(ja) | set(jb):
                if not skip(k) and ja.get(k) != jb.get(k):
                    bad.append(f"summary {k}: {ja.get(k)} vs {jb.get(k)}")
        elif open(pa, "rb").read() != open(pb, "rb").read():
            bad.append(rel + ": differs")
for x in bad[:10]:
    print("FAIL:", x)
if n < 5:
    print(f"FAIL: only {n} result files compared")
    bad.append("few")
sys.exit(1 if bad else 0)
PY
[ "$fail" -eq 0 ] && echo "resolved.yaml reproduces the run"
exit "$fail"
