# Shell helpers for scenario scripts (sourced): read results back.
# summary.json is written by fabemu's own writer (two-space indentation, one
# key per line), which is what this reader relies on.

# value FILE PATH.TO.KEY: a number from summary.json (objects two spaces deep)
value() {
	awk -v path="$2" '
		BEGIN { n = split(path, want, ".") }
		/^ *"[^"]*": \{/ { d = (match($0, /[^ ]/) - 1) / 2; k = $0; gsub(/^ *"|": \{.*$/, "", k); key[d] = k; next }
		/^ *"[^"]*": / {
			d = (match($0, /[^ ]/) - 1) / 2; k = $0; gsub(/^ *"|": .*$/, "", k); key[d] = k
			if (d != n) next
			ok = 1; for (i = 1; i <= n; i++) if (key[i] != want[i]) ok = 0
			if (ok) { v = $0; sub(/^[^:]*: /, "", v); sub(/,$/, "", v); print v; exit }
		}' "$1"
}
