# SPDX-License-Identifier: MIT
# A Perfetto trace's ftrace bundles are decoded on a thread of their own, ahead of their merge,
# and ftrace text's lines are parsed in blocks, three in four on that thread (GFXSTAT_THREADS,
# default 2 with two CPUs or more; docs/perfetto.md "Two threads", lib/input/trace_text.c):
# what every command prints is the same with one thread. Sourced by tests/run.sh.
#
# Text: gfxsim traces of 3 MB (the scheduler's lines, two apps; one at 120 Hz with CRLF line
# ends) with a GPU clock and a temperature line every 40 lines (lib/input/counter_line.c:
# the system series of analyze --all, inspect and report), read from the file and from a
# pipe: analyze (table, JSON, --janky, --all), frames, export, inspect, report, byte for byte
# with GFXSTAT_THREADS=1 and =2.
#
# The real Perfetto samples, and api32 four times over (bench/perfetto_repeat.c: a capture of
# many bundles, each copy shifted in time) read from a pipe (the decoder gets the 1 MB reads,
# not one mapped file): analyze (table, JSON with the system series, --janky), inspect,
# frames, export and the Perfetto dump of the scheduler events, byte for byte with
# GFXSTAT_THREADS=1 and =2. A GFXSTAT_THREADS that is no number is said and ignored.

