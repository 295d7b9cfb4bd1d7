/* SPDX-License-Identifier: MIT */
/* Any input into the per-frame model: unwrap, detect, parse, model (gfxstat_source.h). */
#include <stdlib.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_cause.h"
#include "gfxstat/gfxstat_source.h"

/* Bytes of decoded content looked at before choosing the parser. */
#define SNIFF 4096

struct gfxstat_source {
	struct gfxstat_source_sink sink;
	struct gfxstat_model *model;
	struct gfxstat_causes *causes;
	struct gfxstat_thread_states *threads; /* GFXSTAT_SOURCE_THREAD_STATES: its doFrames' */
	unsigned trace_kinds;   /* the scheduler events the text parser reads for @threads */
	struct gfxstat_sysctx *sys; /* GFXSTAT_SOURCE_SYSTEM: the current input's system series */
	int64_t sys_window;
	const char *tmpdir; /* gfxstat_source_set_tmpdir()'s; NULL: held frames in memory */
	int nthreads;       /* gfxstat_source_set_threads()'s */
	/* the current input */
	struct gfxstat_unwrap *unwrap;
	struct gfxstat_trace_parser *trace;
	struct gfxstat_sf_frames *sf;
	struct gfxstat_app_frames *app; /* used only when SurfaceFlinger gives no frame */
	struct gfxstat_perfetto *pf;
	struct gfxstat_gfxinfo *gi;
	struct gfxstat_sfl *sfl;
	int detected;
	int ended;
	char head[SNIFF];
	size_t nhead;
	int rc;                 /* the parser's last result */
	int err;                /* first error of the current input */
	int sf_gave;            /* SurfaceFlinger gave a frame: app-side frames will not be used */
	char *name;
	struct gfxstat_source_summary sum;
	struct gfxstat_gfxinfo_own *own; /* the dump's own summaries (sum.gfxinfo_own) */
	size_t nown, capown;
};

/* Bound on the gfxinfo summaries kept per input (a dump has a few per process). */
#define MAX_OWN 4096

static int on_model_frame(void *user, const struct gfxstat_frame *f)
{
	struct gfxstat_source *s = user;

	return s->sink.frame ? s->sink.frame(s->sink.user, f) : 0;
}

/* Parsers' frames: the app work that produced them noted (when it began, whether it handled
 * input), then into the model. */
static int on_frame(void *user, const struct gfxstat_frame *frame)
{
	struct gfxstat_source *s = user;
	struct gfxstat_frame copy;
	int64_t start = GFXSTAT_NS_NONE;
	int input = -1;

	if (frame->source == GFXSTAT_SRC_FTRACE || frame->source == GFXSTAT_SRC_FTRACE_DISPLAY)
		s->sf_gave = 1;
	if (frame->source == GFXSTAT_SRC_FTRACE && !(s->sink.flags & GFXSTAT_SOURCE_NO_CAUSES)) {
		int found = gfxstat_causes_frame(s->causes, frame, &start, &input);

		copy = *frame;
		if (found && copy.actual_start_ns == GFXSTAT_NS_NONE && start < copy.present_ns)
			copy.actual_start_ns = start;
		if (copy.input < 0)
			copy.input = found && input >= 0 ? input
							 : gfxstat_causes_input(s->causes, frame);
		return gfxstat_model_frame(s->model, &copy);
	}
	return gfxstat_model_frame(s->model, frame);
}

/* Markers go to the section tracker that explains late frames, the frame extractor and the
 * caller. */
static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct gfxstat_source *s = user;
	int rc = s->sink.flags & GFXSTAT_SOURCE_NO_CAUSES ? 0
							   : gfxstat_causes_marker(s->causes, ev, m);

	if (!rc)
		rc = gfxstat_sf_frames_marker(s->sf, ev, m);
	/* app-side frames stand in only for a trace where SurfaceFlinger gives none */
	if (!rc && !s->sf_gave)
		rc = gfxstat_app_frames_marker(s->app, ev, m);
	if (!rc && s->sink.marker)
		rc = s->sink.marker(s->sink.user, ev, m);
	return rc;
}

