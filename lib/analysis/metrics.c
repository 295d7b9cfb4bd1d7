/* SPDX-License-Identifier: MIT */
/*
 * Every anchor tool's metric, each by that tool's own definition (METRICS.md, docs/metrics.md),
 * computed from one stream of presents per layer, and per app from the union of its layers'
 * presents. Frame time = the interval between consecutive presents of the stream. This file
 * takes the frames in, keeps each stream's in a store that goes to a temporary file past a few
 * kB, and makes the apps' streams; metrics_compute.c reads them back for the figures.
 */
#include <stdlib.h>

#include "metrics_local.h"
#include "gfxstat/gfxstat_gfxinfo.h"

/* layers a recording may hold: as many as SurfaceFlinger's frame producer keeps apart (a
 * phone shows some hundreds; a trace of hours of app switches, thousands) */
#define MAX_STREAMS 65536
/* names of the layers past that, counted each once (their frames are counted whatever) */
#define MAX_DROPPED_NAMES (1 << 24)
#define MAX_FRAMES_PER_STREAM (64u << 20)
/* the per-window FPS series of all layers together stop after this many windows (see
 * WINDOWS_MAX in metrics_compute.c) */
#define WINDOWS_BUDGET ((size_t)1 << 22)
/* a stream's frames kept in memory before its store writes them to the metrics' file */
#define STORE_RUN ((size_t)16 << 10)
/* all streams' frames kept in memory: past it, a store that pushes a frame and holds at least
 * FLUSH_MIN writes what it holds (thousands of layers do not take STORE_RUN each) */
#define HELD_BUDGET ((size_t)4 << 20)
#define FLUSH_MIN ((size_t)1 << 10)

/* A source's own summary of a layer or an app (gfxstat_metrics_own_summary()). */
struct own {
	int64_t total, janky;
};

struct gfxstat_metrics {
	struct gfxstat_metrics_opts o;
	/* the source's own summaries of layers [0] and apps [1], by name (their maps' indexes) */
	struct gx_strmap own_names[2];
	struct own *own[2];
	size_t capown[2];
	struct gx_strmap names; /* layer name -> stream index */
	struct gx_strmap dropped; /* names of the layers past MAX_STREAMS */
	uint64_t dropped_frames;  /* their frames */
	struct stream *s;
	size_t ns, cap;
	size_t *members; /* the layers of each app, app by app, in layer order */
	int finished;
	int finish_rc;       /* a failed finish leaves no layer to read */
	size_t windows_left; /* of WINDOWS_BUDGET */
	/* the one file every stream's store and every sort of compute() writes to, in
	 * gfxstat_metrics_set_tmpdir()'s directory (none: memory only) */
	struct gx_xfile file;
	size_t held; /* bytes of frames the stores hold in memory, before their file */
};

void gfxstat_metrics_opts_init(struct gfxstat_metrics_opts *o)
{
	o->wait_ns = 500 * GFXSTAT_NSEC_PER_MSEC;
	o->window_ns = GFXSTAT_NSEC_PER_SEC;
	o->frozen_ns = 700 * GFXSTAT_NSEC_PER_MSEC;
	o->target_fps = 60;
	o->kpi_ms = 100;
	o->default_period_ns = 16666667;
	o->settle_ns = 200 * GFXSTAT_NSEC_PER_MSEC;
	o->scroll_only = 0;
}

struct gfxstat_metrics *gfxstat_metrics_new(const struct gfxstat_metrics_opts *o)
{
	struct gfxstat_metrics *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	gx_xfile_init(&m->file, NULL); /* first: gfxstat_metrics_free() closes it */
	if (o)
		m->o = *o;
	else
		gfxstat_metrics_opts_init(&m->o);
	if (m->o.wait_ns <= 0 || m->o.window_ns <= 0 || m->o.default_period_ns <= 0 ||
	    m->o.settle_ns <= 0 ||
	    gx_strmap_init(&m->names, MAX_STREAMS) || gx_strmap_init(&m->dropped, MAX_DROPPED_NAMES) ||
	    gx_strmap_init(&m->own_names[0], MAX_STREAMS) ||
	    gx_strmap_init(&m->own_names[1], MAX_STREAMS)) {
		gfxstat_metrics_free(m);
		return NULL;
	}
	return m;
}

