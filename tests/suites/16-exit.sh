# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: one command line (issue 8). One vocabulary of options, one exit
# status table (0 ok, 1 gate, 2 usage, 3 input, 4 device, 5 output), every "nothing found"
# exits 3 with a sentence that says what was found, damage is reported alike everywhere, and
# analyze's table answers "how smooth was it?" first.

c16=$TMP/c16
mkdir -p "$c16"
ex=$ROOT/examples/launcher-60hz.trace

# c16_rc WANT NAME CMD...: the command exits WANT; its stderr is kept in $c16/err
c16_rc() {
	want=$1
	name=$2
	shift 2
	"$@" > "$c16/out" 2> "$c16/err" < /dev/null
	got=$?
	[ "$got" -eq "$want" ] && pass || fail "exit: $name: exit $got, want $want: $(head -c 300 "$c16/err")"
}
# c16_says TEXT NAME: the last command's stderr holds TEXT
c16_says() {
	grep -qF -- "$1" "$c16/err" && pass || fail "exit: $2: stderr lacks '$1': $(head -c 300 "$c16/err")"
}

# -- the exit status table, the same in every --help ----------------------------------------
for c in analyze frames inspect gfx gfxinfo latency unwrap perfetto-dump; do
	"$GFXSTAT" "$c" --help > "$c16/help" 2>&1
	grep -q '^  3  input: unreadable, damaged or truncated, or nothing found in it$' "$c16/help" &&
		grep -q '^  5  output: the results could not be written$' "$c16/help" && pass ||
		fail "exit: $c --help lacks the exit status table"
	grep -q '^Exit status:' "$c16/help" && fail "exit: $c --help keeps its own exit line" || pass
done

# -- one vocabulary ------------------------------------------------------------------------
# gfx: --window/--kpi/-o are the words of every command; -d/--delay, -k/--KPI, -F the seed's
# aliases: both spellings write the same fps.csv
"$GFXSTAT" gfx -q -d 2 -k 50 -F "$c16/g1" "$ex" 2> /dev/null
"$GFXSTAT" gfx -q --window 2 --kpi 50 -o "$c16/g2" "$ex" 2> /dev/null
[ -s "$c16/g1/fps.csv" ] && cmp -s "$c16/g1/fps.csv" "$c16/g2/fps.csv" && pass ||
	fail "exit: gfx --window/--kpi/-o differ from -d/-k/-F"
c16_rc 2 "gfx -F ''" "$GFXSTAT" gfx -F "" "$ex"
c16_rc 2 "gfx -o ''" "$GFXSTAT" gfx -o "" "$ex"
c16_rc 2 "frames -o ''" "$GFXSTAT" frames -o "" "$ex"
# --app on every command that reads frames: launcher-60hz names no app, so no frame matches
c16_rc 3 "frames --app nomatch" "$GFXSTAT" frames --app no.such.app "$ex"
c16_says "no frame matches --app 'no.such.app'" "frames --app nomatch"
c16_says "StatusBar" "frames --app lists the layers"
c16_rc 3 "gfx --app nomatch" "$GFXSTAT" gfx -q -o "$c16/g3" --app no.such.app "$ex"
[ -e "$c16/g3/fps.csv" ] && fail "exit: gfx with no frame created fps.csv" || pass
# analyze keeps --json/--csv as aliases of --format json/csv
"$GFXSTAT" analyze -q --json "$ex" > "$c16/a1" 2> /dev/null
"$GFXSTAT" analyze -q "$ex" --format json > "$c16/a2" 2> /dev/null
[ -s "$c16/a1" ] && cmp -s "$c16/a1" "$c16/a2" && pass || fail "exit: analyze --json != --format json"
c16_rc 2 "analyze --format bad" "$GFXSTAT" analyze --format xml "$ex"
c16_rc 2 "analyze --metrics bad" "$GFXSTAT" analyze --metrics perfdog,nosuch "$ex"
# -f is gfx's frame threshold; gfxinfo's row list is --rows (no -f)
c16_rc 2 "gfxinfo -f" "$GFXSTAT" gfxinfo -f "$ex"

