#!/bin/sh
# SPDX-License-Identifier: MIT
# The library's layering, read from the linker's view: which object of lib/ calls which. Each
# folder of lib/ may call only the folders listed for it below (the pipeline, bottom first):
#   util < model < input < produce < source < analysis < report, capture beside (uses source).
# Prints every call that goes elsewhere, and every pair of files in different folders that
# call each other; exits 1 if there was any. Usage: scripts/check-layers.sh [BUILD]
set -u
cd "$(dirname "$0")/.."
BUILD=${1:-${BUILD:-build}}
ls "$BUILD"/lib/*/*.o > /dev/null 2>&1 || {
	echo "layers: no objects in $BUILD/lib; build first (make)" >&2
	exit 2
}
NM=${NM:-nm}
{
	# "D <folder>/<file> <symbol>" for definitions, "U ..." for uses
	for o in "$BUILD"/lib/*/*.o; do
		rel=${o#"$BUILD"/lib/}
		$NM -g --defined-only "$o" | awk -v f="$rel" 'NF >= 3 { print "D", f, $3 }'
		$NM -u "$o" | awk -v f="$rel" 'NF >= 2 { print "U", f, $2 }'
	done
} | awk '
BEGIN {
	allow["util"] = ""
	allow["model"] = "util"
	allow["input"] = "util model"
	allow["produce"] = "util model input"
	allow["source"] = "util model input produce"
	allow["analysis"] = "util model input produce"
	allow["report"] = "util model input produce analysis"
	allow["capture"] = "util model input produce source"
	bad = 0
}
function dir(f) { sub(/\/.*/, "", f); return f }
$1 == "D" { def[$3] = $2; next }
$1 == "U" { use[++n] = $2; sym[n] = $3 }
END {
	for (d in allow) {
		split(allow[d], a, " ")
		for (k in a)
			ok[d, a[k]] = 1
	}
	for (i = 1; i <= n; i++) {
		if (!(sym[i] in def))
			continue # libc, zlib, libzip: outside the library
		from = use[i]; to = def[sym[i]]
		fd = dir(from); td = dir(to)
		if (fd == td)
			continue
		if (!(fd in allow)) {
			printf "layers: lib/%s is in no layer (add lib/%s to scripts/check-layers.sh)\n", from, fd
			bad = 1
			continue
		}
		if (!ok[fd, td]) {
			printf "layers: lib/%s calls %s of lib/%s (%s may use: %s)\n", from, sym[i], to, fd, allow[fd] == "" ? "nothing" : allow[fd]
			bad = 1
		}
		calls[from, to] = sym[i]
		pairs[++np] = from SUBSEP to
	}
	for (k = 1; k <= np; k++) {
		split(pairs[k], p, SUBSEP)
		if ((p[2], p[1]) in calls && p[1] < p[2] && !seen[p[1], p[2]]++) {
			printf "layers: lib/%s and lib/%s call each other (%s, %s)\n", p[1], p[2], calls[p[1], p[2]], calls[p[2], p[1]]
			bad = 1
		}
	}
	exit bad
}'
