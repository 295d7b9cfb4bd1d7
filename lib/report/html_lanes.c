/* SPDX-License-Identifier: MIT */
/*
 * The report's timeline beyond the frames (gfxstat_report_lanes.h): system-context series per
 * lane, and screenshots scaled down to thumbnails embedded as data: URIs, so the page stays
 * one file that opens with no network.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfxstat/gfxstat_report_lanes.h"
#include "html_local.h"

struct gx_lser {
	int lane;
	int per_cpu;      /* one CPU's (left out when the lane has clusters') */
	char name[64], unit[12];
	int64_t *t;
	double *v;
	size_t n, cap;
};

struct gx_shot {
	int64_t t;
	char why[12];
	unsigned w, h;
	unsigned char *png;
	size_t n;
};

struct gx_hlanes {
	struct gx_lser *s;
	size_t ns;
	uint64_t dropped_points, dropped_series;
	struct gx_shot *shots;
	size_t nshots, capshots, shot_bytes;
	uint64_t shots_over, shots_bad, shots_caller;
	uint64_t shots_nolib; /* no libpng to make thumbnails with (png_thumb.c) */
	char caller_why[96];
};

static const char *const lane_names[GFXSTAT_LANE_COUNT] = { "cpu_freq", "cpu_load", "gpu",
							    "thermal", "power" };

static struct gx_hlanes *lanes(struct gfxstat_html *h)
{
	if (!h->lanes)
		h->lanes = calloc(1, sizeof(*h->lanes));
	return h->lanes;
}

void gx_html_lanes_free(struct gfxstat_html *h)
{
	struct gx_hlanes *L = h->lanes;
	size_t i;

	if (!L)
		return;
	for (i = 0; i < L->ns; i++) {
		free(L->s[i].t);
		free(L->s[i].v);
	}
	free(L->s);
	for (i = 0; i < L->nshots; i++)
		free(L->shots[i].png);
	free(L->shots);
	free(L);
	h->lanes = NULL;
}

static int add_point(struct gfxstat_html *h, enum gfxstat_html_lane lane, const char *name,
		     const char *unit, int per_cpu, int64_t t, double v)
{
	struct gx_hlanes *L = lanes(h);
	struct gx_lser *s = NULL;
	size_t i;

	if (!L)
		return GFXSTAT_E_NOMEM;
	if ((unsigned)lane >= GFXSTAT_LANE_COUNT)
		return GFXSTAT_E_INVAL;
	for (i = 0; i < L->ns && !s; i++)
		/* (a one-CPU cluster and that CPU's own series share a name) */
		if (L->s[i].lane == (int)lane && L->s[i].per_cpu == per_cpu &&
		    !strcmp(L->s[i].name, name))
			s = &L->s[i];
	if (!s) {
		struct gx_lser *n;

		if (L->ns == GFXSTAT_HTML_MAX_CTX_SERIES) {
			L->dropped_series++;
			return GFXSTAT_E_LIMIT;
		}
		n = realloc(L->s, (L->ns + 1) * sizeof(*n));
		if (!n)
			return GFXSTAT_E_NOMEM;
		L->s = n;
		s = &L->s[L->ns++];
		memset(s, 0, sizeof(*s));
		s->lane = (int)lane;
		s->per_cpu = per_cpu;
		snprintf(s->name, sizeof(s->name), "%s", name);
		snprintf(s->unit, sizeof(s->unit), "%s", unit);
	}
	if (s->n == GFXSTAT_HTML_MAX_POINTS) {
		L->dropped_points++;
		return GFXSTAT_E_LIMIT;
	}
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 256;
		int64_t *nt = realloc(s->t, nc * sizeof(*nt));
		double *nv;

		if (!nt)
			return GFXSTAT_E_NOMEM;
		s->t = nt;
		nv = realloc(s->v, nc * sizeof(*nv));
		if (!nv)
			return GFXSTAT_E_NOMEM;
		s->v = nv;
		s->cap = nc;
	}
	s->t[s->n] = t;
	s->v[s->n++] = v;
	return 0;
}

