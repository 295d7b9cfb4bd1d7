# SPDX-License-Identifier: MIT
# record --screenshots against the fake adb (tests/fake-adb/adb), which answers `exec-out
# screencap -p` with tests/fake-adb/screen.png (a 36x64 RGBA PNG made for these tests) and
# `cat /proc/uptime` with a clock that runs with the host's from the scenario's uptime_base;
# the context's `grep -H ^` reads a small fake sysfs (8 CPUs in two frequency clusters, kgsl,
# two thermal zones, the battery). Checks: the PNGs are saved whole, named by their time,
# listed in screens.csv with increasing times and their place on the trace's clock; a janky
# frame of 125 ms or more takes one at once; a killed run keeps every listed one; a refused
# screencap is said once and never faked; --overwrite leaves no old screenshot; the session's
# report puts them on the timeline, with the context lanes (headless Chromium,
# report/test/check-lanes.js). Sourced by tests/run.sh.
FAKE=$ROOT/tests/fake-adb/adb
scr=$TMP/record-screens
mkdir -p "$scr"

sc_put() { # sc_put FILE LINE...
	mkdir -p "$(dirname "$1")"
	f=$1
	shift
	printf '%s\n' "$@" > "$f"
}
# sc_device DIR FIRST_TS: FAKE1 (Android 9, tracefs: the trace source), its trace_pipe the
# gfxsim trace at its recorded pace, its clock at FIRST_TS - 0.1 s when first read
sc_device() {
	rm -rf "$1"
	mkdir -p "$1/FAKE1"
	printf 'List of devices attached\nFAKE1\tdevice product:fake model:Fake_9 transport_id:1\n' \
		> "$1/devices"
	sc_put "$1/FAKE1/props" 'ro.product.model=Fake 9' 'ro.build.version.release=9' \
		'ro.build.version.sdk=28'
	echo /sys/kernel/tracing > "$1/FAKE1/tracefs"
	sc_put "$1/FAKE1/window" \
		'  mCurrentFocus=Window{1f2e u0 com.example.app2/com.example.app2.MainActivity}'
	cp "$scr/trace" "$1/FAKE1/trace_pipe"
	echo realtime > "$1/FAKE1/pace"
	echo 3 > "$1/FAKE1/hold"
	awk -v t="$2" 'BEGIN { printf "%.2f\n", t - 0.1 }' > "$1/FAKE1/uptime_base"
	y=$1/FAKE1/sysfs
	mkdir -p "$y/sys/devices/system/cpu/cpufreq"
	sc_put "$y/sys/devices/system/cpu/possible" 0-7
	sc_put "$y/sys/devices/system/cpu/present" 0-7
	for k in 0 1 2 3 4 5 6 7; do
		# cpus 0-3 one policy at 1804800 kHz, cpus 4-7 another at 2419200 kHz
		f=1804800
		[ $k -ge 4 ] && f=2419200
		sc_put "$y/sys/devices/system/cpu/cpu$k/cpufreq/scaling_cur_freq" $f
	done
	sc_put "$y/sys/class/kgsl/kgsl-3d0/gpuclk" 585000000
	sc_put "$y/sys/class/kgsl/kgsl-3d0/gpubusy" '  250000  1000000'
	sc_put "$y/sys/class/thermal/thermal_zone0/type" cpu-0-0-usr
	sc_put "$y/sys/class/thermal/thermal_zone0/temp" 45000
	sc_put "$y/sys/class/thermal/thermal_zone1/type" skin-therm
	sc_put "$y/sys/class/thermal/thermal_zone1/temp" 38500
	sc_put "$y/sys/class/power_supply/battery/current_now" -500000
	sc_put "$y/sys/class/power_supply/battery/voltage_now" 4000000
	sc_put "$y/sys/class/power_supply/battery/temp" 305
	sc_put "$y/sys/class/power_supply/battery/capacity" 85
	# /proc/stat of sample k: every CPU 100 k ticks busy and 300 k idle, so that each
	# sample after the first has a load (25 %)
	for k in $(seq 1 40); do
		d=$1/FAKE1/sysfs.$(printf %03d "$k")/proc
		mkdir -p "$d"
		awk -v k="$k" 'BEGIN {
			printf "cpu  %d 0 0 %d 0 0 0 0 0 0\n", 800 * k, 2400 * k
			for (c = 0; c < 8; c++) printf "cpu%d %d 0 0 %d 0 0 0 0 0 0\n", c, 100 * k, 300 * k
		}' > "$d/stat"
	done
}
sc_rec() { # sc_rec WORK SCENARIO ARGS...: gfxstat record in WORK; WORK/out, WORK/err
	w=$1
	s=$2
	shift 2
	rm -rf "$w"
	mkdir -p "$w"
	(cd "$w" && FAKE_ADB=$s ADB=$FAKE "$GFXSTAT" record "$@" > out 2> err)
}
# rows of screens.csv whose file is not the fake's PNG byte for byte, or missing
sc_bad_files() { # sc_bad_files SESSION
	sed 1d "$1/screens.csv" | cut -d, -f2 | while IFS= read -r f; do
		cmp -s "$1/$f" "$ROOT/tests/fake-adb/screen.png" || echo "$f"
	done
}

