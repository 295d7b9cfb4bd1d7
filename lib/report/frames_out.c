/* SPDX-License-Identifier: MIT */
/* `gfxstat frames` rows: CSV with one fixed header, or one JSON object per line. */
#include <stdio.h>
#include <string.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_gfxinfo.h"
#include "gfxstat/gfxstat_perfetto.h"

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

/* The names of a frame's codes (docs/output.md): "" when the frame has none. */
struct code_names {
	char jank[160];
	const char *present, *prediction;
	char reasons[200];
};

static void code_names(const struct gfxstat_frame *f, struct code_names *c)
{
	size_t n = 0;
	int i;

	c->jank[0] = 0;
	if (f->jank_type >= 0)
		gfxstat_perfetto_jank_type_str(f->jank_type, c->jank, sizeof(c->jank));
	c->present = f->present_type >= 0 ? gfxstat_perfetto_present_type_name(f->present_type)
					  : "";
	c->prediction = f->prediction_type >= 0
				? gfxstat_perfetto_prediction_type_name(f->prediction_type) : "";
	c->reasons[0] = 0;
	for (i = 0; f->source == GFXSTAT_SRC_GFXINFO && i < GFXSTAT_JANK_COUNT; i++) {
		unsigned k = gfxstat_jank_reason_count(f->jank_reasons, (enum gfxstat_jank_type)i);

		/* "x2": both of Android 12+'s trackers reported it, and it is counted twice */
		if (k && n < sizeof(c->reasons))
			n += (size_t)snprintf(c->reasons + n, sizeof(c->reasons) - n, "%s%s%s",
					      n ? ", " : "",
					      gfxstat_jank_type_name((enum gfxstat_jank_type)i),
					      k > 1 ? " x2" : "");
	}
}

size_t gfxstat_frame_csv_header(char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };
	int i;

	gx_out_puts(&o, "source,layer,app,pid,present_ns,interval_ns");
#define HDR(name, field) gx_out_puts(&o, "," #name);
	OPT_COLUMNS(HDR)
#undef HDR
	gx_out_puts(&o, ",token,display_token,jank_type,jank_type_raw,present_type,"
			"present_type_raw,prediction_type,prediction_type_raw,janky,jank_reasons,"
			"jank_reasons_raw");
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

static void opt_name(struct gx_out *o, const char *s)
{
	struct gfxstat_str v = { s, strlen(s) };

	gx_out_put(o, ",", 1);
	put_csv(o, v);
}

size_t gfxstat_frame_csv(const struct gfxstat_frame *f, char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };
	struct code_names c;
	int i;

	code_names(f, &c);
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
	opt_name(&o, c.jank);
	opt_code(&o, f->jank_type);
	opt_name(&o, c.present);
	opt_code(&o, f->present_type);
	opt_name(&o, c.prediction);
	opt_code(&o, f->prediction_type);
	opt_code(&o, f->janky);
	opt_name(&o, c.reasons);
	gx_out_put(&o, ",", 1);
	if (f->source == GFXSTAT_SRC_GFXINFO)
		gx_out_i64(&o, f->jank_reasons);
	for (i = 0; i < GFXSTAT_FI_COUNT; i++)
		opt_ns(&o, f->fi[i]);
	return gx_out_line(&o);
}

static void json_num(struct gx_out *o, const char *key, int64_t v, int absent)
{
	gx_out_puts(o, ",\"");
	gx_out_puts(o, key);
	gx_out_puts(o, "\":");
	if (absent)
		gx_out_puts(o, "null");
	else
		gx_out_i64(o, v);
}

static void json_name(struct gx_out *o, const char *key, const char *s, int absent)
{
	struct gfxstat_str v = { s, strlen(s) };

	gx_out_puts(o, ",\"");
	gx_out_puts(o, key);
	gx_out_puts(o, "\":");
	if (absent)
		gx_out_puts(o, "null");
	else
		put_json_str(o, v);
}

size_t gfxstat_frame_json(const struct gfxstat_frame *f, char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };
	struct code_names c;
	int i, gfxinfo = f->source == GFXSTAT_SRC_GFXINFO;

	code_names(f, &c);
	gx_out_puts(&o, "{\"source\":\"");
	gx_out_puts(&o, gfxstat_frame_source_name(f->source));
	gx_out_puts(&o, "\",\"layer\":");
	put_json_str(&o, f->layer);
	gx_out_puts(&o, ",\"app\":");
	if (f->app.n)
		put_json_str(&o, f->app);
	else
		gx_out_puts(&o, "null");
	json_num(&o, "pid", f->pid, f->pid < 0);
	json_num(&o, "present_ns", f->present_ns, f->present_ns == GFXSTAT_NS_NONE);
	json_num(&o, "interval_ns", f->interval_ns, f->interval_ns == GFXSTAT_NS_NONE);
#define JCOL(name, field) json_num(&o, #name, f->field, f->field == GFXSTAT_NS_NONE);
	OPT_COLUMNS(JCOL)
#undef JCOL
	json_num(&o, "token", f->token, f->token < 0);
	json_num(&o, "display_token", f->display_token, f->display_token < 0);
	json_name(&o, "jank_type", c.jank, f->jank_type < 0);
	json_num(&o, "jank_type_raw", f->jank_type, f->jank_type < 0);
	json_name(&o, "present_type", c.present, f->present_type < 0);
	json_num(&o, "present_type_raw", f->present_type, f->present_type < 0);
	json_name(&o, "prediction_type", c.prediction, f->prediction_type < 0);
	json_num(&o, "prediction_type_raw", f->prediction_type, f->prediction_type < 0);
	if (f->janky < 0)
		gx_out_puts(&o, ",\"janky\":null");
	else
		gx_out_puts(&o, f->janky ? ",\"janky\":true" : ",\"janky\":false");
	json_name(&o, "jank_reasons", c.reasons, !gfxinfo);
	json_num(&o, "jank_reasons_raw", f->jank_reasons, !gfxinfo);
	/* dumpsys gfxinfo's FrameInfo columns, by their own names; null for other sources */
	if (!gfxinfo) {
		gx_out_puts(&o, ",\"frameinfo\":null}");
		return gx_out_line(&o);
	}
	gx_out_puts(&o, ",\"frameinfo\":{");
	for (i = 0; i < GFXSTAT_FI_COUNT; i++) {
		gx_out_puts(&o, i ? ",\"" : "\"");
		gx_out_puts(&o, gfxstat_frameinfo_name((enum gfxstat_frameinfo)i));
		gx_out_puts(&o, "\":");
		if (f->fi[i] == GFXSTAT_NS_NONE)
			gx_out_puts(&o, "null");
		else
			gx_out_i64(&o, f->fi[i]);
	}
	gx_out_puts(&o, "}}");
	return gx_out_line(&o);
}
