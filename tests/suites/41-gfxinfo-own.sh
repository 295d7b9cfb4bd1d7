# SPDX-License-Identifier: MIT
# dumpsys gfxinfo before framestats (issue "decisions and numbers that hold on every input",
# items 3 to 5): Android's own summary shown beside the table's figure, Android 4.1-4.4's
# three-column profile table, hints that hold, and a header of no release's length. The
# dumps are made here from the print statements they come from. Sourced by tests/run.sh.
go=$TMP/gfxinfo-own
mkdir -p "$go"

# Android 7 (ProfileData::dump, then the "Draw Prepare Process Execute" table of hwui's
# FrameInfoVisualizer::dumpData): the process summary says 262 janky of 402 frames
# (262 / 402 = 65.17 %); the table holds 106 rows, 104 of 2.00 + 0.50 + 5.00 + 1.50 = 9.00 ms
# and rows 40 and 80 of 8.00 + 0.50 + 7.00 + 1.50 = 17.00 ms, over hwui's 16 ms: janky 2 of
# 106 (1.89 %). analyze must show both, each labelled; JSON carries the summary on the app.
{
	printf 'Applications Graphics Acceleration Info:\nUptime: 5212345 Realtime: 5212345\n\n'
	printf '** Graphics info for pid 3310 [com.example.feed] **\n\n'
	printf 'Stats since: 5100000000000ns\nTotal frames rendered: 402\n'
	printf 'Janky frames: 262 (65.17%%)\n50th percentile: 19ms\n90th percentile: 40ms\n'
	printf '95th percentile: 53ms\n99th percentile: 101ms\nNumber Missed Vsync: 40\n'
	printf 'Number High input latency: 3\nNumber Slow UI thread: 120\n'
	printf 'Number Slow bitmap uploads: 5\nNumber Slow issue draw commands: 90\n\n'
	printf 'Caches:\nCurrent memory usage / total memory usage (bytes):\n'
	printf '  TextureCache          2313472 / 75497472\n\nProfile data in ms:\n\n'
	printf '\tcom.example.feed/com.example.feed.MainActivity/android.view.ViewRootImpl@5d2e0f1 (visibility=0)\n'
	printf '\tDraw\tPrepare\tProcess\tExecute\n'
	awk 'BEGIN { for (i = 1; i <= 106; i++)
		if (i == 40 || i == 80) printf "\t8.00\t0.50\t7.00\t1.50\n"
		else printf "\t2.00\t0.50\t5.00\t1.50\n" }'
	printf '\nView hierarchy:\n\n'
} > "$go/a7.txt"
"$GFXSTAT" analyze -q "$go/a7.txt" > "$go/a7.out" 2> "$go/err"
if grep -q '^  frames 106 with no present time: FPS n/a; janky 2 (1.89%)$' "$go/a7.out" &&
	grep -q '^  android   janky 262 of 402 frames (65.17%): the dump' "$go/a7.out" &&
	[ "$(grep -c '^  android   janky 262 of 402' "$go/a7.out")" -eq 1 ]; then pass; else
	fail "analyze: an Android 7 dump's own summary (262 of 402) beside the table's (2 of 106)"
	head -n 6 "$go/a7.out"
fi
"$GFXSTAT" analyze -q --json "$go/a7.txt" > "$go/a7.json" 2> "$go/err"
if grep -q '"layer":null,"app":"com.example.feed".*"android_summary":{"frames":402,"janky":262}[,}]' \
	"$go/a7.json" && [ "$(grep -c android_summary "$go/a7.json")" -eq 1 ]; then pass; else
	fail "analyze --json: android_summary on the app, from the process's summary"
fi