pt=$TMP/threads
mkdir -p "$pt"
# pt_same WHAT BASE KIND...: each output $pt/BASE.1.KIND (one thread) non-empty and the same as
# $pt/BASE.2.KIND (two)
pt_same() {
	pt_what=$1 pt_base=$2
	shift 2
	for pt_k in "$@"; do
		if [ -s "$pt/$pt_base.1.$pt_k" ] && cmp -s "$pt/$pt_base.1.$pt_k" "$pt/$pt_base.2.$pt_k"
		then
			pass
		else
			fail "$pt_what: $pt_k of $pt_base differs with two threads:" \
				"$(diff "$pt/$pt_base.1.$pt_k" "$pt/$pt_base.2.$pt_k" | head -c 400)"
		fi
	done
}
pt_inputs=""
for pt_f in "$SAMPLES"/perfetto/*/*; do
	[ -f "$pt_f" ] && pt_inputs="$pt_inputs $pt_f"
done
pt_api32=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
if [ -f "$pt_api32" ] && cc -O2 -std=c11 -o "$pt/perfetto_repeat" "$ROOT/bench/perfetto_repeat.c" \
	2> "$pt/err" && "$pt/perfetto_repeat" 4 "$pt_api32" "$pt/api32-x4.pftrace" > /dev/null 2>&1
then
	pt_inputs="$pt_inputs $pt/api32-x4.pftrace"
elif [ -f "$pt_api32" ]; then
	fail "perfetto threads: bench/perfetto_repeat.c: $(head -c 300 "$pt/err")"
fi
if [ -z "$pt_inputs" ]; then
	skip "perfetto threads: no Perfetto samples under $SAMPLES/perfetto"
else
	for pt_f in $pt_inputs; do
		pt_b=$(basename "$pt_f")
		for pt_n in 1 2; do
			pt_o=$pt/$pt_b.$pt_n
			export GFXSTAT_THREADS=$pt_n
			"$GFXSTAT" analyze --all "$pt_f" > "$pt_o.analyze" 2>&1
			"$GFXSTAT" analyze --json --all "$pt_f" > "$pt_o.json" 2>&1
			"$GFXSTAT" analyze --janky "$pt_f" > "$pt_o.janky" 2>&1
			"$GFXSTAT" inspect "$pt_f" > "$pt_o.inspect" 2>&1
			"$GFXSTAT" frames "$pt_f" > "$pt_o.frames" 2>&1
			"$GFXSTAT" export -o "$pt_o.export" "$pt_f" > /dev/null 2>&1
			"$GFXSTAT" perfetto-dump --sched --markers --frames --counters "$pt_f" \
				> "$pt_o.dump" 2>&1
			"$GFXSTAT" analyze --json --all - < "$pt_f" > "$pt_o.pipe" 2>&1
			unset GFXSTAT_THREADS
		done
		pt_same "perfetto threads" "$pt_b" analyze json janky inspect frames export dump pipe
	done
	# the scheduler's events were there to decode (the dump lists them)
	grep -q "sched_switch" "$pt/$(basename "$pt_api32").2.dump" 2> /dev/null && pass ||
		fail "perfetto threads: the dump of api32 shows no sched_switch"
fi
# a value that is no number of threads: said, and the default used
if GFXSTAT_THREADS=two "$GFXSTAT" inspect "$ROOT/examples/launcher-60hz.trace" > /dev/null \
	2> "$pt/err" &&
	grep -q "GFXSTAT_THREADS='two' is not a number of threads" "$pt/err"; then
	pass
else
	fail "perfetto threads: GFXSTAT_THREADS=two not said: $(head -c 300 "$pt/err")"
fi

# text
for pt_opts in "--hz 60 --apps 2" "--hz 120 --apps 1"; do
	pt_t=$pt/sim-$(echo "$pt_opts" | tr -dc '0-9').trace
	if ! "$GFXSIM" --seed 7 $pt_opts --sched-noise 5 --size 3000000 -o "$pt_t" 2> "$pt/err"; then
		fail "threads: gfxsim $pt_opts: $(head -c 300 "$pt/err")"
		continue
	fi
	# a GPU clock and a temperature with the time of every 40th line
	awk 'NR % 40 == 0 && match($0, /^.*\] [^ ]* [0-9]+\.[0-9]+: /) {
		h = substr($0, 1, RLENGTH)
		print h "clk_set_rate: gpu_cc_gx_gfx3d_clk_src " (257 + NR % 500) "000000"
		print h "thermal_temperature: thermal_zone=cpu-1-0 id=3 temp_prev=40000 temp=" \
			(40000 + NR % 3000)
	} { print }' "$pt_t" > "$pt_t.c" && mv "$pt_t.c" "$pt_t"
	case $pt_opts in *120*) sed -i 's/$/\r/' "$pt_t" ;; esac
	pt_b=$(basename "$pt_t")
	for pt_n in 1 2; do
		pt_o=$pt/$pt_b.$pt_n
		export GFXSTAT_THREADS=$pt_n
		"$GFXSTAT" analyze "$pt_t" > "$pt_o.analyze" 2>&1
		"$GFXSTAT" analyze --json "$pt_t" > "$pt_o.json" 2>&1
		"$GFXSTAT" analyze --janky "$pt_t" > "$pt_o.janky" 2>&1
		"$GFXSTAT" frames "$pt_t" > "$pt_o.frames" 2>&1
		"$GFXSTAT" export -o "$pt_o.export" "$pt_t" > /dev/null 2>&1
		"$GFXSTAT" analyze --json - < "$pt_t" > "$pt_o.pipe" 2>&1
		"$GFXSTAT" analyze --all "$pt_t" > "$pt_o.all" 2>&1
		"$GFXSTAT" analyze --json --all - < "$pt_t" > "$pt_o.pipeall" 2>&1
		"$GFXSTAT" inspect "$pt_t" > "$pt_o.inspect" 2>&1
		"$GFXSTAT" report -q -o "$pt_o.report" "$pt_t" > /dev/null 2>&1
		unset GFXSTAT_THREADS
	done
	# the GPU clock and the temperature were read (analyze --all's system series)
	grep -q '"gpu_freq"' "$pt/$pt_b.2.pipeall" && grep -q '"thermal"' "$pt/$pt_b.2.pipeall" &&
		pass || fail "threads: no GPU clock or temperature in $pt_b's analyze --json --all"
	pt_same "threads ($pt_opts)" "$pt_b" analyze json janky frames export pipe all pipeall \
		inspect report
done
