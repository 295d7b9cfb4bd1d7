# SPDX-License-Identifier: MIT
# gfx computed from the per-frame model (the default; --awk is gfx.sh's own rule): a stopped
# live capture keeps its rows, earlier results survive an input gfx cannot read, and on real
# recordings every Surface of fps.csv is a layer `gfxstat frames` lists, with its frames.
# The hand-derived rows are golden cases (tests/golden/model-*, DERIVATION.md).
gm=$TMP/gfx-model
mkdir -p "$gm"
GM_IN=$ROOT/tests/golden/inputs/model.trace

# --- a live capture stopped by SIGINT: the final flush writes the open window -----------
mkfifo "$gm/pipe"
(cat "$GM_IN"; sleep 30) > "$gm/pipe" &
gm_writer=$!
"$GFXSTAT" gfx -f 0 -T 2 -F "$gm/live" - < "$gm/pipe" 2> "$gm/live.err" &
gm_reader=$!
n=0
# the first window closes at the StatusBar frame of 101.122211 (DERIVATION.md): 2 rows
while [ $n -lt 50 ] && [ "$(cat "$gm/live/fps.csv" 2> /dev/null | wc -l)" -lt 3 ]; do
	sleep 0.1
	n=$((n + 1))
done
sleep 0.5
kill -INT $gm_reader
wait $gm_reader
rc=$?
kill $gm_writer 2> /dev/null
wait $gm_writer 2> /dev/null
if [ $rc -eq 0 ] && cmp -s "$gm/live/fps.csv" "$ROOT/tests/golden/model-type2-f0/fps.csv" &&
	cmp -s "$gm/live/dropFrames.csv" "$ROOT/tests/golden/model-type2-f0/dropFrames.csv" &&
	grep -q 'stopped by SIGINT' "$gm/live.err"; then
	pass
else
	fail "gfx (model) stopped by SIGINT: exit $rc"
	cat "$gm/live.err" "$gm/live/fps.csv"
fi

# --- earlier results are replaced only once the input is recognised ---------------------
gm_old() { # gm_old DIR: results of an "earlier run"
	mkdir -p "$1"
	echo 'earlier fps' > "$1/fps.csv"
	echo 'earlier drops' > "$1/dropFrames.csv"
}
gm_kept() { # gm_kept DIR
	[ "$(cat "$1/fps.csv")" = 'earlier fps' ] &&
		[ "$(cat "$1/dropFrames.csv")" = 'earlier drops' ]
}
printf 'just some text\nthat no parser reads\n' > "$gm/text.txt"
printf '\0\1\2\3 binary \377\376' > "$gm/blob.bin"
for args in "$gm/missing.trace" "$gm/text.txt" "$gm/blob.bin" "--awk $gm/missing.trace" \
	"--awk $gm/text.txt" "--awk $gm/blob.bin"; do
	gm_old "$gm/keep"
	# shellcheck disable=SC2086
	"$GFXSTAT" gfx -q -T 1 -F "$gm/keep" $args 2> "$gm/keep.err"
	rc=$?
	if [ $rc -eq 3 ] && gm_kept "$gm/keep"; then pass; else
		fail "gfx $args: exit $rc (want 3), earlier fps.csv/dropFrames.csv must stay"
		cat "$gm/keep.err"
		head -3 "$gm/keep/fps.csv"
	fi
done
gm_pf=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
if [ -f "$gm_pf" ]; then
	# a Perfetto trace is not trace text: --awk cannot read it and must leave fps/ alone
	gm_old "$gm/keep"
	"$GFXSTAT" gfx --awk -q -T 1 -F "$gm/keep" "$gm_pf" 2> "$gm/keep.err"
	rc=$?
	if [ $rc -eq 3 ] && gm_kept "$gm/keep"; then pass; else
		fail "gfx --awk on a Perfetto trace: exit $rc, earlier results must stay"
	fi
else
	skip "gfx --awk on Perfetto: $gm_pf is absent"
