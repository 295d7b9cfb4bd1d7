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
	F(actual_end_ns, actual_end_ns)

struct out {
	char *p;
	size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->len < o->cap) {
		size_t room = o->cap - o->len;

		memcpy(o->p + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void put_i64(struct out *o, int64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%lld", (long long)v);
	puts_(o, b);
}

static size_t finish(struct out *o)
{
	put(o, "\n", 1);
	if (o->cap)
		o->p[o->len < o->cap ? o->len : o->cap - 1] = 0;
	return o->len;
}

/* RFC 4180: quote a field that holds a comma, a quote or a line break */
static void put_csv(struct out *o, struct gfxstat_str s)
{
	const char *p = s.p, *end = s.p + s.n, *q;

	if (!memchr(s.p, ',', s.n) && !memchr(s.p, '"', s.n) && !memchr(s.p, '\n', s.n) &&
	    !memchr(s.p, '\r', s.n)) {
		put(o, s.p, s.n);
		return;
	}
	put(o, "\"", 1);
	while ((q = memchr(p, '"', (size_t)(end - p)))) {
		put(o, p, (size_t)(q - p) + 1);
		put(o, "\"", 1);
		p = q + 1;
	}
	put(o, p, (size_t)(end - p));
	put(o, "\"", 1);
}

static void put_json_str(struct out *o, struct gfxstat_str s)
{
	size_t i;

	put(o, "\"", 1);
	for (i = 0; i < s.n; i++) {
		unsigned char c = (unsigned char)s.p[i];
		char b[8];

		if (c == '"' || c == '\\') {
			put(o, "\\", 1);
			put(o, s.p + i, 1);
		} else if (c < 0x20) {
			snprintf(b, sizeof(b), "\\u%04x", c);
			puts_(o, b);
		} else {
			put(o, s.p + i, 1);
		}
	}
	put(o, "\"", 1);
}

size_t gfxstat_frame_csv_header(char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };
	int i;

	puts_(&o, "source,layer,app,pid,present_ns,interval_ns");
#define HDR(name, field) puts_(&o, "," #name);
	OPT_COLUMNS(HDR)
#undef HDR
	puts_(&o, ",token,display_token,jank_type,present_type,prediction_type,janky,jank_reasons");
	for (i = 0; i < GFXSTAT_FI_COUNT; i++) {
		put(&o, ",", 1);
		puts_(&o, gfxstat_frameinfo_name((enum gfxstat_frameinfo)i));
	}
	return finish(&o);
}

static void opt_ns(struct out *o, int64_t v)
{
	put(o, ",", 1);
	if (v != GFXSTAT_NS_NONE)
		put_i64(o, v);
}

static void opt_code(struct out *o, int64_t v)
{
	put(o, ",", 1);
	if (v >= 0)
		put_i64(o, v);
}

size_t gfxstat_frame_csv(const struct gfxstat_frame *f, char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };
	int i;

	puts_(&o, gfxstat_frame_source_name(f->source));
	put(&o, ",", 1);
	put_csv(&o, f->layer);
	put(&o, ",", 1);
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
	put(&o, ",", 1);
	if (f->source == GFXSTAT_SRC_GFXINFO)
		put_i64(&o, f->jank_reasons);
	for (i = 0; i < GFXSTAT_FI_COUNT; i++)
		opt_ns(&o, f->fi[i]);
	return finish(&o);
}

size_t gfxstat_frame_json(const struct gfxstat_frame *f, char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };
	int i;

	puts_(&o, "{\"source\":\"");
	puts_(&o, gfxstat_frame_source_name(f->source));
	puts_(&o, "\",\"layer\":");
	put_json_str(&o, f->layer);
	puts_(&o, ",\"app\":");
	put_json_str(&o, f->app);
#define NUM(key, v, absent)                                                                \
	do {                                                                               \
		if (!(absent)) {                                                           \
			puts_(&o, ",\"" key "\":");                                         \
			put_i64(&o, v);                                                    \
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
		puts_(&o, ",\"");
		puts_(&o, gfxstat_frameinfo_name((enum gfxstat_frameinfo)i));
		puts_(&o, "\":");
		put_i64(&o, f->fi[i]);
	}
#undef NUM
	put(&o, "}", 1);
	return finish(&o);
}