# -- nothing found: exit 3 and a sentence --------------------------------------------------
: > "$c16/empty"
for c in analyze frames inspect gfx gfxinfo latency perfetto-dump unwrap; do
	o=""
	[ "$c" = gfx ] && o="-o $c16/eo" # gfx writes a folder: not the current one
	# shellcheck disable=SC2086
	c16_rc 3 "$c on an empty file" "$GFXSTAT" "$c" $o "$c16/empty"
	c16_says "empty (0 bytes): nothing to read" "$c on an empty file"
	# shellcheck disable=SC2086
	"$GFXSTAT" "$c" $o - < /dev/null > /dev/null 2> "$c16/err"
	rc=$?
	[ $rc -eq 3 ] && pass || fail "exit: $c on empty standard input: exit $rc, want 3"
	c16_says "standard input: empty (0 bytes)" "$c on empty standard input"
done
[ -e "$c16/eo/fps.csv" ] && fail "exit: gfx on an empty input created fps.csv" || pass
c16_rc 3 "analyze --app nomatch" "$GFXSTAT" analyze --app no.such.app "$ex"
c16_says "the input has" "analyze --app nomatch lists the layers"
grep -q '^no frames' "$c16/out" && fail "exit: analyze prints 'no frames' on stdout" || pass
c16_rc 3 "analyze --layer nomatch" "$GFXSTAT" analyze --layer no-such-layer "$ex"
# latency: a lone number in the refresh-period range, or random bytes, are no frames
printf 'hello world\n16666667\nbye\n' > "$c16/num"
c16_rc 3 "latency on a lone period number" "$GFXSTAT" latency "$c16/num"
c16_says "no frames: 1 refresh-period line but no frame rows" "latency on a lone period number"
# 4 kB of bytes from a fixed seed: the same "random" input on every run
awk 'BEGIN { srand(16); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 255) + 1 }' \
	> "$c16/rnd"
c16_rc 3 "latency on random bytes" "$GFXSTAT" latency "$c16/rnd"
# an empty folder: no qsort(NULL, 0) (UBSan in the sanitizer run), and no reading of stdin
mkdir -p "$c16/nofiles"
c16_rc 3 "latency on an empty folder" "$GFXSTAT" latency "$c16/nofiles"
c16_says "hold" "latency on an empty folder"

# -- output errors: 5, nothing leaked, no "N frames written" ---------------------------------
if [ -w /dev/full ]; then
	for c in analyze frames inspect; do
		"$GFXSTAT" "$c" "$ex" > /dev/full 2> "$c16/err"
		rc=$?
		[ $rc -eq 5 ] && pass || fail "exit: $c > /dev/full: exit $rc, want 5"
	done
	"$GFXSTAT" frames "$ex" > /dev/full 2> "$c16/err"
	grep -q 'frames written' "$c16/err" && fail "exit: frames > /dev/full says frames written" ||
		pass
else
	skip "exit: /dev/full is not writable here"
fi

# -- SIGTERM on an endless standard input: a clean end, not death by the signal (143) -------
mkfifo "$c16/fifo" 2> /dev/null
for c in inspect perfetto-dump analyze; do
	# the trace, then a pipe that stays open until the command is stopped
	(cat "$ex"; exec sleep 30) > "$c16/fifo" &
	writer=$!
	"$GFXSTAT" "$c" - < "$c16/fifo" > /dev/null 2>&1 &
	gp=$!
	sleep 1
	kill -TERM $gp
	wait $gp
	rc=$?
	kill $writer 2> /dev/null
	wait $writer 2> /dev/null
	[ $rc -ne 143 ] && [ $rc -lt 128 ] && pass || fail "exit: $c killed by SIGTERM (exit $rc)"
done

