/* SPDX-License-Identifier: MIT */
/* The live view of `gfxstat record` (cli_live.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "cli_live.h"

/* The table's columns after the name: " fps(1s) fps(all)  jank   big  max(1s)ms     max ms" */
#define FIXED_COLS 51
/* and the closing table's: " frames   seconds      fps  jank   big    max ms" */
#define SUMMARY_COLS 50
#define MIN_NAME 12

struct live_layer {
	char *name;
	size_t len;
	uint64_t hash;
	uint64_t frames, intervals, mark_intervals;
	int64_t first, last, mark;    /* present times: first, newest, newest at the last view */
	int64_t longest_1s, longest_all;
	int64_t iv[3];
	unsigned niv;
	uint64_t jank, big;
};

struct cli_live {
	struct live_layer *v;  /* in first-seen order */
	size_t n, cap;
	size_t *slot;          /* open addressing: index + 1, 0 empty */
	size_t nslot;          /* a power of two */
	uint64_t ctx_shown;    /* context samples seen at the last view */
};

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 1099511628211ULL;
	}
	return h;
}

struct cli_live *cli_live_new(void)
{
	return calloc(1, sizeof(struct cli_live));
}

void cli_live_free(struct cli_live *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	free(l->slot);
	free(l);
}

size_t cli_live_layers(const struct cli_live *l)
{
	return l->n;
}

/* Rebuild the slots at twice the size (kept at most half full). */
static int grow(struct cli_live *l)
{
	size_t ns = l->nslot ? l->nslot * 2 : 64, i;
	size_t *s = calloc(ns, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < l->n; i++) {
		size_t k = (size_t)l->v[i].hash & (ns - 1);

		while (s[k])
			k = (k + 1) & (ns - 1);
		s[k] = i + 1;
	}
	free(l->slot);
	l->slot = s;
	l->nslot = ns;
	return 0;
}

static struct live_layer *find_add(struct cli_live *l, struct gfxstat_str name)
{
	uint64_t h = fnv1a(name.p, name.n);
	struct live_layer *e;
	size_t k;

	if (2 * (l->n + 1) > l->nslot && grow(l))
		return NULL;
	for (k = (size_t)h & (l->nslot - 1); l->slot[k]; k = (k + 1) & (l->nslot - 1)) {
		e = &l->v[l->slot[k] - 1];
		if (e->hash == h && e->len == name.n && !memcmp(e->name, name.p, name.n))
			return e;
	}
	if (cli_grow((void **)&l->v, &l->cap, l->n, sizeof(*l->v), 16))
		return NULL;
	e = &l->v[l->n];
	memset(e, 0, sizeof(*e));
	e->name = malloc(name.n + 1);
	if (!e->name)
		return NULL;
	memcpy(e->name, name.p, name.n);
	e->name[name.n] = 0;
	e->len = name.n;
	e->hash = h;
	e->first = e->last = e->mark = GFXSTAT_NS_NONE;
	l->slot[k] = ++l->n;
	return e;
}

int cli_live_frame(struct cli_live *l, const struct gfxstat_frame *f)
{
	struct live_layer *e = find_add(l, f->layer);
	int64_t iv;

	if (!e)
		return -1;
	e->frames++;
	if (f->present_ns == GFXSTAT_NS_NONE)
		return 0;
	if (e->first == GFXSTAT_NS_NONE)
		e->first = f->present_ns;
	iv = e->last != GFXSTAT_NS_NONE ? f->present_ns - e->last : GFXSTAT_NS_NONE;
	if (iv == GFXSTAT_NS_NONE || iv <= 0) {
		if (e->last == GFXSTAT_NS_NONE || f->present_ns > e->last)
			e->last = f->present_ns;
		return 0;
	}
	e->last = f->present_ns;
	e->intervals++;
	if (iv > e->longest_1s)
		e->longest_1s = iv;
	if (iv > e->longest_all)
		e->longest_all = iv;
	/* PerfDog, as analyze computes it */
	if (e->niv == 3 && 3 * iv > 2 * (e->iv[0] + e->iv[1] + e->iv[2]) && iv > 83333333) {
		e->jank++;
		e->big += iv > 125000000;
	}
	e->iv[0] = e->iv[1];
	e->iv[1] = e->iv[2];
	e->iv[2] = iv;
	if (e->niv < 3)
		e->niv++;
	return 0;
}

/* Intervals over their trace time, in frames per second; -1 when there is no span. */
static double rate(uint64_t intervals, int64_t from, int64_t to)
{
	if (!intervals || from == GFXSTAT_NS_NONE || to <= from)
		return -1;
	return (double)intervals * 1e9 / (double)(to - from);
}

const char *cli_live_fit(const char *s, int w, char *buf, size_t cap)
{
	size_t n = strlen(s), head, tail;

	if (w <= 0 || n <= (size_t)w || (size_t)w + 1 > cap || w < 5)
		return s;
	head = ((size_t)w - 3) / 2;
	tail = (size_t)w - 3 - head;
	memcpy(buf, s, head);
	memcpy(buf + head, "...", 3);
	memcpy(buf + head + 3, s + n - tail, tail);
	buf[w] = 0;
	return buf;
}

int cli_live_width(int fd)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (isatty(fd) && !ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	if (env) {
		long c = strtol(env, NULL, 10);

		if (c > 0 && c < 10000)
			return (int)c;
	}
	return 80;
}

static void fps_text(double v, char *buf, size_t cap)
{
	if (v < 0)
		snprintf(buf, cap, "-");
	else
		snprintf(buf, cap, "%.1f", v);
}

