# SPDX-License-Identifier: MIT
# System series from trace text's counter-like events (lib/input/counter_line.c, and
# cpu_frequency_limits through sys_context.c): in analyze --json, export's counter tracks and
# inspect's list of what a recording holds. Sourced by tests/run.sh.
tc=$TMP/text-counters
mkdir -p "$tc"
# tc_series FILE NAME: the "values" of the series NAME in analyze --json's "system" object
tc_series() {
	tr '{' '\n' < "$1" | awk -v n="\"name\":\"$2\"" 'index($0, n) {
		s = $0; sub(/.*"values":\[/, "", s); sub(/\].*/, "", s); print s; exit }'
}
CT=$SAMPLES/atrace_text/catapult/decompressed_atrace_data.txt
if [ ! -f "$CT" ]; then
	skip "text counters: $CT absent"
else
	# The catapult atrace (683201.35 .. 683202.35 s, app frames only) with GPU frequency and
	# thermal lines after its last, as power.h gpu_frequency and thermal.h
	# thermal_temperature print them. By hand, window 683202 s (the recording ends at its last
	# event, 683203.000000): gpu0 500000 kHz for .2 s, 250000 for .4 s: 200000 / .6 =
	# 333333 (rounded down), on all the .6 s it is known: 1000 permille; gpu-therm the mean of
	# 52000 and 53000 = 52500.
	{
		cat "$CT"
		printf '%s\n' \
			'     kworker/0:1-99    (99) [000] .... 683202.400000: gpu_frequency: state=500000 gpu_id=0' \
			'     kworker/0:1-99    (99) [000] .... 683202.600000: gpu_frequency: state=250000 gpu_id=0' \
			'     kworker/0:1-99    (99) [000] .... 683202.800000: thermal_temperature: thermal_zone=gpu-therm id=3 temp_prev=51000 temp=52000' \
			'     kworker/0:1-99    (99) [000] .... 683202.900000: thermal_temperature: thermal_zone=gpu-therm id=3 temp_prev=52000 temp=53000' \
			'     kworker/0:1-99    (99) [000] .... 683203.000000: gpu_frequency: state=250000 gpu_id=0'
	} > "$tc/ct.txt"
	"$GFXSTAT" analyze -q --json "$tc/ct.txt" > "$tc/a.json" 2> "$tc/err" || fail "text counters: analyze: $(head -c 300 "$tc/err")"
	[ "$(tc_series "$tc/a.json" gpu0.freq)" = 333333 ] && pass ||
		fail "text counters: gpu0.freq is '$(tc_series "$tc/a.json" gpu0.freq)', want 333333"
	[ "$(tc_series "$tc/a.json" gpu0.active)" = 1000 ] && pass ||
		fail "text counters: gpu0.active is '$(tc_series "$tc/a.json" gpu0.active)'"
	[ "$(tc_series "$tc/a.json" thermal.gpu-therm)" = 52500 ] && pass ||
		fail "text counters: thermal.gpu-therm is '$(tc_series "$tc/a.json" thermal.gpu-therm)'"
	grep -q '"holds":{"gpu_freq":3,"thermal":2}' "$tc/a.json" && pass ||
		fail "text counters: analyze's holds: $(grep -o '"holds":{[^}]*}' "$tc/a.json")"
	# export: counter tracks of process 2 (Perfetto UI draws them)
	"$GFXSTAT" export -q "$tc/ct.txt" > "$tc/e.json" 2> /dev/null
	grep -qF '{"ph":"C","pid":4194306,"name":"gpu0.freq","ts":683202000000.000,"args":{"kHz":333333}}' "$tc/e.json" &&
		grep -qF '{"ph":"C","pid":4194306,"name":"thermal.gpu-therm","ts":683202000000.000,"args":{"mC":52500}}' "$tc/e.json" &&
		pass || fail "text counters: export's counter tracks: $(grep '"pid":2' "$tc/e.json" | head -n 3)"
	# inspect names what it holds and what it lacks
	"$GFXSTAT" inspect "$tc/ct.txt" > "$tc/i.txt" 2> /dev/null
	grep -q '^  system events: gpu_freq 3, thermal 2$' "$tc/i.txt" &&
		grep -q '^  system events absent: sched_switch, .*cpu_frequency_limits' "$tc/i.txt" &&
		pass || fail "text counters: inspect: $(grep 'system events' "$tc/i.txt")"
	# the same lines without the GPU/thermal events: no system series (the parser reads none)
	"$GFXSTAT" analyze -q --json "$CT" > "$tc/a0.json" 2> /dev/null
	grep -q '"holds":{}' "$tc/a0.json" && pass || fail "text counters: the sample alone holds counters"
fi

LJ=$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_list_jank.html.zip
if [ ! -f "$LJ" ]; then
	skip "text counters: $LJ absent (the samples are not in the tree: no license)"
else
	# cpu_frequency_limits of the list_jank sample (power.h "min=%lu max=%lu cpu_id=%lu"):
	# cpu_id 7's lines (`gfxstat unwrap` prints them) say min=825600 at 1229151.487030, then
	# min=1056000 from 1229151.548298 in every line until min=825600 at 1229153.570460; max is
	# 2841600 in all. Windows of 1 s from 1229151 s:
	#   1229151: 825600 for 61268 us, 1056000 for 451702 us (to the window's end):
	#            (825600 x 61268 + 1056000 x 451702) / 512970 = 1028481.3 -> 1028481
	#   1229152: 1056000 all of it
	#   1229153: 1056000 for 570460 us, 825600 for 429540 us: 957033.98 -> 957033
	"$GFXSTAT" analyze -q --json "$LJ" > "$tc/lj.json" 2> /dev/null
	case $(tc_series "$tc/lj.json" cpu7.freq_min) in
	1028481,1056000,957033,*) pass ;;
	*) fail "text counters: list_jank cpu7.freq_min is '$(tc_series "$tc/lj.json" cpu7.freq_min)'" ;;
	esac
	[ "$(tc_series "$tc/lj.json" cpu7.freq_max)" = 2841600,2841600,2841600,2841600 ] && pass ||
		fail "text counters: list_jank cpu7.freq_max is '$(tc_series "$tc/lj.json" cpu7.freq_max)'"
	# its only GPU-named clock is l3_gpu_vote_clk, the GPU's vote for the L3 cache: no GPU series
	grep -q '"name":"gpu' "$tc/lj.json" && fail "text counters: list_jank has a GPU series" || pass
fi
