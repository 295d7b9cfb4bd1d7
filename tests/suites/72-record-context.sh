# SPDX-License-Identifier: MIT
# record's device context (--context-ms) against the fake adb (tests/fake-adb/adb), which
# answers `find DIR... -maxdepth 1` and `grep -H ^ PATH...` from a small fake sysfs tree per
# scenario laid out as real devices lay theirs out: a Qualcomm one (kgsl, 8 CPUs in 3
# clusters), a MediaTek one (Mali through devfreq, thermal zones sharing a type) and an Exynos
# one whose thermal zones the device refuses. Every value in context.csv is derived by hand
# from the fake files next to its assertion. Sourced by tests/run.sh.
FAKE=$ROOT/tests/fake-adb/adb
cx=$TMP/record-context
mkdir -p "$cx"

put() { # put FILE LINE...: FILE holds the lines (its folders made)
	mkdir -p "$(dirname "$1")"
	f=$1
	shift
	printf '%s\n' "$@" > "$f"
}
stat_cpus() { # stat_cpus FILE BUSY IDLE [BUSY IDLE]...: /proc/stat of CPUs 0, 1, ...
	# A CPU's BUSY ticks are spread over user nice system irq softirq steal (BUSY-40, 10,
	# 10, 5, 5, 10) and IDLE over idle iowait (IDLE-20, 20); guest 7 and guest_nice 3 are
	# already in user and must not count twice. The "cpu" line is their sums.
	f=$1
	shift
	mkdir -p "$(dirname "$f")"
	awk -v args="$*" 'BEGIN {
		n = split(args, a, " ")
		for (i = 1; i < n; i += 2) { b += a[i]; d += a[i + 1] }
		k = (n / 2)
		printf "cpu  %d %d %d %d %d %d %d %d %d %d\n", b - 40 * k, 10 * k, 10 * k, d - 20 * k, 20 * k, 5 * k, 5 * k, 10 * k, 7 * k, 3 * k
		for (i = 1; i < n; i += 2)
			printf "cpu%d %d 10 10 %d 20 5 5 10 7 3\n", (i - 1) / 2, a[i] - 40, a[i + 1] - 20
		print "intr 123456 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
		print "ctxt 987654321"
		print "btime 1700000000"
		print "processes 54321"
		print "procs_running 3"
		print "procs_blocked 0"
		print "softirq 1 2 3 4 5 6 7 8 9 10 11"
	}' > "$f"
}
app_stat() { # app_stat FILE UTIME STIME: /proc/4321/stat of com.example.app2 (comm cut to
	# its last 15 bytes by the kernel, with a space and a parenthesis to shift naive fields)
	put "$1" "4321 (xample) a(pp2) S 700 700 0 0 -1 1077952832 50000 0 10 0 $2 $3 0 0 10 -10 40 0 12345 1234567890 51200 18446744073709551615 1 1 0 0 0 0 4612 0 1073775864 0 0 0 17 3 0 0 0 0 0"
}
cx_device() { # cx_device DIR: FAKE1 (Android 13, no tracefs: --latency polls of app2, in
	# focus and running as pid 4321), and the files every layout has
	rm -rf "$1"
	mkdir -p "$1/FAKE1/latency" "$1/FAKE1/pidof"
	printf 'List of devices attached\nFAKE1\tdevice product:fake model:Fake_13 transport_id:1\n' \
		> "$1/devices"
	put "$1/FAKE1/props" 'ro.product.model=Fake 13' 'ro.build.version.release=13' \
		'ro.build.version.sdk=33'
	put "$1/FAKE1/window" \
		'  mCurrentFocus=Window{1f2e u0 com.example.app2/com.example.app2.MainActivity}'
	put "$1/FAKE1/sf_list" 'com.example.app2/com.example.app2.MainActivity#0' 'StatusBar#0'
	put "$1/FAKE1/latency/001" 16666667 '1000000000	1000000000	999000000' \
		'1016666667	1016666667	1015666667' '1033333334	1033333334	1032333334'
	echo 4321 > "$1/FAKE1/pidof/com.example.app2"
	y=$1/FAKE1/sysfs
	mkdir -p "$y/sys/devices/system/cpu/cpufreq" "$y/sys/devices/system/cpu/cpuidle" \
		"$y/sys/class/power_supply/usb" "$y/sys/class/misc/ion"
	put "$y/sys/devices/system/cpu/possible" 0-7
	put "$y/sys/devices/system/cpu/present" 0-7
	for k in 0 1 2 3 4 5 6 7; do
		mkdir -p "$y/sys/devices/system/cpu/cpu$k/cpufreq"
	done
}
cx_freqs() { # cx_freqs TREE KHZ...: scaling_cur_freq of CPU 0, 1, ...
	t=$1
	shift
	k=0
	for f; do
		put "$t/sys/devices/system/cpu/cpu$k/cpufreq/scaling_cur_freq" "$f"
		k=$((k + 1))
	done
}
cx_battery() { # cx_battery TREE CURRENT_UA VOLTAGE_UV TEMP_DC LEVEL
	put "$1/sys/class/power_supply/battery/current_now" "$2"
	put "$1/sys/class/power_supply/battery/voltage_now" "$3"
	put "$1/sys/class/power_supply/battery/temp" "$4"
	put "$1/sys/class/power_supply/battery/capacity" "$5"
}
cx_zone() { # cx_zone TREE N TYPE MILLIDEGREES
	put "$1/sys/class/thermal/thermal_zone$2/type" "$3"
	put "$1/sys/class/thermal/thermal_zone$2/temp" "$4"
}
rec_cx() { # rec_cx WORK SCENARIO ARGS...: gfxstat record in WORK; WORK/out, WORK/err
	w=$1
	s=$2
	shift 2
	rm -rf "$w"
	mkdir -p "$w"
	(cd "$w" && FAKE_ADB=$s ADB=$FAKE "$GFXSTAT" record "$@" > out 2> err)
}
rows() { # rows CSV FROM TO: data rows FROM..TO (1 = the first sample), host time dropped
	sed -n "$(($2 + 1)),$(($3 + 1))p" "$1" | cut -d, -f2-
}
# every command the context sent is quoted words: bare [A-Za-z0-9_./:,+@%-] or '...' runs,
# then the one piece of shell syntax, 2>&1; prints the lines that are not
unquoted_lines() { # unquoted_lines SHELL_LOG
	grep -E '^(find|grep -H|pidof) ' "$1" | sed 's/ 2>&1$//' |
		grep -Ev "^([A-Za-z0-9_./:,+@%-]|'[^']*'|\\\\')+( ([A-Za-z0-9_./:,+@%-]|'[^']*'|\\\\')+)*$"
}
# summary.json's series against context.csv's columns: "name min mean max" each, the mean
# rounded to the column's resolution (loads: one decimal)
summary_of() { # summary_of SUMMARY: "name min mean max" per series of "context"
	tr -d '\n' < "$1" | sed 's/.*"context":{[^[]*"series":\[//; s/\],"refused".*//' |
		sed 's/},{/}\n{/g' |
		sed -n 's/.*"name":"\([^"]*\)".*"min":\([^,]*\),"mean":\([^,]*\),"max":\([^}]*\)}.*/\1 \2 \3 \4/p'
}
csv_summary() { # csv_summary CSV: the same from the columns themselves (integers: a load's
	# tenths of a percent; the mean rounded half away from zero, as the library does)
	awk -F, 'function dr(a, b) { return a >= 0 ? int((a + int(b / 2)) / b) : -int((-a + int(b / 2)) / b) }
		NR == 1 { for (i = 3; i <= NF; i++) { name[i] = $i; load[i] = $i ~ /_load_pct$|^gpu_busy_pct$|^app_cpu_pct$/ }
			nf = NF; next }
		{ for (i = 3; i <= nf; i++) if ($i != "") {
			v = load[i] ? int($i * 10 + ($i < 0 ? -0.5 : 0.5)) : $i + 0; n[i]++; s[i] += v
			if (!(i in lo) || v < lo[i]) lo[i] = v
			if (!(i in hi) || v > hi[i]) hi[i] = v
		} }
		function txt(v, i) { return load[i] ? sprintf("%d.%d", int(v / 10), v % 10) : sprintf("%d", v) }
		END { for (i = 3; i <= nf; i++) {
			if (!n[i]) { print name[i], "null null null"; continue }
			print name[i], txt(lo[i], i), txt(dr(s[i], n[i]), i), txt(hi[i], i)
		} }' "$1"
}

