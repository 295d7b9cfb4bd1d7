/* SPDX-License-Identifier: MIT */
/* Every ftrace header form seen in the wild (FORMATS.md 1.1-1.2). */
#include "check.h"
#include "gfxstat/gfxstat.h"

static enum gfxstat_parse_res parse(const char *s, struct gfxstat_ftrace_line *ev)
{
	memset(ev, 0, sizeof(*ev));
	return gfxstat_ftrace_line_parse(s, strlen(s), ev);
}

TEST(seed_line_with_tgid)
{
	struct gfxstat_ftrace_line ev;

	/* the seed article's sample line: 5-wide tgid, 4-char flags */
	CHECK_EQ(parse("DispSync-799    (  683) [000] ...1 1080841.601945: tracing_mark_write: "
		       "C|683|VSYNC-app|1", &ev), GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "DispSync");
	CHECK_EQ(ev.pid, 799);
	CHECK_EQ(ev.tgid, 683);
	CHECK_EQ(ev.cpu, 0);
	CHECK_EQ(ev.ts_ns, 1080841601945000LL);
	CHECK_STR(ev.ts_text, "1080841.601945");
	CHECK_STR(ev.event, "tracing_mark_write");
	CHECK_STR(ev.payload, "C|683|VSYNC-app|1");
}

