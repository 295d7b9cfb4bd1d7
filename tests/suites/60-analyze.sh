# SPDX-License-Identifier: MIT
# gfxstat analyze: each metric must equal the definition of the tool it comes from, applied to
# the frames that `gfxstat frames` lists for the same input. An independent awk program
# recomputes several of them from the frames CSV (FPS over active time, nearest-rank
# percentiles, PerfDog jank and big jank, android_FPS_frome_GFX's A/B/C buckets, waits) and
# they are compared with analyze --json.
# (A gfxinfo row can carry a DisplayPresentTime earlier than the row before it; such a frame
# is out of order and both sides leave it out, as docs/metrics.md says.)
# Sourced by tests/run.sh.
recompute() { # recompute FRAMES.csv LAYER -> "fps p50 p90 p99 max jank big a b c waits"
	awk -F, -v layer="$2" '
	# a frame presented before the layer'\''s previous present is out of order: left out
	NR > 1 && $2 == layer && $5 != "" && (!n || $5 + 0 >= p[n - 1]) { p[n++] = $5 + 0 }
	END {
		for (i = 1; i < n; i++) iv[i - 1] = p[i] - p[i - 1]
		m = n - 1; c = 0; act = 0
		for (i = 0; i < m; i++) {
			if (iv[i] >= 500000000) { waits++; continue }
			cnt[c++] = iv[i]; act += iv[i]
			if (iv[i] >= 100000000) A++; else if (iv[i] >= 50000000) B++; else if (iv[i] >= 42000000) C++
		}
		# insertion sort of the counted intervals (layers are small)
		for (i = 1; i < c; i++) { v = cnt[i]; for (j = i - 1; j >= 0 && cnt[j] > v; j--) cnt[j + 1] = cnt[j]; cnt[j + 1] = v }
		# PerfDog over every interval, waits included, from the 4th
		for (i = 3; i < m; i++) {
			s3 = iv[i - 1] + iv[i - 2] + iv[i - 3]
			if (3 * iv[i] > 2 * s3 && iv[i] > 83333333) { jank++; if (iv[i] > 125000000) big++ }
		}
		printf "%.3f %.3f %.3f %.3f %.3f %d %d %d %d %d %d\n", c / (act / 1e9),
			cnt[rank(50, c) - 1] / 1e6, cnt[rank(90, c) - 1] / 1e6, cnt[rank(99, c) - 1] / 1e6,
			cnt[c - 1] / 1e6, jank, big, A, B, C, waits
	}
	function rank(pc, k,   r) { r = int((k * pc + 99) / 100); return r < 1 ? 1 : r }' "$1"
}
from_json() { # from_json JSON LAYER -> the same fields as recompute
	grep -F "{\"layer\":\"$2\"" "$1" | head -n 1 | awk '{
		n = split("fps p50 p90 p99 max jank big_jank A B C waits", k, " ")
		for (i = 1; i <= n; i++) {
			if (match($0, "\"" k[i] "\":[0-9.]+")) { s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); v[i] = s }
		}
		printf "%.3f %.3f %.3f %.3f %.3f %d %d %d %d %d %d\n", v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]
	}'
}
an=$TMP/analyze
mkdir -p "$an"
check_layers() { # check_layers INPUT LAYER...
	in=$1
	shift
	"$GFXSTAT" frames -q "$in" > "$an/frames.csv"
	"$GFXSTAT" analyze -q --json "$in" > "$an/a.json"
	for layer in "$@"; do
		want=$(recompute "$an/frames.csv" "$layer")
		got=$(from_json "$an/a.json" "$layer")
		if [ -n "$want" ] && [ "$want" = "$got" ]; then pass; else
			fail "analyze vs frames on $(basename "$in"), layer $layer"
			echo "  from frames: $want"
			echo "  analyze:     $got"
		fi
	done
}
check_layers "$ROOT/examples/launcher-60hz.trace" \
	"com.example.app2/com.example.app2.MainActivity#0" \
	"com.example.app1/com.example.app1.MainActivity#0"
