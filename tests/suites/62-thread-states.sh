# SPDX-License-Identifier: MIT
# Why a frame was janky, from the scheduler's own events: thread states over each janky
# frame's doFrame (analyze --janky --format json), checked against a derivation by hand from the
# raw lines of the list_jank sample. Sourced by tests/run.sh.
#
# trace_input_blog_list_jank (Gracker's SystraceForBlog; no license, so not in the tree): the
# main thread of sample.tencent.matrix is tid 24874. Its janky doFrame at 1229151.705328 s
# ("B|24874|Choreographer#doFrame"; its E at 1229151.737604: 32.276 ms), and the raw
# sched_switch / sched_waking lines of tid 24874 inside it (`gfxstat unwrap` prints them):
#   .704971 <idle> [006] switch ==> 24874 (before the doFrame: running when it begins)
#   .706157 switch prev_pid=24874 prev_state=S     running   .705328 -> .706157   0.829 ms
#   .731976 <idle>-0 [006] d.h2 sched_waking 24874  sleeping  .706157 -> .731976  25.819 ms
#   .732006 switch ==> 24874                       runnable  .731976 -> .732006   0.030 ms
#   .734156 switch prev_pid=24874 prev_state=S     running   .732006 -> .734156   2.150 ms
#   .734626 RenderThread-24912 sched_waking 24874  sleeping  .734156 -> .734626   0.470 ms
#   .734890 switch ==> 24874                       runnable  .734626 -> .734890   0.264 ms
#   .735773 switch prev_pid=24874 prev_state=S     running   .734890 -> .735773   0.883 ms
#   .737211 RenderThread-24912 sched_waking 24874  sleeping  .735773 -> .737211   1.438 ms
#   .737534 switch ==> 24874                       runnable  .737211 -> .737534   0.323 ms
#   .737604 E (the doFrame ends)                   running   .737534 -> .737604   0.070 ms
# running 0.829 + 2.150 + 0.883 + 0.070 = 3.932 ms; sleeping 25.819 + 0.470 + 1.438 = 27.727;
# runnable 0.030 + 0.264 + 0.323 = 0.617; preempted, uninterruptible, unknown 0; sum 32.276.
# Every switch is on [006]: cpus [6]. cpu_frequency for cpus 4-6 says 1056000 kHz from
# .633780 (and no change until after the doFrame): max 1056000. The longest sleep, 25.819 ms,
# ended in a hard irq on the idle CPU ("d.h2"): woken by an interrupt (a timer: the sample
# sleeps in its input handler). Sleeping is most of the doFrame: class "sleeping".
ts=$TMP/thread-states
mkdir -p "$ts"
LJ=$SAMPLES/systrace_html/Gracker-SystraceForBlog/trace_input_blog_list_jank.html.zip
# ts_field LINE KEY: the first number (or true/false) after "KEY": in LINE
ts_field() {
	printf '%s\n' "$1" | awk -v k="$2" '{
		if (match($0, "\"" k "\":(-?[0-9.]+|true|false)")) {
			s = substr($0, RSTART, RLENGTH); sub(/^[^:]*:/, "", s); print s
		}
	}'
}
# ts_near GOT WANT NAME: |GOT - WANT| <= 0.5 (ms)
ts_near() {
	if awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; exit !(g != "" && d <= 0.5 && d >= -0.5) }'
	then pass; else fail "thread states: $3 is '$1', want $2 (within 0.5 ms)"; fi
}
if [ ! -f "$LJ" ]; then
	skip "thread states: $LJ absent (the samples are not in the tree: no license); the list_jank derivation is not checked"
