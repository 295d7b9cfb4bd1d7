# SPDX-License-Identifier: MIT
# gfxstat gfxinfo on the real dumpsys gfxinfo samples in ../shared/samples/gfxinfo, checked
# against an independent awk implementation of hwui's Android 12+ JankTracker/ProfileData
# (below), against the literal per-window values it gives (stated here, so a regression in
# either shows), and, where the 120-row ring holds every frame the dump counts, against
# Android's own summary. Sourced by tests/run.sh.

gx_dir=$TMP/gfxinfo
mkdir -p "$gx_dir"

# -- the independent reference ---------------------------------------------------------------
# One line per ---PROFILEDATA--- block:
#   window|rows|flagged|never finished|total|janky|janky legacy|p50|p90|p95|p99|
#   Missed Vsync|High input latency|Slow UI|Slow bitmap uploads|Slow issue draw|
#   Frame deadline missed|Frame deadline missed (legacy)
# Written from FORMATS.md 5.4/5.5, not from the C code: the bucket table as ranges, the
# percentile walk from the slow end, the legacy tracker on SwapBuffersCompleted with the
# row's FrameInterval and no dequeue forgiveness, the new tracker on GpuCompleted against
# the FrameDeadline as dumped (already bumped for stuffed frames). Rows whose
# FrameCompleted is 0 or more than an hour after IntendedVsync never finished: left out.
# Timestamps (~3e14 ns) are exact in awk's doubles (< 2^53).
gx_ref() {
	awk '
function bucket(ms,   k) {
	if (ms <= 5) return 0
	if (ms <= 31) return ms - 5
	if (ms <= 47) return 27 + int((ms - 32) / 2)
	if (ms <= 51) return 35
	if (ms <= 135) return 36 + int((ms - 52) / 4)
	if (ms < 200) return 57
	k = int((ms - 150) / 50); if (k > 96) k = 96
	return 57 + k
}
function label(i) {
	if (i <= 26) return i + 5
	if (i <= 34) return 32 + 2 * (i - 27)
	if (i == 35) return 48
	if (i <= 56) return 53 + 4 * (i - 36)
	return 150 + 50 * (i - 57)
}
function pct(p,   q, rem, i) {
	q = int(p * total / 100); rem = total - q
	for (i = 153; i >= 0; i--) { rem -= h[i]; if (rem <= 0) return label(i) }
	return 0
}
function dur(s, e,   g, off) {
	g = v[e] - v[s]; if (v[s] <= 0) g = 0
	if (pos[e] > pos["SyncQueued"] && pos[s] < pos["SyncQueued"]) {
		off = v["SyncStart"] - v["SyncQueued"]; if (off > 0) g -= off
	}
	return g > 0 ? g : 0
}
function cmp(s, e, thr,   d) { d = dur(s, e); return d >= thr && d < 1e10 }
function flush() {
	printf "%s|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d|%d\n", win, rows, flagged, inc,
		total, jank, legacy, pct(50), pct(90), pct(95), pct(99),
		c[0], c[1], c[2], c[3], c[4], c[5], c[6]
}
{ sub(/\r+$/, ""); sub(/^\357\273\277/, "") }
/^Window: / { win = substr($0, 9); next }
$0 == "---PROFILEDATA---" {
	if (inpd) { flush(); inpd = 0; next }
	inpd = 1; hdr = 0; rows = flagged = inc = total = jank = legacy = 0
	split("", h); split("", c); split("", pos); nfsu = -1; sdl = -1
	next
}
inpd && !hdr {
	hdr = 1; n = split($0, name, ",")
	for (i = 1; i <= n; i++) if (name[i] != "") pos[name[i]] = i
	if (pos["FrameStartTime"] == pos["FrameInterval"] + 1) {
		t = pos["FrameInterval"]; pos["FrameInterval"] = pos["FrameStartTime"]
		pos["FrameStartTime"] = t
	}
	next
}
inpd {
	rows++; split($0, f, ",")
	for (k in pos) v[k] = f[pos[k]] + 0
	if (v["Flags"] != 0) flagged++
	if (v["FrameCompleted"] <= 0 || v["FrameCompleted"] - v["IntendedVsync"] > 3600e9) { inc++; next }
	fi = v["FrameInterval"]
	td = dur("IntendedVsync", "SwapBuffersCompleted")
	if (td > 0 && int(v["Flags"] / 4) % 2 == 0) {
		if (td > fi) legacy++
		if (sdl < 0) sdl = v["IntendedVsync"] + fi
		tb = (sdl - v["IntendedVsync"]) > fi * 0.1
		sdl = sdl + fi > v["IntendedVsync"] + fi ? sdl + fi : v["IntendedVsync"] + fi
		if (v["FrameCompleted"] < sdl || td < fi) { if (tb) c[1]++ }
		else { c[6]++; sdl = v["FrameCompleted"] - (v["FrameCompleted"] - v["Vsync"]) % fi + fi }
	}
	td = dur("IntendedVsync", "FrameCompleted")
	if (td <= 0) next
	total++; h[bucket(int(td / 1e6))]++
	if (int(v["Flags"] / 4) % 2) next
	tb = (nfsu - v["IntendedVsync"]) > fi * 0.1
	if (v["GpuCompleted"] < v["FrameDeadline"]) { if (tb) { c[1]++; nfsu += fi } }
	else {
		c[5]++; jank++
		nfsu = v["GpuCompleted"] - (v["GpuCompleted"] - v["Vsync"]) % fi + fi
		if (cmp("IntendedVsync", "Vsync", 1)) c[0]++
		if (cmp("Vsync", "SyncStart", int(.5 * fi))) c[2]++
		if (cmp("SyncStart", "IssueDrawCommandsStart", int(.2 * fi))) c[3]++
		if (cmp("IssueDrawCommandsStart", "FrameCompleted", int(.75 * fi))) c[4]++
	}
}' "$1"
}

