# SPDX-License-Identifier: MIT
# Perfetto protobuf decoding (issue 3), sourced by tests/run.sh: perfetto-dump on the real
# Apache-2.0 sample (sidky/nowinandroid trace.perfetto-trace, Pixel 7 Pro, Android 13) must
# give the trace's own FrameTimeline counts per layer, per jank_type and per present_type,
# and its ftrace print events; then bad inputs must exit 3 without crashing.
#
# Where the expected counts come from (independent of the C decoder):
#   A 40-line Python 3 walker (below, pf_derive; no protobuf library, no gfxstat code) reads
#   the file as Trace { repeated bytes packet = 1 }, takes TracePacket field 76
#   (frame_timeline_event), and counts every ActualSurfaceFrameStart (member 4) by
#   layer_name (5), jank_type (9) and present_type (6), and every ActualDisplayFrameStart
#   (member 2) by jank_type (7) and present_type (4); names per trace_processor
#   (FORMATS.md 6.3). Its output, sorted, is PF_EXPECT below, which also agrees with
#   shared/samples/INDEX.md (1068 surface frames, 739 on the MainActivity layer; NONE 1004,
#   APP_DEADLINE_MISSED 12, BUFFER_STUFFING 47, both 5; LATE 64; 801 display frames).
#   The sample has no compressed_packets, so the walker needs no zlib. The other figures
#   (7676 packets, 177 bundles, 6246 print events, one actual surface frame whose FrameEnd
#   is missing, 17 janky surface frames = 12 + 5 with App Deadline Missed) came from the
#   same walker, extended by hand in /tmp during development.
#   When python3 is installed the walker is run again and must agree with PF_EXPECT.
#   Counts include the incomplete frame, as trace_processor's actual_frame_timeline_slice.

PF_SAMPLE=$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace
PF_TMP=$TMP/perfetto
mkdir -p "$PF_TMP"

# "section<TAB>count<TAB>name", sorted (LC_ALL=C)
cat > "$PF_TMP/expect" <<'PF_EXPECT'
display jank_type	801	None
display present_type	801	On-time Present
layer	1	TX - StatusBar#38004
layer	18	TX - Surface(name=651bde6 Splash Screen com.google.samples.apps.nowinandroid.demo)/@0x3174ef4 - animation-leash of window_animation#50016
layer	20	TX - Surface(name=WindowToken{2e93408 type=2019 android.os.BinderProxy@2875bfa})/@0xe430c5 - animation-leash of token_transform#50006
layer	32	TX - Surface(name=8d1f382 com.google.samples.apps.nowinandroid.demo/com.google.samples.apps.nowinandroid.MainActivity)/@0x42c2fdf - animation-leash of starting_reveal#50014
layer	33	TX - Splash Screen com.google.samples.apps.nowinandroid.demo#50003
layer	40	TX - Surface(name=WindowToken{2e93408 type=2019 android.os.BinderProxy@2875bfa})/@0xe430c5 - animation-leash of token_transform#50013
layer	59	TX - Surface(name=Task=16090)/@0x9b71fa2 - animation-leash of app_transition#50005
layer	59	TX - Surface(name=Task=16098)/@0xc3386c3 - animation-leash of app_transition#50004
layer	67	TX - com.android.settings/com.android.settings.applications.InstalledAppDetails#49984
layer	739	TX - com.google.samples.apps.nowinandroid.demo/com.google.samples.apps.nowinandroid.MainActivity#50010
surface jank_type	1004	None
surface jank_type	12	App Deadline Missed
surface jank_type	47	Buffer Stuffing
surface jank_type	5	App Deadline Missed, Buffer Stuffing
surface present_type	1004	On-time Present
surface present_type	64	Late Present
PF_EXPECT

cat > "$PF_TMP/derive.py" <<'PF_DERIVE'
import sys, collections
def varint(b, i):
	r = s = 0
	while True:
		c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
		if c < 0x80: return r, i
