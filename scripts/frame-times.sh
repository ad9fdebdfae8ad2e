#!/bin/sh
# Frame times of the release viewer as a user sees them: a real window under Xvfb, drawn by
# Mesa's software Vulkan (lavapipe), 1280x800, the median and p90 of N frames after 30 of
# warm-up (`view SCENE --frame-times N`). Needs Xvfb and lavapipe (.ci/run installs them).
# Usage: scripts/frame-times.sh [SCENE ...]  (default: the lair, stress_200 and a generated
# 500-figure lit battle); FRAMES=300 RUNS=3.
set -eu
BIN=${FIRSTSTRIKE_BIN:-target/release/firststrike}
GEN=${GEN:-target/release/examples/lit_battle}
FRAMES=${FRAMES:-300}
RUNS=${RUNS:-3}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
if [ $# -eq 0 ]; then
    [ -x "$GEN" ] || cargo build --release --example lit_battle
    "$GEN" 500 > "$DIR/battle_500.ron"
    set -- scenes/lizard_man_lair.ron scenes/stress_200.ron "$DIR/battle_500.ron"
fi
for scene in "$@"; do
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        printf '%s: ' "$(basename "$scene")"
        xvfb-run -a -s '-screen 0 1280x800x24' "$BIN" view "$scene" --frame-times "$FRAMES" 2>/dev/null | tail -1
        i=$((i + 1))
    done
done
