/* SPDX-License-Identifier: MIT */
/* gfxstat export: the frames as Trace Event Format JSON (Perfetto UI, chrome://tracing). */
#include <stdio.h>
#include <stdlib.h>

#include "html_local.h"

struct gfxstat_trace_event {
	struct gx_rstore st;
};

struct gfxstat_trace_event *gfxstat_trace_event_new(void)
{
	struct gfxstat_trace_event *t = calloc(1, sizeof(*t));

	if (t && gx_rstore_init(&t->st, 1)) {
		free(t);
		return NULL;
	}
	return t;
}

void gfxstat_trace_event_free(struct gfxstat_trace_event *t)
{
	if (!t)
		return;
	gx_rstore_free(&t->st);
	free(t);
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
		gx_wr_printf(w, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%ld,\"name\":\"%s\","
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
	gx_wr_puts(w, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,"
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
		gx_wr_printf(w, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%zu,\"name\":\"thread_name\","
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
			gx_wr_puts(w, ",\n{\"ph\":\"C\",\"pid\":1,\"name\":");
			gx_wr_json_str(w, fpsname, strlen(fpsname));
			gx_wr_puts(w, ",\"ts\":");
			put_us(w, l->first_ns + (int64_t)k * window_ns);
			gx_wr_printf(w, ",\"args\":{\"fps\":%.3f}}", l->window_fps[k]);
		}
		free(fpsname);
	}
	gx_wr_puts(w, "\n]}\n");
	rc = gx_wr_flush(w);
	free(w);
	return rc;
}
