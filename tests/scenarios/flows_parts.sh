#!/usr/bin/env bash
# flows.csv's part and collective columns (experiments with a dependency
# graph; docs/results.md): which part of a training step a message serves
# and which collective instance it is a transfer of. Expectations, by hand:
# - ring-allreduce.yaml: every message belongs to an instance, and an
#   instance's messages carry 2 (n - 1) x size bytes in all (each of the n
#   ranks sends (n - 1) / n of the buffer in reduce-scatter and again in
#   all-gather), for every row of collectives.csv (n and size from there);
# - pipeline-bubble.yaml (tp 4, pp 4, 4 microbatches, 2 steps, no tensor
#   or gradient bytes): exactly the pipeline sends, 2 x M x (P - 1) per
#   tensor-parallel lane and step = 2 x 4 x 3 x 4 x 2 = 192 rows of part
#   pp, none of another part, none in a collective;
# - quickstart.yaml (no graph): the columns are absent.
#   flows_parts.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1 exp_dir=$2
. "$(dirname "$0")/lib.sh"

for x in ring-allreduce pipeline-bubble quickstart; do
	"$fabemu" run "$exp_dir/$x.yaml" -o "$tmp/$x" -q 2>/dev/null
done
python3 - "$tmp" <<'PY' || fail=1
import collections, csv, sys
tmp = sys.argv[1]
bad = 0
def fail(msg):
    global bad
    print("FAIL: " + msg)
    bad = 1

rows = list(csv.DictReader(open(tmp + "/ring-allreduce/flows.csv")))
colls = list(csv.DictReader(open(tmp + "/ring-allreduce/collectives.csv")))
got = collections.Counter()
for r in rows:
    if not r["collective"]:
        fail("ring-allreduce: message %s in no collective" % r["id"])
    got[r["collective"]] += int(r["bytes"])
for i, c in enumerate(colls):
    n, size = int(c["ranks"]), int(c["size_bytes"])
    want = 2 * (n - 1) * size
    name = "all-reduce#%d" % i
    if got[name] != want:
        fail("ring-allreduce: %s carries %d bytes, 2 (n - 1) size = %d" % (name, got[name], want))
if len(got) != len(colls):
    fail("ring-allreduce: %d instances in flows.csv, %d in collectives.csv" % (len(got), len(colls)))
print("ring-allreduce: %d instances, each 2 (n - 1) x size bytes" % len(colls))

rows = list(csv.DictReader(open(tmp + "/pipeline-bubble/flows.csv")))
parts = collections.Counter(r["part"] for r in rows)
if parts != collections.Counter({"pp": 192}):
    fail("pipeline-bubble: parts %s, want 192 pp" % dict(parts))
if any(r["collective"] for r in rows):
    fail("pipeline-bubble: a pipeline send in a collective")
print("pipeline-bubble: parts %s" % dict(parts))

head = open(tmp + "/quickstart/flows.csv").readline().strip().split(",")
if "part" in head or "collective" in head:
    fail("quickstart: graph columns without a graph")
sys.exit(bad)
PY
exit $fail
