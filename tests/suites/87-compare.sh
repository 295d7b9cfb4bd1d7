# SPDX-License-Identifier: MIT
# gfxstat compare: verdicts on simulated recordings whose jank rate is known (gfxsim --jank),
# the calibration of the per-iteration and the one-recording intervals, --fail-if gates and
# their exit codes, JUnit XML checked against tests/junit.xsd; each recording analysed on its
# own (run folders of copies, sessions whose clocks overlap, the real sample of the issue),
# gates that judge NEW, every kind of input a side, the JSON's header and schema. Sourced by
# tests/run.sh.
section "compare and gates"
cm=$TMP/compare
mkdir -p "$cm"
verdict() { # verdict JSON APP METRIC -> the verdict
	tr '{' '\n' < "$1" | awk -v app="$2" -v m="$3" '
	/"name":"/ && index($0, "\"name\":\"" app "\"") == 1 { inapp = 1; next }
	/^"name":"com\./ { inapp = 0 }
	inapp && index($0, "\"name\":\"" m "\",") == 1 { sub(/.*"verdict":"/, ""); sub(/".*/, ""); print; exit }'
}
"$GFXSIM" --seed 11 --duration 30 --jank 5 -o "$cm/a.trace" 2> /dev/null
"$GFXSIM" --seed 12 --duration 30 --jank 25 -o "$cm/j.trace" 2> /dev/null

# a recording against itself: every difference is 0 and every interval is centred on it, so
# nothing can be significant
"$GFXSTAT" compare -q --format json "$cm/a.trace" "$cm/a.trace" > "$cm/self.json"
if grep -q '"method":"welch_segments"' "$cm/self.json" &&
	! grep -q '"verdict":"\(better\|worse\)"' "$cm/self.json" &&
	[ "$(grep -o '"diff":[-0-9.e]*' "$cm/self.json" | grep -vc '"diff":0$')" = 0 ]; then pass
else fail "compare of a recording with itself found a change"; fi

# 5 % against 25 % of app frames over budget (gfxsim --jank): janky_pct must come out worse
"$GFXSTAT" compare -q --format json "$cm/a.trace" "$cm/j.trace" > "$cm/j.json"
v=$(verdict "$cm/j.json" com.example.app1 janky_pct)
if [ "$v" = worse ]; then pass; else fail "jank 5% -> 25%: janky_pct verdict '$v', not worse"; fi
"$GFXSTAT" compare -q "$cm/a.trace" "$cm/j.trace" > "$cm/j.txt"
if grep -q "Welch's t over segments of time, one per 5 s" "$cm/j.txt"; then pass
else fail "the table does not say the interval is Welch's t over segments"; fi
"$GFXSTAT" compare -q --method block "$cm/a.trace" "$cm/j.trace" > "$cm/jb.txt"
if grep -q 'block bootstrap, 1 s blocks' "$cm/jb.txt"; then pass
else fail "--method block: the table does not say the interval is a block bootstrap"; fi

# gates: exit 1 naming gate, app and numbers; 0 when they hold; 2 on a bad expression
"$GFXSTAT" compare -q --fail-if 'janky_pct regressed' --fail-if 'fps<1' --junit "$cm/j.xml" \
	"$cm/a.trace" "$cm/j.trace" > /dev/null 2> "$cm/gate.err"
rc=$?
if [ $rc = 1 ] && grep -q "gate 'janky_pct regressed' failed on com.example.app1: janky_pct" \
	"$cm/gate.err" && ! grep -q "gate 'fps<1'" "$cm/gate.err"; then pass
else fail "a regressed gate: exit $rc"; cat "$cm/gate.err"; fi
# 2 gates x 2 apps = 4 test cases; the regression gate fails on both apps (both got the
# higher --jank), fps<1 on none
if grep -q 'tests="4" failures="2"' "$cm/j.xml" && [ "$(grep -c '<testcase ' "$cm/j.xml")" = 4 ]
then pass; else fail "JUnit counts"; cat "$cm/j.xml"; fi
if command -v xmllint > /dev/null 2>&1; then
	if xmllint --noout --schema "$ROOT/tests/junit.xsd" "$cm/j.xml" 2> /dev/null; then pass
	else fail "the JUnit XML does not validate against tests/junit.xsd"; fi
else skip "xmllint not installed (scripts/deps.d/store.sh): JUnit XML not validated"; fi
"$GFXSTAT" compare -q --fail-if 'janky_pct regressed' --fail-if 'p99_ms>100000' \
	"$cm/a.trace" "$cm/a.trace" > /dev/null 2>&1
