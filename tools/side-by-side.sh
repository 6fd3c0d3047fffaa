#!/usr/bin/env bash
# Run one experiment several ways and print the runs side by side, one
# column each: the comparisons of experiments/uet-incast.yaml (trimming,
# dropping, PFC), uet-vs-roce-vs-ib.yaml (three link layers) and
# uet-spray-failure.yaml (spraying against ECMP) say which ways.
#   tools/side-by-side.sh EXPERIMENT OUT_DIR METRICS LABEL[:KEY=VALUE[,KEY=VALUE...]] ...
# METRICS: comma-separated dotted keys of summary.json (a missing one
# prints "-"). Each LABEL is a run into OUT_DIR/LABEL with those --set
# overrides (none: the file as written). Prints a markdown table. Uses
# $FABEMU, else ./build/tools/fabemu. Exit 1 when a run fails.
set -eu
[ $# -ge 4 ] || { sed -n '2,10p' "$0"; exit 2; }
exp=$1 out=$2 metrics=$3
shift 3
fabemu=${FABEMU:-./build/tools/fabemu}
labels=()
for spec in "$@"; do
	label=${spec%%:*}
	sets=()
	if [ "$spec" != "$label" ]; then
		IFS=',' read -r -a kvs <<<"${spec#*:}"
		for kv in "${kvs[@]}"; do sets+=(--set "$kv"); done
	fi
	"$fabemu" run "$exp" -o "$out/$label" -q "${sets[@]}" || exit 1
	labels+=("$label")
done
python3 - "$out" "$metrics" "${labels[@]}" <<'PY'
import json, os, sys
out, metrics, labels = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]
runs = [json.load(open(os.path.join(out, l, "summary.json"))) for l in labels]
def get(s, key):
    for k in key.split("."):
        if not isinstance(s, dict) or k not in s:
            return "-"
        s = s[k]
    if isinstance(s, float):
        return "%.1f" % s if abs(s) >= 1000 else "%.4g" % s
    return str(s)
print("| metric | " + " | ".join(labels) + " |")
print("|---|" + "---|" * len(labels))
for m in metrics:
    print("| `%s` | " % m + " | ".join(get(s, m) for s in runs) + " |")
PY
