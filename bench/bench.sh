#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: what gfxstat costs, next to cat and wc -l on the same files (docs/bench.md).
#   text     a gfxsim `atrace gfx` trace with the scheduler's lines (sched_switch,
#            sched_waking/wakeup, cpu_idle, cpu_frequency; --sched-noise 5): gfx, gfx from
#            stdin, frames, analyze (which times the threads of every janky frame)
#   perfetto the Apache-2.0 api32_startup_warm sample N times over, each copy shifted in time
#            (bench/perfetto_repeat.c): frames (FrameTimeline and markers), analyze (which
#            decodes the scheduler's events too)
#   perfetto frames  the Apache-2.0 nowinandroid sample (Pixel 7 Pro, 120 Hz: FrameTimeline,
#            1869 frames in 0.9 MB) N times over: a long capture dense in frames, where the
#            frames held to the input's end are what memory grows with (api32 has few)
#   perfetto app     bench/perfetto_sim.c: one app drawing every frame at 120 Hz with its
#            sections (doFrame, DrawFrames, queueBuffer) and FrameTimeline, as a capture with
#            the gfx and view categories: the app work kept to explain the frames at the end
#   report   gfxstat report on a 1 M-frame input, and the page's time to interactive
#   compare  gfxstat compare of 2 x 20 gfxsim recordings
# Columns: fastest wall time of RUNS runs after a warm-up (page cache hot), MB/s, ns per line
# (text) or per packet (Perfetto), instructions per input byte (callgrind, or perf stat where
# the CPU counter works, on a slice of the same input), peak RSS, and peak RSS on an input 4
# times as large (one run): equal figures mean memory does not grow with the input.
#   sh bench/bench.sh BUILD            full run (1.1 GB text, ~380 MB Perfetto; disk: ~12 GB)
#   sh bench/bench.sh BUILD --smoke    small inputs, 1 run: checks the harness works (~1 min)
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SAMPLES=${GFXSTAT_SAMPLES:-$ROOT/../shared/samples}
PF_SAMPLE=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
NW_SAMPLE=$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace
MODE=full
SIZE=1100000000   # text trace, bytes
SLICE=50000000    # text slice for instruction counts
PF_COPIES=200     # Perfetto: copies of api32 (1.9 MB, 2.2 s each)
PF_SLICE=10       # Perfetto slice for instruction counts
NW_COPIES=160     # frame-dense Perfetto: copies of nowinandroid (0.9 MB, 10.2 s each)
NW_SLICE=10
SIM_SEC=960       # Perfetto with the app's sections: simulated seconds at 120 Hz (115 k vsyncs)
SIM_SLICE=60
RUNS=3
REPORT_SEC=4800   # report: 120 Hz, no idle: about 1 M frames
CMP_SEC=10        # compare: seconds per recording
if [ "${2:-}" = "--smoke" ]; then
	MODE=smoke
	SIZE=20000000
	SLICE=2000000
	PF_COPIES=4
	PF_SLICE=1
	NW_COPIES=4
	NW_SLICE=1
	SIM_SEC=30
	SIM_SLICE=5
	RUNS=1
	REPORT_SEC=60
	CMP_SEC=1
fi
DIR=$BUILD/bench
mkdir -p "$DIR"
have() { command -v "$1" > /dev/null 2>&1; }
# stale FILE DEP: FILE is missing or older than DEP (made again)
stale() { [ ! -e "$1" ] || [ -n "$(find "$2" -prune -newer "$1")" ]; }
# a helper, rebuilt when its source or the header the trace writers share changed
helper() {
	if stale "$DIR/$1" "$ROOT/bench/$1.c" || stale "$DIR/$1" "$ROOT/bench/pb_out.h"; then
		cc -O2 -std=c11 -Wall -Wextra -o "$DIR/$1" "$ROOT/bench/$1.c"
	fi
}
helper bench_run
helper perfetto_repeat
helper perfetto_sim
ERR=$DIR/stderr.txt
run() { "$DIR/bench_run" -e "$ERR" "$@"; } # run N CMD...: "wall= user= sys= maxrss_kb="

