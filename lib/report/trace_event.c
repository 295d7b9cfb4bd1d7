/* SPDX-License-Identifier: MIT */
/* gfxstat export: the frames as Trace Event Format JSON (Perfetto UI, chrome://tracing). */
#include <stdio.h>
#include <stdlib.h>

#include "html_local.h"
#include "gfxstat/gfxstat_sysctx.h"

/* gfxstat's own tracks are processes of their own, numbered past any pid a Linux kernel gives
 * (PID_MAX_LIMIT, 4 * 1024 * 1024 on 64-bit: include/linux/threads.h), so a traced process
 * (init is pid 1) never shares their tracks. */
#define FRAMES_PID "4194305"
#define SYSTEM_PID "4194306"

/* One B or E marker of the input: matched into slices when written. */
struct gx_tmark {
	int64_t ts;
	int32_t tid, pid;
	long name; /* index in @names; -1 for an E */
};

/* Sections kept at most (16 bytes each); those beyond are counted, not exported. */
#define GX_TRACE_MAX_MARKS ((size_t)64 << 20)

/* A system series kept for its counter track. */
struct gx_tseries {
	char name[GFXSTAT_SYSCTX_NAME];
	const char *unit; /* a static string of the library */
	int64_t start, window;
	size_t n;
	int64_t *v;
};

struct gfxstat_trace_event {
	struct gx_tseries *series;
	size_t nseries, capseries, nvalues;
	struct gx_rstore st;
	struct gx_strmap names;   /* section names */
	struct gx_strmap threads; /* "pid tid name" of each thread seen with a section */
	struct gx_tmark *marks;
	size_t nmarks, capmarks;
	uint64_t dropped;
};

struct gfxstat_trace_event *gfxstat_trace_event_new(void)
{
	struct gfxstat_trace_event *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (gx_rstore_init(&t->st, 1)) {
		free(t);
		return NULL;
	}
	if (gx_strmap_init(&t->names, 1u << 20) || gx_strmap_init(&t->threads, 1u << 16)) {
		gfxstat_trace_event_free(t);
		return NULL;
	}
	return t;
}

void gfxstat_trace_event_free(struct gfxstat_trace_event *t)
{
	if (!t)
		return;
	gx_rstore_free(&t->st);
	gx_strmap_free(&t->names);
	gx_strmap_free(&t->threads);
	free(t->marks);
	while (t->nseries)
		free(t->series[--t->nseries].v);
	free(t->series);
	free(t);
}

int gfxstat_trace_event_series(struct gfxstat_trace_event *t, const struct gfxstat_series *s)
{
	struct gx_tseries *k;

	if (s->n > GFXSTAT_TRACE_MAX_VALUES - t->nvalues)
		return GFXSTAT_E_LIMIT;
	if (gx_grow((void **)&t->series, &t->capseries, t->nseries, sizeof(*t->series), 16))
		return GFXSTAT_E_NOMEM;
	k = &t->series[t->nseries];
	memcpy(k->name, s->name, sizeof(k->name));
	k->name[sizeof(k->name) - 1] = 0;
	k->unit = s->unit;
	k->start = s->start_ns;
	k->window = s->window_ns;
	k->n = s->n;
	k->v = malloc((s->n ? s->n : 1) * sizeof(*k->v));
	if (!k->v)
		return GFXSTAT_E_NOMEM;
	memcpy(k->v, s->v, s->n * sizeof(*k->v));
	t->nvalues += s->n;
	t->nseries++;
	return 0;
}

int gfxstat_trace_event_marker(void *tv, const struct gfxstat_ftrace_line *ev,
			       const struct gfxstat_marker *m)
{
	struct gfxstat_trace_event *t = tv;
	struct gx_tmark *k;
	char th[200];
	long name = -1;
	int created, n;

	if (m->kind != GFXSTAT_MARKER_BEGIN && m->kind != GFXSTAT_MARKER_END)
		return 0;
	if (t->nmarks == GX_TRACE_MAX_MARKS) {
		t->dropped++;
		return 0;
	}
	if (m->kind == GFXSTAT_MARKER_BEGIN) {
		name = gx_strmap_add(&t->names, m->name.p, m->name.n, &created);
		if (name == GFXSTAT_E_LIMIT) {
			t->dropped++;
			return 0;
		}
		if (name < 0)
			return (int)name;
		/* the thread's name, once per thread */
		n = snprintf(th, sizeof(th), "%ld %ld %.*s",
			     (long)(ev->tgid >= 0 ? ev->tgid : m->pid), (long)ev->pid,
			     (int)(ev->task.n < 150 ? ev->task.n : 150), ev->task.p);
		if (n > 0 && gx_strmap_add(&t->threads, th, (size_t)n, &created) == GFXSTAT_E_NOMEM)
			return GFXSTAT_E_NOMEM;
	}
	if (t->nmarks == t->capmarks &&
	    gx_grow((void **)&t->marks, &t->capmarks, t->nmarks, sizeof(*t->marks), 1024))
		return GFXSTAT_E_NOMEM;
	k = &t->marks[t->nmarks++];
	k->ts = ev->ts_ns;
	k->tid = ev->pid;
	k->pid = ev->tgid >= 0 ? ev->tgid : m->pid >= 0 ? m->pid : ev->pid;
	k->name = name;
	return 0;
}

