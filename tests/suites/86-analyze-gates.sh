# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: analyze --fail-if / --junit / --save, and every input form (a session
# folder, a run folder: each recording on its own, then the mean +- sd). The example's two apps run
# at 47.0 FPS (app2: 375 frames, 374 intervals over 7.95 s, no idle wait) and 53.1 FPS (app1:
# 71 frames, 69 counted intervals over 1.30 s of activity, one idle wait left out), as analyze's table and --json say:
# 'fps<55' fails on both, 'fps<50' on app2 only, 'fps<5' on neither.

c86=$TMP/c86
mkdir -p "$c86"
ex=$ROOT/examples/launcher-60hz.trace

"$GFXSTAT" analyze "$ex" --fail-if 'fps<55' --junit "$c86/j.xml" > /dev/null 2> "$c86/err"
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c "gate 'fps<55' failed" "$c86/err")" -eq 2 ] && pass ||
	fail "analyze --fail-if fps<55: exit $rc, $(cat "$c86/err")"
"$GFXSTAT" analyze "$ex" --fail-if 'fps<50' > /dev/null 2> "$c86/err"
rc=$?
[ $rc -eq 1 ] && grep -q 'failed on com.example.app2' "$c86/err" &&
	! grep -q 'failed on com.example.app1' "$c86/err" && pass ||
	fail "analyze --fail-if fps<50: exit $rc, $(cat "$c86/err")"
"$GFXSTAT" analyze "$ex" --fail-if 'fps<5' --fail-if 'p99_ms>1000' > /dev/null 2>&1
[ $? -eq 0 ] && pass || fail "analyze: passing gates must exit 0"
"$GFXSTAT" analyze "$ex" --fail-if 'fpx<5' > /dev/null 2> "$c86/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'janky_pct' "$c86/err" && pass ||
	fail "analyze: a bad gate must exit 2 and list the metrics (exit $rc)"
"$GFXSTAT" analyze "$ex" --fail-if 'fps regressed' > /dev/null 2>&1
[ $? -eq 2 ] && pass || fail "analyze: a relative gate has no base here: usage error"
# JUnit: one test case per gate and app, both failed
if [ -s "$c86/j.xml" ] && [ "$(grep -c '<testcase ' "$c86/j.xml")" -eq 2 ] &&
	[ "$(grep -c '<failure ' "$c86/j.xml")" -eq 2 ]; then pass; else
	fail "analyze --junit: $(head -c 300 "$c86/j.xml")"
fi
if command -v xmllint > /dev/null 2>&1; then
	xmllint --noout --schema "$ROOT/tests/junit.xsd" "$c86/j.xml" 2> /dev/null && pass ||
		fail "analyze --junit: not valid against tests/junit.xsd"
else
	skip "analyze --junit: xmllint absent (scripts/deps.sh installs libxml2-utils)"
fi
# --save: the run in the history, with its label, one row per app
"$GFXSTAT" analyze "$ex" --save --db "$c86/h.db" --label v1 -q > /dev/null 2>&1
rc=$?
"$GFXSTAT" history --db "$c86/h.db" > "$c86/hist" 2>&1
if [ $rc -eq 0 ] && [ "$(grep -c ' v1 ' "$c86/hist")" -eq 2 ] &&
	grep -q 'com.example.app2' "$c86/hist"; then pass; else
	fail "analyze --save: exit $rc; history: $(head -c 300 "$c86/hist")"
fi

# The gated app missing: --app names a package the example does not have; 'fps<0' holds for
# no value, so only the missing app can fail it: exit 1 and a JUnit failure, not exit 3 with
# no verdict (a CI would read "no file" as nothing decided)
"$GFXSTAT" analyze "$ex" --app com.example.gone --fail-if 'fps<0' --junit "$c86/m.xml" \
	> /dev/null 2> "$c86/err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'classname="gfxstat.com.example.gone"' "$c86/m.xml" &&
	grep -q '<failure message="com.example.gone has no frames in ' "$c86/m.xml" &&
	grep -q "no frame matches --app 'com.example.gone'" "$c86/err"; then pass; else
	fail "analyze --app MISSING --fail-if: exit $rc (want 1): $(cat "$c86/err")"
fi
# ... and without a gate it stays "nothing found" (exit 3)
"$GFXSTAT" analyze "$ex" --app com.example.gone > /dev/null 2>&1
[ $? -eq 3 ] && pass || fail "analyze --app MISSING without a gate: not exit 3"