# gen_text FILE SIZE: the text trace (kept; made again when gfxsim changed)
gen_text() {
	if stale "$1" "$BUILD/gfxsim"; then
		echo "bench: generating $1 (gfxsim, 60 Hz, 2 apps, --sched-noise 5)" >&2
		"$BUILD/gfxsim" --seed 1 --hz 60 --apps 2 --sched-noise 5 --duration 100000 \
			--size "$2" -o "$1.tmp" 2> /dev/null
		mv "$1.tmp" "$1"
	fi
}
# gen_pf FILE COPIES [SAMPLE]: SAMPLE (api32) COPIES times over; prints perfetto_repeat's
# key=value line
gen_pf() {
	if stale "$1" "$DIR/perfetto_repeat" || [ ! -f "$1.info" ]; then
		echo "bench: generating $1 ($(basename "${3:-$PF_SAMPLE}") x $2, shifted in time)" >&2
		"$DIR/perfetto_repeat" "$2" "${3:-$PF_SAMPLE}" "$1.tmp" > "$1.info"
		mv "$1.tmp" "$1"
	fi
	cat "$1.info"
}
kv() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; } # kv "k=v ..." KEY

# Instructions: perf stat where the hardware counter works, else callgrind, else nothing.
INSN=none
if have perf && perf stat -x, -e instructions:u -o "$DIR/perf.txt" true > /dev/null 2>&1 &&
	awk -F, '$3 ~ /^instructions/ && $1 ~ /^[0-9]+$/ { ok = 1 } END { exit !ok }' \
		"$DIR/perf.txt"; then
	INSN=perf
elif have valgrind; then
	INSN=callgrind
fi
# insn FILE CMD...: instructions (user space) of CMD run once on FILE (given as its
# argument; with `gfx -` on its stdin) per byte of FILE, or n/a
insn() {
	f=$1
	shift
	case $INSN in
	perf)
		perf stat -x, -e instructions:u -o "$DIR/perf.txt" "$@" < "$f" > /dev/null 2>&1 ||
			true
		n=$(awk -F, '$3 ~ /^instructions/ { print $1 }' "$DIR/perf.txt")
		;;
	callgrind)
		rm -f "$DIR/bench.cg"
		valgrind -q --tool=callgrind --callgrind-out-file="$DIR/bench.cg" "$@" \
			< "$f" > /dev/null 2>&1 || true
		n=$(sed -n 's/^summary: *//p' "$DIR/bench.cg")
		;;
	*) n= ;;
	esac
	case $n in
	'' | *[!0-9]*) echo "n/a" ;;
	*) awk -v n="$n" -v b="$(wc -c < "$f")" 'BEGIN { printf "%.2f", n / b }' ;;
	esac
}

# row NAME BYTES UNITS UNIT RUN_OUTPUT INSN_PER_BYTE RSS4X_RUN_OUTPUT|-
row() {
	echo "$5" | awk -v name="$1" -v bytes="$2" -v units="$3" -v unit="$4" -v ipb="$6" \
		-v big="$7" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		r4 = "-"
		if (big != "-") {
			n = split(big, b, " ")
			for (i = 1; i <= n; i++) { split(b[i], kv, "="); w[kv[1]] = kv[2] }
			r4 = sprintf("%.1f MB", w["maxrss_kb"] / 1024)
		}
		per = v["wall"] * 1e9 / units
		if (per < 1e6)
			pu = sprintf("%9.1f ns/%-6s", per, unit)
		else
			pu = sprintf("%9.1f ms/%-6s", per / 1e6, unit)
		printf "  %-22s %8.3f s %8.1f MB/s %s %7s insn/B %8.1f MB %10s\n", name,
			v["wall"], bytes / v["wall"] / 1e6, pu, ipb, v["maxrss_kb"] / 1024, r4
	}'
}

cpu=$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2> /dev/null | head -n 1)
echo "gfxstat bench ($MODE): $(uname -m), ${cpu:-unknown CPU}, $(nproc 2> /dev/null || echo ?)" \
	"CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || echo ?)"
echo "time: fastest of $RUNS run(s) after a warm-up, page cache hot; insn/B: $INSN on a slice" \
	"of the input; RSS x4: one run on an input 4 times as large"
printf "  %-22s %10s %13s %18s %14s %11s %10s\n" command time throughput "per unit" \
	instructions "peak RSS" "RSS x4"

