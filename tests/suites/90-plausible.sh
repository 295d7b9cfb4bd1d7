# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: numbers that survive a second look, on every input we have. For
# every real sample, the bundled example, simulated traces at 60/90/120/144 Hz, the golden
# cases and the fuzz corpora, `gfxstat frames` must satisfy tests/plausible.c's invariants
# (presents strictly increase per layer, intervals are their differences and never under
# 3/4 of a vsync, present >= latch, no counter as a layer, an app for every layer that names
# a package, one refresh period per instant), and `inspect` must count the same frames.
# Every figure analyze and compare print about an app or a layer (tables and JSON, one
# recording against a folder of two copies of it, with a gate) is plausible: no FPS above
# 1.02 x the highest refresh rate (4/3 x over a part: a scroll, a window), no median frame
# time of 0 or under 3/4 of a vsync; and compare counts each recording's frames as analyze does.
# inspect's rate per layer is held to the same limit (an app-side layer once read 61 fps at
# 60 Hz there, where analyze said 52).

c90=$TMP/c90
mkdir -p "$c90/in"
PLAUSIBLE=$BUILD/plausible

# c90_check NAME FILE: the invariants, then the same count from frames and inspect
c90_check() {
	"$GFXSTAT" frames "$2" > "$c90/frames.csv" 2> "$c90/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		# an input with no frame source may be refused (exit 3), never crash
		[ $rc -eq 3 ] && pass || fail "plausible: $1: frames exited $rc: $(head -c 300 "$c90/err")"
		return
	fi
	if "$PLAUSIBLE" < "$c90/frames.csv" > "$c90/check"; then
		pass
	else
		fail "plausible: $1: $(grep '^violation' "$c90/check" | head -5)"
	fi
	nf=$(($(wc -l < "$c90/frames.csv") - 1))
	"$GFXSTAT" inspect "$2" > "$c90/i.txt" 2> /dev/null
	ni=$(awk '/^ +[0-9]+ frames/ { n += $1 } END { print n + 0 }' "$c90/i.txt")
	# analyze: the frames of its layers (apps merge them again)
	na=$("$GFXSTAT" analyze --json "$2" 2> /dev/null |
		grep -o '"kind":"layer","source":"[a-z_-]*","frames":[0-9]*' |
		awk -F: '{ n += $NF } END { print n + 0 }')
	[ "$nf" -eq "$ni" ] && [ "$nf" -eq "$na" ] && pass ||
		fail "plausible: $1: frames writes $nf frames, inspect counts $ni, analyze $na"
	c90_figures "$1" "$2"
}

# c90_figures NAME FILE: analyze's and compare's figures; compare FILE against a folder of two
# copies of it (each analysed alone), with a gate, counts per recording as analyze does
c90_figures() {
	rm -rf "$c90/two"
	mkdir -p "$c90/two"
	cp "$2" "$c90/two/1-$(basename "$2")"
	cp "$2" "$c90/two/2-$(basename "$2")"
	"$GFXSTAT" analyze -q --json "$2" > "$c90/a.json" 2> /dev/null
	"$GFXSTAT" analyze -q --all "$2" > "$c90/a.txt" 2> /dev/null
	"$GFXSTAT" analyze -q --json "$c90/two" > "$c90/a2.json" 2> /dev/null
	"$GFXSTAT" analyze -q "$c90/two" > "$c90/a2.txt" 2> /dev/null
	"$GFXSTAT" compare -q --format json --fail-if 'fps<0' "$2" "$c90/two" > "$c90/c.json" \
		2> /dev/null
	rc=$?
	"$GFXSTAT" compare -q "$2" "$c90/two" > "$c90/c.txt" 2> /dev/null
	if [ $rc -gt 3 ]; then
		fail "plausible: $1: compare exited $rc"
		return
	fi
	# a table names each layer's most common rate; the limit is the run's highest (JSON's)
	hz=$("$PLAUSIBLE" --hz "$c90/a.json" 2> /dev/null)
	if "$PLAUSIBLE" --json "$c90/a.json" "$c90/a2.json" "$c90/c.json" > "$c90/check" &&
		"$PLAUSIBLE" --table --hz "${hz:-0}" "$c90/a.txt" "$c90/a2.txt" "$c90/c.txt" \
		"$c90/i.txt" >> "$c90/check"; then
		pass
	else
		fail "plausible: $1: figures: $(grep '^violation' "$c90/check" | head -5)"
	fi
	# inspect's rate per layer is analyze's FPS of that layer (one decimal each)
	"$PLAUSIBLE" --layer-fps "$c90/a.json" | sort > "$c90/la"
	sed -n 's/^ *[0-9][0-9]* frames  *\([0-9.][0-9.]*\) fps over  *[0-9.][0-9.]* s  \(.*\)$/\1\t\2/p' \
		"$c90/i.txt" | sed 's/  \[[^]]*\]$//' | sort > "$c90/li"
	if cmp -s "$c90/la" "$c90/li"; then
		pass
	else
		fail "plausible: $1: inspect's rates are not analyze's FPS:" \
			"$(diff "$c90/la" "$c90/li" | grep '^[<>]' | head -4 | tr '\n' ' ')"
	fi
	"$PLAUSIBLE" --frames "$c90/a.json" | cut -f2- | sort -u > "$c90/fa"
	"$PLAUSIBLE" --frames "$c90/c.json" | cut -f2- | sort -u > "$c90/fc"
	"$PLAUSIBLE" --frames "$c90/a2.json" | cut -f2- | sort -u > "$c90/f2"
	# three recordings of each app in compare (the file, and its two copies), two in analyze
	if cmp -s "$c90/fa" "$c90/fc" && cmp -s "$c90/fa" "$c90/f2" &&
		[ "$("$PLAUSIBLE" --frames "$c90/c.json" | wc -l)" -eq $((3 * $(wc -l < "$c90/fa"))) ] &&
		[ "$("$PLAUSIBLE" --frames "$c90/a2.json" | wc -l)" -eq $((2 * $(wc -l < "$c90/fa"))) ]
	then
		pass
	else
		fail "plausible: $1: frames per recording: analyze $(tr '\n' ' ' < "$c90/fa")," \
			"compare $(tr '\n' ' ' < "$c90/fc")"
	fi
}