int gfxstat_html_context(struct gfxstat_html *h, enum gfxstat_html_lane lane, const char *name,
			 const char *unit, int64_t t_ns, double v)
{
	return add_point(h, lane, name, unit, 0, t_ns, v);
}

/* "cpus 0-3" of a cluster's CPU mask ("cpus 0,2" when they are not a run, "cpu 4" alone) */
static void cpu_list(uint64_t m, char *out, size_t cap)
{
	int c, lo = -1, hi = -1, run = 1, k = 0;
	size_t o;

	for (c = 0; c < 64; c++) {
		if (!(m >> c & 1))
			continue;
		if (lo < 0)
			lo = c;
		else if (c != hi + 1)
			run = 0;
		hi = c;
		k++;
	}
	if (k == 1) {
		snprintf(out, cap, "cpu %d", lo);
	} else if (run && k) {
		snprintf(out, cap, "cpus %d-%d", lo, hi);
	} else {
		o = (size_t)snprintf(out, cap, "cpus");
		for (c = 0; c < 64 && o < cap; c++)
			if (m >> c & 1)
				o += (size_t)snprintf(out + o, cap - o, "%s%d", o > 4 ? "," : " ", c);
	}
}

int gfxstat_html_series(struct gfxstat_html *h, const struct gfxstat_series *s)
{
	enum gfxstat_html_lane lane;
	char name[64];
	const char *unit;
	double scale;
	int per_cpu = 0, rc = 0;
	size_t i;

	switch (s->kind) {
	case GFXSTAT_SERIES_CLUSTER_FREQ:
	case GFXSTAT_SERIES_CLUSTER_LOAD:
		cpu_list(s->cpus, name, sizeof(name));
		lane = s->kind == GFXSTAT_SERIES_CLUSTER_FREQ ? GFXSTAT_LANE_CPU_FREQ
							      : GFXSTAT_LANE_CPU_LOAD;
		break;
	case GFXSTAT_SERIES_CPU_FREQ:
	case GFXSTAT_SERIES_CPU_LOAD:
		snprintf(name, sizeof(name), "cpu %d", (int)s->index);
		lane = s->kind == GFXSTAT_SERIES_CPU_FREQ ? GFXSTAT_LANE_CPU_FREQ
							  : GFXSTAT_LANE_CPU_LOAD;
		per_cpu = 1;
		break;
	case GFXSTAT_SERIES_GPU_FREQ:
		snprintf(name, sizeof(name), "gpu %d", (int)s->index);
		lane = GFXSTAT_LANE_GPU;
		break;
	case GFXSTAT_SERIES_GPU_ACTIVE:
		snprintf(name, sizeof(name), "gpu %d on", (int)s->index);
		lane = GFXSTAT_LANE_GPU;
		break;
	case GFXSTAT_SERIES_THERMAL:
		/* "thermal.skin-therm" -> "skin-therm" */
		snprintf(name, sizeof(name), "%s",
			 strncmp(s->name, "thermal.", 8) ? s->name : s->name + 8);
		lane = GFXSTAT_LANE_THERMAL;
		break;
	case GFXSTAT_SERIES_BATTERY_CURRENT:
		snprintf(name, sizeof(name), "battery current");
		lane = GFXSTAT_LANE_POWER;
		break;
	case GFXSTAT_SERIES_RAIL_POWER:
		snprintf(name, sizeof(name), "%s", strncmp(s->name, "rail.", 5) ? s->name : s->name + 5);
		lane = GFXSTAT_LANE_POWER;
		break;
	default:
		return 0;
	}
	/* the lanes' units: kHz -> MHz, permille -> %, mC -> C, uA -> mA, uW -> mW */
	switch (s->kind) {
	case GFXSTAT_SERIES_CLUSTER_LOAD: case GFXSTAT_SERIES_CPU_LOAD:
	case GFXSTAT_SERIES_GPU_ACTIVE:
		unit = "%";
		scale = 0.1;
		break;
	case GFXSTAT_SERIES_THERMAL:
		unit = "C";
		scale = 0.001;
		break;
	case GFXSTAT_SERIES_BATTERY_CURRENT:
		unit = "mA";
		scale = 0.001;
		break;
	default:
		unit = s->kind == GFXSTAT_SERIES_RAIL_POWER ? "mW" : "MHz";
		scale = 0.001;
		break;
	}
	/* a window's value holds over the whole window: drawn as a step from its start to its
	 * end (a window with none is a gap) */
	for (i = 0; i < s->n && !rc; i++) {
		int64_t a = s->start_ns + (int64_t)i * s->window_ns;

		if (s->v[i] == GFXSTAT_SERIES_NONE)
			continue;
		rc = add_point(h, lane, name, unit, per_cpu, a, (double)s->v[i] * scale);
		if (!rc)
			rc = add_point(h, lane, name, unit, per_cpu, a + s->window_ns - 1,
				       (double)s->v[i] * scale);
	}
	return rc;
}

