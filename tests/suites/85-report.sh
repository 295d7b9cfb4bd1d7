# SPDX-License-Identifier: MIT
# gfxstat report and export, checked as a person uses them: every report is opened from disk
# in Debian's headless Chromium (report/test/check-report.js, playwright-core driving
# /usr/bin/chromium): no console error, no uncaught exception, no network request, charts
# drawn; every layer and app of `analyze --json` on the same input is in the DOM with the
# same frames, FPS, janky frames, p50/p90/p99/max, score and refresh; a verdict per app by the
# thresholds of docs/report.md and analyze's top cause; the first 900 px show the verdict and
# the timeline, every lane spans the whole recording, no visible time is on the trace clock,
# a click on a janky frame moves the timeline to it, and at 420 px nothing scrolls sideways.
# A folder of android_FPS_frome_GFX's fps.csv shows every row of it. export is well-formed JSON with one slice per frame of each
# layer, as many as `gfxstat frames` lists with a present time.
# Sourced by tests/run.sh.
rep=$TMP/report
mkdir -p "$rep"
CHECK=$ROOT/report/test/check-report.js
have_browser=1
if ! command -v node > /dev/null || [ ! -x /usr/bin/chromium ] ||
	[ ! -d "$ROOT/report/node_modules/playwright-core" ]; then
	skip "report: node, /usr/bin/chromium or playwright-core missing (run scripts/deps.sh)"
	have_browser=0
fi

# report_check NAME INPUT...: report + analyze --json of the same inputs, compared in Chromium
report_check() {
	name=$1
	shift
	if ! "$GFXSTAT" report -q -o "$rep/$name.html" "$@" 2> "$rep/$name.err"; then
		fail "report $name: exit $? ($(head -c 300 "$rep/$name.err"))"
		return
	fi
	grep -q 'src=\|href="http' "$rep/$name.html" &&
		{ fail "report $name: refers to an outside resource"; return; }
	"$GFXSTAT" analyze -q --json "$@" > "$rep/$name.json" 2> /dev/null
	[ "$have_browser" = 1 ] || return
	if node "$CHECK" "$rep/$name.html" "$rep/$name.json" --shot "$rep/$name.png" \
		> "$rep/$name.out" 2>&1; then
		pass
	else
		fail "report $name in Chromium: $(head -c 600 "$rep/$name.out")"
	fi
}

# a simulated trace: two apps, jank, idle gaps (tools/gfxsim)
"$BUILD/gfxsim" --seed 7 --hz 90 --duration 6 --apps 2 --jank 10 > "$rep/sim.trace" 2> /dev/null
report_check sim "$rep/sim.trace"

# the demo's report (make demo), and make screenshot: its first screen at 1400x900, the
# README's picture (docs/report.png)
report_check demo "$ROOT/examples/launcher-60hz.trace"
if [ "$have_browser" = 1 ]; then
	png_size() {
		od -An -tu1 -j16 -N8 "$1" 2> /dev/null | awk '{ printf "%dx%d",
			$1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'
	}
	if (cd "$ROOT" && sh scripts/screenshot.sh "$BUILD" "$rep/shot.png" "$rep/shot.html") \
		> "$rep/shot.out" 2>&1 && [ "$(png_size "$rep/shot.png")" = 1400x900 ] &&
		[ "$(png_size "$ROOT/docs/report.png")" = 1400x900 ]; then
		pass
	else
		fail "screenshot: $(head -c 300 "$rep/shot.out") (shot $(png_size "$rep/shot.png"), docs/report.png $(png_size "$ROOT/docs/report.png"))"
	fi
fi

