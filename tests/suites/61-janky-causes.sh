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
#   --janky: A@5 at 1.083333 s on the trace clock, 0.066667 s from the start (T5 - T1 = 4 P),
#   B@8 at 1.133333 s, 0.116667 s (7 P), each 16.667 ms long: its own length, actual end -
#   expected start = (T - P) - (T - 2 P) = P (H13; B's was its interval T8 - T2 = 6 P =
#   100.000 ms, longer than the frame), then the two untimed ones (10.000 ms, their own
#   duration), every cause "FrameTimeline: App Deadline Missed". Before the fix the first untimed one got the
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
# time, trace clock, layer, length and cause of each row (the cadence column is not this test's)
awk -F, 'NR > 1 { print $1 "|" $2 "|" $3 "|" $4 "|" $7 }' "$jc/janky.csv" > "$jc/got"
cat > "$jc/want" <<EOF
0.066667|1.083333|"$A"|16.667|"$ADM"
0.116667|1.133333|"$B"|16.667|"$ADM"
||"$A"|10.000|"$ADM"
||"$A"|10.000|"$ADM"
EOF
if cmp -s "$jc/want" "$jc/got"; then pass; else
	fail "analyze --janky: FrameTimeline frames (dropped ones too) labelled by the bit that made them janky"
	diff "$jc/want" "$jc/got" | head -n 10
fi

"$GFXSTAT" analyze -q "$jc/ft.pftrace" > "$jc/table.txt" 2> "$jc/err"
awk '/^app com.example.app/ { on = 1; next } on && /^$/ { exit } on' "$jc/table.txt" \
	> "$jc/app.txt"
# Times from the start of the recording, its first present (display frame 1, T1 = 1.016667
# s, the HTML report's origin), the trace clock in brackets: T5 - T1 = 4 P = 0.067 s, T8 - T1
# = 7 P = 0.117 s (issue 16/17 item 5; before: "at 1.083 s", the trace clock alone).
cat > "$jc/want" <<EOF
  frame ms  p50 16.7  p90 16.7  p99 16.7  max 16.7
  worst     16.7 ms at 0.067 s (trace clock 1.083 s) on $A: $ADM
            16.7 ms at 0.117 s (trace clock 1.133 s) on $B: $ADM
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
# The doFrame ran on tid 2380 of systemui's pid 2348: not its main thread (tid != pid); the
# scheduler's events name it "ll.splashscreen" (issue 16/17 item 6; before: "main thread").
# How late, by Android's account (actual end - expected end of its timeline slices, `frames`
# columns actual_end_ns and expected_end_ns): 157479818495758 - 157479818298488 = 197270 ns,
# jank_ms 0.197 (item 2; before: 0.000, its 8.9 ms length against a 16.6 ms cadence).
AP=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
if [ -f "$AP" ]; then
	"$GFXSTAT" analyze -q --janky --format json "$AP" > "$jc/ap.json" 2> "$jc/err"
	row=$(jc_row "$jc/ap.json" '"present_ns":157479845052073,')
	case $row in
	*'"jank_ms":0.197,"cause":"FrameTimeline: App Deadline Missed; sleeping: thread ll.splashscreen (tid 2380): Choreographer#doFrame 191058 10.1 ms'*'"cause_class":"sleeping","signature":"sleeping|main|traversal'*'|binder:system_server","main_thread":{"tid":2380,"section":"Choreographer#doFrame 191058",'*'"work_start_ns":157479809638214,"work_end_ns":157479819709219,"states_ms":{"running":1.320,"runnable":1.250,"runnable_preempted":0.000,"sleeping":7.501,"uninterruptible":0.000,"unknown":0.000}'*'"render_thread":{"tid":2385,"section":"DrawFrames 191058",'*) pass ;;
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

# 5. Issue 16/17, on the real samples.
# a) Every "why" line is a whole phrase: its brackets balance (item 1: a summary cut at the
# first ':' inside "unknown (no app sections ...: record with the 'view' category)" left its
# bracket open). Over every sample, and the JSON cluster summaries too.
if [ -d "$SAMPLES" ]; then
	find "$SAMPLES" -type f ! -name '*.md' | sort > "$jc/all"
	bad=0; nwhy=0
	while IFS= read -r f; do
		"$GFXSTAT" analyze -q "$f" 2> /dev/null | grep '^  why ' > "$jc/why" || continue
		"$GFXSTAT" analyze -q --format json "$f" 2> /dev/null |
			grep -o '"summary":"[^"]*"' >> "$jc/why"
		nwhy=$((nwhy + $(wc -l < "$jc/why")))
		# the depth of ( and [ never negative, 0 at the end of each line
		if ! awk '{ d = 0; b = 0
			for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
				if (c == "(") d++; else if (c == ")") d--
				if (c == "[") b++; else if (c == "]") b--
				if (d < 0 || b < 0) exit 1 }
			if (d || b) exit 1 }' "$jc/why"; then
			bad=1
			echo "unbalanced in $f:"; cat "$jc/why"
		fi
	done < "$jc/all"
	[ "$bad" = 0 ] && [ "$nwhy" -gt 20 ] && pass ||
		fail "why lines with unbalanced brackets (or too few why lines: $nwhy)"
