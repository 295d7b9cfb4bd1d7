# SPDX-License-Identifier: MIT
# The history store: runs saved by compare --save with two labels appear in history and trend,
# and trend --fail-if judges the latest group's step,
# on SQLite (with four writers at once) and on a real PostgreSQL server started here in a
# temporary folder on a loopback port (as the postgres user when run as root), stopped at the
# end. Sourced by tests/run.sh.
section "history store"
st=$TMP/store
mkdir -p "$st"
"$GFXSIM" --seed 21 --duration 10 --jank 5 -o "$st/a.trace" 2> /dev/null
"$GFXSIM" --seed 22 --duration 10 --jank 5 -o "$st/b.trace" 2> /dev/null
# two run folders of 3 iterations: --jank 5 and --jank 25 (5 % and 25 % of app frames over
# budget), for trend --fail-if
for i in 1 2 3; do
	mkdir -p "$st/r5/it$i" "$st/r25/it$i"
	"$GFXSIM" --seed $((60 + i)) --duration 10 --jank 5 -o "$st/r5/it$i/trace.txt" 2> /dev/null
	"$GFXSIM" --seed $((70 + i)) --duration 10 --jank 25 -o "$st/r25/it$i/trace.txt" \
		2> /dev/null
done
store_checks() { # store_checks DB NAME
	"$GFXSTAT" compare -q --save --db "$1" --label v1 "$st/a.trace" "$st/a.trace" > /dev/null &&
	"$GFXSTAT" compare -q --save --db "$1" --label v2 "$st/a.trace" "$st/b.trace" > /dev/null
	rc=$?
	"$GFXSTAT" history --db "$1" > "$st/h.txt" 2>&1
	# 2 runs x 2 apps (app1, app2 of gfxsim's default --apps 2)
	if [ $rc = 0 ] && [ "$(grep -c ' v1 ' "$st/h.txt")" = 2 ] &&
		[ "$(grep -c ' v2 ' "$st/h.txt")" = 2 ]; then pass
	else fail "$2: two labelled runs not in history (exit $rc)"; cat "$st/h.txt"; fi
	# the columns line up: each row's app starts under the header's "app" (a source such as
	# ftrace-text fits its column), and the header names FPS and janky % in words
	if awk 'NR == 1 { a = index($0, " app ") + 1; ok = /FPS +janky %/; next }
		index($0, " com.example.") + 1 != a { ok = 0 } END { exit !ok }' "$st/h.txt"; then pass
	else fail "$2: history columns do not line up"; cat "$st/h.txt"; fi
	"$GFXSTAT" history --db "$1" --label v2 --app com.example.app1 > "$st/h2.txt" 2>&1
	if [ "$(grep -c com.example. "$st/h2.txt")" = 1 ]; then pass
	else fail "$2: history --label --app"; cat "$st/h2.txt"; fi
	"$GFXSTAT" trend --db "$1" --app com.example.app1 --metric janky_pct > "$st/t.txt" 2>&1
	# the v1 point is a.trace's value; analyze gives the same janky count over frames
	want=$("$GFXSTAT" compare -q --format json "$st/a.trace" "$st/a.trace" |
		tr '{' '\n' | awk '/"name":"com.example.app1"/ { f = 1 } f && /"name":"janky_pct"/ {
			sub(/.*"new":/, ""); sub(/,.*/, ""); printf "%.3f", $0; exit }')
	if grep -q "^v1  *1  *$want " "$st/t.txt" && grep -q "^v2  *1 " "$st/t.txt"; then pass
	else fail "$2: trend over labels (want v1 = $want)"; cat "$st/t.txt"; fi
	# v1 and v2 hold one run each: no interval, so no step can be judged: skipped, exit 0
	"$GFXSTAT" trend --db "$1" --app com.example.app1 --fail-if 'janky_pct stepped_up' \
		> "$st/t0.txt" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q "skipped: janky_pct: too few runs for an interval (v1: 1, v2: 1" \
		"$st/t0.txt"; then pass
	else fail "$2: trend --fail-if with one run a group: exit $rc"; cat "$st/t0.txt"; fi
	# s1: the 3 iterations of r5, s2: those of r25 (compare --save stores each recording of
	# NEW). app2's janky_pct steps from about 5 % to about 25 %: with 3 runs a group,
	# Welch's interval of the step lies well above 0, so 'stepped_up' fails (exit 1) with the
	# step the trend table shows, and 'stepped_down' passes
	"$GFXSTAT" compare -q --save --db "$1" --label s1 "$st/r5" "$st/r5" > /dev/null
	"$GFXSTAT" compare -q --save --db "$1" --label s2 "$st/r5" "$st/r25" > /dev/null
	"$GFXSTAT" trend --db "$1" --app com.example.app2 --metric janky_pct > "$st/ts.txt" 2>&1
	step=$(awk '$1 == "s2" { print $7 }' "$st/ts.txt")
	"$GFXSTAT" trend --db "$1" --app com.example.app2 --fail-if 'janky_pct stepped_up' \
		--fail-if 'janky_pct stepped_down' --junit "$st/tg.xml" > "$st/tg.txt" 2> "$st/tg.err"
	rc=$?
	if [ $rc = 1 ] && [ -n "$step" ] &&
		grep -q "on com.example.app2: failed: janky_pct stepped up by $step (95% CI +[0-9.]*\.\.+[0-9.]*) from s1 (3 runs, mean [0-9.]*) to s2 (3 runs" "$st/tg.txt" &&
		grep -q "gate 'janky_pct stepped_down' on com.example.app2: passed" "$st/tg.txt" &&
		grep -q "gate 'janky_pct stepped_up' failed on com.example.app2" "$st/tg.err" &&
		grep -q 'tests="2" failures="1"' "$st/tg.xml" &&
		grep -q "<failure message=\"janky_pct stepped up by $step" "$st/tg.xml"; then pass
	else fail "$2: trend --fail-if stepped_up: exit $rc, step '$step'"; cat "$st/tg.txt"; fi
	if command -v xmllint > /dev/null 2>&1; then
		xmllint --noout --schema "$ROOT/tests/junit.xsd" "$st/tg.xml" 2> /dev/null && pass ||
			fail "$2: trend --junit: not valid against tests/junit.xsd"
	fi
	# every app when --app is not given; an app with no run fails, it is not a pass
	"$GFXSTAT" trend --db "$1" --fail-if 'janky_pct stepped_worse' > "$st/ta.txt" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "on com.example.app1: " "$st/ta.txt" &&
		grep -q "on com.example.app2: failed: janky_pct stepped up" "$st/ta.txt"; then pass
	else fail "$2: trend --fail-if on every app: exit $rc"; cat "$st/ta.txt"; fi
	"$GFXSTAT" trend --db "$1" --app com.example.gone --fail-if 'fps stepped_down' \
		> "$st/tn.txt" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "failed: no run of com.example.gone with fps in the store" \
		"$st/tn.txt"; then pass
	else fail "$2: trend --fail-if on an app with no run: exit $rc"; cat "$st/tn.txt"; fi
}
store_checks "$st/h.db" sqlite
# a WAL database says so in its header: file format write and read versions (bytes 18, 19) 2
if [ "$(od -An -tu1 -j18 -N2 "$st/h.db" | tr -s ' ')" = " 2 2" ]; then pass
else fail "sqlite: not in WAL mode"; fi
# four writers at once: every run lands (busy timeout and BEGIN IMMEDIATE)
for i in 1 2 3 4; do
	"$GFXSTAT" compare -q --save --db "$st/c.db" --label "w$i" "$st/a.trace" "$st/b.trace" \
		> /dev/null 2> "$st/w$i.err" &