# export: one slice per presented frame of each layer, janky ones as analyze --janky lists
"$GFXSTAT" export -q -o "$rep/sim.json" "$rep/sim.trace" || fail "export: exit $?"
"$GFXSTAT" frames -q "$rep/sim.trace" > "$rep/sim.frames.csv"
if command -v node > /dev/null; then
	if node -e '
		const fs = require("fs");
		const d = JSON.parse(fs.readFileSync(process.argv[1]));
		const names = {}, slices = {}, bad = [];
		let janky = 0;
		// the frame tracks: the process named "gfxstat frames" (numbered past any Linux pid;
		// the app sections are on their own processes)
		const fp = (d.traceEvents.find((e) => e.ph === "M" && e.name === "process_name" &&
			e.args && e.args.name === "gfxstat frames") || {}).pid;
		if (fp === undefined) bad.push("no \"gfxstat frames\" process");
		for (const e of d.traceEvents) {
			if (e.pid !== fp) continue;
			if (e.ph === "M" && e.name === "thread_name") names[e.tid] = e.args.name;
			if (e.ph === "X") {
				slices[e.tid] = (slices[e.tid] || 0) + 1;
				if (!(e.dur >= 0)) bad.push("negative slice");
				if (e.cat === "frame,janky") janky++;
			}
		}
		// frames with a present, per layer, from `gfxstat frames` (layer is column 2, quoted
		// when it holds a comma: simulated names hold none)
		const want = {};
		fs.readFileSync(process.argv[2], "utf8").split("\n").slice(1).forEach((l) => {
			const f = l.split(",");
			if (f.length > 4 && f[4] !== "") want[f[1]] = (want[f[1]] || 0) + 1;
		});
		for (const [tid, n] of Object.entries(names))
			if ((slices[tid] || 0) !== want[n]) bad.push(n + ": " + slices[tid] + " slices, " + want[n] + " frames");
		if (Object.keys(names).length !== Object.keys(want).length) bad.push("layer count differs");
		const jl = fs.readFileSync(process.argv[3], "utf8").trim().split("\n").length - 1;
		if (janky !== jl) bad.push(janky + " janky slices, analyze --janky lists " + jl);
		if (bad.length) { console.log(bad.join("; ")); process.exit(1); }
	' "$rep/sim.json" "$rep/sim.frames.csv" \
		"$("$GFXSTAT" analyze -q --janky "$rep/sim.trace" > "$rep/sim.janky"; echo "$rep/sim.janky")" \
		> "$rep/export.out" 2>&1; then
		pass
	else
		fail "export: $(cat "$rep/export.out")"
	fi
fi

# a folder of android_FPS_frome_GFX's output: fps.csv + dropFrames.csv from `gfxstat gfx`
mkdir -p "$rep/fps"
"$GFXSTAT" gfx -q -F "$rep/fps" "$rep/sim.trace" > /dev/null 2>&1
if [ -s "$rep/fps/fps.csv" ]; then
	rows=$(($(wc -l < "$rep/fps/fps.csv") - 1))
	if "$GFXSTAT" report -q -o "$rep/seed.html" "$rep/fps" 2> "$rep/seed.err"; then
		if [ "$have_browser" = 1 ]; then
			node "$CHECK" "$rep/seed.html" --seed-rows "$rows" > "$rep/seed.out" 2>&1 &&
				pass || fail "report of a folder of fps.csv: $(cat "$rep/seed.out")"
		fi
	else
		fail "report of a folder of fps.csv: $(cat "$rep/seed.err")"
	fi
else
	fail "gfx -F wrote no fps.csv"
fi