# Every input form: a session folder is its capture (the same answer as the file); a run folder
# of iterations (two copies of the example) is two recordings, each analysed on its own and
# printed, then the mean +- sd over them: app2's FPS in both is 374 intervals / 7.949918 s =
# 47.0445 (the header's derivation), so a mean of 47.0445 (47.04 in the table) and an sd of 0;
# each recording's table has app2's headline twice (the app, and its one layer): 4 in all
mkdir -p "$c86/sess" "$c86/run/iter-01" "$c86/run/iter-02"
cp "$ex" "$c86/sess/trace.txt"
cp "$ex" "$c86/run/iter-01/trace.txt"
cp "$ex" "$c86/run/iter-02/trace.txt"
"$GFXSTAT" analyze -q "$ex" > "$c86/file.txt" 2>&1
"$GFXSTAT" analyze -q "$c86/sess" > "$c86/sess.txt" 2>&1
cmp -s "$c86/file.txt" "$c86/sess.txt" && pass ||
	fail "analyze SESSION: not the file's answer: $(head -3 "$c86/sess.txt")"
"$GFXSTAT" frames -q "$c86/sess" > "$c86/sess.csv" 2> /dev/null &&
	"$GFXSTAT" frames -q "$ex" | cmp -s - "$c86/sess.csv" && pass ||
	fail "frames SESSION: not the file's frames"
[ "$("$GFXSTAT" inspect -q "$c86/run" 2> /dev/null | grep -c '^/.*iter-0[12]/trace.txt$')" = 2 ] &&
	pass || fail "inspect RUN: each iteration not described"
"$GFXSTAT" frames -q "$c86/run" > /dev/null 2> "$c86/err"
rc=$?
[ $rc -eq 2 ] && grep -q '2 recordings given' "$c86/err" && pass ||
	fail "frames RUN: two recordings must not be one list (exit $rc)"
"$GFXSTAT" analyze -q "$c86/run" > "$c86/run.txt" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q '^recording 1 of 2: .*run/iter-01$' "$c86/run.txt" &&
	grep -q '^recording 2 of 2: .*run/iter-02$' "$c86/run.txt" &&
	[ "$(grep -c 'frames 375 over 7.95 s at 60.0 Hz: FPS 47.0' "$c86/run.txt")" = 4 ] &&
	awk '/^app com.example.app2  \(in 2 of 2 recordings: 375, 375 frames\)/ { f = 1 }
		f && $1 == "fps" { ok = $2 == "47.04" && $3 == "+-" && $4 == "0.00"; exit }
		END { exit !ok }' "$c86/run.txt"; then pass; else
	fail "analyze RUN: each iteration and the mean +- sd (exit $rc)"; head -5 "$c86/run.txt"
fi
"$GFXSTAT" analyze -q --json "$c86/run" > "$c86/run.json" 2>&1
if grep -q '^"recordings":\[' "$c86/run.json" &&
	grep -qF '{"kind":"app","name":"com.example.app2","recordings":2,"frames":[375,375],'\
'"metrics":{"fps":{"n":2,"mean":47.0445,"sd":0,' "$c86/run.json"; then pass; else
	fail "analyze --json RUN: $(grep -o '"summary".\{0,200\}' "$c86/run.json")"
fi
"$BUILD/plausible" --json "$c86/run.json" > "$c86/pl" &&
	"$BUILD/plausible" --table "$c86/run.txt" >> "$c86/pl" && pass ||
	fail "analyze RUN: implausible: $(grep violation "$c86/pl" | head -3)"
# gates on a run folder judge the means: app2 at 47.0445 FPS fails 'fps<50' (the mean of 2)
"$GFXSTAT" analyze -q "$c86/run" --fail-if 'fps<50' > /dev/null 2> "$c86/err"
rc=$?
[ $rc -eq 1 ] && grep -q "failed on com.example.app2: fps 47.045 < 50 (the mean of 2 recordings)" \
	"$c86/err" && pass || fail "analyze RUN --fail-if: exit $rc: $(cat "$c86/err")"
# --csv lists one recording
"$GFXSTAT" analyze -q --csv "$c86/run" > /dev/null 2>&1
[ $? -eq 2 ] && pass || fail "analyze --csv RUN: not a usage error"
# a gated --app that no recording of the run folder has: a failure (exit 1), not exit 3
"$GFXSTAT" analyze -q "$c86/run" --app com.example.gone --fail-if 'fps<0' --junit "$c86/rm.xml" \
	> /dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q 'failure message="com.example.gone has no frames in any recording"' \
	"$c86/rm.xml" && pass || fail "analyze RUN --app MISSING --fail-if: exit $rc (want 1)"