else
	skip "no samples: why-line brackets not checked"
fi

# b) The catapult Jelly Bean systrace: the launcher's one janky frame has no app sections
# (no doFrame or DrawFrame: its main thread, tid 655, queues inside performTraversals), so it
# is explained by that thread's work between its queueBuffers (H15): the last before the
# latch ended at 50262.836405, the one before at .831941: 4.464 ms, within half the period,
# so "SurfaceFlinger/GPU: the app's work was within budget (queueBuffer to queueBuffer 4.5
# ms)", its summary the phrase before the ':' (before H15: "unknown (no app sections for this
# layer's process in the trace: record with the 'view' category)"). How late:
# its interval 33274000 ns (`frames` interval_ns, present 50262863420000) less its cadence
# period 16721875 ns = 16552125 ns, "17 ms". Its time from the start of the recording (the
# first present of any layer, the display's at 50260963706000, the HTML report's origin):
# 1899714000 ns, "at 1.900 s", the trace clock 50262.863 s in brackets (item 5).
CS=$SAMPLES/systrace_html/catapult/android_systrace.html
if [ -f "$CS" ]; then
	"$GFXSTAT" analyze -q "$CS" > "$jc/cs.txt" 2> /dev/null
	grep -qxF "  why       1 of 1 janky frames: SurfaceFlinger/GPU, 17 ms late in all" "$jc/cs.txt" &&
	grep -qF "  worst     33.3 ms at 1.900 s (trace clock 50262.863 s) on com.android.launcher/" "$jc/cs.txt" &&
		pass || fail "catapult systrace: why/worst lines: $(grep -E 'why|worst' "$jc/cs.txt" | head -n 2)"
else
	skip "catapult systrace absent"
fi

# c) api32: the systemui Splash Screen frame Android called App Deadline Missed, 197270 ns
# past its deadline (derived in 3. above): "0.2 ms late in all", not "0 ms" (item 2); its
# doFrame's thread by its name (item 6).
if [ -f "$AP" ]; then
	"$GFXSTAT" analyze -q "$AP" 2> /dev/null | grep -c '^  why       1 of 1 janky frames: thread ll.splashscreen (tid 2380) sleeping on binder to system_server in traversal (measure, layout, draw), 0.2 ms late in all$' > "$jc/n"
	[ "$(cat "$jc/n")" = 2 ] && pass || fail "api32: the why line of the systemui app and its Splash Screen layer"
fi

# d) App-side frames over whole vsync periods (item 3). The catapult app-only atrace: 14
# frames of pid 18926 (DrawFrame ends), no SurfaceFlinger, so 60 Hz is assumed (P =
# 16666667 ns). Their 13 intervals (`frames` interval_ns, ms): 32.101 10.245 26.119 6.967
# 7.194 11.291 15.975 16.423 18.026 17.408 18.419 15.794 17.001 sum 212.963: 13 / 0.212963 s
# = 61.0 FPS, over the refresh rate -- before. Each in whole periods, rounded, at least one:
# 2 1 2 1 1 1 1 1 1 1 1 1 1 = 15 periods = 0.25 s: 13 / 0.25 = 52.0 FPS.
AT=$SAMPLES/atrace_text/catapult/decompressed_atrace_data.txt
if [ -f "$AT" ]; then
	"$GFXSTAT" analyze -q --metrics fps "$AT" > "$jc/at.txt" 2> /dev/null
	grep -qF '  frames 14 over 0.21 s at 60.0 Hz: FPS 52.0; janky 2' "$jc/at.txt" &&
	grep -qF '  FPS 52.0 (active)  52.0 (wall)' "$jc/at.txt" &&
		pass || fail "app-side FPS over whole periods: $(grep FPS "$jc/at.txt")"
else
	skip "catapult atrace absent"
fi

