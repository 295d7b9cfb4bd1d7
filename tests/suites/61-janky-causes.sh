# SPDX-License-Identifier: MIT
# The cause of every janky frame, and an app's figures from the app's own timeline (issue
# "decisions and numbers that hold on every input", items 1 and 2). Sourced by tests/run.sh.
#
# A FrameTimeline trace made here (no sample needed): a 60 Hz display (P = 16666667 ns)
# presents display frames 1..10 at T(i) = 1e9 + i * P (tokens 1001..1010). App
# com.example.app draws, as pid 4242:
#   layer A ".../Main#0"  a surface frame in every display frame; frame 5 is Late with jank
#                         SurfaceFlinger Scheduling + App Deadline Missed (0x42);
#   layer B ".../Popup#0" surface frames in display frames 2 (on time) and 8 (Late, App
#                         Deadline Missed, 0x40);
#   layer A, dropped      three surface frames with no present (Dropped Frame), 10 ms each:
#                         Buffer Stuffing (0x80, not janky), App Deadline Missed, and 0x42.
# trace_processor's rule (FORMATS.md 6.3) makes a surface frame janky by App Deadline Missed,
# App Resynced Jitter or Unknown Jank, so: janky are A@5, B@8 and the 2nd and 3rd dropped
# frames, each for App Deadline Missed (SurfaceFlinger Scheduling does not make a surface
# frame janky, so it is not the label).
#   --janky: A@5 at 1.083333 s (16.667 ms: T5 - T4), B@8 at 1.133333 s (100.000 ms: B's
#   interval T8 - T2 = 6 P), then the two untimed ones (10.000 ms, their own duration), every
#   cause "FrameTimeline: App Deadline Missed". Before the fix the first untimed one got the
#   second's cause and the second none ("unknown"), as stored ranks counted janky frames only
#   while lookups count every untimed frame, and A@5 was labelled by its lowest bit,
#   SurfaceFlinger Scheduling.
#   The app's table block: its own timeline is A's presents (B presents on vsyncs A also
#   presents), every interval P: max 16.7 ms, and its worst frames are 16.7 ms at 1.083 s on
#   A, 16.7 ms at 1.133 s on B, 10.0 ms on A (untimed); before, B's own 100.0 ms interval was
#   listed under the app whose longest interval is 16.7 ms.
jc=$TMP/janky-causes
mkdir -p "$jc"
# jc_ft < LINES > TRACE: FrameTimeline events as a Perfetto trace; each line is
#   D COOKIE TOKEN PID START END JANK PRESENT_TYPE            expected + actual display frame
#   S COOKIE TOKEN DTOKEN PID LAYER START END JANK PRESENT_TYPE  expected + actual surface frame
# (field numbers of frame_timeline_event.proto; TracePacket timestamp 8, event 76; no value is
# 0, so no NUL byte is written)
jc_ft() {
	LC_ALL=C awk '
	function vi(v,   s, b) {
		s = ""
		while (v >= 128) { b = v % 128; s = s sprintf("%c", b + 128); v = (v - b) / 128 }
		return s sprintf("%c", v)
	}
	function u(f, v) { return vi(f * 8) vi(v) }
	function ld(f, s) { return vi(f * 8 + 2) vi(length(s)) s }
	function pkt(ts, member, ev) { printf "%s", ld(1, u(8, ts) ld(76, ld(member, ev))) }
	function fend(ts, cookie) { pkt(ts, 5, u(1, cookie)) }
	$1 == "D" {
		pkt($5, 1, u(1, $2) u(2, $3) u(3, $4)); fend($6, $2)
		pkt($5, 2, u(1, $2 + 1) u(2, $3) u(3, $4) u(4, $8) u(7, $7)); fend($6, $2 + 1)
	}
	$1 == "S" {
		pkt($7, 3, u(1, $2) u(2, $3) u(3, $4) u(4, $5) ld(5, $6)); fend($8, $2)
		pkt($7, 4, u(1, $2 + 1) u(2, $3) u(3, $4) u(4, $5) ld(5, $6) u(6, $10) u(9, $9))
		fend($8, $2 + 1)
	}'
}
awk 'BEGIN {
	P = 16666667; A = "com.example.app/com.example.app.Main#0"
	B = "com.example.app/com.example.app.Popup#0"
	for (i = 1; i <= 10; i++) {
		T = 1000000000 + i * P
		printf "D %d %d 600 %d %d 1 1\n", 10 * i, 1000 + i, T - P, T
		printf "S %d %d %d 4242 %s %d %d %d %d\n", 500 + 10 * i, 2000 + i, 1000 + i, A,
			T - 2 * P, T - P, i == 5 ? 66 : 1, i == 5 ? 2 : 1
		if (i == 2 || i == 8)
			printf "S %d %d %d 4242 %s %d %d %d %d\n", 700 + 10 * i, 2100 + i, 1000 + i, B,
				T - 2 * P, T - P, i == 8 ? 64 : 1, i == 8 ? 2 : 1
	}
	for (k = 1; k <= 3; k++) {
		S = 1000000000 + (2 * k + 1) * P
		printf "S %d %d %d 4242 %s %d %d %d 4\n", 900 + 10 * k, 3000 + k, 1001 + 2 * k, A,
			S, S + 10000000, k == 1 ? 128 : k == 2 ? 64 : 66
	}
}' | jc_ft > "$jc/ft.pftrace"

