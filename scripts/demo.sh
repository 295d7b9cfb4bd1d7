#!/bin/sh
# SPDX-License-Identifier: MIT
# make demo: run gfxstat gfx on the bundled example trace and show what it wrote.
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
