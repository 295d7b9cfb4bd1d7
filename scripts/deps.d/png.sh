#!/bin/sh
# SPDX-License-Identifier: MIT
# libpng, for the report's screenshot thumbnails (lib/report/png_thumb.c, mk/png.mk; the
# runtime library libpng16-16 comes with it). Pinned to Debian bookworm's build; when the
# archive has moved on, the same package's current Debian build is taken instead.
# Run as root by scripts/deps.sh; quiet when everything is there.
set -u
need=""
[ -f /usr/include/png.h ] || need="$need libpng-dev=1.6.39-2+deb12u6"
. "$(dirname "$0")/../apt-need.sh"
# shellcheck disable=SC2086
apt_need "png" $need
