# SPDX-License-Identifier: MIT
# Perfetto scheduler events, counters and the system series, sourced by tests/run.sh, on the
# real Apache-2.0 sample perfetto-testdata/api32_startup_warm.perfetto-trace (Pixel 6a,
# Android 13, kernel 5.10; google/perfetto test/data): its ftrace bundles hold compact_sched
# (161 bundles) and ordinary events, and its packets battery, power rails, sys_stats and
# process_stats.
#
# Where the expected figures come from (independent of the C decoder):
#   A Python 3 walker (below; no protobuf library, no gfxstat code) reads every
#   FtraceEventBundle: compact_sched's switch and waking columns (delta timestamps summed,
#   the first switch of each CPU and the wakings before it skipped: no previous thread, as
#   trace_processor's compact_sched_*_skipped) and each FtraceEvent's kind, then sorts them
#   all by (time, arrival). perfetto-dump --sched must list the same events in the same
#   order. Its per-kind counts (sched_switch 11078 = 11086 - 8 skipped, sched_waking 6849 =
#   6857 - 8, cpu_frequency 1442, cpu_idle 6809, sched_blocked_reason 1253, binder 1365 and
#   1365, task_rename 51, task_newtask 45, gpu_frequency 128) are written below as well, for
#   hosts without python3. The counters: 8 battery packets (charge, capacity, current),
#   128 rail energies (16 rails x 8 packets), 3 sys_stats MemAvailable, 176 processes'
#   vm_rss_kb in the one process_stats packet.
#   Then the text path: the dump (--sched --markers) is a text trace of the same events;
#   read back by `gfxstat`, it must give the same event counts and the same CPU and
#   cluster series (to the integer) as the Perfetto trace itself.
#   tests/unit/test_perfetto_sched.c (api32_thread_states) checks the thread states span by
#   span on the same sample, and one span by hand.

P51=$TMP/p51
mkdir -p "$P51"
P51_SAMPLE=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace

cat > "$P51/walk.py" <<'P51_WALK'
import sys
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
		out.append((f, w, v))
	return out
def packed(b):
	i, out = 0, []
	while i < len(b):
		v, i = varint(b, i); out.append(v)
	return out
KIND = {4: 'sched_switch', 11: 'cpu_frequency', 12: 'cpu_frequency_limits', 13: 'cpu_idle',
	17: 'sched_wakeup', 18: 'sched_blocked_reason', 20: 'sched_waking',
	50: 'binder_transaction', 51: 'binder_transaction_received', 114: 'sched_wakeup_new',
	235: 'task_newtask', 236: 'task_rename'}
evs, seen = [], set()
for f, w, pkt in fields(open(sys.argv[1], 'rb').read()):
	for g, w2, bundle in (fields(pkt) if f == 1 else []):
		if g != 1 or w2 != 2: continue
		cpu, local = 0, []
		for h, w3, v in fields(bundle):
			if h == 1: cpu = v
		for h, w3, v in fields(bundle):
			if h == 4:
				col = {}
				for k, w4, x in fields(v):
					if k != 5: col.setdefault(k, []).extend(packed(x) if w4 == 2 else [x])
				t = 0
				for n, d in enumerate(col.get(1, [])):
					t += d; local.append((t, 0, n, 'sched_switch'))
				t = 0
				for n, d in enumerate(col.get(7, [])):
					t += d; local.append((t, 1, n, 'sched_waking'))
		for n, (h, w3, v) in enumerate(x for x in fields(bundle) if x[0] == 2):
			e = [(k, x) for k, w4, x in fields(v)]
			ts = [x for k, x in e if k == 1][0]
			kind = [k for k, x in e if k not in (1, 2, 5)][0]
			if kind in KIND: local.append((ts, 2, n, KIND[kind]))
		for ts, order, n, kind in sorted(local):
			if order < 2 and cpu not in seen:
				if kind == 'sched_switch': seen.add(cpu)
				continue
			evs.append((ts, len(evs), cpu, kind))
for ts, seq, cpu, kind in sorted(evs): print('%d %d %s' % (ts, cpu, kind))
P51_WALK

# "ts_ns cpu event" of perfetto-dump --sched's lines
p51_events() {
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) { c = substr($i, 2) + 0
		t = $(i + 2); e = $(i + 3); sub(/:$/, "", t); sub(/:$/, "", e)
		split(t, p, "."); printf "%s%s %d %s\n", p[1], p[2], c, e; break } }' "$1"
}

if [ ! -f "$P51_SAMPLE" ]; then
	skip "perfetto sched: $P51_SAMPLE is absent"
else
	$GFXSTAT perfetto-dump --sched --counters "$P51_SAMPLE" > "$P51/dump" 2> "$P51/err"
	[ $? -eq 0 ] && pass || fail "perfetto-dump --sched --counters on api32"
	# the summary's lines, one a line (the walker's and the packets' counts, above)
	tr '\n' ' ' <<'P51_SUM' | sed 's/ $//' > "$P51/want.sched"
scheduler events: sched_switch 11078 sched_waking 6849 sched_blocked_reason 1253
cpu_frequency 1442 cpu_idle 6809 binder_transaction 1365 binder_transaction_received 1365
task_rename 51 task_newtask 45
P51_SUM
	tr '\n' ' ' <<'P51_SUM' | sed 's/ $//' > "$P51/want.compact"
compact_sched: 161 bundles, 11086 switches, 6857 wakings, 16 skipped (no previous thread),
0 errors; kernel 5.10
P51_SUM
	tr '\n' ' ' <<'P51_SUM' | sed 's/ $//' > "$P51/want.counters"