# -- text ---------------------------------------------------------------------------------
TRACE=$DIR/gfx-$SIZE.trace
TRACE4=$DIR/gfx-$((SIZE * 4)).trace
TSLICE=$DIR/gfx-$SLICE.trace
gen_text "$TRACE" "$SIZE"
gen_text "$TRACE4" $((SIZE * 4))
gen_text "$TSLICE" "$SLICE"
BYTES=$(wc -c < "$TRACE")
LINES=$(wc -l < "$TRACE")
echo "text: $TRACE, $BYTES bytes, $LINES lines (gfxsim 60 Hz, 2 apps, --sched-noise 5)"
awk -v slice="$TSLICE" '!/^#/ { if (match($0, /: [a-z_]+: /)) n[substr($0, RSTART + 2,
	RLENGTH - 4)]++; all++ }
	END { printf "  lines (of the slice %s):", slice
		k = split("tracing_mark_write sched_switch sched_waking sched_wakeup cpu_idle " \
			"cpu_frequency", e, " ")
		for (i = 1; i <= k; i++) printf " %s %.0f %%", e[i], 100 * n[e[i]] / all
		print "" }' "$TSLICE"
cat "$TRACE" > /dev/null # warm the page cache
GFX_OUT=$DIR/out
# do_cmd KIND FILE PREFIX...: the measured command KIND on FILE, run by PREFIX (run N, or
# insn FILE); gfx-stdin reads FILE from its standard input (through sh -c when timed, as
# every run needs the file from its start)
do_cmd() {
	k=$1 f=$2
	shift 2
	case $k in
	cat) "$@" cat "$f" ;;
	wc) "$@" wc -l "$f" ;;
	gfx) "$@" "$BUILD/gfxstat" gfx -q -F "$GFX_OUT" "$f" ;;
	gfx-stdin)
		if [ "$1" = insn ]; then
			"$@" "$BUILD/gfxstat" gfx -q -F "$GFX_OUT" -
		else
			# shellcheck disable=SC2016
			"$@" sh -c '"$0" gfx -q -F "$1" - < "$2"' "$BUILD/gfxstat" "$GFX_OUT" "$f"
		fi
		;;
	frames) "$@" "$BUILD/gfxstat" frames -q -o /dev/null "$f" ;;
	analyze) "$@" "$BUILD/gfxstat" analyze -q "$f" ;;
	esac
}
# paired FILE KIND...: each gfxstat KIND against wc -l on FILE in turns (wc -l, then KIND, 5
# times; each a warm-up and a run): the median of the 5 ratios of their wall times. On a
# machine whose speed drifts (a shared VM: the same run takes 0.5 s or 0.65 s minutes apart,
# and longer after a while of load), the rows above compare runs made a minute apart; a turn
# compares two made a second apart.
paired() {
	pf=$1
	shift
	out=
	for k in "$@"; do
		rs=
		for i in 1 2 3 4 5; do
			w=$(do_cmd wc "$pf" run 1 | sed 's/.*wall=\([^ ]*\).*/\1/')
			g=$(do_cmd "$k" "$pf" run 1 | sed 's/.*wall=\([^ ]*\).*/\1/')
			rs="$rs $(awk -v a="$g" -v b="$w" 'BEGIN { printf "%.3f", a / b }')"
		done
		out="$out, $k $(echo "${rs# }" | tr ' ' '\n' | sort -n | sed -n 3p)x"
	done
	echo "  paired with wc -l (median of 5 turns):${out#,}"
}
# bench_row NAME KIND FILE FILE_4X SLICE BYTES UNITS UNIT: one row (RSS x4 for gfxstat only)
bench_row() {
	r1=$(do_cmd "$2" "$3" run "$RUNS")
	r4=-
	case $1 in gfxstat*) r4=$(do_cmd "$2" "$4" run 1) ;; esac
	row "$1" "$6" "$7" "$8" "$r1" "$(do_cmd "$2" "$5" insn "$5")" "$r4"
}
for k in "cat" "wc -l:wc" "gfxstat gfx:gfx" "gfxstat gfx (stdin):gfx-stdin" \
	"gfxstat frames:frames" "gfxstat analyze:analyze"; do
	case $k in *:*) ;; *) k="$k:$k" ;; esac
	bench_row "${k%%:*}" "${k##*:}" "$TRACE" "$TRACE4" "$TSLICE" "$BYTES" "$LINES" line