# e) gfxinfo of every process, dumped at different times (item 4): systemui's 3 layers span
# (`frames --app com.android.systemui`, present_ns first and last, s) ScreenDecorOverlay
# 857.805357665..893.036088824, NotificationShade 25658.514164066..25822.008158229,
# StatusBar 25660.299469605..26045.223668397. The last two overlap: 25658.514164066..
# 26045.223668397 = 386.709504331 s, plus 35.230731159 s = 421.94 s covered, not the
# 25187.42 s from first to last (the gap 893.04..25658.51 is over the 500 ms idle wait, so
# left out). Its FPS stays 41.4 (counted intervals over their sum). And api32: systemui's two
# layers of one frame each, 157479.814..157479.845 s apart by 0.03 s, under a wait: covered,
# so its line stays "frames 2 over 0.03 s" (no union of two zero spans, "0.00 s").
GI=$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt
if [ -f "$GI" ]; then
	"$GFXSTAT" analyze -q "$GI" 2> /dev/null |
		grep -qxF "  frames 251 over 421.94 s (its layers' spans, gaps of an idle wait or more left out; 25187.42 s first to last) at 60.0 Hz: FPS 41.4; janky 84 (33.47%)" &&
		pass || fail "gfxinfo: systemui's time covered"
	if [ -f "$AP" ]; then
		"$GFXSTAT" analyze -q "$AP" 2> /dev/null | grep -A1 '^app com.android.systemui ' |
			grep -qxF '  frames 2 over 0.03 s at 60.1 Hz: FPS 29.8; janky 1 (50.00%)' &&
			pass || fail "api32: systemui's two one-frame layers cover 0.03 s"
	fi
else
	skip "aNavMode gfxinfo absent"
fi

# f) How late a gfxinfo frame was, by Android 12+'s own deadline (issue 16/17, H6 item 1).
# JankTracker::finishFrame (AOSP frameworks/base libs/hwui/JankTracker.cpp) counts a frame
# janky unless GpuCompleted < FrameDeadline; GpuCompleted is the later of the GPU fence and the
# CPU's command submission (libs/hwui/renderthread/CanvasContext.cpp onSurfaceStatsAvailable),
# so how late is GpuCompleted - FrameDeadline. Columns (1-based, header of both samples): 10
# FrameDeadline, 17 FrameCompleted, 20 GpuCompleted, 22 DisplayPresentTime.
# - Sound-to-Visualiation-Kotlin (120 Hz): the row presented at 314857099207283 has
#   FrameDeadline 314857049438280 and GpuCompleted 314857087837492 (= FrameCompleted):
#   314857087837492 - 314857049438280 = 38399212 ns, "jank_ms":38.399. The cadence rule knew
#   nothing here: its interval 8.295 ms is under the 8.31 ms period.
# - aNavMode, window StatusBar (60 Hz): the row presented at 25950881437699 (line 2405) has
#   FrameDeadline 25950851054412, GpuCompleted 25950851761622, FrameCompleted
#   25950853750238: 25950851761622 - 25950851054412 = 707210 ns, "jank_ms":0.707 -- not
#   FrameCompleted's 2696 us, nor the cadence rule's 22.418 - 16.667 = 5.751 ms.
SV=$SAMPLES/gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt
if [ -f "$SV" ]; then
	"$GFXSTAT" analyze -q --janky --format json "$SV" > "$jc/sv.json" 2> /dev/null
	grep -F '"present_ns":314857099207283,' "$jc/sv.json" | grep -qF '"jank_ms":38.399,' &&
		pass || fail "gfxinfo: lateness by FrameDeadline: $(grep -F 314857099207283 "$jc/sv.json")"
else
	skip "Sound-to-Visualiation-Kotlin gfxinfo absent"
fi
if [ -f "$GI" ]; then
	"$GFXSTAT" analyze -q --janky --format json "$GI" > "$jc/an.json" 2> /dev/null
	grep -F '"present_ns":25950881437699,"layer":"StatusBar"' "$jc/an.json" |
		grep -qF '"jank_ms":0.707,' &&
		pass || fail "gfxinfo: lateness GpuCompleted - FrameDeadline: $(grep -F 25950881437699 "$jc/an.json")"
fi

