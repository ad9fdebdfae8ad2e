#!/bin/sh
# How much CPU an idle viewer uses, measured on the viewer's own process: the pid this
# script starts ($!), never a wrapper found by name. Needs Xvfb and Mesa's lavapipe (.ci/run
# installs them). Usage: scripts/idle-cpu.sh [SCENE ...]   (default: the lair and stress_200)
#
# For each scene: start `firststrike view` on a fresh Xvfb display, let it settle 15 s,
# read its utime + stime from /proc/PID/stat, wait 60 s, read again, and print the ticks
# and the share of one core (ticks / (CLK_TCK * seconds)).
set -eu
BIN=${FIRSTSTRIKE_BIN:-target/release/firststrike}
SETTLE=${SETTLE:-15}
SPAN=${SPAN:-60}
[ $# -gt 0 ] || set -- scenes/lizard_man_lair.ron scenes/stress_200.ron
TCK=$(getconf CLK_TCK)
DISP=:$((90 + $$ % 100))
Xvfb "$DISP" -screen 0 1280x800x24 >/dev/null 2>&1 &
X=$!
trap 'kill $X 2>/dev/null || true' EXIT
sleep 1
for scene in "$@"; do
    DISPLAY=$DISP "$BIN" view "$scene" >/dev/null 2>&1 &
    P=$!
    sleep "$SETTLE"
    a=$(awk '{print $14+$15}' /proc/$P/stat)
    sleep "$SPAN"
    b=$(awk '{print $14+$15}' /proc/$P/stat)
    kill $P
    wait $P 2>/dev/null || true
    ticks=$((b - a))
    pct=$(awk -v t="$ticks" -v k="$TCK" -v s="$SPAN" 'BEGIN { printf "%.1f", 100 * t / (k * s) }')
    echo "$scene: $ticks ticks in $SPAN s idle = $pct% of one core (pid $P, CLK_TCK $TCK)"
done
