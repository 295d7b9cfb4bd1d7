#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench-cost: what gfxstat costs on the phone, as instructions per trace byte of
# `gfxstat gfx` and `gfxstat frames` on a gfxsim trace.
#   host build: valgrind callgrind on a ~50 MB trace (perf stat needs a hardware counter,
#               which virtual machines often lack; it is used when it works)
#   ARM builds: Debian's qemu has no TCG plugins (no libinsn.so), so instructions are counted
#               with `qemu -singlestep -d exec,nochain` (one log line per instruction run)
#               on a ~1 MB trace: exact, but ~100x slower than the program. The same count of
#               the host binary under qemu-x86_64 is printed beside callgrind's as a check.
#               Wall time under qemu on the 50 MB trace says nothing of a phone's speed.
#   sh bench/cost.sh BUILD ANDROID_BUILD [--quick]   (--quick: 5 MB and 200 kB traces)
set -eu
BUILD=${1:-build}
ABUILD=${2:-build-android}
BIG=50000000
SMALL=1000000
if [ "${3:-}" = "--quick" ]; then
	BIG=5000000
	SMALL=200000
fi
have() { command -v "$1" > /dev/null 2>&1; }
DIR=$BUILD/bench
mkdir -p "$DIR"
cc -O2 -std=c11 -Wall -o "$DIR/bench_run" bench/bench_run.c

# trace SIZE: a gfxsim trace of about SIZE bytes (kept for reruns). Only atrace gfx markers,
# as a phone's `atrace gfx` gives to gfxstat gfx -; bench.sh's traces add 5 sched lines per
# marker, which are cheaper to skip and would lower the figure (8.4 and 9.5 insn/byte).
trace() {
	t=$DIR/cost-gfx-$1.trace
	if [ ! -f "$t" ]; then
		"$BUILD/gfxsim" --seed 1 --hz 60 --apps 2 --duration 100000 \
			--size "$1" -o "$t.tmp" 2> /dev/null
		mv "$t.tmp" "$t"
	fi
	echo "$t"
}
BIGT=$(trace $BIG)
SMALLT=$(trace $SMALL)

# the two commands measured, on trace $1, run by the command prefix in the remaining args
run_cmd() { # run_cmd gfx|frames TRACE PREFIX...
	c=$1 t=$2
	shift 2
	case $c in
	gfx) "$@" gfx -q -F "$DIR/cost-out" "$t" ;;
	frames) "$@" frames -q -o /dev/null "$t" ;;
	esac
}
# callgrind's instruction count ("summary:" in its output file)
count_callgrind() { # count_callgrind gfx|frames TRACE BINARY
	rm -f "$DIR/cost.cg"
	run_cmd "$1" "$2" valgrind -q --tool=callgrind --callgrind-out-file="$DIR/cost.cg" "$3" \
		> /dev/null 2>&1
	sed -n 's/^summary: *//p' "$DIR/cost.cg"
}
count_perf() { # count_perf gfx|frames TRACE BINARY: user-space instructions, or nothing
	run_cmd "$1" "$2" perf stat -x, -e instructions:u -o "$DIR/cost.perf" "$3" \
		> /dev/null 2>&1 || return 0
	awk -F, '$3 ~ /^instructions/ && $1 ~ /^[0-9]+$/ { print $1 }' "$DIR/cost.perf"
}
# one line per instruction run: one instruction per translation block, no block chaining
QFLAG=-singlestep
count_qemu() { # count_qemu gfx|frames TRACE QEMU BINARY
	run_cmd "$1" "$2" "$3" $QFLAG -d exec,nochain -D /dev/stdout "$4" 2> /dev/null |
		grep -c '^Trace'
}
wall() { # wall gfx|frames TRACE PREFIX...: fastest of 3 runs, seconds
	c=$1 t=$2
	shift 2
	case $c in
	gfx) set -- "$@" gfx -q -F "$DIR/cost-out" "$t" ;;
	frames) set -- "$@" frames -q -o /dev/null "$t" ;;
	esac
	"$DIR/bench_run" 3 "$@" | sed -n 's/.*wall=\([0-9.]*\).*/\1/p'
}
qemu_for() { # the qemu-user command for an ABI (static or not)
	for q in "qemu-$1-static" "qemu-$1"; do
		have "$q" && { echo "$q"; return 0; }
	done
	return 0
}
row() { # row BUILD CMD TRACE INSNS WALL HOW
	awk -v b="$1" -v c="$2" -v n="$(wc -c < "$3")" -v i="$4" -v w="$5" -v how="$6" 'BEGIN {
		ipb = i == "" ? "-" : sprintf("%.1f", i / n)
		printf "%-13s %-7s %9.1f MB %14s %9s %9s  %s\n", b, c, n / 1e6, i == "" ? "-" : i,
			ipb, w == "" ? "-" : w, how
	}'
}

printf '%-13s %-7s %12s %14s %9s %9s  %s\n' build command trace instructions insn/byte \
	"wall s" "how (wall: fastest of 3)"
# host: perf when the machine has a counter, else callgrind
for c in gfx frames; do
	n=$(count_perf $c "$BIGT" "$BUILD/gfxstat")
	how="perf stat instructions:u"
	if [ -z "$n" ]; then
		if have valgrind; then
			n=$(count_callgrind $c "$BIGT" "$BUILD/gfxstat")
			how="callgrind (no perf counter here)"
		else
			how="no perf counter, no valgrind (scripts/deps-android.sh --bench)"
		fi
	fi
	row "host $(uname -m)" $c "$BIGT" "$n" "$(wall $c "$BIGT" "$BUILD/gfxstat")" "$how"
done
# the same count on the small trace, by callgrind and by the qemu method used for ARM below
qx=$(qemu_for "$(uname -m)")
for c in gfx frames; do
	n=""
	have valgrind && n=$(count_callgrind $c "$SMALLT" "$BUILD/gfxstat")
	row "host $(uname -m)" $c "$SMALLT" "$n" "" "callgrind, small trace"
	if [ -n "$qx" ]; then
		row "host $(uname -m)" $c "$SMALLT" "$(count_qemu $c "$SMALLT" "$qx" "$BUILD/gfxstat")" \
			"" "$qx -d exec count (check of the method)"
	fi
done
for abi in arm64 armv7; do
	bin=$ABUILD/$abi/gfxstat
	case $abi in arm64) q=$(qemu_for aarch64) ;; *) q=$(qemu_for arm) ;; esac
	if [ ! -x "$bin" ] || [ -z "$q" ]; then
		echo "$abi: not measured: $bin or qemu missing (scripts/deps-android.sh; make android)"
		continue
	fi
	for c in gfx frames; do
		row "$abi" $c "$SMALLT" "$(count_qemu $c "$SMALLT" "$q" "$bin")" "" "$q -d exec count"
		row "$abi" $c "$BIGT" "" "$(wall $c "$BIGT" "$q" "$bin")" "wall under $q (not a phone)"
	done
done
for abi in arm64 armv7; do
	[ -f "$ABUILD/$abi/gfxstat" ] &&
		echo "size: $ABUILD/$abi/gfxstat $(wc -c < "$ABUILD/$abi/gfxstat") bytes"
done
exit 0