# -- 1. Qualcomm: kgsl, 8 CPUs in 3 clusters, three zones, the battery, the app -------------
q=$cx/qcom
cx_device "$q"
y=$q/FAKE1/sysfs
put "$y/sys/class/kgsl/kgsl-3d0/gpuclk" 585000000
put "$y/sys/class/kgsl/kgsl-3d0/gpubusy" '  250000  1000000'
# devfreq's view of the same GPU, and two bandwidth votes: kgsl's own files come first
mkdir -p "$y/sys/class/devfreq/soc:qcom,gpubw" "$y/sys/class/devfreq/soc:qcom,cpu-llcc-ddr-bw"
put "$y/sys/class/devfreq/3d00000.qcom,kgsl-3d0/cur_freq" 585000000
cx_zone "$y" 0 cpu-0-0-usr 45000
cx_zone "$y" 1 gpuss-0-usr 52000
cx_zone "$y" 2 skin-therm 38500
mkdir -p "$y/sys/class/thermal/cooling_device0"
cx_battery "$y" -500000 4000000 305 85
# sample 1: the clusters at 1804800 / 2419200 / 2841600 kHz, every CPU 1000 busy, 3000 idle
cx_freqs "$y" 1804800 1804800 1804800 1804800 2419200 2419200 2419200 2841600
stat_cpus "$y/proc/stat" 1000 3000 1000 3000 1000 3000 1000 3000 1000 3000 1000 3000 \
	1000 3000 1000 3000
put "$y/proc/uptime" '1000.00 7000.00'
app_stat "$y/proc/4321/stat" 100 20
put "$y/proc/4321/status" 'Name:	com.example.app2' 'VmPeak:	 9999999 kB' \
	'VmRSS:	  204800 kB' 'RssAnon:	  100000 kB' 'Threads:	40'
# sample 2: one second of uptime later
y2=$q/FAKE1/sysfs.002
stat_cpus "$y2/proc/stat" 1500 3500 1250 3750 1100 3900 1000 4000 1750 3250 1333 3667 \
	1001 3002 2000 3000
put "$y2/proc/uptime" '1001.00 7007.50'
cx_freqs "$y2" 1036800 1036800 1036800 1036800 2419200 2419200 2419200 3187200
put "$y2/sys/class/kgsl/kgsl-3d0/gpuclk" 379000000
put "$y2/sys/class/kgsl/kgsl-3d0/gpubusy" '   90000   600000'
put "$y2/sys/class/thermal/thermal_zone1/temp" 53500
cx_battery "$y2" -750000 3980000 306 85
app_stat "$y2/proc/4321/stat" 130 40
put "$y2/proc/4321/status" 'VmRSS:	  210000 kB'
# sample 3: 1.5 s later; the GPU powered down (kgsl zeroes gpubusy then)
y3=$q/FAKE1/sysfs.003
stat_cpus "$y3/proc/stat" 1600 4400 1250 4750 1100 4900 1000 5000 1750 4250 1333 4667 \
	1001 4002 2000 4000