# g) The HTML report's top cause says what analyze says of lateness (H6 item 2): never "0 ms"
# for frames whose lateness is not known. Two apps of 10 framestats rows at 60 Hz (P =
# 16666667 ns; row k at v = 25622425131009 + k*P, FrameDeadline v + P, presents v + 30 ms, so
# every interval is P). Only row 9 is janky: e1's GpuCompleted = its FrameDeadline exactly
# (not < deadline: janky by JankTracker, late by 0, and its interval P is no later than its
# cadence: how late is not known); e2's is 2500000 ns past it ("2.5 ms"). Both
# "swap buffers" frames: one cluster of the recording, 2.5 ms and 1 not known.
awk 'BEGIN {
	P = 16666667
	print "Applications Graphics Acceleration Info:"
	h = "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart," \
	    "AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameInterval," \
	    "FrameStartTime,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers," \
	    "FrameCompleted,DequeueBufferDuration,QueueBufferDuration,GpuCompleted," \
	    "SwapBuffersCompleted,DisplayPresentTime,CommandSubmissionCompleted,"
	for (a = 1; a <= 2; a++) {
		printf "\n** Graphics info for pid %d [com.ex.e%d] **\n\n", 1000 + a, a
		printf "Window: com.ex.e%d/com.ex.e%d.Main\n\n---PROFILEDATA---\n%s\n", a, a, h
		for (k = 0; k < 10; k++) {
			v = 25622425131009 + k * P
			g = k < 9 ? v + 8e6 : a == 1 ? v + P : v + P + 2500000
			printf "0,%d,%.0f,%.0f,0,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%d,%.0f,%.0f,%.0f,%.0f,%.0f,73000,391692,%.0f,%.0f,%.0f,%.0f,\n",
				k + 1, v, v, v + 1e6, v + 1e6, v + 2e6, v + 3e6, v + P, v, P,
				v + 4e6, v + 5e6, v + 6e6, v + 7e6, g, g, v + 9e6, v + 30e6, v + 7e6
		}
		print "---PROFILEDATA---"
	}
}' > "$jc/late.txt"
"$GFXSTAT" analyze -q "$jc/late.txt" > "$jc/late.out" 2> /dev/null
grep -A2 '^app com.ex.e1 ' "$jc/late.out" |
	grep -qx '  why       1 of 1 janky frames: swap buffers over half the budget, how late not known' &&
grep -A2 '^app com.ex.e2 ' "$jc/late.out" |
	grep -qx '  why       1 of 1 janky frames: swap buffers over half the budget, 2.5 ms late in all' &&
	pass || fail "gfxinfo lateness 0 / 2.5 ms: analyze's why lines: $(grep why "$jc/late.out")"
if "$GFXSTAT" report -q -o "$jc/late.html" "$jc/late.txt" 2> /dev/null; then
	grep -qF '">swap buffers over half the budget</span>: 1 of 1 janky frames, how late not known.' "$jc/late.html" &&
	grep -qF '">swap buffers over half the budget</span>: 1 of 1 janky frames, 2.5 ms late in all.' "$jc/late.html" &&
	grep -qF 'data-k="recording_top_cause" data-class="gpu" data-frames="2" data-jank-ms="2.500" data-late-unknown="1">swap buffers over half the budget</span>: 2 of 2 janky frames, 2.5 ms late in all (1 of them by an amount not known).' "$jc/late.html" &&
	! grep -q 'janky frames, 0 ms late' "$jc/late.html" &&
		pass || fail "report: top causes' lateness: $(grep -o 'top_cause[^<]*</span>[^<]*' "$jc/late.html")"
else
	fail "report of the lateness fixture failed"
fi