/* Scheduler events with the system series: counted there (every kind is read), then into the
 * thread states that time each doFrame and DrawFrame. */
static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	struct gfxstat_source *s = user;

	gfxstat_sysctx_sched(s->sys, ev);
	return s->threads ? gfxstat_thread_states_event(s->threads, ev) : 0;
}

/* Perfetto's scheduler events without the system series: only the thread states read them
 * (one jump, where on_sched's tests cost more than the rest of a sched_waking). */
static int on_sched_threads(void *user, const struct gfxstat_sched_event *ev)
{
	return gfxstat_thread_states_event(((struct gfxstat_source *)user)->threads, ev);
}

/*
 * Trace text's scheduler events without the system series (analyze's case): into the thread
 * states until the first sched_waking, which narrows what the parser reads (sched_wakeup says
 * the same from then on); the parser then calls the thread states directly, no hop through
 * here for each of the hundreds of thousands of events.
 */
static int on_sched_text(void *user, const struct gfxstat_sched_event *ev)
{
	struct gfxstat_source *s = user;
	int rc = gfxstat_thread_states_event(s->threads, ev);

	if (ev->kind == GFXSTAT_SCHED_WAKING) {
		s->trace_kinds = gfxstat_thread_states_kinds(s->threads);
		gfxstat_trace_parser_set_sched_fn(s->trace, gfxstat_thread_states_event, s->threads,
						  s->trace_kinds);
	}
	return rc;
}

/* Counter samples (Perfetto): into the system series. */
static int on_counter(void *user, const struct gfxstat_counter *c)
{
	struct gfxstat_source *s = user;

	return s->sys ? gfxstat_sysctx_counter(s->sys, c) : 0;
}

/* A gfxinfo block: its own summary kept, for the caller to show beside the frames' figures. */
static int on_gfxinfo_block(void *user, const struct gfxstat_gfxinfo_block *b)
{
	struct gfxstat_source *s = user;
	struct gfxstat_gfxinfo_own *o;
	size_t n;

	if (!b->has_summary || b->dump.total_frames < 0 || s->nown >= MAX_OWN)
		return 0;
	if (gx_grow((void **)&s->own, &s->capown, s->nown, sizeof(*s->own), 16))
		return GFXSTAT_E_NOMEM;
	o = &s->own[s->nown++];
	o->kind = b->kind;
	o->pid = b->pid;
	n = b->app.n < sizeof(o->app) ? b->app.n : sizeof(o->app) - 1;
	memcpy(o->app, b->app.p, n);
	o->app[n] = 0;
	n = b->name.n < sizeof(o->name) ? b->name.n : sizeof(o->name) - 1;
	memcpy(o->name, b->name.p, n);
	o->name[n] = 0;
	o->total_frames = b->dump.total_frames;
	o->janky_frames = b->dump.janky_frames;
	return 0;
}

/* A process the input names: the model names the apps of frames by it. */
static int on_process(void *user, int32_t pid, struct gfxstat_str name)
{
	struct gfxstat_source *s = user;
	struct gfxstat_str app = s->pf ? gfxstat_perfetto_app(s->pf, pid) : name;

	return gfxstat_model_process(s->model, pid, app.n ? app : name);
}

/* A process or thread systrace's PROCESS DUMP names (tid 0: a process). */
static int on_task(void *user, int32_t pid, int32_t tid, struct gfxstat_str name)
{
	struct gfxstat_source *s = user;
	int rc = gfxstat_app_frames_task(s->app, pid, tid, name);

	if (!rc)
		rc = gfxstat_causes_task(s->causes, pid, tid, name);
	return rc || tid ? rc : gfxstat_model_process(s->model, pid, name);
}