A=com.example.app/com.example.app.Main#0
B=com.example.app/com.example.app.Popup#0
ADM='FrameTimeline: App Deadline Missed'
"$GFXSTAT" analyze -q --janky "$jc/ft.pftrace" > "$jc/janky.csv" 2> "$jc/err"
# time, layer, length and cause of each row (the cadence column is not this test's)
awk -F, 'NR > 1 { print $1 "|" $2 "|" $3 "|" $6 }' "$jc/janky.csv" > "$jc/got"
cat > "$jc/want" <<EOF
1.083333|"$A"|16.667|"$ADM"
1.133333|"$B"|100.000|"$ADM"
|"$A"|10.000|"$ADM"
|"$A"|10.000|"$ADM"
EOF
if cmp -s "$jc/want" "$jc/got"; then pass; else
	fail "analyze --janky: FrameTimeline frames (dropped ones too) labelled by the bit that made them janky"
	diff "$jc/want" "$jc/got" | head -n 10
fi

"$GFXSTAT" analyze -q "$jc/ft.pftrace" > "$jc/table.txt" 2> "$jc/err"
awk '/^app com.example.app/ { on = 1; next } on && /^$/ { exit } on' "$jc/table.txt" \
	> "$jc/app.txt"
cat > "$jc/want" <<EOF
  frame ms  p50 16.7  p90 16.7  p99 16.7  max 16.7
  worst     16.7 ms at 1.083 s on $A: $ADM
            16.7 ms at 1.133 s on $B: $ADM
            10.0 ms on $A: $ADM
EOF
# (only these lines: the headline may carry others)
grep -E '^  (frame ms|worst) |^            [0-9]' "$jc/app.txt" > "$jc/got"
if cmp -s "$jc/want" "$jc/got"; then pass; else
	fail "analyze: an app's worst frames come from its own timeline, with their layer and cause"
	diff "$jc/want" "$jc/got" | head -n 10
fi

# the report's janky table: the same four causes, untimed frames included
if "$GFXSTAT" report -q -o "$jc/r.html" "$jc/ft.pftrace" 2> "$jc/err"; then
	n=$(tr '\n' ' ' < "$jc/r.html" | sed 's/.*<table id="janky-table"//; s/<\/tbody>.*//' |
		grep -o "<td class=\"t\">$ADM</td>" | wc -l)
	if [ "$n" -eq 4 ] && ! grep -q 'unknown (no cause recorded' "$jc/r.html"; then pass; else
		fail "report: the janky table names the cause of every janky frame, untimed ones too ($n of 4)"
	fi
else
	fail "report on a FrameTimeline trace made here"
	cat "$jc/err"
fi

# The list_jank sample (systrace, 60 Hz): app sample.tencent.matrix merges two layers; layer
# #0 alone has 167 ms intervals while the app's longest is 133.8 ms. Every worst frame under
# the app must fit its own max, and its one scroll spans all its 141 intervals, so the
# scroll's hitch rate is the app's hitch_ms_per_s (before: 434.1 ms/s against the refresh
# period over the scroll's wall time, beside the app's 40.5 at the time).
LJ=$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_list_jank.html.zip
if [ -f "$LJ" ]; then
	"$GFXSTAT" analyze -q --all "$LJ" > "$jc/lj.txt" 2> "$jc/err"
	bad=$(awk '/^app / { on = 1; next } /^(layer |$)/ { on = 0 }
		on && /frame ms .* max / { max = $NF + 0 }
		on && /^  (worst)? +[0-9.]+ ms/ { v = $1 == "worst" ? $2 : $1; if (v + 0 > max) print }
		on && /Apple +hitch/ { hitch = $3 }
		on && /^    #1 at/ { if (match($0, /hitch [0-9.]+/) && substr($0, RSTART + 6, RLENGTH - 6) != hitch) print "scroll hitch " substr($0, RSTART + 6, RLENGTH - 6) " vs app " hitch }
		' "$jc/lj.txt")
	if [ -z "$bad" ] && grep -q '^    #1 at .* hitch [0-9.]* ms/s' "$jc/lj.txt"; then pass; else
		fail "list_jank: every figure under the app is the app's (worst frames, scroll hitch)"
		echo "$bad" | head -n 5
	fi
else
	skip "list_jank sample absent: the app's figures on a real trace not checked"
fi
