/* SPDX-License-Identifier: MIT */
/*
 * GPU frequency, GPU clocks and thermal zones from ftrace text (counter_local.h), as the
 * counter samples Perfetto's counter packets give, so that a systrace or atrace text trace
 * has the same system series. Each payload is read by the TP_printk of its tracepoint:
 *
 *   gpu_frequency        "state=%lu gpu_id=%lu", kHz (the Android kernels' power/gpu_frequency,
 *                        e.g. drivers/gpu/msm/kgsl_trace_power.h, "@state: New frequency
 *                        (in KHz)"); newer msm kernels' kgsl_pwrtrace.h prints
 *                        "gpu_freq=%luKhz gpu_id=%lu"
 *   kgsl_pwrlevel        "d_name=%s pwrlevel=%d freq=%d[ prev_pwrlevel=%d prev_freq=%d]", Hz
 *                        (drivers/gpu/msm/kgsl_trace.h)
 *   kgsl_clk             "d_name=%s flag=%s active_freq=%d", Hz (kgsl_trace.h; the older
 *                        "d_name=%s flag=%s" / "d_name=%s %s" has no frequency: not read)
 *   clk_set_rate         "%s %lu": clock name, Hz (include/trace/events/clk.h clk_rate)
 *   devfreq_frequency    "dev_name=%-30s freq=%-12lu prev_freq=%lu", Hz
 *                        (include/trace/events/devfreq.h)
 *   thermal_temperature  "thermal_zone=%s id=%d temp_prev=%d temp=%d", millidegrees C
 *                        (include/trace/events/thermal.h)
 *
 * cpu_frequency_limits ("min=%lu max=%lu cpu_id=%lu", power.h) is a scheduler event
 * (sched_line.c): the system series read it from there.
 */
#include <stddef.h>

#include "counter_local.h"

static int is(struct gfxstat_str s, const char *lit, size_t n)
{
	return s.n == n && memcmp(s.p, lit, n) == 0;
}

enum gx_counter_event gx_counter_event_of(struct gfxstat_str e)
{
	/* by length: the lines of a busy trace that reach here (irq, workqueue, clk_enable,
	 * sde_*) fail at the switch or at one compare */
	switch (e.n) {
	case 8:
		return is(e, "kgsl_clk", 8) ? GX_CEV_KGSL_CLK : GX_CEV_NONE;
	case 12:
		return is(e, "clk_set_rate", 12) ? GX_CEV_CLK_SET_RATE : GX_CEV_NONE;
	case 13:
		if (is(e, "gpu_frequency", 13))
			return GX_CEV_GPU_FREQUENCY;
		return is(e, "kgsl_pwrlevel", 13) ? GX_CEV_KGSL_PWRLEVEL : GX_CEV_NONE;
	case 17:
		return is(e, "devfreq_frequency", 17) ? GX_CEV_DEVFREQ : GX_CEV_NONE;
	case 19:
		return is(e, "thermal_temperature", 19) ? GX_CEV_THERMAL : GX_CEV_NONE;
	}
	return GX_CEV_NONE;
}

/* The value of " key=" in @pl (keys are whole words; "%-30s" padding is skipped). */
static int field(struct gfxstat_str pl, const char *key, struct gfxstat_str *out)
{
	const char *p = pl.p, *end = pl.p + pl.n;
	size_t kn = strlen(key);

	while (p < end) {
		const char *w;

		while (p < end && *p == ' ')
			p++;
		w = p;
		while (p < end && *p != ' ')
			p++;
		if ((size_t)(p - w) > kn && w[kn] == '=' && memcmp(w, key, kn) == 0) {
			out->p = w + kn + 1;
			out->n = (size_t)(p - out->p);
			return 0;
		}
	}
	return -1;
}

/* A decimal number, '-' allowed when @neg; @suffix (e.g. "Khz") may follow it. */
static int number(struct gfxstat_str s, int neg, const char *suffix, int64_t *out)
{
	const char *p = s.p, *end = s.p + s.n;
	size_t sn = suffix ? strlen(suffix) : 0;
	uint64_t v = 0;
	int minus = 0;

	if (sn && s.n > sn && memcmp(end - sn, suffix, sn) == 0)
		end -= sn;
	if (neg && p < end && *p == '-') {
		minus = 1;
		p++;
	}
	if (p == end || end - p > 19)
		return -1;
	for (; p < end; p++) {
		if (!gx_isdigit(*p))
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = minus ? -(int64_t)v : (int64_t)v;
	return 0;
}

static int num_field(struct gfxstat_str pl, const char *key, int neg, int64_t *out)
{
	struct gfxstat_str v;

	return field(pl, key, &v) || number(v, neg, NULL, out) ? -1 : 0;
}

/* Does @s contain @lit, in any case? (clock names: "gpu_cc_gx_gfx3d_clk_src", "G3D") */
static int has(struct gfxstat_str s, const char *lit)
{
	size_t n = strlen(lit), i, j;

	for (i = 0; i + n <= s.n; i++) {
		for (j = 0; j < n; j++) {
			char c = s.p[i + j];

			if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != lit[j])
				break;
		}
		if (j == n)
			return 1;
	}
	return 0;
}

/*
 * Is the clock or devfreq device @name the GPU's own? Its name says so ("gpu", "kgsl",
 * "gfx3d" on Qualcomm, "g3d" on Exynos, "mali" on Arm GPUs); but a vote or bus clock of the
 * GPU block is not its frequency: Qualcomm's "l3_gpu_vote_clk" is the GPU's vote for the
 * CPUs' L3 cache clock (it moves with "l3_clk" in the Gracker traces), "gpu_cc_ahb_clk" /
 * "_cxo_" / "_axi_" are its bus and crystal clocks.
 */
