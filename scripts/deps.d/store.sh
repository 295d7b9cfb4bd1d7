#!/bin/sh
# SPDX-License-Identifier: MIT
# The history store (gfxstat compare --save, gfxstat history/trend): SQLite and libpq headers
# for the build; a PostgreSQL server for tests/suites/88-store.sh, which starts its own in a
# temporary folder; xmllint to validate the gates' JUnit XML (tests/suites/87-compare.sh).
# Debian packages only, installed when missing; quiet when all is there.
set -u
need=""
[ -f /usr/include/sqlite3.h ] || need="$need libsqlite3-dev"
[ -f /usr/include/postgresql/libpq-fe.h ] || need="$need libpq-dev"
ls /usr/lib/postgresql/*/bin/initdb > /dev/null 2>&1 || need="$need postgresql"
command -v xmllint > /dev/null 2>&1 || need="$need libxml2-utils"
[ -z "$need" ] && exit 0
echo "gfxstat: installing (history store):$need" >&2
if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null 2>&1; then
	echo "gfxstat: error: missing packages:$need; install them with: apt-get install$need" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
apt-get install -y -q $need > /dev/null 2>&1 ||
	{ apt-get update -q > /dev/null 2>&1 && apt-get install -y -q $need > /dev/null; } || {
	echo "gfxstat: error: apt-get could not install:$need" >&2
	exit 1
}
