/* SPDX-License-Identifier: MIT */
/*
 * Unit tests: a Perfetto trace whose first packets are empty ("0a 00", TracePacket {}) is a
 * Perfetto trace. Perfetto's own writers produce them, and trace_processor takes any input
 * that starts with byte 0x0a as a proto trace (perfetto src/trace_processor/util/
 * trace_type.cc); text never holds the NUL byte of an empty packet.
 */
#include "check.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_container.h"

TEST(empty_first_packets)
{
	static const struct {
		const char *in;
		size_t n;
		enum gfxstat_format want;
	} t[] = {
		/* one empty packet, then a packet of 0x6b bytes whose first field is 6, LEN
		 * (0x32): the same packet as test_container.c's case after "0a 00" */
		{ "\x0a\x00\x0a\x6b\x32\xe1\x80\x80\x00\x10", 10, GFXSTAT_FMT_PERFETTO },
		/* three empty packets, then a packet whose first field is 8, varint (0x40) */
		{ "\x0a\x00\x0a\x00\x0a\x00\x0a\x05\x40\x01\x48\x02\x50", 13, GFXSTAT_FMT_PERFETTO },
		/* empty packets only (all the head there is) */
		{ "\x0a\x00", 2, GFXSTAT_FMT_PERFETTO },
		{ "\x0a\x00\x0a\x00", 4, GFXSTAT_FMT_PERFETTO },
		/* text that starts with a newline stays text */
		{ "\n\n# tracer: nop\n", 16, GFXSTAT_FMT_FTRACE_TEXT },
		/* an empty packet, then no packet (a field 0 tag): not a trace */
		{ "\x0a\x00\x00\x00\x00\x00", 6, GFXSTAT_FMT_TEXT },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum gfxstat_format got = gfxstat_detect(t[i].in, t[i].n);

		if (got != t[i].want)
			fprintf(stderr, "  detect case %zu: %s, want %s\n", i,
				gfxstat_format_name(got), gfxstat_format_name(t[i].want));
		CHECK_EQ(got, t[i].want);
	}
}

TEST_SUITE(test_detect_perfetto)
{
	RUN(empty_first_packets);
}