if [ ! -x "$GFXSIM" ]; then
	skip "record --screenshots: $GFXSIM missing"
else
	# the trace of 70-record.sh: its app2 draws a 300.0 ms and a 150.1 ms janky frame
	# (analyze's worst frames), both over the 125 ms that asks for a screenshot at once
	"$GFXSIM" --seed 11 --hz 60 --duration 6 --apps 2 --jank 10 --no-header \
		-o "$scr/trace" 2> /dev/null
	first=$(sed -n 's/.*\] [^ ]* *\([0-9][0-9]*\.[0-9]*\): .*/\1/p' "$scr/trace" | head -n 1)

	# -- 1. every 0.5 s for 4 s, with the context ---------------------------------------
	s1=$scr/s1
	sc_device "$s1" "$first"
	sc_rec "$s1.w" "$s1" -q --screenshots 0.5 --context-ms 500 --duration 4 -o sess
	rc=$?
	sess=$s1.w/sess
	n=$(sed 1d "$sess/screens.csv" 2> /dev/null | wc -l)
	pngs=$(ls "$sess/screens" 2> /dev/null | grep -c '\.png$')
	# 4 s at one every 0.5 s: 8 on the period's grid (0, 0.5 ... 3.5 s), plus one at each
	# janky frame the capture saw in time; a screencap of the fake takes some 20-50 ms, so
	# none is skipped on an idle machine (6 at least on a loaded one, where a slow one may
	# make the next grid point pass)
	if [ $rc -eq 0 ] && [ "$n" -ge 6 ] && [ "$n" -le 12 ] && [ "$n" = "$pngs" ] &&
		[ "$(head -n 1 "$sess/screens.csv")" = \
			'time_s,file,host_time_ns,device_uptime_ns,trace_ns,trace_clock,why,bytes' ] &&
		[ -z "$(sc_bad_files "$sess")" ] &&
		[ -z "$(ls -A "$sess/screens" | grep -v '^[0-9]\{6\}\.[0-9]\{3\}\.png$')" ]; then
		pass
	else
		fail "record --screenshots: exit $rc, $n rows, $pngs PNGs, bad: $(sc_bad_files "$sess" | head -3) ($(head -c 300 "$s1.w/err"))"
	fi
	# each row: its file named by its time, times and the device's clock increasing, the
	# trace clock the device's (atrace's clock is the boot clock /proc/uptime reads), the
	# PNG's size (176 bytes: wc -c tests/fake-adb/screen.png)
	bad=$(sed 1d "$sess/screens.csv" | awk -F, -v png="$(wc -c < "$ROOT/tests/fake-adb/screen.png")" '
		{ name = sprintf("screens/%010.3f.png", $1)
		  if ($2 != name) print "name " $2 " for " $1
		  if (sprintf("%.3f", $3 / 1e9) != $1) print "host time " $3 " for " $1
		  if (NR > 1 && ($1 <= t || $4 <= u)) print "not increasing at " $1
		  if ($5 != $4 || $6 != "boot") print "trace clock " $5 " " $6 " for uptime " $4
		  if ($8 != png) print "bytes " $8
		  if ($7 != "period" && $7 != "jank") print "why " $7
		  t = $1; u = $4 }')
	[ -z "$bad" ] && pass || fail "screens.csv rows: $bad"
	# the periodic ones on a 0.5 s grid from the first (t1 + k * 0.5 s), each taken at its
	# grid point or late by at most 0.3 s (a tick of the capture's loop, 50-200 ms, or a
	# janky frame's screenshot still running), k increasing: none skipped twice, none doubled
	bad=$(sed 1d "$sess/screens.csv" | awk -F, '$7 == "period" {
		if (!n++) t1 = $1
		k = int(($1 - t1) / 0.5 + 0.0001); late = $1 - t1 - 0.5 * k
		if (n > 1 && k <= pk) print "grid point " k " twice at " $1
		if (late > 0.3) print "late by " late " at " $1
		pk = k }
		END { if (n < 6) print n " periodic ones in 4 s" }')
	[ -z "$bad" ] && pass || fail "periodic screenshots: $bad"
	# a janky frame of 300 ms: a screenshot at once, "jank"
	grep -q ',jank,' "$sess/screens.csv" && pass ||
		fail "no screenshot at the 300 ms janky frame: $(cat "$sess/screens.csv")"
	grep -q "\"screenshots\":{\"period_s\":0.500,\"count\":$n,\"refused\":null}" "$sess/summary.json" &&
		pass || fail "summary.json screenshots: $(grep -o '"screenshots":{[^}]*}' "$sess/summary.json")"
	# every command sent for them: `screencap -p` through exec-out, the clock through shell
	if [ "$(grep -c '^screencap -p$' "$s1/shell.log")" -ge "$n" ] &&
		[ "$(grep -c '^cat /proc/uptime$' "$s1/shell.log")" -ge "$n" ] &&
		! grep 'screencap' "$s1/shell.log" | grep -qv '^screencap -p$'; then
		pass
	else
		fail "screencap commands: $(grep -e screencap -e uptime "$s1/shell.log" | sort | uniq -c)"
	fi

	# -- 2. the session's report: the screenshots on the timeline, where they were taken --
	# t0: the first present of any layer (frames.csv's present_ns); a screenshot's place is
	# (trace_ns - t0) / 1e9 s, three decimals, in the report's data
	t0=$(sed 1d "$sess/frames.csv" | cut -d, -f5 | grep . | sort -n | head -n 1)
	row=$(sed -n 2p "$sess/screens.csv")
	want_t=$(echo "$row" | awk -F, -v t0="$t0" '{ printf "%.3f", ($5 - t0) / 1e9 }')
	if [ -s "$sess/report.html" ] && grep -q "{\"t\":$want_t,\"why\":\"period\",\"w\":36,\"h\":64,\"src\":\"data:image/png;base64," "$sess/report.html" &&
		[ "$(grep -o '"src":"data:image/png;base64,' "$sess/report.html" | wc -l)" = "$n" ]; then
		pass
	else
		fail "report of the session: no screenshot at $want_t s (t0 $t0, row $row): $(grep -o '"shots":\[{"t":[^,]*' "$sess/report.html")"
	fi
	# the context lanes from context.csv, on the same clock: every series in the data
	for lane in cpu_freq cpu_load gpu thermal power; do
		grep -q "{\"lane\":\"$lane\"" "$sess/report.html" || fail "report: no $lane lane in the data"
	done
	# cpus 0-3 and 4-7 read the same frequency in every row: two clusters, 1804.8 and
	# 2419.2 MHz (kHz / 1000); the battery's power 4000000 uV x -500000 uA = -2000 mW
	if grep -q '"lane":"cpu_freq","name":"cpus 0-3","unit":"MHz","t":\[[^]]*\],"v":\[1804.8' "$sess/report.html" &&
		grep -q '"lane":"cpu_freq","name":"cpus 4-7","unit":"MHz"' "$sess/report.html" &&
		grep -q '"lane":"power","name":"battery","unit":"mW","t":\[[^]]*\],"v":\[-2000' "$sess/report.html"; then
		pass
	else
		fail "context lanes' values: $(grep -o '"ctx":\[.\{0,400\}' "$sess/report.html")"
	fi
	if command -v node > /dev/null && [ -x /usr/bin/chromium ] &&
		[ -d "$ROOT/report/node_modules/playwright-core" ]; then
		# the context was sampled every 0.5 s from before the first frame to after the last
		node "$ROOT/report/test/check-lanes.js" "$sess/report.html" --shots "$n" --window 1 \
			--lanes cpu_freq,cpu_load,gpu,thermal,power > "$scr/lanes.out" 2>&1 &&
			pass || fail "report lanes in Chromium: $(head -c 600 "$scr/lanes.out")"
	else
		skip "record --screenshots report: node, /usr/bin/chromium or playwright-core missing"
	fi

	# -- 3. killed: every screenshot listed is there, whole -----------------------------
	s3=$scr/s3
	sc_device "$s3" "$first"
	rm -rf "$s3.w"
	mkdir -p "$s3.w"
	(cd "$s3.w" && FAKE_ADB=$s3 ADB=$FAKE exec "$GFXSTAT" record -q --screenshots 0.5 \
		--context-ms 0 -o sess > out 2> err) &
	pid=$!
	sleep 2.5
	kill -9 $pid 2> /dev/null
	wait $pid 2> /dev/null
	n3=$(sed 1d "$s3.w/sess/screens.csv" 2> /dev/null | wc -l)
	if [ "$n3" -ge 3 ] && [ -z "$(sc_bad_files "$s3.w/sess")" ]; then
		pass
	else
		fail "killed record: $n3 screenshots listed, bad: $(sc_bad_files "$s3.w/sess" | head -3)"
	fi

	# -- 4. refused: said once, none faked, the frames still recorded ------------------
	s4=$scr/s4
	sc_device "$s4" "$first"
	echo 'Capturing failed.' > "$s4/FAKE1/deny_screencap"
	sc_rec "$s4.w" "$s4" -q --screenshots 0.5 --context-ms 0 --duration 2 -o sess
	rc=$?
	msgs=$(grep -c 'no screenshots: screencap -p gave nothing (exit status 1)' "$s4.w/err")
	if [ $rc -eq 0 ] && [ "$msgs" = 1 ] && [ "$(wc -l < "$s4.w/sess/screens.csv")" = 1 ] &&
		[ -z "$(ls -A "$s4.w/sess/screens")" ] &&
		[ "$(grep -c '^screencap -p$' "$s4/shell.log")" = 1 ] &&
		grep -q '"screenshots":{"period_s":0.500,"count":0,"refused":"screencap -p gave nothing (exit status 1)"}' "$s4.w/sess/summary.json" &&
		[ "$(sed 1d "$s4.w/sess/frames.csv" | wc -l)" -gt 0 ]; then
		pass
	else
		fail "refused screencap: exit $rc, said $msgs times, $(cat "$s4.w/err" | head -c 300)"
	fi
	# --overwrite by a run whose screencap is refused: the old screenshots go with the old
	# session (no two sessions mix)
	cp -r "$sess" "$s4.w/old"
	(cd "$s4.w" && FAKE_ADB=$s4 ADB=$FAKE "$GFXSTAT" record -q --screenshots 0.5 \
		--context-ms 0 --duration 1.5 -o old --overwrite > out2 2> err2)
	rc=$?
	if [ $rc -eq 0 ] && [ -d "$s4.w/old/screens" ] && [ -z "$(ls -A "$s4.w/old/screens")" ] &&
		[ "$(wc -l < "$s4.w/old/screens.csv")" = 1 ] &&
		[ -z "$(ls -A "$s4.w/old" | grep '^\.gfxstat-new')" ]; then
		pass
	else
		fail "--overwrite with screenshots: exit $rc, $(ls -A "$s4.w/old" "$s4.w/old/screens" | tr '\n' ' ') $(head -c 300 "$s4.w/err2")"
	fi

	# -- 4b. a screencap that never answers: said once, the run ends on time ------------
	# (found by review: it ended 3 s late with nothing said and count 0). The fake's
	# screencap sleeps 30 s; the run of 2 s waits at most 3 s for it at the end.
	s4b=$scr/s4b
	sc_device "$s4b" "$first"
	echo 30 > "$s4b/FAKE1/slow_screencap"
	t0=$(date +%s)
	sc_rec "$s4b.w" "$s4b" -q --screenshots 0.5 --context-ms 0 --duration 2 -o sess
	rc=$?
	took=$(( $(date +%s) - t0 ))
	msgs=$(grep -c 'no screenshots: screencap -p did not finish by the end of the recording' "$s4b.w/err")
	if [ $rc -eq 0 ] && [ "$msgs" = 1 ] && [ "$took" -lt 15 ] &&
		[ "$(wc -l < "$s4b.w/sess/screens.csv")" = 1 ] &&
		grep -q '"refused":"screencap -p did not finish by the end of the recording' "$s4b.w/sess/summary.json"; then
		pass
	else
		fail "hung screencap: exit $rc in $took s, said $msgs times, $(head -c 300 "$s4b.w/err")"
	fi

	# -- 5. usage: too often, or on the phone --------------------------------------------
	sc_rec "$scr/u1.w" "$s4" --screenshots 0.1 --duration 1
	rc=$?
	[ $rc -eq 2 ] && grep -q -- '--screenshots' "$scr/u1.w/err" && pass ||
		fail "--screenshots 0.1: exit $rc ($(cat "$scr/u1.w/err"))"
	sc_rec "$scr/u2.w" "$s4" --screenshots 1 --on-device
	rc=$?
	[ $rc -eq 2 ] && grep -q -- '--screenshots does not go with --on-device' "$scr/u2.w/err" && pass ||
		fail "--screenshots --on-device: exit $rc ($(cat "$scr/u2.w/err"))"
fi