put "$y3/proc/uptime" '1002.50 7019.00'
put "$y3/sys/class/kgsl/kgsl-3d0/gpubusy" '      0        0'
app_stat "$y3/proc/4321/stat" 160 55
# sample 4 on: as sample 3 a second later, so every later row has its values
y4=$q/FAKE1/sysfs.004
stat_cpus "$y4/proc/stat" 1700 5300 1350 5650 1200 5800 1100 5900 1850 5150 1433 5567 \
	1101 4902 2100 4900
put "$y4/proc/uptime" '1003.50 7027.00'
app_stat "$y4/proc/4321/stat" 170 65

rec_cx "$q.w" "$q" -q --source latency --duration 1.3 --context-ms 500 -o sess
rc=$?
csv=$q.w/sess/context.csv
want_head='host_time_ns,device_uptime_ns,cpu_load_pct,cpu0_load_pct,cpu1_load_pct,cpu2_load_pct,cpu3_load_pct,cpu4_load_pct,cpu5_load_pct,cpu6_load_pct,cpu7_load_pct,cpu0_freq_khz,cpu1_freq_khz,cpu2_freq_khz,cpu3_freq_khz,cpu4_freq_khz,cpu5_freq_khz,cpu6_freq_khz,cpu7_freq_khz,gpu_freq_khz,gpu_busy_pct,thermal_mC.cpu-0-0-usr,thermal_mC.gpuss-0-usr,thermal_mC.skin-therm,battery_current_ua,battery_voltage_uv,battery_temp_dC,battery_level_pct,battery_power_mw,app_cpu_pct,app_rss_kb'
# row 1: uptime 1000.00 s; no deltas yet (loads and the app's CPU empty, never 0);
#   gpuclk 585000000 Hz = 585000 kHz; gpubusy 250000 of 1000000 us = 25.0 %;
#   power = 4000000 uV x -500000 uA = -2e12 pW = -2000 mW (discharging: current_now < 0)
# row 2: +1.00 s. Each CPU's load = its busy delta over busy + idle deltas:
#   cpu0 500/(500+500) = 50.0; cpu1 250/1000 = 25.0; cpu2 100/1000 = 10.0; cpu3 0/1000 = 0.0
#   cpu4 750/1000 = 75.0; cpu5 333/1000 = 33.3; cpu6 1/(1+2) = 33.3; cpu7 1000/1000 = 100.0
#   all ("cpu" line, the sums): busy 10934-8000 = 2934, idle 28069-24000 = 4069:
#   2934/7003 = 41.896 % -> 41.9
#   gpu 379000 kHz, 90000/600000 = 15.0 %; zone 1 at 53500; power 3980000 x -750000 uA =
#   -2.985e12 pW = -2985 mW; app: utime+stime 170 - 120 = 50 ticks of 10 ms = 500 ms in
#   1.00 s of uptime = 50.0 % of one CPU; VmRSS 210000 kB
# row 3: +1.50 s. cpu0 100/(100+900) = 10.0; cpu1 0/1000 = 0.0 ... cpu7 0/1000 = 0.0;
#   all: busy 10934 -> 11034 (+100), idle 28069 -> 35969 (+7900): 100/8000 = 1.25 % -> 1.3
#   (halves round up)
#   gpubusy 0 of 0: the GPU was off, 0.0; app: 215 - 170 = 45 ticks = 450 ms in 1.5 s = 30.0
q_rows='1000000000000,,,,,,,,,,1804800,1804800,1804800,1804800,2419200,2419200,2419200,2841600,585000,25.0,45000,52000,38500,-500000,4000000,305,85,-2000,,204800
1001000000000,41.9,50.0,25.0,10.0,0.0,75.0,33.3,33.3,100.0,1036800,1036800,1036800,1036800,2419200,2419200,2419200,3187200,379000,15.0,45000,53500,38500,-750000,3980000,306,85,-2985,50.0,210000
1002500000000,1.3,10.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,1036800,1036800,1036800,1036800,2419200,2419200,2419200,3187200,379000,0.0,45000,53500,38500,-750000,3980000,306,85,-2985,30.0,210000'
got_rows=$(rows "$csv" 1 3)
# host times: increasing, within the run
times=$(sed 1d "$csv" | cut -d, -f1 | awk '$1 <= p || $1 <= 0 || $1 > 20e9 { bad = 1 } { p = $1 }
	END { print bad ? "bad" : NR }')
if [ $rc -eq 0 ] && [ "$(head -n 1 "$csv")" = "$want_head" ] && [ "$got_rows" = "$q_rows" ] &&
	[ "$times" -ge 3 ] 2> /dev/null; then pass; else
	fail "record context (Qualcomm): exit $rc; header and rows 1-3 must be as derived ($times rows)"
	cat "$q.w/err"
	head -n 4 "$csv"
	echo "$got_rows" | diff - "$(printf '%s\n' "$q_rows" > "$q.want"; echo "$q.want")"
fi
# summary.json: every series' min/mean/max are its column's; the GPU named by its path
summ=$q.w/sess/summary.json
if [ -n "$(summary_of "$summ")" ] && [ "$(summary_of "$summ")" = "$(csv_summary "$csv")" ] &&
	grep -q '{"name":"gpu_freq_khz","unit":"kHz","path":"/sys/class/kgsl/kgsl-3d0/gpuclk",' "$summ" &&
	grep -q '{"name":"battery_level_pct","unit":"%","path":"/sys/class/power_supply/battery/capacity","samples":[0-9]*,"min":85,"mean":85,"max":85}' "$summ" &&
	grep -q '"name":"gpu_busy_pct","unit":"%",[^}]*"min":0.0,[^}]*"max":25.0}' "$summ" &&
	grep -q '"name":"app_cpu_pct",[^}]*"path":"com.example.app2 /proc/4321/stat"' "$summ" &&
	grep -q '"context":{"period_ms":500,"samples":[3-9],"failed_reads":0,' "$summ" &&
	grep -q '"refused":\[\]' "$summ" &&
	{ ! command -v python3 > /dev/null || python3 -m json.tool "$summ" > /dev/null; }
then pass; else
	fail "record context: summary.json's series must be context.csv's min/mean/max"
	summary_of "$summ" | diff - "$(csv_summary "$csv" > "$q.sum"; echo "$q.sum")"
	grep -o '"context":.*' "$summ" | head -c 600
fi
# one find, one pidof, then one grep per sample: every line quoted words, nothing refused
n_grep=$(grep -c '^grep -H ' "$q/shell.log")
if [ -z "$(unquoted_lines "$q/shell.log")" ] && [ "$(grep -c '^find ' "$q/shell.log")" = 1 ] &&
	[ "$(grep -c '^pidof com.example.app2$' "$q/shell.log")" = 1 ] &&
	[ "$n_grep" = "$(($(wc -l < "$csv") - 1))" ] &&
	grep -q "^grep -H '^' /proc/uptime /proc/stat /sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq .* /proc/4321/status /sys/class/thermal/thermal_zone0/type .*/sys/class/thermal/thermal_zone2/temp 2>&1$" "$q/shell.log" &&
	grep -q "^grep -H '^' /proc/uptime .*/sys/class/kgsl/kgsl-3d0/gpubusy .*/sys/class/thermal/thermal_zone2/temp 2>&1$" "$q/shell.log" &&
	# the GPU candidates kgsl does not need are asked once, at the first sample
	[ "$(grep '^grep -H ' "$q/shell.log" | sed -n 2p | grep -c 'devfreq\|/type ')" = 0 ] &&
	! grep -q 'warning' "$q.w/err"; then pass; else
	fail "record context: the device's commands (one find, one pidof, a grep a sample; quoted words)"
	unquoted_lines "$q/shell.log"
	grep -E '^(find|grep|pidof) ' "$q/shell.log" | head -4
	cat "$q.w/err"
fi
# the live view (no terminal: plain lines): all CPUs' load, the hottest zone, the power
rm -rf "$q/FAKE1/state"
rec_cx "$q.v" "$q" --source latency --duration 1.3 --context-ms 500 -o sess
rc=$?
# zone 1 is the hottest (52000 or 53500 mC by then); power -2000 or -2985 mW
if [ $rc -eq 0 ] && grep -Eq '^[0-9]+ s	device	cpu [0-9]+\.[0-9] %	hottest gpuss-0-usr 5(2\.0|3\.5) C	battery -(2\.000|2\.985) W$' "$q.v/out"
then pass; else
	fail "record context: the live view's device line (cpu, hottest zone, battery)"
	cat "$q.v/out" "$q.v/err"
fi

# -- 2. MediaTek: Mali through devfreq, zones that share a type, no app process ---------------
m=$cx/mtk
cx_device "$m"
rm "$m/FAKE1/pidof/com.example.app2"
y=$m/FAKE1/sysfs
put "$y/sys/class/devfreq/13000000.mali/cur_freq" 886000000
put "$y/sys/class/devfreq/mtk-dvfsrc-devfreq/cur_freq" 3200000000
mkdir -p "$y/sys/class/misc/mali0"   # the misc device without cur_freq (as on MT6885)
cx_zone "$y" 0 mtktscpu 51000
cx_zone "$y" 1 mtktsbattery 30000
cx_zone "$y" 2 mtktsbattery 30500
cx_zone "$y" 3 mtktsAP 44000
cx_battery "$y" -320000 3850000 290 64
# 6 + 2 CPUs at 2000000 / 2200000 kHz
cx_freqs "$y" 2000000 2000000 2000000 2000000 2000000 2000000 2200000 2200000
stat_cpus "$y/proc/stat" 100 900 100 900 100 900 100 900 100 900 100 900 100 900 100 900
put "$y/proc/uptime" '52.31 300.00'
rec_cx "$m.w" "$m" -q --source latency --duration 0.8 --context-ms 500 -o sess
rc=$?
csv=$m.w/sess/context.csv
# no kgsl (no busy column); the GPU's clock is devfreq's, named by its path; the two
# mtktsbattery zones get their zone numbers; power 3850000 uV x -320000 uA = -1232 mW;
# /proc/uptime 52.31 s = 52310000000 ns; no app columns: it has no process (said once)
want_head='host_time_ns,device_uptime_ns,cpu_load_pct,cpu0_load_pct,cpu1_load_pct,cpu2_load_pct,cpu3_load_pct,cpu4_load_pct,cpu5_load_pct,cpu6_load_pct,cpu7_load_pct,cpu0_freq_khz,cpu1_freq_khz,cpu2_freq_khz,cpu3_freq_khz,cpu4_freq_khz,cpu5_freq_khz,cpu6_freq_khz,cpu7_freq_khz,gpu_freq_khz,thermal_mC.mtktscpu,thermal_mC.mtktsbattery.1,thermal_mC.mtktsbattery.2,thermal_mC.mtktsAP,battery_current_ua,battery_voltage_uv,battery_temp_dC,battery_level_pct,battery_power_mw'
want_row='52310000000,,,,,,,,,,2000000,2000000,2000000,2000000,2000000,2000000,2200000,2200000,886000,51000,30000,30500,44000,-320000,3850000,290,64,-1232'
if [ $rc -eq 0 ] && [ "$(head -n 1 "$csv")" = "$want_head" ] &&
	[ "$(rows "$csv" 1 1)" = "$want_row" ] &&
	grep -q '"name":"gpu_freq_khz","unit":"kHz","path":"/sys/class/devfreq/13000000.mali/cur_freq"' \
		"$m.w/sess/summary.json" &&
	[ "$(grep -c 'app_cpu_pct' "$m.w/err")" = 1 ] &&
	grep -q "^gfxstat: warning: FAKE1: context: left out, the device says 'no process (pidof)': app_cpu_pct, app_rss_kb (com.example.app2)$" "$m.w/err" &&
	[ "$(grep -c warning "$m.w/err")" = 1 ]; then pass; else
	fail "record context (MediaTek, Mali devfreq): exit $rc"
	cat "$m.w/err"
	head -n 2 "$csv"
fi

# -- 3. Exynos: Mali's misc device; the device refuses every thermal zone's temperature ----
e=$cx/exynos
cx_device "$e"
y=$e/FAKE1/sysfs
put "$y/sys/class/misc/mali0/device/cur_freq" 702000000
# a devfreq device whose name breaks out of any quoting but gfxstat_shell_quote()'s: asked
# for once (a GPU candidate), as one word, and nothing runs
put "$y/sys/class/devfreq/17000000.mali \$(touch PWN) \`touch PWN\` ';touch PWN;'/cur_freq" 1
cx_zone "$y" 0 BIG 61000
cx_zone "$y" 1 LITTLE 48000
cx_zone "$y" 2 G3D 55000
cx_zone "$y" 3 ISP 40000
echo '/sys/class/thermal/thermal_zone*/temp' > "$e/FAKE1/sysfs_deny"
cx_battery "$y" -410000 3900000 321 50
cx_freqs "$y" 1950000 1950000 1950000 1950000 2400000 2400000 2900000 2900000
stat_cpus "$y/proc/stat" 100 900 100 900 100 900 100 900 100 900 100 900 100 900 100 900
put "$y/proc/uptime" '77.00 500.00'
app_stat "$y/proc/4321/stat" 10 5
put "$y/proc/4321/status" 'VmRSS:	  150000 kB'
rec_cx "$e.w" "$e" -q --source latency --duration 0.8 --context-ms 500 -o sess
rc=$?
csv=$e.w/sess/context.csv
# the zones are named once, with the device's reason, and have no column (not 0, not empty)
want_head='host_time_ns,device_uptime_ns,cpu_load_pct,cpu0_load_pct,cpu1_load_pct,cpu2_load_pct,cpu3_load_pct,cpu4_load_pct,cpu5_load_pct,cpu6_load_pct,cpu7_load_pct,cpu0_freq_khz,cpu1_freq_khz,cpu2_freq_khz,cpu3_freq_khz,cpu4_freq_khz,cpu5_freq_khz,cpu6_freq_khz,cpu7_freq_khz,gpu_freq_khz,battery_current_ua,battery_voltage_uv,battery_temp_dC,battery_level_pct,battery_power_mw,app_cpu_pct,app_rss_kb'
# 702000000 Hz = 702000 kHz; power 3900000 x -410000 = -1599 mW
want_row='77000000000,,,,,,,,,,1950000,1950000,1950000,1950000,2400000,2400000,2900000,2900000,702000,-410000,3900000,321,50,-1599,,150000'
ok=1
for z in BIG LITTLE G3D ISP; do
	[ "$(grep -c "thermal_mC\.$z[, ]" "$e.w/err")" = 1 ] || ok=0
done
if [ $rc -eq 0 ] && [ $ok = 1 ] && [ "$(head -n 1 "$csv")" = "$want_head" ] &&
	[ "$(rows "$csv" 1 1)" = "$want_row" ] &&
	grep -q "^gfxstat: warning: FAKE1: context: left out, the device says 'Permission denied': thermal_mC.BIG, thermal_mC.LITTLE, thermal_mC.G3D, thermal_mC.ISP (/sys/class/thermal/thermal_zone0/temp, ...)$" "$e.w/err" &&
	[ "$(grep -c warning "$e.w/err")" = 1 ] &&
	grep -q '"refused":\[{"series":"thermal_mC.BIG","path":"/sys/class/thermal/thermal_zone0/temp","reason":"Permission denied"},' "$e.w/sess/summary.json" &&
	grep -q '"path":"/sys/class/misc/mali0/device/cur_freq"' "$e.w/sess/summary.json"
then pass; else
	fail "record context with the thermal zones refused: exit $rc; named once, no column"
	cat "$e.w/err"
	head -n 2 "$csv"
fi
# the device's name went as one quoted word, byte for byte, and ran nothing
if [ -z "$(unquoted_lines "$e/shell.log")" ] && [ ! -e "$e.w/PWN" ] && [ ! -e "$e/PWN" ] &&
	[ ! -e "$ROOT/PWN" ] &&
	grep -Fq " '/sys/class/devfreq/17000000.mali \$(touch PWN) \`touch PWN\` '\\'';touch PWN;'\\''/cur_freq' " \
		"$e/shell.log"; then pass; else
	fail "record context: a devfreq name from the device must be one quoted word"
	unquoted_lines "$e/shell.log"
	grep devfreq "$e/shell.log" | head -2
fi

# -- 4. the device goes away mid-run: the rows sampled stay, the session closes -------------
g=$cx/gone
cp -r "$q" "$g"
rm -rf "$g/FAKE1/state" "$g/log" "$g/shell.log"
echo 2 > "$g/FAKE1/context_offline_after"
rec_cx "$g.w" "$g" -q --source latency --duration 20 --context-ms 300 -o sess
rc=$?
csv=$g.w/sess/context.csv
# two samples answered (rows 1 and 2 of the Qualcomm derivation), then nothing: the --latency
# polls stop answering too, exit 4; every row whole; the summary has the two samples
fields=$(awk -F, '{ print NF }' "$csv" | sort -u)
if [ $rc -eq 4 ] && [ "$(wc -l < "$csv")" = 3 ] && [ "$fields" = 31 ] &&
	[ "$(rows "$csv" 1 2)" = "$(echo "$q_rows" | sed -n 1,2p)" ] &&
	grep -q '"context":{"period_ms":300,"samples":2,' "$g.w/sess/summary.json" &&
	grep -q '"exit":4,' "$g.w/sess/summary.json" &&
	grep -q 'context: no answer to .*what was sampled is kept' "$g.w/err" &&
	{ ! command -v python3 > /dev/null || python3 -m json.tool "$g.w/sess/summary.json" > /dev/null; }
then pass; else
	fail "record context, the device gone after 2 samples: exit $rc (want 4), rows kept"
	cat "$g.w/err"
	cat "$csv"
fi

# -- 5. the trace gets the thread-state categories the device lists; --context-ms 0: none ----
if [ -x "$GFXSIM" ]; then
	t=$cx/trace
	cx_device "$t"
	echo /sys/kernel/tracing > "$t/FAKE1/tracefs"
	"$GFXSIM" --seed 7 --hz 60 --duration 2 --apps 1 --no-header -o "$t/FAKE1/trace_pipe" \
		2> /dev/null
	echo 3 > "$t/FAKE1/hold"
	stat_cpus "$t/FAKE1/sysfs/proc/stat" 100 900 100 900
	# atrace.cpp's "  %10s - %s": this device has no binder_driver category
	printf '%s\n' '         gfx - Graphics' '       input - Input' '        view - View System' \
		'       sched - CPU Scheduling' '        freq - CPU Frequency' \
		'        idle - CPU Idle' '  binder_lock - Binder Lock' > "$t/FAKE1/atrace_categories"
	rec_cx "$t.w" "$t" -q --duration 1 -o sess
	rc=$?
	args=$(tr '\n' ' ' < "$t/FAKE1/state/atrace_args")
	if [ $rc -eq 0 ] && [ "$args" = "atrace -b 4096 -c --async_start gfx view input sched freq idle " ] &&
		[ "$(wc -l < "$t.w/sess/context.csv")" -ge 2 ]; then pass; else
		fail "record context: atrace must get sched freq idle (listed), not binder_driver: '$args'"
		cat "$t.w/err"
	fi
	# asked for already (--categories): not twice
	rec_cx "$t.w2" "$t" -q --duration 1 --categories gfx,sched -o sess
	args=$(tr '\n' ' ' < "$t/FAKE1/state/atrace_args")
	rm -f "$t/shell.log"
	rec_cx "$t.w3" "$t" -q --duration 1 --context-ms 0 -o sess
	rc=$?
	args0=$(tr '\n' ' ' < "$t/FAKE1/state/atrace_args")
	if [ "$args" = "atrace -b 4096 -c --async_start gfx sched freq idle " ] && [ $rc -eq 0 ] &&
		[ "$args0" = "atrace -b 4096 -c --async_start gfx view input " ] &&
		[ ! -e "$t.w3/sess/context.csv" ] && grep -q '"context":null' "$t.w3/sess/summary.json" &&
		! grep -Eq '^(find|grep|pidof|atrace --list)' "$t/shell.log"; then pass; else
		fail "record --categories gfx,sched / --context-ms 0: '$args' / '$args0' (exit $rc)"
		cat "$t.w3/err"
	fi
else
	skip "record context with the trace source: $GFXSIM missing"
fi

# -- 6. --context-ms: 0 or 100..600000; passed on to the phone's recorder -------------------
rec_cx "$cx/u.w" "$q" -q --context-ms 50 --duration 1
rc=$?
rec_cx "$cx/u.w2" "$q" -q --context-ms 1s --duration 1
rc2=$?
if [ $rc -eq 2 ] && [ $rc2 -eq 2 ] &&
	grep -q "^gfxstat: error: --context-ms takes 0 (off) or 100 to 600000 ms, not 50$" "$cx/u.w/err"
then pass; else
	fail "record --context-ms 50 / 1s: exits $rc $rc2 (want 2 2)"
	cat "$cx/u.w/err" "$cx/u.w2/err"
fi
p=$cx/phone
cx_device "$p"
put "$p/FAKE1/props" 'ro.product.model=Fake 13' 'ro.build.version.sdk=33' \
	'ro.product.cpu.abi=arm64-v8a'
phone_stop() { # phone_stop WORK: once the phone's recorder runs (its pid file), stop it
	k=0
	while [ $k -lt 100 ] && [ ! -e "$p/FAKE1/root/data/local/tmp/gfxstat.pid" ]; do
		sleep 0.1
		k=$((k + 1))
	done
	(cd "$1" && FAKE_ADB=$p ADB=$FAKE "$GFXSTAT" stop > stop.out 2>&1)
}
rec_cx "$p.w" "$p" --on-device --device-binary "$GFXSTAT" --source latency --context-ms 2000
rc=$?
phone_stop "$p.w"
rc2=$?
rec_cx "$p.w2" "$p" --on-device --device-binary "$GFXSTAT" --source latency
phone_stop "$p.w2"
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] &&
	grep -q ' record --local -q .* --context-ms 2000 -o ' "$p/shell.log" &&
	[ "$(grep -c -- '--context-ms' "$p/shell.log")" = 1 ]; then pass; else
	fail "record --on-device --context-ms 2000: the phone's recorder must get it (exits $rc $rc2)"
	grep 'record --local' "$p/shell.log"
	cat "$p.w/err" "$p.w/stop.out"
