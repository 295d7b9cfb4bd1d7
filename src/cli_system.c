/* SPDX-License-Identifier: MIT */
/* The system around the frames in the JSON outputs (cli_system.h). */
#include <inttypes.h>

#include "cli_system.h"

static void names(FILE *o, const struct gfxstat_sysctx_counts *c, int holds)
{
	int k, n = 0;

	for (k = 1; k < GFXSTAT_SCHED_KIND_COUNT + GFXSTAT_COUNTER_KIND_COUNT - 1; k++) {
		int sched = k < GFXSTAT_SCHED_KIND_COUNT;
		int ck = k - GFXSTAT_SCHED_KIND_COUNT + 1;
		uint64_t v = sched ? c->sched[k] : c->counter[ck];
		const char *name = sched ? gfxstat_sysctx_sched_name((enum gfxstat_sched_kind)k)
					 : gfxstat_counter_kind_name((enum gfxstat_counter_kind)ck);

		/* binder_reply: a kernel's alternative to binder_transaction's reply flag */
		if ((v > 0) != holds || (!holds && k == GFXSTAT_SCHED_BINDER_REPLY))
			continue;
		if (holds)
			fprintf(o, "%s\"%s\":%" PRIu64, n ? "," : "", name, v);
		else
			fprintf(o, "%s\"%s\"", n ? "," : "", name);
		n++;
	}
}

static void series_json(FILE *o, const struct gfxstat_series *s)
{
	int64_t max, mean = gfxstat_series_mean(s, &max);
	size_t i;

	/* names are the library's own ([A-Za-z0-9_.-]): no escaping needed */
	fprintf(o, "{\"name\":\"%s\",\"unit\":\"%s\",\"index\":%d,\"cpus\":%" PRIu64
		",\"start_ns\":%" PRId64 ",\"window_ns\":%" PRId64 ",\"mean\":",
		s->name, s->unit, (int)s->index, s->cpus, s->start_ns, s->window_ns);
	if (mean == GFXSTAT_SERIES_NONE)
		fputs("null,\"max\":null", o);
	else
		fprintf(o, "%" PRId64 ",\"max\":%" PRId64, mean, max);
	fputs(",\"values\":[", o);
	for (i = 0; i < s->n; i++) {
		if (s->v[i] == GFXSTAT_SERIES_NONE)
			fprintf(o, "%snull", i ? "," : "");
		else
			fprintf(o, "%s%" PRId64, i ? "," : "", s->v[i]);
	}
	fputs("]}", o);
}

void cli_system_json(FILE *o, const struct gfxstat_sysctx *x, int values)
{
	const struct gfxstat_sysctx_counts *c;
	size_t i, n;

	if (!x) {
		fputs("null", o);
		return;
	}
	c = gfxstat_sysctx_counts(x);
	n = gfxstat_sysctx_nseries(x);
	fputs("{\"window_s\":", o);
	if (n)
		fprintf(o, "%.3f", (double)gfxstat_sysctx_series(x, 0)->window_ns / 1e9);
	else
		fputs("null", o);
	fputs(",\"holds\":{", o);
	names(o, c, 1);
	fputs("},\"lacks\":[", o);
	names(o, c, 0);
	fprintf(o, "],\"cpus\":%" PRIu64 ",\"clusters\":%" PRIu64 ",\"series\":", c->cpus,
		c->clusters);
	if (!values) {
		fprintf(o, "%zu}", n);
		return;
	}
	fputc('[', o);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", o);
		series_json(o, gfxstat_sysctx_series(x, i));
	}
	fputs("]}", o);
}

static const struct gfxstat_sysctx *the_system;

void cli_system_set(const struct gfxstat_sysctx *x)
{
	the_system = x;
}

void cli_system_field(FILE *o)
{
	if (!the_system)
		return;
	fputs(",\n\"system\":", o);
	cli_system_json(o, the_system, 1);
}