# gfxstat's --csv in the reference's layout (window blocks that have a PROFILEDATA block)
gx_csv() {
	tr -d '"' < "$1" | awk -F, 'NR > 1 && $3 == "window" && $6 > 0 {
		s = $4; for (i = 7; i <= 9; i++) s = s "|" $i
		for (i = 11; i <= 24; i++) s = s "|" $i
		print s }'
}

# Windows whose rows hold every frame the dump counts: recomputed fields vs the dump's.
gx_covered() {
	tr -d '"' < "$1" | awk -F, 'NR > 1 && $10 == "all" {
		a = b = ""; for (i = 11; i <= 24; i++) { a = a "|" $i; b = b "|" $(i + 14) }
		print $4 (a == b ? " EQUAL" : " DIFFERENT" a " / dump" b) }'
}

# -- expected values, per sample -------------------------------------------------------------
# Produced by gx_ref above (an implementation independent of lib/), and cross-checked
# during development by a third one (a Python model). Fields as in gx_ref.
# aNavMode (Android 14, 60 Hz): 13 windows. Seven of them (65, 79, 86, 116, 0, 19, 0 frames)
# fit in the ring: for those every recomputed field equals the dump's own summary (below).
gx_expect_anav='de.codevoid.andronavibar/de.codevoid.andronavibar.MainActivity|120|4|0|120|36|70|27|125|200|400|17|86|33|1|14|36|38
com.android.settings/com.android.settings.homepage.SettingsHomepageActivity|67|33|2|65|8|14|13|73|150|550|6|39|7|0|2|8|9
com.android.settings/com.android.settings.SubSettings|80|61|1|79|10|10|11|26|65|400|6|5|7|1|1|10|6
com.android.settings/com.android.settings.spa.SpaActivity|120|81|2|117|13|35|12|34|40|150|6|149|12|0|0|13|13
Taskbar|120|86|0|120|0|1|9|12|13|14|0|12|0|0|0|0|0
com.android.launcher3/com.android.quickstep.RecentsActivity|120|1|0|116|1|2|5|7|8|18|1|34|1|0|0|1|2
InputMethod|86|3|0|86|9|14|10|21|36|800|5|12|5|0|4|9|12
com.google.android.apps.docs/com.google.android.apps.docs.drive.app.navigation.NavigationActivity|117|36|1|116|20|30|17|101|250|650|10|137|18|0|13|20|18
ShellDropTarget|0|0|0|0|0|0|4950|4950|4950|4950|0|0|0|0|0|0|0
ScreenDecorOverlay|21|2|2|19|2|4|7|29|29|29|0|27|2|0|0|2|2
ScreenDecorOverlayBottom|0|0|0|0|0|0|4950|4950|4950|4950|0|0|0|0|0|0|0
NotificationShade|120|15|0|117|32|61|20|65|85|150|10|90|19|1|30|32|29
StatusBar|120|1|0|120|50|68|20|53|69|113|3|12|39|1|38|50|63'
gx_expect_anav_covered='com.android.settings/com.android.settings.homepage.SettingsHomepageActivity EQUAL
com.android.settings/com.android.settings.SubSettings EQUAL
InputMethod EQUAL
com.google.android.apps.docs/com.google.android.apps.docs.drive.app.navigation.NavigationActivity EQUAL
ShellDropTarget EQUAL
ScreenDecorOverlay EQUAL
ScreenDecorOverlayBottom EQUAL'
# Sound-to-Visualiation-Kotlin framestats.txt (120 Hz, UTF-8 BOM): 120 rows of 516 frames.
gx_expect_sound='com.soundvisualization.accessibility/com.soundvisualization.accessibility.MainActivity|120|0|0|120|10|59|10|13|53|77|5|197|10|0|5|10|5'

