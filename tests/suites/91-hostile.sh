# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: inputs that are unusual or hostile must not bend the numbers
# (findings of the review of the model stage, each a regression test).

c91=$TMP/c91
mkdir -p "$c91"
"$GFXSIM" --seed 11 --hz 60 --duration 6 --apps 2 --no-header -o "$c91/sim.trace" 2> /dev/null
n=$(wc -l < "$c91/sim.trace")
head -n $((n / 2)) "$c91/sim.trace" > "$c91/a.trace"
tail -n +$((n / 2 + 1)) "$c91/sim.trace" > "$c91/b.trace"
whole=$("$GFXSTAT" frames -q "$c91/sim.trace" | tail -n +2 | wc -l)

# a trace split in two, given in order: the same frames, give or take the refresh at the seam
split=$("$GFXSTAT" frames -q "$c91/a.trace" "$c91/b.trace" | tail -n +2 | wc -l)
[ $((whole - split)) -le 2 ] && [ $((split - whole)) -le 2 ] && pass ||
	fail "hostile: split trace gives $split frames, whole $whole"
# the halves in reverse order are two recordings out of order: refused, exit 3
"$GFXSTAT" frames -q "$c91/b.trace" "$c91/a.trace" > /dev/null 2> "$c91/err"
rc=$?
[ $rc -eq 3 ] && grep -q 'overlaps an earlier input' "$c91/err" && pass ||
	fail "hostile: inputs in reverse time order: exit $rc"
# the halves glued in reverse order in one file: the grid restarts at the jump, no present is
# stamped far from its latch, the frames that would go back are counted and said
cat "$c91/b.trace" "$c91/a.trace" > "$c91/ba.trace"
"$GFXSTAT" frames "$c91/ba.trace" > "$c91/ba.csv" 2> "$c91/err"
late=$(awk -F, 'NR > 1 && $7 != "" && $5 - $7 > 100000000' "$c91/ba.csv" | wc -l)
if [ "$late" -eq 0 ] && grep -q "clock went back" "$c91/err" &&
	"$BUILD/plausible" < "$c91/ba.csv" > /dev/null; then pass; else
	fail "hostile: glued reversed trace: $late presents over 100 ms after their latch"
fi
# many layers stay linear and every layer is kept: 20000 layers of one frame each
awk 'BEGIN {
	P = 16666667; t = 10000000000
	for (i = 0; i < 20000; i++) {
		v = t + i * P
		printf "surfaceflinger-500   (  500) [000] .... %d.%06d: tracing_mark_write: C|500|VSYNC-sf|%d\n", v / 1e9, (v % 1e9) / 1000, i % 2
		printf "Binder:500_2-520   (  500) [000] .... %d.%06d: tracing_mark_write: C|500|L%d#%d|1\n", (v + 1000000) / 1e9, ((v + 1000000) % 1e9) / 1000, i, i
		printf "surfaceflinger-500   (  500) [000] .... %d.%06d: tracing_mark_write: C|500|L%d#%d|0\n", (v + 2000000) / 1e9, ((v + 2000000) % 1e9) / 1000, i, i
		printf "surfaceflinger-500   (  500) [000] .... %d.%06d: tracing_mark_write: B|500|postFramebuffer\n", (v + 3000000) / 1e9, ((v + 3000000) % 1e9) / 1000
		printf "surfaceflinger-500   (  500) [000] .... %d.%06d: tracing_mark_write: E|500\n", (v + 3100000) / 1e9, ((v + 3100000) % 1e9) / 1000
	} }' > "$c91/layers.trace"
nl=$("$GFXSTAT" inspect "$c91/layers.trace" 2> /dev/null | sed -n 's/^  layers: //p')
# 20000 layers and SurfaceFlinger's own "(display)"; the last latch may be stamped at the end
[ "${nl:-0}" -ge 20000 ] && pass || fail "hostile: 20000 layers, inspect lists ${nl:-none}"

if [ -d "$SAMPLES/gfxinfo" ]; then
	# successive gfxinfo polls repeat the rows still in hwui's ring: read as one, no refusal.
	# The sample, then a later poll holding its last 90 rows again (and nothing new): the
	# same 120 frames
	s=$SAMPLES/gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt
	awk '/---PROFILEDATA---/ { p++ } p == 1 && /^[0-9]/ && ++r <= 30 { next } { print }' "$s" \
		> "$c91/poll2.txt"
	one=$("$GFXSTAT" frames -q "$s" | tail -n +2 | wc -l)
	both=$("$GFXSTAT" frames -q "$s" "$c91/poll2.txt" 2> /dev/null | tail -n +2 | wc -l)
	[ "$one" -gt 0 ] && [ "$both" -eq "$one" ] && pass ||
		fail "hostile: two overlapping gfxinfo polls give $both frames, the fuller one $one"
	# frames, inspect and analyze count the same gfxinfo frames (rows hwui does not count
	# are no frames anywhere)
	a=$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt
	nf=$("$GFXSTAT" frames -q "$a" | tail -n +2 | wc -l)
	na=$("$GFXSTAT" analyze --json "$a" | grep -o '"kind":"layer","source":"[a-z_-]*","frames":[0-9]*' |
		awk -F: '{ s += $NF } END { print s + 0 }')
	[ "$nf" -eq "$na" ] && pass || fail "hostile: aNavMode: frames $nf, analyze $na"