rc=$?
if [ $rc = 0 ]; then pass; else fail "gates that hold: exit $rc, not 0"; fi
"$GFXSTAT" compare --fail-if 'fsp<55' "$cm/a.trace" "$cm/a.trace" > /dev/null 2> "$cm/bad.err"
rc=$?
if [ $rc = 2 ] && grep -q 'fps, janky_pct, p50_ms' "$cm/bad.err"; then pass
else fail "a bad gate: exit $rc, or the metric names are not listed"; fi
for bad in 'fps' 'fps<' 'fps<5x' 'fps worse_by<3' 'janky_pct regressed now'; do
	if "$GFXSTAT" compare --fail-if "$bad" "$cm/a.trace" "$cm/a.trace" > /dev/null 2>&1
	then fail "'$bad' accepted"; elif [ $? = 2 ]; then pass; else fail "'$bad': not exit 2"; fi
done

# Calibration of the per-iteration interval (Welch, >= 3 recordings a side): N pairs of run
# folders of 4 iterations, every iteration a different gfxsim seed. Same --jank on both sides:
# "no significant change" expected in >= 95 % of pairs per metric; with N = 10 pairs x 2 apps
# = 20 verdicts, at most 3 non-null verdicts (P(>= 4 | p = 0.05) = 1.6 %). --jank 5 against
# 25: janky_pct worse in at least 18 of 20 (docs/compare.md gives the measured rates).
calib() { # calib JANK_BASE JANK_NEW -> one verdict per pair and app, for janky_pct and fps
	k=0
	while [ $k -lt 10 ]; do
		rm -rf "$cm/A" "$cm/B"
		for i in 1 2 3 4; do
			mkdir -p "$cm/A/it$i" "$cm/B/it$i"
			"$GFXSIM" --seed $((300 + 10 * k + i)) --duration 10 --jank "$1" \
				-o "$cm/A/it$i/trace.txt" 2> /dev/null
			"$GFXSIM" --seed $((700 + 10 * k + i)) --duration 10 --jank "$2" \
				-o "$cm/B/it$i/trace.txt" 2> /dev/null
		done
		"$GFXSTAT" compare -q --format json "$cm/A" "$cm/B" > "$cm/c.json"
		for app in com.example.app1 com.example.app2; do
			echo "janky_pct $(verdict "$cm/c.json" $app janky_pct)"
			echo "fps $(verdict "$cm/c.json" $app fps)"
		done
		k=$((k + 1))
	done
}
calib 5 5 > "$cm/null.txt"
for m in janky_pct fps; do
	n=$(grep -c "^$m " "$cm/null.txt")
	ns=$(grep -c "^$m no significant change" "$cm/null.txt")
	if [ "$n" = 20 ] && [ $((n - ns)) -le 3 ]; then pass
	else fail "calibration: $m 'no significant change' in $ns of $n same-distribution pairs"; fi
done
calib 5 25 > "$cm/det.txt"
nw=$(grep -c '^janky_pct worse' "$cm/det.txt")
if [ "$nw" -ge 18 ]; then pass; else fail "calibration: jank 5% -> 25% found in $nw of 20"; fi
if grep -q '"method":"welch"' "$cm/c.json"; then pass; else fail "4 iterations: not Welch"; fi

# Calibration of one recording a side (Welch's t over segments, widened x 1.5): 30 pairs of
# 20 s recordings (4 segments each) from the same setting, a different gfxsim seed each.
# docs/compare.md measured >= 97 % "no significant change" per metric on 200 other pairs;
# asserted: >= 95 %, i.e. at most 3 better/worse of the 60 verdicts (30 pairs x 2 apps) of
# every metric (P(>= 4 | p = 0.03, n = 60) = 3 %).
k=0
while [ $k -lt 30 ]; do
	"$GFXSIM" --seed $((400 + 2 * k)) --duration 20 --jank 5 -o "$cm/a1.trace" 2> /dev/null
	"$GFXSIM" --seed $((401 + 2 * k)) --duration 20 --jank 5 -o "$cm/b1.trace" 2> /dev/null
	"$GFXSTAT" compare -q --format json "$cm/a1.trace" "$cm/b1.trace" > "$cm/c1.json" \
		2> /dev/null
	for app in com.example.app1 com.example.app2; do
		for m in fps janky_pct p50_ms p90_ms p99_ms jank_per_min big_jank_per_min \
			hitch_ms_per_s scroll_fps frozen_frames; do
			echo "$m $(verdict "$cm/c1.json" $app $m)"
		done
	done
	k=$((k + 1))