# Android 4.1-4.4 (core/java/android/view/HardwareRenderer.java, GlRenderer.dumpGfxInfo):
# "\n\t<window>" with no "(visibility=N)", then "\tDraw\tProcess\tExecute" and three values a
# row. Rows: 1.52 + 6.03 + 0.71 = 8.26, 9.10 + 7.20 + 0.40 = 16.70 (over 16 ms: janky),
# 2.00 + 3.00 + 1.00 = 6.00 ms. No summary: Android 4 prints none.
W41=com.example.list/com.example.list.MainActivity/android.view.ViewRootImpl@41a5c3e8
{
	printf 'Applications Graphics Acceleration Info:\nUptime: 2045678 Realtime: 2045678\n\n'
	printf '** Graphics info for pid 2150 [com.example.list] **\n\n'
	printf 'Caches:\nCurrent memory usage / total memory usage (bytes):\n'
	printf '  TextureCache           1240000 / 25165824\nTotal memory usage:\n'
	printf '  2048000 bytes, 1.95 MB\n\nProfile data in ms:\n\n\t%s\n' "$W41"
	printf '\tDraw\tProcess\tExecute\n\t1.52\t6.03\t0.71\n\t9.10\t7.20\t0.40\n'
	printf '\t2.00\t3.00\t1.00\n\nView hierarchy:\n\n  %s\n' "$W41"
	printf '  31 views, 12.34 kB of display lists, 240 frames rendered\n\n'
	printf 'Total ViewRootImpl: 1\nTotal Views:        31\nTotal DisplayList:  12.34 kB\n'
} > "$go/a41.txt"
if "$GFXSTAT" analyze -q "$go/a41.txt" > "$go/a41.out" 2> "$go/err" &&
	grep -q "^layer $W41  (app com.example.list)\$" "$go/a41.out" &&
	grep -q '^  frames 3 with no present time: FPS n/a; janky 1 (33.33%)$' "$go/a41.out" &&
	grep -q '^  work ms   p50 8.3  p90 16.7  p99 16.7  max 16.7 ' "$go/a41.out"; then pass; else
	fail "analyze: Android 4.1-4.4's 'Draw Process Execute' table is read (3 frames, 1 janky)"
	cat "$go/err" "$go/a41.out" | head -n 8
fi
if "$GFXSTAT" gfxinfo -q "$go/a41.txt" > "$go/a41.gi" 2> "$go/err" &&
	grep -q "^Window: $W41\$" "$go/a41.gi" &&
	grep -q "^'Draw Process Execute' (Android 4.1-4.4, no Prepare) table: 3 rows" "$go/a41.gi" &&
	grep -q '^  1 of them over 16 ms' "$go/a41.gi"; then pass; else
	fail "gfxinfo: the three-column table, its window and its one row over 16 ms"
	cat "$go/err" "$go/a41.gi" | head -n 8
fi

# A hint that names 'gfxstat gfxinfo FILE' must be true: that command then succeeds. A
# summary with no rows (6.0+ without framestats) has one to show; an Android 4 dump with
# profiling off has neither summary nor table, so its hints say how to get frame times.
grep -v '^	' "$go/a41.txt" > "$go/a41-off.txt"
awk '/^Caches:/ { exit } { print }' "$go/a7.txt" > "$go/a7-summary.txt"
for f in a41-off a7-summary; do
	"$GFXSTAT" analyze "$go/$f.txt" > /dev/null 2> "$go/$f.err"
	arc=$?
	"$GFXSTAT" gfxinfo "$go/$f.txt" > /dev/null 2> "$go/$f.gerr"
	grc=$?
	if [ "$arc" -eq 3 ] && { ! grep -q "'gfxstat gfxinfo" "$go/$f.err" || [ "$grc" -eq 0 ]; } &&
		{ [ "$grc" -eq 0 ] || grep -q 'debug.hwui.profile' "$go/$f.gerr"; } &&
		{ grep -q "'gfxstat gfxinfo" "$go/$f.err" || grep -q 'debug.hwui.profile' "$go/$f.err"; }
	then pass; else
		fail "$f: analyze's hint holds (analyze $arc, gfxinfo $grc)"
		cat "$go/$f.err" "$go/$f.gerr"
	fi
done

# fuzz_gfxinfo's finding (fuzz/corpus/gfxinfo/g-odd-header): a header of no release's length
# and no summary gave a row a duration and Flags but no verdict. Its columns name Flags,
# IntendedVsync and FrameCompleted only: the 6.0-7.0 tracker (addFrame), whose interval is
# 16.67 ms with no IntendedVsync step; the row takes 10 - 1 = 9 ns: counted, not janky.
tail -c +5 "$ROOT/fuzz/corpus/gfxinfo/g-odd-header" > "$go/odd.txt"
if "$GFXSTAT" gfxinfo -q --rows "$go/odd.txt" > "$go/odd.csv" 2> "$go/err" &&
	awk -F, 'NR == 2 && $6 == 0 && $12 == 9 { ok = 1 } END { exit !ok }' "$go/odd.csv" &&
	"$GFXSTAT" gfxinfo -q "$go/odd.txt" 2> /dev/null | grep -q 'Android 6.0-7.0 rules'; then pass; else
	fail "gfxinfo: a header of no release's length is judged by the release its columns name"
	cat "$go/err" "$go/odd.csv"
fi
