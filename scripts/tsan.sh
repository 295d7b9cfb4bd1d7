#!/bin/sh
# SPDX-License-Identifier: MIT
# make tsan: the code that runs on two threads (a Perfetto trace's bundles decoded ahead of
# their merge, lib/input/perfetto_sched.c; ftrace text's blocks of lines parsed ahead,
# lib/input/trace_text.c; both through lib/util/ahead.c) under ThreadSanitizer: the unit
# suites that decode Perfetto and text with two threads, the fuzz corpora of both, and the
# CLI on the real Perfetto samples, each with the decoding thread on. Any report fails the
# check. Closes with "N passed, N failed".
set -u
BUILD=${1:-build-tsan}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SAMPLES=${GFXSTAT_SAMPLES:-$ROOT/../shared/samples}
TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
GFXSTAT_THREADS=2
export TSAN_OPTIONS GFXSTAT_THREADS
PASS=0
FAIL=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gfxstat-tsan.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# check NAME CMD...: CMD must exit 0 with no ThreadSanitizer report
check() {
	name=$1
	shift
	if "$@" > "$TMP/out" 2>&1 && ! grep -q "ThreadSanitizer" "$TMP/out"; then
		PASS=$((PASS + 1))
	else
		FAIL=$((FAIL + 1))
		echo "FAIL: $name"
		grep -A 30 "ThreadSanitizer" "$TMP/out" | head -40
	fi
}

for suite in test_perfetto_sched_merge test_perfetto_sched test_perfetto test_perfetto_spill \
	test_trace_ahead; do
	check "unit $suite" "$BUILD/test_unit" "$suite"
done
for t in perfetto perfetto_sched trace_ahead; do
	check "replay $t" "$BUILD/replay_$t" "$ROOT/fuzz/corpus/$t"/*
done
found=0
for f in "$SAMPLES"/perfetto/*/*; do
	[ -f "$f" ] || continue
	found=1
	check "analyze $f" "$BUILD/gfxstat" analyze --all "$f"
	check "frames $f" "$BUILD/gfxstat" frames -o "$TMP/frames.csv" "$f"
done
[ "$found" = 1 ] || echo "skip: no Perfetto samples under $SAMPLES/perfetto (set GFXSTAT_SAMPLES)"
# ftrace text of 3 MB: blocks of lines parsed on the thread (from the file, and from a pipe)
if "$BUILD/gfxsim" --seed 7 --hz 60 --apps 2 --sched-noise 5 --size 3000000 \
	-o "$TMP/sim.trace" > "$TMP/out" 2>&1; then
	check "analyze text" "$BUILD/gfxstat" analyze "$TMP/sim.trace"
	check "analyze text (pipe)" sh -c '"$0" analyze --json - < "$1"' "$BUILD/gfxstat" \
		"$TMP/sim.trace"
else
	FAIL=$((FAIL + 1))
	echo "FAIL: gfxsim: $(head -c 300 "$TMP/out")"
fi
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