done
wait
n=$("$GFXSTAT" history --db "$st/c.db" --app com.example.app1 | grep -c ' w[1-4] ')
if [ "$n" = 4 ]; then pass; else fail "sqlite: 4 concurrent writers saved $n runs"; cat "$st"/w*.err; fi
# the default store is under XDG_DATA_HOME
XDG_DATA_HOME=$st/xdg "$GFXSTAT" compare -q --save "$st/a.trace" "$st/a.trace" > /dev/null
if [ -f "$st/xdg/gfxstat/history.db" ]; then pass; else fail "no store under XDG_DATA_HOME"; fi
"$GFXSTAT" trend --db "$st/h.db" --app com.example.app1 --metric fps --by week > /dev/null 2>&1
if [ $? = 2 ]; then pass; else fail "trend: a bad --by is not a usage error"; fi
# history lists runs: trend's options are not its own, and its --help says the exit
# status once (the common block), with no "trend:" option in its list
"$GFXSTAT" history --db "$st/h.db" --metric fps > /dev/null 2>&1
if [ $? = 2 ]; then pass; else fail "history --metric: want a usage error (a trend option)"; fi
"$GFXSTAT" history --help > "$st/hh.txt" 2>&1
if [ "$(grep -ci 'exit status' "$st/hh.txt")" = 1 ] && ! grep -q 'trend:' "$st/hh.txt"; then pass
else fail "history --help: exit status $(grep -ci 'exit status' "$st/hh.txt") times, or trend's options listed"; fi

