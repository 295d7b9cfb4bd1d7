/* SPDX-License-Identifier: MIT */
/*
 * GPU frequency, GPU clock and thermal events of ftrace text (lib/input/counter_line.c), and
 * the system series they make through the text parser (trace_text.c -> sys_context.c). The
 * lines are written as each tracepoint's TP_printk prints them (the formats are quoted in
 * counter_line.c); no sample holds a GPU or thermal event (the Gracker traces' only GPU-named
 * clock, l3_gpu_vote_clk, is the L3 cache vote), so the values below are worked out by hand.
 */
#include <stdio.h>

#include "check.h"
#include "../../lib/input/counter_local.h"
#include "gfxstat/gfxstat_sysctx.h"

#define NONE GFXSTAT_SERIES_NONE

/* Parse one line's header, then its payload as event @e. */
static enum gfxstat_parse_res parse(const char *s, struct gfxstat_counter *c)
{
	struct gfxstat_ftrace_line l;

	if (gfxstat_ftrace_line_parse(s, strlen(s), &l) != GFXSTAT_PARSE_OK)
		return (enum gfxstat_parse_res)-1;
	memset(c, 0, sizeof(*c));
	return gx_counter_line_parse(&l, gx_counter_event_of(l.event), c);
}

#define HDR "kworker/u16:3-24796 (24796) [003] .... 10.000000: "

