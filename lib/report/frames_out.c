/* SPDX-License-Identifier: MIT */
/* `gfxstat frames` rows: CSV with one fixed header, or one JSON object per line. */
#include <stdio.h>

#include "../gx_local.h"

/* The optional columns after the six fixed ones, in order. */
#define OPT_COLUMNS(F)                                                                     \
	F(latch_ns, latch_ns)                                                              \
	F(vsync_period_ns, vsync_period_ns)                                                \
	F(desired_present_ns, desired_present_ns)                                          \
	F(expected_start_ns, expected_start_ns)                                            \
	F(expected_end_ns, expected_end_ns)                                                \
	F(actual_start_ns, actual_start_ns)                                                \
	F(actual_end_ns, actual_end_ns)                                                    \
	F(duration_ns, duration_ns)

/* RFC 4180: quote a field that holds a comma, a quote or a line break */
static void put_csv(struct gx_out *o, struct gfxstat_str s)
{
	if (!memchr(s.p, ',', s.n) && !memchr(s.p, '"', s.n) && !memchr(s.p, '\n', s.n) &&
	    !memchr(s.p, '\r', s.n))
		gx_out_put(o, s.p, s.n);
	else
		gx_out_quoted(o, s);
}

static void put_json_str(struct gx_out *o, struct gfxstat_str s)
{
	size_t i;

	gx_out_put(o, "\"", 1);
	for (i = 0; i < s.n; i++) {
		unsigned char c = (unsigned char)s.p[i];
		char b[8];

		if (c == '"' || c == '\\') {
			gx_out_put(o, "\\", 1);
			gx_out_put(o, s.p + i, 1);
		} else if (c < 0x20) {
			snprintf(b, sizeof(b), "\\u%04x", c);
			gx_out_puts(o, b);
		} else {
			gx_out_put(o, s.p + i, 1);
		}
	}
	gx_out_put(o, "\"", 1);
}

size_t gfxstat_frame_csv_header(char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };
	int i;

	gx_out_puts(&o, "source,layer,app,pid,present_ns,interval_ns");
#define HDR(name, field) gx_out_puts(&o, "," #name);
	OPT_COLUMNS(HDR)
#undef HDR
	gx_out_puts(&o, ",token,display_token,jank_type,present_type,prediction_type,janky,jank_reasons");
	for (i = 0; i < GFXSTAT_FI_COUNT; i++) {
		gx_out_put(&o, ",", 1);
		gx_out_puts(&o, gfxstat_frameinfo_name((enum gfxstat_frameinfo)i));
	}
	return gx_out_line(&o);
}

static void opt_ns(struct gx_out *o, int64_t v)
{
	gx_out_put(o, ",", 1);
	if (v != GFXSTAT_NS_NONE)
		gx_out_i64(o, v);
}

static void opt_code(struct gx_out *o, int64_t v)
{
	gx_out_put(o, ",", 1);
	if (v >= 0)
		gx_out_i64(o, v);
}

size_t gfxstat_frame_csv(const struct gfxstat_frame *f, char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };
	int i;

	gx_out_puts(&o, gfxstat_frame_source_name(f->source));
	gx_out_put(&o, ",", 1);
	put_csv(&o, f->layer);
	gx_out_put(&o, ",", 1);
	put_csv(&o, f->app);
	opt_code(&o, f->pid);
	opt_ns(&o, f->present_ns);
	opt_ns(&o, f->interval_ns);
#define COL(name, field) opt_ns(&o, f->field);
	OPT_COLUMNS(COL)
#undef COL
	opt_code(&o, f->token);
	opt_code(&o, f->display_token);
	opt_code(&o, f->jank_type);
	opt_code(&o, f->present_type);
	opt_code(&o, f->prediction_type);
	opt_code(&o, f->janky);
	gx_out_put(&o, ",", 1);
	if (f->source == GFXSTAT_SRC_GFXINFO)
		gx_out_i64(&o, f->jank_reasons);
	for (i = 0; i < GFXSTAT_FI_COUNT; i++)
		opt_ns(&o, f->fi[i]);
	return gx_out_line(&o);
}

size_t gfxstat_frame_json(const struct gfxstat_frame *f, char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };
	int i;

	gx_out_puts(&o, "{\"source\":\"");
	gx_out_puts(&o, gfxstat_frame_source_name(f->source));
	gx_out_puts(&o, "\",\"layer\":");
	put_json_str(&o, f->layer);
	gx_out_puts(&o, ",\"app\":");
	put_json_str(&o, f->app);
#define NUM(key, v, absent)                                                                \
	do {                                                                               \
		if (!(absent)) {                                                           \
			gx_out_puts(&o, ",\"" key "\":");                                         \
			gx_out_i64(&o, v);                                                    \
		}                                                                          \
	} while (0)
	NUM("pid", f->pid, f->pid < 0);
	NUM("present_ns", f->present_ns, f->present_ns == GFXSTAT_NS_NONE);
	NUM("interval_ns", f->interval_ns, f->interval_ns == GFXSTAT_NS_NONE);
#define JCOL(name, field) NUM(#name, f->field, f->field == GFXSTAT_NS_NONE);
	OPT_COLUMNS(JCOL)
#undef JCOL
	NUM("token", f->token, f->token < 0);
	NUM("display_token", f->display_token, f->display_token < 0);
	NUM("jank_type", f->jank_type, f->jank_type < 0);
	NUM("present_type", f->present_type, f->present_type < 0);
	NUM("prediction_type", f->prediction_type, f->prediction_type < 0);
	NUM("janky", f->janky, f->janky < 0);
	NUM("jank_reasons", f->jank_reasons, f->source != GFXSTAT_SRC_GFXINFO);
	for (i = 0; i < GFXSTAT_FI_COUNT; i++) {
		if (f->fi[i] == GFXSTAT_NS_NONE)
			continue;
		gx_out_puts(&o, ",\"");
		gx_out_puts(&o, gfxstat_frameinfo_name((enum gfxstat_frameinfo)i));
		gx_out_puts(&o, "\":");
		gx_out_i64(&o, f->fi[i]);
	}
#undef NUM
	gx_out_put(&o, "}", 1);
	return gx_out_line(&o);
}
