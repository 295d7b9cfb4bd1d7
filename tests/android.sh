#!/bin/sh
# SPDX-License-Identifier: MIT
# make android-check: the static ARM binaries of `make android` (build-android/{arm64,armv7})
# under qemu-user, against the host build, by tests/suites/80-android.sh (which tests/run.sh
# also sources, and skips when the binaries are absent). Here, where ARM testing was asked
# for, a run that could not compare both ABIs fails and says why instead of passing.
# Closes with "N passed, N failed"; exits non-zero if anything failed or was not tested.
set -u
LC_ALL=C
export LC_ALL
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
GFXSTAT=$BUILD/gfxstat
GFXSIM=$BUILD/gfxsim
SAMPLES=${GFXSTAT_SAMPLES:-$ROOT/../shared/samples}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gfxstat-android.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
PASS=0
FAIL=0
SKIP=0
pass() { PASS=$((PASS + 1)); }
fail() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
skip() { SKIP=$((SKIP + 1)); echo "skip: $*"; }

if [ ! -x "$GFXSTAT" ]; then
	fail "no host build at $GFXSTAT to compare with (make all)"
else
	echo "== suite 80-android"
	# shellcheck source=tests/suites/80-android.sh
	. "$ROOT/tests/suites/80-android.sh"
	for abi in arm64 armv7; do
		case " $a80_ran " in
		*" $abi "*) ;;
		*) fail "android $abi was not tested (see the skip line above)" ;;
		esac
	done
fi
echo
[ $SKIP -gt 0 ] && echo "($SKIP groups skipped, see 'skip:' lines above)"
echo "$PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