void cli_live_view(struct cli_live *l, FILE *o, int tty, int width, const char *prefix,
		   double host_s)
{
	int nw = width - FIXED_COLS < MIN_NAME ? MIN_NAME : width - FIXED_COLS;
	char nb[1024], a[32], b[32];
	size_t i;

	if (tty)
		fprintf(o, "%-*s %7s %8s %5s %5s %10s %10s\n", nw, "layer", "fps(1s)", "fps(all)",
			"jank", "big", "max(1s)ms", "max ms");
	for (i = 0; i < l->n; i++) {
		struct live_layer *e = &l->v[i];
		uint64_t fresh = e->intervals - e->mark_intervals;
		int64_t from = e->mark != GFXSTAT_NS_NONE ? e->mark : e->first;

		fps_text(rate(fresh, from, e->last), a, sizeof(a));
		fps_text(rate(e->intervals, e->first, e->last), b, sizeof(b));
		if (tty)
			fprintf(o, "%-*s %7s %8s %5llu %5llu %10.1f %10.1f\n", nw,
				cli_live_fit(cli_shown(e->name), nw, nb, sizeof(nb)), fresh ? a : "0", b,
				(unsigned long long)e->jank, (unsigned long long)e->big,
				(double)e->longest_1s / 1e6, (double)e->longest_all / 1e6);
		else if (fresh)
			fprintf(o, "%s%s%.0f s\t%s\tfps %s (all %s)\tjank %llu\tbig %llu\tmax %.1f ms "
				"(all %.1f)\n", prefix ? prefix : "", prefix ? "\t" : "", host_s,
				cli_shown(e->name), a, b, (unsigned long long)e->jank,
				(unsigned long long)e->big, (double)e->longest_1s / 1e6,
				(double)e->longest_all / 1e6);
		e->mark_intervals = e->intervals;
		e->mark = e->last;
		e->longest_1s = 0;
	}
	fflush(o);
}

/* @v thousandths as "41.250" cut to @dec decimals, the sign kept ("-2.000"). */
static const char *milli_text(int64_t v, int dec, char *buf, size_t cap)
{
	long long a = v < 0 ? -(long long)v : (long long)v;
	char frac[8];

	snprintf(frac, sizeof(frac), "%03lld", a % 1000);
	frac[dec] = 0;
	snprintf(buf, cap, "%s%lld%s%s", v < 0 ? "-" : "", a / 1000, dec ? "." : "", frac);
	return buf;
}

void cli_live_context(struct cli_live *l, FILE *o, int tty, const char *prefix, double host_s,
		      const struct gfxstat_context_info *ci)
{
	char line[400], a[32];
	const char *hot = NULL, *sep = tty ? "  " : "\t";
	int64_t cpu = GFXSTAT_CONTEXT_NONE, temp = GFXSTAT_CONTEXT_NONE;
	int64_t mw = GFXSTAT_CONTEXT_NONE;
	size_t i, n = 0;

	if (!ci->samples || (!tty && ci->samples == l->ctx_shown))
		return;
	l->ctx_shown = ci->samples;
	for (i = 0; i < ci->nseries; i++) {
		const struct gfxstat_context_series *s = &ci->series[i];
		int64_t v = ci->last[i];

		if (v == GFXSTAT_CONTEXT_NONE)
			continue;
		if (s->kind == GFXSTAT_CTX_CPU_LOAD && s->index < 0)
			cpu = v;
		else if (s->kind == GFXSTAT_CTX_THERMAL && (temp == GFXSTAT_CONTEXT_NONE || v > temp)) {
			temp = v;
			hot = strchr(s->name, '.') ? strchr(s->name, '.') + 1 : s->name;
		} else if (s->kind == GFXSTAT_CTX_BATTERY_POWER) {
			mw = v;
		}
	}
	line[0] = 0;
	/* the load is permille: 375 is 37.5 % */
	if (cpu != GFXSTAT_CONTEXT_NONE)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%scpu %lld.%lld %%", sep,
				      (long long)(cpu / 10), (long long)(cpu % 10));
	if (hot && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%shottest %s %s C", sep,
				      cli_shown(hot), milli_text(temp, 1, a, sizeof(a)));
	if (mw != GFXSTAT_CONTEXT_NONE && n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "%sbattery %s W", sep,
			 milli_text(mw, 3, a, sizeof(a)));
	if (!line[0])
		return;
	if (tty)
		fprintf(o, "device:%s\n", line);
	else
		fprintf(o, "%s%s%.0f s\tdevice%s\n", prefix ? prefix : "", prefix ? "\t" : "",
			host_s, line);
}

void cli_live_summary(const struct cli_live *l, FILE *o, int width)
{
	int nw = 5;
	char nb[1024], b[32];
	size_t i;

	/* the name column as wide as the longest name, within @width */
	for (i = 0; i < l->n; i++)
		if ((int)l->v[i].len > nw)
			nw = (int)l->v[i].len;
	if (width > 0 && nw > width - SUMMARY_COLS)
		nw = width - SUMMARY_COLS < MIN_NAME ? MIN_NAME : width - SUMMARY_COLS;
	fprintf(o, "%-*s %8s %9s %8s %5s %5s %9s\n", nw, "layer", "frames", "seconds", "fps",
		"jank", "big", "max ms");
	for (i = 0; i < l->n; i++) {
		const struct live_layer *e = &l->v[i];
		double span = e->intervals ? (double)(e->last - e->first) / 1e9 : 0;

		fps_text(rate(e->intervals, e->first, e->last), b, sizeof(b));
		fprintf(o, "%-*s %8llu %9.3f %8s %5llu %5llu %9.1f\n", nw,
			width > 0 ? cli_live_fit(cli_shown(e->name), nw, nb, sizeof(nb))
				  : cli_shown(e->name),
			(unsigned long long)e->frames, span, b, (unsigned long long)e->jank,
			(unsigned long long)e->big, (double)e->longest_all / 1e6);
	}
	fflush(o);
}
