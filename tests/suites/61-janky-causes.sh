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

# -- review findings 1, 2 and 4: causes where the trace has them ----------------------------
# jc_json_line FILE KEY: the --janky JSON row that holds KEY
jc_row() { grep -F "$2" "$1" | head -n 1; }

# 1. A layer whose producer SurfaceFlinger's markers do not name. xiaomi_launcher (Gracker's
# SystraceForBlog): layer com.miui.home/...Launcher#0 has no queueBuffer caller and its main
# thread's lines read "<...>-3553  ( 3553)"; the PROCESS DUMP lists "u0_a90 3553 766 ...
# com.miui.home" and sched_switch names next_comm=com.miui.home next_pid=3553: the one
# process of that name. Its first janky frame (present 28306.090083) is the DrawFrame of
# "<...>-3690  ( 3553)" (RenderThread, pid 3553) from .064598 to .071470 (6.872 ms), which
# began inside the doFrame .061904 -> .066063. Raw lines of tid 3690 over it (sched_wakeup;
# the trace has no sched_waking):
#   .064598 -> .064672 running 0.074 | .064672 S -> wakeup .064727 sleeping 0.055 | runnable
#   to switch-in .064751 0.024 | running to .064812 0.061 | S -> .064853 sleeping 0.041 |
#   runnable to .064861 0.008 | running to .066113 1.252 | S -> .066375 sleeping 0.262 |
#   runnable to .066382 0.007 | running to .070702 4.320 | R+ -> .070925 preempted 0.223 |
#   running to .071028 0.103 | R+ -> .071088 preempted 0.060 | running to .071470 0.382
# running 6.192, runnable 0.039, preempted 0.283, sleeping 0.358 (sum 6.872), all on CPU 4,
# at 1056000 kHz (cpu_frequency cpu_id=4 at .061501), under half the fastest core's top:
# slow_cpu. Before: all 7 janky frames "unknown (this layer's app process is not identified)".
XM=$SAMPLES/systrace_html/Gracker-SystraceForBlog/xiaomi_launcher.zip
if [ -f "$XM" ]; then
	"$GFXSTAT" analyze -q --janky --format json "$XM" > "$jc/xm.json" 2> "$jc/err"
	row=$(jc_row "$jc/xm.json" '"present_ns":28306090083000,')
	rt=${row#*\"render_thread\":}
	case $row in
	*'"cause_class":"slow_cpu"'*'"main_thread":{"tid":3553,'*'"work_start_ns":28306061904000,'*) pass ;;
	*) fail "xiaomi: the first janky frame's class and doFrame: $(printf '%s' "$row" | head -c 500)" ;;
	esac
	case $rt in
	'{"tid":3690,"section":"DrawFrame",'*'"work_start_ns":28306064598000,"work_end_ns":28306071470000,"states_ms":{"running":6.192,"runnable":0.039,"runnable_preempted":0.283,"sleeping":0.358,"uninterruptible":0.000,"unknown":0.000},"cpus":[4],"max_freq_khz":1056000,'*) pass ;;
	*) fail "xiaomi: the RenderThread's states: $(printf '%s' "$rt" | head -c 400)" ;;
	esac
	n=$(grep -c '"app":"com.miui.home".*"cause_class":"unknown"' "$jc/xm.json")
	m=$(grep -c '"app":"com.miui.home".*"render_thread":{' "$jc/xm.json")
	[ "$n" = 0 ] && [ "$m" = 7 ] && pass ||
		fail "xiaomi: $n of com.miui.home's janky frames unknown, $m with their RenderThread (want 0, 7)"
else
	skip "xiaomi_launcher sample absent: a layer's process found by name not checked"
fi
# The Meizu launcher (trace_input_blog_launcher_scroll): PROCESS DUMP "u0_a21 27619 ...
# com.meizu.flyme.launcher", thread 27619 ".flyme.launcher" (its last 15 characters). Its one
# janky frame (present 958957.116851) was latched after the DrawFrame of RenderThread-27872
# (B|27619) .085460 -> .087778, 2.3 ms, inside the doFrame .084305 -> .086146 (1.8 ms): both
# within half the 16.7 ms period, so SurfaceFlinger/GPU (the decision list, rule 3).
MZ=$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_launcher_scroll.html.zip
if [ -f "$MZ" ]; then
	"$GFXSTAT" analyze -q --janky "$MZ" 2> "$jc/err" | grep -F '958957.116851,' > "$jc/mz"
	grep -q '"SurfaceFlinger/GPU: the app.s work was within budget (DrawFrame 2.3 ms)"$' \
		"$jc/mz" && pass || fail "meizu launcher: the janky frame's cause: $(cat "$jc/mz")"