done > "$cm/null1.txt"
for m in fps janky_pct p50_ms p90_ms p99_ms jank_per_min big_jank_per_min hitch_ms_per_s \
	scroll_fps frozen_frames; do
	nd=$(grep -c "^$m \(better\|worse\)" "$cm/null1.txt")
	ns=$(grep -c "^$m no significant change" "$cm/null1.txt")
	if [ "$nd" -le 3 ] && [ $((nd + ns)) -ge 30 ]; then pass
	else fail "one recording a side: $m better/worse in $nd of $((nd + ns)) same-setting pairs"; fi
done
if grep -q '"method":"welch_segments","level":0.95,"segment_s":5.000' "$cm/c1.json"; then pass
else fail "one recording a side: not Welch's t over 5 s segments"; fi
# ... and a large effect: 10 pairs of 60 s recordings (8 segments), --jank 5 against 25;
# measured 98-100 % found on 100 other pairs (docs/compare.md), 18 of 20 on these seeds;
# asserted: janky_pct worse in >= 16 of 20 (80 %)
k=0
while [ $k -lt 10 ]; do
	"$GFXSIM" --seed $((500 + k)) --duration 60 --jank 5 -o "$cm/a1.trace" 2> /dev/null
	"$GFXSIM" --seed $((600 + k)) --duration 60 --jank 25 -o "$cm/b1.trace" 2> /dev/null
	"$GFXSTAT" compare -q --format json "$cm/a1.trace" "$cm/b1.trace" > "$cm/c1.json" \
		2> /dev/null
	for app in com.example.app1 com.example.app2; do
		echo "janky_pct $(verdict "$cm/c1.json" $app janky_pct)"
	done
	k=$((k + 1))
done > "$cm/det1.txt"
nw=$(grep -c '^janky_pct worse' "$cm/det1.txt")
if [ "$nw" -ge 16 ]; then pass
else fail "one recording a side: jank 5% -> 25% found in $nw of 20"; fi
rm -f "$cm/a1.trace" "$cm/b1.trace"

# a failed iteration is left out and named
rm -rf "$cm/B/it4"; mkdir -p "$cm/B/it9"
cp "$cm/j.trace" "$cm/B/it9/trace.txt"
echo '{"iteration":9,"failed":true}' > "$cm/B/it9/iteration.json"
"$GFXSTAT" compare -q "$cm/A" "$cm/B" > "$cm/f.txt"
if grep -q "left out: .*it9 (the iteration failed)" "$cm/f.txt" &&
	grep -q "3 recordings" "$cm/f.txt"; then pass
else fail "a failed iteration is not left out"; cat "$cm/f.txt"; fi

# ---- each recording alone, gates that judge NEW, every kind of input (issue: decisions that
# cannot be fooled) ----
# num JSON APP METRIC FIELD -> the field (base, new) of one app's metric, as printed
num() {
	tr '{' '\n' < "$1" | awk -v app="$2" -v m="$3" -v f="$4" '
	/"name":"/ && index($0, "\"name\":\"" app "\"") == 1 { inapp = 1; next }
	/^"name":"com\./ { inapp = 0 }
	inapp && index($0, "\"name\":\"" m "\",") == 1 {
		sub(".*\"" f "\":", ""); sub(/[,}].*/, ""); print; exit }'
}
# NEW is the same recording three times (a run folder of copies, as record --repeat writes
# it): each copy is analysed alone, so each has BASE's values, and their mean is that value
# exactly (gfxstat_mean_sd of equal values, unit test equal_values_exact). Merged into one
# timeline, as compare did, the copies' frames interleave: FPS x3 and a p50 of 1 ns.
mkdir -p "$cm/run3/iter-01" "$cm/run3/iter-02" "$cm/run3/iter-03"
for i in 1 2 3; do cp "$cm/a.trace" "$cm/run3/iter-0$i/trace.txt"; done
"$GFXSTAT" compare -q --format json "$cm/a.trace" "$cm/run3" > "$cm/r3.json"
ok=1
for app in com.example.app1 com.example.app2; do
	for m in fps p50_ms janky_pct p99_ms; do
		b=$(num "$cm/r3.json" $app $m base)
		nw=$(num "$cm/r3.json" $app $m new)
		[ -n "$b" ] && [ "$b" = "$nw" ] || { ok=0; echo "  $app $m: base '$b', new '$nw'"; }
	done