fi

# -- 7. Exynos 9820 (Galaxy S10, Mali-G76): the GPU through Samsung's /sys/kernel/gpu; the ----
# battery's sysfs files refused, read from `dumpsys battery` instead
x7=$cx/exynos9820
cx_device "$x7"
y=$x7/FAKE1/sysfs
# Samsung's Mali platform code makes /sys/kernel/gpu (gpu_custom_interface.c): gpu_busy is
# "%3d%%", gpu_clock the clock in MHz; its mali0 misc device has no cur_freq; its devfreq
# devices are the memory and bus ones (not a GPU's)
put "$y/sys/kernel/gpu/gpu_busy" ' 37%'
put "$y/sys/kernel/gpu/gpu_clock" 702
put "$y/sys/kernel/gpu/gpu_max_clock" 702
put "$y/sys/kernel/gpu/gpu_min_clock" 260
put "$y/sys/kernel/gpu/gpu_model" Mali-G76
mkdir -p "$y/sys/class/misc/mali0" "$y/sys/class/devfreq/17000010.devfreq_mif" \
	"$y/sys/class/devfreq/17000020.devfreq_int"
cx_zone "$y" 0 BIG 61000
cx_zone "$y" 1 MID 55000
cx_zone "$y" 2 LITTLE 48000
cx_zone "$y" 3 G3D 52000
cx_battery "$y" -410000 3900000 321 50
echo '/sys/class/power_supply/battery/*' > "$x7/FAKE1/sysfs_deny"
# BatteryService's dump (dumpInternal()), as a phone prints it
printf '%s\n' 'Current Battery Service state:' '  AC powered: false' '  USB powered: true' \
	'  Wireless powered: false' '  Max charging current: 500000' \
	'  Max charging voltage: 5000000' '  Charge counter: 2960000' '  status: 2' '  health: 2' \
	'  present: true' '  level: 85' '  scale: 100' '  voltage: 4123' '  temperature: 312' \
	'  technology: Li-ion' > "$x7/FAKE1/dumpsys_battery"
