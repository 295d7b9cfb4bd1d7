# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: analyze --fail-if / --junit / --save. The example's two apps run
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