def fields(b):
	i, out = 0, []
	while i < len(b):
		k, i = varint(b, i); f, w = k >> 3, k & 7
		if w == 0: v, i = varint(b, i)
		elif w == 1: v, i = b[i:i + 8], i + 8
		elif w == 5: v, i = b[i:i + 4], i + 4
		elif w == 2: n, i = varint(b, i); v, i = b[i:i + n], i + n
		else: raise ValueError('wire type %d' % w)
		out.append((f, v))
	return out
JANK = [(2, 'SurfaceFlinger Scheduling'), (4, 'Prediction Error'), (8, 'Display HAL'),
		(16, 'SurfaceFlinger CPU Deadline Missed'), (32, 'SurfaceFlinger GPU Deadline Missed'),
		(64, 'App Deadline Missed'), (4096, 'App Resynced Jitter'), (128, 'Buffer Stuffing'),
		(256, 'Unknown Jank'), (512, 'SurfaceFlinger Stuffing'), (1024, 'Dropped Frame'),
		(2048, 'Non Animating'), (8192, 'Display not ON'), (16384, 'ModeChange in progress'),
		(32768, 'PowerModeChange in progress')]
def jank(j):
	return 'Unspecified' if j == 0 else 'None' if j == 1 else ', '.join(n for b, n in JANK if j & b)
PRES = ['Unspecified Present', 'On-time Present', 'Late Present', 'Early Present',
		'Dropped Frame', 'Unknown Present']
c = collections.Counter()
for f, pkt in fields(open(sys.argv[1], 'rb').read()):
	for g, ev in fields(pkt):
		if f != 1 or g != 76: continue
		for k, m in fields(ev):
			m = dict(fields(m))
			if k == 4:
				c[('layer', m.get(5, b'').decode())] += 1
				c[('surface jank_type', jank(m.get(9, 0)))] += 1
				c[('surface present_type', PRES[m.get(6, 0)])] += 1
			elif k == 2:
				c[('display jank_type', jank(m.get(7, 0)))] += 1
				c[('display present_type', PRES[m.get(4, 0)])] += 1
for (sec, name), n in c.items(): print('%s\t%d\t%s' % (sec, n, name))
PF_DERIVE

# perfetto-dump's tables in the same "section<TAB>count<TAB>name" form
pf_tables() {
	awk '/^actual surface frames per layer/ { s = "layer"; next }
	     /^actual surface frames per jank_type/ { s = "surface jank_type"; next }
	     /^actual surface frames per present_type/ { s = "surface present_type"; next }
	     /^actual display frames per jank_type/ { s = "display jank_type"; next }
	     /^actual display frames per present_type/ { s = "display present_type"; next }
	     /^$/ { s = ""; next }
	     s != "" && /^ *[0-9]+  / {
		n = $1; sub(/^ *[0-9]+  /, ""); sub(/  \([0-9]+ incomplete\)$/, "")
		printf "%s\t%s\t%s\n", s, n, $0 }' "$1" | LC_ALL=C sort
}

# perfetto-dump is registered in src/main.c by the integrator; until then a driver is built.
PF_DUMP="$GFXSTAT perfetto-dump"
if ! $PF_DUMP --help > /dev/null 2>&1; then
	cat > "$PF_TMP/driver.c" <<'PF_DRIVER'
int cmd_perfetto_dump(int argc, char **argv);
int main(int argc, char **argv) { return cmd_perfetto_dump(argc - 1, argv + 1); }
PF_DRIVER
	if ${CC:-cc} ${CFLAGS:-} -o "$PF_TMP/driver" "$PF_TMP/driver.c" "$BUILD"/src/cmd_perfetto.o \
		"$BUILD"/src/cli_msg.o "$BUILD"/src/cli_opts.o "$BUILD"/src/cli_input.o \
		"$BUILD/libgfxstat.a" -lz -lm ${LDFLAGS:-} 2> "$PF_TMP/cc.err"; then
		echo "note: 'gfxstat perfetto-dump' is not registered yet; testing a driver"
		PF_DUMP="$PF_TMP/driver perfetto-dump"
	else
		PF_DUMP=
		fail "perfetto-dump is not registered and the test driver did not build"
		cat "$PF_TMP/cc.err"
	fi