# a run folder holding one session per iteration: one report per session beside it, and an
# index page linking them, opened in Chromium (every link resolves, every report opens)
mkdir -p "$rep/run/iter-01" "$rep/run/iter-02" "$rep/run/notes"
gzip -c "$rep/sim.trace" > "$rep/run/iter-01/trace.txt.gz"
"$BUILD/gfxsim" --seed 8 --hz 60 --duration 3 --apps 1 2> /dev/null | gzip -c > "$rep/run/iter-02/trace.txt.gz"
if "$GFXSTAT" report -q "$rep/run" 2> "$rep/run.err" && [ -s "$rep/run/index.html" ] &&
	[ -s "$rep/run/iter-01/report.html" ] && [ -s "$rep/run/iter-02/report.html" ] &&
	[ ! -e "$rep/run/notes/report.html" ]; then
	if [ "$have_browser" = 1 ]; then
		node "$CHECK" "$rep/run/index.html" --index 2 > "$rep/run.out" 2>&1 &&
			pass || fail "index page of a run folder: $(cat "$rep/run.out")"
		"$GFXSTAT" analyze -q --json "$rep/run/iter-02/trace.txt.gz" > "$rep/run2.json" 2> /dev/null
		node "$CHECK" "$rep/run/iter-02/report.html" "$rep/run2.json" > "$rep/run2.out" 2>&1 &&
			pass || fail "report of session iter-02: $(head -c 600 "$rep/run2.out")"
	fi
	# the index written elsewhere (-o, from the run folder's parent): its links lead from
	# where the index is, not from the working directory; opened from yet another folder
	mkdir -p "$rep/elsewhere/deeper"
	if (cd "$rep" && "$GFXSTAT" report -q run -o "$rep/elsewhere/deeper/runidx.html") 2> "$rep/runo.err"; then
		if [ "$have_browser" = 1 ]; then
			(cd / && node "$CHECK" "$rep/elsewhere/deeper/runidx.html" --index 2) > "$rep/runo.out" 2>&1 &&
				pass || fail "index written with -o elsewhere: $(head -c 600 "$rep/runo.out")"
		fi
	else
		fail "report run -o elsewhere: $(cat "$rep/runo.err")"
	fi
else
	fail "report of a run folder: $(cat "$rep/run.err")"
fi

# refresh-rate mode switches: 60 Hz then 120 Hz in one recording are in the chart data
"$BUILD/gfxsim" --seed 5 --hz 60 --duration 2 --apps 1 --idle 0 > "$rep/m60.trace" 2> /dev/null
"$BUILD/gfxsim" --seed 5 --hz 120 --duration 2 --apps 1 --idle 0 --no-header 2> /dev/null | awk '{
	for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { split($i, a, "."); $i = (a[1] + 10) "." a[2]; break }
	print }' > "$rep/m120.trace"
cat "$rep/m60.trace" "$rep/m120.trace" > "$rep/modes.trace"
report_check modes "$rep/modes.trace"
if grep -Eq '"modes":\[\[0\.000000,59\.[0-9]*\],\[[0-9.]*,1(19|20)\.[0-9]*\]\]' "$rep/modes.html"; then
	pass
else
	fail "modes: the 60 -> 120 Hz switch is not in the report's data ($(grep -o '"modes":[^s]*' "$rep/modes.html"))"
fi

# no input, no frames: usage and input errors, no file
"$GFXSTAT" report > /dev/null 2>&1
[ $? = 2 ] && pass || fail "report with no input: want exit 2"
: > "$rep/empty.txt"
"$GFXSTAT" report -q -o "$rep/empty.html" "$rep/empty.txt" > /dev/null 2>&1
[ $? = 3 ] && [ ! -e "$rep/empty.html" ] && pass || fail "report of an empty file: want exit 3, no file"