# -- damaged input: reported alike, exit 3 after the results --------------------------------
if [ -d "$SAMPLES" ]; then
	pf=$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace
	head -c 500000 "$pf" > "$c16/cut.perfetto-trace"
	for c in analyze frames inspect perfetto-dump; do
		"$GFXSTAT" "$c" "$c16/cut.perfetto-trace" > "$c16/out" 2> "$c16/err"
		rc=$?
		[ $rc -eq 3 ] && [ -s "$c16/out" ] && pass ||
			fail "exit: $c on a truncated trace: exit $rc (want 3 after the results)"
		c16_says "damaged or truncated" "$c on a truncated trace"
		c16_says "the last packet is cut short" "$c on a truncated trace"
	done
	# inspect on a --list dump points to latency --layers
	c16_rc 3 "inspect on --list" "$GFXSTAT" inspect "$SAMPLES/sf_latency/zTT/temp.txt"
	c16_says "gfxstat latency --layers" "inspect on --list"
	# inspect describes an input with no frames, then says so like the others: exit 3
	c16_rc 3 "inspect on a --latency dump with no rows" "$GFXSTAT" inspect \
		"$SAMPLES/sf_latency/zTT/latency.txt"
	c16_says "latency --layers" "inspect on a --latency dump with no rows"
	# app-side frames only (no SurfaceFlinger): analyze still answers, exit 0
	c16_rc 0 "analyze app-only" "$GFXSTAT" analyze "$SAMPLES/atrace_text/catapult/decompressed_atrace_data.txt"
	# counters only (a VSYNC counter, no frame): exit 3 and what would help
	c16_rc 3 "frames on counters only" "$GFXSTAT" frames "$SAMPLES/systrace_html/catapult/counter_tracks.html"
	c16_says "record with the 'gfx' category" "frames on counters only"
else
	skip "exit: ../shared/samples absent: damaged-input and sample checks"
fi

# -- analyze's table: the answer first --------------------------------------------------------
# launcher-60hz: the first lines of each layer are its headline (frames, FPS, janky share,
# p50/p90/p99), the other tools' families only with --all or --metrics
"$GFXSTAT" analyze -q "$ex" > "$c16/t" 2> /dev/null
grep -q '^  frames [0-9]* over [0-9.]* s at [0-9.]* Hz: FPS [0-9.]*; janky [0-9]*' "$c16/t" &&
	grep -q '^  frame ms  p50 [0-9.]*  p90 [0-9.]*  p99 [0-9.]*  max' "$c16/t" && pass ||
	fail "exit: analyze's table has no headline: $(head -c 300 "$c16/t")"
grep -q 'PerfDog\|gfx  \|Matrix' "$c16/t" && fail "exit: analyze's default table shows every family" ||
	pass
"$GFXSTAT" analyze -q --metrics perfdog "$ex" > "$c16/t2" 2> /dev/null
grep -q '^  PerfDog ' "$c16/t2" && ! grep -q '^  gfx ' "$c16/t2" && pass ||
	fail "exit: analyze --metrics perfdog does not add just PerfDog"
"$GFXSTAT" analyze -q --all "$ex" > "$c16/t3" 2> /dev/null
for fam in cadence PerfDog Android gfx Apple Matrix Taobao; do
	grep -q "^  $fam " "$c16/t3" && pass || fail "exit: analyze --all lacks $fam"
done
# launcher-60hz spans seconds, not a minute: no rate "per 10 min" extrapolated from it
grep -q 'per 10 min' "$c16/t3" && fail "exit: analyze extrapolates per 10 min from seconds" || pass
# the janky count of the headline is the --janky list's (one definition)
want=$(awk '/^layer /{l = 1} /^app /{l = 0} l && /^  frames /{
	for (i = 1; i <= NF; i++) if ($i == "janky") s += $(i + 1) + 0 } END { print s + 0 }' "$c16/t")
got=$("$GFXSTAT" analyze -q --janky "$ex" | awk 'NR > 1 && !/^no janky/' | wc -l | tr -d ' ')
[ "$want" = "$got" ] && pass || fail "exit: analyze headline janky $want, --janky lists $got"
if [ "$got" -gt 0 ]; then
	grep -q '^  worst  *[0-9.]* ms at [0-9.]* s' "$c16/t" && pass ||
		fail "exit: analyze's headline does not name the worst frames"
fi
