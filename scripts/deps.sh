#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what the build and the tests need on a Debian machine, only what is missing.
# Build: a C compiler and make. Tests: awk (reference implementation), unzip (real samples),
# and the sanitizer runtimes that come with gcc. Run as root (CI and dev machines are).
set -u
need=""
have() { command -v "$1" > /dev/null 2>&1; }
have cc || need="$need gcc libc6-dev"
have make || need="$need make"
have awk || need="$need mawk"
have unzip || need="$need unzip"
# the real adb client for `gfxstat record`/`devices` (tests use tests/fake-adb instead)
have adb || need="$need adb"
have mkfifo || need="$need coreutils"
# mksh, the shell Android runs commands in: the device-shell quoting is proven on it too
have mksh || need="$need mksh"
# zlib for compressed traces (atrace -z, gzip, Perfetto compressed_packets)
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
# gcc ships libasan/libubsan/libtsan through libgcc-*-dev; check that sanitized links work
if have cc; then
	tmp=$(mktemp -d)
	printf 'int main(void){return 0;}\n' > "$tmp/t.c"
	v=$(cc -dumpversion | cut -d. -f1)
	if ! cc -fsanitize=address,undefined "$tmp/t.c" -o "$tmp/t" > /dev/null 2>&1; then
		need="$need libasan$( [ "$v" -ge 12 ] 2>/dev/null && echo 8 || echo 6) libubsan1"
	fi
	if ! cc -fsanitize=thread "$tmp/t.c" -o "$tmp/t" > /dev/null 2>&1; then
		need="$need libtsan$( [ "$v" -ge 11 ] 2>/dev/null && echo 2 || echo 0)"
	fi
	rm -rf "$tmp"
fi
# each feature's own dependencies (scripts/deps.d/*.sh), after the base set
run_parts() {
	for part in "$(dirname "$0")"/deps.d/*.sh; do
		[ -f "$part" ] || continue
		sh "$part" || exit 1
	done
}
. "$(dirname "$0")/apt-need.sh"
# shellcheck disable=SC2086
apt_need "build and tests" $need || exit 1
run_parts