/* ---------------------------------------------------------------------------------------- */

int gfxstat_html_screenshot(struct gfxstat_html *h, int64_t t_ns, const void *png, size_t n,
			    const char *why)
{
	struct gx_hlanes *L = lanes(h);
	struct gx_shot *s;
	unsigned char *thumb;
	size_t tn;
	unsigned w, hh;
	int rc;

	if (!L)
		return GFXSTAT_E_NOMEM;
	if (L->nshots == GFXSTAT_HTML_MAX_SHOTS) {
		L->shots_over++;
		return GFXSTAT_E_LIMIT;
	}
	rc = gfxstat_png_thumbnail(png, n, GFXSTAT_HTML_SHOT_WIDTH, &thumb, &tn, &w, &hh);
	if (rc == GFXSTAT_E_UNSUPPORTED) {
		L->shots_nolib++;
		return rc;
	}
	/* over GFXSTAT_PNG_MAX_PIXELS is one the report cannot read, as a damaged one */
	if (rc == GFXSTAT_E_INVAL || rc == GFXSTAT_E_LIMIT) {
		L->shots_bad++;
		return GFXSTAT_E_INVAL;
	}
	if (rc)
		return rc;
	if (L->shot_bytes + tn > GFXSTAT_HTML_SHOT_BYTES) {
		free(thumb);
		L->shots_over++;
		return GFXSTAT_E_LIMIT;
	}
	if (gx_grow((void **)&L->shots, &L->capshots, L->nshots, sizeof(*L->shots), 16)) {
		free(thumb);
		return GFXSTAT_E_NOMEM;
	}
	s = &L->shots[L->nshots++];
	s->t = t_ns;
	snprintf(s->why, sizeof(s->why), "%s", why ? why : "");
	s->w = w;
	s->h = hh;
	s->png = thumb;
	s->n = tn;
	L->shot_bytes += tn;
	return 0;
}

void gfxstat_html_screenshots_left(struct gfxstat_html *h, uint64_t n, const char *why)
{
	struct gx_hlanes *L = lanes(h);

	if (!L || !n)
		return;
	L->shots_caller += n;
	snprintf(L->caller_why, sizeof(L->caller_why), "%s", why ? why : "");
}

static void base64(struct gx_wr *w, const unsigned char *p, size_t n)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char q[4];
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		q[0] = b64[p[i] >> 2];
		q[1] = b64[(p[i] & 3) << 4 | p[i + 1] >> 4];
		q[2] = b64[(p[i + 1] & 15) << 2 | p[i + 2] >> 6];
		q[3] = b64[p[i + 2] & 63];
		gx_wr_put(w, q, 4);
	}
	if (i < n) {
		q[0] = b64[p[i] >> 2];
		q[1] = b64[(p[i] & 3) << 4 | (i + 1 < n ? p[i + 1] >> 4 : 0)];
		q[2] = i + 1 < n ? b64[(p[i + 1] & 15) << 2] : '=';
		q[3] = '=';
		gx_wr_put(w, q, 4);
	}
}