# real recordings nobody here made
if [ -d "$SAMPLES" ]; then
	report_check nowinandroid "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace"
	report_check anavmode "$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt"
	report_check jb "$SAMPLES/systrace_html/catapult/android_systrace.html"
	# every other sample with frames (INDEX.md): a gfxinfo dump with no present time at all
	# (NuvioTV: 120 frames, 111 janky, no framestats) has a timeline of ranks, no time axis,
	# its distribution and janky lane from the frames' own durations; framestats; atrace
	# text plain and zlib; Perfetto; SurfaceFlinger --latency; systrace zips
	report_check nuvio "$SAMPLES/gfxinfo/NuvioTV/gfxinfo.txt"
	report_check soundvis "$SAMPLES/gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt"
	report_check atrace "$SAMPLES/atrace_text/catapult/decompressed_atrace_data.txt"
	report_check atracez "$SAMPLES/atrace_text/catapult/compressed_atrace_data.txt"
	report_check api32 "$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace"
	report_check sflat "$SAMPLES/sf_latency/catapult-devil/surface_stats_collector_test_rows.txt"
	report_check sflatw "$SAMPLES/sf_latency/catapult-devil/surface_stats_collector_test_rows_with_warning.txt"
	for z in flutter-wanandroid trace_input_blog_launcher_scroll wangzherongyao; do
		report_check "$z" "$SAMPLES/systrace_html/Gracker-SystraceForBlog/$z.html.zip"
	done
	# the samples with no frame: an input error, no page
	for f in sf_latency/zTT/latency.txt sf_latency/zTT/temp.txt systrace_html/catapult/counter_tracks.html; do
		"$GFXSTAT" report -q -o "$rep/noframes.html" "$SAMPLES/$f" > /dev/null 2>&1
		[ $? = 3 ] && [ ! -e "$rep/noframes.html" ] && pass || fail "report of $f (no frames): want exit 3, no file"
	done
	if command -v unzip > /dev/null; then
		unzip -o -q -d "$rep" "$SAMPLES/systrace_html/Gracker-SystraceForBlog/xiaomi_launcher.zip"
		report_check xiaomi "$rep/xiaomi_launcher.html"
		# thread states: the top cause is analyze's ("main thread sleeping in input handling")
		unzip -o -q -d "$rep" "$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_list_jank.html.zip"
		report_check listjank "$rep/trace_input_blog_list_jank.html"
		# export holds the app's own sections: its Choreographer#doFrame slices per process
		# equal the B markers of the trace text, counted apart with awk
		"$GFXSTAT" unwrap "$rep/xiaomi_launcher.html" 2> /dev/null | awk '{
			i = index($0, "tracing_mark_write: B|"); if (!i) next
			s = substr($0, i + 22); p = index(s, "|")
			if (substr(s, p + 1, 21) == "Choreographer#doFrame") n[substr(s, 1, p - 1)]++
		} END { for (k in n) print k, n[k] }' | sort > "$rep/xiaomi.dofr.want"
		if "$GFXSTAT" export -q -o "$rep/xiaomi.json" "$rep/xiaomi_launcher.html" &&
			node -e '
			const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
			const n = {};
			for (const e of d.traceEvents)
				if (e.ph === "X" && e.cat === "section") {
					if (!(e.dur >= 0) || !(e.ts > 0)) throw new Error("bad section");
					if (e.name.startsWith("Choreographer#doFrame")) n[e.pid] = (n[e.pid] || 0) + 1;
				}
			for (const k of Object.keys(n)) console.log(k + " " + n[k]);
			' "$rep/xiaomi.json" | sort > "$rep/xiaomi.dofr.got" &&
			[ -s "$rep/xiaomi.dofr.want" ] && cmp -s "$rep/xiaomi.dofr.want" "$rep/xiaomi.dofr.got"; then
			pass
		else
			fail "export of xiaomi_launcher: doFrame slices per pid $(tr '\n' ' ' < "$rep/xiaomi.dofr.got"), B markers $(tr '\n' ' ' < "$rep/xiaomi.dofr.want")"
		fi
	fi
else
	skip "report on real samples: $SAMPLES absent"
fi

# the views that sit on the decisions: report --history draws trend's points,
# report --compare shows BASE and NEW side by side with compare's table
if command -v sqlite3 > /dev/null || "$GFXSTAT" history --db "$rep/probe.db" > /dev/null 2>&1; then
	i=0
	for lj in v1:3 v1:3 v1:3 v2:3 v2:3 v2:3 v3:30 v3:30 v3:30; do
		i=$((i + 1))
		"$BUILD/gfxsim" --seed $((40 + i)) --duration 6 --apps 1 --idle 0 --jank "${lj#*:}" \
			> "$rep/h$i.trace" 2> /dev/null
		"$GFXSTAT" analyze -q --save --db "$rep/h.db" --label "${lj%%:*}" "$rep/h$i.trace" \
			> /dev/null 2>&1 || fail "analyze --save run $i: exit $?"
	done
	for m in fps janky_pct p99_ms; do
		"$GFXSTAT" trend --db "$rep/h.db" --app com.example.app1 --metric $m --format json \
			> "$rep/trend-$m.json" 2> "$rep/trend.err" || fail "trend --format json $m: exit $?"
	done
	grep -q '"significant":true' "$rep/trend-janky_pct.json" && pass ||
		fail "trend: jank 3 % -> 30 % is not a significant step ($(cat "$rep/trend-janky_pct.json"))"
	if "$GFXSTAT" report --history --db "$rep/h.db" --app com.example.app1 --metric fps \
		--metric janky_pct --metric p99_ms -o "$rep/trend.html" 2> "$rep/trend.err"; then
		grep -q 'src=\|href="http' "$rep/trend.html" && fail "trend page refers outside"
		[ "$have_browser" = 1 ] && { node "$CHECK" "$rep/trend.html" --trend "$rep/trend-fps.json" \
			"$rep/trend-janky_pct.json" "$rep/trend-p99_ms.json" > "$rep/trend.out" 2>&1 &&
			pass || fail "report --history in Chromium: $(head -c 600 "$rep/trend.out")"; }
	else
		fail "report --history: $(cat "$rep/trend.err")"
	fi
	"$GFXSTAT" report --history --db "$rep/h.db" -o "$rep/x.html" > /dev/null 2>&1
	[ $? = 2 ] && pass || fail "report --history without --app: want exit 2"
