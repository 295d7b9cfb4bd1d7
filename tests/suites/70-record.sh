# SPDX-License-Identifier: MIT
# gfxstat devices / record against a fake adb (tests/fake-adb/adb) that answers from a
# scenario folder, streams trace_pipe at a recorded pace and fails on cue. Checks that every
# source and every way of stopping keeps what was captured and switches tracing off, and that
# a session's frames and metrics equal `gfxstat frames` / `analyze` on its raw capture.
# Sourced by tests/run.sh.
FAKE=$ROOT/tests/fake-adb/adb
rec=$TMP/record
mkdir -p "$rec"

scenario() { # scenario DIR SERIAL...: one plain Android 9 device per serial
	d=$1
	shift
	rm -rf "$d"
	mkdir -p "$d"
	printf 'List of devices attached\n' > "$d/devices"
	for s in "$@"; do
		printf '%s\tdevice product:fake model:Fake_9 device:fake transport_id:1\n' "$s" \
			>> "$d/devices"
		mkdir -p "$d/$s"
		printf 'ro.product.model=Fake 9\nro.build.version.release=9\nro.build.version.sdk=28\n' \
			> "$d/$s/props"
		echo /sys/kernel/tracing > "$d/$s/tracefs"
		printf '  mCurrentFocus=Window{1f2e u0 com.example.app2/com.example.app2.MainActivity}\n' \
			> "$d/$s/window"
		# the built-in screen's line, as Android 13 prints it, with a 60 and a 90 Hz mode
		printf '%s\n' 'Display Devices: size=1' \
			'  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:4619827259835644672", 1080 x 2400, modeId 1, defaultModeId 1, supportedModes [{id=1, width=1080, height=2400, fps=60.000004, alternativeRefreshRates=[90.0]}, {id=2, width=1080, height=2400, fps=90.0, alternativeRefreshRates=[60.000004]}], colorMode 0, state ON}' \
			'    mActiveModeId=1' > "$d/$s/display"
		cp "$rec/trace" "$d/$s/trace_pipe"
		echo "4000 0.05" > "$d/$s/pace"
		echo 3 > "$d/$s/hold"
	done
}
tracing_is_off() { # tracing_is_off DIR SERIAL
	[ "$(cat "$1/$2/state/tracing_on" 2> /dev/null || echo 0)" = 0 ]
}
layers_of() { # the "layers" array of a summary.json or an analyze --json output: from
	# "layers":[ to its closing bracket (brackets inside strings do not count), whatever follows
	tr -d '\n' < "$1" | awk '{
		i = index($0, "\"layers\":["); if (!i) exit
		s = substr($0, i + 10); d = 1; q = 0
		for (k = 1; k <= length(s) && d > 0; k++) {
			c = substr(s, k, 1)
			if (q) { if (c == "\\") k++; else if (c == "\"") q = 0 }
			else if (c == "\"") q = 1
			else if (c == "[" || c == "{") d++
			else if (c == "]" || c == "}") d--
		}
		print substr(s, 1, k - 2)
	}' | awk '{ # analyze --json entries carry their causes, summary.json ones do not: left out
		s = $0; out = ""
		while ((i = index(s, ",\"causes\":[")) > 0) {
			out = out substr(s, 1, i - 1); s = substr(s, i + 11); d = 1; q = 0
			for (k = 1; k <= length(s) && d > 0; k++) {
				c = substr(s, k, 1)
				if (q) { if (c == "\\") k++; else if (c == "\"") q = 0 }
				else if (c == "\"") q = 1
				else if (c == "[") d++
				else if (c == "]") d--
			}
			s = substr(s, k)
		}
		print out s
	}'
}

if [ ! -x "$GFXSIM" ]; then
	skip "record: $GFXSIM missing"
