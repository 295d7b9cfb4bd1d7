# SPDX-License-Identifier: MIT
# gfxstat report and export, checked as a person uses them: every report is opened from disk
# in Debian's headless Chromium (report/test/check-report.js, playwright-core driving
# /usr/bin/chromium): no console error, no uncaught exception, no network request, charts
# drawn; every layer and app of `analyze --json` on the same input is in the DOM with the
# same frames, FPS, janky frames, p50/p90/p99/max, score and refresh. A seed fps/ folder shows
# every row of its fps.csv. export is well-formed JSON with one slice per frame of each
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

# export: one slice per presented frame of each layer, janky ones as analyze --janky lists
"$GFXSTAT" export -q -o "$rep/sim.json" "$rep/sim.trace" || fail "export: exit $?"
"$GFXSTAT" frames -q "$rep/sim.trace" > "$rep/sim.frames.csv"
if command -v node > /dev/null; then
	if node -e '
		const fs = require("fs");
		const d = JSON.parse(fs.readFileSync(process.argv[1]));
		const names = {}, slices = {}, bad = [];
		let janky = 0;
		for (const e of d.traceEvents) {
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

# a seed output folder: fps.csv + dropFrames.csv from `gfxstat gfx`
mkdir -p "$rep/fps"
"$GFXSTAT" gfx -q -F "$rep/fps" "$rep/sim.trace" > /dev/null 2>&1
if [ -s "$rep/fps/fps.csv" ]; then
	rows=$(($(wc -l < "$rep/fps/fps.csv") - 1))
	if "$GFXSTAT" report -q -o "$rep/seed.html" "$rep/fps" 2> "$rep/seed.err"; then
		if [ "$have_browser" = 1 ]; then
			node "$CHECK" "$rep/seed.html" --seed-rows "$rows" > "$rep/seed.out" 2>&1 &&
				pass || fail "seed folder report: $(cat "$rep/seed.out")"
		fi
	else
		fail "report of a seed folder: $(cat "$rep/seed.err")"
	fi
else
	fail "gfx -F wrote no fps.csv"
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
	if command -v unzip > /dev/null; then
		unzip -o -q -d "$rep" "$SAMPLES/systrace_html/Gracker-SystraceForBlog/xiaomi_launcher.zip"
		report_check xiaomi "$rep/xiaomi_launcher.html"
	fi
else
	skip "report on real samples: $SAMPLES absent"
fi