TEST(unknown_task_and_tgid)
{
	struct gfxstat_ftrace_line ev;

	CHECK_EQ(parse("           <...>-683       (-----) [001] ...1 1080841.602840: "
		       "tracing_mark_write: C|683|StatusBar#0|1", &ev), GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "<...>");
	CHECK_EQ(ev.pid, 683);
	CHECK_EQ(ev.tgid, -1);
	CHECK_EQ(ev.cpu, 1);
	/* 7-wide kernel: "(-------)" and pid padded to 7 */
	CHECK_EQ(parse("   <...>-18926   (-------) [005] d..2. 12.000001: sched_switch: x", &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.pid, 18926);
	CHECK_EQ(ev.tgid, -1);
	CHECK_EQ(ev.cpu, 5);
	CHECK_STR(ev.event, "sched_switch");
	CHECK_STR(ev.payload, "x");
}

TEST(seven_wide_and_five_char_flags)
{
	struct gfxstat_ftrace_line ev;

	CHECK_EQ(parse("  surfaceflinger-683     (    683) [002] d..2. 1080841.605342: "
		       "tracing_mark_write: B|683|postFramebuffer", &ev), GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "surfaceflinger");
	CHECK_EQ(ev.pid, 683);
	CHECK_EQ(ev.tgid, 683);
	CHECK_EQ(ev.cpu, 2);
	CHECK_STR(ev.payload, "B|683|postFramebuffer");
}

TEST(no_tgid_column)
{
	struct gfxstat_ftrace_line ev;

	/* Jelly Bean systrace (catapult android_systrace.html): no tgid, no flags, "0:" */
	CHECK_EQ(parse("  SurfaceFlinger-236   [000] 50260.947870: 0: B|124|postFramebuffer", &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "SurfaceFlinger");
	CHECK_EQ(ev.pid, 236);
	CHECK_EQ(ev.tgid, -1);
	CHECK_EQ(ev.ts_ns, 50260947870000LL);
	CHECK_STR(ev.event, "0");
	CHECK_STR(ev.payload, "B|124|postFramebuffer");
	/* Perfetto's tokenizer comments: with and without flags */
	CHECK_EQ(parse("<idle>-0     [000] ...2     0.002188: task_newtask: pid=1 comm=init", &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "<idle>");
	CHECK_EQ(ev.pid, 0);
	CHECK_EQ(ev.ts_ns, 2188000);
	CHECK_STR(ev.payload, "pid=1 comm=init");
	CHECK_EQ(parse("<idle>-0     [000]  0.002188: task_newtask: pid=1", &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.ts_ns, 2188000);
	CHECK_STR(ev.event, "task_newtask");
}

TEST(task_names_with_spaces_dashes_brackets)
{
	struct gfxstat_ftrace_line ev;

	CHECK_EQ(parse(" Jit thread pool-1234  ( 1200) [001] .... 123.456789: tracing_mark_write: "
		       "B|1200|JIT", &ev), GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "Jit thread pool");
	CHECK_EQ(ev.pid, 1234);
	CHECK_EQ(ev.tgid, 1200);
	CHECK_EQ(parse("       Thread-12-1234  ( 1200) [003] .... 1.000000: tracing_mark_write: E",
		       &ev), GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "Thread-12");
	CHECK_EQ(ev.pid, 1234);
	CHECK_EQ(parse("kworker/u16:1-77    (   77) [004] ....   316.196720: 0: "
		       "B|77|__scm_call_armv8_64|0", &ev), GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "kworker/u16:1");
	CHECK_EQ(ev.cpu, 4);
	CHECK_EQ(ev.ts_ns, 316196720000LL);
	/* a '[' inside the task name is not the cpu field */
	CHECK_EQ(parse("  foo[1]-55    [003] .... 10.000001: sched_waking: comm=a", &ev),
		 GFXSTAT_PARSE_OK);
	CHECK_STR(ev.task, "foo[1]");
	CHECK_EQ(ev.pid, 55);
	CHECK_EQ(ev.cpu, 3);
}

TEST(timestamps_exact)
{
	struct gfxstat_ftrace_line ev;
	int64_t ns;

	CHECK_EQ(parse("a-1 [000] .... 1.123456789: e: x", &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.ts_ns, 1123456789LL);
	CHECK_EQ(parse("a-1 [000] .... 7.5: e: x", &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.ts_ns, 7500000000LL);
	/* a value double cannot hold exactly in ns: 999999999.999999 s */
	CHECK_EQ(parse("a-1 [000] .... 999999999.999999: e: x", &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.ts_ns, 999999999999999000LL);
	CHECK_EQ(gfxstat_parse_decimal_ns("16.666667", 9, 1000000, &ns), 0);
	CHECK_EQ(ns, 16666667);
	CHECK_EQ(gfxstat_parse_decimal_ns("15.9999995", 10, 1000000, &ns), 0);
	CHECK_EQ(ns, 16000000); /* rounded, not truncated */
	CHECK_EQ(gfxstat_parse_decimal_ns("15.9999994", 10, 1000000, &ns), 0);
	CHECK_EQ(ns, 15999999);
	CHECK_EQ(gfxstat_parse_decimal_ns("0.5", 3, 1000000000, &ns), 0);
	CHECK_EQ(ns, 500000000);
	CHECK_EQ(gfxstat_parse_decimal_ns("2", 1, 1000000000, &ns), 0);
	CHECK_EQ(ns, 2000000000);
	CHECK(gfxstat_parse_decimal_ns("-1", 2, 1000000, &ns) != 0);
	CHECK(gfxstat_parse_decimal_ns("1.2.3", 5, 1000000, &ns) != 0);
	CHECK(gfxstat_parse_decimal_ns("", 0, 1000000, &ns) != 0);
	CHECK(gfxstat_parse_decimal_ns("99999999999999999999", 20, 1, &ns) != 0);
}

TEST(not_events)
{
	struct gfxstat_ftrace_line ev;

	CHECK_EQ(parse("# tracer: nop", &ev), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse("#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION", &ev),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse("##### CPU 2 buffer started ####", &ev), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse("", &ev), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse("   ", &ev), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse("hello world", &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("TRACE:", &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("a-1 [000] .... 12: e: x", &ev), GFXSTAT_PARSE_FAIL);    /* no fraction */
	CHECK_EQ(parse("a-1 [000] .... 1.5 e: x", &ev), GFXSTAT_PARSE_FAIL);    /* no colon */
	CHECK_EQ(parse("a-1 [000] .... 1.5:", &ev), GFXSTAT_PARSE_FAIL);        /* no event */
	CHECK_EQ(parse("a-x [000] .... 1.5: e: x", &ev), GFXSTAT_PARSE_FAIL);   /* no pid */
	CHECK_EQ(parse("a-1 (12a) [000] .... 1.5: e: x", &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("a-1 [0x0] .... 1.5: e: x", &ev), GFXSTAT_PARSE_FAIL);
	/* a ten-digit tgid would overflow int32 (found by a fuzzer through format detection) */
	CHECK_EQ(parse("a-1 (3333333333) [000] .... 1.5: e: x", &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("a-1 [000] .... 1.1234567890123: e: x", &ev), GFXSTAT_PARSE_FAIL);
	/* seconds whose nanoseconds overflow int64 (found by fuzzing) */
	CHECK_EQ(parse("a-1 [000] .... 9223372036.999999: e: x", &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("a-1 [000] .... 99999999999.5: e: x", &ev), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse("a-1 [000] .... 9223372035.999999: e: x", &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.ts_ns, 9223372035999999000LL);
	CHECK_EQ(parse("a-1 [000] .... 1.5: tracing_mark_write:", &ev), GFXSTAT_PARSE_OK);
	CHECK_EQ(ev.payload.n, 0);
}

TEST_SUITE(test_ftrace_line)
{
	RUN(seed_line_with_tgid);
	RUN(unknown_task_and_tgid);
	RUN(seven_wide_and_five_char_flags);
	RUN(no_tgid_column);
	RUN(task_names_with_spaces_dashes_brackets);
	RUN(timestamps_exact);
	RUN(not_events);
}