else
	"$GFXSIM" --seed 11 --hz 60 --duration 6 --apps 2 --jank 10 --no-header \
		-o "$rec/trace" 2> /dev/null
	export ADB="$FAKE"

	# -- devices --------------------------------------------------------------------------
	scenario "$rec/s1" FAKE1
	FAKE_ADB=$rec/s1 "$GFXSTAT" devices > "$rec/devices.out" 2>&1
	if grep -q 'model: Fake 9' "$rec/devices.out" && grep -q 'tracefs: /sys/kernel/tracing' \
		"$rec/devices.out" && grep -q 'refresh: 60.0 Hz now (modes: 60 90 Hz)' "$rec/devices.out" &&
		grep -q 'focus: com.example.app2/com.example.app2.MainActivity' "$rec/devices.out"; then
		pass
	else
		fail "gfxstat devices against the fake adb"
		cat "$rec/devices.out"
	fi

	# -- trace source, stopped by --duration: the whole trace, tracing off ------------------
	FAKE_ADB=$rec/s1 "$GFXSTAT" record -q --duration 3 -o "$rec/sess1" > "$rec/r1.out" 2>&1
	rc=$?
	"$GFXSTAT" frames -q "$rec/sess1/trace.txt.gz" > "$rec/f1.csv"
	"$GFXSTAT" analyze -q --json "$rec/sess1/trace.txt.gz" > "$rec/a1.json"
	if [ $rc -eq 0 ] && tracing_is_off "$rec/s1" FAKE1 &&
		grep -q 'atrace -b 4096 -c --async_start gfx view input' "$rec/s1/log" &&
		cmp -s "$rec/f1.csv" "$rec/sess1/frames.csv" &&
		[ "$(wc -l < "$rec/f1.csv")" -gt 100 ] &&
		[ "$(layers_of "$rec/sess1/summary.json")" = "$(layers_of "$rec/a1.json")" ] &&
		[ -s "$rec/sess1/fps.csv" ] && grep -q '"source":"trace"' "$rec/sess1/device.json"; then
		pass
	else
		fail "record --duration (trace): exit $rc; frames and metrics must equal frames/analyze on the raw capture"
		tail -5 "$rec/r1.out"
		diff "$rec/f1.csv" "$rec/sess1/frames.csv" | head -5
	fi
	# the whole simulated trace made it through (it is 6 s of frames; the pace streams it
	# in well under 3 s): the raw capture is the trace
	if cmp -s "$rec/trace" "$(zcat "$rec/sess1/trace.txt.gz" > "$rec/raw1"; echo "$rec/raw1")"; then
		pass
	else
		fail "record: the raw capture differs from what the device streamed"
	fi

	# -- Ctrl-C: everything kept, tracing off, exit 0 --------------------------------------
	scenario "$rec/s2" FAKE1
	echo realtime > "$rec/s2/FAKE1/pace"
	FAKE_ADB=$rec/s2 "$GFXSTAT" record -q -o "$rec/sess2" > "$rec/r2.out" 2>&1 &
	pid=$!
	sleep 2
	kill -INT $pid
	wait $pid
	rc=$?
	n=$(($(wc -l < "$rec/sess2/frames.csv") - 1))
	if [ $rc -eq 0 ] && [ "$n" -gt 10 ] && tracing_is_off "$rec/s2" FAKE1 &&
		grep -q '"stop":"SIGINT"' "$rec/sess2/summary.json"; then
		pass
	else
		fail "record stopped by SIGINT: exit $rc, $n frames"
		tail -5 "$rec/r2.out"
	fi

	# -- the device disconnects mid-stream: exit 4, data kept, tracing switched off later --
	scenario "$rec/s3" FAKE1
	echo 3000 > "$rec/s3/FAKE1/fail_stream_after"
	: > "$rec/s3/FAKE1/gone_at_stop"
	FAKE_ADB=$rec/s3 "$GFXSTAT" record -q --reconnect-wait 2 -o "$rec/sess3" > "$rec/r3.out" 2>&1
	rc=$?
	n=$(($(wc -l < "$rec/sess3/frames.csv") - 1))
	if [ $rc -eq 4 ] && [ "$n" -gt 10 ] && tracing_is_off "$rec/s3" FAKE1 &&
		grep -q 'wait-for-device' "$rec/s3/log" &&
		grep -q 'device disconnected' "$rec/sess3/summary.json"; then
		pass
	else
		fail "record with a disconnect: exit $rc (want 4), $n frames"
		tail -5 "$rec/r3.out"
	fi

	# -- the device is away when tracing must be switched off: gfxstat waits and retries ----
	scenario "$rec/s4" FAKE1
	: > "$rec/s4/FAKE1/gone_at_stop"
	FAKE_ADB=$rec/s4 "$GFXSTAT" record -q --duration 1 --reconnect-wait 1 -o "$rec/sess4" \
		> "$rec/r4.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && tracing_is_off "$rec/s4" FAKE1 && grep -q 'wait-for-device' "$rec/s4/log"; then
		pass
	else
		fail "record: tracing off after the device came back (exit $rc)"
		tail -5 "$rec/r4.out"
	fi

	# -- trace_pipe not readable: falls back to --latency polls -----------------------------
	scenario "$rec/s5" FAKE1
	: > "$rec/s5/FAKE1/deny_trace"
	printf 'com.example.app2/com.example.app2.MainActivity#0\nStatusBar#0\n' > "$rec/s5/FAKE1/sf_list"
	mkdir -p "$rec/s5/FAKE1/latency"
	# two overlapping polls of a 60 Hz layer: 5 rows, then 3 of them again and 3 new ones
	printf '16666667\n0\t0\t0\n1000000000\t1000000000\t999000000\n1016666667\t1016666667\t1015666667\n1033333334\t1033333334\t1032333334\n' \
		> "$rec/s5/FAKE1/latency/001"
	printf '16666667\n1016666667\t1016666667\t1015666667\n1033333334\t1033333334\t1032333334\n1050000001\t1050000001\t1049000001\n1066666668\t1066666668\t1065666668\n' \
		> "$rec/s5/FAKE1/latency/002"
	FAKE_ADB=$rec/s5 "$GFXSTAT" record -q --duration 2.5 -o "$rec/sess5" > "$rec/r5.out" 2>&1
	rc=$?
	# stitched: 1000.0, 1016.7, 1033.3, 1050.0, 1066.7 ms: 5 frames, each once
	n=$(($(wc -l < "$rec/sess5/frames.csv") - 1))
	if [ $rc -eq 0 ] && [ "$n" = 5 ] && grep -q '"source":"latency"' "$rec/sess5/device.json" &&
		tracing_is_off "$rec/s5" FAKE1; then
		pass
	else
		fail "record falling back to --latency: exit $rc, $n frames (want 5)"
		tail -5 "$rec/r5.out"
	fi
	# the session's frames.csv is `gfxstat frames` on its raw capture: the same layer (named
	# by the command line record kept before each poll) and the app it names
	"$GFXSTAT" frames -q "$rec/sess5" 2> /dev/null | cut -d, -f1-3,5 > "$rec/sess5.re"
	cut -d, -f1-3,5 "$rec/sess5/frames.csv" > "$rec/sess5.rec"
	if cmp -s "$rec/sess5.re" "$rec/sess5.rec" &&
		grep -q '^sf-latency,com.example.app2/com.example.app2.MainActivity#0,com.example.app2,' \
			"$rec/sess5.re"; then pass; else
		fail "record --latency: frames.csv and 'gfxstat frames SESSION' differ:" \
			"$(diff "$rec/sess5.rec" "$rec/sess5.re" | head -5)"
	fi

	# -- --latency for an app with no layer on screen: a clear error, tracing untouched --------
	scenario "$rec/s5b" FAKE1
	rm "$rec/s5b/FAKE1/tracefs"
	printf 'StatusBar#0\nNavigationBar0#0\n' > "$rec/s5b/FAKE1/sf_list"
	FAKE_ADB=$rec/s5b "$GFXSTAT" record -q --source latency --app com.not.there --duration 1 \
		-o "$rec/sess5b" > "$rec/r5b.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q "no SurfaceFlinger layer for 'com.not.there'" "$rec/r5b.out"; then
		pass
	else
		fail "record --source latency for an unknown layer: exit $rc (want 4)"
		cat "$rec/r5b.out"
	fi

	# -- pageflip: the whole display's page-flip count, the last resort ----------------------
	# A device with no tracefs, no Perfetto and no focused app: auto has nothing but
	# `service call SurfaceFlinger 1013`. Its answers, one per 200 ms poll (the last repeats):
	#   fffffff0 first; fffffff6 +6; 00000002 +12 across the uint32 wrap (10 up to 2^32, then
	#   2); 0000000b +9; 00000001 down by 10: a reset, a gap; 00000007 +6; 000003ef +1000 in
	#   ~0.2 s, more than the 90 Hz mode allows (0.2 * 90 + 1 = 19): not a rate; 000003f5 +6.
	# Counted: 6 + 12 + 9 + 6 + 6 = 39 flips; 1 gap; 1 over the refresh rate.
	pageflip_scenario() { # pageflip_scenario DIR: no tracefs, no focus, the answers above
		scenario "$1" FAKE1
		rm "$1/FAKE1/tracefs"
		: > "$1/FAKE1/window"
		for c in fffffff0 fffffff6 00000002 0000000b 00000001 00000007 000003ef 000003f5; do
			printf "Result: Parcel(%s    '....')\r\r\n" $c
		done > "$1/FAKE1/pageflip"
	}
	pageflip_scenario "$rec/s13"
	FAKE_ADB=$rec/s13 "$GFXSTAT" record -q --duration 2.5 --poll-ms 200 -o "$rec/sess13" \
		> "$rec/r13.out" 2>&1
	rc=$?
	# rows 2-8: delta and note as derived above
	got=$(sed -n '3,9p' "$rec/sess13/pageflip.csv" | cut -d, -f3,6 | tr '\n' ' ')
	want='6, 12,wrap 9, ,reset 6, 1000,over_refresh 6, '
	# every counted row: fps <= 90 and = delta / max(interval, delta / 90 Hz), to 1 mHz
	bad=$(awk -F, 'NR > 2 && $5 != "" {
		span = $4; need = $3 * 1e9 / 90; if (need > span) span = need
		if ($5 > 90 || ($5 - $3 * 1e9 / span) ^ 2 > 1e-6) print NR ": " $0 }' \
		"$rec/sess13/pageflip.csv")
	if [ $rc -eq 0 ] && [ "$got" = "$want" ] && [ -z "$bad" ] &&
		grep -q '"source":"pageflip"' "$rec/sess13/device.json" &&
		grep -q '"page_flips":39,' "$rec/sess13/summary.json" &&
		grep -q '"gaps":1,"over_refresh":1,' "$rec/sess13/summary.json" &&
		grep -q '"max_refresh_hz":90.000,' "$rec/sess13/summary.json" &&
		grep -q '"what":"whole-display page flips' "$rec/sess13/summary.json" &&
		grep -q 'went down from 11 to 1 ' "$rec/r13.out" &&
		grep -q '1000 page flips in .* more than the display' "$rec/r13.out"; then
		pass
	else
		fail "record --source auto falling to pageflip: exit $rc, rows '$got' (want '$want') $bad"
		cat "$rec/r13.out" "$rec/sess13/pageflip.csv"
	fi
	# summary's fps is the counted flips over the counted time: 39 / seconds, to 1 mHz
	f=$(sed -n 's/.*"display":{.*"fps":\([0-9.]*\),.*/\1/p' "$rec/sess13/summary.json")
	sec=$(sed -n 's/.*"display":{.*"seconds":\([0-9.]*\),.*/\1/p' "$rec/sess13/summary.json")
	if awk -v f="$f" -v s="$sec" 'BEGIN { exit !(s > 0 && (f - 39 / s) ^ 2 < 1e-6 && f <= 90) }'
	then
		pass
	else
		fail "record pageflip: summary fps $f is not 39 flips over the counted $sec s"
	fi
	# trace_pipe denied and no app: trace -> pageflip, said why
	pageflip_scenario "$rec/s14"
	echo /sys/kernel/tracing > "$rec/s14/FAKE1/tracefs"
	: > "$rec/s14/FAKE1/deny_trace"
	FAKE_ADB=$rec/s14 "$GFXSTAT" record -q --duration 1.5 --poll-ms 200 -o "$rec/sess14" \
		> "$rec/r14.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '"source":"pageflip"' "$rec/sess14/device.json" &&
		grep -q 'trace_pipe gave nothing.*page-flip' "$rec/sess14/device.json" &&
		tracing_is_off "$rec/s14" FAKE1 && [ "$(wc -l < "$rec/sess14/pageflip.csv")" -gt 3 ]; then
		pass
	else
		fail "record: trace_pipe denied, no app: pageflip expected (exit $rc)"
		cat "$rec/r14.out" "$rec/sess14/device.json"
	fi
	# a device whose SurfaceFlinger rejects 1013 (Android 13+: "case 1013: // Unused",
	# NAME_NOT_FOUND; the fake's default answer): exit 4, and why, no rate
	pageflip_scenario "$rec/s15"
	rm "$rec/s15/FAKE1/pageflip"
	FAKE_ADB=$rec/s15 "$GFXSTAT" record -q --source pageflip --duration 1 --poll-ms 200 \
		-o "$rec/sess15" > "$rec/r15.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q 'no page-flip counter: .*empty Parcel' "$rec/r15.out" &&
		grep -q '"fps":null' "$rec/sess15/summary.json" &&
		[ "$(wc -l < "$rec/sess15/pageflip.csv")" = 1 ]; then
		pass
	else
		fail "record --source pageflip on a device rejecting 1013: exit $rc (want 4)"
		cat "$rec/r15.out"
	fi
	# an app with no layer: auto goes on to gfxinfo (pageflip only when nothing else works);
	# its gfxinfo answers nothing here: no frames is exit 3, said even under -q (was: exit 0)
	scenario "$rec/s16" FAKE1
	rm "$rec/s16/FAKE1/tracefs"
	printf 'StatusBar#0\n' > "$rec/s16/FAKE1/sf_list"
	FAKE_ADB=$rec/s16 "$GFXSTAT" record -q --duration 1 -o "$rec/sess16" > "$rec/r16.out" 2>&1
	rc=$?
	if [ $rc -eq 3 ] && grep -q '"source":"gfxinfo"' "$rec/sess16/device.json" &&
		grep -q 'dumpsys gfxinfo com.example.app2 framestats' "$rec/s16/log" &&
		grep -q '^gfxstat: error: FAKE1: no frames captured (duration reached)$' "$rec/r16.out" &&
		grep -q '"exit":3,' "$rec/sess16/summary.json"; then
		pass
	else
		fail "record: no layer for the app: gfxinfo expected, no frames: exit $rc (want 3)"
		cat "$rec/r16.out"
	fi

	# -- several devices: -s needed, --all records each ------------------------------------
	scenario "$rec/s6" FAKE1 FAKE2
	FAKE_ADB=$rec/s6 "$GFXSTAT" record -q --duration 1 > "$rec/r6.out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -q 'choose one with -s' "$rec/r6.out"; then pass; else
		fail "record with two devices and no -s: exit $rc (want 2)"
	fi
	FAKE_ADB=$rec/s6 "$GFXSTAT" record -q --all --duration 2 -o "$rec/sess6" > "$rec/r6b.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ -s "$rec/sess6/FAKE1/frames.csv" ] && [ -s "$rec/sess6/FAKE2/frames.csv" ] &&
		tracing_is_off "$rec/s6" FAKE1 && tracing_is_off "$rec/s6" FAKE2; then
		pass
	else
		fail "record --all: exit $rc"
		tail -5 "$rec/r6b.out"
	fi

	# -- an offline device, and no adb at all ------------------------------------------------
	scenario "$rec/s7" FAKE1
	printf 'List of devices attached\nFAKE1\toffline\n' > "$rec/s7/devices"
	FAKE_ADB=$rec/s7 "$GFXSTAT" record -q --duration 1 > "$rec/r7.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q 'FAKE1 is offline: reconnect' "$rec/r7.out"; then pass; else
		fail "record with an offline device: exit $rc (want 4, 'is offline')"
		cat "$rec/r7.out"
	fi
	# -- each device problem with its own message, exit 4 (issue 8) ------------------------
	# unauthorized was reported as "no device attached"
	printf 'List of devices attached\nFAKE1\tunauthorized usb:1-4 transport_id:3\n' > "$rec/s7/devices"
	FAKE_ADB=$rec/s7 "$GFXSTAT" record -q --duration 1 > "$rec/r7b.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q "FAKE1 is unauthorized: .*Allow USB debugging" "$rec/r7b.out" &&
		! grep -q 'no device attached' "$rec/r7b.out"; then pass; else
		fail "record with an unauthorized device: exit $rc (want 4, 'unauthorized')"
		cat "$rec/r7b.out"
	fi
	printf 'List of devices attached\nFAKE1\tno permissions (user in plugdev group; are your udev rules wrong?); see [http://developer.android.com/tools/device.html]\n' \
		> "$rec/s7/devices"
	FAKE_ADB=$rec/s7 "$GFXSTAT" record -q -s FAKE1 --duration 1 > "$rec/r7c.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q "no permission to open FAKE1's USB device: .*udev" "$rec/r7c.out"
	then pass; else
		fail "record -s on a device without USB permission: exit $rc (want 4)"
		cat "$rec/r7c.out"
	fi
	FAKE_ADB=$rec/s7 "$GFXSTAT" record -q -s NOPE --duration 1 > "$rec/r7d.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q "no device 'NOPE' attached" "$rec/r7d.out"; then pass; else
		fail "record -s with an unknown serial: exit $rc (want 4)"
	fi
	# gfxinfo of an app that is not running: dumpsys answers "No process found for: PKG"
	# (was: 0 frames, exit 0, no message)
	scenario "$rec/s7e" FAKE1
	mkdir -p "$rec/s7e/FAKE1/gfxinfo"
	printf 'No process found for: com.not.running\n' > "$rec/s7e/FAKE1/gfxinfo/001"
	FAKE_ADB=$rec/s7e "$GFXSTAT" record -q --source gfxinfo --app com.not.running --duration 2 \
		-o "$rec/sess7e" > "$rec/r7e.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q "no process 'com.not.running' on the device" "$rec/r7e.out" &&
		grep -q '"exit":4' "$rec/sess7e/summary.json"; then pass; else
		fail "record --source gfxinfo for an app that is not running: exit $rc (want 4)"
		cat "$rec/r7e.out"
	fi
	# trace_pipe refused when --source trace was asked for: permission denied, no fallback
	scenario "$rec/s7f" FAKE1
	: > "$rec/s7f/FAKE1/deny_trace"
	FAKE_ADB=$rec/s7f "$GFXSTAT" record -q --source trace --duration 2 -o "$rec/sess7f" \
		> "$rec/r7f.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q "permission denied reading /sys/kernel/tracing/trace_pipe" \
		"$rec/r7f.out" && tracing_is_off "$rec/s7f" FAKE1; then pass; else
		fail "record --source trace with trace_pipe denied: exit $rc (want 4)"
		cat "$rec/r7f.out"
	fi

	# -- nothing lost: a folder holding a session is refused; default folders are fresh ---------
	ls "$rec/sess1" > "$rec/sess1.before"
	FAKE_ADB=$rec/s1 "$GFXSTAT" record -q --duration 1 -o "$rec/sess1" > "$rec/r20.out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -q "already holds a session: give --overwrite" "$rec/r20.out" &&
		ls "$rec/sess1" | cmp -s - "$rec/sess1.before" &&
		cmp -s "$rec/f1.csv" "$rec/sess1/frames.csv"; then pass; else
		fail "record -o into a session: exit $rc (want 2), the old session must be untouched"
		cat "$rec/r20.out"
	fi
	# --overwrite replaces the whole session: no file of the old one is left beside the new
	cp -r "$rec/sess1" "$rec/sess21"
	FAKE_ADB=$rec/s5 "$GFXSTAT" record -q --duration 1 --overwrite -o "$rec/sess21" \
		> "$rec/r21.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ ! -e "$rec/sess21/trace.txt.gz" ] && [ -e "$rec/sess21/latency.txt.gz" ] &&
		grep -q '"source":"latency"' "$rec/sess21/device.json"; then pass; else
		fail "record --overwrite: exit $rc; the old trace.txt.gz must be gone"
		ls "$rec/sess21"; cat "$rec/r21.out"
	fi
	mkdir -p "$rec/fresh"
	(cd "$rec/fresh" && FAKE_ADB=$rec/s5 "$GFXSTAT" record -q --duration 0.5 > ../r22a.out 2>&1 &&
		FAKE_ADB=$rec/s5 "$GFXSTAT" record -q --duration 0.5 > ../r22b.out 2>&1)
	rc=$?
	n=$(ls -d "$rec/fresh"/gfxstat-FAKE1-*Z* 2> /dev/null | wc -l)
	if [ $rc -eq 0 ] && [ "$n" = 2 ] && ls "$rec/fresh" | grep -q '^gfxstat-FAKE1-[0-9]\{8\}T[0-9]\{6\}Z'
	then pass; else
		fail "record without -o twice: exit $rc, $n folders (want 2 fresh gfxstat-FAKE1-<UTC>)"
		ls "$rec/fresh"
	fi

	# -- devices --format json, -o FILE ---------------------------------------------------------
	# the common header names the one usable device (FAKE2 is unauthorized), as probed
	scenario "$rec/s23" FAKE1 FAKE2
	sed -i 's/^FAKE2\t.*/FAKE2\tunauthorized transport_id:2/' "$rec/s23/devices"
	FAKE_ADB=$rec/s23 "$GFXSTAT" devices --format json -o "$rec/devices.json" > "$rec/r23.out" 2>&1
	rc=$?
	one=$(tr -d '\n' < "$rec/devices.json")
	if [ $rc -eq 0 ] && [ ! -s "$rec/r23.out" ] &&
		echo "$one" | grep -q '^{"header":{"gfxstat_version":"[^"]*","schema_version":1,"command":"devices","inputs":\[\],"device":{"serial":"FAKE1","model":"Fake 9","android":"9","sdk":28,"build":null},"refresh":\[\],"span":null},"devices":\[{"serial":"FAKE1","state":"device","hint":null,"model":"Fake 9","android":"9","sdk":28,"refresh_hz":60.000,"refresh_modes_hz":\[60,90\],"tracefs":"/sys/kernel/tracing","tracing_on":false,"perfetto":false,"root":false,"focus":"com.example.app2/com.example.app2.MainActivity"},{"serial":"FAKE2","state":"unauthorized","hint":"accept the USB debugging prompt on the phone","model":null,"android":null' &&
		{ ! command -v python3 > /dev/null || python3 -m json.tool "$rec/devices.json" > /dev/null; }
	then pass; else
		fail "devices --format json -o FILE: exit $rc"
		cat "$rec/r23.out" "$rec/devices.json"
	fi
	FAKE_ADB=$rec/s23 "$GFXSTAT" devices --output - > "$rec/r23b.out" 2>&1
	if grep -q '^FAKE2	unauthorized: accept the USB debugging prompt' "$rec/r23b.out" &&
		grep -q 'model: Fake 9' "$rec/r23b.out"; then pass; else
		fail "devices (table) with an unauthorized device"
		cat "$rec/r23b.out"
	fi

	# -- the live view: the trace's clock, any name length, a closing table ---------------------
	# The app layer renamed to 200 characters (was: a new row for every frame past 160).
	long=com.example.app1/$(printf 'L%.0s' $(seq 1 183))
	scenario "$rec/s24" FAKE1
	sed "s#com.example.app1/com.example.app1.MainActivity#$long#g" "$rec/trace" \
		> "$rec/s24/FAKE1/trace_pipe"
	FAKE_ADB=$rec/s24 "$GFXSTAT" record --duration 3 -o "$rec/sess24" > "$rec/r24.out" 2> "$rec/r24.err"
	rc=$?
	# every layer's closing fps is its intervals over their trace time, from frames.csv:
	# (frames - 1) * 1e9 / (last present - first present); the host took under 3 s for 6 s
	# of trace, so a host-clock rate would be about twice as high
	want=$(awk -F, 'NR > 1 && $5 != "" { n[$2]++; if (!($2 in a)) a[$2] = $5; b[$2] = $5 }
		END { for (l in n) if (n[l] > 1) printf "%s %.1f\n", l, (n[l] - 1) * 1e9 / (b[l] - a[l]) }' \
		"$rec/sess24/frames.csv" | sort)
	got=$(sed -n '/frames of .* layers (fps on the trace/,$p' "$rec/r24.out" | awk 'NR > 2 && $4 != "-" { print $1, $4 }' | sort)
	rows=$(grep -c "^$long#0 " "$rec/r24.out")
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want" ] && [ "$rows" = 1 ] &&
		[ "$(awk -F'\t' -v l="$long#0" '$2 == l' "$rec/r24.out" | wc -l)" -ge 1 ] &&
		[ "${#long}" = 200 ]; then pass; else
		fail "record live view: closing fps must be on the trace's clock, one row per layer ($rows rows)"
		echo "want: $want"; echo "got:  $got"; tail -8 "$rec/r24.out"
	fi
	# on a terminal 200 columns wide, long names are shortened in the middle to fit, and a
	# short name is not cut at 60 columns
	if command -v script > /dev/null; then
		FAKE_ADB=$rec/s24 script -qec "stty cols 200 rows 50; $GFXSTAT record --duration 2 -o $rec/sess25" \
			/dev/null > "$rec/r25.out" 2>&1
		w=$(tr -d '\r' < "$rec/r25.out" | sed 's/\x1b\[[0-9;]*[HJ]//g' | grep '^com.example.app1/L*\.\.\.L*#0 ' |
			awk '{ print length($0) }' | sort -u | tr '\n' ' ')
		if [ "$w" = "200 " ] && tr -d '\r' < "$rec/r25.out" | grep -q '^SurfaceFlinger\|^StatusBar#0 '
		then pass; else
			fail "record live view on a 200-column terminal: rows $w wide (want 200)"
			tail -5 "$rec/r25.out"
		fi
	else
		skip "record live view on a terminal: script(1) missing"
	fi
	ADB=/nonexistent/adb "$GFXSTAT" devices > "$rec/r8.out" 2>&1
	rc=$?
	if [ $rc -eq 4 ] && grep -q 'is adb installed' "$rec/r8.out"; then pass; else
		fail "devices without adb: exit $rc (want 4)"
	fi

	# -- Perfetto and gfxinfo sources, on the real samples ------------------------------------
	if [ -d "$SAMPLES" ]; then
		scenario "$rec/s9" FAKE1
		rm "$rec/s9/FAKE1/tracefs"
		printf 'ro.product.model=Pixel 7 Pro\nro.build.version.release=13\nro.build.version.sdk=33\n' \
			> "$rec/s9/FAKE1/props"
		echo /system/bin/perfetto > "$rec/s9/FAKE1/perfetto"
		cp "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" "$rec/s9/FAKE1/perfetto.pftrace"
		FAKE_ADB=$rec/s9 "$GFXSTAT" record -q --duration 1 -o "$rec/sess9" > "$rec/r9.out" 2>&1
		rc=$?
		"$GFXSTAT" frames -q "$rec/sess9/trace.pftrace" > "$rec/f9.csv"
		if [ $rc -eq 0 ] && grep -q '"source":"perfetto"' "$rec/sess9/device.json" &&
			cmp -s "$rec/f9.csv" "$rec/sess9/frames.csv" && [ "$(wc -l < "$rec/f9.csv")" -gt 1000 ]; then
			pass
		else
			fail "record --source auto choosing Perfetto: exit $rc"
			tail -5 "$rec/r9.out"
		fi
		# the live view of a Perfetto capture (its frames all come at the end: the host's
		# clock gave "fps 801 (all 6773.4)"): each closing fps is the layer's intervals over
		# their trace time, (frames - 1) * 1e9 / (last present - first present), from frames.csv
		FAKE_ADB=$rec/s9 "$GFXSTAT" record --duration 1 -o "$rec/sess9b" > "$rec/r9b.out" 2> "$rec/r9b.err"
		want=$(awk -F, 'NR > 1 && $5 != "" { n[$2]++; if (!($2 in a)) a[$2] = $5; b[$2] = $5 }
			END { for (l in n) if (n[l] > 1) printf "%.1f\n", (n[l] - 1) * 1e9 / (b[l] - a[l]) }' \
			"$rec/sess9b/frames.csv" | sort -n)
		got=$(sed -n '/frames of .* layers (fps on the trace/,$p' "$rec/r9b.out" |
			awk 'NR > 2 && $(NF-3) != "-" { print $(NF-3) }' | sort -n)
		if [ -n "$want" ] && [ "$got" = "$want" ] &&
			awk '{ if ($1 > 130) bad = 1 } END { exit bad }' <<- EOF
			$got
			EOF
		then pass; else
			fail "record (Perfetto) live view: closing fps must be on the trace's clock"
			echo "want: $want"; echo "got: $got"
		fi
		scenario "$rec/s10" FAKE1
		mkdir -p "$rec/s10/FAKE1/gfxinfo"
		cp "$SAMPLES/gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt" "$rec/s10/FAKE1/gfxinfo/001"
		cp "$SAMPLES/gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt" "$rec/s10/FAKE1/gfxinfo/002"
		FAKE_ADB=$rec/s10 "$GFXSTAT" record -q --source gfxinfo --app com.soundvisualization.accessibility \
			--duration 2 -o "$rec/sess10" > "$rec/r10.out" 2>&1
		rc=$?
		# two polls of the same 120 rows: each row once
		n=$(($(wc -l < "$rec/sess10/frames.csv") - 1))
		if [ $rc -eq 0 ] && [ "$n" = 120 ]; then pass; else
			fail "record --source gfxinfo: exit $rc, $n frames (want 120)"
			tail -5 "$rec/r10.out"
		fi
	fi
	# -- on the phone: push, start detached, stop, pull ----------------------------------------
	on_phone() { # on_phone NAME BINARY: the whole --on-device cycle with BINARY as the phone build
		d=$rec/$1
		scenario "$d" FAKE1
		echo 'ro.product.cpu.abi=arm64-v8a' >> "$d/FAKE1/props"
		mkdir -p "$d/FAKE1/root/sys/kernel/tracing"
		cp "$rec/trace" "$d/FAKE1/root/sys/kernel/tracing/trace_pipe"
		echo 0 > "$d/FAKE1/root/sys/kernel/tracing/tracing_on"
		FAKE_ADB=$d "$GFXSTAT" record --on-device --device-binary "$2" > "$d.start" 2>&1
		rc1=$?
		sleep 3
		FAKE_ADB=$d "$GFXSTAT" stop > "$d.stop" 2>&1
		rc2=$?
		mkdir -p "$d.pulled"
		FAKE_ADB=$d "$GFXSTAT" pull -o "$d.pulled" > "$d.pull" 2>&1
		rc3=$?
		sess=$(ls -d "$d.pulled"/gfxstat-* 2> /dev/null | head -n 1)
		"$GFXSTAT" frames -q "$sess/trace.txt.gz" > "$d.frames" 2> /dev/null
		if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && [ -n "$sess" ] &&
			cmp -s "$d.frames" "$sess/frames.csv" && [ "$(wc -l < "$d.frames")" -gt 100 ] &&
			cmp -s "$rec/trace" "$(zcat "$sess/trace.txt.gz" > "$d.raw"; echo "$d.raw")" &&
			grep -q '"stop":"SIGTERM"' "$sess/summary.json" &&
			tracing_is_off "$d" FAKE1 && [ ! -e "$d/FAKE1/root/data/local/tmp/gfxstat.pid" ]; then
			pass
		else
			fail "record --on-device / stop / pull ($1): exits $rc1 $rc2 $rc3"
			cat "$d.start" "$d.stop" "$d.pull"
			cat "$d/FAKE1/root/data/local/tmp/gfxstat-sessions/"*.log 2> /dev/null | tail -5
		fi
	}
	on_phone s11 "$GFXSTAT"
	# the real phone build, run under qemu, when make android has built it
	QEMU=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
	# (a phone build older than this tree, without --local, is not the one under test)
	if [ -x "$ROOT/build-android/arm64/gfxstat" ] && [ -n "$QEMU" ] &&
		"$QEMU" "$ROOT/build-android/arm64/gfxstat" record --help 2> /dev/null | grep -q -- --local; then
		printf '#!/bin/sh\nexec %s %s "$@"\n' "$QEMU" "$ROOT/build-android/arm64/gfxstat" \
			> "$rec/gfxstat-arm64"
		chmod +x "$rec/gfxstat-arm64"
		on_phone s12 "$rec/gfxstat-arm64"
	else
		skip "record --on-device with the arm64 build: run 'make android' first (and install qemu-user)"
	fi
	unset ADB
fi

# -- what every session gets at its end: report.html, and with --save the history ------------
# (sessions made above: stopped by --duration, by SIGINT, by a lost device)
if [ -x "$GFXSIM" ]; then
	if [ -s "$rec/sess1/report.html" ] && [ -s "$rec/sess2/report.html" ] &&
		[ -s "$rec/sess3/report.html" ] && grep -q 'com.example.app2' "$rec/sess2/report.html"
	then pass; else
		fail "record: report.html missing from a session (--duration, SIGINT, device lost)"
		ls "$rec/sess1" "$rec/sess2" "$rec/sess3"
	fi
	export ADB="$FAKE"
	# a store that cannot be opened: exit 5, the session and its report still there
	FAKE_ADB=$rec/s1 "$GFXSTAT" record -q --duration 1 --save --db "$rec/no/such/dir/h.db" \
		-o "$rec/sess30" > "$rec/r30.out" 2>&1
	rc=$?
	if [ $rc -eq 5 ] && [ "$(wc -l < "$rec/sess30/frames.csv")" -gt 100 ] &&
		grep -q '"frames":[1-9]' "$rec/sess30/summary.json" &&
		[ -s "$rec/sess30/report.html" ] && grep -q 'not stored in the history' "$rec/r30.out"
	then pass; else
		fail "record --save into a store that cannot be opened: exit $rc (want 5, data kept)"
		cat "$rec/r30.out"
	fi

	# -- record --repeat (issue 10) --------------------------------------------------------
	# Six 3 s traces: base with 5 % jank, new with 30 %; --before puts the next one on the
	# fake device (and notes its turn), the command notes its own, --after too.
	for k in 1 2 3; do
		"$GFXSIM" --seed 2$k --hz 60 --duration 3 --apps 1 --jank 5 --no-header \
			-o "$rec/base$k" 2> /dev/null
		"$GFXSIM" --seed 3$k --hz 60 --duration 3 --apps 1 --jank 30 --no-header \
			-o "$rec/new$k" 2> /dev/null
	done
	scenario "$rec/s31" FAKE1
	next='n=$(($(cat "$R/k" 2> /dev/null || echo 0) + 1)); echo $n > "$R/k";
		cp "$R/$T$n" "$R/s31/FAKE1/trace_pipe"; echo before$n >> "$R/order"'
	export R="$rec"
	FAKE_ADB=$rec/s31 "$GFXSTAT" record -q --repeat 3 --settle 0.2 --before "T=base; $next" \
		--after 'echo after >> "$R/order"' --save --db "$rec/h31.db" --label base-v1 \
		-o "$rec/run31" -- sh -c 'echo cmd >> "$R/order"; sleep 0.5' > "$rec/r31.out" 2>&1
	rc=$?
	order=$(tr '\n' ' ' < "$rec/order")
	same=0
	for k in 1 2 3; do
		zcat "$rec/run31/iter-0$k/trace.txt.gz" | cmp -s - "$rec/base$k" && same=$((same + 1))
	done
	ok=1
	for k in 1 2 3; do
		j=$rec/run31/iter-0$k/iteration.json
		[ -s "$rec/run31/iter-0$k/report.html" ] && [ -s "$rec/run31/iter-0$k/frames.csv" ] &&
			grep -q "^{\"iteration\":$k,\"session\":\"iter-0$k\",\"command\":\\[\"sh\",\"-c\"," "$j" &&
			grep -q '"exit_status":0,' "$j" && grep -q '"failed":false' "$j" &&
			grep -q '"stop":"the command ended"' "$rec/run31/iter-0$k/summary.json" &&
			# the command slept 0.5 s: start to end at least that
			awk -v d="$(sed 's/.*"duration_ns":\([0-9]*\).*/\1/' "$j")" \
				'BEGIN { exit !(d >= 500000000 && d < 5000000000) }' || ok=0
	done
	if [ $rc -eq 0 ] && [ "$same" = 3 ] && [ $ok = 1 ] &&
		[ "$order" = "before1 cmd after before2 cmd after before3 cmd after " ] &&
		[ "$(ls "$rec/run31")" = "$(printf 'iter-01\niter-02\niter-03\nrun.json')" ] &&
		grep -q '"repeat":3,' "$rec/run31/run.json" && grep -q '\],"failed":0}$' "$rec/run31/run.json" &&
		[ "$(grep -c '^{"session":"iter-0[123]","failed":false' "$rec/run31/run.json")" = 3 ]
	then pass; else
		fail "record --repeat 3: exit $rc, order '$order', $same of 3 raw captures the traces put there"
		cat "$rec/r31.out"; ls "$rec/run31"
	fi
	# the second run: the new traces, --save with another label
	rm -f "$rec/k"
	FAKE_ADB=$rec/s31 "$GFXSTAT" record -q --repeat 3 --settle 0.2 --before "T=new; $next" \
		--save --db "$rec/h31.db" --label new-v2 -o "$rec/run32" -- sleep 0.5 \
		> "$rec/r32.out" 2>&1
	rc=$?
	# compare reads both run folders: each side's value is the mean of its iterations' own
	# (summary.json, the app's row); 55.6/54.6/57.3 FPS against 32.5/30.5/38.8 is worse
	"$GFXSTAT" compare --format json "$rec/run31" "$rec/run32" > "$rec/c32.json" 2> "$rec/c32.err"
	crc=$?
	mean_fps() { # mean_fps RUN: the mean over its iterations of the app's fps in summary.json
		for k in 1 2 3; do
			sed 's/{"layer":/\n&/g' "$1/iter-0$k/summary.json" | grep '"kind":"app"' |
				grep -o '"fps":[0-9.]*' | head -n 1 | cut -d: -f2
		done | awk '{ s += $1 } END { if (NR == 3) printf "%.4f", s / 3 }'
	}
	mb=$(mean_fps "$rec/run31")
	mn=$(mean_fps "$rec/run32")
	fps=$(sed 's/.*{"name":"fps","unit":"FPS","base":\([0-9.]*\),"new":\([0-9.]*\),.*"verdict":"\([a-z ]*\)"}.*"janky_pct".*/\1 \2 \3/' \
		"$rec/c32.json")
	if [ $rc -eq 0 ] && [ $crc -eq 0 ] && [ -n "$mb" ] && [ -n "$mn" ] &&
		grep -q '"base":{"path":"[^"]*run31",[^}]*"recordings":3,[^}]*"failed_iterations":\[\]}' \
			"$rec/c32.json" &&
		grep -q '"new":{"path":"[^"]*run32",[^}]*"recordings":3,[^}]*"failed_iterations":\[\]}' \
			"$rec/c32.json" &&
		echo "$fps $mb $mn" | awk '{ exit !($3 == "worse" && ($1 - $4) ^ 2 < 1e-6 &&
			($2 - $5) ^ 2 < 1e-6) }'
	then pass; else
		fail "compare of two record --repeat runs: exits $rc $crc; fps '$fps', iteration means $mb $mn"
		cat "$rec/r32.out" "$rec/c32.err"; head -c 600 "$rec/c32.json"
	fi
	# history lists every iteration as a run of its own, with its label and session folder
	"$GFXSTAT" history --db "$rec/h31.db" > "$rec/h31.out" 2>&1
	hrc=$?
	if [ $hrc -eq 0 ] && [ "$(grep -c ' base-v1 .* FAKE1 .* trace .*/run31/iter-0[123]$' "$rec/h31.out")" = 3 ] &&
		[ "$(grep -c ' new-v2 .* FAKE1 .* trace .*/run32/iter-0[123]$' "$rec/h31.out")" = 3 ]
	then pass; else
		fail "record --save --label: history must list 3 + 3 runs (exit $hrc)"
		cat "$rec/h31.out"
	fi
	# the command fails in iteration 2: marked, kept, the others fine; compare leaves it out
	scenario "$rec/s33" FAKE1
	FAKE_ADB=$rec/s33 "$GFXSTAT" record -q --repeat 3 --settle 0 -o "$rec/run33" -- \
		sh -c 'n=$(($(cat "$R/c33" 2> /dev/null || echo 0) + 1)); echo $n > "$R/c33"; sleep 0.3; [ $n != 2 ]' \
		> "$rec/r33.out" 2>&1
	rc=$?
	j=$rec/run33/iter-02/iteration.json
	"$GFXSTAT" compare --format json "$rec/run31" "$rec/run33" > "$rec/c33.json" 2> /dev/null
	if [ $rc -eq 0 ] && grep -q '"exit_status":1,.*"failed":true,"why":"the command exited with status 1"}' "$j" &&
		grep -q '"exit_status":0,.*"failed":false' "$rec/run33/iter-01/iteration.json" &&
		grep -q '"exit_status":0,.*"failed":false' "$rec/run33/iter-03/iteration.json" &&
		[ -s "$rec/run33/iter-02/report.html" ] &&
		[ "$(wc -l < "$rec/run33/iter-02/frames.csv")" -gt 10 ] &&
		grep -q '{"session":"iter-02","failed":true,"exit_status":1,' "$rec/run33/run.json" &&
		grep -q '\],"failed":1}$' "$rec/run33/run.json" &&
		grep -q 'iter-02 failed: the command exited with status 1' "$rec/r33.out" &&
		grep -q '"new":{"path":"[^"]*run33",[^}]*"recordings":2,[^}]*"failed_iterations":\["[^"]*run33/iter-02"\]}' \
			"$rec/c33.json"
	then pass; else
		fail "record --repeat with a failing iteration 2: exit $rc; it must be kept and marked"
		cat "$rec/r33.out" "$j"; head -c 400 "$rec/c33.json"
	fi
	# a run folder is never mixed: -o RUN again is refused, --overwrite replaces every iteration
	FAKE_ADB=$rec/s33 "$GFXSTAT" record -q --repeat 1 --settle 0 -o "$rec/run33" -- true \
		> "$rec/r34.out" 2>&1
	rc=$?
	# (sleep: an iteration that captures no frame is a failed capture, exit 3)
	FAKE_ADB=$rec/s33 "$GFXSTAT" record -q --repeat 1 --settle 0 --overwrite -o "$rec/run33" -- \
		sleep 0.5 > "$rec/r34b.out" 2>&1
	rc2=$?
	if [ $rc -eq 2 ] && grep -q 'already holds a run of iterations' "$rec/r34.out" && [ $rc2 -eq 0 ] &&
		[ "$(ls "$rec/run33")" = "$(printf 'iter-01\nrun.json')" ]; then pass; else
		fail "record --repeat -o into a run: exits $rc $rc2 (want 2, then 0 with one iteration)"
		cat "$rec/r34.out" "$rec/r34b.out"; ls "$rec/run33"
	fi
	# usage: no command; with --all
	FAKE_ADB=$rec/s33 "$GFXSTAT" record --repeat 2 > "$rec/r35.out" 2>&1
	rc=$?
	FAKE_ADB=$rec/s33 "$GFXSTAT" record --repeat 2 --all -- true > "$rec/r35b.out" 2>&1
	rc2=$?
	if [ $rc -eq 2 ] && grep -q -- '--repeat needs the command' "$rec/r35.out" && [ $rc2 -eq 2 ]
	then pass; else
		fail "record --repeat usage errors: exits $rc $rc2 (want 2 2)"
	fi
	unset ADB R
fi

# -- the app's version in device.json and the history (issue 10) -----------------------------
# The focused app is an updated system app: `dumpsys package` prints the running version's
# block, then the system image's under "Hidden system packages:"; the first one is taken, once.
if [ -x "$GFXSIM" ]; then
	export ADB="$FAKE"
	scenario "$rec/s40" FAKE1
	mkdir -p "$rec/s40/FAKE1/package"
	printf '%s\n' 'Packages:' \
		'  Package [com.example.app2] (9a7c3e1):' \
		'    appId=10123' \
		'    pkg=Package{5b2e0d8 com.example.app2}' \
		'    codePath=/data/app/~~Qk3b9xw==/com.example.app2-Zr0wq==' \
		'    versionCode=241 minSdk=24 targetSdk=34' \
		'    minExtensionVersions=[]' \
		'    versionName=2.4.1' \
		'    flags=[ SYSTEM HAS_CODE UPDATED_SYSTEM_APP ALLOW_BACKUP ]' \
		'' \
		'Hidden system packages:' \
		'  Package [com.example.app2] (3c8d2b7):' \
		'    codePath=/product/app/App2' \
		'    versionCode=200 minSdk=24 targetSdk=34' \
		'    versionName=2.0.0' > "$rec/s40/FAKE1/package/com.example.app2"
	FAKE_ADB=$rec/s40 "$GFXSTAT" record -q --duration 1 --save --db "$rec/h40.db" \
		-o "$rec/sess40" > "$rec/r40.out" 2>&1
	rc=$?
	"$GFXSTAT" history --db "$rec/h40.db" > "$rec/h40.out" 2>&1
	hrc=$?
	if [ $rc -eq 0 ] && [ $hrc -eq 0 ] &&
		grep -q '"focus":"com.example.app2/com.example.app2.MainActivity","app":{"package":"com.example.app2","version_name":"2.4.1","version_code":241},"source":"trace"' \
			"$rec/sess40/device.json" &&
		[ "$(grep -c 'shell dumpsys package' "$rec/s40/log")" = 1 ] &&
		grep -q '^-s FAKE1 shell dumpsys package com.example.app2$' "$rec/s40/log" &&
		grep -q ' FAKE1 .* trace .* com.example.app2 .* 2.4.1 (241) .*/sess40$' "$rec/h40.out" &&
		! grep -q 'com.example.app1 .* 2.4.1 (241)' "$rec/h40.out"
	then pass; else
		fail "record --save: the app's version (dumpsys package) in device.json and history (exits $rc $hrc)"
		cat "$rec/r40.out" "$rec/sess40/device.json" "$rec/h40.out"; grep package "$rec/s40/log"
	fi
	# an app the device does not know (--app): no output, the version null, no failure;
	# nothing named at all: "app" is null
	FAKE_ADB=$rec/s40 "$GFXSTAT" record -q --duration 1 --app com.example.gone --save \
		--db "$rec/h40.db" -o "$rec/sess41" > "$rec/r41.out" 2>&1
	rc=$?
	scenario "$rec/s42" FAKE1
	: > "$rec/s42/FAKE1/window"
	FAKE_ADB=$rec/s42 "$GFXSTAT" record -q --duration 1 -o "$rec/sess42" > "$rec/r42.out" 2>&1
	rc2=$?
	"$GFXSTAT" history --db "$rec/h40.db" > "$rec/h41.out" 2>&1
	if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] &&
		grep -q '"app":{"package":"com.example.gone","version_name":null,"version_code":null},' \
			"$rec/sess41/device.json" &&
		grep -q '"focus":"","app":null,"source"' "$rec/sess42/device.json" &&
		! grep -q 'dumpsys package' "$rec/s42/log" &&
		[ "$(grep -c '/sess41$' "$rec/h41.out")" -ge 1 ] &&
		! grep '/sess41$' "$rec/h41.out" | grep -q '2\.4\.1'
	then pass; else
		fail "record: an unknown app's version is null, no app gives \"app\":null (exits $rc $rc2)"
		cat "$rec/r41.out" "$rec/sess41/device.json" "$rec/r42.out" "$rec/sess42/device.json" "$rec/h41.out"
	fi
	# issue 10: two record runs with different labels appear in history and in trend, on
	# SQLite and on a real local PostgreSQL (tests/pg.sh)
	. "$ROOT/tests/pg.sh"
	r43_dbs=$rec/h43.db
	if pg_start 43; then r43_dbs="$r43_dbs $PG_URL"; else skip "record --save: $PG_WHY"; fi
	for db in $r43_dbs; do
		for label in v1 v2; do
			scenario "$rec/s43$label" FAKE1
			FAKE_ADB=$rec/s43$label "$GFXSTAT" record -q --duration 1 --save --db "$db" \
				--label "$label" -o "$rec/sess43$label$$" > "$rec/r43.out" 2>&1 ||
				cat "$rec/r43.out"
			rm -rf "$rec/sess43$label$$"
		done
		"$GFXSTAT" history --db "$db" > "$rec/h43.out" 2>&1
		"$GFXSTAT" trend --db "$db" --app com.example.app2 --metric fps > "$rec/t43.out" 2>&1
		if grep -q ' v1 .* com.example.app2 ' "$rec/h43.out" &&
			grep -q ' v2 .* com.example.app2 ' "$rec/h43.out" &&
			grep -q '^v1 ' "$rec/t43.out" && grep -q '^v2 ' "$rec/t43.out"; then pass; else
			fail "record --save --label v1/v2 in history and trend ($db)"
			cat "$rec/h43.out" "$rec/t43.out"
		fi
	done
	[ "$r43_dbs" != "$rec/h43.db" ] && pg_stop
	unset ADB
fi