done
if [ $ok = 1 ] && ! grep -q '"verdict":"\(better\|worse\)"' "$cm/r3.json"; then pass
else fail "compare FILE RUN-of-3-copies: NEW's values are not BASE's"; fi
# the same frames per recording as analyze counts in that recording
"$GFXSTAT" analyze -q --json "$cm/a.trace" > "$cm/a.json"
"$BUILD/plausible" --frames "$cm/a.json" | cut -f2- | sort > "$cm/fa"
"$BUILD/plausible" --frames "$cm/r3.json" | cut -f2- | sort -u > "$cm/fr"
if [ -s "$cm/fa" ] && cmp -s "$cm/fa" "$cm/fr" &&
	[ "$("$BUILD/plausible" --frames "$cm/r3.json" | grep -c run3/iter-0)" = 6 ]; then pass
else fail "compare's frames per recording are not analyze's"; cat "$cm/fa" "$cm/fr"; fi
# sessions whose clocks overlap (record --all: one session per phone, same span): two
# recordings, never one timeline
mkdir -p "$cm/all/dev1" "$cm/all/dev2"
cp "$cm/a.trace" "$cm/all/dev1/trace.txt"
cp "$cm/a.trace" "$cm/all/dev2/trace.txt"
"$GFXSTAT" compare -q --format json "$cm/a.trace" "$cm/all" > "$cm/all.json"
if grep -q '"new":{"path":"[^"]*all","inputs":\[[^]]*\],"recordings":2' "$cm/all.json" &&
	[ "$(num "$cm/all.json" com.example.app2 fps base)" = \
		"$(num "$cm/all.json" com.example.app2 fps new)" ]; then pass
else fail "compare FILE SESSIONS-that-overlap: not two recordings of BASE's values"; fi
"$BUILD/plausible" --json "$cm/r3.json" "$cm/all.json" > "$cm/pl" && pass ||
	fail "compare's figures are not plausible: $(head -3 "$cm/pl")"

# three equal values a side: Welch's interval is the difference itself, exactly 0, not
# [-3.9e-14, 3.9e-14]; and the document starts with the header every JSON output has
"$GFXSTAT" compare -q --format json "$cm/run3" "$cm/run3" > "$cm/rr.json"
if grep -q '^{"header":{"gfxstat_version":"[^"]*","schema_version":1,"command":"compare"' \
	"$cm/rr.json" && grep -q '"method":"welch"' "$cm/rr.json" &&
	! grep -q '[0-9]e-[0-9]' "$cm/rr.json" &&
	[ "$(grep -o '"ci":\[[^]]*\]' "$cm/rr.json" | sort -u)" = '"ci":[0,0]' ]; then pass
else fail "compare RUN RUN: no header, or noise: $(grep -o '"ci":\[[^]]*\]' "$cm/rr.json" |
	sort -u | head -3)"; fi

# gates judge NEW. R holds only app1, J only another app (com.other.game); at 60 Hz no FPS
# reaches 1000, so 'fps<1000' fails on every app NEW has: on com.other.game. Nothing is in
# common: exit 3, naming both sides' apps; the JUnit file holds the failure.
"$GFXSIM" --seed 31 --duration 10 --apps 1 -o "$cm/R.trace" 2> /dev/null
"$GFXSIM" --seed 32 --duration 10 --apps 1 --jank 40 2> /dev/null |
	sed 's/com\.example\.app1/com.other.game/g' > "$cm/J.trace"
"$GFXSTAT" compare -q --fail-if 'fps<1000' --junit "$cm/g1.xml" "$cm/R.trace" "$cm/J.trace" \
	> /dev/null 2> "$cm/g1.err"
rc=$?
if [ $rc = 3 ] && grep -q 'no app in common; BASE has com.example.app1; NEW has com.other.game' \
	"$cm/g1.err" && grep -q 'classname="gfxstat.com.other.game" name="fps&lt;1000"' \
	"$cm/g1.xml" && grep -q '<failure message="fps ' "$cm/g1.xml" &&
	! grep -q '<skipped' "$cm/g1.xml"; then pass
