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
. "$(dirname "$0")/../apt-need.sh"
# shellcheck disable=SC2086
apt_need "man pages, completions" $need
