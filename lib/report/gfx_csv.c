/* SPDX-License-Identifier: MIT */
/* fps.csv and dropFrames.csv rows, column for column as gfx.sh wrote them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../gx_local.h"

int gfxstat_awk_number(char *buf, size_t cap, double v)
{
	/* awk prints an integral value as an integer and anything else with OFMT, "%.6g" */
	if (v == floor(v) && fabs(v) < 1e15)
		return snprintf(buf, cap, "%lld", (long long)v);
	return snprintf(buf, cap, "%.6g", v);
}

/* A bounded writer: counts what it would write even past the end, like snprintf. */
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

static void put_str(struct out *o, struct gfxstat_str s)
{
	put(o, s.p, s.n);
}

/* A quoted CSV field: the seed writes "<text>"; a '"' inside is doubled so the CSV stays valid. */
static void put_quoted(struct out *o, struct gfxstat_str s)
{
	const char *p = s.p, *end = s.p + s.n, *q;

	put(o, "\"", 1);
	while ((q = memchr(p, '"', (size_t)(end - p)))) {
		put(o, p, (size_t)(q - p) + 1);
		put(o, "\"", 1);
		p = q + 1;
	}
	put(o, p, (size_t)(end - p));
	put(o, "\"", 1);
}

static void put_num(struct out *o, double v)
{
	char b[64];

	gfxstat_awk_number(b, sizeof(b), v);
	puts_(o, b);
}

static void put_u(struct out *o, uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	puts_(o, b);
}

/* sprintf("%.3f", ns / 1e9) + 0: seconds as the seed printed them */
static void put_sec3(struct out *o, int64_t ns)
{
	char b[64];

	snprintf(b, sizeof(b), "%.3f", (double)ns / 1e9);
	put_num(o, strtod(b, NULL));
}

static void put_key(struct out *o, int tx, struct gfxstat_str app, struct gfxstat_str surface)
{
	puts_(o, tx ? "1," : "0,");
	put_str(o, app);
	put(o, ",", 1);
	put_quoted(o, surface);
}

static size_t finish(struct out *o)
{
	put(o, "\n", 1);
	if (o->cap)
		o->p[o->len < o->cap ? o->len : o->cap - 1] = 0;
	return o->len;
}

size_t gfxstat_gfx_window_csv(const struct gfxstat_gfx_window *w, char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };

	put_str(&o, w->start_text);
	put(&o, ",", 1);
	put_str(&o, w->end_text);
	put(&o, ",", 1);
	put_num(&o, w->fps);
	put(&o, ",", 1);
	put_u(&o, w->frames);
	put(&o, ",", 1);
	put_sec3(&o, w->time_ns);
	put(&o, ",", 1);
	put_num(&o, (double)w->max_ns / 1e6);
	put(&o, ",", 1);
	put_sec3(&o, w->wait_ns);
	put(&o, ",", 1);
	put_u(&o, w->waits);
	put(&o, ",", 1);
	put_u(&o, w->a);
	put(&o, ",", 1);
	put_u(&o, w->b);
	put(&o, ",", 1);
	put_u(&o, w->c);
	put(&o, ",", 1);
	put_u(&o, w->d);
	put(&o, ",", 1);
	put_num(&o, w->score);
	put(&o, ",", 1);
	put_key(&o, w->tx, w->app, w->surface);
	return finish(&o);
}

size_t gfxstat_gfx_drop_csv(const struct gfxstat_gfx_drop *d, char *buf, size_t cap)
{
	struct out o = { buf, cap, 0 };

	put_str(&o, d->start_text);
	put(&o, ",", 1);
	put_str(&o, d->end_text);
	put(&o, ",", 1);
	put_num(&o, (double)d->used_ns / 1e6);
	put(&o, ",", 1);
	put_str(&o, d->vsync_name);
	put(&o, ",", 1);
	put_key(&o, d->tx, d->app, d->surface);
	put(&o, ",", 1);
	put_quoted(&o, d->info);
	return finish(&o);
}