# PostgreSQL: a real server, trust auth on 127.0.0.1 only, in its own folder (tests/pg.sh)
. "$ROOT/tests/pg.sh"
if ! pg_start 0; then
	case $PG_WHY in
	"PostgreSQL server not installed"*) skip "$PG_WHY: store on PostgreSQL untested" ;;
	*) fail "$PG_WHY" ;;
	esac
else
	store_checks "$PG_URL" postgresql
	for i in 1 2 3; do
		"$GFXSTAT" compare -q --save --db "$PG_URL" --label "p$i" "$st/a.trace" \
			"$st/b.trace" > /dev/null 2>&1 &
	done
	wait
	n=$("$GFXSTAT" history --db "$PG_URL" --app com.example.app1 | grep -c ' p[1-3] ')
	if [ "$n" = 3 ]; then pass; else fail "postgresql: 3 concurrent writers saved $n"; fi
	# a password in the URL (trust auth takes any) stays out of the trend page it names
	pw_url=$(echo "$PG_URL" | sed 's#://gfxstat@#://gfxstat:S3cr3tP@#')
	"$GFXSTAT" report --history --app com.example.app1 --db "$pw_url" -o "$st/pw.html" \
		> /dev/null 2>&1
	if grep -q 'gfxstat:\*\*\*@' "$st/pw.html" && ! grep -q S3cr3tP "$st/pw.html"; then pass
	else fail "postgresql: the --db password is in the trend page"; fi
	pg_stop
fi
# a URL to no server: exit 5 with the reason, not a crash
"$GFXSTAT" history --db "postgresql://gfxstat@127.0.0.1:1/none?connect_timeout=2" \
	> /dev/null 2> "$st/nopg.err"
if [ $? = 5 ] && grep -q 'cannot connect to postgresql://gfxstat@127.0.0.1:1/none' "$st/nopg.err"
then pass; else fail "an unreachable PostgreSQL: not exit 5"; cat "$st/nopg.err"; fi
# trend --format json: the same points as the table (v1 and v2 of h.db, janky_pct of app1)
"$GFXSTAT" trend --db "$st/h.db" --app com.example.app1 --metric janky_pct --format json \
	> "$st/t.json" 2>&1
if grep -q '"command":"trend"' "$st/t.json" && grep -q '"key":"v1","runs":' "$st/t.json" &&
	[ "$(grep -o '"key":"v1","runs":[0-9]*,"mean":[0-9.e+-]*' "$st/t.json" |
		sed 's/.*"mean"://' | awk '{ printf "%.3f", $1 }')" = \
	"$(awk '$1 == "v1" { print $3 }' "$st/t.txt")" ]; then pass
else fail "trend --format json: v1 not the table's mean"; cat "$st/t.json"; fi

# libpq is loaded only when a postgresql:// store is opened: the binary does not link it, and
# without it a PostgreSQL store says what to install (exit 5) instead of failing to start
if command -v ldd > /dev/null 2>&1; then
	if ldd "$GFXSTAT" | grep -q 'libpq'; then
		fail "gfxstat links libpq at start: $(ldd "$GFXSTAT" | grep libpq)"
	else
		pass
	fi
fi
GFXSTAT_LIBPQ=/nonexistent/libpq.so.5 "$GFXSTAT" history \
	--db 'postgresql://u:hunter22@127.0.0.1:1/x' > "$TMP/nopq.out" 2>&1
rc=$?
if [ $rc -eq 5 ] && grep -q 'PostgreSQL client library is not installed' "$TMP/nopq.out" &&
	grep -q 'apt-get install libpq5' "$TMP/nopq.out" && ! grep -q hunter22 "$TMP/nopq.out"; then
	pass
else
	fail "history --db postgresql:// without libpq: exit $rc: $(cat "$TMP/nopq.out")"
fi