else
	skip "report --history: no history store in this build"
fi
# one recording a side (block bootstrap), and run folders of 3 iterations a side (Welch)
"$BUILD/gfxsim" --seed 61 --duration 8 --jank 5 > "$rep/cb.trace" 2> /dev/null
"$BUILD/gfxsim" --seed 62 --duration 8 --jank 25 > "$rep/cn.trace" 2> /dev/null
for k in 1 2 3; do
	mkdir -p "$rep/runb/iter-0$k" "$rep/runn/iter-0$k"
	"$BUILD/gfxsim" --seed $((70 + k)) --duration 5 --jank 5 2> /dev/null | gzip -c > "$rep/runb/iter-0$k/trace.txt.gz"
	"$BUILD/gfxsim" --seed $((80 + k)) --duration 5 --jank 25 2> /dev/null | gzip -c > "$rep/runn/iter-0$k/trace.txt.gz"
done
cmp_view() { # cmp_view NAME BASE NEW [analyze jsons]
	n=$1 b=$2 nw=$3
	"$GFXSTAT" compare -q --format json "$b" "$nw" > "$rep/$n.json" 2> /dev/null
	if ! "$GFXSTAT" report -q --compare -o "$rep/$n.html" "$b" "$nw" 2> "$rep/$n.err"; then
		fail "report --compare $n: exit $? ($(head -c 300 "$rep/$n.err"))"
		return
	fi
	grep -q 'src=\|href="http' "$rep/$n.html" && fail "compare page $n refers outside"
	[ "$have_browser" = 1 ] || return
	shift 3
	node "$CHECK" "$rep/$n.html" --compare "$rep/$n.json" ${1:+--analyze "$@"} > "$rep/$n.out" 2>&1 &&
		pass || fail "report --compare $n in Chromium: $(head -c 600 "$rep/$n.out")"
}
"$GFXSTAT" analyze -q --json "$rep/cb.trace" > "$rep/cb.json" 2> /dev/null
"$GFXSTAT" analyze -q --json "$rep/cn.trace" > "$rep/cn.json" 2> /dev/null
cmp_view cmp1 "$rep/cb.trace" "$rep/cn.trace" "$rep/cb.json" "$rep/cn.json"
cmp_view cmp3 "$rep/runb" "$rep/runn"
grep -q '"method":"welch"' "$rep/cmp3.html" && pass || fail "report --compare of run folders: not Welch"
"$GFXSTAT" report --compare "$rep/cb.trace" -o "$rep/x.html" > /dev/null 2>&1
[ $? = 2 ] && pass || fail "report --compare with one input: want exit 2"