void gfxstat_metrics_set_tmpdir(struct gfxstat_metrics *m, const char *dir)
{
	if (!m->ns) /* before the first frame */
		gx_xfile_init(&m->file, dir);
}

static void stream_free(struct stream *s)
{
	free(s->name);
	free(s->app);
	gx_xsort_free(&s->frames);
	gx_xsort_free(&s->untimed);
	free(s->window_fps);
	free(s->jw);
	free(s->jl);
	free(s->scrolls);
}

void gfxstat_metrics_free(struct gfxstat_metrics *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->ns; i++)
		stream_free(&m->s[i]);
	free(m->s);
	for (i = 0; i < 2; i++) {
		gx_strmap_free(&m->own_names[i]);
		free(m->own[i]);
	}
	free(m->members);
	gx_strmap_free(&m->names);
	gx_strmap_free(&m->dropped);
	gx_xfile_close(&m->file);
	free(m);
}

static char *dup_str(struct gfxstat_str s)
{
	char *p = malloc(s.n + 1);

	if (p) {
		memcpy(p, s.p, s.n);
		p[s.n] = 0;
	}
	return p;
}

static struct stream *new_stream(struct gfxstat_metrics *m)
{
	struct stream *s;

	if (gx_grow((void **)&m->s, &m->cap, m->ns, sizeof(*m->s), 16))
		return NULL;
	s = &m->s[m->ns];
	memset(s, 0, sizeof(*s));
	s->src = m->ns++;
	gx_xsort_init_shared(&s->frames, sizeof(struct frec), NULL, STORE_RUN, &m->file);
	gx_xsort_init_shared(&s->untimed, sizeof(struct fx), NULL, STORE_RUN, &m->file);
	s->frames.keep = s->untimed.keep = 1; /* read in several passes */
	return s;
}

/* @x into @to, field by field: @to's padding stays as set (a struct copy may bring the
 * caller's stack bytes, and the store writes whole records to a file) */
static void fx_copy(struct fx *to, const struct fx *x)
{
	to->overrun = x->overrun;
	to->dur = x->dur;
	to->start = x->start;
	to->own_late = x->own_late;
	to->len = x->len;
	to->verdict = x->verdict;
}

/* @rec into store @x of @m, within the memory all stores share (HELD_BUDGET) */
static int store_put(struct gfxstat_metrics *m, struct gx_xsort *x, const void *rec)
{
	size_t before = x->nfill * x->size;
	int rc = gx_xsort_put(x, rec);

	m->held = m->held - before + x->nfill * x->size;
	if (!rc && m->held > HELD_BUDGET && x->nfill * x->size >= FLUSH_MIN) {
		m->held -= x->nfill * x->size;
		rc = gx_xsort_flush(x);
	}
	return rc;
}

static int push_untimed(struct gfxstat_metrics *m, struct stream *s, const struct fx *x)
{
	struct fx c;

	if (s->nu >= MAX_FRAMES_PER_STREAM)
		return GFXSTAT_E_LIMIT;
	memset(&c, 0, sizeof(c)); /* the padding too: the store may write it to a file */
	fx_copy(&c, x);
	s->nu++;
	return store_put(m, &s->untimed, &c);
}

static int push(struct gfxstat_metrics *m, struct stream *s, int64_t present, int64_t period,
		int64_t render, int input, const struct fx *x)
{
	struct frec f;

	if (s->n >= MAX_FRAMES_PER_STREAM)
		return GFXSTAT_E_LIMIT;
	memset(&f, 0, sizeof(f)); /* the padding too: the store may write it to a file */
	f.present = present;
	f.period = period;
	f.render = render;
	fx_copy(&f.x, x);
	f.input = (signed char)input;
	s->n++;
	return store_put(m, &s->frames, &f);
}