# H13. Janky-frame numbers that agree with each other (review findings 1-4).
# 1. A janky frame's length is its own time where the source gives it (metrics.c
# frame_len()), so no part of it -- a stage, how late it was -- is longer than the length.
# Sound-to-Visualiation-Kotlin (120 Hz, period 8312165 ns), the row presented at
# 314857099207283: IntendedVsync 314857032791598, Vsync 314857074358343, FrameDeadline
# 314857049438280, FrameCompleted = GpuCompleted 314857087837492. Its length is
# 314857087837492 - 314857032791598 = 55045894 ns = 55.046 ms (6.6 refreshes); it was
# GpuCompleted - FrameDeadline = 38.399 ms late and waited Vsync - IntendedVsync = 41.6 ms for
# its vsync: both inside. Before, its length was its interval, 8.295 ms ("1.0 refreshes").
# Its time from the start (the first present, 314856700213169): 0.398994 s.
if [ -f "$SV" ]; then
	"$GFXSTAT" analyze -q --janky --format json "$SV" > "$jc/h13sv.json" 2> /dev/null
	grep -F '"present_ns":314857099207283,' "$jc/h13sv.json" |
		grep -qF '"frame_ms":55.046,"jank_ms":38.399,"cause":"vsync delay 41.6 ms' &&
		pass || fail "H13 gfxinfo: the frame's own length: $(grep -F 314857099207283 "$jc/h13sv.json" | cut -c1-300)"
	"$GFXSTAT" analyze -q --janky "$SV" 2> /dev/null |
		grep -q '^0\.398994,314857\.099207,"[^"]*",55\.046,6\.6,' &&
		pass || fail "H13 gfxinfo: the --janky row of 314857099207283"
	# the report's janky table: the same length and 55.046 / 8.312 = 6.6 refreshes
	if "$GFXSTAT" report -q -o "$jc/h13sv.html" "$SV" 2> /dev/null &&
		tr '\n' ' ' < "$jc/h13sv.html" | grep -q '<tr data-t="0.398994"[^>]*>.\{0,400\}<td>55\.0</td><td>6\.6</td>'; then
		pass
	else
		fail "H13 report: the janky table's length of the row at 0.399 s"
	fi
	# 4. --janky's time is from the start, as the worst lines': each worst line's "at T s
	# (trace clock C s)" is a row's time_s and trace_clock_s (0.391 / 314857.091 for the
	# 77.2 ms frame presented at 314857090912...)
	"$GFXSTAT" analyze -q --janky "$SV" > "$jc/h13sv.csv" 2> /dev/null
	"$GFXSTAT" analyze -q "$SV" 2> /dev/null | grep -E '^  (worst)? +[0-9.]+ ms at ' |
		sed 's/.* ms at \([0-9.]*\) s (trace clock \([0-9.]*\) s).*/\1 \2/' > "$jc/h13w"
	bad=$(awk -F, 'NR == FNR { w[NR] = $0; nw = NR; next }
		FNR > 1 { t[sprintf("%.3f %.3f", $1, $2)] = 1 }
		END { for (i = 1; i <= nw; i++) if (!(w[i] in t)) print w[i]; if (!nw) print "none" }' \
		"$jc/h13w" "$jc/h13sv.csv")
	[ -z "$bad" ] && head -n 1 "$jc/h13sv.csv" | grep -qx 'time_s,trace_clock_s,layer,frame_ms,vsyncs,cadence_fps,cause' &&
		pass || fail "H13 --janky times: worst lines with no row of that time: $bad"
fi
# aNavMode, the docs app (60 Hz): its janky row presented at 25107455383495 has
# IntendedVsync 25106748117484, Vsync 25107264784161 (516.7 ms later) and FrameCompleted =
# GpuCompleted 25107431157880: 683.040 ms long (before: its interval, 219.7 ms, with a 516.7
# ms vsync delay inside). The worst lines rank by that same length: they are the layer's
# three longest --janky rows, 801.8, 683.0 and 357.7 ms.
if [ -f "$GI" ]; then
	"$GFXSTAT" analyze -q --janky "$GI" > "$jc/h13an.csv" 2> /dev/null
	grep -q '^[0-9.]*,25107\.455383,"com\.google\.android\.apps\.docs/[^"]*",683\.040,41\.0,60\.0,"vsync delay 516\.7 ms' "$jc/h13an.csv" &&
		pass || fail "H13 aNavMode: the docs row of 516.7 ms vsync delay: $(grep 25107.455383 "$jc/h13an.csv")"
	want=$(grep ',"com\.google\.android\.apps\.docs/' "$jc/h13an.csv" | awk -F, '{ print $4 }' |
		sort -rn | head -n 3 | awk '{ printf "%.1f ", $1 }')
	got=$("$GFXSTAT" analyze -q "$GI" 2> /dev/null |
		awk '/^app com.google.android.apps.docs/ { on = 1; next } /^$/ { on = 0 }
			on && /^  (worst)? +[0-9.]+ ms/ { printf "%s ", $1 == "worst" ? $2 : $1 }')
	[ "$want" = "801.8 683.0 357.7 " ] && [ "$got" = "$want" ] && pass ||
		fail "H13 aNavMode docs: worst lines '$got', longest --janky rows '$want'"
fi
# Every sample: no janky frame was later than it was long, and no number of its cause
# ("vsync delay 41.6 ms", "Choreographer#doFrame 35.4 ms", "took 48.7 ms from its start")
# is over its length (the budget, "the 8.3 ms budget", is no part of the frame). Before: 15
# rows later than long in framestats, aNavMode and nowinandroid, 4 systrace rows whose cause
# was longer than their interval.
if [ -d "$SAMPLES" ]; then
	n=0
	for f in $(find "$SAMPLES" -type f ! -name '*.md' ! -name '*.json' ! -name '*.html' | sort) \
		"$SAMPLES"/systrace_html/*/*.html; do
		[ -f "$f" ] || continue
		"$GFXSTAT" analyze -q --janky --format json "$f" 2> /dev/null | grep '^{"present_ns"' |
		awk -v f="$f" '{
			fm = $0; sub(/.*"frame_ms":/, "", fm); sub(/,.*/, "", fm)
			jm = $0; sub(/.*"jank_ms":/, "", jm); sub(/,.*/, "", jm)
			c = $0; sub(/.*"cause":"/, "", c); sub(/".*/, "", c)
			if (fm == "null") next
			if (jm != "null" && jm + 0 > fm + 0.0005) { print f ": late " jm " > frame " fm; next }
			while (match(c, /[0-9]+(\.[0-9]+)? ms/)) {
				v = substr(c, RSTART, RLENGTH - 3) + 0; c = substr(c, RSTART + RLENGTH)
				if (c !~ /^ budget/ && v > fm + 0.05) { print f ": " v " ms in a " fm " ms frame"; break }
			}
		}' >> "$jc/h13parts"
		n=$((n + 1))
	done
	[ "$n" -ge 10 ] && [ ! -s "$jc/h13parts" ] && pass ||
		fail "H13: a part longer than its janky frame ($n inputs): $(head -n 3 "$jc/h13parts" 2> /dev/null)"