# the decision pages as a reader sees them (report/test/check-views.js): the compare page's
# cards, chips and rows coloured as compare's JSON verdicts, its percentile labels apart;
# the history page's summary (latest against previous) first, equal to the store's means;
# a run folder's index rows equal to analyze --json of each iteration's busiest app, with
# mean +- sd; no sideways scroll at 420 px on any of them
if [ "$have_browser" = 1 ]; then
	VIEWS=$ROOT/report/test/check-views.js
	for n in cmp1 cmp3; do
		[ -s "$rep/$n.html" ] || continue
		node "$VIEWS" "$rep/$n.html" --compare "$rep/$n.json" > "$rep/$n.v.out" 2>&1 &&
			pass || fail "compare page $n as read: $(head -c 600 "$rep/$n.v.out")"
	done
	# --base/--new a side, expanded as compare expands them: the same numbers
	"$GFXSTAT" compare -q --format json --base "$rep/runb/iter-01" --base "$rep/runb/iter-02" \
		--new "$rep/runn" > "$rep/cmpbn.json" 2> /dev/null
	if "$GFXSTAT" report -q --compare -o "$rep/cmpbn.html" --base "$rep/runb/iter-01" \
		--base "$rep/runb/iter-02" --new "$rep/runn" 2> "$rep/cmpbn.err"; then
		node "$VIEWS" "$rep/cmpbn.html" --compare "$rep/cmpbn.json" > "$rep/cmpbn.out" 2>&1 &&
			pass || fail "report --compare --base --new: $(head -c 600 "$rep/cmpbn.out")"
	else
		fail "report --compare --base --new: $(cat "$rep/cmpbn.err")"
	fi
	if [ -s "$rep/trend.html" ]; then
		node "$VIEWS" "$rep/trend.html" --trend "$rep/trend-fps.json" "$rep/trend-janky_pct.json" \
			"$rep/trend-p99_ms.json" > "$rep/trend.v.out" 2>&1 &&
			pass || fail "history page summary: $(head -c 600 "$rep/trend.v.out")"
	fi
	if "$GFXSTAT" report -q "$rep/runb" 2> "$rep/runb.err"; then
		for k in 1 2 3; do
			"$GFXSTAT" analyze -q --json "$rep/runb/iter-0$k/trace.txt.gz" > "$rep/rb$k.json" 2> /dev/null
		done
		node "$VIEWS" "$rep/runb/index.html" --index "$rep/rb1.json" "$rep/rb2.json" \
			"$rep/rb3.json" > "$rep/runb.v.out" 2>&1 &&
			pass || fail "index of a run folder: $(head -c 600 "$rep/runb.v.out")"
	else
		fail "report of run folder runb: $(cat "$rep/runb.err")"
	fi
	# short iterations: 1.75 s (one full second: one step) and 0.8 s (none: a note, not a
	# blank cell)
	mkdir -p "$rep/runs/iter-01" "$rep/runs/iter-02"
	"$BUILD/gfxsim" --seed 91 --duration 1.75 --apps 1 --idle 0 2> /dev/null | gzip -c > "$rep/runs/iter-01/trace.txt.gz"
	"$BUILD/gfxsim" --seed 92 --duration 0.8 --apps 1 --idle 0 2> /dev/null | gzip -c > "$rep/runs/iter-02/trace.txt.gz"
	if "$GFXSTAT" report -q "$rep/runs" 2> "$rep/runs.err"; then
		for k in 1 2; do
			"$GFXSTAT" analyze -q --json "$rep/runs/iter-0$k/trace.txt.gz" > "$rep/rs$k.json" 2> /dev/null
		done
		node "$VIEWS" "$rep/runs/index.html" --index "$rep/rs1.json" "$rep/rs2.json" > "$rep/runs.v.out" 2>&1 &&
			pass || fail "index of short iterations: $(head -c 600 "$rep/runs.v.out")"
	else
		fail "report of run folder runs: $(cat "$rep/runs.err")"
	fi
fi