/*
 * How late the frame finished against its own deadline. FrameTimeline: Macrobenchmark's
 * frameOverrun, max(actual end, RenderThread end) - expected end (androidx/androidx
 * benchmark/benchmark-macro/src/main/java/androidx/benchmark/macro/perfetto/FrameTimingQuery.kt;
 * the model has no RenderThread end, so actual end; app surface frames only, as there: a
 * display frame's end is SurfaceFlinger's CPU end, microseconds around its deadline).
 * framestats: FrameCompleted -
 * FrameDeadline, against JankTracker's own deadline (not an androidx rule: Macrobenchmark reads
 * no gfxinfo; JankTracker itself tests GpuCompleted, which own_late() follows). NONE when the
 * source gives no deadline.
 */
static int64_t frame_overrun(const struct gfxstat_frame *f)
{
	int64_t c = f->fi[GFXSTAT_FI_FRAME_COMPLETED], d = f->fi[GFXSTAT_FI_FRAME_DEADLINE];

	if (f->source == GFXSTAT_SRC_FRAMETIMELINE && f->actual_end_ns != GFXSTAT_NS_NONE &&
	    f->expected_end_ns != GFXSTAT_NS_NONE)
		return f->actual_end_ns - f->expected_end_ns;
	if (f->source == GFXSTAT_SRC_GFXINFO && c != GFXSTAT_NS_NONE && d != GFXSTAT_NS_NONE &&
	    c > 0 && d > 0)
		return c - d;
	return GFXSTAT_NS_NONE;
}

/*
 * How late a frame was by Android's own account, or NONE. FrameTimeline: its actual end past
 * its expected end (its deadline), deadlineDelta = mActuals.endTime - mPredictions.endTime in
 * SurfaceFrame::classifyJankLocked, and SurfaceFlinger's own in DisplayFrame::classifyJank
 * (AOSP frameworks/native services/surfaceflinger/FrameTimeline/FrameTimeline.cpp); in
 * Perfetto, the end of its actual_frame_timeline_slice less that of its
 * expected_frame_timeline_slice. gfxinfo framestats of Android 12+: GpuCompleted past
 * FrameDeadline, the very test by which JankTracker::finishFrame counts a frame janky ("if
 * (frame[GpuCompleted] < deadline)", AOSP frameworks/base libs/hwui/JankTracker.cpp; the
 * columns are FrameInfoIndex, libs/hwui/FrameInfo.h). GpuCompleted is already the later of
 * the GPU's fence and the CPU's command submission (CanvasContext::onSurfaceStatsAvailable,
 * libs/hwui/renderthread/CanvasContext.cpp), and the dumped FrameDeadline already holds the
 * stuffed-buffer deadline finishFrame wrote back, so this is the margin of the very
 * comparison that made the frame janky (lib/input/gfxinfo_janktracker.c frame12()).
 */
static int64_t own_late(const struct gfxstat_frame *f)
{
	int64_t g = f->fi[GFXSTAT_FI_GPU_COMPLETED], d = f->fi[GFXSTAT_FI_FRAME_DEADLINE];

	if ((f->source == GFXSTAT_SRC_FRAMETIMELINE ||
	     f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY) &&
	    f->actual_end_ns != GFXSTAT_NS_NONE && f->expected_end_ns != GFXSTAT_NS_NONE)
		return f->actual_end_ns - f->expected_end_ns;
	/* both must be times: a slot hwui never filled holds 0 */
	if (f->source == GFXSTAT_SRC_GFXINFO && g != GFXSTAT_NS_NONE && d != GFXSTAT_NS_NONE &&
	    g > 0 && d > 0)
		return g - d;
	return GFXSTAT_NS_NONE;
}

