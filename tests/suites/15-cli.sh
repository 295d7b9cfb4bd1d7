# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: one command line for every command. Options may follow the inputs
# (GNU order) or come before the command, "--" ends the options, and the result is the same as
# with the options first.

c15=$TMP/c15
mkdir -p "$c15"
ex=$ROOT/examples/launcher-60hz.trace

# c15_same NAME ARGS-FIRST -- ARGS-AFTER: both spellings print the same bytes, exit 0
c15_same() {
	name=$1
	shift
	a=""
	while [ "$1" != "--" ]; do a="$a $1"; shift; done
	shift
	# shellcheck disable=SC2086
	"$GFXSTAT" $a > "$c15/a" 2> "$c15/a.err"
	ra=$?
	# shellcheck disable=SC2086
	"$GFXSTAT" "$@" > "$c15/b" 2> "$c15/b.err"
	rb=$?
	if [ $ra -eq 0 ] && [ $rb -eq 0 ] && cmp -s "$c15/a" "$c15/b" && [ -s "$c15/a" ]; then
		pass
	else
		fail "cli: $name: options after the input differ (exit $ra/$rb): $(head -c 200 "$c15/b.err")"
	fi
}

c15_same "analyze --json" analyze --json "$ex" -- analyze "$ex" --json
c15_same "frames --layer" frames --layer StatusBar "$ex" -- frames "$ex" --layer StatusBar
c15_same "frames --format jsonl" frames --format jsonl "$ex" -- frames "$ex" --format jsonl
c15_same "inspect -q" inspect "$ex" -- inspect "$ex"
# ... and before the command: its first arguments
c15_same "-q --json analyze" -q --json analyze "$ex" -- analyze -q --json "$ex"
c15_same "--layer X frames" --layer StatusBar frames "$ex" -- frames --layer StatusBar "$ex"
# -o - is standard output (as an INPUT of - is standard input), never a file named '-'
mkdir -p "$c15/dash"
(cd "$c15/dash" && "$GFXSTAT" frames -q -o - "$ex" > "$c15/dash.csv" &&
	"$GFXSTAT" report -q -o - "$ex" > "$c15/dash.html")
"$GFXSTAT" frames -q "$ex" > "$c15/plain.csv"
[ ! -e "$c15/dash/-" ] && cmp -s "$c15/dash.csv" "$c15/plain.csv" &&
	grep -q '<!DOCTYPE html>' "$c15/dash.html" && pass ||
	fail "cli: -o - did not write to standard output (or left a file named '-')"
# a command's help three ways
"$GFXSTAT" analyze --help > "$c15/h1" 2>&1
"$GFXSTAT" --help analyze > "$c15/h2" 2>&1
"$GFXSTAT" help analyze > "$c15/h3" 2>&1
grep -q "analyze" "$c15/h1" && cmp -s "$c15/h1" "$c15/h2" && cmp -s "$c15/h1" "$c15/h3" && pass ||
	fail "cli: 'gfxstat --help analyze' and 'gfxstat help analyze' are not analyze's help"
"$GFXSTAT" -q > /dev/null 2> "$c15/nocmd"
[ $? -eq 2 ] && grep -q "comes before any command" "$c15/nocmd" && pass ||
	fail "cli: an option with no command after it is not a usage error that says so"

# "--" ends the options: a file named like an option is an input
cp "$ex" "$c15/--json"
"$GFXSTAT" frames -- "$c15/--json" > "$c15/dd" 2> /dev/null && [ -s "$c15/dd" ] && pass ||
	fail "cli: 'frames -- FILE' does not read a file named like an option"
"$GFXSTAT" analyze "$ex" --no-such-option > /dev/null 2>&1
[ $? -eq 2 ] && pass || fail "cli: an unknown option after the input is not a usage error"

# -q: "no warnings about skipped input lines". The catapult android_systrace has one event whose
# timestamp goes back (counted, said without -q); with -q every reading command is silent.
sys=$SAMPLES/systrace_html/catapult/android_systrace.html
if [ -f "$sys" ]; then
	"$GFXSTAT" analyze --json "$sys" > /dev/null 2> "$c15/w.err"
	grep -q "goes back in time" "$c15/w.err" && pass ||
		fail "cli: analyze does not warn about the event going back in time"
	for cmd in "analyze --json" "analyze --janky" "frames" "export -o $c15/q.json" \
		"report -o $c15/q.html" "gfx -F $c15/q.fps"; do
		# shellcheck disable=SC2086
		"$GFXSTAT" $cmd -q "$sys" > /dev/null 2> "$c15/q.err"
		[ ! -s "$c15/q.err" ] && pass ||
			fail "cli: '$cmd -q' still warns: $(head -c 200 "$c15/q.err")"
	done
else
	skip "cli: -q: $sys absent"
fi