static int cmp_shot(const void *a, const void *b)
{
	const struct gx_shot *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

void gx_html_lanes_data(struct gfxstat_html *h, int64_t t0, struct gx_wr *w)
{
	struct gx_hlanes *L = h->lanes;
	int cluster[GFXSTAT_LANE_COUNT] = { 0 };
	size_t i, k, first = 1;

	gx_wr_puts(w, ",\"ctx\":[");
	for (i = 0; L && i < L->ns; i++)
		if (!L->s[i].per_cpu)
			cluster[L->s[i].lane] = 1;
	for (i = 0; L && i < L->ns; i++) {
		const struct gx_lser *s = &L->s[i];

		/* a CPU's own series only where its lane has no cluster's */
		if ((s->per_cpu && cluster[s->lane]) || !s->n)
			continue;
		gx_wr_printf(w, "%s{\"lane\":\"%s\",\"name\":", first ? "" : ",\n",
			     lane_names[s->lane]);
		gx_wr_json_str(w, s->name, strlen(s->name));
		gx_wr_puts(w, ",\"unit\":");
		gx_wr_json_str(w, s->unit, strlen(s->unit));
		gx_wr_puts(w, ",\"t\":[");
		for (k = 0; k < s->n; k++)
			gx_wr_printf(w, "%s%.3f", k ? "," : "", (double)(s->t[k] - t0) / 1e9);
		gx_wr_puts(w, "],\"v\":[");
		for (k = 0; k < s->n; k++)
			gx_wr_printf(w, "%s%.6g", k ? "," : "", s->v[k]);
		gx_wr_puts(w, "]}");
		first = 0;
	}
	gx_wr_printf(w, "],\"ctx_left\":%llu,\"shots\":[",
		     L ? (unsigned long long)(L->dropped_points + L->dropped_series) : 0ULL);
	if (L && L->nshots)
		qsort(L->shots, L->nshots, sizeof(*L->shots), cmp_shot);
	for (i = 0; L && i < L->nshots; i++) {
		const struct gx_shot *s = &L->shots[i];

		gx_wr_printf(w, "%s{\"t\":%.3f,\"why\":", i ? ",\n" : "", (double)(s->t - t0) / 1e9);
		gx_wr_json_str(w, s->why, strlen(s->why));
		gx_wr_printf(w, ",\"w\":%u,\"h\":%u,\"src\":\"data:image/png;base64,", s->w, s->h);
		base64(w, s->png, s->n);
		gx_wr_puts(w, "\"}");
	}
	/* what was left out, and why: the page says it */
	gx_wr_printf(w, "],\"shots_left\":{\"over\":%llu,\"unreadable\":%llu,\"other\":%llu,"
		     "\"other_why\":",
		     L ? (unsigned long long)L->shots_over : 0ULL,
		     L ? (unsigned long long)L->shots_bad : 0ULL,
		     L ? (unsigned long long)(L->shots_caller + L->shots_nolib) : 0ULL);
	/* the page has one reason for the others: libpng's missing is added to the caller's */
	if (L && L->shots_nolib) {
		char why[256]; /* caller_why (under 96 bytes) and the libpng reason */

		snprintf(why, sizeof(why), "%s%s%llu because thumbnails need libpng (%s)",
			 L->caller_why, L->shots_caller ? "; " : "",
			 (unsigned long long)L->shots_nolib,
			 GFXSTAT_PNG_NEED);
		if (!L->shots_caller)
			snprintf(why, sizeof(why), "left out: thumbnails need libpng (%s)",
				 GFXSTAT_PNG_NEED);
		gx_wr_json_str(w, why, strlen(why));
	} else {
		gx_wr_json_str(w, L ? L->caller_why : "", L ? strlen(L->caller_why) : 0);
	}
	gx_wr_printf(w, ",\"max\":%u}", GFXSTAT_HTML_MAX_SHOTS);
}
