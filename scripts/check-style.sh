#!/bin/sh
# SPDX-License-Identifier: MIT
# House-style checks (STYLE.md) that a machine can make: SPDX first line, <= 100 columns,
# tab indentation, no banned string functions, and a library that never prints or exits.
# Prints one line per problem; exits 1 if there was any.
set -u
cd "$(dirname "$0")/.."
bad=0
report() { echo "style: $*"; bad=1; }
# "N:line" for lines that are not comments (a rough cut: whole-line comments only)
code() { awk '!/^[ \t]*(\/\*|\*)/ { print NR ":" $0 }' "$1"; }
files=$(git ls-files '*.c' '*.h' 2> /dev/null || find . -name '*.[ch]')
for f in $files; do
	head -n 1 "$f" | grep -q 'SPDX-License-Identifier' || report "$f:1: no SPDX line"
	awk -v f="$f" 'length($0) > 100 { printf "style: %s:%d: %d columns\n", f, NR, length($0); e = 1 }
		/^    / { printf "style: %s:%d: indented with spaces\n", f, NR; e = 1 }
		END { exit e }' "$f" || bad=1
	code "$f" | grep -E '(^|[^a-z_])(sprintf|vsprintf|strcpy|strcat|gets|atoi|atol)\(' |
		sed "s|^|style: $f:|; s|$| (banned function)|" | grep . && bad=1
done
for f in $(echo "$files" | tr ' ' '\n' | grep '^lib/'); do
	code "$f" | grep -E '(^|[^a-z_])(printf|fprintf|puts|fputs|perror|exit|abort|getenv)\(' |
		sed "s|^|style: $f:|; s|$| (the library never prints or exits)|" | grep . && bad=1
done
exit $bad