/*
 * How long frame @f took by its own account, the length a janky frame shows (and the worst
 * frames rank by), or NONE where the source does not time the frame (then its interval is
 * shown). It runs from when the frame was meant to start, so that every part of it -- a
 * stage, a wait for the vsync, how late it ended -- fits inside:
 * - gfxinfo framestats: the later of FrameCompleted and GpuCompleted - IntendedVsync. hwui's
 *   FrameInfo::totalDuration() (frameworks/base libs/hwui/FrameInfo.h), what JankTracker
 *   buckets into the percentiles (libs/hwui/JankTracker.cpp finishFrame(),
 *   mData->reportFrame(totalDuration)), is FrameCompleted - IntendedVsync too, but less the
 *   SyncQueued..SyncStart stall it leaves to the previous frame: a StatusBar row of the
 *   aNavMode sample stalled 67.3 ms there, totalDuration 13.8 ms, and was 61.1 ms past its
 *   FrameDeadline by JankTracker's own test (GpuCompleted, own_late()). The stall is this
 *   frame's wait, and its GPU end is what made it late, so both are in its length. It starts
 *   at FrameDeadline where that is earlier: a RenderThread-animation row (Flags 2) of the
 *   same sample has a FrameDeadline 13.3 ms before its IntendedVsync, and is late by it.
 * - gfxinfo legacy table: Draw + Prepare + Process + Execute (duration_ns).
 * - FrameTimeline: actual end - expected start. Perfetto's actual_frame_timeline_slice dur is
 *   actual end - actual start (what duration_ns holds, Macrobenchmark's frameDurationCpu),
 *   which leaves out a late start; the expected start is the vsync the frame was predicted
 *   for (SurfaceFrame mPredictions.startTime, frameworks/native services/surfaceflinger/
 *   FrameTimeline/FrameTimeline.cpp), FrameTimeline's IntendedVsync, and its deadline
 *   (expected end) is after it, so the lateness (actual end - expected end) never exceeds it.
 * - ftrace frames of SurfaceFlinger's markers whose app start the trace shows: that start
 *   (the app's Choreographer#doFrame) to the present, the span the cause's "took N ms from
 *   its start to the display" and its main-thread sections lie in.
 * - other sources with a duration of their own (the app's doFrame start to DrawFrame end):
 *   that duration.
 */
static int64_t frame_len(const struct gfxstat_frame *f)
{
	int64_t iv = f->fi[GFXSTAT_FI_INTENDED_VSYNC], fc = f->fi[GFXSTAT_FI_FRAME_COMPLETED],
		gc = f->fi[GFXSTAT_FI_GPU_COMPLETED], dl = f->fi[GFXSTAT_FI_FRAME_DEADLINE];

	/* slots hwui never filled hold 0 (own_late()) */
	if (f->source == GFXSTAT_SRC_GFXINFO && iv != GFXSTAT_NS_NONE && fc != GFXSTAT_NS_NONE &&
	    iv > 0 && fc > iv && f->duration_ns != GFXSTAT_NS_NONE) {
		int64_t end = gc != GFXSTAT_NS_NONE && gc > fc ? gc : fc;
		int64_t beg = dl != GFXSTAT_NS_NONE && dl > 0 && dl < iv ? dl : iv;

		return end - beg;
	}
	if (f->source == GFXSTAT_SRC_FTRACE && f->actual_start_ns != GFXSTAT_NS_NONE &&
	    f->present_ns != GFXSTAT_NS_NONE && f->actual_start_ns < f->present_ns)
		return f->present_ns - f->actual_start_ns;
	if ((f->source == GFXSTAT_SRC_FRAMETIMELINE ||
	     f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY) &&
	    f->actual_end_ns != GFXSTAT_NS_NONE && f->expected_start_ns != GFXSTAT_NS_NONE &&
	    f->actual_end_ns > f->expected_start_ns)
		return f->actual_end_ns - f->expected_start_ns;
	return f->duration_ns != GFXSTAT_NS_NONE && f->duration_ns > 0 ? f->duration_ns
									: GFXSTAT_NS_NONE;
}