if [ -d "$SAMPLES" ]; then
	check_layers "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" \
		"com.google.samples.apps.nowinandroid.demo/com.google.samples.apps.nowinandroid.MainActivity#50010"
	check_layers "$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt" "Taskbar"
	if command -v unzip > /dev/null; then
		rm -rf "$an/x"
		mkdir -p "$an/x"
		unzip -q -o "$SAMPLES/systrace_html/Gracker-SystraceForBlog/xiaomi_launcher.zip" -d "$an/x"
		check_layers "$an/x/xiaomi_launcher.html" \
			"com.miui.home/com.miui.home.launcher.Launcher#0" \
			"com.miui.miwallpaper.snowmountain.superwallpaper.SnowmountainSuperWallpaper#0"
	fi
fi

# -- one definition of janky: the --janky list has as many rows per layer as the table's
# "janky N of M" says, in time order, and no row is 0 ms long ---------------------------------
janky_consistent() { # janky_consistent INPUT
	"$GFXSTAT" analyze -q "$1" > "$an/t.txt"
	"$GFXSTAT" analyze -q --janky "$1" > "$an/j.csv"
	# the table's per-layer janky counts, summed over layers (apps merge layers: left out)
	want=$(awk '/^layer /{l = 1} /^app /{l = 0} l && /^  frames /{
		for (i = 1; i <= NF; i++) if ($i == "janky") s += $(i + 1) } END { print s + 0 }' "$an/t.txt")
	got=$(awk 'NR > 1 && !/^no janky/' "$an/j.csv" | wc -l | tr -d ' ')
	[ "$want" = "$got" ] && pass || fail "analyze --janky on $(basename "$1"): $got rows, table says $want"
	# time order, and a length for every row (field 4: frame_ms, after time_s, trace_clock_s)
	bad=$(awk -F, 'NR > 1 && $1 != "" { if ($1 + 0 < prev) o++; prev = $1 + 0 }
		NR > 1 && ($4 == "" || $4 + 0 <= 0) { z++ } END { print o + 0, z + 0 }' "$an/j.csv")
	[ "$bad" = "0 0" ] && pass || fail "analyze --janky on $(basename "$1"): out of order / 0 ms rows: $bad"
}
janky_consistent "$ROOT/examples/launcher-60hz.trace"
if [ -d "$SAMPLES" ]; then
	janky_consistent "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace"
	# nowinandroid: 16 janky frames of the main activity's surface and 1 of the splash screen,
	# each by FrameTimeline's own verdict (App Deadline Missed; 50-perfetto counts 17 janky
	# surface frames); Buffer Stuffing alone is not janky (trace_processor), so not listed
	n=$("$GFXSTAT" analyze -q --janky "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" |
		grep -c 'Deadline Missed')
	[ "$n" = 17 ] && pass || fail "analyze --janky nowinandroid: $n App Deadline Missed rows, want 17"
	"$GFXSTAT" analyze -q --janky "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" |
		grep -q 'Buffer Stuffing' && fail "analyze --janky lists Buffer Stuffing frames" || pass
	# --scroll-only on a trace without scrolls: an error (exit 3), not a table of zeros
	"$GFXSTAT" analyze -q --scroll-only "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" \
		> /dev/null 2>&1
	rc=$?
	[ $rc -eq 3 ] && pass || fail "analyze --scroll-only without scrolls exited $rc, want 3"
	if command -v unzip > /dev/null; then
		# wangzherongyao: a game steady at 30 FPS on a 60 Hz screen. Its 76 intervals are
		# 33.0-33.8 ms, 2 vsyncs each (frames CSV): against the cadence (2 vsyncs) none is slow
		# and none janky; against the refresh every one is (--json "refresh"), 500 ms/s hitch
		rm -rf "$an/w"
		mkdir -p "$an/w"
		unzip -q -o "$SAMPLES/systrace_html/Gracker-SystraceForBlog/wangzherongyao.html.zip" -d "$an/w"
		"$GFXSTAT" analyze -q --json "$an/w/wangzherongyao.html" > "$an/w.json"
		sg='{"layer":"SurfaceView - com.tencent.tmgp.sgame/com.tencent.tmgp.sgame.SGameActivity#0"'
		line=$(grep -F "$sg" "$an/w.json" | head -n 1)
		case $line in
		*'"cadence_vsyncs":2,'*'"janky_frames":0,'*'"slow_frames":0,'*'"refresh":{"slow_frames":76,'*)
			pass ;;
		*) fail "analyze wangzherongyao: cadence/slow/janky not as derived: $(echo "$line" | head -c 600)" ;;
		esac
		"$GFXSTAT" analyze -q --janky "$an/w/wangzherongyao.html" | grep -q '^no janky frames$' &&
			pass || fail "analyze --janky wangzherongyao lists frames of a steady 30 FPS game"
	fi
