#!/bin/sh
# SPDX-License-Identifier: MIT
# make ci: the phone builds (arm64, armv7) under qemu against the host build first, so the
# suites that follow can use them too; then the whole suite, and again under ASan+UBSan; then
# the two-thread Perfetto decoding under ThreadSanitizer. The last line adds all runs up as
# "N passed, N failed" (the line CI reads).
set -u
MAKE=${MAKE:-make}
total_p=0
total_f=0
status=0
for target in android-check check asan tsan; do
	log=$(mktemp)
	$MAKE --no-print-directory "$target" 2>&1 | tee "$log"
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "ci: 'make $target' ended without a summary line (build failure?)"
		status=1
		total_f=$((total_f + 1))
	else
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
		total_p=$((total_p + p))
		total_f=$((total_f + f))
		[ "$f" -eq 0 ] || status=1
	fi
	rm -f "$log"
done
echo "$total_p passed, $total_f failed"
exit $status