done
paired "$TRACE" gfx analyze

# -- Perfetto -----------------------------------------------------------------------------
# pf_inputs NAME SAMPLE COPIES SLICE: SAMPLE COPIES times over in $P1, 4 x COPIES in $P4, SLICE
# times in $PS (page cache warmed for $P1); perfetto_repeat's key=value line of $P1 in $PINFO
pf_inputs() {
	P1=$DIR/$1-x$3.pftrace
	P4=$DIR/$1-x$(($3 * 4)).pftrace
	PS=$DIR/$1-x$4.pftrace
	PINFO=$(gen_pf "$P1" "$3" "$2")
	gen_pf "$P4" $(($3 * 4)) "$2" > /dev/null
	gen_pf "$PS" "$4" "$2" > /dev/null
	cat "$P1" > /dev/null
}
if [ ! -f "$PF_SAMPLE" ]; then
	echo "perfetto: skipped: the sample $PF_SAMPLE is missing (set GFXSTAT_SAMPLES)"
else
	pf_inputs api32 "$PF_SAMPLE" "$PF_COPIES" "$PF_SLICE"
	PBYTES=$(kv "$PINFO" bytes)
	PACKETS=$(kv "$PINFO" packets)
	echo "perfetto: $P1, $PBYTES bytes, $PACKETS packets, $(kv "$PINFO" events) ftrace" \
		"events (api32_startup_warm x $PF_COPIES, $(kv "$PINFO" span_ns | awk '{
		printf "%.3f", $1 / 1e9 }') s apart; slice $PS)"
	for k in "cat" "wc -l:wc" "gfxstat frames:frames" "gfxstat analyze:analyze"; do
		case $k in *:*) ;; *) k="$k:$k" ;; esac
		bench_row "${k%%:*}" "${k##*:}" "$P1" "$P4" "$PS" "$PBYTES" "$PACKETS" packet
	done
	paired "$P1" analyze
fi
if [ ! -f "$NW_SAMPLE" ]; then
	echo "perfetto frames: skipped: the sample $NW_SAMPLE is missing (set GFXSTAT_SAMPLES)"
else
	pf_inputs nowinandroid "$NW_SAMPLE" "$NW_COPIES" "$NW_SLICE"
	NBYTES=$(kv "$PINFO" bytes)
	NFRAMES=$("$BUILD/gfxstat" frames -q "$P1" | tail -n +2 | wc -l)
	echo "perfetto frames: $P1, $NBYTES bytes, $NFRAMES frames (nowinandroid x $NW_COPIES," \
		"$(kv "$PINFO" span_ns | awk '{ printf "%.3f", $1 / 1e9 }') s apart; slice $PS)"
	for k in "cat" "gfxstat frames:frames" "gfxstat analyze:analyze"; do
		case $k in *:*) ;; *) k="$k:$k" ;; esac
		bench_row "${k%%:*}" "${k##*:}" "$P1" "$P4" "$PS" "$NBYTES" "$NFRAMES" frame
	done
fi
# gen_sim FILE SECONDS: bench/perfetto_sim's trace; prints its key=value line
gen_sim() {
	if stale "$1" "$DIR/perfetto_sim" || [ ! -f "$1.info" ]; then
		echo "bench: generating $1 (perfetto_sim, $2 s at 120 Hz)" >&2
		"$DIR/perfetto_sim" "$2" "$1.tmp" > "$1.info"
		mv "$1.tmp" "$1"
	fi
	cat "$1.info"
}
S1=$DIR/sim-$SIM_SEC.pftrace
S4=$DIR/sim-$((SIM_SEC * 4)).pftrace
SS=$DIR/sim-$SIM_SLICE.pftrace
SINFO=$(gen_sim "$S1" "$SIM_SEC")
gen_sim "$S4" $((SIM_SEC * 4)) > /dev/null
gen_sim "$SS" "$SIM_SLICE" > /dev/null
cat "$S1" > /dev/null
SBYTES=$(kv "$SINFO" bytes)
SFRAMES=$(($(kv "$SINFO" frames) + $(kv "$SINFO" vsyncs)))
echo "perfetto app: $S1, $SBYTES bytes, $(kv "$SINFO" frames) app frames and" \
	"$(kv "$SINFO" vsyncs) display frames with their sections ($SIM_SEC s; slice $SS)"