fi
# a readable input replaces both (type 0: no dropFrames.csv stays from the earlier run)
gm_old "$gm/keep"
"$GFXSTAT" gfx -q -f 0 -F "$gm/keep" "$GM_IN" 2> "$gm/keep.err"
rc=$?
if [ $rc -eq 0 ] && cmp -s "$gm/keep/fps.csv" "$ROOT/tests/golden/model-type2-f0/fps.csv" &&
	[ ! -e "$gm/keep/dropFrames.csv" ]; then
	pass
else
	fail "gfx on a readable trace must replace fps.csv and remove dropFrames.csv: exit $rc"
fi

# --- real recordings: fps.csv surfaces and counts are those of `gfxstat frames` ----------
# gm_check INPUT NAME: every Surface of fps.csv is a layer of `frames` (never the display's
# own "(display)" refreshes) with the same app, and over its rows frames + wait times + 1
# (a layer's first frame opens it and has no interval) is the layer's frame count.
gm_check() {
	"$GFXSTAT" frames -q -o "$gm/$2.frames" "$1" 2> "$gm/$2.ferr"
	"$GFXSTAT" gfx -q -f 0 -F "$gm/$2" "$1" 2> "$gm/$2.gerr"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "gfx on $2: exit $rc"
		cat "$gm/$2.gerr"
		return
	fi
	if out=$(awk '
		# split one CSV line into f[1..n], "..." fields with "" inside
		function csv(line,   n, i, c, q, v) {
			n = 1; v = ""; q = 0
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (q) {
					if (c == "\"" && substr(line, i + 1, 1) == "\"") { v = v c; i++ }
					else if (c == "\"") q = 0
					else v = v c
				} else if (c == "\"") q = 1
				else if (c == ",") { f[n++] = v; v = "" }
				else v = v c
			}
			f[n] = v
			return n
		}
		FNR == 1 { next }
		FILENAME == ARGV[1] {
			csv($0)
			# display refreshes are not surfaces; frames without a present are left out
			if (f[1] ~ /_display$/ || f[5] == "") next
			count[f[2]]++; app[f[2]] = f[3]
			next
		}
		{
			csv($0)
			s = f[16]
			if (!(s in count)) { print "surface not a layer of frames: " s; bad = 1 }
			else if (f[15] != app[s]) { print "app " f[15] " != " app[s] " for " s; bad = 1 }
			if (f[14] != "0") { print "TX " f[14] " for " s; bad = 1 }
			got[s] += f[4] + f[8]
			rows++
		}
		END {
			for (s in got)
				if (got[s] + 1 != count[s]) {
					print s ": frames+waits+1 = " got[s] + 1 ", frames lists " count[s]
					bad = 1
				}
			if (!rows) { print "no rows"; bad = 1 }
			exit bad
		}' "$gm/$2.frames" "$gm/$2/fps.csv"); then
		pass
		echo "ok: gfx $2: $(($(wc -l < "$gm/$2/fps.csv") - 1)) rows, surfaces and counts as frames"
	else
		fail "gfx on $2 disagrees with gfxstat frames"
		echo "$out" | head -10
	fi
}
if [ ! -d "$SAMPLES" ]; then
	skip "gfx on real recordings: $SAMPLES is absent"
elif ! command -v unzip > /dev/null; then
	skip "gfx on real recordings: unzip is not installed (scripts/deps.sh installs it)"
else
	for z in "$SAMPLES"/systrace_html/Gracker-SystraceForBlog/*.zip; do
		[ -f "$z" ] || continue
		name=$(basename "$z" .zip)
		name=${name%.html}
		rm -rf "$gm/x"
		mkdir -p "$gm/x"
		unzip -q -o "$z" -d "$gm/x"
		gm_check "$(ls "$gm"/x/*.html | head -n 1)" "$name"
	done
	for f in "$SAMPLES"/systrace_html/catapult/android_systrace.html \
		"$SAMPLES"/perfetto/*/*.perfetto-trace \
		"$SAMPLES"/gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt \
		"$SAMPLES"/gfxinfo/aNavMode/gfxinfo.txt; do
		[ -f "$f" ] || continue
		gm_check "$f" "$(basename "$(dirname "$f")")-$(basename "$f")"
	done
fi