# 2 + 2 + 4 CPUs (M4, A75, A55)
cx_freqs "$y" 2730000 2730000 2310000 2310000 1950000 1950000 1950000 1950000
stat_cpus "$y/proc/stat" 100 900 100 900 100 900 100 900 100 900 100 900 100 900 100 900
put "$y/proc/uptime" '90.00 600.00'
app_stat "$y/proc/4321/stat" 10 5
put "$y/proc/4321/status" 'VmRSS:	  150000 kB'
# sample 2 on: the GPU at 455 MHz, 62 % busy
put "$x7/FAKE1/sysfs.002/sys/kernel/gpu/gpu_busy" ' 62%'
put "$x7/FAKE1/sysfs.002/sys/kernel/gpu/gpu_clock" 455
rec_cx "$x7.w" "$x7" -q --source latency --duration 0.8 --context-ms 500 -o sess
rc=$?
csv=$x7.w/sess/context.csv
# gpu_clock 702 MHz = 702000 kHz, gpu_busy 37 % = 37.0; the battery from dumpsys: voltage
# 4123 mV = 4123000 uV, temperature 312 (tenths of a degree, as the sysfs temp), level 85;
# no current there, so no battery_current_ua and no battery_power_mw column
want_head='host_time_ns,device_uptime_ns,cpu_load_pct,cpu0_load_pct,cpu1_load_pct,cpu2_load_pct,cpu3_load_pct,cpu4_load_pct,cpu5_load_pct,cpu6_load_pct,cpu7_load_pct,cpu0_freq_khz,cpu1_freq_khz,cpu2_freq_khz,cpu3_freq_khz,cpu4_freq_khz,cpu5_freq_khz,cpu6_freq_khz,cpu7_freq_khz,gpu_freq_khz,gpu_busy_pct,thermal_mC.BIG,thermal_mC.MID,thermal_mC.LITTLE,thermal_mC.G3D,battery_voltage_uv,battery_temp_dC,battery_level_pct,app_cpu_pct,app_rss_kb'
want_row='90000000000,,,,,,,,,,2730000,2730000,2310000,2310000,1950000,1950000,1950000,1950000,702000,37.0,61000,55000,48000,52000,4123000,312,85,,150000'
# the second sample: 455 MHz = 455000 kHz, 62 % = 62.0
row2=$(rows "$csv" 2 2 | cut -d, -f19,20)
if [ $rc -eq 0 ] && [ "$(head -n 1 "$csv")" = "$want_head" ] &&
	[ "$(rows "$csv" 1 1)" = "$want_row" ] && [ "$row2" = "455000,62.0" ] &&
	grep -q '"name":"gpu_freq_khz","unit":"kHz","path":"/sys/kernel/gpu/gpu_clock"' "$x7.w/sess/summary.json" &&
	grep -q '"name":"gpu_busy_pct","unit":"%","path":"/sys/kernel/gpu/gpu_busy"' "$x7.w/sess/summary.json" &&
	grep -q '"name":"battery_level_pct","unit":"%","path":"dumpsys battery"' "$x7.w/sess/summary.json"