int gfxstat_metrics_frame(void *mp, const struct gfxstat_frame *f)
{
	struct gfxstat_metrics *m = mp;
	struct stream *s;
	int created, b;
	long i;
	int64_t render = GFXSTAT_NS_NONE;
	struct fx x;

	/* a frame with neither a present nor its own duration says nothing measurable */
	if (f->present_ns == GFXSTAT_NS_NONE && f->duration_ns == GFXSTAT_NS_NONE)
		return 0;
	i = gx_strmap_add(&m->names, f->layer.p, f->layer.n, &created);
	if (i == GFXSTAT_E_LIMIT) {
		/* past MAX_STREAMS: the frame is left out, and counted (names beyond the
		 * second map's room are counted by their frames only) */
		m->dropped_frames++;
		i = gx_strmap_add(&m->dropped, f->layer.p, f->layer.n, &created);
		return i == GFXSTAT_E_NOMEM ? (int)i : 0;
	}
	if (i < 0)
		return (int)i;
	if (created) {
		s = new_stream(m);
		if (!s)
			return GFXSTAT_E_NOMEM;
		s->name = dup_str(f->layer);
		s->app = dup_str(f->app);
		s->source = f->source;
		if (!s->name || !s->app)
			return GFXSTAT_E_NOMEM;
	}
	s = &m->s[i];
	x.overrun = frame_overrun(f);
	x.own_late = own_late(f);
	x.dur = f->duration_ns;
	x.len = frame_len(f);
	/* a frame of SF's markers whose app work the trace shows: judged from its start */
	x.start = f->source == GFXSTAT_SRC_FTRACE && f->actual_start_ns != GFXSTAT_NS_NONE &&
			  f->present_ns != GFXSTAT_NS_NONE && f->actual_start_ns < f->present_ns
		  ? f->actual_start_ns : GFXSTAT_NS_NONE;
	x.verdict = (signed char)(f->janky < 0 ? -1 : f->janky > 0);
	/* frames of a layer come in present order; one arriving out of order is dropped */
	if (f->present_ns != GFXSTAT_NS_NONE && s->n && f->present_ns < s->last)
		return 0;
	if (f->present_ns != GFXSTAT_NS_NONE && s->n && f->present_ns == s->last)
		s->dup = 1; /* an app of this layer alone merges them */
	if (f->present_ns != GFXSTAT_NS_NONE)
		s->last = f->present_ns;
	if (f->fi[GFXSTAT_FI_FRAME_COMPLETED] > 0 && f->fi[GFXSTAT_FI_INTENDED_VSYNC] > 0 &&
	    f->fi[GFXSTAT_FI_FRAME_COMPLETED] != GFXSTAT_NS_NONE)
		render = f->fi[GFXSTAT_FI_FRAME_COMPLETED] - f->fi[GFXSTAT_FI_INTENDED_VSYNC];
	if (f->janky >= 0) {
		s->m.source_judged++;
		s->m.source_janky += f->janky > 0;
	}
	if (f->jank_type > 0)
		for (b = 0; b < GFXSTAT_FT_JANK_BITS; b++)
			s->m.ft_jank[b] += (f->jank_type >> b) & 1;
	if (f->present_type >= 0 && f->present_type < 6)
		s->m.ft_present[f->present_type]++;
	if (f->source == GFXSTAT_SRC_GFXINFO)
		for (b = 0; b < GFXSTAT_GFXINFO_REASONS; b++)
			/* Android counts some reasons twice for one frame (gfxstat_gfxinfo.h) */
			s->m.gfxinfo_reasons[b] += gfxstat_jank_reason_count(
				f->jank_reasons, (enum gfxstat_jank_type)b);
	{
		int input = f->input;

		/* framestats: hwui presets HandleInputStart to the vsync; input moves it apart */
		if (input < 0 && f->source == GFXSTAT_SRC_GFXINFO &&
		    f->fi[GFXSTAT_FI_ANIMATION_START] > 0 && f->fi[GFXSTAT_FI_HANDLE_INPUT_START] > 0 &&
		    f->fi[GFXSTAT_FI_ANIMATION_START] != GFXSTAT_NS_NONE &&
		    f->fi[GFXSTAT_FI_HANDLE_INPUT_START] != GFXSTAT_NS_NONE)
			input = f->fi[GFXSTAT_FI_ANIMATION_START] > f->fi[GFXSTAT_FI_HANDLE_INPUT_START];
		if (f->present_ns == GFXSTAT_NS_NONE)
			return push_untimed(m, s, &x);
		return push(m, s, f->present_ns, f->vsync_period_ns, render, input, &x);
	}
}

/* The stores of @m's layers' frames in present order, ties in the order of @mem (the app's
 * layers, in layer order), each layer's own in its order. */
struct merge {
	struct frec *head; /* each layer's next frame */
	size_t *heap, nh;
};

static int merge_before(void *ctx, size_t a, size_t b)
{
	const struct merge *g = ctx;

	return g->head[a].present < g->head[b].present ||
	       (g->head[a].present == g->head[b].present && a < b);
}