struct gfxstat_source *gfxstat_source_new(const struct gfxstat_source_sink *sink)
{
	struct gfxstat_source *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (sink)
		s->sink = *sink;
	s->model = gfxstat_model_new(on_model_frame, s);
	s->ended = 1;
	if (!s->model) {
		free(s);
		return NULL;
	}
	return s;
}

static void input_free(struct gfxstat_source *s)
{
	gfxstat_unwrap_free(s->unwrap);
	gfxstat_trace_parser_free(s->trace);
	gfxstat_sf_frames_free(s->sf);
	gfxstat_app_frames_free(s->app);
	gfxstat_perfetto_free(s->pf);
	gfxstat_gfxinfo_free(s->gi);
	gfxstat_sfl_free(s->sfl);
	s->unwrap = NULL;
	s->trace = NULL;
	s->sf = NULL;
	s->app = NULL;
	s->pf = NULL;
	s->gi = NULL;
	s->sfl = NULL;
}

void gfxstat_source_free(struct gfxstat_source *s)
{
	if (!s)
		return;
	input_free(s);
	gfxstat_causes_free(s->causes);
	gfxstat_thread_states_free(s->threads);
	s->threads = NULL;
	gfxstat_sysctx_free(s->sys);
	gfxstat_model_free(s->model);
	free(s->name);
	free(s->own);
	free(s);
}

static int on_unwrapped(void *user, const void *buf, size_t n);

int gfxstat_source_begin(struct gfxstat_source *s, const char *name)
{
	input_free(s);
	gfxstat_causes_free(s->causes);
	gfxstat_thread_states_free(s->threads);
	s->threads = NULL;
	gfxstat_sysctx_free(s->sys);
	s->sys = NULL;
	free(s->name);
	s->name = NULL;
	memset(&s->sum, 0, sizeof(s->sum));
	s->nown = 0;
	s->detected = 0;
	s->ended = 0;
	s->nhead = 0;
	s->rc = 0;
	s->err = 0;
	s->sf_gave = 0;
	{
		const char *nm = name ? name : "-";
		size_t len = strlen(nm) + 1;

		s->name = malloc(len);
		if (s->name)
			memcpy(s->name, nm, len);
	}
	s->causes = gfxstat_causes_new();
	/* thread states cost a payload parse per scheduler event: only for those who ask */
	if (s->causes && (s->sink.flags & GFXSTAT_SOURCE_THREAD_STATES) &&
	    !(s->sink.flags & GFXSTAT_SOURCE_NO_CAUSES)) {
		s->threads = gfxstat_thread_states_new();
		if (s->threads)
			gfxstat_causes_set_thread_states(s->causes, s->threads);
	}
	s->sf = gfxstat_sf_frames_new(on_frame, s);
	s->app = gfxstat_app_frames_new(on_frame, s);
	if (s->app)
		gfxstat_app_frames_set_tmpdir(s->app, s->tmpdir);
	s->trace = s->sf ? gfxstat_trace_parser_new(on_marker, s) : NULL;
	if (s->trace)
		gfxstat_trace_parser_set_threads(s->trace, s->nthreads);
	s->trace_kinds = GFXSTAT_THREAD_STATES_KINDS;
	/* the system series: every scheduler event is counted (what the input holds) */
	if (s->sink.flags & GFXSTAT_SOURCE_SYSTEM) {
		s->sys = gfxstat_sysctx_new(s->sys_window);
		s->trace_kinds = 0; /* all */
	}
	if (s->trace && s->sys)
		gfxstat_trace_parser_set_sched_fn(s->trace, on_sched, s, s->trace_kinds);
	else if (s->trace && s->threads)
		gfxstat_trace_parser_set_sched_fn(s->trace, on_sched_text, s, s->trace_kinds);
	if (s->trace && s->sys) /* GPU frequency and thermal lines (counter_line.c) */
		gfxstat_trace_parser_set_counter_fn(s->trace, on_counter, s);
	s->unwrap = gfxstat_unwrap_new(on_unwrapped, s, &s->sum.unwrap);
	if (s->unwrap)
		gfxstat_unwrap_set_task_fn(s->unwrap, on_task, s);
	if (s->unwrap) /* a zip that is a regular file is read by random access, not held */
		gfxstat_unwrap_set_path(s->unwrap, s->name);
	s->sum.name = s->name ? s->name : "-";
	s->sum.format = "empty";
	gfxstat_model_input_begin(s->model, 0, "ftrace-text");
	if (!s->name || !s->causes || !s->trace || !s->unwrap || !s->app ||
	    (!s->sys && (s->sink.flags & GFXSTAT_SOURCE_SYSTEM)) ||
	    (!s->threads && (s->sink.flags & GFXSTAT_SOURCE_THREAD_STATES) &&
	     !(s->sink.flags & GFXSTAT_SOURCE_NO_CAUSES)))
		return GFXSTAT_E_NOMEM;
	return 0;
}

