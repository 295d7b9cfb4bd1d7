# SPDX-License-Identifier: MIT
# The history store: runs saved by compare --save with two labels appear in history and trend,
# on SQLite (with four writers at once) and on a real PostgreSQL server started here in a
# temporary folder on a loopback port (as the postgres user when run as root), stopped at the
# end. Sourced by tests/run.sh.
section "history store"
st=$TMP/store
mkdir -p "$st"
"$GFXSIM" --seed 21 --duration 10 --jank 5 -o "$st/a.trace" 2> /dev/null
"$GFXSIM" --seed 22 --duration 10 --jank 5 -o "$st/b.trace" 2> /dev/null
store_checks() { # store_checks DB NAME
	"$GFXSTAT" compare -q --save --db "$1" --label v1 "$st/a.trace" "$st/a.trace" > /dev/null &&
	"$GFXSTAT" compare -q --save --db "$1" --label v2 "$st/a.trace" "$st/b.trace" > /dev/null
	rc=$?
	"$GFXSTAT" history --db "$1" > "$st/h.txt" 2>&1
	# 2 runs x 2 apps (app1, app2 of gfxsim's default --apps 2)
	if [ $rc = 0 ] && [ "$(grep -c ' v1 ' "$st/h.txt")" = 2 ] &&
		[ "$(grep -c ' v2 ' "$st/h.txt")" = 2 ]; then pass
	else fail "$2: two labelled runs not in history (exit $rc)"; cat "$st/h.txt"; fi
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
"$GFXSTAT" history --db "$st/h.db" --by week > /dev/null 2>&1
if [ $? = 2 ]; then pass; else fail "history: a bad --by is not a usage error"; fi

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
