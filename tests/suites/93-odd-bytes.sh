# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: inputs in unusual byte forms, and damaged values, each a regression
# test. Lines that end in CR only and UTF-16 without a byte-order mark were refused with "no
# frame source found (ftrace-text is not ftrace text ...)": they are read now, and what is
# still refused is described as what it is. --latency values near INT64_MAX overflowed the
# model (UBSan) and dropped the wrong frame: they are damage, counted, exit 3. A frame years
# after the others no longer makes a per-second series of billions of windows.

c93=$TMP/c93
mkdir -p "$c93"
"$GFXSIM" --seed 5 --hz 60 --duration 2 -o "$c93/lf.trace" 2> /dev/null
"$GFXSTAT" frames -q "$c93/lf.trace" > "$c93/lf.csv" 2> /dev/null

# the same trace with CR-only line ends: the same frames
tr '\n' '\r' < "$c93/lf.trace" > "$c93/cr.trace"
"$GFXSTAT" frames -q "$c93/cr.trace" > "$c93/cr.csv" 2> "$c93/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$c93/lf.csv" ] && cmp -s "$c93/lf.csv" "$c93/cr.csv" && pass ||
	fail "odd bytes: CR-only line ends: exit $rc, $(wc -l < "$c93/cr.csv") rows (want" \
		"$(wc -l < "$c93/lf.csv")): $(head -c 300 "$c93/err")"
# and in UTF-16 without a byte-order mark, little- and big-endian
if command -v iconv > /dev/null 2>&1; then
	for c93_e in UTF-16LE UTF-16BE; do
		iconv -f UTF-8 -t $c93_e < "$c93/lf.trace" > "$c93/u16.trace"
		"$GFXSTAT" frames -q "$c93/u16.trace" > "$c93/u16.csv" 2> "$c93/err"
		rc=$?
		[ $rc -eq 0 ] && cmp -s "$c93/lf.csv" "$c93/u16.csv" && pass ||
			fail "odd bytes: $c93_e without a byte-order mark: exit $rc:" \
				"$(head -c 300 "$c93/err")"
	done
	# UTF-16 that is not mostly ASCII (CJK) cannot be told without its mark: refused, and
	# the message says what the bytes look like instead of contradicting itself
	c93_cjk='\344\270\255\346\226\207'
	printf "$c93_cjk$c93_cjk$c93_cjk$c93_cjk$c93_cjk$c93_cjk\n# $c93_cjk\n" |
		iconv -f UTF-8 -t UTF-16LE > "$c93/u16x.txt"
	"$GFXSTAT" analyze "$c93/u16x.txt" > /dev/null 2> "$c93/err"
	rc=$?
	[ $rc -eq 3 ] && grep -q 'no frame source found' "$c93/err" && ! grep -q 'is not ftrace' \
		"$c93/err" && grep -q 'NUL bytes' "$c93/err" && pass ||
		fail "odd bytes: UTF-16 with NUL bytes: exit $rc: $(head -c 400 "$c93/err")"
else
	skip "odd bytes: no iconv for the UTF-16 forms"
fi
# a --latency dump with CR-only line ends: its 4 frames
printf '16666667\r1000000000 1000000000 999000000\r1016666667 1016666667 1015666667\r'\
'1033333334 1033333334 1032333334\r1050000001 1050000001 1049000001\r' > "$c93/lat-cr.txt"
n=$("$GFXSTAT" frames -q "$c93/lat-cr.txt" 2> /dev/null | tail -n +2 | wc -l)
[ "$n" -eq 4 ] && pass || fail "odd bytes: a CR-only --latency dump gives $n frames, not 4"
# text that is no frame source: said as read, not "ftrace-text is not ftrace text"
printf '# notes\rnothing here\r' > "$c93/notes.txt"
"$GFXSTAT" analyze "$c93/notes.txt" > /dev/null 2> "$c93/err"
rc=$?
[ $rc -eq 3 ] && grep -q 'read as ftrace-text, 2 lines, none an ftrace event' "$c93/err" &&
	grep -q 'end in CR only' "$c93/err" && pass ||
	fail "odd bytes: CR-only notes: exit $rc: $(head -c 400 "$c93/err")"

