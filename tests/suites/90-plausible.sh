# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: numbers that survive a second look, on every input we have. For
# every real sample, the bundled example, simulated traces at 60/90/120/144 Hz, the golden
# cases and the fuzz corpora, `gfxstat frames` must satisfy tests/plausible.c's invariants
# (presents strictly increase per layer, intervals are their differences and never under
# 3/4 of a vsync, present >= latch, no counter as a layer, an app for every layer that names
# a package, one refresh period per instant), and `inspect` must count the same frames.

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
	ni=$("$GFXSTAT" inspect "$2" 2> /dev/null |
		awk '/^ +[0-9]+ frames/ { n += $1 } END { print n + 0 }')
	# analyze: the frames of its layers (apps merge them again)
	na=$("$GFXSTAT" analyze --json "$2" 2> /dev/null |
		grep -o '"kind":"layer","source":"[a-z_-]*","frames":[0-9]*' |
		awk -F: '{ n += $NF } END { print n + 0 }')
	[ "$nf" -eq "$ni" ] && [ "$nf" -eq "$na" ] && pass ||
		fail "plausible: $1: frames writes $nf frames, inspect counts $ni, analyze $na"
}

if [ ! -x "$PLAUSIBLE" ]; then
	fail "plausible: $PLAUSIBLE not built"
else
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