else fail "no app in common: exit $rc (want 3); $(cat "$cm/g1.err")"; cat "$cm/g1.xml"; fi
# the gated app is missing from NEW: 'fps<0' holds for no value, so only the missing app
# can fail it: exit 1, a JUnit failure that says so
"$GFXSTAT" compare -q --app com.example.app1 --fail-if 'fps<0' --junit "$cm/g2.xml" \
	"$cm/R.trace" "$cm/J.trace" > /dev/null 2> "$cm/g2.err"
rc=$?
want='failure message="com.example.app1 has no frames in NEW (NEW has com.other.game)"'
if [ $rc = 1 ] && grep -qF "$want" "$cm/g2.xml"; then pass
else fail "a gated --app missing from NEW: exit $rc (want 1)"; cat "$cm/g2.err" "$cm/g2.xml"; fi
# --app absent from BASE: no comparison (exit 3), not a warning; a relative gate fails on it
"$GFXSTAT" compare -q --app com.other.game "$cm/R.trace" "$cm/J.trace" > /dev/null \
	2> "$cm/g3.err"
rc=$?
if [ $rc = 3 ] && grep -q 'com.other.game is not on both sides' "$cm/g3.err"; then pass
else fail "--app absent from BASE: exit $rc (want 3)"; cat "$cm/g3.err"; fi
"$GFXSTAT" compare -q --app com.other.game --fail-if 'fps regressed' "$cm/R.trace" \
	"$cm/J.trace" > /dev/null 2> "$cm/g4.err"
rc=$?
want="gate 'fps regressed' failed on com.other.game: com.other.game is not in BASE"
if [ $rc = 1 ] && grep -qF "$want" "$cm/g4.err"; then pass
else fail "a relative gate on an app not in BASE: exit $rc (want 1)"; cat "$cm/g4.err"; fi
# every app of NEW is gated, also one BASE lacks: BASE = R (app1), NEW = app1 and
# com.other.game (gfxsim's app2 renamed; seed 34 draws both); 'fps<1000' fails on both of
# NEW's apps (the old compare judged BASE's apps only: one test case)
"$GFXSIM" --seed 34 --duration 10 --apps 2 2> /dev/null |
	sed 's/com\.example\.app2/com.other.game/g' > "$cm/N2.trace"
"$GFXSTAT" compare -q --fail-if 'fps<1000' --junit "$cm/g5.xml" --format json "$cm/R.trace" \
	"$cm/N2.trace" > "$cm/g5.json" 2> /dev/null
rc=$?
if [ $rc = 1 ] && grep -q 'tests="2" failures="2"' "$cm/g5.xml" &&
	grep -q 'classname="gfxstat.com.other.game"' "$cm/g5.xml" &&
	grep -q '"gates":\[{"gate":"fps<1000","app":"com.example.app1","metric":"fps","value":[0-9]' \
	"$cm/g5.json"; then pass
else fail "a threshold gate on every app of NEW: exit $rc"; cat "$cm/g5.xml"; fi

# a folder of plain recordings a side (as Macrobenchmark keeps its iterations), a .json beside
# them left out; and several files a side with --base/--new
mkdir -p "$cm/mb/base" "$cm/mb/new"
for i in 1 2 3; do
	"$GFXSIM" --seed $((800 + i)) --duration 5 -o "$cm/mb/base/iter$i.trace" 2> /dev/null
	"$GFXSIM" --seed $((810 + i)) --duration 5 -o "$cm/mb/new/iter$i.trace" 2> /dev/null
done
echo '{"benchmarks":[]}' > "$cm/mb/base/benchmarkData.json"
"$GFXSTAT" compare -q "$cm/mb/base" "$cm/mb/new" > "$cm/mb.txt" 2> "$cm/mb.err"
rc=$?
if [ $rc = 0 ] && grep -q 'base .*mb/base: 3 recordings; new .*mb/new: 3 recordings' "$cm/mb.txt" &&
	grep -q "Welch's t over the per-recording values" "$cm/mb.txt"; then pass
else
	fail "compare FOLDER FOLDER of recordings: exit $rc"
	cat "$cm/mb.err"
	head -3 "$cm/mb.txt"
fi
"$GFXSTAT" compare -q --base "$cm/mb/base/iter1.trace" --base "$cm/mb/base/iter2.trace" \
	--new "$cm/mb/new/iter1.trace" --new "$cm/mb/new/iter2.trace" > "$cm/bn.txt" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q ': 2 recordings; new .*: 2 recordings' "$cm/bn.txt"; then pass