fi

if [ -n "$PF_DUMP" ]; then
	$PF_DUMP --help > "$PF_TMP/help" 2>&1 && grep -q 'jank_type' "$PF_TMP/help" && pass ||
		fail "perfetto-dump --help"
	$PF_DUMP > /dev/null 2>&1
	[ $? -eq 2 ] && pass || fail "perfetto-dump without FILE should exit 2"
	$PF_DUMP --nope x > /dev/null 2>&1
	[ $? -eq 2 ] && pass || fail "perfetto-dump --nope should exit 2"
	$PF_DUMP "$PF_TMP/does-not-exist" > /dev/null 2> "$PF_TMP/err"
	[ $? -eq 3 ] && grep -q "cannot open" "$PF_TMP/err" && pass ||
		fail "perfetto-dump on a missing file should exit 3"
	printf 'Applications Graphics Acceleration Info:\n' > "$PF_TMP/text.txt"
	$PF_DUMP "$PF_TMP/text.txt" > /dev/null 2> "$PF_TMP/err"
	[ $? -eq 3 ] && pass || fail "perfetto-dump on text should exit 3"
	printf '\013\012\000' > "$PF_TMP/group.pb"
	$PF_DUMP "$PF_TMP/group.pb" > /dev/null 2> "$PF_TMP/err"
	[ $? -eq 3 ] && grep -q 'not a Perfetto' "$PF_TMP/err" && pass ||
		fail "perfetto-dump on a protobuf group should exit 3"
	# an Android 12-style seed: MONOTONIC FrameTimeline, converted through the snapshot
	$PF_DUMP --frames "$ROOT/fuzz/corpus/perfetto/p-mono-android12" > "$PF_TMP/mono" 2>&1
	if [ $? -eq 0 ] && grep -q 'frametimeline MONOTONIC (3), 1 snapshots, 4 packets converted' \
		"$PF_TMP/mono" && grep -q "$(printf '^surface\t50\t40\t99\t1005000000000\t')" \
		"$PF_TMP/mono"; then
		pass
	else
		fail "MONOTONIC FrameTimeline not converted to BOOTTIME"
		cat "$PF_TMP/mono"
	fi
	# --frames: each code's name, then its raw value (docs/output.md): JankType
	# JANK_APP_DEADLINE_MISSED = 64, PresentType PRESENT_LATE = 2, PredictionType VALID = 1
	grep -q "$(printf '^surface\t50\t.*\tApp Deadline Missed\t64\tLate Present\t2\tValid Prediction\t1\t1\t')" \
		"$PF_TMP/mono" && pass || fail "perfetto-dump --frames: no raw value beside the names"
fi

if [ -z "$PF_DUMP" ]; then
	:
elif [ ! -f "$PF_SAMPLE" ]; then
	skip "perfetto sample: $PF_SAMPLE is absent"