TEST(lines)
{
	struct gfxstat_counter c;

	/* power/gpu_frequency: kHz as written, the gpu id the index, no name */
	CHECK_EQ(parse(HDR "gpu_frequency: state=585000 gpu_id=0", &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.kind, GFXSTAT_COUNTER_GPU_FREQ);
	CHECK_EQ(c.value, 585000);
	CHECK_EQ(c.index, 0);
	CHECK_EQ(c.name.n, 0);
	CHECK_EQ(c.ts_ns, 10 * GFXSTAT_NSEC_PER_SEC);
	/* kgsl_pwrtrace.h's variant: "gpu_freq=%luKhz gpu_id=%lu" */
	CHECK_EQ(parse(HDR "gpu_frequency: gpu_freq=257000Khz gpu_id=1", &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 257000);
	CHECK_EQ(c.index, 1);
	CHECK_EQ(parse(HDR "gpu_frequency: state=abc gpu_id=0", &c), GFXSTAT_PARSE_FAIL);
	CHECK_EQ(parse(HDR "gpu_frequency: state=585000", &c), GFXSTAT_PARSE_FAIL);

	/* kgsl_pwrlevel: Hz -> kHz, the device names it */
	CHECK_EQ(parse(HDR "kgsl_pwrlevel: d_name=kgsl-3d0 pwrlevel=4 freq=414000000 "
			   "prev_pwrlevel=5 prev_freq=342000000", &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 414000);
	CHECK_STR(c.name, "kgsl-3d0");
	/* the older print without prev_*: the same */
	CHECK_EQ(parse(HDR "kgsl_pwrlevel: d_name=kgsl-3d0 pwrlevel=2 freq=510000000", &c),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 510000);
	/* kgsl_clk: off is 0 (powered down), on its active frequency; the print without a
	 * frequency is not read */
	CHECK_EQ(parse(HDR "kgsl_clk: d_name=kgsl-3d0 flag=off active_freq=414000000", &c),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 0);
	CHECK_EQ(parse(HDR "kgsl_clk: d_name=kgsl-3d0 flag=on active_freq=414000000", &c),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 414000);
	CHECK_EQ(parse(HDR "kgsl_clk: d_name=kgsl-3d0 flag=on", &c), GFXSTAT_PARSE_UNSUPPORTED);

	/* clk_set_rate "%s %lu": a GPU core clock is read, Hz -> kHz */
	CHECK_EQ(parse(HDR "clk_set_rate: gpu_cc_gx_gfx3d_clk_src 585000000", &c),
		 GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 585000);
	CHECK_STR(c.name, "gpu_cc_gx_gfx3d_clk_src");
	CHECK_EQ(parse(HDR "clk_set_rate: G3D 702000000", &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 702000);
	/* the GPU's L3 vote (Gracker traces: its values are l3_clk's), bus clocks, others: not */
	CHECK_EQ(parse(HDR "clk_set_rate: l3_gpu_vote_clk 1267200000", &c),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse(HDR "clk_set_rate: gpu_cc_ahb_clk 19200000", &c),
		 GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse(HDR "clk_set_rate: l3_clk 1267200000", &c), GFXSTAT_PARSE_UNSUPPORTED);
	CHECK_EQ(parse(HDR "clk_set_rate: gpu_cc_gx_gfx3d_clk_src x", &c), GFXSTAT_PARSE_FAIL);

	/* devfreq_frequency: "dev_name=%-30s freq=%-12lu prev_freq=%lu", padded */
	CHECK_EQ(parse(HDR "devfreq_frequency: dev_name=13000000.mali                  "
			   "freq=848000000   prev_freq=702000000", &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, 848000);
	CHECK_STR(c.name, "13000000.mali");
	CHECK_EQ(parse(HDR "devfreq_frequency: dev_name=soc:qcom,cpu-cpu-llcc-bw       "
			   "freq=762000     prev_freq=1144000", &c), GFXSTAT_PARSE_UNSUPPORTED);

	/* thermal_temperature: the zone's name and id, millidegrees; temp, not temp_prev */
	CHECK_EQ(parse(HDR "thermal_temperature: thermal_zone=skin-therm id=55 temp_prev=36100 "
			   "temp=36300", &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.kind, GFXSTAT_COUNTER_THERMAL);
	CHECK_EQ(c.value, 36300);
	CHECK_EQ(c.index, 55);
	CHECK_STR(c.name, "skin-therm");
	CHECK_EQ(parse(HDR "thermal_temperature: thermal_zone=cpu id=1 temp_prev=1 temp=-2500",
		       &c), GFXSTAT_PARSE_OK);
	CHECK_EQ(c.value, -2500);
	CHECK_EQ(parse(HDR "thermal_temperature: thermal_zone=cpu id=1 temp_prev=1", &c),
		 GFXSTAT_PARSE_FAIL);

	/* names that are none of these */
	CHECK_EQ(gx_counter_event_of((struct gfxstat_str){ "cpu_frequency", 13 }), GX_CEV_NONE);
	CHECK_EQ(gx_counter_event_of((struct gfxstat_str){ "clk_enable", 10 }), GX_CEV_NONE);
	CHECK_EQ(gx_counter_event_of((struct gfxstat_str){ "thermal_zone_trip", 17 }),
		 GX_CEV_NONE);
}

static int no_marker(void *u, const struct gfxstat_ftrace_line *ev, const struct gfxstat_marker *m)
{
	(void)u;
	(void)ev;
	(void)m;
	return 0;
}

static const struct gfxstat_series *find(const struct gfxstat_sysctx *x, const char *name)
{
	size_t i;

	for (i = 0; i < gfxstat_sysctx_nseries(x); i++)
		if (strcmp(gfxstat_sysctx_series(x, i)->name, name) == 0)
			return gfxstat_sysctx_series(x, i);
	return NULL;
}

static const char *vals(const struct gfxstat_series *s)
{
	static char buf[256];
	size_t n = 0, i;

	if (!s)
		return "(missing)";
	buf[0] = 0;
	for (i = 0; i < s->n && n < sizeof(buf) - 24; i++)
		n += (size_t)(s->v[i] == NONE
				      ? snprintf(buf + n, sizeof(buf) - n, "%s-", i ? " " : "")
				      : snprintf(buf + n, sizeof(buf) - n, "%s%lld", i ? " " : "",
						 (long long)s->v[i]));
	return buf;
}

#define K "k-9 (9) [000] .... "
static const char trace[] =
	K "10.000000: gpu_frequency: state=300000 gpu_id=0\n"
	K "10.000000: kgsl_pwrlevel: d_name=kgsl-3d0 pwrlevel=4 freq=414000000 prev_pwrlevel=5 "
	  "prev_freq=342000000\n"
	K "10.000000: clk_set_rate: gpu_cc_gx_gfx3d_clk_src 585000000\n"
	K "10.000000: clk_set_rate: l3_gpu_vote_clk 1267200000\n"
	K "10.000000: cpu_frequency_limits: min=300000 max=1800000 cpu_id=0\n"
	K "10.200000: thermal_temperature: thermal_zone=skin-therm id=55 "
	  "temp_prev=39000 temp=40000\n"
	K "10.250000: kgsl_clk: d_name=kgsl-3d0 flag=off active_freq=414000000\n"
	K "10.500000: gpu_frequency: state=600000 gpu_id=0\n"
	K "10.500000: cpu_frequency_limits: min=300000 max=1200000 cpu_id=0\n"
	K "10.750000: kgsl_clk: d_name=kgsl-3d0 flag=on active_freq=414000000\n"
	K "10.800000: thermal_temperature: thermal_zone=skin-therm id=55 "
	  "temp_prev=40000 temp=41000\n"
	K "11.000000: kgsl_pwrlevel: d_name=kgsl-3d0 pwrlevel=6 freq=257000000 prev_pwrlevel=4 "
	  "prev_freq=414000000\n"
	K "11.250000: gpu_frequency: state=0 gpu_id=0\n"
	K "11.500000: thermal_temperature: thermal_zone=skin-therm id=55 "
	  "temp_prev=41000 temp=42000\n"
	K "11.500000: clk_set_rate: gpu_cc_gx_gfx3d_clk_src 300000000\n"
	K "11.750000: gpu_frequency: state=200000 gpu_id=0\n"
	K "11.800000: gpu_frequency: state=bad gpu_id=0\n"
	K "12.000000: gpu_frequency: state=200000 gpu_id=0\n";

TEST(series_from_text)
{
	struct gfxstat_sysctx *x = gfxstat_sysctx_new(GFXSTAT_NSEC_PER_SEC);
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(no_marker, NULL);
	const struct gfxstat_sysctx_counts *c;

	/* the system series read every scheduler event and these counters */
	gfxstat_trace_parser_set_sched_fn(p, gfxstat_sysctx_sched, x, 0);
	gfxstat_trace_parser_set_counter_fn(p, gfxstat_sysctx_counter, x);
	CHECK_EQ(gfxstat_trace_parser_feed(p, trace, sizeof(trace) - 1), 0);
	CHECK_EQ(gfxstat_trace_parser_finish(p), 0);
	/* the bad state: one malformed line, not a sample */
	CHECK_EQ(gfxstat_trace_parser_stats(p)->v[GFXSTAT_STAT_sched_malformed], 1);
	/* the recording ends at its last event, 12.0 s */
	CHECK_EQ(gfxstat_sysctx_finish(x, GFXSTAT_NS_NONE), 0);
	c = gfxstat_sysctx_counts(x);
	/* gpu_frequency 5, kgsl 4, the GPU clock 2 (not the L3 vote) */
	CHECK_EQ(c->counter[GFXSTAT_COUNTER_GPU_FREQ], 11);
	CHECK_EQ(c->counter[GFXSTAT_COUNTER_THERMAL], 3);
	CHECK_EQ(c->sched[GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS], 2);
	/* gpu0: window 10 = 300000 for .5 s, 600000 for .5 s = 450000; window 11 = 600000 for
	 * .25 s, off .25 -> .75 (0: powered down, not counted), 200000 for .25 s:
	 * (150000 + 50000) / .5 = 400000; on 1000 and 500 permille */
	CHECK_CSTR(vals(find(x, "gpu0.freq")), "450000 400000");
	CHECK_CSTR(vals(find(x, "gpu0.active")), "1000 500");
	/* kgsl-3d0: 414000 on 10.0-10.25 and 10.75-11.0 (off between) = 414000, on 500;
	 * 257000 all of window 11, on 1000 */
	CHECK_CSTR(vals(find(x, "gpu.kgsl-3d0.freq")), "414000 257000");
	CHECK_CSTR(vals(find(x, "gpu.kgsl-3d0.active")), "500 1000");
	/* the GPU core clock: 585000 all of 10; 585000 .5 s + 300000 .5 s = 442500; no active
	 * series (a clock's rate does not say the GPU is off), no series of the L3 vote */
	CHECK_CSTR(vals(find(x, "gpu.gpu_cc_gx_gfx3d_clk_src.freq")), "585000 442500");
	CHECK(find(x, "gpu.gpu_cc_gx_gfx3d_clk_src.active") == NULL);
	CHECK(find(x, "gpu.l3_gpu_vote_clk.freq") == NULL);
	/* skin-therm: mean of 40000 and 41000; then 42000 */
	CHECK_CSTR(vals(find(x, "thermal.skin-therm")), "40500 42000");
	/* cpu0's policy: max 1800000 for .5 s, 1200000 for .5 s = 1500000, then 1200000 */
	CHECK_CSTR(vals(find(x, "cpu0.freq_max")), "1500000 1200000");
	CHECK_CSTR(vals(find(x, "cpu0.freq_min")), "300000 300000");
	gfxstat_trace_parser_free(p);
	gfxstat_sysctx_free(x);
}

TEST(off_by_default)
{
	struct gfxstat_sysctx *x = gfxstat_sysctx_new(GFXSTAT_NSEC_PER_SEC);
	struct gfxstat_trace_parser *p = gfxstat_trace_parser_new(no_marker, NULL);

	/* scheduler events only: the counter lines are dropped, as before */
	gfxstat_trace_parser_set_sched_fn(p, gfxstat_sysctx_sched, x, 0);
	CHECK_EQ(gfxstat_trace_parser_feed(p, trace, sizeof(trace) - 1), 0);
	CHECK_EQ(gfxstat_trace_parser_finish(p), 0);
	CHECK_EQ(gfxstat_sysctx_finish(x, GFXSTAT_NS_NONE), 0);
	CHECK_EQ(gfxstat_sysctx_counts(x)->counter[GFXSTAT_COUNTER_GPU_FREQ], 0);
	CHECK_EQ(gfxstat_trace_parser_stats(p)->v[GFXSTAT_STAT_sched_malformed], 0);
	CHECK(find(x, "gpu0.freq") == NULL);
	gfxstat_trace_parser_free(p);
	gfxstat_sysctx_free(x);
}

TEST_SUITE(test_counter_line)
{
	RUN(lines);
	RUN(series_from_text);
	RUN(off_by_default);
}
