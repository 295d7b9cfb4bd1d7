# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: gfxstat latency on the real --latency / --list samples, and on a
# directory of overlapping polls made here (each frame once, a late poll reported as a gap).

c35=$TMP/c35
mkdir -p "$c35"
# c35_polls DIR: five polls of a 60 Hz layer, ring of 127 rows; poll 3 comes too late
c35_polls() {
	mkdir -p "$1"
	for spec in 1:1:10:2 2:1:60:1 3:1:127:0 4:300:426:0 5:380:460:0; do
		IFS=: read -r idx first last pend <<- EOT
		$spec
		EOT
		awk -v first="$first" -v last="$last" -v pend="$pend" 'BEGIN {
			P = 16666667; print P
			for (i = 0; i < 127 - (last - first + 1); i++) print "0\t0\t0"
			for (i = first; i <= last; i++) {
				t = 1000000000 + i * P
				a = i > last - pend ? "9223372036854775807" : sprintf("%.0f", t)
				printf "%.0f\t%s\t%.0f\n", t - 3 * P, a, t - P
			}
			print ""
		}' > "$1/poll-$idx.txt"
	done
}

if ! "$GFXSTAT" latency --help > /dev/null 2>&1; then
	skip "sflatency: 'gfxstat latency' is not registered in src/main.c"
else
	"$GFXSTAT" latency --package x a > /dev/null 2>&1
	[ $? -eq 2 ] && pass || fail "latency --package without --layers should exit 2"
	# a directory of polls
	c35_polls "$c35/polls"
	"$GFXSTAT" latency --layer 'SurfaceView - com.x/com.x.A#0' "$c35/polls" > "$c35/out.csv" \
		2> "$c35/err"
	rc=$?
	rows=$(($(wc -l < "$c35/out.csv") - 1))
	dups=$(tail -n +2 "$c35/out.csv" | cut -d, -f1 | sort | uniq -d | wc -l)
	# frames 1-127 and 300-460: 127 + 161; the interval after the gap is empty
	empty=$(tail -n +2 "$c35/out.csv" | grep -c ',$')
	if [ $rc -eq 0 ] && [ $rows -eq 288 ] && [ "$dups" -eq 0 ] && [ "$empty" -eq 2 ] &&
		grep -q 'gap before dump 4' "$c35/err" &&
		grep -q '^present_ns,desired_present_ns,actual_end_ns,interval_ns$' "$c35/out.csv"; then
		pass
	else
		fail "latency on a directory of polls: exit $rc, $rows rows, $dups repeated, $empty empty"
		cat "$c35/err"
	fi
	# --format json (after the input): the common header, then the same frames. By hand: 5
	# inputs, 288 frames at 16666667 ns (60 Hz), the first presented at 1e9 + 1 * P =
	# 1016666667, the last at 1e9 + 460 * P = 8666666820; one gap, before dump 4, between
	# frames 127 and 300 (3116666709 and 6000000100); the first interval and the one after
	# the gap null
	"$GFXSTAT" latency --layer 'SurfaceView - com.x/com.x.A#0' "$c35/polls" --format json \
		> "$c35/out.json" 2> /dev/null
	rc=$?
	one=$(tr -d '\n' < "$c35/out.json")
	if [ $rc -eq 0 ] &&
		echo "$one" | grep -q '^{"header":{[^{]*"command":"latency","inputs":\[{"path":"[^"]*/polls/poll-1.txt","format":"sf-latency","containers":\[\],"bytes":[0-9]*}' &&
		[ "$(echo "$one" | grep -o '"format":"sf-latency"' | wc -l)" -eq 5 ] &&
		echo "$one" | grep -q '"refresh":\[{"hz":60.000,"period_ns":16666667,"frames":288}\],"span":{"first_ns":1016666667,"last_ns":8666666820,' &&
		echo "$one" | grep -q '"layer":"SurfaceView - com.x/com.x.A#0","counts":{"dumps":5,[^}]*"frames":288,"overlap_rows":[0-9]*,"gaps":1,"restarts":0},"gaps":\[{"dump":4,"kind":"gap","last_present_ns":3116666709,"next_present_ns":6000000100}\]' &&
		[ "$(echo "$one" | grep -o '{"present_ns":[0-9]*,' | wc -l)" -eq 288 ] &&
		[ "$(echo "$one" | grep -o '"interval_ns":null' | wc -l)" -eq 2 ] &&
		echo "$one" | grep -q '{"present_ns":1033333334,"desired_present_ns":983333333,"actual_end_ns":1016666667,"interval_ns":16666667}'
	then
		pass
	else
		fail "latency --format json on a directory of polls: exit $rc"
		head -c 1200 "$c35/out.json"
	fi
	"$GFXSTAT" latency --layers --format json "$c35/polls" > /dev/null 2>&1
	[ $? -eq 2 ] && pass || fail "latency --layers --format json should exit 2"
	# the same polls concatenated, gzip-compressed, on standard input
	if command -v gzip > /dev/null; then
		cat "$c35"/polls/poll-*.txt | gzip -c |
			"$GFXSTAT" latency --layer 'SurfaceView - com.x/com.x.A#0' - > "$c35/out2.csv" \
			2> /dev/null
		cmp -s "$c35/out.csv" "$c35/out2.csv" && pass ||
			fail "latency: concatenated gzip polls differ from the directory"
	fi

	if [ ! -d "$SAMPLES" ]; then
		skip "sflatency: $SAMPLES is absent"
	else
		d=$SAMPLES/sf_latency
		printf '%s\n' 'present_ns,desired_present_ns,actual_end_ns,interval_ns' \
			'7657482691352,7657467895508,7657493499756,' \
			'7657499645964,7657484466553,7657511077881,16954612' \
			'7657516600576,7657500793457,7657527404785,16954612' > "$c35/want.csv"
		for f in "$d"/catapult-devil/surface_stats_collector_test_rows.txt \
			"$d"/catapult-devil/surface_stats_collector_test_rows_with_warning.txt; do
			[ -f "$f" ] || continue
			"$GFXSTAT" latency "$f" > "$c35/got.csv" 2> "$c35/err"
			rc=$?
			if [ $rc -eq 0 ] && cmp -s "$c35/want.csv" "$c35/got.csv" &&
				grep -q '1 dumps, 3 rows, 3 frames' "$c35/err"; then
				pass
			else
				fail "latency $(basename "$f"): exit $rc"
				cat "$c35/err" "$c35/got.csv"
			fi
		done
		f=$d/catapult-devil/surface_stats_collector_test_rows_with_warning.txt
		[ -f "$f" ] && { grep -q "1 'SurfaceFlinger appears to be unresponsive' warnings" \
			"$c35/err" && pass || fail "latency: unresponsive warning not counted"; }
		f=$d/zTT/latency.txt
		if [ -f "$f" ]; then
			# UTF-16LE, CRLF, a period line and no rows: nothing found, exit 3 (issue 8)
			"$GFXSTAT" latency "$f" > "$c35/got.csv" 2> "$c35/err"
			rc=$?
			if [ $rc -eq 3 ] && [ "$(wc -l < "$c35/got.csv")" -eq 1 ] &&
				grep -q 'period line but no rows' "$c35/err"; then
				pass
			else
				fail "latency zTT/latency.txt: exit $rc"
				cat "$c35/err"
			fi
		fi
		f=$d/zTT/temp.txt
		if [ -f "$f" ]; then
			n=$("$GFXSTAT" latency --layers "$f" 2> /dev/null | wc -l)
			[ "$n" -eq 139 ] && pass || fail "latency --layers zTT/temp.txt: $n names, want 139"
			best=$("$GFXSTAT" latency --layers --package com.android.chrome "$f" 2> /dev/null)
			[ "$best" = "bc036f6 com.android.chrome/com.google.android.apps.chrome.Main#20384" ] &&
				pass || fail "latency --layers --package com.android.chrome picked '$best'"
			"$GFXSTAT" latency "$f" > /dev/null 2>&1
			[ $? -eq 3 ] && pass || fail "latency on --list output should exit 3"
		fi
	fi