else
	skip "hostile: $SAMPLES/gfxinfo absent: gfxinfo polls not checked"
fi

# -- a truncated recording: every command that reads it exits 3 ------------------------------
# A gzip cut short (as a copy interrupted, or a capture whose device went away mid-write):
# compare decides nothing on part of a recording (a gate must not pass a cut capture), and
# report/export write what could be read but exit 3, as frames/analyze/inspect do.
if [ -x "$GFXSIM" ]; then
	"$GFXSIM" --seed 21 --hz 60 --duration 20 --apps 1 -o "$c91/whole.trace" 2> /dev/null
	gzip -c "$c91/whole.trace" > "$c91/whole.gz"
	size=$(wc -c < "$c91/whole.gz")
	head -c $((size / 3)) "$c91/whole.gz" > "$c91/cut.gz"
	"$GFXSTAT" compare -q --fail-if 'fps<10' "$c91/whole.trace" "$c91/cut.gz" \
		> "$c91/cmp.out" 2> "$c91/cmp.err"
	rc=$?
	if [ $rc -eq 3 ] && grep -q 'compare decides nothing on part of a recording' "$c91/cmp.err" &&
		! grep -q 'no significant change' "$c91/cmp.out"; then pass; else
		fail "compare with a truncated NEW: exit $rc (want 3): $(head -c 300 "$c91/cmp.err")"
	fi
	for cmd in report export; do
		"$GFXSTAT" $cmd -q -o "$c91/cut.$cmd" "$c91/cut.gz" 2> "$c91/$cmd.err"
		rc=$?
		if [ $rc -eq 3 ] && [ -s "$c91/cut.$cmd" ] &&
			grep -q 'damaged or truncated' "$c91/$cmd.err"; then pass; else
			fail "$cmd of a truncated input: exit $rc (want 3, written): $(cat "$c91/$cmd.err")"
		fi
	done
fi

# -- inputs that overlap in time are refused, and no file of the run is written ---------------
# (two 60 % cuts of one trace: not one recording; an earlier output stays as it was)
if [ -x "$GFXSIM" ]; then
	"$GFXSIM" --seed 22 --hz 60 --duration 10 --apps 1 -o "$c91/ov.trace" 2> /dev/null
	n=$(wc -l < "$c91/ov.trace")
	head -n $((n * 6 / 10)) "$c91/ov.trace" > "$c91/ov1.trace"
	tail -n $((n * 6 / 10)) "$c91/ov.trace" > "$c91/ov2.trace"
	for cmd in frames export report; do
		printf 'earlier\n' > "$c91/ov.$cmd"
		"$GFXSTAT" $cmd -q -o "$c91/ov.$cmd" "$c91/ov1.trace" "$c91/ov2.trace" 2> "$c91/ov.err"
		rc=$?
		if [ $rc -eq 3 ] && [ "$(cat "$c91/ov.$cmd")" = earlier ] &&
			grep -q 'overlaps an earlier input' "$c91/ov.err"; then pass; else
			fail "$cmd -o with overlapping inputs: exit $rc, the earlier file replaced"
		fi
	done
fi

# A traced process may be pid 1 or 2 (init, kthreadd): export's own tracks ("gfxstat frames",
# "gfxstat system") are numbered past any Linux pid (PID_MAX_LIMIT 4194304), so init's section
# stays on init's track. The example's first 2000 lines and one section of init added.
h91=$TMP/h91pid
mkdir -p "$h91"
head -2000 "$ROOT/examples/launcher-60hz.trace" > "$h91/t.trace"
ts=$(sed -n 's/.* \([0-9]*\.[0-9]*\): tracing_mark_write.*/\1/p' "$h91/t.trace")
t1=$(echo "$ts" | head -1)
t2=$(echo "$ts" | tail -1)
printf '           init-1     (    1) [000] ...1 %s: tracing_mark_write: B|1|initwork\n' "$t1" >> "$h91/t.trace"
printf '           init-1     (    1) [000] ...1 %s: tracing_mark_write: E|1\n' "$t2" >> "$h91/t.trace"
"$GFXSTAT" export -q -o "$h91/e.json" "$h91/t.trace" 2> "$h91/err"
if grep -q '"pid":1,"tid":1,"cat":"section","name":"initwork"' "$h91/e.json" &&
	! grep -q '"pid":1,"name":"process_name","args":{"name":"gfxstat' "$h91/e.json" &&
	grep -q '"pid":4194305,"name":"process_name","args":{"name":"gfxstat frames"}' "$h91/e.json"; then
	pass
else
	fail "hostile: export's own tracks share a pid with a traced process: $(grep -o '.\{0,40\}initwork.\{0,20\}' "$h91/e.json" | head -1) $(head -c 200 "$h91/err")"
fi