fi

# 2. Two clusters never read the same: gfxsim --seed 5 --jank 8 --sched-noise 5, app2's 31
# janky frames (its --janky rows): 4 "sleeping|main|traversal > inflate|" (jank_ms 166.534,
# 249.995, 233.312, 283.318: 933.159 ms late in all) and 5 "sleeping|main|traversal > draw >
# Record View#draw()|" (33.246, 16.497, 16.680, 16.578, 33.199: 116.200 ms), both "main
# thread sleeping in traversal (measure, layout, draw)"; 16 "gpu|render|flush commands|"
# (416.107 ms); 1 blocked_io, 2 slow_cpu, 3 SurfaceFlinger/GPU. Merged: 9 frames, 1049.359
# ms, the top cause (before: "4 of 31", the inflate part alone, with 5 more frames of the
# same wording in a cluster of their own).
if [ -x "$GFXSIM" ]; then
	"$GFXSIM" --seed 5 --jank 8 --sched-noise 5 -o "$jc/h13sim.trace" 2> /dev/null
	"$GFXSTAT" analyze -q "$jc/h13sim.trace" > "$jc/h13sim.txt" 2> /dev/null
	grep -A2 '^app com.example.app2 ' "$jc/h13sim.txt" |
		grep -qx '  why       9 of 31 janky frames: main thread sleeping in traversal (measure, layout, draw), 1049 ms late in all' &&
		pass || fail "H13 sim: app2's why line: $(grep -A2 '^app com.example.app2 ' "$jc/h13sim.txt" | grep why)"
	"$GFXSTAT" analyze -q --format json "$jc/h13sim.trace" > "$jc/h13sim.json" 2> /dev/null
	# in no causes list does a summary come twice
	dup=$(awk '{
		c = $0; delete seen
		while (match(c, /"summary":"[^"]*"/)) {
			s = substr(c, RSTART, RLENGTH); c = substr(c, RSTART + RLENGTH)
			if (s in seen) print NR ": " s; seen[s] = 1
		}
	}' "$jc/h13sim.json")
	grep -q '"summary":"main thread sleeping in traversal (measure, layout, draw)","frames":9,"jank_ms":1049.3[56]' "$jc/h13sim.json" &&
		[ -z "$dup" ] && pass || fail "H13 sim: causes that read the same: $dup"
	# the report's top cause on the app's card reads the same
	if "$GFXSTAT" report -q -o "$jc/h13sim.html" "$jc/h13sim.trace" 2> /dev/null; then
		grep -qF 'data-k="top_cause" data-class="sleeping" data-frames="9" data-jank-ms="1049.3' "$jc/h13sim.html" &&
			pass || fail "H13 sim: the report's top cause: $(grep -o 'data-k="top_cause"[^<]*<' "$jc/h13sim.html" | head -n 2)"
	else
		fail "H13 sim: report failed"
	fi
fi

# 3. The recording's top cause counts what draws, not the display's result of it.
# list_jank: the app sample.tencent.matrix has 10 janky frames (8 "main thread sleeping in
# input handling", 2 SurfaceFlinger/GPU), the "(display)" layer 3 (SurfaceFlinger's
# FrameMissed refreshes): the recording's line and `causes` count the app's 10 only
# (before: "SurfaceFlinger: 3 of 13" on the page, 13 in causes).
if [ -f "$LJ" ]; then
	"$GFXSTAT" analyze -q --json "$LJ" > "$jc/h13lj.json" 2> /dev/null
	sum=$(awk '/^"causes":\[/ { on = 1 } on { while (match($0, /"frames":[0-9]+/)) {
		s += substr($0, RSTART + 9, RLENGTH - 9); $0 = substr($0, RSTART + RLENGTH) } }
		on && /\]/ { exit } END { print s + 0 }' "$jc/h13lj.json")
	[ "$sum" = 10 ] && pass || fail "H13 list_jank: the recording's causes hold $sum frames, want 10"
	if "$GFXSTAT" report -q -o "$jc/h13lj.html" "$LJ" 2> /dev/null; then
		tr '\n' ' ' < "$jc/h13lj.html" | grep -q "the display's own are how their late frames look on screen, so they are not ranked beside them): <span data-k=\"recording_top_cause\" data-class=\"sleeping\" data-frames=\"8\" [^>]*>main thread sleeping in input handling</span>: 8 of 10 janky frames, " &&
			pass || fail "H13 list_jank: the recording's top cause: $(grep -o 'Across the[^<]*<span[^>]*>[^<]*</span>[^<]*' "$jc/h13lj.html")"
	else
		fail "H13 list_jank: report failed"
	fi
