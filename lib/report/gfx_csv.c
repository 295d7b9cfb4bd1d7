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

static void put_str(struct gx_out *o, struct gfxstat_str s)
{
	gx_out_put(o, s.p, s.n);
}

static void put_num(struct gx_out *o, double v)
{
	char b[64];

	gfxstat_awk_number(b, sizeof(b), v);
	gx_out_puts(o, b);
}

static void put_u(struct gx_out *o, uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	gx_out_puts(o, b);
}

/* sprintf("%.3f", ns / 1e9) + 0: seconds as the seed printed them */
static void put_sec3(struct gx_out *o, int64_t ns)
{
	char b[64];

	snprintf(b, sizeof(b), "%.3f", (double)ns / 1e9);
	put_num(o, strtod(b, NULL));
}

static void put_key(struct gx_out *o, int tx, struct gfxstat_str app, struct gfxstat_str surface)
{
	gx_out_puts(o, tx ? "1," : "0,");
	put_str(o, app);
	gx_out_put(o, ",", 1);
	gx_out_quoted(o, surface);
}

size_t gfxstat_gfx_window_csv(const struct gfxstat_gfx_window *w, char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };

	put_str(&o, w->start_text);
	gx_out_put(&o, ",", 1);
	put_str(&o, w->end_text);
	gx_out_put(&o, ",", 1);
	put_num(&o, w->fps);
	gx_out_put(&o, ",", 1);
	put_u(&o, w->frames);
	gx_out_put(&o, ",", 1);
	put_sec3(&o, w->time_ns);
	gx_out_put(&o, ",", 1);
	put_num(&o, (double)w->max_ns / 1e6);
	gx_out_put(&o, ",", 1);
	put_sec3(&o, w->wait_ns);
	gx_out_put(&o, ",", 1);
	put_u(&o, w->waits);
	gx_out_put(&o, ",", 1);
	put_u(&o, w->a);
	gx_out_put(&o, ",", 1);
	put_u(&o, w->b);
	gx_out_put(&o, ",", 1);
	put_u(&o, w->c);
	gx_out_put(&o, ",", 1);
	put_u(&o, w->d);
	gx_out_put(&o, ",", 1);
	put_num(&o, w->score);
	gx_out_put(&o, ",", 1);
	put_key(&o, w->tx, w->app, w->surface);
	return gx_out_line(&o);
}

size_t gfxstat_gfx_drop_csv(const struct gfxstat_gfx_drop *d, char *buf, size_t cap)
{
	struct gx_out o = { buf, cap, 0 };

	put_str(&o, d->start_text);
	gx_out_put(&o, ",", 1);
	put_str(&o, d->end_text);
	gx_out_put(&o, ",", 1);
	put_num(&o, (double)d->used_ns / 1e6);
	gx_out_put(&o, ",", 1);
	put_str(&o, d->vsync_name);
	gx_out_put(&o, ",", 1);
	put_key(&o, d->tx, d->app, d->surface);
	gx_out_put(&o, ",", 1);
	gx_out_quoted(&o, d->info);
	return gx_out_line(&o);
}
