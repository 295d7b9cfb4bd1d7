#!/bin/sh
# SPDX-License-Identifier: MIT
# The JSON Schema validator the suite checks every JSON output with (tests/suites/55-schema.sh):
# Ajv, pinned by tools/schema/package-lock.json and installed from it with npm ci. Node.js and
# npm come from Debian. Run as root by scripts/deps.sh; quiet when everything is there.
set -u
dir=$(cd "$(dirname "$0")/../../tools/schema" && pwd)
need=""
command -v node > /dev/null 2>&1 || need="$need nodejs"
command -v npm > /dev/null 2>&1 || need="$need npm"
. "$(dirname "$0")/../apt-need.sh"
# shellcheck disable=SC2086
apt_need "schema check" $need || exit 1

# the locked version, or a fresh npm ci when it is missing or another
want=$(awk '/"node_modules\/ajv": \{/ { f = 1 } f && /"version"/ { gsub(/[",]/, ""); print $2; exit }' \
		"$dir/package-lock.json")
have=$(awk '/"version"/ { gsub(/[",]/, ""); print $2; exit }' \
	"$dir/node_modules/ajv/package.json" 2> /dev/null)
[ -n "$want" ] && [ "$want" = "$have" ] && exit 0
echo "gfxstat: installing ajv $want (npm ci in tools/schema)" >&2
(cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error > /dev/null) || {
	echo "gfxstat: error: npm ci in tools/schema failed" >&2
	exit 1
}
