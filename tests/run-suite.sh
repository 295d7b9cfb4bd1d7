#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs some suites of tests/suites alone, with the same helpers as tests/run.sh, while working
# on one part: BUILD=build sh tests/run-suite.sh 87 88   (names start so).
# Closes with "N passed, N failed"; make check runs everything.
set -u
LC_ALL=C
export LC_ALL
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
GFXSTAT=$BUILD/gfxstat
GFXSIM=$BUILD/gfxsim
SAMPLES=${GFXSTAT_SAMPLES:-$ROOT/../shared/samples}
ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=87:print_stacktrace=1}
export ASAN_OPTIONS UBSAN_OPTIONS
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gfxstat-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
PASS=0
FAIL=0
SKIP=0
pass() { PASS=$((PASS + 1)); }
fail() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
skip() { SKIP=$((SKIP + 1)); echo "skip: $*"; }
section() { echo "== $*"; }
for want in "$@"; do
	for suite in "$ROOT"/tests/suites/"$want"*.sh; do
		[ -f "$suite" ] || continue
		section "suite $(basename "$suite" .sh)"
		. "$suite"
	done
done
echo
[ $SKIP -gt 0 ] && echo "($SKIP groups skipped, see 'skip:' lines above)"
echo "$PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