int gfxstat_trace_event_frame(void *tv, const struct gfxstat_frame *f)
{
	struct gfxstat_trace_event *t = tv;
	int64_t start = f->latch_ns;

	if (f->present_ns == GFXSTAT_NS_NONE)
		return 0;
	if (start == GFXSTAT_NS_NONE || start > f->present_ns)
		start = f->expected_start_ns;
	if (start == GFXSTAT_NS_NONE || start > f->present_ns)
		start = f->interval_ns != GFXSTAT_NS_NONE ? f->present_ns - f->interval_ns
							  : f->present_ns;
	return gx_rstore_add(&t->st, f, start);
}

/* microseconds with the nanoseconds as decimals: the format's unit, exactly */
static void put_us(struct gx_wr *w, int64_t ns)
{
	gx_wr_printf(w, "%s%lld.%03lld", ns < 0 ? "-" : "", (long long)(ns < 0 ? -ns : ns) / 1000,
		     (long long)(ns < 0 ? -ns : ns) % 1000);
}

static void frames_of(struct gx_wr *w, const struct gx_rlayer *r, long tid,
		      const struct gfxstat_layer_metrics *l)
{
	unsigned char *janky = calloc(r->n ? r->n : 1, 1);
	int64_t prev = GFXSTAT_NS_NONE;
	size_t i;

	if (!janky) {
		w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
		return;
	}
	for (i = 0; l && i < l->njanky_list; i++) {
		long at = l->janky_list[i].present_ns == GFXSTAT_NS_NONE ? -1 :
			  gx_rlayer_at(r, l->janky_list[i].present_ns);

		if (at >= 0)
			janky[at] = 1;
	}
	for (i = 0; i < r->n; i++) {
		int64_t s = r->start[i], p = r->present[i];

		/* slices of one track must not overlap: a frame starts no earlier than the
		 * previous one was presented */
		if (prev != GFXSTAT_NS_NONE && s < prev)
			s = prev;
		gx_wr_printf(w, ",\n{\"ph\":\"X\",\"pid\":" FRAMES_PID ",\"tid\":%ld,\"name\":\"%s\","
			     "\"cat\":\"%s\",\"ts\":", tid, janky[i] ? "janky frame" : "frame",
			     janky[i] ? "frame,janky" : "frame");
		put_us(w, s);
		gx_wr_puts(w, ",\"dur\":");
		put_us(w, p - s);
		gx_wr_printf(w, ",\"args\":{\"present_ns\":%lld", (long long)p);
		if (i)
			gx_wr_printf(w, ",\"interval_ms\":%.3f", (double)(p - r->present[i - 1]) / 1e6);
		gx_wr_puts(w, "}}");
		prev = p;
	}
	free(janky);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void section(struct gx_wr *w, const struct gfxstat_trace_event *t,
		    const struct gx_tmark *b, int64_t end, int unfinished)
{
	const struct gx_strmap_key *name = &t->names.keys[b->name];

	gx_wr_printf(w, ",\n{\"ph\":\"X\",\"pid\":%ld,\"tid\":%ld,\"cat\":\"section\",\"name\":",
		     (long)b->pid, (long)b->tid);
	gx_wr_json_str(w, name->p, name->n);
	gx_wr_puts(w, ",\"ts\":");
	put_us(w, b->ts);
	gx_wr_puts(w, ",\"dur\":");
	put_us(w, end > b->ts ? end - b->ts : 0);
	gx_wr_puts(w, unfinished ? ",\"args\":{\"unfinished\":true}}" : "}");
}

/*
 * The input's B/E markers as complete slices on their threads: per thread in input order, an
 * E closes the latest open B (an E with none open is dropped); a B still open at the end
 * lasts until the input's last section marker.
 */
static void sections(struct gx_wr *w, const struct gfxstat_trace_event *t)
{
	uint64_t *ord = malloc((t->nmarks ? t->nmarks : 1) * sizeof(*ord));
	size_t *open = malloc((t->nmarks ? t->nmarks : 1) * sizeof(*open));
	int64_t last = INT64_MIN;
	size_t i, j, depth = 0;

	if (!ord || !open) {
		w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
		free(ord);
		free(open);
		return;
	}
	for (i = 0; i < t->nmarks; i++) {
		ord[i] = (uint64_t)(uint32_t)t->marks[i].tid << 32 | (uint64_t)i;
		if (t->marks[i].ts > last)
			last = t->marks[i].ts;
	}
	qsort(ord, t->nmarks, sizeof(*ord), cmp_u64);
	for (i = 0; i < t->nmarks; i++) {
		const struct gx_tmark *k = &t->marks[ord[i] & 0xffffffffu];

		if (k->name >= 0)
			open[depth++] = ord[i] & 0xffffffffu;
		else if (depth)
			section(w, t, &t->marks[open[--depth]], k->ts, 0);
		/* the thread ends: what it left open lasts to the end */
		if (i + 1 == t->nmarks || (ord[i + 1] >> 32) != (ord[i] >> 32))
			while (depth)
				section(w, t, &t->marks[open[--depth]], last, 1);
	}
	for (j = 0; j < t->threads.n; j++) {
		const char *p = t->threads.keys[j].p;
		long pid, tid;
		int at = 0;

		if (sscanf(p, "%ld %ld %n", &pid, &tid, &at) < 2 || !at)
			continue;
		gx_wr_printf(w, ",\n{\"ph\":\"M\",\"pid\":%ld,\"tid\":%ld,\"name\":\"thread_name\","
			     "\"args\":{\"name\":", pid, tid);
		gx_wr_json_str(w, p + at, strlen(p + at));
		gx_wr_puts(w, "}}");
	}
	free(ord);
	free(open);
}

static void counter(struct gx_wr *w, const struct gx_tseries *k, int64_t ts, int64_t v)
{
	gx_wr_puts(w, ",\n{\"ph\":\"C\",\"pid\":" SYSTEM_PID ",\"name\":");
	gx_wr_json_str(w, k->name, strlen(k->name));
	gx_wr_puts(w, ",\"ts\":");
	put_us(w, ts);
	gx_wr_puts(w, ",\"args\":{");
	gx_wr_json_str(w, k->unit, strlen(k->unit));
	gx_wr_printf(w, ":%lld}}", (long long)v);
}

/* The system series as counter tracks of gfxstat's own "system" process: a value from its
 * window's start on. */
static void system_tracks(struct gx_wr *w, const struct gfxstat_trace_event *t)
{
	size_t i, j;

	if (!t->nseries)
		return;
	gx_wr_puts(w, ",\n{\"ph\":\"M\",\"pid\":" SYSTEM_PID ",\"name\":\"process_name\",\"args\":"
		      "{\"name\":\"gfxstat system\"}}");
	for (i = 0; i < t->nseries; i++) {
		const struct gx_tseries *k = &t->series[i];
		size_t last = k->n;

		for (j = 0; j < k->n; j++) {
			if (k->v[j] == GFXSTAT_SERIES_NONE)
				continue;
			counter(w, k, k->start + (int64_t)j * k->window, k->v[j]);
			last = j;
		}
		/* the last value holds to its window's end, not forever */
		if (last < k->n)
			counter(w, k, k->start + (int64_t)(last + 1) * k->window, k->v[last]);
	}
}

int gfxstat_trace_event_write(struct gfxstat_trace_event *t, const struct gfxstat_metrics *m,
			      int64_t window_ns, gfxstat_write_fn fn, void *user)
{
	struct gx_wr *w = calloc(1, sizeof(*w));
	size_t i, k, n = m ? gfxstat_metrics_count(m) : 0;
	int rc;

	if (!w)
		return GFXSTAT_E_NOMEM;
	w->fn = fn;
	w->user = user;
	gx_wr_puts(w, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"
		   "{\"ph\":\"M\",\"pid\":" FRAMES_PID ","
		   "\"name\":\"process_name\",\"args\":{\"name\":\"gfxstat frames\"}}");
	for (i = 0; i < t->st.nlayers; i++) {
		const struct gx_rlayer *r = &t->st.layers[i];
		const struct gfxstat_layer_metrics *l = NULL;
		char *fpsname;

		for (k = 0; k < n && !l; k++) {
			const struct gfxstat_layer_metrics *c = gfxstat_metrics_get(m, k);

			if (!c->is_app && !strcmp(c->name, r->name))
				l = c;
		}
		gx_wr_printf(w, ",\n{\"ph\":\"M\",\"pid\":" FRAMES_PID ",\"tid\":%zu,\"name\":\"thread_name\","
			     "\"args\":{\"name\":", i + 1);
		gx_wr_json_str(w, r->name, strlen(r->name));
		gx_wr_puts(w, "}}");
		frames_of(w, r, (long)i + 1, l);
		fpsname = malloc(strlen(r->name) + 5);
		if (!fpsname) {
			w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
			break;
		}
		snprintf(fpsname, strlen(r->name) + 5, "FPS %s", r->name);
		/* the FPS of each full window, as `analyze` counts it, at the window's start */
		for (k = 0; l && k < l->nwindows; k++) {
			gx_wr_puts(w, ",\n{\"ph\":\"C\",\"pid\":" FRAMES_PID ",\"name\":");
			gx_wr_json_str(w, fpsname, strlen(fpsname));
			gx_wr_puts(w, ",\"ts\":");
			put_us(w, l->first_ns + (int64_t)k * window_ns);
			gx_wr_printf(w, ",\"args\":{\"fps\":%.3f}}", l->window_fps[k]);
		}
		free(fpsname);
	}
	sections(w, t);
	system_tracks(w, t);
	gx_wr_puts(w, "\n]}\n");
	rc = gx_wr_flush(w);
	free(w);
	return rc;
}