# -- the timeline's system-context lanes (report/test/check-lanes.js): each lane exists when
# the recording has its series, spans the whole recording, its values reach both ends (within
# one 1 s window: a trace's series are per window); a recording without them has none.
# list_jank: cpu_frequency and sched_switch of CPUs 0-6 in two frequency clusters; api32:
# Perfetto's cpu_frequency, sched, gpu_frequency and power rails (power/energy counters).
LANES=$ROOT/report/test/check-lanes.js
lanes_check() { # lanes_check NAME INPUT CHECK-ARGS...
	n=$1
	in=$2
	shift 2
	if [ ! -f "$in" ]; then
		skip "report lanes $n: $in missing"
		return
	fi
	if ! "$GFXSTAT" report -q -o "$rep/lanes-$n.html" "$in" 2> "$rep/lanes-$n.err"; then
		fail "report lanes $n: $(head -c 300 "$rep/lanes-$n.err")"
		return
	fi
	[ "$have_browser" = 1 ] || return
	node "$LANES" "$rep/lanes-$n.html" "$@" > "$rep/lanes-$n.out" 2>&1 && pass ||
		fail "report lanes $n in Chromium: $(head -c 600 "$rep/lanes-$n.out")"
}
lanes_check listjank "$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_list_jank.html.zip" \
	--lanes cpu_freq,cpu_load --no-shots
lanes_check api32 "$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace" \
	--lanes cpu_freq,cpu_load,gpu,power --no-shots
lanes_check sim "$rep/sim.trace" --no-ctx --no-shots
# the data block of list_jank: the clusters' lanes as the trace's cpu_frequency events give
# them (sysctx's time-weighted means per 1 s window, as `analyze --json` "system" has them)
if [ -s "$rep/lanes-listjank.html" ]; then
	"$GFXSTAT" analyze -q --json "$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_list_jank.html.zip" \
		> "$rep/lanes-listjank.json" 2> /dev/null
	# each cluster's frequency (kHz / 1000 = MHz) and load (permille / 10 = %) equal analyze's
	# window by window, each window a step from its start to its end (2 values each), placed
	# at (start_ns + i * window_ns - t0_ns) / 1e9 s
	if command -v node > /dev/null && node -e '
		const fs = require("fs"), a = JSON.parse(fs.readFileSync(process.argv[1]));
		const h = fs.readFileSync(process.argv[2], "utf8");
		const mk = "id=\"gfxstat-data\">", i = h.indexOf(mk) + mk.length;
		const d = JSON.parse(h.slice(i, h.indexOf("</script>", i)));
		const t0 = BigInt(d.t0_ns), bad = [];
		let seen = 0;
		for (const s of a.system.series) {
			const m = /^cluster\d+\.(freq|load)$/.exec(s.name);
			if (!m) continue;
			const cpus = [];
			for (let c = 0; c < 64; c++) if (Math.floor(s.cpus / 2 ** c) % 2) cpus.push(c);
			const name = cpus.length > 1 ? "cpus " + cpus[0] + "-" + cpus[cpus.length - 1] : "cpu " + cpus[0];
			const lane = m[1] === "freq" ? "cpu_freq" : "cpu_load", scale = m[1] === "freq" ? 1e-3 : 0.1;
			const r = d.ctx.find((c) => c.lane === lane && c.name === name);
			if (!r) { bad.push("no " + lane + " " + name); continue; }
			let k = 0;
			s.values.forEach((v, w) => {
				if (v === null) return;
				const at = Number(BigInt(s.start_ns) + BigInt(w) * BigInt(s.window_ns) - t0) / 1e9;
				if (Math.abs(r.v[k] - v * scale) > 1e-3 * Math.abs(v * scale) + 1e-9 ||
					Math.abs(r.t[k] - at) > 0.0015 || r.v[k + 1] !== r.v[k])
					bad.push(lane + " " + name + " window " + w + ": " + r.t[k] + " " + r.v[k] + ", want " + at + " " + v * scale);
				k += 2;
			});
			if (k !== r.v.length) bad.push(lane + " " + name + ": " + r.v.length + " values, want " + k);
			seen++;
		}
		if (!seen) bad.push("no cluster series in analyze");
		if (bad.length) { console.log(bad.slice(0, 5).join("; ")); process.exit(1); }
	' "$rep/lanes-listjank.json" "$rep/lanes-listjank.html" > "$rep/lanes-listjank.cmp" 2>&1; then
		pass
	else
		fail "report lanes listjank against analyze --json: $(head -c 600 "$rep/lanes-listjank.cmp")"
	fi
fi
