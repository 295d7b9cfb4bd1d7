# SPDX-License-Identifier: MIT
# A Perfetto trace whose first TracePackets are empty ("0a 00": field 1, length 0) is the same
# trace: Perfetto's own writers produce such packets, trace_processor takes any input that
# starts with byte 0x0a as a proto trace (perfetto src/trace_processor/util/trace_type.cc), and
# an empty TracePacket holds nothing. Sourced by tests/run.sh.
#
# The Apache-2.0 api32 sample with two empty packets put before its first one must give the
# very frames the sample gives (gfxstat frames, byte for byte); it was refused as "no frame
# source found" before.

EP_SAMPLE=$SAMPLES/perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
if [ ! -f "$EP_SAMPLE" ]; then
	skip "empty first packets: $EP_SAMPLE missing"
else
	ep=$TMP/empty-packets
	mkdir -p "$ep"
	{ printf '\n\000\n\000'; cat "$EP_SAMPLE"; } > "$ep/t.perfetto-trace"
	"$GFXSTAT" frames -q "$EP_SAMPLE" > "$ep/want.csv" 2> /dev/null
	if "$GFXSTAT" frames -q "$ep/t.perfetto-trace" > "$ep/got.csv" 2> "$ep/err" &&
		[ -s "$ep/want.csv" ] && cmp -s "$ep/want.csv" "$ep/got.csv"; then
		pass
	else
		fail "empty first packets: api32 with 0a 00 0a 00 first: $(head -c 300 "$ep/err")"
	fi
	"$GFXSTAT" inspect "$ep/t.perfetto-trace" > "$ep/inspect" 2>&1
	grep -q 'format: perfetto' "$ep/inspect" && pass ||
		fail "empty first packets: inspect says $(grep -m1 format "$ep/inspect")"
fi
