#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Headless export as a script runs it: one `kvscope export` process per chart,
# start to file written, with no display (the offscreen platform is chosen by
# kvscope itself). Uses hyperfine when installed (apt-get install hyperfine),
# else times ten runs with date.
#   tests/benchmarks/bench_export.sh [build/app/kvscope]
# Figures go to docs/benchmarks.md ("Export"); nothing asserts a time.
set -euo pipefail
kvscope="${1:-$(dirname "${BASH_SOURCE[0]}")/../../build/app/kvscope}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
run="env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM $kvscope export"

cases=(
    "--chart memory --out $out/memory.png"
    "--chart memory --out $out/memory.svg"
    "--chart growth --out $out/growth.png --scale 2"
    "--chart report --out $out/report.pdf"
)
if command -v hyperfine >/dev/null; then
    for c in "${cases[@]}"; do
        echo "$c"
        hyperfine --warmup 2 --runs 20 --style basic "$run $c" 2>&1 | grep -E "Time|Range"
    done
else
    for c in "${cases[@]}"; do
        total=0
        for _ in $(seq 10); do
            start=$(date +%s%N)
            # shellcheck disable=SC2086
            $run $c
            total=$((total + $(date +%s%N) - start))
        done
        echo "$c: mean $((total / 10 / 1000000)) ms"
    done
fi
