#!/bin/sh
# SPDX-License-Identifier: MIT
# libzip, for systrace .zip files read directly (lib/input/container_zip.c, mk/zip.mk), and
# zip, which the tests use to build archives. Pinned to Debian bookworm's builds; when the
# archive has moved on, the same package's current Debian build is taken instead.
# Run as root by scripts/deps.sh; quiet when everything is there.
set -u
need=""
[ -f /usr/include/zip.h ] || need="$need libzip-dev=1.7.3-1+b1"
command -v zip > /dev/null 2>&1 || need="$need zip=3.0-13"
[ -z "$need" ] && exit 0
echo "gfxstat: installing:$need" >&2
if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null 2>&1; then
	echo "gfxstat: error: missing:$need; install with: apt-get install$need" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
apt-get install -y -q $need > /dev/null 2>&1 ||
	{ apt-get update -q > /dev/null 2>&1 && apt-get install -y -q $need > /dev/null 2>&1; } ||
	apt-get install -y -q $(echo "$need" | sed 's/=[^ ]*//g') > /dev/null || {
	echo "gfxstat: error: apt-get could not install:$need" >&2
	exit 1
}