static int gpu_clock(struct gfxstat_str name)
{
	if (!(has(name, "gpu") || has(name, "kgsl") || has(name, "gfx3d") || has(name, "g3d") ||
	      has(name, "mali")))
		return 0;
	return !(has(name, "vote") || has(name, "ahb") || has(name, "axi") || has(name, "cxo") ||
		 (name.n >= 3 && memcmp(name.p, "l3_", 3) == 0));
}

enum gfxstat_parse_res gx_counter_line_parse(const struct gfxstat_ftrace_line *line,
					     enum gx_counter_event e, struct gfxstat_counter *out)
{
	struct gfxstat_str pl = line->payload, v;
	int64_t x, id;

	out->ts_ns = line->ts_ns;
	out->index = -1;
	out->name.p = "";
	out->name.n = 0;
	switch (e) {
	case GX_CEV_GPU_FREQUENCY:
		out->kind = GFXSTAT_COUNTER_GPU_FREQ;
		if (num_field(pl, "gpu_id", 0, &id) || id > INT32_MAX)
			return GFXSTAT_PARSE_FAIL;
		if (!field(pl, "state", &v)) {
			if (number(v, 0, NULL, &x))
				return GFXSTAT_PARSE_FAIL;
		} else if (field(pl, "gpu_freq", &v) || number(v, 0, "Khz", &x)) {
			return GFXSTAT_PARSE_FAIL;
		}
		out->index = (int32_t)id;
		out->value = x;
		return GFXSTAT_PARSE_OK;
	case GX_CEV_KGSL_PWRLEVEL:
	case GX_CEV_KGSL_CLK:
		/* the device ("kgsl-3d0") names the series; Hz to kHz */
		out->kind = GFXSTAT_COUNTER_GPU_FREQ;
		if (field(pl, "d_name", &out->name) || !out->name.n)
			return GFXSTAT_PARSE_FAIL;
		if (e == GX_CEV_KGSL_PWRLEVEL) {
			if (num_field(pl, "freq", 0, &x))
				return GFXSTAT_PARSE_FAIL;
		} else {
			if (field(pl, "active_freq", &v))
				return GFXSTAT_PARSE_UNSUPPORTED;
			if (number(v, 0, NULL, &x) || field(pl, "flag", &v))
				return GFXSTAT_PARSE_FAIL;
			/* the clocks off: the GPU is powered down (a level of 0) */
			if (v.n == 3 && memcmp(v.p, "off", 3) == 0)
				x = 0;
		}
		out->value = x / 1000;
		return GFXSTAT_PARSE_OK;
	case GX_CEV_CLK_SET_RATE: {
		/* "<name> <rate>": the name runs to the last space */
		const char *end = pl.p + pl.n, *sp = end;

		out->kind = GFXSTAT_COUNTER_GPU_FREQ;
		while (sp > pl.p && sp[-1] != ' ')
			sp--;
		if (sp <= pl.p + 1)
			return GFXSTAT_PARSE_FAIL;
		out->name.p = pl.p;
		out->name.n = (size_t)(sp - 1 - pl.p);
		if (!gpu_clock(out->name))
			return GFXSTAT_PARSE_UNSUPPORTED;
		if (number((struct gfxstat_str){ sp, (size_t)(end - sp) }, 0, NULL, &x))
			return GFXSTAT_PARSE_FAIL;
		out->value = x / 1000;
		return GFXSTAT_PARSE_OK;
	}
	case GX_CEV_DEVFREQ:
		out->kind = GFXSTAT_COUNTER_GPU_FREQ;
		if (field(pl, "dev_name", &out->name) || !out->name.n)
			return GFXSTAT_PARSE_FAIL;
		if (!gpu_clock(out->name))
			return GFXSTAT_PARSE_UNSUPPORTED;
		if (num_field(pl, "freq", 0, &x))
			return GFXSTAT_PARSE_FAIL;
		out->value = x / 1000;
		return GFXSTAT_PARSE_OK;
	case GX_CEV_THERMAL:
		out->kind = GFXSTAT_COUNTER_THERMAL;
		if (field(pl, "thermal_zone", &out->name) || num_field(pl, "temp", 1, &x) ||
		    num_field(pl, "id", 1, &id) || id < INT32_MIN || id > INT32_MAX)
			return GFXSTAT_PARSE_FAIL;
		out->index = (int32_t)id;
		out->value = x;
		return GFXSTAT_PARSE_OK;
	default:
		return GFXSTAT_PARSE_UNSUPPORTED;
	}
}

enum gfxstat_parse_res gx_counter_line_read(const struct gfxstat_ftrace_line *line,
					    struct gfxstat_counter *out)
{
	enum gx_counter_event e = gx_counter_event_of(line->event);

	return e == GX_CEV_NONE ? GFXSTAT_PARSE_UNSUPPORTED : gx_counter_line_parse(line, e, out);
}

int gx_counter_line_feed(const struct gfxstat_ftrace_line *line, gfxstat_counter_fn fn,
			 void *user, struct gfxstat_stats *stats)
{
	struct gfxstat_counter c;

	switch (gx_counter_line_read(line, &c)) {
	case GFXSTAT_PARSE_OK:
		return fn(user, &c);
	case GFXSTAT_PARSE_UNSUPPORTED:
		return 0;
	default:
		GX_STAT_INC(stats, sched_malformed);
		return 0;
	}
}
