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
. "$(dirname "$0")/../apt-need.sh"
# shellcheck disable=SC2086
apt_need "history store" $need