static void merge_sift(struct merge *g, size_t i)
{
	gx_heap_sift(g->heap, g->nh, i, merge_before, g);
}

/* Layer @i's next frame into the merge's head. Return: 1, 0 at its end, or an error. */
static int merge_next(struct gfxstat_metrics *m, struct merge *g, const size_t *mem, size_t i)
{
	struct gx_xsort *x = &m->s[mem[i]].frames;
	const struct frec *f = gx_xsort_next(x);

	if (f) {
		g->head[i] = *f;
		return 1;
	}
	return x->failed ? x->failed : 0;
}

/* the larger of two optional times */
static int64_t later(int64_t a, int64_t b)
{
	return a == GFXSTAT_NS_NONE || (b != GFXSTAT_NS_NONE && b > a) ? b : a;
}

/*
 * An app's frames: the union of its layers' (@mem, @k of them) by present, the frames of
 * several layers in one vsync one: input if any of them had it, janky if any was, as late
 * (overrun, own lateness, render time) and as long (duration, length) as the latest and
 * longest of them, started when the earliest did, at the first period given. Its untimed
 * frames: theirs, layer by layer.
 */
static int merge_app(struct gfxstat_metrics *m, struct stream *a, const size_t *mem, size_t k)
{
	struct merge g;
	struct frec out;
	size_t i;
	int have = 0, rc = 0;

	g.head = malloc((k ? k : 1) * sizeof(*g.head));
	g.heap = malloc((k ? k : 1) * sizeof(*g.heap));
	g.nh = 0;
	if (!g.head || !g.heap)
		rc = GFXSTAT_E_NOMEM;
	for (i = 0; i < k && !rc; i++) {
		rc = gx_xsort_rewind(&m->s[mem[i]].frames);
		if (!rc)
			rc = merge_next(m, &g, mem, i);
		if (rc == 1) {
			g.heap[g.nh++] = i;
			rc = 0;
		}
	}
	for (i = g.nh / 2; i-- > 0 && !rc;)
		merge_sift(&g, i);
	while (g.nh && !rc) {
		size_t l = g.heap[0];
		const struct frec *f = &g.head[l];

		if (have && f->present == out.present) {
			if (f->input > out.input)
				out.input = f->input;
			if (f->x.verdict > out.x.verdict)
				out.x.verdict = f->x.verdict;
			if (out.period == GFXSTAT_NS_NONE)
				out.period = f->period;
			out.render = later(out.render, f->render);
			out.x.overrun = later(out.x.overrun, f->x.overrun);
			out.x.own_late = later(out.x.own_late, f->x.own_late);
			out.x.dur = later(out.x.dur, f->x.dur);
			out.x.len = later(out.x.len, f->x.len);
			if (f->x.start != GFXSTAT_NS_NONE &&
			    (out.x.start == GFXSTAT_NS_NONE || f->x.start < out.x.start))
				out.x.start = f->x.start;
		} else {
			if (have)
				rc = push(m, a, out.present, out.period, out.render, out.input, &out.x);
			out = *f;
			have = 1;
		}
		if (rc)
			break;
		rc = merge_next(m, &g, mem, l);
		if (rc == 1)
			rc = 0;
		else if (!rc)
			g.heap[0] = g.heap[--g.nh];
		merge_sift(&g, 0);
	}
	if (have && !rc)
		rc = push(m, a, out.present, out.period, out.render, out.input, &out.x);
	for (i = 0; i < k && !rc; i++) {
		struct gx_xsort *u = &m->s[mem[i]].untimed;
		const struct fx *x;

		rc = gx_xsort_rewind(u);
		while (!rc && (x = gx_xsort_next(u)))
			rc = push_untimed(m, a, x);
		if (!rc && u->failed)
			rc = u->failed;
	}
	if (!rc)
		rc = gx_xsort_sorted(&a->frames);
	if (!rc)
		rc = gx_xsort_sorted(&a->untimed);
	free(g.head);
	free(g.heap);
	return rc;
}

/*
 * An app's stream: the union of its layers' presents (a vsync counts once). Apps are found
 * through a map, in the order of their first layer; each app's layers are merged at once:
 * linear in layers, apps and frames.
 */