then pass; else
	fail "record context (Exynos 9820: /sys/kernel/gpu, dumpsys battery): exit $rc"
	cat "$x7.w/err"
	head -n 3 "$csv"
fi
# the refusal is said once, with the device's reason; dumpsys battery asked once a sample
if [ "$(grep -c warning "$x7.w/err")" = 1 ] &&
	grep -q "^gfxstat: warning: FAKE1: context: left out, the device says 'Permission denied': battery_current_ua, battery_voltage_uv, battery_temp_dC, battery_level_pct (/sys/class/power_supply/battery/current_now, ...)$" "$x7.w/err" &&
	grep -q '"refused":\[{"series":"battery_current_ua","path":"/sys/class/power_supply/battery/current_now","reason":"Permission denied"},' "$x7.w/sess/summary.json" &&
	[ "$(grep -c '^dumpsys battery$' "$x7/shell.log")" = "$(grep -c '^grep -H ' "$x7/shell.log")" ] &&
	[ -z "$(unquoted_lines "$x7/shell.log")" ]
then pass; else
	fail "record context (Exynos 9820): the battery's refusal once, dumpsys battery a sample"
	cat "$x7.w/err"
	grep -E '^(dumpsys|grep)' "$x7/shell.log" | head -4
fi

# -- 8. RK3399 (Mali-T860 through devfreq): the GPU's load from devfreq's "load" -------------
r8=$cx/rk3399
cx_device "$r8"
y=$r8/FAKE1/sysfs
# the vendor devfreq core's load: "%lu@%luHz", busy percent at the current frequency
put "$y/sys/class/devfreq/ff9a0000.gpu/cur_freq" 800000000
put "$y/sys/class/devfreq/ff9a0000.gpu/load" '45@800000000Hz'
put "$y/sys/class/devfreq/dmc/cur_freq" 856000000
cx_zone "$y" 0 soc-thermal 45000
cx_zone "$y" 1 gpu-thermal 43750
cx_battery "$y" -300000 3800000 280 70
# 4 + 2 CPUs (A53, A72)
rm -r "$y/sys/devices/system/cpu/cpu6" "$y/sys/devices/system/cpu/cpu7"
put "$y/sys/devices/system/cpu/possible" 0-5
put "$y/sys/devices/system/cpu/present" 0-5
cx_freqs "$y" 1416000 1416000 1416000 1416000 1800000 1800000
stat_cpus "$y/proc/stat" 100 900 100 900 100 900 100 900 100 900 100 900
put "$y/proc/uptime" '33.00 100.00'
rm "$r8/FAKE1/pidof/com.example.app2"
rec_cx "$r8.w" "$r8" -q --source latency --duration 0.8 --context-ms 500 -o sess
rc=$?
csv=$r8.w/sess/context.csv
# 800000000 Hz = 800000 kHz; load 45 % = 45.0; the dmc (memory) devfreq is not the GPU; the
# battery's files read: no dumpsys. Row fields (host time dropped): uptime, 7 loads (all and
# 6 CPUs), 6 frequencies, then the GPU's two and the zones: fields 15-18
if [ $rc -eq 0 ] && [ "$(grep -c warning "$r8.w/err")" = 1 ] &&
	head -n 1 "$csv" | grep -q ',gpu_freq_khz,gpu_busy_pct,thermal_mC.soc-thermal,thermal_mC.gpu-thermal,battery_current_ua,' &&
	[ "$(rows "$csv" 1 1 | cut -d, -f15-18)" = "800000,45.0,45000,43750" ] &&
	grep -q '"name":"gpu_busy_pct","unit":"%","path":"/sys/class/devfreq/ff9a0000.gpu/load"' "$r8.w/sess/summary.json" &&
	! grep -q 'dumpsys battery' "$r8/shell.log"