fi

# -- an idle gap is not jank: frames with the app's start are judged from it ------------------
# launcher-60hz: app2's 283.4 ms frame at 1939277.672 is no idle gap. Its doFrame began at
# 1939277.370847 and ended at .638065 (267.2 ms, an inflate inside traversal; the simulator's
# truth: late_vsyncs 16): janky, and explained by that doFrame. Its length is its own, from
# that doFrame's start to its present: 1939277.671961 - 1939277.370847 = 301.114 ms (H13: was
# its interval, 283.4 ms, shorter than the 267.2 ms doFrame plus its wait for the display).
# Its time is from the recording's start, the first present of any layer, 1939277.155329
# (`gfxstat frames`): 0.516632 s, the trace clock in the second column.
"$GFXSTAT" analyze -q --janky "$ROOT/examples/launcher-60hz.trace" > "$an/ij.csv"
grep -q '^0.516632,1939277.671961,"[^"]*",301.114,.*main thread: Choreographer#doFrame 267.2 ms' "$an/ij.csv" && pass ||
	fail "analyze --janky launcher-60hz: the 301.1 ms frame not explained by its 267.2 ms doFrame"
grep -q 'idle:' "$an/ij.csv" && fail "analyze --janky lists a frame as idle" || pass
if [ -d "$SAMPLES" ] && command -v unzip > /dev/null; then
	# list_jank: TestFpsActivity's frame at 1229153.875306 comes 367.9 ms after the one before
	# (the list was still), but its doFrame began at 1229153.842424: 32.9 ms to the display, 2
	# vsyncs like most of its frames: on time, not listed. The list's deliberate jank (doFrames
	# of ~30 ms, 28 ms of them in "input") still is.
	rm -rf "$an/l"
	mkdir -p "$an/l"
	unzip -q -o "$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_list_jank.html.zip" \
		-d "$an/l"
	"$GFXSTAT" analyze -q --janky "$an/l/trace_input_blog_list_jank.html" > "$an/lj.csv"
	grep -q '^1229153.875306,' "$an/lj.csv" && fail "analyze --janky list_jank lists an idle gap" || pass
	n=$(grep -c 'TestFpsActivity.*Choreographer#doFrame.*longest inside: input' "$an/lj.csv")
	[ "$n" -ge 5 ] && pass || fail "analyze --janky list_jank: $n janky input doFrames, want >= 5"
fi

# -- a janky frame after an idle wait is listed at its own length, never the gap --------------
if [ -d "$SAMPLES" ]; then
	# nowinandroid: the main activity's frame at 578092.968652 comes 525.049 ms after the one
	# before (an idle wait, >= 500 ms); FrameTimeline gives its own length (H13: from its
	# expected start, 578092933164230, to its actual end, 578092956461737: 23.298 ms, 2.8
	# vsyncs at 120 Hz; its actual slice alone, from 578092939142197, is 17.320 ms; at first
	# it was the gap, 525.049 ms). Time from the start, the first present 578088468372868:
	# 4.500279 s.
	"$GFXSTAT" analyze -q --janky "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" |
		grep -q '^4.500279,578092.968652,"[^"]*",23.298,2.8,' && pass ||
		fail "analyze --janky nowinandroid: the frame after a 525 ms wait not listed at 23.298 ms"
	# aNavMode: andronavibar's frame at 25799.977709 follows a 139.8 s wait; its own length
	# is FrameCompleted (= GpuCompleted) 25799942636075 - IntendedVsync 25799766328015 =
	# 176.308 ms (H13: hwui's totalDuration, 176.119 ms, leaves out its SyncQueued..SyncStart
	# stall of 0.189 ms; at first it was the wait, 139774.099 ms). No row is a wait: 54 rows
	# were 1 s or more (waits of up to 158.8 s); the longest own length is 842.0 ms
	"$GFXSTAT" analyze -q --janky "$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt" > "$an/nj.csv"
	grep -q '^[0-9.]*,25799.977709,"[^"]*",176.308,' "$an/nj.csv" && pass ||
		fail "analyze --janky aNavMode: andronavibar's frame after a wait not at 176.308 ms"
	n=$(awk -F, 'NR > 1 && $4 + 0 >= 1000 { n++ } END { print n + 0 }' "$an/nj.csv")
	[ "$n" = 0 ] && pass || fail "analyze --janky aNavMode: $n rows of 1 s or more (idle waits)"