for k in "cat" "gfxstat frames:frames" "gfxstat analyze:analyze"; do
	case $k in *:*) ;; *) k="$k:$k" ;; esac
	bench_row "${k%%:*}" "${k##*:}" "$S1" "$S4" "$SS" "$SBYTES" "$SFRAMES" frame
done

# -- report on a 1 M-frame input (issue 9) ------------------------------------------------
# A 120 Hz simulated capture without idle (REPORT_SEC s: 4800 s give about 490 k app frames
# and as many SurfaceFlinger refreshes): time to write the report, its size, and the time
# until the page is interactive in headless Chromium (when node, playwright-core in
# report/node_modules and Debian's chromium are there).
RTRACE=$DIR/report-$REPORT_SEC.trace
if stale "$RTRACE" "$BUILD/gfxsim"; then
	echo "bench: generating $RTRACE (gfxsim, 120 Hz, $REPORT_SEC s, 1 app, no idle)" >&2
	"$BUILD/gfxsim" --seed 3 --hz 120 --duration "$REPORT_SEC" --apps 1 --idle 0 \
		-o "$RTRACE.tmp" 2> /dev/null
	mv "$RTRACE.tmp" "$RTRACE"
fi
RFRAMES=$("$BUILD/gfxstat" frames -q "$RTRACE" | tail -n +2 | wc -l)
RHTML=$DIR/report-$REPORT_SEC.html
r=$(run 1 "$BUILD/gfxstat" report -q -o "$RHTML" "$RTRACE")
echo "report: $RTRACE, $(wc -c < "$RTRACE") bytes, $RFRAMES frames (120 Hz, $REPORT_SEC s)"
row "gfxstat report" "$(wc -c < "$RTRACE")" "$RFRAMES" frame "$r" - -
echo "  report file            $(wc -c < "$RHTML") bytes"
if have node && [ -d "$ROOT/report/node_modules/playwright-core" ] && [ -x /usr/bin/chromium ]; then
	echo "  report interactive     $(node "$ROOT/report/test/check-report.js" "$RHTML" 2>&1 |
		grep -o '"tti_ms":[0-9]*' | cut -d: -f2) ms (headless Chromium, from navigation)"
else
	echo "  report interactive     not measured (node, report/node_modules or chromium missing)"
fi

# -- compare: 2 x 20 recordings -----------------------------------------------------------
# Two folders of 20 gfxsim recordings each (60 Hz, 2 apps, --sched-noise 5, CMP_SEC s; NEW
# with more jank), as Macrobenchmark keeps its iterations; compare reads each on its own.
CMP=$DIR/compare-${CMP_SEC}s
if stale "$CMP/done" "$BUILD/gfxsim"; then
	echo "bench: generating $CMP/base and $CMP/new (2 x 20 gfxsim recordings of $CMP_SEC s)" >&2
	rm -rf "$CMP"
	mkdir -p "$CMP/base" "$CMP/new"
	i=1
	while [ $i -le 20 ]; do
		"$BUILD/gfxsim" --seed $((100 + i)) --hz 60 --apps 2 --jank 5 --sched-noise 5 \
			--duration "$CMP_SEC" -o "$CMP/base/iter$i.trace" 2> /dev/null
		"$BUILD/gfxsim" --seed $((200 + i)) --hz 60 --apps 2 --jank 8 --sched-noise 5 \
			--duration "$CMP_SEC" -o "$CMP/new/iter$i.trace" 2> /dev/null
		i=$((i + 1))
	done
	touch "$CMP/done"
fi
CBYTES=$(cat "$CMP"/base/* "$CMP"/new/* | wc -c)
echo "compare: $CMP/base and $CMP/new, 20 + 20 recordings of $CMP_SEC s, $CBYTES bytes"
r=$(run "$RUNS" "$BUILD/gfxstat" compare -q "$CMP/base" "$CMP/new")
row "gfxstat compare" "$CBYTES" 40 record "$r" - -