fi
# With no janky frame of what draws, the display's own are the recording's: a FrameTimeline
# trace made here (60 Hz, P = 16666667 ns), display frames 1..10 at T(i) = 1e9 + i P, each
# expected and actual [T - P, T], frame 5 "SurfaceFlinger CPU Deadline Missed" (jank 16) and
# Late; the app's surface frames [T - 2 P, T - P] all on time (jank None). One janky frame,
# (display) at T5 = 1.083333 s, 0.066667 s after T1, P = 16.667 ms long (actual end -
# expected start); `causes` and the page's line count it, and the page says so.
awk 'BEGIN {
	P = 16666667; A = "com.example.app/com.example.app.Main#0"
	for (i = 1; i <= 10; i++) {
		T = 1000000000 + i * P
		printf "D %d %d 600 %d %d %d %d\n", 10 * i, 1000 + i, T - P, T, i == 5 ? 16 : 1, i == 5 ? 2 : 1
		printf "S %d %d %d 4242 %s %d %d 1 1\n", 500 + 10 * i, 2000 + i, 1000 + i, A, T - 2 * P, T - P
	}
}' | jc_ft > "$jc/h13d.pftrace"
"$GFXSTAT" analyze -q --janky "$jc/h13d.pftrace" 2> /dev/null | sed 1d > "$jc/h13d.csv"
"$GFXSTAT" analyze -q --json "$jc/h13d.pftrace" 2> /dev/null | grep -A1 '^"causes":\[' |
	grep -q '^{"cause_class":"surfaceflinger",.*"frames":1,' && [ "$(wc -l < "$jc/h13d.csv")" = 1 ] &&
	grep -q '^0\.066667,1\.083333,"(display)",16\.667,1\.0,' "$jc/h13d.csv" &&
	"$GFXSTAT" report -q -o "$jc/h13d.html" "$jc/h13d.pftrace" 2> /dev/null &&
	grep -qF "the top cause of janky frames (the display's: no app or other layer has a janky frame): <span data-k=\"recording_top_cause\" data-class=\"surfaceflinger\" data-frames=\"1\"" "$jc/h13d.html" &&
	pass || fail "H13: the display's janky frames when nothing that draws has one: $(cat "$jc/h13d.csv")"