else
	"$GFXSTAT" analyze -q --janky --format json "$LJ" > "$ts/j.json" 2> "$ts/err"
	line=$(grep -F '"work_start_ns":1229151705328000,' "$ts/j.json" | head -n 1)
	if [ -z "$line" ]; then
		fail "thread states: no janky frame with the doFrame of 1229151.705328 s: $(head -c 300 "$ts/err")"
	else
		main=${line#*\"main_thread\":}
		ts_near "$(ts_field "$main" running)" 3.932 "running"
		ts_near "$(ts_field "$main" runnable)" 0.617 "runnable"
		ts_near "$(ts_field "$main" runnable_preempted)" 0 "runnable_preempted"
		ts_near "$(ts_field "$main" sleeping)" 27.727 "sleeping"
		ts_near "$(ts_field "$main" uninterruptible)" 0 "uninterruptible"
		ts_near "$(ts_field "$main" unknown)" 0 "unknown"
		[ "$(ts_field "$main" tid)" = 24874 ] && pass || fail "thread states: main tid"
		[ "$(ts_field "$main" work_end_ns)" = 1229151737604000 ] && pass ||
			fail "thread states: the doFrame's end"
		case $main in
		*'"cpus":[6],"max_freq_khz":1056000,'*) pass ;;
		*) fail "thread states: cpus/frequency: ${main%%\"binder\"*}" ;;
		esac
		case $main in
		*'"woken_by":{"tid":0,'*'"interrupt":true,"after_sleep_ms":25.819'*) pass ;;
		*) fail "thread states: what woke it: ${main#*\"woken_by\"}" ;;
		esac
		case $line in
		*'"cause_class":"sleeping","signature":"sleeping|main|input'*) pass ;;
		*) fail "thread states: the class: $(printf '%s' "$line" | head -c 600)" ;;
		esac
	fi
	# every janky frame's states add up to its work, and the causes' frames to the janky frames
	awk '
	/"main_thread":/ {
		s = $0; sub(/.*"main_thread":/, "", s)
		a = s; sub(/.*"work_start_ns":/, "", a); sub(/,.*/, "", a)
		b = s; sub(/.*"work_end_ns":/, "", b); sub(/,.*/, "", b)
		st = s; sub(/.*"states_ms":\{/, "", st); sub(/\}.*/, "", st)
		n = split(st, kv, ","); sum = 0
		for (i = 1; i <= n; i++) { v = kv[i]; sub(/.*:/, "", v); sum += v }
		d = sum - (b - a) / 1e6
		if (d > 0.01 || d < -0.01) { bad++; print "states add to " sum " ms, the work is " (b - a) / 1e6 }
	}
	END { exit bad > 0 }' "$ts/j.json" > "$ts/sums" && pass || fail "thread states: $(head -n 3 "$ts/sums")"
	# Clusters count an app's janky frames on its own timeline (review finding 3). Layers #0 and
	# TestFpsActivity#0 both show frames of one main thread: of #0's 4 janky frames, those of
	# the doFrames of 1229151.705328, 1229152.523407 and 1229152.892403 are also janky frames
	# of TestFpsActivity#0 (analyze --janky, work_start_ns), so counting per layer made the
	# top cluster 12 frames (8 + 4) and 601 ms. On the app's timeline: 8 of its 10 janky frames
	# are "main thread sleeping in input handling" (the table's why line), 2 SurfaceFlinger/GPU,
	# and the run's clusters hold the app's 10 frames: (display)'s 3, a layer of no app, are
	# left out while the run has an app (H13 item 3; they were counted: 13).
	"$GFXSTAT" analyze -q --format json "$LJ" > "$ts/a.json" 2> /dev/null
	awk -v jf="$ts/j.json" '
	/^\{"layer":/ {
		j = $0; sub(/.*"janky_frames":/, "", j); sub(/,.*/, "", j)
		c = $0; sub(/.*"causes":\[/, "", c); sum = 0
		while (match(c, /"frames":[0-9]+/)) { sum += substr(c, RSTART + 9, RLENGTH - 9); c = substr(c, RSTART + RLENGTH) }
		if (sum != j) { bad++; print "an entry whose causes hold " sum " of its " j " janky frames" }
		if ($0 ~ /"kind":"app"/) want += j
		if ($0 ~ /^\{"layer":null,"app":"sample.tencent.matrix"/) {
			top = $0; sub(/.*"causes":\[/, "", top)
			if (top !~ /^\{"cause_class":"sleeping","signature":"sleeping\|main\|input[^}]*"summary":"main thread sleeping in input handling","frames":8,/ || j != 10) { bad++; print "the app: " j " janky, causes " substr(top, 1, 300) }
		}
	}
	END {
		while ((getline line < jf) > 0)
			if (line ~ /^\{"cause_class":/) { s = line; sub(/.*"frames":/, "", s); sub(/,.*/, "", s); got += s }
		if (want != 10 || got != 10) { bad++; print "the run'"'"'s clusters hold " got " frames, the apps " want ", want 10" }
		exit bad > 0
	}' "$ts/a.json" > "$ts/apps" && pass || fail "thread states: clusters per app: $(head -n 3 "$ts/apps")"
	# the table says the top cause right after the app's headline
	"$GFXSTAT" analyze -q "$LJ" > "$ts/table" 2> /dev/null
	awk '/^app sample.tencent.matrix/ { a = NR } a && NR == a + 2' "$ts/table" |
		grep -q '^  why  .* janky frames: main thread sleeping in input handling' && pass ||
		fail "thread states: the table's why line: $(sed -n 1,4p "$ts/table")"
	grep -q 'no thread states' "$ts/table" && fail "thread states: list_jank has them" || pass
fi

# A trace without scheduler events (the bundled example): the causes are the sections' alone,
# as before, said once; the JSON names the categories to record.
ex=$ROOT/examples/launcher-60hz.trace
"$GFXSTAT" analyze -q --janky "$ex" > "$ts/ex.csv" 2> /dev/null
grep -q '"\(busy\|sleeping\|cpu_starved\|blocked_io\|slow_cpu\): ' "$ts/ex.csv" &&
	fail "thread states: a class from thread states without scheduler events" || pass
grep -q '"RenderThread: DrawFrame [0-9.]* ms (longest inside: flush commands' "$ts/ex.csv" && pass ||
	fail "thread states: the example's section causes changed: $(sed -n 2p "$ts/ex.csv")"
"$GFXSTAT" analyze -q --format json "$ex" > "$ts/ex.json" 2> /dev/null
grep -q "\"thread_states\":\"not in the trace: record with the 'sched freq' categories" \
	"$ts/ex.json" && pass || fail "thread states: the example's JSON does not say they are missing"
[ "$("$GFXSTAT" analyze -q "$ex" 2> /dev/null | grep -c 'the causes have no thread states')" = 1 ] &&
	pass || fail "thread states: the table does not say once that they are missing"