# Per window of --frames: presents strictly increase, no interval under 3/4 of the row's
# period, FPS (over the window's span, and over its active time as analyze counts it:
# intervals under 500 ms) at most 1.02 x the refresh rate; and the frames' own verdicts summed
# per window equal the recomputed summary of --csv (frames counted, janky, every "Number").
# Prints one line per problem.
gx_frames_check() { # gx_frames_check FRAMES.csv SUMMARY.csv
	tr -d '"' < "$2" | awk -F, 'NR > 1 && $3 == "window" && $7 > 0 {
		s = $11 "|" $12; for (i = 18; i <= 24; i++) s = s "|" $i; print $1 "," $4 "," s }' \
		> "$gx_dir/want.sum"
	# the reasons are names joined with ", " (then their raw bits): "|" to split them here
	tr -d '"' < "$1" | sed 's/, /|/g' | awk -F, '
	NR == 1 { next }
	{ k = $1 "," $3 }
	!(k in seen) { seen[k] = 1; keys[nk++] = k }
	{
		tot[k] += $6 >= 0; jank[k] += $6 == 1
		n = split($7, r, "|")
		for (i = 1; i <= n; i++) {
			m = 1; name = r[i]
			if (name ~ / x2$/) { m = 2; sub(/ x2$/, "", name) }
			cnt[k, name] += m
		}
	}
	$9 != "" {
		if (last[k] != "" && $9 + 0 <= last[k]) printf "%s: present %s not after %s\n", k, $9, last[k]
		if (last[k] != "" && $11 != "" && ($9 - last[k]) < 0.75 * $11)
			printf "%s: interval %d under 3/4 of %d\n", k, $9 - last[k], $11
		if (last[k] != "") {
			iv = $9 - last[k]
			if (iv < 500000000) { act[k] += iv; nact[k]++ }
		} else first[k] = $9
		last[k] = $9 + 0; np[k]++; per[k] = $11
	}
	END {
		split("Missed Vsync|High input latency|Slow UI thread|Slow bitmap uploads|" \
		      "Slow issue draw commands|Frame deadline missed|Frame deadline missed (legacy)", t, "|")
		for (j = 0; j < nk; j++) {
			k = keys[j]; s = tot[k] "|" jank[k]
			for (i = 1; i <= 7; i++) s = s "|" (cnt[k, t[i]] + 0)
			print k "," s > "'"$gx_dir/got.sum"'"
			if (np[k] > 1 && per[k] > 0) {
				hz = 1e9 / per[k]
				fps = (np[k] - 1) / ((last[k] - first[k]) / 1e9)
				if (fps > 1.02 * hz) printf "%s: %.1f FPS over %.1f Hz\n", k, fps, hz
				if (act[k] > 0 && nact[k] / (act[k] / 1e9) > 1.02 * hz)
					printf "%s: %.1f active FPS over %.1f Hz\n", k, nact[k] / (act[k] / 1e9), hz
			}
		}
	}'
	cmp -s "$gx_dir/want.sum" "$gx_dir/got.sum" || {
		echo "per-frame verdicts differ from the recomputed summary:"
		diff "$gx_dir/want.sum" "$gx_dir/got.sum" | head -6
	}
}