static int build_apps(struct gfxstat_metrics *m)
{
	size_t nlayers = m->ns, first = m->ns, i, k;
	size_t *of = malloc((nlayers ? nlayers : 1) * sizeof(*of)); /* each layer's app stream */
	struct gx_strmap apps;
	int rc = 0;

	if (!of || gx_strmap_init(&apps, MAX_STREAMS)) {
		free(of);
		return GFXSTAT_E_NOMEM;
	}
	for (i = 0; i < nlayers && !rc; i++) {
		const char *name = m->s[i].app;
		struct stream *a;
		int created;
		long ai;

		of[i] = SIZE_MAX;
		if (!name || !name[0])
			continue;
		ai = gx_strmap_add(&apps, name, strlen(name), &created);
		if (ai < 0) {
			rc = (int)ai;
			break;
		}
		of[i] = first + (size_t)ai;
		if (!created)
			continue;
		a = new_stream(m);
		if (!a) {
			rc = GFXSTAT_E_NOMEM;
			break;
		}
		a->is_app = 1;
		a->source = m->s[i].source;
		{
			struct gfxstat_str app = { name, strlen(name) };

			a->name = dup_str(app);
			a->app = dup_str(app);
		}
		if (!a->name || !a->app)
			rc = GFXSTAT_E_NOMEM;
	}
	/* each app's layers, in layer order, so that an app is merged, and a reader lists
	 * them, without scanning every layer per app */
	m->members = rc ? NULL : malloc((nlayers ? nlayers : 1) * sizeof(*m->members));
	if (!rc && !m->members)
		rc = GFXSTAT_E_NOMEM;
	for (i = 0; i < nlayers && !rc; i++)
		if (of[i] != SIZE_MAX)
			m->s[of[i]].mn++;
	for (i = first, k = 0; i < m->ns && !rc; i++) {
		m->s[i].mbeg = k;
		k += m->s[i].mn;
		m->s[i].mn = 0;
	}
	for (i = 0; i < nlayers && !rc; i++)
		if (of[i] != SIZE_MAX) {
			struct stream *a = &m->s[of[i]];

			m->members[a->mbeg + a->mn++] = i;
		}
	for (i = first; i < m->ns && !rc; i++) {
		struct stream *a = &m->s[i];
		const size_t *mem = m->members + a->mbeg;

		/* an app of one layer whose presents strictly increase is that layer, frame
		 * for frame (the merge would copy it unchanged): it reads the layer's stores */
		if (a->mn == 1 && !m->s[mem[0]].dup) {
			a->src = mem[0];
			a->n = m->s[mem[0]].n;
			a->nu = m->s[mem[0]].nu;
			rc = gx_xsort_sorted(&a->frames);
			if (!rc)
				rc = gx_xsort_sorted(&a->untimed);
		} else {
			rc = merge_app(m, a, mem, a->mn);
		}
		for (k = 0; k < a->mn && !rc; k++) {
			const struct stream *l = &m->s[mem[k]];
			size_t b;

			a->m.source_judged += l->m.source_judged;
			a->m.source_janky += l->m.source_janky;
			for (b = 0; b < GFXSTAT_FT_JANK_BITS; b++)
				a->m.ft_jank[b] += l->m.ft_jank[b];
			for (b = 0; b < 6; b++)
				a->m.ft_present[b] += l->m.ft_present[b];
			for (b = 0; b < GFXSTAT_GFXINFO_REASONS; b++)
				a->m.gfxinfo_reasons[b] += l->m.gfxinfo_reasons[b];
		}
	}
	gx_strmap_free(&apps);
	free(of);
	return rc;
}

int gfxstat_metrics_own_summary(struct gfxstat_metrics *m, const char *name, int is_app,
				int64_t total, int64_t janky)
{
	int k = !!is_app, created;
	long i = gx_strmap_add(&m->own_names[k], name, strlen(name), &created);

	if (i == GFXSTAT_E_LIMIT)
		return 0; /* more summaries than layers a run keeps: they would match none */
	if (i < 0)
		return (int)i;
	if (gx_grow((void **)&m->own[k], &m->capown[k], (size_t)i, sizeof(*m->own[k]), 16))
		return GFXSTAT_E_NOMEM;
	m->own[k][i].total = total;
	m->own[k][i].janky = janky;
	return 0;
}

