#!/bin/sh
# SPDX-License-Identifier: MIT
# help2man, which makes the man pages from the same text as --help (mk/install.mk), groff
# and man-db to check them, and zsh to check that the zsh completion loads. Pinned to
# Debian bookworm's builds; when the archive has moved on, the current build is taken.
# Run as root by scripts/deps.sh; quiet when everything is there.
set -u
need=""
command -v help2man > /dev/null 2>&1 || need="$need help2man=1.49.3"
command -v groff > /dev/null 2>&1 || need="$need groff-base=1.22.4-10"
command -v man > /dev/null 2>&1 || need="$need man-db=2.11.2-2"
command -v zsh > /dev/null 2>&1 || need="$need zsh=5.9-4+b15"
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