# H15: a layer drawn by a thread of its own (no Choreographer#doFrame or DrawFrame) is
# explained by that thread's work from its previous queueBuffer to the one that queued the
# frame (libgui Surface::queueBuffer, ATRACE_CALL: every producer's buffers go through it).
# wangzherongyao (Gracker's SystraceForBlog: Honor of Kings, a Unity SurfaceView game at a
# steady 30 FPS) has no janky frame; made stricter here by deleting SurfaceFlinger's latch of
# one buffer (the SurfaceView's BufferQueue counter lowered to 0 at 1643529.225914), so the
# next latch, at .259175, ends a 66.7 ms interval: one janky frame, presented at
# 1643529.275353. Its buffer was queued by UnityMain (tid 19845, pid 19805; the game has no
# doFrame or DrawFrame on this layer): its last queueBuffer before that latch ended at
# .244328, the one before at .209469, so the frame is [.209469, .244328], 34.859 ms. The raw
# sched_switch / sched_waking lines of tid 19845 inside it (R and R+: runnable_preempted; a
# sched_waking while it still runs is spurious; a switch in after S with no waking: sleeping
# up to it):
#   .209469 E of queueBuffer (running)      running   .209469-.210424 0.955
#   .210424 prev_state=R ==> 8457           preempted .210424-.210599 0.175
#   .210599 8457 ==> 19845                  running   .210599-.215487 4.888
#   .215487 R ==> 24040; .215789 ==> 19845  preempted 0.302; running .215789-.217625 1.836
#   .217625 S (waking .217599 spurious); .217680 in: sleeping 0.055; running to .218119 0.439
#   .218119 S; .218136 waking; .218184 in: sleeping 0.017, runnable 0.048; running 1.506
#   .219690 S; .223807 waking by CoreThread-20106; .224176 in: sleeping 4.117, runnable 0.369
#   .224176-.230298 running 6.122; .230298 S .230323 waking .230356 in: 0.025 S, 0.033 R
#   .230356-.230797 running 0.441; .230797 S .230804 waking .230858 in: 0.007 S, 0.054 R
#   .230858-.232596 running 1.738; .232596 S (waking .232572 spurious) .232650 in: 0.054 S
#   .232650-.233082 running 0.432; .233082 S .233096 waking .233151 in: 0.014 S, 0.055 R
#   .233151-.233256 running 0.105; .233256 S .233664 waking .233694 in: 0.408 S, 0.030 R
#   .233694-.234764 running 1.070; .234764 R+, .234801 in on [006]: preempted 0.037
#   .234801-.234817 running 0.016; .234817 S .234946 waking .234994 in: 0.129 S, 0.048 R
#   .234994-.238126 running 3.132; .238126 S (waking .238122 spurious) .238151 in: 0.025 S
#   .238151-.239742 running 1.591; .239742 S .239773 waking .239799 in: 0.031 S, 0.026 R
#   .239799-.243891 running 4.092; .243891 R+ .244270 in: preempted 0.379; running 0.058
# running 28.421, runnable 0.663, runnable_preempted 0.893, sleeping 4.882 (longest 4.117,
# ended by CoreThread tid 20106), sum 34.859 ms; CPUs 5 and 6. Running most: the cause
# names the thread, "thread UnityMain (tid 19845)", its longest section inside the frame
# (eglSwapBuffersWithDamageKHR, .243677 to the frame's end .244328: 0.651 ms, longer than
# dequeueBuffer's 0.546) and a class of running (busy or slow_cpu: cpu_frequency says 0.75
# GHz on average, under half of the 2.84 GHz top: slow_cpu). Before: "unknown (a SurfaceView:
# the app draws it from a thread of its own, not in a doFrame or DrawFrame)".
WZ=$SAMPLES/systrace_html/Gracker-SystraceForBlog/wangzherongyao.html.zip
if [ ! -f "$WZ" ] || ! command -v unzip > /dev/null; then
	skip "H15: $WZ absent (or no unzip): the producer thread's derivation is not checked"
else
	mkdir -p "$jc/wz"
	unzip -q -o "$WZ" -d "$jc/wz"
	grep -vF '1643529.225914: tracing_mark_write: C|8158|SurfaceView - com.tencent.tmgp.sgame' \
		"$jc/wz/wangzherongyao.html" > "$jc/wz/janky.html"
	"$GFXSTAT" analyze -q --janky "$WZ" 2> /dev/null | sed 1d > "$jc/wz/none.csv"
	[ ! -s "$jc/wz/none.csv" ] && pass || fail "H15: the game at 30 FPS has janky frames: $(head -c 300 "$jc/wz/none.csv")"
	"$GFXSTAT" analyze -q --janky --format json "$jc/wz/janky.html" > "$jc/wz/j.json" 2> /dev/null
	line=$(grep -F '"present_ns":1643529275353000,' "$jc/wz/j.json")
	[ "$(grep -c '"present_ns":' "$jc/wz/j.json")" = 1 ] && pass ||
		fail "H15: want one janky frame, got $(grep -c '"present_ns":' "$jc/wz/j.json")"
	case $line in
	*'"cause":"slow_cpu: thread UnityMain (tid 19845): queueBuffer to queueBuffer 34.9 ms (longest inside: eglSwapBuffersWithDamageKHR 0.7 ms); ran 28.4 ms on CPU 5,6 '*'"signature":"slow_cpu|producer|eglSwapBuffersWithDamageKHR > queueBuffer|"'*) pass ;;
	*) fail "H15: the producer thread's cause: $(printf '%s' "$line" | head -c 700)" ;;
	esac
	rt=${line#*\"render_thread\":}
	case $rt in
	*'"tid":19845,"section":"queueBuffer to queueBuffer","longest_inside":"eglSwapBuffersWithDamageKHR > queueBuffer","work_start_ns":1643529209469000,"work_end_ns":1643529244328000,"states_ms":{"running":28.421,"runnable":0.663,"runnable_preempted":0.893,"sleeping":4.882,"uninterruptible":0.000,"unknown":0.000},"cpus":[5,6],'*) pass ;;
	*) fail "H15: UnityMain's states over its frame: $(printf '%s' "$rt" | head -c 500)" ;;
	esac
	case $rt in
	*'"woken_by":{"tid":20106,'*'"comm":"CoreThread","interrupt":false,"after_sleep_ms":4.117'*) pass ;;
	*) fail "H15: what woke UnityMain: ${rt#*\"woken_by\"}" ;;
	esac
fi
