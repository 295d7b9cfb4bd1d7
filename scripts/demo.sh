#!/bin/sh
# SPDX-License-Identifier: MIT
# make demo: gfxstat on the bundled example trace: what it is, how smooth, the per-surface
# FPS monitor's CSVs, and the HTML report (its path is printed last).
set -eu
BUILD=${1:-build}
EX=examples/launcher-60hz.trace
echo "\$ $BUILD/gfxstat inspect $EX"
"$BUILD/gfxstat" inspect "$EX"
echo
echo "\$ $BUILD/gfxstat analyze --layer app2 $EX"
"$BUILD/gfxstat" analyze --layer app2 "$EX"
echo "\$ $BUILD/gfxstat gfx -T 1 -F $BUILD/demo $EX"
"$BUILD/gfxstat" gfx -T 1 -F "$BUILD/demo" "$EX"
echo
echo "== $BUILD/demo/fps.csv"
cat "$BUILD/demo/fps.csv"
echo
echo "== $BUILD/demo/dropFrames.csv (first 10 rows)"
head -n 11 "$BUILD/demo/dropFrames.csv"
echo
echo "\$ $BUILD/gfxstat report -q -o $BUILD/demo/report.html $EX"
"$BUILD/gfxstat" report -q -o "$BUILD/demo/report.html" "$EX"
echo "The report: $(cd "$BUILD/demo" && pwd)/report.html (open it in a browser)"