fi

# -- app-side frames have no period: 60 Hz assumed, never an estimate faster than 144 Hz -------
# catapult: 14 app-side frames (no VSYNC counters, no period), intervals 7.2-32.1 ms; the
# interval estimate said 139.0 Hz, cadence 2 vsyncs, janky 4. At 60 Hz: cadence 1 vsync; the
# janky are the frames over 1.5 x 16.67 = 25 ms: 26.1 and 32.1 ms (p90, max), 2 of 14
if [ -d "$SAMPLES" ]; then
	"$GFXSTAT" analyze -q --all "$SAMPLES/atrace_text/catapult/decompressed_atrace_data.txt" \
		> "$an/cat.txt"
	grep -q 'frames 14 over 0.21 s at 60.0 Hz: .*janky 2 (14.29%)' "$an/cat.txt" && pass ||
		fail "analyze catapult (app-side): not 60 Hz / janky 2: $(grep -m1 ' frames ' "$an/cat.txt")"
	grep -q 'cadence   60.0 FPS (1 vsync)' "$an/cat.txt" && pass ||
		fail "analyze catapult (app-side): cadence not 60.0 FPS (1 vsync)"
fi

# -- layers past the 65536-layer limit: counted, and a warning -------------------------------
# 65540 windows of 2 framestats rows each: 4 layers (8 frames) left out, one line on stderr
awk 'BEGIN {
	print "Applications Graphics Acceleration Info:"
	h = "Flags,FrameTimelineVsyncId,IntendedVsync,Vsync,InputEventId,HandleInputStart," \
	    "AnimationStart,PerformTraversalsStart,DrawStart,FrameDeadline,FrameInterval," \
	    "FrameStartTime,SyncQueued,SyncStart,IssueDrawCommandsStart,SwapBuffers," \
	    "FrameCompleted,DequeueBufferDuration,QueueBufferDuration,GpuCompleted," \
	    "SwapBuffersCompleted,DisplayPresentTime,CommandSubmissionCompleted,"
	for (i = 0; i < 65540; i++) {
		printf "\n** Graphics info for pid %d [com.ex.p%d] **\n\n", 1000 + i, i
		printf "Window: com.ex.p%d/com.ex.p%d.Main\n\n---PROFILEDATA---\n%s\n", i, i, h
		for (k = 0; k < 2; k++) {
			v = 25622425131009 + k * 16666667
			printf "0,%d,%.0f,%.0f,0,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,16666667,%.0f,%.0f,%.0f,%.0f,%.0f,73000,391692,%.0f,%.0f,%.0f,%.0f,\n",
				k + 1, v, v, v + 1e6, v + 1e6, v + 2e6, v + 3e6, v + 16666667, v, v + 4e6,
				v + 5e6, v + 6e6, v + 7e6, v + 8e6, v + 8e6, v + 9e6, v + 30e6, v + 7e6
		}
		print "---PROFILEDATA---"
	}
}' > "$an/many.txt"
"$GFXSTAT" analyze -q "$an/many.txt" > "$an/many.out" 2> "$an/many.err"
n=$(grep -c '^layer ' "$an/many.out")
grep -q '^gfxstat: warning: 4 layers past the 65536-layer limit left out (8 frames)$' \
	"$an/many.err" && [ "$n" = 65536 ] && pass ||
	fail "analyze, 65540 layers: $n layers shown, stderr: $(head -c 300 "$an/many.err")"

# -- many threads: jank causes look threads up by id ------------------------------------------
# 16000 threads, 8 doFrame B/E pairs each (256000 lines): a linear scan per marker took 20 s;
# the id index takes well under a second. No frames (no SurfaceFlinger): exit 3
if command -v timeout > /dev/null; then
	awk 'BEGIN { print "# tracer: nop"; ts = 1000
		for (r = 0; r < 8; r++) for (t = 0; t < 16000; t++) {
			tid = 20000 + t; pid = 20000 + int(t / 16) * 16
			ts += 0.000001
			printf " app-%d (%d) [001] ...1 %.6f: tracing_mark_write: B|%d|Choreographer#doFrame\n", tid, pid, ts, pid
			ts += 0.000001
			printf " app-%d (%d) [001] ...1 %.6f: tracing_mark_write: E|%d\n", tid, pid, ts, pid
		} }' > "$an/threads.txt"
	timeout 8 "$GFXSTAT" analyze -q "$an/threads.txt" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 3 ] && pass || fail "analyze, 16000 threads: exit $rc (124: over 8 s), want 3"