else
	$PF_DUMP "$PF_SAMPLE" > "$PF_TMP/out" 2> "$PF_TMP/err"
	rc=$?
	pf_tables "$PF_TMP/out" > "$PF_TMP/got"
	if [ $rc -eq 0 ] && cmp -s "$PF_TMP/expect" "$PF_TMP/got" && [ ! -s "$PF_TMP/err" ]; then
		pass
		echo "ok: nowinandroid: $(grep -c . "$PF_TMP/got") per-layer/jank/present counts match"
	else
		fail "perfetto sample counts: exit $rc"
		diff "$PF_TMP/expect" "$PF_TMP/got" | head -20
		cat "$PF_TMP/err"
	fi
	# the summary lines: packets, ftrace print events, frames, the one missing FrameEnd
	if grep -q '^packets: 7676 (compressed_packets: 0' "$PF_TMP/out" &&
		grep -q '^ftrace: 177 bundles, 6246 events, 6246 print events' "$PF_TMP/out" &&
		grep -q '^clock: trace BOOTTIME (6), frametimeline BOOTTIME (6), 4 snapshots' \
			"$PF_TMP/out" &&
		grep -q '^frametimeline events: 7475 (expected display 801, actual display 801, '`
			`'expected surface 1068, actual surface 1068, frame end 3737)' "$PF_TMP/out" &&
		grep -q '^frames: surface 1067 (17 janky), display 801 (0 janky), incomplete 1, '`
			`'without expected 0' "$PF_TMP/out"; then
		pass
	else
		fail "perfetto sample summary"
		head -8 "$PF_TMP/out"
	fi
	if command -v python3 > /dev/null; then
		python3 "$PF_TMP/derive.py" "$PF_SAMPLE" | LC_ALL=C sort > "$PF_TMP/derived"
		if cmp -s "$PF_TMP/derived" "$PF_TMP/expect"; then pass; else
			fail "the Python walker no longer agrees with the recorded counts"
			diff "$PF_TMP/expect" "$PF_TMP/derived" | head
		fi
	else
		skip "python3 absent: the recorded counts are not re-derived"
	fi
	# chunked reading must not matter: the same file through a pipe in odd-sized pieces
	dd if="$PF_SAMPLE" bs=4093 2> /dev/null | $PF_DUMP - > "$PF_TMP/out-pipe" 2>&1
	sed 1d "$PF_TMP/out" > "$PF_TMP/a"
	sed 1d "$PF_TMP/out-pipe" > "$PF_TMP/b"
	cmp -s "$PF_TMP/a" "$PF_TMP/b" && pass || fail "perfetto sample through a pipe differs"
	# truncated in the middle of a packet: counted, a warning, the packets before it kept,
	# and exit 3 as for any damaged input (STYLE rule 3)
	head -c 400000 "$PF_SAMPLE" > "$PF_TMP/cut.pb"
	$PF_DUMP "$PF_TMP/cut.pb" > "$PF_TMP/out-cut" 2> "$PF_TMP/err-cut"
	rc=$?
	[ $rc -eq 3 ] && grep -q 'cut short' "$PF_TMP/err-cut" && [ -s "$PF_TMP/out-cut" ] && pass ||
		fail "truncated perfetto sample: exit $rc"
fi

# Order, apps, build and refresh period on both real samples.
PF_API32=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
if [ -z "$PF_DUMP" ]; then
	:
elif [ ! -f "$PF_SAMPLE" ] || [ ! -f "$PF_API32" ]; then
	skip "perfetto order/app/build/vsync: $PF_SAMPLE or $PF_API32 is absent"
