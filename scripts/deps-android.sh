#!/bin/sh
# SPDX-License-Identifier: MIT
# Install what `make android` and `make android-check` need on Debian 12, only what is missing:
# the host build's own needs (scripts/deps.sh: the host gfxstat is the reference the ARM
# binaries are compared with), Debian's arm64 and armhf cross compilers, the targets' zlib (so
# the phone binary reads compressed traces too), and qemu user mode to run the ARM binaries
# here. binfmt is not needed: the tests call qemu explicitly.
#   scripts/deps-android.sh           for make android, make android-check
#   scripts/deps-android.sh --bench   also valgrind, for make bench-cost
# Run as root (CI and dev machines are). Prints nothing when all is there; exits 0 then.
set -eu
cd "$(dirname "$0")/.."
bench=0
case ${1:-} in
--bench) bench=1 ;;
"") ;;
*)
	echo "usage: scripts/deps-android.sh [--bench]" >&2
	exit 2
	;;
esac
have() { command -v "$1" > /dev/null 2>&1; }
die() {
	echo "gfxstat: error: $*" >&2
	exit 1
}
# the Debian architecture of a cross triplet
triplets="aarch64-linux-gnu:arm64 arm-linux-gnueabihf:armhf"
# libz.a where the cross gcc finds it: multiarch (/usr/lib/T, from zlib1g-dev:A) or the cross
# sysroot (/usr/T/lib, where this script puts it)
have_zlib() { [ -f "/usr/lib/$1/libz.a" ] || [ -f "/usr/$1/lib/libz.a" ]; }

sh scripts/deps.sh || die "scripts/deps.sh could not install the host build's needs"

need=""
have aarch64-linux-gnu-gcc || need="$need gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
have arm-linux-gnueabihf-gcc || need="$need gcc-arm-linux-gnueabihf libc6-dev-armhf-cross"
# Either flavour runs a static binary; tests/android.sh looks for both names.
if ! { have qemu-aarch64-static && have qemu-arm-static; } &&
	! { have qemu-aarch64 && have qemu-arm; }; then
	need="$need qemu-user-static"
fi
[ $bench = 1 ] && ! have valgrind && need="$need valgrind"
zneed=""
for ta in $triplets; do
	have_zlib "${ta%:*}" || zneed="$zneed $ta"
done
[ -z "$need$zneed" ] && exit 0

if [ "$(id -u)" != 0 ] || ! have apt-get; then
	[ -n "$zneed" ] && echo "gfxstat: error: no target zlib for:$zneed" >&2
	die "missing packages:$need; run this script as root on Debian to install them"
fi
export DEBIAN_FRONTEND=noninteractive
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log
ulog=$tmp/update.log

if [ -n "$need" ]; then
	echo "gfxstat: installing:$need" >&2
	# apt-get update exits non-zero when a single index is mid-sync on the mirror, though the
	# rest is usable; its messages are shown only if the install then fails
	# shellcheck disable=SC2086
	if ! apt-get install -y -q --no-install-recommends $need > "$log" 2>&1; then
		apt-get update -q > "$ulog" 2>&1 || :
		# shellcheck disable=SC2086
		apt-get install -y -q --no-install-recommends $need > "$log" 2>&1 || {
			grep '^[EW]:' "$ulog" >&2 || :
			tail -n 20 "$log" >&2
			die "apt-get could not install:$need"
		}
	fi
fi

# The targets' zlib: Debian has no zlib cross package, and installing zlib1g-dev:arm64 through
# multiarch drags in libc6-dev:arm64, libssl3:arm64, ... which must have exactly the host's
# versions (Multi-Arch: same), so it fails whenever the foreign lists lag the host (seen on
# bookworm), and from then on can hold back host upgrades. Instead, fetch Debian's
# zlib1g-dev:<arch> .deb with apt-get through package lists kept in a scratch folder (dpkg's
# architectures are left as they are) and copy its libz.a and headers into the cross sysroot
# /usr/<triplet>, which the cross gcc searches by default (the dpkg-cross layout).
if [ -n "$zneed" ]; then
	echo "gfxstat: installing zlib1g-dev for:$zneed (into /usr/<triplet>)" >&2
	mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/deb"
	set -- -q -o Dir::State::Lists="$tmp/lists" -o Dir::Cache="$tmp/cache" \
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User=root
	pkgs=""
	for ta in $zneed; do
		set -- "$@" -o APT::Architectures::="${ta#*:}"
		pkgs="$pkgs zlib1g-dev:${ta#*:}"
	done
	apt-get "$@" update > "$ulog" 2>&1 || :
	# shellcheck disable=SC2086
	(cd "$tmp/deb" && apt-get "$@" download $pkgs) > "$log" 2>&1 || {
		grep '^[EW]:' "$ulog" >&2 || :
		tail -n 5 "$log" >&2
		die "apt-get could not download:$pkgs"
	}
	for ta in $zneed; do
		t=${ta%:*}
		rm -rf "$tmp/x"
		dpkg-deb -x "$tmp"/deb/zlib1g-dev_*_"${ta#*:}".deb "$tmp/x" ||
			die "cannot unpack zlib1g-dev:${ta#*:}"
		[ -f "$tmp/x/usr/lib/$t/libz.a" ] || die "zlib1g-dev:${ta#*:} has no usr/lib/$t/libz.a"
		mkdir -p "/usr/$t/lib" "/usr/$t/include"
		cp "$tmp/x/usr/lib/$t/libz.a" "/usr/$t/lib/"
		cp "$tmp"/x/usr/include/z*.h "/usr/$t/include/"
	done
fi
