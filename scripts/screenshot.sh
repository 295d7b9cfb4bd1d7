#!/bin/sh
# SPDX-License-Identifier: MIT
# make screenshot: the demo report (examples/launcher-60hz.trace, as make demo writes it) opened
# in Debian's headless Chromium at 1400x900 by report/test/check-report.js (which also fails on
# a console error or a blank chart), its first screen written as a PNG: docs/report.png, the
# picture at the top of the README.
# usage: scripts/screenshot.sh [BUILD [OUT.png [REPORT.html]]]
set -eu
BUILD=${1:-build}
OUT=${2:-docs/report.png}
HTML=${3:-$BUILD/demo/report.html}
mkdir -p "$(dirname "$HTML")"
"$BUILD/gfxstat" report -q -o "$HTML" examples/launcher-60hz.trace
node report/test/check-report.js "$HTML" --shot "$OUT" > /dev/null
echo "$OUT: the first screen (1400x900) of $HTML"
