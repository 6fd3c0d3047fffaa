#!/usr/bin/env bash
# experiments/hierarchical-allreduce.yaml with NVLink at 40 Tb/s (its own)
# and at NVLink 4's 3.6 Tb/s. Independent expectation: the bandwidth
# terms of the alpha-beta model (the collectives reference, section 2; the
# experiment's header writes them out): every time within 10% of the
# model, and the ratio flat / hierarchical within 10% of the model's
# (hierarchical wins with the fast NVLink, loses with NVLink 4).
#   hierarchical_allreduce.sh FABEMU EXPERIMENTS_DIR
set -eu
fabemu=$1
dir=$2
. "$(dirname "$0")/lib.sh"

# The experiment as shipped through check: its expect: list too (the test
# experiment-hierarchical-allreduce is then in the release set only).
"$fabemu" check "$dir/hierarchical-allreduce.yaml" -o "$tmp/fast" -q >"$tmp/check.txt" ||
	{ cat "$tmp/check.txt"; bad "hierarchical-allreduce: its expect list"; }
"$fabemu" run "$dir/hierarchical-allreduce.yaml" -o "$tmp/nvl4" -q --set topology.nvlink.rate=3.6Tbps
python3 - "$tmp" <<'PY' || fail=1
import csv, sys
tmp = sys.argv[1]
from scen import say, done
S, G, N = 256 * 2 ** 20, 8, 2
n = G * N
pay = 4096 / 4178
b_nic = 400e9 / 8 * pay
for run, nvl_bps in (("fast", 40e12), ("nvl4", 3.6e12)):
    b_nvl = nvl_bps / 8 * pay
    t_flat = 2 * (n - 1) / n * S / (8 * b_nic) * 1e6
    t_hier = (2 * (G - 1) / G * S / b_nvl + 2 * (N - 1) / N * S / (G * b_nic)) * 1e6
    rows = {r["workload"]: float(r["time_us"]) for r in csv.DictReader(open("%s/%s/collectives.csv" % (tmp, run)))}
    for w, model in (("flat", t_flat), ("hier", t_hier)):
        say(abs(rows[w] - model) <= 0.10 * model,
            "%s: %s %.1f us, model %.1f us" % (run, w, rows[w], model))
    r, m = rows["flat"] / rows["hier"], t_flat / t_hier
    say(abs(r - m) <= 0.10 * m, "%s: flat / hierarchical %.3f, model %.3f (%s)"
        % (run, r, m, "hierarchical wins" if m > 1 else "flat wins"))
done()
PY
exit "$fail"
