# SPDX-License-Identifier: MIT
# gfxstat frames on ftrace text: against the simulator's ground truth, and against an
# independent count on the real traces. Sourced by tests/run.sh.

# -- simulated traces: every layer's frames, and when they reached the display -----------
# gfxsim's truth lists, per layer, each buffer SF latched in a refresh that reached the
# display, with the hardware vsync it was shown at (vsync_ns). gfxstat must find the same
# frames: per layer, the same count (+-2 at the trace's edges), and for 99% of the truth
# frames a frame of that layer presented within half a period after its vsync.
frames_vs_truth() { # frames_vs_truth FRAMES.csv TRUTH.csv PERIOD_NS
	awk -F, -v period="$3" '
	FNR == 1 { next }
	FILENAME == ARGV[1] && $1 != "ftrace" { next } # the "(display)" refreshes are not in truth
	FILENAME == ARGV[1] { n[$2]++; p[$2, n[$2]] = $5; next }
	{ t[$2]++; v[$2, t[$2]] = $5 }
	END {
		bad = 0
		for (l in t) {
			d = n[l] - t[l]
			if (d > 2 || d < -2) { printf "layer %s: %d frames, truth %d\n", l, n[l], t[l]; bad = 1 }
			# both lists are in time order: walk them together
			i = 1; hit = 0
			for (j = 1; j <= t[l]; j++) {
				while (i <= n[l] && p[l, i] < v[l, j]) i++
				if (i <= n[l] && p[l, i] - v[l, j] <= period / 2) { hit++; i++ }
			}
			if (hit < 0.99 * t[l]) { printf "layer %s: %d of %d frames at their vsync\n", l, hit, t[l]; bad = 1 }
			total += t[l]
		}
		for (l in n) if (!(l in t)) { printf "layer %s: %d frames, not in truth\n", l, n[l]; bad = 1 }
		if (!total) { print "no truth frames"; bad = 1 }
		exit bad
	}' "$1" "$2"
}
if [ ! -x "$GFXSIM" ]; then
	skip "frames vs simulator truth: $GFXSIM missing"
else
	fr=$TMP/frames-sim
	mkdir -p "$fr"
	i=0
	for hz in 60 90 120 144; do
		for opts in "--apps 1" "--apps 3 --game" "--apps 2 --jank 20 --idle 30 --sched-noise 2" \
			"--apps 2 --tgid none --irq none --legacy-marker --crlf"; do
			i=$((i + 1))
			# shellcheck disable=SC2086
			"$GFXSIM" --seed $((i * 104729)) --hz $hz --duration 8 $opts \
				--truth "$fr/truth.csv" -o "$fr/t.trace" 2> /dev/null
			"$GFXSTAT" frames -q "$fr/t.trace" > "$fr/frames.csv"
			period=$((1000000000 / hz))
			if frames_vs_truth "$fr/frames.csv" "$fr/truth.csv" $period > "$fr/why" 2>&1; then
				pass
			else
				fail "frames vs gfxsim truth: ${hz} Hz, seed $((i * 104729)), $opts"
				head -5 "$fr/why"
			fi
		done
	done
fi

