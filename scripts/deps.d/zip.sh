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
. "$(dirname "$0")/../apt-need.sh"
# shellcheck disable=SC2086
apt_need "zip" $need