int gfxstat_metrics_finish(struct gfxstat_metrics *m)
{
	size_t i;
	int rc;

	if (m->finished)
		return m->finish_rc;
	m->finished = 1;
	m->windows_left = WINDOWS_BUDGET;
	rc = 0;
	for (i = 0; i < m->ns && !rc; i++) {
		rc = gx_xsort_sorted(&m->s[i].frames);
		if (!rc)
			rc = gx_xsort_sorted(&m->s[i].untimed);
	}
	if (!rc)
		rc = build_apps(m);
	for (i = 0; i < m->ns && !rc; i++)
		rc = gx_metrics_compute(&m->o, &m->s[i], &m->s[m->s[i].src], &m->file,
					&m->windows_left);
	m->finish_rc = rc;
	if (rc) /* the layers after the failure were never computed */
		return rc;
	/* the source's own summaries, by name: a window's for its layer, a process's for its app */
	for (i = 0; i < m->ns; i++) {
		int kind = !!m->s[i].is_app;
		long o = gx_strmap_find(&m->own_names[kind], m->s[i].name, strlen(m->s[i].name));

		m->s[i].m.own_total = m->s[i].m.own_janky = -1;
		if (o >= 0) {
			m->s[i].m.own_total = m->own[kind][o].total;
			m->s[i].m.own_janky = m->own[kind][o].janky;
		}
	}
	return rc;
}

uint64_t gfxstat_metrics_dropped(const struct gfxstat_metrics *m, uint64_t *frames)
{
	if (frames)
		*frames = m->dropped_frames;
	return m->dropped.n;
}

size_t gfxstat_metrics_count(const struct gfxstat_metrics *m)
{
	return m->finished && !m->finish_rc ? m->ns : 0;
}

const struct gfxstat_layer_metrics *gfxstat_metrics_get(const struct gfxstat_metrics *m,
							 size_t i)
{
	return i < gfxstat_metrics_count(m) ? &m->s[i].m : NULL;
}

size_t gfxstat_metrics_app_layers(const struct gfxstat_metrics *m,
				  const struct gfxstat_layer_metrics *app, const size_t **idx)
{
	const struct stream *s;
	size_t i;

	*idx = NULL;
	if (!app || !m->members)
		return 0;
	/* the stream that holds @app (its m member), found by address: O(1) */
	s = (const struct stream *)(const void *)((const char *)app - offsetof(struct stream, m));
	if (s < m->s || s >= m->s + gfxstat_metrics_count(m))
		return 0;
	i = (size_t)(s - m->s);
	if (!m->s[i].is_app)
		return 0;
	*idx = m->members + m->s[i].mbeg;
	return m->s[i].mn;
}

static int cmp_janky_ref(const void *a, const void *b)
{
	const struct gfxstat_janky_ref *x = a, *y = b;
	int64_t p = x->frame->present_ns, q = y->frame->present_ns;

	if ((p == GFXSTAT_NS_NONE) != (q == GFXSTAT_NS_NONE))
		return p == GFXSTAT_NS_NONE ? 1 : -1;
	if (p != q)
		return p < q ? -1 : 1;
	if (x->layer != y->layer)
		return strcmp(x->layer->name, y->layer->name);
	return (x->frame->index > y->frame->index) - (x->frame->index < y->frame->index);
}

size_t gfxstat_metrics_janky_all(const struct gfxstat_metrics *m,
				 struct gfxstat_janky_ref **out)
{
	size_t n = gfxstat_metrics_count(m), k, i, total = 0, w = 0;
	struct gfxstat_janky_ref *r;

	*out = NULL;
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);

		if (!l->is_app)
			total += l->njanky_list;
	}
	if (!total)
		return 0;
	r = malloc(total * sizeof(*r));
	if (!r)
		return (size_t)-1;
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);

		for (i = 0; !l->is_app && i < l->njanky_list; i++) {
			r[w].layer = l;
			r[w++].frame = &l->janky_list[i];
		}
	}
	qsort(r, total, sizeof(*r), cmp_janky_ref);
	*out = r;
	return total;
}