# -- real traces (Android 9-11, 60 and 90 Hz) ---------------------------------------------
# The independent count: SF's main thread is the tid that equals SF's pid (the pid of the
# VSYNC counters). A layer counter raised by +1 on another SF thread (a binder queueBuffer)
# and then lowered by the main thread is a latched buffer; each postFramebuffer presents
# the layers latched since the previous one. Counter values are kept per process from the
# first line, before SF is known: flutter-wanandroid's first buffer is raised to 2 by a
# binder thread before the first VSYNC counter, and lowered by the main thread after it
# (248 postFramebuffer, 248 frames of its SurfaceView). Names are those of the pre-BLAST era,
# where every layer name ends in "#<id>" (8.1+) or is a "pkg/activity" window; SF's own
# counters that are not layers are named in FORMATS.md 2.1-2.3 (VSYNC*, HW_VSYNC*, TX - *),
# the Xiaomi trace adds MIUI's VSP-* and the region sampler's LumaSamplingStep.
# Each postFramebuffer is also one "(display)" frame.
latched_per_layer() {
	awk '
	/tracing_mark_write: C\|[0-9]+\|VSYNC-(sf|app)\|/ && !sf {
		x = $0; sub(/.*tracing_mark_write: C\|/, "", x); sub(/\|.*/, "", x); sf = x }
	index($0, "tracing_mark_write: C|") || (sf && index($0, "tracing_mark_write: B|" sf "|postFramebuffer")) {
		line = $0
		match(line, /-[0-9]+ +(\([ 0-9-]+\) +)?\[/); hdr = substr(line, RSTART + 1, RLENGTH)
		sub(/[^0-9].*/, "", hdr); tid = hdr
		pay = line; sub(/.*tracing_mark_write: /, "", pay)
		if (pay == "B|" sf "|postFramebuffer") {
			disp++
			for (l in pend) { frames[l]++; delete pend[l] }
			next
		}
		n = split(pay, f, "|"); pid = f[2]; name = f[3]; val = f[4] + 0; k = pid SUBSEP name
		if (name ~ /^(VSYNC|HW_VSYNC|VSP-|TX - |LumaSamplingStep)/) next
		if (tid != pid && (k in last ? val == last[k] + 1 : val == 1) && val <= 64) queue[k] = 1
		if (sf && pid == sf && tid == sf && (k in last ? val < last[k] : val == 0) &&
		    (k in queue || name ~ /#[0-9]+$|\//)) pend[name] = 1
		last[k] = val
	}
	END { for (l in frames) printf "%d\t%s\n", frames[l], l; printf "%d\t(display)\n", disp }' "$1" |
		sort -t "$(printf '\t')" -k2
}
# Invariants of every frame gfxstat gives from SF's markers: per layer, presents strictly
# increase; no interval is shorter than 3/4 of the vsync period in force (the display cannot
# show two buffers of a layer closer than one vsync); every frame has its period; none of
# SF's own counters (FORMATS.md 2, SurfaceFlinger.cpp / TransactionHandler.cpp) is a layer.
frame_invariants() { # frame_invariants FRAMES.csv
	awk -F, '
	NR == 1 || ($1 != "ftrace" && $1 != "ftrace_display") { next }
	{ k = $1 SUBSEP $2 }
	(k in last) && $5 + 0 <= last[k] { printf "%s: present %s after %s\n", $2, $5, last[k]; bad = 1 }
	{ last[k] = $5 + 0 }
	$8 == "" { printf "%s: no vsync period at %s\n", $2, $5; bad = 1 }
	$6 != "" && $6 + 0 < 0.75 * $8 { printf "%s: interval %s < 0.75 x %s at %s\n", $2, $6, $8, $5; bad = 1 }
	$1 == "ftrace" && $2 ~ /^(TransactionQueue|TransactionReadiness|(Prev)?(Hwc|Gpu)?FrameMissed|QueuedBuffer - |VSP-|Heap size|VSYNC|HW_VSYNC|iq$|aq:|wq:|oq:|GPU completion)/ {
		printf "%s: not a layer\n", $2; bad = 1 }
	END { exit bad }' "$1"
}
if [ ! -d "$SAMPLES" ] || ! command -v unzip > /dev/null; then
	skip "frames on real traces: $SAMPLES or unzip absent"
else
	fr=$TMP/frames-real
	mkdir -p "$fr"
	for z in "$SAMPLES"/systrace_html/Gracker-SystraceForBlog/*.zip; do
		[ -f "$z" ] || continue
		name=$(basename "$z" .zip)
		name=${name%.html}
		rm -rf "$fr/x"
		mkdir -p "$fr/x"
		unzip -q -o "$z" -d "$fr/x"
		awk '/<script class="trace-data"/ { getline l; if (l ~ /^# tracer/) { on = 1; print l }; next }
		     on && /<\/script>/ { on = 0 } on' "$fr"/x/*.html > "$fr/$name.txt"
		latched_per_layer "$fr/$name.txt" > "$fr/$name.want"
		"$GFXSTAT" frames -q "$fr/$name.txt" > "$fr/$name.csv"
		awk -F, 'NR > 1 && ($1 == "ftrace" || $1 == "ftrace_display") { n[$2]++ }
			END { for (l in n) printf "%d\t%s\n", n[l], l }' "$fr/$name.csv" |
			sort -t "$(printf '\t')" -k2 > "$fr/$name.got"
		if [ -s "$fr/$name.want" ] && cmp -s "$fr/$name.want" "$fr/$name.got"; then
			pass
			echo "ok: $name: $(tr '\t\n' ' ;' < "$fr/$name.got")"
		else
			fail "frames per layer on $name"
			diff "$fr/$name.want" "$fr/$name.got" | head -6
		fi
		if frame_invariants "$fr/$name.csv" > "$fr/why" 2>&1; then pass; else
			fail "frame invariants on $name"
			head -5 "$fr/why"
		fi
	done
	for h in "$SAMPLES"/systrace_html/catapult/*.html; do
		[ -f "$h" ] || continue
		"$GFXSTAT" frames -q "$h" > "$fr/c.csv" 2> /dev/null
		if frame_invariants "$fr/c.csv" > "$fr/why" 2>&1; then pass; else
			fail "frame invariants on $(basename "$h")"
			head -5 "$fr/why"
		fi
	done
fi

# -- inspect names the era and the refresh rate ---------------------------------------------
if "$GFXSTAT" inspect "$ROOT/examples/launcher-60hz.trace" > "$TMP/inspect.out" &&
	grep -q 'android: Android 7-9' "$TMP/inspect.out" &&
	grep -q 'refresh rate: 60.0 Hz' "$TMP/inspect.out" &&
	grep -q 'com.example.app2/com.example.app2.MainActivity#0' "$TMP/inspect.out"; then
	pass
else
	fail "gfxstat inspect on the bundled example"
	cat "$TMP/inspect.out"
fi

# -- every janky frame gets a cause ---------------------------------------------------------
# gfxsim writes Choreographer#doFrame / DrawFrame for its apps, so every janky app frame must
# be explained by the app's own sections, SurfaceFlinger/GPU or idleness, never "unknown";
# and its long frames (stalls of 100 ms and more) must be blamed on the main thread.
if [ -x "$GFXSIM" ]; then
	jf=$TMP/janky
	mkdir -p "$jf"
	"$GFXSIM" --seed 77 --hz 60 --duration 10 --apps 2 --jank 15 --idle 10 -o "$jf/t.trace" \
		2> /dev/null
	"$GFXSTAT" analyze --janky "$jf/t.trace" > "$jf/janky.csv"
	total=$(grep -c 'com.example' "$jf/janky.csv")
	unknown=$(grep 'com.example' "$jf/janky.csv" | grep -c '"unknown')
	if [ "$total" -gt 5 ] && [ "$unknown" -eq 0 ]; then pass; else
		fail "analyze --janky: $unknown of $total janky app frames without a cause"
		head -5 "$jf/janky.csv"
	fi
fi

# -- one command for every source: frames and inspect route each input to its parser ---------
if [ -d "$SAMPLES" ]; then
	rt=$TMP/route
	mkdir -p "$rt"
	# Perfetto: per layer, the actual surface frames that completed (perfetto-dump counts
	# them too, see 50-perfetto.sh: 739 on MainActivity of which one never got its FrameEnd)
	"$GFXSTAT" frames -q "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" \
		> "$rt/pf.csv"
	# FrameTimeline names it "TX - <layer>" (Layer.h mTransactionName); the model's one name
	# for the surface drops the prefix
	n_main=$(grep -c '^frametimeline,com.google.samples.apps.nowinandroid.demo/com.google.samples.apps.nowinandroid.MainActivity#50010,' "$rt/pf.csv")
	n_disp=$(grep -c '^frametimeline_display,(display),' "$rt/pf.csv")
	if [ "$n_main" = 738 ] && [ "$n_disp" = 801 ]; then pass; else
		fail "frames on the Perfetto sample: MainActivity $n_main (want 738), display $n_disp (want 801)"
	fi
	# 2012 systrace (JS-string HTML): 181 postFramebuffer (INDEX.md), the launcher latched in
	# 180 of them; the status bar once
	"$GFXSTAT" inspect "$SAMPLES/systrace_html/catapult/android_systrace.html" > "$rt/jb.txt" 2>&1
	if grep -q 'Android 4.x' "$rt/jb.txt" &&
		grep -q '180 frames .*com.android.launcher/com.android.launcher2.Launcher' "$rt/jb.txt"; then
		pass
	else
		fail "inspect on the 2012 systrace HTML"
		cat "$rt/jb.txt"
	fi
	# dumpsys gfxinfo: rows per window, as 40-gfxinfo.sh states them (Taskbar: 120 rows);
	# of the 1091 rows, the 16 that hwui's JankTracker does not count (FrameCompleted 0, or
	# an older frame still in the slot) time nothing and are no frames: 1075, as gfxinfo's
	# own per-window totals add up
	"$GFXSTAT" frames -q "$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt" > "$rt/gi.csv"
	n=$(grep -c '^gfxinfo,Taskbar,' "$rt/gi.csv")
	rows=$(($(wc -l < "$rt/gi.csv") - 1))
	if [ "$n" = 120 ] && [ "$rows" = 1075 ]; then pass; else
		fail "frames on the gfxinfo sample: Taskbar $n (want 120), all $rows (want 1075)"
	fi
	# --latency: the 3 catapult rows, 16954612 ns apart
	"$GFXSTAT" frames -q "$SAMPLES/sf_latency/catapult-devil/surface_stats_collector_test_rows.txt" \
		> "$rt/lat.csv"
	if [ "$(awk -F, 'NR > 1 && $6 != "" { print $6 }' "$rt/lat.csv" | sort -u)" = 16954612 ] &&
		[ "$(wc -l < "$rt/lat.csv")" = 4 ]; then pass; else
		fail "frames on the --latency sample"
		cat "$rt/lat.csv"
	fi
	# atrace -z: app-only, no SurfaceFlinger: read, said so, and the app's own 14 frames
	# (15 doFrame, 14 DrawFrame: see tests/unit/test_app_frames.c) labelled app-side
	"$GFXSTAT" inspect "$SAMPLES/atrace_text/catapult/compressed_atrace_data.txt" > "$rt/z.txt" 2>&1
	if grep -q 'atrace-z > zlib > ftrace-text' "$rt/z.txt" &&
		grep -q 'surfaceflinger: no VSYNC counters' "$rt/z.txt" &&
		grep -q '^ *14 frames .*(app-side)$' "$rt/z.txt"; then pass; else
		fail "inspect on atrace -z output"
		cat "$rt/z.txt"
	fi
fi