else fail "--base F --base F --new F --new F: exit $rc"; head -3 "$cm/bn.txt"; fi
"$GFXSTAT" compare --base "$cm/a.trace" "$cm/a.trace" > /dev/null 2>&1
[ $? = 2 ] && pass || fail "--base without --new: not a usage error"
"$GFXSTAT" compare -q "$cm/mb" "$cm/a.trace" > /dev/null 2> "$cm/e.err"
rc=$?
if [ $rc = 3 ] && grep -q "holds no recording" "$cm/e.err"; then pass
else fail "a folder with no recording: exit $rc"; cat "$cm/e.err"; fi

# the compare JSON validates against the schema (with the analyze of a run folder)
if command -v node > /dev/null 2>&1 && [ -f "$ROOT/tools/schema/node_modules/ajv/package.json" ]
then
	"$GFXSTAT" compare -q --format json --layer app2 "$cm/a.trace" "$cm/j.trace" > "$cm/l.json"
	"$GFXSTAT" compare -q --format json --method block "$cm/a.trace" "$cm/run3" > "$cm/b.json"
	"$GFXSTAT" analyze -q --format json "$cm/run3" > "$cm/ar.json"
	if out=$(node "$ROOT/tools/schema/validate.js" "$ROOT/docs/schema/gfxstat.schema.json" \
		"$cm/r3.json" "$cm/rr.json" "$cm/g5.json" "$cm/l.json" "$cm/b.json" "$cm/ar.json" \
		"$cm/j.json" 2>&1); then pass
	else fail "compare/analyze JSON against the schema: $out"; fi
	# a document without its header does not validate: the check can fail
	sed 's/^{"header":{[^}]*}[^}]*}[^}]*}[^}]*},/{/' "$cm/rr.json" > "$cm/nohdr.json"
	if ! node "$ROOT/tools/schema/validate.js" "$ROOT/docs/schema/gfxstat.schema.json" \
		"$cm/nohdr.json" > /dev/null 2>&1; then pass
	else fail "a compare document without a header validates"; fi
else
	skip "compare JSON: node or Ajv absent (scripts/deps.sh): not validated against the schema"
fi

# the real sample: the issue's case. One Pixel 7 recording at 120 Hz against a run folder of
# three copies of it: nowinandroid's 738 frames in each, FPS 100.81 and p50 8.33 ms on both
# sides (analyze's), never 303 FPS or a p50 of 0; the plausibility checks pass
ps=$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace
if [ -f "$ps" ]; then
	mkdir -p "$cm/pr/iter-01" "$cm/pr/iter-02" "$cm/pr/iter-03"
	for i in 1 2 3; do cp "$ps" "$cm/pr/iter-0$i/trace.pftrace"; done
	"$GFXSTAT" compare -q "$ps" "$cm/pr" > "$cm/pr.txt" 2> /dev/null
	"$GFXSTAT" compare -q --format json "$ps" "$cm/pr" > "$cm/pr.json" 2> /dev/null
	if awk '/^app com.google.samples.apps.nowinandroid.demo/ { f = 1 }
		f && /new: 3 of 3 recordings \(738, 738, 738 frames\); refresh up to 120/ { r = 1 }
		f && $1 == "fps" && $2 == "100.81" && $3 == "100.81" { a = 1 }
		f && $1 == "p50_ms" && $2 == "8.33" && $3 == "8.33" { b = 1 }
		END { exit !(r && a && b) }' "$cm/pr.txt" &&
		! grep -q ' better$\| worse$' "$cm/pr.txt"; then pass
	else fail "compare sample RUN-of-copies: $(grep -A4 nowinandroid "$cm/pr.txt")"; fi
	"$BUILD/plausible" --table "$cm/pr.txt" > "$cm/pl" &&
		"$BUILD/plausible" --json "$cm/pr.json" >> "$cm/pl" && pass ||
		fail "compare of the sample: implausible: $(grep violation "$cm/pl" | head -3)"
else
	skip "compare: $ps absent: the issue's real-sample case not run"
fi

# the JSON header of a compare covers recordings on unrelated clocks: no span joins them
# (a.trace and j.trace were made apart; one span over both would be a duration nobody recorded)
"$GFXSTAT" compare -q --format json "$cm/a.trace" "$cm/j.trace" > "$cm/span.json" 2> /dev/null
if grep -q '"span":null' "$cm/span.json" && ! grep -q '"span":{' "$cm/span.json"; then pass
else fail "compare --format json: the header's span joins two recordings: $(grep -o '"span":[^}]*' "$cm/span.json")"; fi