fi

# a layer with a single frame (the 2012 systrace's StatusBar) has no rate: "FPS n/a", not 0.0
if [ -f "$SAMPLES/systrace_html/catapult/android_systrace.html" ]; then
	"$GFXSTAT" analyze -q "$SAMPLES/systrace_html/catapult/android_systrace.html" |
		grep -A1 '^layer StatusBar' | grep -q 'frames 1 over .*FPS n/a' && pass ||
		fail "analyze: a one-frame layer must say FPS n/a"
else
	skip "analyze: $SAMPLES/systrace_html/catapult absent: one-frame FPS not checked"
fi
# ... and JSON says null where the table says n/a: never a rate of 0 for a layer that drew
# (the legacy profile table has 120 frames and no present time; StatusBar one frame)
if [ -f "$SAMPLES/gfxinfo/NuvioTV/gfxinfo.txt" ]; then
	"$GFXSTAT" analyze -q --format json "$SAMPLES/gfxinfo/NuvioTV/gfxinfo.txt" > "$an/nuvio.json"
	if grep -q '"fps":null,"fps_wall":null' "$an/nuvio.json" &&
		! grep -q '"fps":0\.000' "$an/nuvio.json"; then pass; else
		fail "analyze --format json: FPS of a layer with no present time must be null"
	fi
fi
if [ -f "$SAMPLES/systrace_html/catapult/android_systrace.html" ]; then
	"$GFXSTAT" analyze -q --format json "$SAMPLES/systrace_html/catapult/android_systrace.html" |
		tr '{' '\n' | grep '"layer":"StatusBar"' | grep -q '"frames":1,.*"fps":null' && pass ||
		fail "analyze --format json: a one-frame layer's FPS must be null"
fi

# -- the gfx family's name (android_FPS_frome_GFX's buckets and score) ----------------------------
# `--metrics gfx` prints the family on a "gfx" line whose numbers (app1's layer) are the JSON's
# "seed" object (the key keeps its old name); `seed`, the old family name, is still taken and
# gives the same table; an unknown family is a usage error that lists gfx, not the old name.
ex=$ROOT/examples/launcher-60hz.trace
"$GFXSTAT" analyze -q --metrics gfx "$ex" > "$an/gfx.txt" 2> /dev/null
"$GFXSTAT" analyze -q --format json "$ex" > "$an/gfx.json" 2> /dev/null
want=$(grep -F '{"layer":"com.example.app1/com.example.app1.MainActivity#0"' "$an/gfx.json" |
	head -n 1 |
	sed 's/.*"seed":{"A":\([0-9]*\),"B":\([0-9]*\),"C":\([0-9]*\),"D":\([0-9]*\),"score":\([0-9.]*\)}.*/A \1  B \2  C \3  D \4  score \5/')
got=$(awk '/^layer com.example.app1\/com.example.app1.MainActivity#0 /{a = 1; next}
	/^(app|layer) /{a = 0} a && /^  gfx /{
	sub(/^  gfx +/, ""); print; exit }' "$an/gfx.txt")
[ -n "$want" ] && [ "$want" = "$got" ] && ! grep -q '^  seed ' "$an/gfx.txt" && pass ||
	fail "analyze --metrics gfx: app1's layer's gfx line '$got', want the JSON seed object's '$want'"
"$GFXSTAT" analyze -q --metrics seed "$ex" > "$an/seed.txt" 2> /dev/null
cmp -s "$an/gfx.txt" "$an/seed.txt" && pass ||
	fail "analyze --metrics seed (the old name) must print what --metrics gfx prints"
"$GFXSTAT" analyze -q --metrics bogus "$ex" > /dev/null 2> "$an/fam.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'known: fps, perfdog, android, gfx, apple' "$an/fam.err" &&
	! grep -q 'seed' "$an/fam.err" && pass ||
	fail "analyze --metrics bogus: exit $rc (want 2) and the families listed: $(cat "$an/fam.err")"