if [ ! -x "$PLAUSIBLE" ]; then
	fail "plausible: $PLAUSIBLE not built"
else
	# the checks can fail: the issue's outputs (NEW at 353 FPS and a p50 of 0 at 120 Hz, an
	# FPS of 130 in a table at 120 Hz, a summary's mean of 125) are caught
	printf '%s\n' '{"header":{"refresh":[{"hz":120.0,"period_ns":8333333,"frames":9}]},' \
		'"apps":[{"name":"com.x","metrics":[{"name":"fps","base":100.8,"new":353.0},' \
		'{"name":"p50_ms","base":8.33,"new":0}]}]}' > "$c90/bad.json"
	printf '%s\n' '{"header":{"refresh":[{"hz":120.0,"period_ns":8333333,"frames":9}]},' \
		'"summary":[{"metrics":{"fps":{"n":2,"mean":125,"sd":0,"min":125,"max":125}}}]}' \
		> "$c90/bad2.json"
	printf '%s\n' '{"apps":[]}' > "$c90/bad3.json"
	printf '%s\n' 'app com.x  (1 layer)' '  frames 9 over 1.00 s at 120.0 Hz: FPS 130.0; janky 0' \
		'  frame ms  p50 0.0  p90 8.4  p99 8.4  max 8.4' \
		'        14 frames   122.9 fps over     0.21 s  pid 1 (app-side)' > "$c90/bad.txt"
	"$PLAUSIBLE" --json "$c90/bad.json" > "$c90/b1"
	r1=$?
	"$PLAUSIBLE" --json "$c90/bad2.json" > "$c90/b2"
	r2=$?
	"$PLAUSIBLE" --json "$c90/bad3.json" > "$c90/b3"
	r3=$?
	"$PLAUSIBLE" --table "$c90/bad.txt" > "$c90/b4"
	r4=$?
	if [ $r1 = 1 ] && [ $r2 = 1 ] && [ $r3 = 1 ] && [ $r4 = 1 ] &&
		grep -q 'FPS above 1.02 x the highest refresh rate 353' "$c90/b1" &&
		grep -q 'median frame time that is not above 0 0' "$c90/b1" &&
		grep -q 'rate 125' "$c90/b2" && grep -q 'no header' "$c90/b3" &&
		grep -q 'line 2: an FPS above 1.02 x the highest refresh rate 130' "$c90/b4" &&
		grep -q 'line 3: a median frame time that is not above 0' "$c90/b4" &&
		grep -q 'line 4: an FPS above 1.02 x the highest refresh rate 122.9' "$c90/b4"; then pass
	else fail "plausible: implausible figures not caught: $(cat "$c90"/b[1-4])"; fi
	c90_check example "$ROOT/examples/launcher-60hz.trace"
	for hz in 60 90 120 144; do
		"$GFXSIM" --seed 7 --hz $hz --duration 4 --apps 3 --game -o "$c90/in/sim$hz.trace" \
			2> /dev/null
		c90_check "gfxsim $hz Hz" "$c90/in/sim$hz.trace"
	done
	for f in "$ROOT"/tests/golden/inputs/*.trace "$ROOT"/tests/ref/cases/*/trace.txt; do
		[ -f "$f" ] && c90_check "golden $(basename "$(dirname "$f")")/$(basename "$f")" "$f"
	done
	# corpora: only that nothing implausible comes out of damaged input
	for f in "$ROOT"/fuzz/corpus/trace_text/* "$ROOT"/fuzz/corpus/perfetto/* \
		"$ROOT"/fuzz/corpus/gfxinfo/* "$ROOT"/fuzz/corpus/sflatency/*; do
		[ -f "$f" ] || continue
		"$GFXSTAT" frames "$f" > "$c90/frames.csv" 2> /dev/null
		if [ -s "$c90/frames.csv" ] && ! "$PLAUSIBLE" < "$c90/frames.csv" > "$c90/check"; then
			fail "plausible: corpus $f: $(grep '^violation' "$c90/check" | head -3)"
		else
			pass
		fi
	done
	if [ ! -d "$SAMPLES" ]; then
		skip "plausible: $SAMPLES not found: real samples not checked"
	else
		for z in "$SAMPLES"/systrace_html/*/*.zip; do
			[ -f "$z" ] || continue
			d=$c90/in/$(basename "$z" .zip)
			mkdir -p "$d"
			unzip -q -o "$z" -d "$d" 2> /dev/null
			for h in "$d"/*.html; do
				[ -f "$h" ] && c90_check "$(basename "$h")" "$h"
			done
		done
		for f in "$SAMPLES"/systrace_html/catapult/*.html "$SAMPLES"/atrace_text/*/* \
			"$SAMPLES"/gfxinfo/*/*.txt "$SAMPLES"/perfetto/*/*.perfetto-trace \
			"$SAMPLES"/sf_latency/*/*.txt; do
			[ -f "$f" ] && c90_check "$(basename "$(dirname "$f")")/$(basename "$f")" "$f"
		done
	fi
fi
