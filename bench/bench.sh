#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: gfxstat gfx on a >= 1 GB simulated trace, next to cat and wc -l on the same file.
# Reports MB/s, ns per line and peak RSS, fastest of N runs after a warm-up (page cache hot).
#   sh bench/bench.sh BUILD            full run (1.1 GB trace, 3 runs each)
#   sh bench/bench.sh BUILD --smoke    a 20 MB trace, 1 run: checks the harness works
set -eu
BUILD=${1:-build}
SIZE=1100000000
RUNS=3
if [ "${2:-}" = "--smoke" ]; then
	SIZE=20000000
	RUNS=1
fi
DIR=$BUILD/bench
mkdir -p "$DIR"
cc -O2 -std=c11 -Wall -o "$DIR/bench_run" bench/bench_run.c
TRACE=$DIR/gfx-$SIZE.trace
if [ ! -f "$TRACE" ]; then
	echo "bench: generating $TRACE (gfxsim, 60 Hz, 2 apps, 5 noise lines per marker)" >&2
	"$BUILD/gfxsim" --seed 1 --hz 60 --apps 2 --sched-noise 5 --duration 100000 \
		--size "$SIZE" -o "$TRACE.tmp" 2> /dev/null
	mv "$TRACE.tmp" "$TRACE"
fi
BYTES=$(wc -c < "$TRACE")
LINES=$(wc -l < "$TRACE")
cat "$TRACE" > /dev/null # warm the page cache

row() { # row NAME bench_run-output
	echo "$2" | awk -v name="$1" -v bytes="$BYTES" -v lines="$LINES" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%-22s %8.3f s %9.1f MB/s %8.1f ns/line %9.1f MB peak RSS\n", name, v["wall"],
			bytes / v["wall"] / 1e6, v["wall"] * 1e9 / lines, v["maxrss_kb"] / 1024
	}'
}
echo "file: $TRACE, $BYTES bytes, $LINES lines; fastest of $RUNS runs"
row "cat" "$("$DIR/bench_run" "$RUNS" cat "$TRACE")"
row "wc -l" "$("$DIR/bench_run" "$RUNS" wc -l "$TRACE")"
row "gfxstat gfx" "$("$DIR/bench_run" "$RUNS" "$BUILD/gfxstat" gfx -q -F "$DIR/out" "$TRACE")"
row "gfxstat gfx (stdin)" "$("$DIR/bench_run" "$RUNS" sh -c "\"$BUILD/gfxstat\" gfx -q -F \"$DIR/out\" - < \"$TRACE\"")"
row "gfxstat frames" "$("$DIR/bench_run" "$RUNS" "$BUILD/gfxstat" frames -q -o /dev/null "$TRACE")"
row "gfxstat analyze" "$("$DIR/bench_run" "$RUNS" "$BUILD/gfxstat" analyze -q "$TRACE")"

# The report on a 1 M-frame input (issue 9): a 120 Hz simulated capture of 4800 s without
# idle (about 490 k app frames and as many SurfaceFlinger refreshes), time to write the report,
# its size, and the time until the page is interactive in headless Chromium (when node,
# playwright-core in report/node_modules and Debian's chromium are there).
RTRACE=$DIR/report-1m.trace
if [ ! -f "$RTRACE" ]; then
	echo "bench: generating $RTRACE (gfxsim, 120 Hz, 4800 s, 1 app, no idle)" >&2
	"$BUILD/gfxsim" --seed 3 --hz 120 --duration 4800 --apps 1 --idle 0 -o "$RTRACE.tmp" \
		2> /dev/null
	mv "$RTRACE.tmp" "$RTRACE"
fi
RFRAMES=$("$BUILD/gfxstat" frames -q "$RTRACE" | tail -n +2 | wc -l)
row_report=$("$DIR/bench_run" 1 "$BUILD/gfxstat" report -q -o "$DIR/report-1m.html" "$RTRACE")
echo "$row_report" | awk -v frames="$RFRAMES" '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "%-22s %8.3f s for %d frames %9.1f MB peak RSS\n", "gfxstat report", v["wall"],
		frames, v["maxrss_kb"] / 1024
}'
echo "report file:           $(wc -c < "$DIR/report-1m.html") bytes"
if command -v node > /dev/null 2>&1 && [ -d report/node_modules/playwright-core ] &&
	[ -x /usr/bin/chromium ]; then
	echo "report interactive:    $(node report/test/check-report.js "$DIR/report-1m.html" 2>&1 |
		grep -o '"tti_ms":[0-9]*' | cut -d: -f2) ms (headless Chromium, from navigation)"
else
	echo "report interactive:    not measured (node, report/node_modules or chromium missing)"
fi