else
	skip "launcher_scroll sample absent: a layer's process found by name not checked"
fi

# 2. FrameTimeline frames with the app's work and thread states. api32_startup_warm
# (google/perfetto test data, Apache-2.0): the Splash Screen surface frame, token 191058,
# pid 2348, App Deadline Missed. Its work names the token: "Choreographer#doFrame 191058" on
# tid 2380 (ll.splashscreen) 157479.809638214 -> .819709219 (10.071 ms) and "DrawFrames
# 191058" on tid 2385 from .814890819 (perfetto-dump --markers). perfetto-dump --sched, tid
# 2380 over the doFrame (ns after 157479.8):
#   running (in at .809621531) to 09820303 S | waking by binder:1858_6 11924713 | in 11935944
#   | S 12044708 | waking 12246450 | in 12350698 | S 12450836 | waking 12711334 | in 12728668
#   | S 13020172 | waking 13082347 | in 13296865 | S 13666494 | waking 13797191 | in 14653880
#   | S 14796987 | waking 14798493 | in 14812978 | S 14885936 | waking 14922394 | in 14947703
#   | S 14961253 | waking 19664337 | in 19670563 | end 19709219
# running 0.182089 + 0.108764 + 0.100138 + 0.291504 + 0.369629 + 0.143107 + 0.072958 +
# 0.013550 + 0.038656 = 1.320 ms; runnable 1.250 ms; sleeping 7.501 ms (sum 10.071). Its
# synchronous binder calls (flags 0x10) took 2.142 (to system_server, reply received
# .811938548) + 0.303 + 0.311 + 1.007 = 3.762 ms, half its sleep or more: sleeping on binder
# to system_server. Before: "FrameTimeline: App Deadline Missed", no threads.
AP=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
if [ -f "$AP" ]; then
	"$GFXSTAT" analyze -q --janky --format json "$AP" > "$jc/ap.json" 2> "$jc/err"
	row=$(jc_row "$jc/ap.json" '"present_ns":157479845052073,')
	case $row in
	*'"cause":"FrameTimeline: App Deadline Missed; sleeping: main thread: Choreographer#doFrame 191058 10.1 ms'*'"cause_class":"sleeping","signature":"sleeping|main|traversal'*'|binder:system_server","main_thread":{"tid":2380,"section":"Choreographer#doFrame 191058",'*'"work_start_ns":157479809638214,"work_end_ns":157479819709219,"states_ms":{"running":1.320,"runnable":1.250,"runnable_preempted":0.000,"sleeping":7.501,"uninterruptible":0.000,"unknown":0.000}'*'"render_thread":{"tid":2385,"section":"DrawFrames 191058",'*) pass ;;
	*) fail "api32: the App Deadline Missed frame from its work: $(printf '%s' "$row" | head -c 700)" ;;
	esac
else
	skip "api32_startup_warm sample absent: FrameTimeline frames with thread states not checked"
fi

# 4. gfxinfo's legacy profile table. NuvioTV (dumpsys gfxinfo, Draw Prepare Process Execute):
# of its 120 rows, 111 sum over 16 ms (hwui's profile bar threshold): rows 1-110 have Draw
# 50.00 (the cap), row 111 Draw 45.05; Prepare, Process and Execute under 6 ms in each. Draw
# is over half the 16.7 ms budget in all 111: "Draw ... ms (over half ...)", app_work, and
# the why line counts them as one cause. Before: "111 of 111 janky frames: unknown".
NV=$SAMPLES/gfxinfo/NuvioTV/gfxinfo.txt
if [ -f "$NV" ]; then
	"$GFXSTAT" analyze -q --janky "$NV" > "$jc/nv.csv" 2> "$jc/err"
	a=$(grep -c ',"Draw 50.0 ms (over half the 16.7 ms budget): the UI thread (input, animation, measure/layout, recording the display list)"$' "$jc/nv.csv")
	b=$(grep -c ',"Draw 45\.[01] ms (over half the 16.7 ms budget): the UI thread' "$jc/nv.csv")
	[ "$a" = 110 ] && [ "$b" = 1 ] && pass || fail "NuvioTV: $a rows Draw 50.0 and $b Draw 45, want 110 and 1"
	"$GFXSTAT" analyze -q "$NV" 2> /dev/null |
		grep -q '^  why       111 of 111 janky frames: UI thread (Draw) over half the budget,' &&
		pass || fail "NuvioTV: the why line: $("$GFXSTAT" analyze -q "$NV" 2>&1 | grep why | head -n 1)"
else
	skip "NuvioTV sample absent: gfxinfo's legacy table causes not checked"
fi
