#!/bin/sh
# One round of a generated crowd on the move, measured as a user runs it: the release
# binary's `run` on a scene file (text to /dev/null), its own wall time and peak memory
# (/usr/bin/time), and the same with `--hide sight`. The scene comes from
# firststrike::testing::crowd (N torch-bearers crossing a SIDExSIDE-cell room with pillars,
# every one walking all round).
# Usage: [SIDE=cells] scripts/walking-crowd.sh [N ...]   (default: 200 cells; 1000 1500 2000)
set -eu
BIN=${FIRSTSTRIKE_BIN:-target/release/firststrike}
GEN=${GEN:-target/release/examples/walking_crowd}
[ -x "$GEN" ] || cargo build --release --example walking_crowd
[ $# -gt 0 ] || set -- 1000 1500 2000
SIDE=${SIDE:-200}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
printf '%8s %10s %10s %14s %14s\n' figures text_s text_MB hide_sight_s hide_sight_MB
for n in "$@"; do
    "$GEN" "$n" "$SIDE" > "$DIR/crowd.ron"
    /usr/bin/time -f '%e %M' -o "$DIR/t" "$BIN" run "$DIR/crowd.ron" > /dev/null
    read -r ts tk < "$DIR/t"
    /usr/bin/time -f '%e %M' -o "$DIR/h" "$BIN" run "$DIR/crowd.ron" --hide sight > /dev/null
    read -r hs hk < "$DIR/h"
    printf '%8s %10s %10s %14s %14s\n' "$n" "$ts" $((tk / 1024)) "$hs" $((hk / 1024))
done