counters: gpu_freq 128 battery_charge 8 battery_capacity 8 battery_current 8
rail_energy 128 mem_available 3 process_rss 176
P51_SUM
	for w in sched compact counters; do
		grep -qxF -f "$P51/want.$w" "$P51/dump" && pass ||
			fail "api32: $(cat "$P51/want.$w"): got $(grep "^$(cut -c1-8 "$P51/want.$w")" \
				"$P51/dump")"
	done
	grep -q '^merge: .*, 0 late (dropped), 0 forced out' "$P51/dump" && pass ||
		fail "api32: events late or forced in the merge ($(grep '^merge' "$P51/dump"))"
	# a counter line: a rail named by its descriptor, its own boot-time stamp (ms)
	grep -q "	rail_energy	3	.*	uWs	S2M_VDD_CPUCL2$" "$P51/dump" && pass ||
		fail "api32: rail 3 named S2M_VDD_CPUCL2"
	# the events, in order, against the independent walker
	p51_events "$P51/dump" > "$P51/mine"
	if command -v python3 > /dev/null 2>&1; then
		python3 "$P51/walk.py" "$P51_SAMPLE" > "$P51/walker" 2> "$P51/walk.err"
		[ "$(wc -l < "$P51/walker")" -eq 30257 ] && cmp -s "$P51/walker" "$P51/mine" && pass ||
			fail "api32: scheduler events differ from the walker's" \
				"($(wc -l < "$P51/mine") vs $(wc -l < "$P51/walker"))"
	else
		skip "perfetto sched: python3 is not installed: the walker's order not checked"
	fi
	sort -n -c "$P51/mine" 2> /dev/null && pass || fail "api32: scheduler events not in time order"

	# the text path: the dump as a text trace gives the same events and CPU series
	$GFXSTAT perfetto-dump --sched --markers "$P51_SAMPLE" |
		grep -E '^.+-[0-9]+ \(-----\) \[[0-9]+\] ' > "$P51/text.trace"
	$GFXSTAT inspect "$P51/text.trace" > "$P51/text.inspect" 2>&1
	$GFXSTAT inspect "$P51_SAMPLE" > "$P51/pf.inspect" 2>&1
	# the text form holds the same scheduler events (and no counters: they are no events)
	sed 's/^scheduler events: /  system events: /; s/ \([0-9][0-9]*\) / \1, /g' \
		"$P51/want.sched" > "$P51/want.text"
	grep -qxF -f "$P51/want.text" "$P51/text.inspect" && pass ||
		fail "api32 as text: inspect's system events ($(grep 'system events:' \
			"$P51/text.inspect"))"
	grep -q '^  system events: sched_switch 11078, .*, gpu_freq 128, .*, process_rss 176$' \
		"$P51/pf.inspect" &&
		grep -q '^  system events absent: sched_wakeup, .*thermal' "$P51/pf.inspect" &&
		grep -q '^  system series: 8 CPUs in 3 frequency clusters' "$P51/pf.inspect" && pass ||
		fail "api32: inspect's system events and clusters"
	$GFXSTAT analyze --format json "$P51/text.trace" > "$P51/text.json" 2> /dev/null
	$GFXSTAT analyze --format json "$P51_SAMPLE" > "$P51/pf.json" 2> /dev/null
	# each "cpuN.x"/"clusterN.x" series as one line: name start values
	p51_series() {
		{ tr -d '\n' < "$1"; echo; } | sed 's/{"name"/\n{"name"/g' |
			sed -n 's/^{"name":"\(c[a-z]*[0-9]*\.[a-z]*\)".*"start_ns":\([0-9]*\),.*/\1 \2 &/p' |
			sed 's/ {.*"values":\[\([-0-9,null]*\)\].*/ \1/'
	}
	p51_series "$P51/text.json" > "$P51/text.series"
	p51_series "$P51/pf.json" > "$P51/pf.series"
	[ "$(wc -l < "$P51/pf.series")" -eq 22 ] && cmp -s "$P51/text.series" "$P51/pf.series" &&
		pass || fail "api32: CPU and cluster series differ between Perfetto and its text form"
	grep -q '"name":"rail.S4M_VDD_CPUCL0","unit":"uW"' "$P51/pf.json" &&
		grep -q '"name":"gpu0.active","unit":"permille"' "$P51/pf.json" &&
		grep -q '"name":"battery.current","unit":"uA"' "$P51/pf.json" && pass ||
		fail "api32: analyze --json lacks the rail, GPU or battery series"

	# export: the series as counter tracks of "gfxstat system"
	$GFXSTAT export -q -o "$P51/export.json" "$P51_SAMPLE" 2> /dev/null
	grep -q '"name":"process_name","args":{"name":"gfxstat system"}' "$P51/export.json" &&
		grep -q '{"ph":"C","pid":4194306,"name":"cpu0.freq","ts":157479000000.000,"args":{"kHz":' \
			"$P51/export.json" && pass || fail "api32: export lacks the system counter tracks"
fi

# a trace without scheduler events says so, and what it lacks
P51_NIA=$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace
if [ -f "$P51_NIA" ]; then
	$GFXSTAT inspect "$P51_NIA" > "$P51/nia" 2>&1
	grep -q '^  system events: none$' "$P51/nia" &&
		grep -q '^  system events absent: sched_switch, sched_waking,' "$P51/nia" && pass ||
		fail "nowinandroid: inspect should say it holds no system events"
fi
