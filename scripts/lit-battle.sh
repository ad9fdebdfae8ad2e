#!/bin/sh
# One round of a generated lit battle, measured as a user runs it: the release binary's
# `run` on a scene file, its own wall time and peak memory (/usr/bin/time), and how many
# sight events it logs; then `run --hide sight` (the log without them): its time and lines.
# The scene comes from firststrike::testing::battle (N figures in
# fights of 2 to 10 in a torch-lit hall, every tenth figure with a torch).
# Usage: scripts/lit-battle.sh [N ...]   (default: 200 1000 2000)
set -eu
BIN=${FIRSTSTRIKE_BIN:-target/release/firststrike}
GEN=${GEN:-target/release/examples/lit_battle}
[ -x "$GEN" ] || cargo build --release --example lit_battle
[ $# -gt 0 ] || set -- 200 1000 2000
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
printf '%8s %10s %10s %12s %10s %12s %12s %12s\n' figures text_s text_MB json_s json_MB sight_events hide_sight_s hide_lines
for n in "$@"; do
    "$GEN" "$n" > "$DIR/battle.ron"
    /usr/bin/time -f '%e %M' -o "$DIR/t" "$BIN" run "$DIR/battle.ron" > /dev/null
    read -r ts tk < "$DIR/t"
    /usr/bin/time -f '%e %M' -o "$DIR/j" "$BIN" run "$DIR/battle.ron" --format json > "$DIR/out.json"
    read -r js jk < "$DIR/j"
    ev=$(grep -c '"kind":"sight"' "$DIR/out.json" || true)
    /usr/bin/time -f '%e' -o "$DIR/h" "$BIN" run "$DIR/battle.ron" --hide sight > "$DIR/out.txt"
    read -r hs < "$DIR/h"
    hl=$(wc -l < "$DIR/out.txt")
    printf '%8s %10s %10s %12s %10s %12s %12s %12s\n' "$n" "$ts" $((tk / 1024)) "$js" $((jk / 1024)) "$ev" "$hs" "$hl"
done
