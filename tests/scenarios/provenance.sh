#!/usr/bin/env bash
# summary.json's provenance: the version and commit `fabemu --version`
# prints, the DPDK version, and a digest of the result files that this
# script recomputes with sha256sum by the rule of docs/results.md
# ("Provenance"): it must match, two runs of the experiment must give the
# same digest, and another seed another one. A valid run says so.
#   provenance.sh FABEMU EXPERIMENT   (an experiment with a capture)
set -eu
fabemu=$1
exp=$2
. "$(dirname "$0")/lib.sh"

# The digest by the documented rule, from the files themselves.
recompute() { # recompute DIR
	(
		cd "$1"
		for f in $(key summary.json provenance.digest_files); do
			if [ "$f" = summary.json ]; then
				printf '%s  %s\n' "$(sed '/^  "provenance": {$/,$d' summary.json | sha256sum | cut -c1-64)" "$f"
			else
				sha256sum "$f"
			fi
		done | sha256sum | cut -c1-64
	)
}

"$fabemu" run "$exp" -o "$tmp/a" -q
"$fabemu" run "$exp" -o "$tmp/b" -q
"$fabemu" run "$exp" -o "$tmp/c" -q --seed 12345
version=$("$fabemu" --version)
s=$tmp/a/summary.json
commit=$(key "$s" provenance.commit)
[ -n "$commit" ] || bad "no provenance.commit"
case "$version" in *"commit $commit"*) ;; *) bad "--version '$version' does not name commit '$commit'" ;; esac
case "$version" in *"fabemu $(key "$s" provenance.fabemu_version) "*) ;; *) bad "--version '$version' and provenance.fabemu_version differ" ;; esac
case "$(key "$s" provenance.dpdk_version)" in DPDK\ [0-9]*) ;; *) bad "provenance.dpdk_version '$(key "$s" provenance.dpdk_version)'" ;; esac
[ "$(key "$s" valid)" = true ] || bad "valid is not true"
[ -z "$(key "$s" invalid_reasons)" ] || bad "invalid_reasons not empty"
files=$(key "$s" provenance.digest_files)
case " $files " in *" capture/"*".pcap "*) ;; *) bad "digest_files '$files' leaves out the capture" ;; esac
for f in flows.csv ports.csv summary.json; do
	case " $files " in *" $f "*) ;; *) bad "digest_files '$files' leaves out $f" ;; esac
done
da=$(key "$s" provenance.digest_sha256)
[ "${#da}" -eq 64 ] || bad "digest '$da' is not 64 hex digits"
[ "$(recompute "$tmp/a")" = "$da" ] || bad "recomputed digest $(recompute "$tmp/a") != summary.json's $da"
[ "$(key "$tmp/b/summary.json" provenance.digest_sha256)" = "$da" ] || bad "same experiment twice, digests differ"
[ "$(key "$tmp/c/summary.json" provenance.digest_sha256)" != "$da" ] || bad "another seed, same digest"
[ "$(recompute "$tmp/c")" = "$(key "$tmp/c/summary.json" provenance.digest_sha256)" ] || bad "seed 12345: recomputed digest differs"
# A changed result file no longer matches the digest.
echo >>"$tmp/b/flows.csv"
[ "$(recompute "$tmp/b")" != "$da" ] || bad "a changed flows.csv keeps the digest"
[ "$fail" -eq 0 ] && echo "provenance: OK (digest $da recomputed; repeatable; seed-dependent)"
exit "$fail"
