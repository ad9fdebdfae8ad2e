#!/bin/sh
# The odds' memory against the number of trials, measured as a user runs it: the release
# binary's `odds` on a library scene, its own wall time and peak memory (/usr/bin/time).
# Flat memory means nothing is kept per trial.
# Usage: scripts/odds-memory.sh [SCENE] [TRIALS ...]  (default: bigby_vs_giant 10000 100000)
set -eu
BIN=${FIRSTSTRIKE_BIN:-target/release/firststrike}
SCENE=${1:-bigby_vs_giant}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- 10000 100000
T=$(mktemp)
trap 'rm -f "$T"' EXIT
printf '%-16s %8s %8s %8s\n' scene trials secs peak_MB
for n in "$@"; do
    /usr/bin/time -f '%e %M' -o "$T" "$BIN" odds "$SCENE" --trials "$n" > /dev/null
    read -r s k < "$T"
    printf '%-16s %8s %8s %8s\n' "$SCENE" "$n" "$s" $((k / 1024))
done