# --latency rows near INT64_MAX: damage, counted and said, exit 3; the good frames stay and
# none is dropped as "within 3/4 of a vsync" (the overflowed test did that)
printf '16666667\n1000000000 1000000000 1000000000\n1016666667 1016666667 1016666667\n'\
'9223372036854775000 9223372036854775000 9223372036854775000\n'\
'9223372036854775100 9223372036854775100 9223372036854775100\n' > "$c93/lat-max.txt"
"$GFXSTAT" frames "$c93/lat-max.txt" > "$c93/out.csv" 2> "$c93/err"
rc=$?
n=$(tail -n +2 "$c93/out.csv" | wc -l)
[ $rc -eq 3 ] && [ "$n" -eq 2 ] && grep -q '2 frames with a time beyond any clock' "$c93/err" &&
	! grep -q 'within 3/4 of a vsync' "$c93/err" && pass ||
	fail "odd bytes: --latency rows near INT64_MAX: exit $rc, $n frames: $(head -c 400 "$c93/err")"
# a period line near INT64_MAX: the rows are read at the period in force, the line counted
printf '9223372036854775806\n1000000000 1000000000 1000000000\n'\
'1016666667 1016666667 1016666667\n1033333333 1033333333 1033333333\n' > "$c93/lat-p.txt"
"$GFXSTAT" frames "$c93/lat-p.txt" > "$c93/out.csv" 2> "$c93/err"
rc=$?
n=$(tail -n +2 "$c93/out.csv" | wc -l)
[ $rc -eq 3 ] && [ "$n" -eq 3 ] && grep -q '1 period lines over 2^40 ns' "$c93/err" && pass ||
	fail "odd bytes: a --latency period near INT64_MAX: exit $rc, $n frames:" \
		"$(head -c 400 "$c93/err")"
# nothing but damage: said so, not "the layer name did not match"
printf '16666667\n9223372036854775000 9223372036854775000 9223372036854775000\n' \
	> "$c93/lat-all.txt"
"$GFXSTAT" analyze "$c93/lat-all.txt" > /dev/null 2> "$c93/err"
rc=$?
[ $rc -eq 3 ] && grep -q 'no frames: the 1 it holds are damaged' "$c93/err" && pass ||
	fail "odd bytes: a --latency dump of damage only: exit $rc: $(head -c 400 "$c93/err")"

# one frame 28 years after the others (a time the model still takes): the per-second series
# had 900 million empty windows, 7 GB: out of memory on a 4 KB trace, then a crash reading
# layers never computed. Now the series stops at its limit; 2 GB of address space is plenty
if [ -f "$ROOT/tests/golden/inputs/keys.trace" ]; then
	(cat "$ROOT/tests/golden/inputs/keys.trace"
		tail -n 5 "$ROOT/tests/golden/inputs/keys.trace" |
			sed 's/ 30[0-9]\.\([0-9]*\):/ 900000000.\1:/') > "$c93/far.trace"
	if grep -q -e __asan_init -e __ubsan_handle "$GFXSTAT" 2> /dev/null; then
		"$GFXSTAT" analyze --json "$c93/far.trace" > "$c93/far.json" 2> "$c93/err"
	else
		(ulimit -v 2000000; "$GFXSTAT" analyze --json "$c93/far.trace") > "$c93/far.json" \
			2> "$c93/err"
	fi
	rc=$?
	[ $rc -eq 0 ] && grep -q '"window_fps":\[' "$c93/far.json" && pass ||
		fail "odd bytes: a frame 28 years on: exit $rc: $(head -c 300 "$c93/err")"
fi