then pass; else
	fail "record context (RK3399: devfreq load): exit $rc"
	cat "$r8.w/err"
	head -n 2 "$csv"
fi

# -- 9. a Perfetto capture asks for the scheduler's events (thread states) and the GPU's -----
# frequency when the context is on, none when it is off
if [ -f "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" ]; then
	pf=$cx/perfetto
	cx_device "$pf"
	echo /system/bin/perfetto > "$pf/FAKE1/perfetto"
	cp "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" "$pf/FAKE1/perfetto.pftrace"
	stat_cpus "$pf/FAKE1/sysfs/proc/stat" 100 900
	rec_cx "$pf.w" "$pf" -q --source perfetto --duration 1 -o sess
	rc=$?
	cfg=$pf/config.on
	cp "$pf/FAKE1/state/perfetto_config" "$cfg"
	ok=1
	for ev in sched/sched_switch sched/sched_waking sched/sched_blocked_reason \
		power/cpu_frequency power/cpu_idle power/gpu_frequency; do
		grep -qx "  ftrace_events: \"$ev\"" "$cfg" || ok=0
	done
	rec_cx "$pf.w0" "$pf" -q --source perfetto --duration 1 --context-ms 0 -o sess
	rc0=$?
	cfg0=$pf/FAKE1/state/perfetto_config
	if [ $rc -eq 0 ] && [ $ok = 1 ] && grep -qx '  compact_sched { enabled: true }' "$cfg" &&
		[ $rc0 -eq 0 ] && ! grep -q 'sched/' "$cfg0" &&
		grep -qx '  ftrace_events: "ftrace/print"' "$cfg0"; then pass; else
		fail "record --source perfetto: the config's scheduler and GPU events (exits $rc $rc0)"
		cat "$pf.w/err" "$cfg"
	fi
else
	skip "record context, Perfetto config: the nowinandroid sample is absent"
fi