/* The parser chosen for the decoded content. */
static int parse(struct gfxstat_source *s, const void *buf, size_t n)
{
	if (s->pf)
		return gfxstat_perfetto_feed(s->pf, buf, n);
	if (s->gi)
		return gfxstat_gfxinfo_feed(s->gi, buf, n);
	if (s->sfl)
		return gfxstat_sfl_feed(s->sfl, buf, n);
	return gfxstat_trace_parser_feed(s->trace, buf, n);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* Look at the first decoded bytes, pick the parser, then give it what was held back. */
static int decide(struct gfxstat_source *s)
{
	enum gfxstat_format f = gfxstat_detect(s->head, s->nhead);

	if (f != GFXSTAT_FMT_PERFETTO && f != GFXSTAT_FMT_GFXINFO && f != GFXSTAT_FMT_SF_LATENCY)
		f = GFXSTAT_FMT_FTRACE_TEXT;
	s->detected = 1;
	s->sum.fmt = f;
	s->sum.format = gfxstat_format_name(f);
	/* only trace text streams (a live capture); the rest is finite and may describe a frame
	 * twice or out of order, so the model holds it until the end */
	gfxstat_model_input_begin(s->model, f != GFXSTAT_FMT_FTRACE_TEXT, s->sum.format);
	if (f == GFXSTAT_FMT_PERFETTO) {
		struct gfxstat_perfetto_sink ps;

		memset(&ps, 0, sizeof(ps));
		ps.marker = on_marker;
		ps.frame = on_frame;
		ps.process = on_process;
		ps.user = s;
		/* scheduler events (and with them the markers, merged in time order) */
		if (s->sys)
			ps.sched = on_sched;
		else if (s->threads)
			ps.sched = on_sched_threads;
		ps.sched_kinds = s->trace_kinds; /* (all with the system series) */
		if (s->sys)
			ps.counter = on_counter;
		/* its frames are explained once it has ended (the model holds them) */
		gfxstat_causes_keep_work(s->causes, 1);
		s->pf = gfxstat_perfetto_new(&ps, &s->sum.stats);
		if (!s->pf)
			return GFXSTAT_E_NOMEM;
		gfxstat_perfetto_set_tmpdir(s->pf, s->tmpdir);
		gfxstat_perfetto_set_threads(s->pf, s->nthreads);
	} else if (f == GFXSTAT_FMT_GFXINFO) {
		struct gfxstat_gfxinfo_sink gs;

		memset(&gs, 0, sizeof(gs));
		gs.frame = on_frame;
		gs.block = on_gfxinfo_block;
		gs.user = s;
		s->gi = gfxstat_gfxinfo_new(NULL, &gs, &s->sum.stats);
		if (!s->gi)
			return GFXSTAT_E_NOMEM;
	} else if (f == GFXSTAT_FMT_SF_LATENCY) {
		struct gfxstat_sfl_sink ls;

		memset(&ls, 0, sizeof(ls));
		ls.frame = on_frame;
		ls.user = s;
		s->sfl = gfxstat_sfl_new(base_name(s->sum.name), &ls, &s->sum.sfl);
		if (!s->sfl)
			return GFXSTAT_E_NOMEM;
	}
	return s->nhead ? parse(s, s->head, s->nhead) : 0;
}

/* Decoded bytes from the unwrapper. */
static int on_unwrapped(void *user, const void *buf, size_t n)
{
	struct gfxstat_source *s = user;

	if (!s->detected) {
		size_t take = n < SNIFF - s->nhead ? n : SNIFF - s->nhead;

		memcpy(s->head + s->nhead, buf, take);
		s->nhead += take;
		if (s->nhead < SNIFF)
			return 0;
		s->rc = decide(s);
		if (s->rc)
			return s->rc;
		buf = (const char *)buf + take;
		n -= take;
	}
	s->rc = n ? parse(s, buf, n) : 0;
	return s->rc;
}

int gfxstat_source_feed(struct gfxstat_source *s, const void *buf, size_t n)
{
	int rc;

	if (s->ended || !s->unwrap)
		return GFXSTAT_E_INVAL;
	s->sum.bytes += n;
	rc = gfxstat_unwrap_feed(s->unwrap, buf, n);
	if (!rc)
		rc = s->rc;
	if (rc && !s->err)
		s->err = rc;
	return rc;
}

static void count_damage(struct gfxstat_source *s)
{
	struct gfxstat_source_summary *m = &s->sum;
	int i;

	m->damaged = 0;
	for (i = 0; i < GFXSTAT_UNWRAP_STAT_COUNT; i++)
		if (gfxstat_unwrap_stat_severity((enum gfxstat_unwrap_stat)i) == GFXSTAT_SEV_ERROR)
			m->damaged += m->unwrap.v[i];
	for (i = 0; i < GFXSTAT_STAT_COUNT; i++)
		if (gfxstat_stat_severity((enum gfxstat_stat)i) == GFXSTAT_SEV_ERROR)
			m->damaged += m->stats.v[i];
	/* frames of any source the model refused as damage (times beyond any clock) */
	for (i = 0; i < GFXSTAT_MODEL_STAT_COUNT; i++)
		if (gfxstat_model_stat_severity((enum gfxstat_model_stat)i) == GFXSTAT_SEV_ERROR)
			m->damaged += m->model.v[i];
	if (m->have_gfxinfo)
		for (i = 0; i < GFXSTAT_GFXINFO_COUNT_N; i++)
			if (gfxstat_gfxinfo_count_severity((enum gfxstat_gfxinfo_count)i) ==
			    GFXSTAT_SEV_ERROR)
				m->damaged += m->gfxinfo.v[i];
	if (m->have_sfl)
		for (i = 0; i < GFXSTAT_SFL_STAT_COUNT; i++)
			if (gfxstat_sfl_stat_severity((enum gfxstat_sfl_stat)i) == GFXSTAT_SEV_ERROR)
				m->damaged += m->sfl.v[i];
	if (m->have_perfetto)
		m->damaged += m->perfetto.truncated + m->perfetto.broken +
			      m->perfetto.inflate_failed;
}

int gfxstat_source_end(struct gfxstat_source *s)
{
	struct gfxstat_source_summary *m = &s->sum;
	int rc, mrc;

	if (s->ended || !s->unwrap)
		return GFXSTAT_E_INVAL;
	s->ended = 1;
	rc = gfxstat_unwrap_finish(s->unwrap);
	if (!rc && !s->detected)
		rc = decide(s);
	if (!rc || rc == GFXSTAT_E_ABORTED) {
		int prc = 0;

		if (s->pf)
			prc = gfxstat_perfetto_finish(s->pf);
		else if (s->gi)
			prc = gfxstat_gfxinfo_finish(s->gi);
		else if (s->sfl)
			prc = gfxstat_sfl_finish(s->sfl);
		else
			prc = gfxstat_trace_parser_finish(s->trace);
		if (!prc || prc == GFXSTAT_E_ABORTED)
			prc = gfxstat_sf_frames_finish(s->sf);
		/* an app-only trace: the app's own frames, labelled as app-side */
		if (!prc && !gfxstat_model_stats(s->model)->v[GFXSTAT_MODEL_frames_in]) {
			prc = gfxstat_app_frames_finish(s->app);
			gfxstat_app_frames_summary(s->app, &m->app);
			m->have_app = m->app.frames > 0;
		}
		if (!rc)
			rc = prc;
	}
	mrc = gfxstat_model_input_end(s->model);
	if (!rc || rc == GFXSTAT_E_ABORTED)
		rc = mrc ? mrc : rc;
	if (s->sys && gfxstat_sysctx_finish(s->sys, GFXSTAT_NS_NONE) && !rc)
		rc = GFXSTAT_E_NOMEM;
	/* the summary */
	if (!s->pf && !s->gi && !s->sfl)
		m->stats = *gfxstat_trace_parser_stats(s->trace);
	gfxstat_sf_frames_summary(s->sf, &m->sf);
	m->have_sf = !s->gi && !s->sfl;
	m->held_to_file = gfxstat_model_held_to_file(s->model);
	if (s->pf) {
		m->have_perfetto = 1;
		m->perfetto = *gfxstat_perfetto_summary(s->pf);
		m->held_to_file += m->perfetto.held_to_file;
	}
	if (s->gi) {
		m->have_gfxinfo = 1;
		m->gfxinfo = *gfxstat_gfxinfo_counts(s->gi);
		m->gfxinfo_own = s->own;
		m->ngfxinfo_own = s->nown;
	}
	m->have_sfl = s->sfl != NULL;
	{
		enum gfxstat_format lay[GFXSTAT_UNWRAP_MAX_DEPTH + 1];
		int nl = gfxstat_unwrap_layers(s->unwrap, lay, GFXSTAT_UNWRAP_MAX_DEPTH + 1);
		size_t off = 0;
		int k;

		m->containers[0] = 0;
		for (k = 0; k < nl && off < sizeof(m->containers); k++) {
			const char *fn = gfxstat_format_name(lay[k]);
			size_t need = strlen(fn) + (k ? 3 : 0);

			if (off + need + 1 > sizeof(m->containers))
				break;
			if (k) {
				memcpy(m->containers + off, " > ", 3);
				off += 3;
			}
			memcpy(m->containers + off, fn, strlen(fn) + 1);
			off += strlen(fn);
		}
	}
	m->model = *gfxstat_model_stats(s->model);
	count_damage(s);
	if (rc && !s->err)
		s->err = rc;
	return rc;
}

int gfxstat_source_last_error(const struct gfxstat_source *s)
{
	return s->err;
}

const struct gfxstat_source_summary *gfxstat_source_summary(const struct gfxstat_source *s)
{
	return &s->sum;
}

const struct gfxstat_model *gfxstat_source_model(const struct gfxstat_source *s)
{
	return s->model;
}

struct gfxstat_model *gfxstat_source_model_mut(struct gfxstat_source *s)
{
	return s->model;
}

struct gfxstat_causes *gfxstat_source_causes(const struct gfxstat_source *s)
{
	return s->causes;
}

const struct gfxstat_sysctx *gfxstat_source_sysctx(const struct gfxstat_source *s)
{
	return s->sys;
}

void gfxstat_source_set_sys_window(struct gfxstat_source *s, int64_t window_ns)
{
	s->sys_window = window_ns;
}

void gfxstat_source_set_tmpdir(struct gfxstat_source *s, const char *dir)
{
	s->tmpdir = dir;
	gfxstat_model_set_tmpdir(s->model, dir);
	if (s->app)
		gfxstat_app_frames_set_tmpdir(s->app, dir);
}

void gfxstat_source_set_threads(struct gfxstat_source *s, int threads)
{
	s->nthreads = threads;
}