fi
# -- what `gfxstat record --source latency` keeps: each poll after its command line, gzipped.
# Polls of 60 Hz rows 1000.0/1016.7 ms, then 1016.7/1033.3 ms: stitched, 3 frames; every
# command that reads recordings reads it (before, "no frame source found").
{
	printf '$ dumpsys SurfaceFlinger --latency '"'"'com.a/com.a.Main#0'"'"'\n16666667\n'
	printf '1000000000\t1000000000\t999000000\n1016666667\t1016666667\t1015666667\n'
	printf '$ dumpsys SurfaceFlinger --latency '"'"'com.a/com.a.Main#0'"'"'\n16666667\n'
	printf '1016666667\t1016666667\t1015666667\n1033333334\t1033333334\t1032333334\n'
} | gzip > "$c35/latency.txt.gz"
n=$("$GFXSTAT" frames -q "$c35/latency.txt.gz" 2> "$c35/rec.err" | tail -n +2 | wc -l)
if [ "$n" -eq 3 ] && [ ! -s "$c35/rec.err" ] &&
	"$GFXSTAT" inspect "$c35/latency.txt.gz" > /dev/null 2>&1 &&
	"$GFXSTAT" report -q -o "$c35/latency.html" "$c35/latency.txt.gz" 2> /dev/null; then
	pass
else
	fail "record's latency.txt.gz: $n frames (want 3), stderr: $(head -c 200 "$c35/rec.err")"
fi
rm -rf "$c35"
