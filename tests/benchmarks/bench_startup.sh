#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Start-up and footprint, over repeated runs, each from empty settings:
#   first paint  launch to the window's first painted frame (kvscope --startup-probe
#                prints the wall clock of that paint; this script took the clock at launch)
#   idle RSS     resident memory 2 s after the first paint, the event loop idle
#   calc --json  `kvscope calc --json` as a whole process
#   tests/benchmarks/bench_startup.sh [build/app/kvscope] [runs]
# Uses the offscreen platform unless QT_QPA_PLATFORM is set (xcb under Xvfb gives
# the figures of a real display server). Figures go to docs/benchmarks.md
# ("Start-up and footprint"); nothing asserts a time.
set -euo pipefail
kvscope="${1:-$(dirname "${BASH_SOURCE[0]}")/../../build/app/kvscope}"
runs="${2:-10}"
config="$(mktemp -d)"
trap 'rm -rf "$config"' EXIT
export XDG_CONFIG_HOME="$config" QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"

median() { sort -n | awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s (min %s, max %s)", m, v[1], v[NR] }'; }

paints=() rss=() calc=()
for _ in $(seq "$runs"); do
    rm -rf "${config:?}/kvscope"
    start=$(date +%s%3N)
    out="$("$kvscope" --startup-probe 2>/dev/null)"
    paint=$(awk '/^first_paint_epoch_ms/ { print $2 }' <<<"$out")
    paints+=($((paint - start)))
    rss+=($(($(awk '/^idle_rss_kb/ { print $2 }' <<<"$out") / 1024)))
    start=$(date +%s%3N)
    "$kvscope" calc --json >/dev/null
    calc+=($(($(date +%s%3N) - start)))
done
echo "runs: $runs, platform: $QT_QPA_PLATFORM"
echo "first paint (ms): $(printf '%s\n' "${paints[@]}" | median)"
echo "idle RSS (MiB):   $(printf '%s\n' "${rss[@]}" | median)"
echo "calc --json (ms): $(printf '%s\n' "${calc[@]}" | median)"