else
	for f in "$PF_SAMPLE" "$PF_API32"; do
		$PF_DUMP --frames --markers "$f" > "$PF_TMP/all" 2>&1
		# markers (sec.usec first) in time order, frames (kind first) by actual end;
		# print events come per-CPU bundle, out of order in the file
		bad=$(awk -F'\t' '/^[0-9]+\.[0-9]+\t/ { if ($1 + 0 < m) b++; m = $1 + 0 }
			($1 == "surface" || $1 == "display") && $8 != "-" { if ($8 < e) b++; e = $8 }
			END { print b + 0 }' "$PF_TMP/all")
		[ "$bad" = 0 ] && pass || fail "$(basename "$f"): $bad markers/frames out of order"
	done
	# nowinandroid, Pixel 7 Pro at 120 Hz: SurfaceFlinger's expected slices last 10.5 or
	# 16.6 ms (its work duration), but the expected presents are 8.33 ms apart (INDEX.md);
	# every display and surface frame must carry a period of 8.3 +- 0.1 ms, none 10.5 ms.
	# api32, Pixel 6a at 60 Hz: expected slices of 10.5 ms, presents 16.4-16.7 ms apart.
	# (--frames columns: 17 the vsync period, 18 the duration, 16 the app)
	$PF_DUMP --frames "$PF_SAMPLE" > "$PF_TMP/nia" 2>&1
	$PF_DUMP --frames "$PF_API32" > "$PF_TMP/api32" 2>&1
	pf_vsync() {
		awk -F'\t' -v lo="$2" -v hi="$3" '$1 == "surface" || $1 == "display" {
			n++; if ($17 == "-" || $17 < lo || $17 > hi) b++ }
			END { printf "%d %d\n", n, b + 0 }' "$1"
	}
	# 1068 surface + 801 display frames; 6 + 10 (one display frame incomplete)
	[ "$(pf_vsync "$PF_TMP/nia" 8200000 8450000)" = "1869 0" ] &&
		[ "$(pf_vsync "$PF_TMP/api32" 16400000 16900000)" = "16 0" ] && pass ||
		fail "vsync periods: nia $(pf_vsync "$PF_TMP/nia" 8200000 8450000)," \
			"api32 $(pf_vsync "$PF_TMP/api32" 16400000 16900000) (frames, outside)"
	# duration = actual end - actual start on every complete frame
	bad=$(awk -F'\t' '($1 == "surface" || $1 == "display") && $8 != "-" &&
		$18 != $8 - $7 { b++ } END { print b + 0 }' "$PF_TMP/nia")
	[ "$bad" = 0 ] && pass || fail "nowinandroid: $bad frames with duration != end - start"
	# build: SystemInfo.android_build_fingerprint and android_sdk_version (INDEX.md gives
	# both fingerprints; Android 13 is SDK 33)
	grep -q '^system: build google/cheetah/cheetah:13/TQ3A.230705.001/10216780:user/'`
		`'release-keys, Android 13, SDK 33$' "$PF_TMP/nia" &&
		grep -q '^system: build google/bluejay/bluejay:13/TQ1A.220812.001.A1/[0-9]*:'`
		`'userdebug/dev-keys, Android 13, SDK 33$' "$PF_TMP/api32" && pass ||
		fail "perfetto build fingerprint / SDK"
	# apps. nowinandroid has no ProcessTree, only packages_list: apps come from layer names:
	# MainActivity (739 frames, 1 incomplete) and settings (67): 738 + 67 = 805 complete
	# frames; the window manager's animation leashes (the starting_reveal one quotes
	# nowinandroid.demo/ but is not the app's), the splash screen and the status bar do not.
	# api32 has a ProcessTree: pid 2348 is com.android.systemui (navigation bar and splash
	# screen), 2969 the launcher, 7663 the benchmark target; all 6 frames get an app.
	grep -q '^processes: 0 named, 850 packages listed; surface frames with an app: 805$' \
		"$PF_TMP/nia" &&
		grep -q '^processes: 665 named, 315 packages listed; surface frames with an app: 6$' \
		"$PF_TMP/api32" && pass || fail "perfetto process/package counts"
	got=$(awk -F'\t' '$1 == "surface" { print $4, $16 }' "$PF_TMP/api32" | sort | uniq -c |
		awk '{ printf "%s %s %s;", $1, $2, $3 }')
	want="2 2348 com.android.systemui;2 2969 com.google.android.apps.nexuslauncher;"
	want="${want}2 7663 androidx.benchmark.integration.macrobenchmark.target;"
	[ "$got" = "$want" ] && pass || fail "api32 apps: got '$got'"
	# markers against FrameTimeline on the same frames (api32): the markers give 17 frames
	# (10 refreshes with vsync ids 191057 ... 191281, and 7 layer frames); FrameTimeline has
	# all but refresh 191243 (its display frame never got a present fence in the trace) and
	# refresh 191281 with the benchmark app's frame in it (after FrameTimeline's record ends):
	# 14 of 17, every one matched by vsync id
	"$GFXSTAT" inspect "$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace" \
		> "$PF_TMP/api32-inspect" 2> /dev/null
	grep -q "FrameTimeline has 14 of the 17 frames SurfaceFlinger's markers show (17 compared by vsync id" \
		"$PF_TMP/api32-inspect" && pass ||
		fail "api32 self-check: $(grep self-check "$PF_TMP/api32-inspect")"
fi
