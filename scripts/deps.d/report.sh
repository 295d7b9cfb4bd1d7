#!/bin/sh
# SPDX-License-Identifier: MIT
# gfxstat report (mk/report.mk, tests/suites/85-report.sh): Node.js and npm from Debian when
# missing, the pinned charting library (uPlot) and browser driver (playwright-core, which
# never downloads a browser here: the tests point it at Debian's chromium) from
# report/package-lock.json with npm ci, and Debian's chromium for the tests.
# Run as root by scripts/deps.sh; quiet when everything is there.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
need=""
command -v node > /dev/null 2>&1 || need="$need nodejs"
command -v npm > /dev/null 2>&1 || need="$need npm"
[ -x /usr/bin/chromium ] || need="$need chromium"
. "$(dirname "$0")/../apt-need.sh"
# shellcheck disable=SC2086
apt_need "report" $need || exit 1
# npm ci only when what is installed is not what the lock file pins
lock=$root/report/package-lock.json
stamp=$root/report/node_modules/.package-lock.json
if [ ! -f "$stamp" ] || ! cmp -s "$lock" "$root/report/node_modules/.gfxstat-lock"; then
	echo "gfxstat: npm ci in report/ (uPlot, playwright-core)" >&2
	(cd "$root/report" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund \
		--loglevel=error > /dev/null) || { echo "gfxstat: error: npm ci failed" >&2; exit 1; }
	cp "$lock" "$root/report/node_modules/.gfxstat-lock"
fi
exit 0
