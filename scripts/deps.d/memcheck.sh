#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind, which tests/suites/92-memcheck.sh runs the real samples under (compare and
# analyze --janky: reads past a buffer, uninitialised values, leaks), and iconv (libc-bin),
# which tests/suites/93-odd-bytes.sh makes UTF-16 with. Pinned to Debian bookworm's builds;
# when the archive has moved on, the same package's current Debian build is taken instead.
# Run as root by scripts/deps.sh; quiet when everything is there.
set -u
need=""
command -v valgrind > /dev/null 2>&1 || need="$need valgrind=1:3.19.0-1"
command -v iconv > /dev/null 2>&1 || need="$need libc-bin"
. "$(dirname "$0")/../apt-need.sh"
# shellcheck disable=SC2086
apt_need "memcheck" $need