# analyze --json on the same input: per window layer, frames and janky-by-the-source equal
# the recomputed summary (one JankTracker, one set of counted frames).
gx_analyze_check() { # gx_analyze_check INPUT SUMMARY.csv
	"$GFXSTAT" analyze -q --json "$1" > "$gx_dir/an.json" 2> /dev/null
	tr -d '"' < "$2" | awk -F, 'NR > 1 && $3 == "window" && $11 > 0 { print $4 "|" $11 "|" $12 }' |
		sort > "$gx_dir/an.want"
	sed 's/{"layer":/\n&/g' "$gx_dir/an.json" | awk '/"kind":"layer"/ {
		name = $0; sub(/^\{"layer":"/, "", name); sub(/".*/, "", name)
		f = j = "-"
		if (match($0, /"frames":[0-9]+/)) f = substr($0, RSTART + 9, RLENGTH - 9)
		if (match($0, /"android":\{"judged":[0-9]+,"janky":[0-9]+/)) {
			j = substr($0, RSTART, RLENGTH); sub(/.*:/, "", j)
		}
		print name "|" f "|" j }' | sort > "$gx_dir/an.got"
	cmp -s "$gx_dir/an.want" "$gx_dir/an.got" || {
		echo "analyze and gfxinfo count differently:"
		diff "$gx_dir/an.want" "$gx_dir/an.got" | head -6
	}
}

gx_check_sample() { # gx_check_sample NAME FILE EXPECTED EXPECTED_COVERED
	name=$1 f=$2
	"$GFXSTAT" gfxinfo -q --csv "$f" > "$gx_dir/$name.csv" 2> "$gx_dir/$name.err"
	rc=$?
	gx_csv "$gx_dir/$name.csv" > "$gx_dir/$name.got"
	gx_ref "$f" > "$gx_dir/$name.ref"
	printf '%s\n' "$3" > "$gx_dir/$name.want"
	if [ $rc -eq 0 ] && cmp -s "$gx_dir/$name.got" "$gx_dir/$name.ref" &&
		cmp -s "$gx_dir/$name.ref" "$gx_dir/$name.want" && [ ! -s "$gx_dir/$name.err" ]; then
		pass
		echo "ok: $name: $(wc -l < "$gx_dir/$name.got") windows recomputed as the awk reference"
	else
		fail "gfxinfo sample $name: exit $rc"
		diff "$gx_dir/$name.want" "$gx_dir/$name.ref" | head -5
		diff "$gx_dir/$name.ref" "$gx_dir/$name.got" | head -5
		head -5 "$gx_dir/$name.err"
	fi
	gx_covered "$gx_dir/$name.csv" > "$gx_dir/$name.cov"
	if [ -z "$4" ] && [ ! -s "$gx_dir/$name.cov" ] ||
		[ "$(cat "$gx_dir/$name.cov")" = "$4" ]; then
		pass
	else
		fail "gfxinfo sample $name: windows that fit in the ring differ from the dump"
		cat "$gx_dir/$name.cov"
	fi
	# --frames: one CSV line per row, per window as many as the reference counts
	"$GFXSTAT" gfxinfo -q --frames "$f" > "$gx_dir/$name.frames"
	want=$(awk -F'|' '{ n += $2 } END { print n + 0 }' "$gx_dir/$name.ref")
	got=$(($(wc -l < "$gx_dir/$name.frames") - 1))
	if [ "$got" = "$want" ]; then pass; else
		fail "gfxinfo sample $name: --frames gave $got rows, want $want"
	fi
	# presents on one basis per window, and the frames carry the summary's verdicts
	out=$(gx_frames_check "$gx_dir/$name.frames" "$gx_dir/$name.csv")
	if [ -z "$out" ] && [ -s "$gx_dir/got.sum" ]; then pass; else
		fail "gfxinfo sample $name: presents or per-frame verdicts"
		printf '%s\n' "$out" | head -8
	fi
	out=$(gx_analyze_check "$f" "$gx_dir/$name.csv")
	if [ -z "$out" ] && [ -s "$gx_dir/an.got" ]; then pass; else
		fail "gfxinfo sample $name: analyze disagrees with gfxinfo"
		printf '%s\n' "$out" | head -8
	fi
	# the text report: no MISMATCH, and every dump summary's percentiles follow from its
	# own HISTOGRAM (an exact check of the bucket labels and the percentile walk)
	"$GFXSTAT" gfxinfo "$f" > "$gx_dir/$name.txt" 2> "$gx_dir/$name.txt.err"
	if grep -q 'MISMATCH' "$gx_dir/$name.txt" "$gx_dir/$name.txt.err"; then
		fail "gfxinfo sample $name: a MISMATCH in the report"
		grep -B3 'MISMATCH' "$gx_dir/$name.txt" | head -10
	else
		pass
	fi
}

if ! "$GFXSTAT" gfxinfo --help > /dev/null 2>&1; then
	skip "gfxinfo: the command is not registered in src/main.c"
else
	# -- small inputs: exit codes and encodings (no samples needed) -----------------------
	printf 'Applications Graphics Acceleration Info:\nUptime: 1 Realtime: 2\n' > "$gx_dir/empty.txt"
	"$GFXSTAT" gfxinfo "$gx_dir/empty.txt" > /dev/null 2> "$gx_dir/empty.err"
	rc=$?
	if [ $rc -eq 3 ] && grep -q 'no dumpsys gfxinfo summary' "$gx_dir/empty.err"; then pass; else
		fail "gfxinfo on a dump with no content: exit $rc, want 3"
	fi
	"$GFXSTAT" gfxinfo --frames --csv "$gx_dir/empty.txt" > /dev/null 2>&1
	rc=$?
	if [ $rc -eq 2 ]; then pass; else fail "gfxinfo --frames --csv: exit $rc, want 2"; fi
	"$GFXSTAT" gfxinfo "$gx_dir/missing.txt" > /dev/null 2>&1
	rc=$?
	if [ $rc -eq 3 ]; then pass; else fail "gfxinfo on a missing file: exit $rc, want 3"; fi

	# two summaries of one process in NuvioTV's format, 10 s apart (Uptime 89896149 and
	# 89906149 ms), same Stats since: (3503 - 2903) frames / 10.000 s = 60.00 FPS
	{
		printf 'Applications Graphics Acceleration Info:\nUptime: 89896149 Realtime: 1\n\n'
		printf '** Graphics info for pid 2062 [com.nuvio.tv] **\n\n'
		printf 'Stats since: 89732159635559ns\nTotal frames rendered: 2903\n\n'
	} > "$gx_dir/pair1.txt"
	sed -e 's/89896149/89906149/' -e 's/2903/3503/' "$gx_dir/pair1.txt" > "$gx_dir/pair2.txt"
	if "$GFXSTAT" gfxinfo "$gx_dir/pair1.txt" "$gx_dir/pair2.txt" 2> /dev/null |
		grep -q '^Since the previous dump: 600 frames in 10.000 s: 60.00 FPS'; then pass; else
		fail "gfxinfo: FPS between two summaries"
	fi
	# --format json after the inputs: the common header (two gfxinfo inputs, no frames: no
	# refresh, no span), then each summary; what the dump does not say is null, never -1
	"$GFXSTAT" gfxinfo "$gx_dir/pair1.txt" "$gx_dir/pair2.txt" --format json \
		> "$gx_dir/pair.json" 2> /dev/null
	rc=$?
	one=$(tr -d '\n' < "$gx_dir/pair.json")
	b1=$(wc -c < "$gx_dir/pair1.txt" | tr -d ' ')
	if [ $rc -eq 0 ] && echo "$one" | grep -q '^{"header":{[^{]*"command":"gfxinfo","inputs":\[{"path":"[^"]*pair1.txt","format":"gfxinfo","containers":\[\],"bytes":'"$b1"'},{"path":"[^"]*pair2.txt","format":"gfxinfo","containers":\[\],"bytes":'"$b1"'}\],.*"refresh":\[\],"span":null},"blocks":\[{"pid":2062,"app":"com.nuvio.tv","kind":"process","layer":null,' &&
		echo "$one" | grep -q '"recomputed":null,"dump":{"total":2903,"janky":null,"janky_legacy":null,"percentile_ms":{"p50":null,' &&
		echo "$one" | grep -q '"dump":{"total":3503,' && ! echo "$one" | grep -q -- '-1'
	then pass; else
		fail "gfxinfo --format json after the inputs: exit $rc"
		head -c 600 "$gx_dir/pair.json"
	fi
	# the CSV line: unknown is empty, never -1
	"$GFXSTAT" gfxinfo -q --format csv "$gx_dir/pair1.txt" | tail -n 1 |
		grep -q '^2062,"com.nuvio.tv",process,"",[^,]*,0,0,0,0,none,,,,,,,,,,,,,,,2903,,,,,,,,,,,,,$' &&
		pass || fail "gfxinfo --format csv: unknown fields are not empty"

	if [ ! -d "$SAMPLES/gfxinfo" ]; then
		skip "gfxinfo samples: $SAMPLES/gfxinfo is absent"
	else
		f=$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt
		if [ -f "$f" ]; then
			gx_check_sample anav "$f" "$gx_expect_anav" "$gx_expect_anav_covered"
			# 47 processes, 1091 rows of which 323 have non-zero Flags (kept and counted)
			"$GFXSTAT" gfxinfo "$f" 2>&1 > /dev/null | grep -q \
				'47 processes, 61 blocks, 1091 framestats rows (323 with non-zero Flags)' &&
				pass || fail "gfxinfo aNavMode: process/row counts"
		else
			skip "gfxinfo sample aNavMode/gfxinfo.txt is absent"
		fi
		f=$SAMPLES/gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt
		if [ -f "$f" ]; then
			gx_check_sample sound "$f" "$gx_expect_sound" ""
			# the same file as UTF-16LE with a BOM and CRLF gives the same report
			if command -v iconv > /dev/null; then
				{ printf '\377\376'; sed 's/$/\r/' "$f" |
					iconv -f UTF-8 -t UTF-16LE; } > "$gx_dir/sound16.txt"
				"$GFXSTAT" gfxinfo -q --csv "$gx_dir/sound16.txt" > "$gx_dir/sound16.csv"
				if cmp -s "$gx_dir/sound16.csv" "$gx_dir/sound.csv"; then pass; else
					fail "gfxinfo: UTF-16LE copy of framestats.txt differs"
				fi
			else
				skip "gfxinfo UTF-16: iconv is not installed"
			fi
		else
			skip "gfxinfo sample framestats.txt is absent"
		fi
		f=$SAMPLES/gfxinfo/NuvioTV/gfxinfo.txt
		if [ -f "$f" ]; then
			# summary only (Android <= 11, no PROFILEDATA) and the legacy 120-row table
			"$GFXSTAT" gfxinfo "$f" > "$gx_dir/nuvio.txt" 2> /dev/null
			if grep -q '^Total frames rendered: 2903$' "$gx_dir/nuvio.txt" &&
				grep -q '^Janky frames: 772 (26.59%)$' "$gx_dir/nuvio.txt" &&
				grep -q "^'Draw Prepare Process Execute' table: 120 rows$" "$gx_dir/nuvio.txt" &&
				grep -q "the dump's 8 percentiles follow from its HISTOGRAM" "$gx_dir/nuvio.txt" &&
				grep -q "as frames they have no present times" "$gx_dir/nuvio.txt"
			then
				pass
			else
				fail "gfxinfo sample NuvioTV"
			fi
			# the 120 table rows are frames: no present, duration = the four stages
			"$GFXSTAT" gfxinfo -q --frames "$f" > "$gx_dir/nuvio.frames"
			if [ "$(tr -d '"' < "$gx_dir/nuvio.frames" | sed 's/, /|/g' |
				awk -F, 'NR > 1 && $9 == "" && $12 > 0' |
				wc -l)" = 120 ]; then pass; else
				fail "gfxinfo NuvioTV: the legacy table is not 120 untimed frames"
			fi
		else
			skip "gfxinfo sample NuvioTV/gfxinfo.txt is absent"
		fi
	fi
fi
