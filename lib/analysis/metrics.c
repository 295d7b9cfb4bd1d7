/* SPDX-License-Identifier: MIT */
/*
 * Every anchor tool's metric, each by that tool's own definition (METRICS.md, docs/metrics.md),
 * computed from one stream of presents per layer, and per app from the union of its layers'
 * presents. Frame time = the interval between consecutive presents of the stream.
 */
#include <math.h>
#include <stdlib.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_gfxinfo.h"

/* layers a recording may hold: as many as SurfaceFlinger's frame producer keeps apart (a
 * phone shows some hundreds; a trace of hours of app switches, thousands) */
#define MAX_STREAMS 65536
/* names of the layers past that, counted each once (their frames are counted whatever) */
#define MAX_DROPPED_NAMES (1 << 24)
#define MAX_FRAMES_PER_STREAM (64u << 20)
#define PERFDOG_JANK_NS 83333333LL   /* two film frames: 2 * 1000 / 24 ms */
#define PERFDOG_BIG_NS 125000000LL   /* three film frames */
#define JANK_WINDOW_CAP 4096
#define CADENCE_WINDOW 61             /* counted intervals the cadence is taken over */
#define CADENCE_MAX_NS (50 * GFXSTAT_NSEC_PER_MSEC) /* slowest cadence: 20 FPS */
#define CADENCE_MAX_VSYNCS 64
#define RATE_MIN_S 60.0               /* per-10-minute rates need a minute of frames */
/* The per-window FPS series of a layer stops after WINDOWS_MAX windows (36 hours of 1 s
 * windows), and the series of all layers together after WINDOWS_BUDGET: one frame far from
 * the others (a damaged time, 20 years on) must not make a series of billions of empty
 * windows; gfxstat analyze ran out of memory on 200 bytes. */
#define WINDOWS_MAX ((size_t)1 << 17)
#define WINDOWS_BUDGET ((size_t)1 << 22)
/* the shortest refresh period an estimate may give: 144 Hz is 6.944 ms, 6.9 leaves room for
 * present jitter; anything shorter is not a display's period (app-side work, back-to-back) */
#define PERIOD_MIN_NS 6900000LL

/* What a frame says about itself, besides its present. */
struct fx {
	int64_t overrun; /* its end - its own deadline (Macrobenchmark frameOverrun), or NONE */
	int64_t dur;     /* its own work (duration_ns), or NONE */
	int64_t start;   /* SurfaceFlinger-marker frames: when the app began it, or NONE */
	int64_t own_late; /* its end - its deadline by the source's own account, or NONE */
	int64_t len;     /* its own length as a janky frame shows it (frame_len()), or NONE */
	signed char verdict; /* the source's own janky verdict: 1, 0, or -1 none */
};

/*
 * A per-frame column of optional times (each GFXSTAT_NS_NONE or a value), held as narrow as
 * its values allow: no array while every value is NONE, 4 bytes a value while each fits an
 * int32 (NONE as INT32_MIN), else 8. A trace's frames have no render time, no overrun and
 * no duration of their own, and periods and app starts (as present - start) of a few ms: a
 * frame takes 18 bytes of the stream, not 65 (exact percentiles still need every frame).
 */
struct col {
	/* 0: every value NONE; 1: every value @k (no array: a layer's refresh period is one
	 * value for hours, 4 bytes a frame saved); 4 or 8: @v holds them */
	unsigned width;
	void *v;
	int64_t k;
};

#define COL_NONE32 INT32_MIN

struct stream {
	char *name, *app;
	int is_app;
	enum gfxstat_frame_source source;
	int64_t *present;                   /* per frame */
	struct col period, render;          /* per frame; NONE when unknown */
	signed char *input;                 /* per frame: input handled 1/0, unknown -1 */
	/* per frame, its struct fx (fx_at()): start as present - start (start_abs: as is) */
	struct col overrun, dur, start, own_late, len;
	signed char *verdict;
	int start_abs;
	size_t n, cap;
	struct fx *ux;                      /* frames with no present (gfxinfo legacy table) */
	size_t nu, capu;
	struct gfxstat_janky_frame *jl;
	struct gfxstat_scroll *scrolls;
	size_t mbeg, mn; /* an app's layers: members[mbeg .. mbeg + mn) */
	int borrowed;    /* an app of one layer: its per-frame arrays are that layer's */
	struct gfxstat_layer_metrics m;
	double *window_fps;
	struct gfxstat_jank_window *jw;
	size_t jwcap; /* room in jw: a window takes at least one interval, so <= intervals */
	int64_t last;
};

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

static void stream_free(struct stream *s)
{
	free(s->name);
	free(s->app);
	if (!s->borrowed) {
		free(s->present);
		free(s->period.v);
		free(s->render.v);
		free(s->input);
		free(s->overrun.v);
		free(s->dur.v);
		free(s->start.v);
		free(s->own_late.v);
		free(s->len.v);
		free(s->verdict);
		free(s->ux);
	}
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
	s = &m->s[m->ns++];
	memset(s, 0, sizeof(*s));
	return s;
}

static int64_t col_get(const struct col *c, size_t i)
{
	if (c->width == 4) {
		int32_t x = ((const int32_t *)c->v)[i];

		return x == COL_NONE32 ? GFXSTAT_NS_NONE : x;
	}
	if (c->width == 8)
		return ((const int64_t *)c->v)[i];
	return c->width == 1 ? c->k : GFXSTAT_NS_NONE;
}

/* Room in @c for @cap values. */
static int col_reserve(struct col *c, size_t cap)
{
	void *p;

	if (c->width < 4)
		return 0;
	p = realloc(c->v, cap * c->width);
	if (!p)
		return GFXSTAT_E_NOMEM;
	c->v = p;
	return 0;
}

/* Value @i of @c (values 0 .. @i - 1 held, room for @cap) set to @v: the column widened
 * when @v needs it. */
static int col_set(struct col *c, size_t i, size_t cap, int64_t v)
{
	int fits = v == GFXSTAT_NS_NONE || (v > INT32_MIN && v <= INT32_MAX);
	size_t k;

	if (!c->width && v == GFXSTAT_NS_NONE)
		return 0;
	if (c->width == 1 && v == c->k)
		return 0;
	if (!c->width && !i) {
		c->width = 1;
		c->k = v;
		return 0;
	}
	if (c->width == 1) {
		/* the first value that differs: values 0 .. @i - 1 were @k */
		int kfits = c->k > INT32_MIN && c->k <= INT32_MAX;

		if (fits && kfits) {
			int32_t *p = malloc(cap * sizeof(*p));

			if (!p)
				return GFXSTAT_E_NOMEM;
			for (k = 0; k < i; k++)
				p[k] = (int32_t)c->k;
			c->v = p;
			c->width = 4;
		} else {
			int64_t *p = malloc(cap * sizeof(*p));

			if (!p)
				return GFXSTAT_E_NOMEM;
			for (k = 0; k < i; k++)
				p[k] = c->k;
			c->v = p;
			c->width = 8;
		}
	}
	if (!c->width) {
		int32_t *p = malloc(cap * sizeof(*p));

		if (!p)
			return GFXSTAT_E_NOMEM;
		for (k = 0; k < i; k++)
			p[k] = COL_NONE32;
		c->v = p;
		c->width = 4;
	}
	if (c->width == 4 && !fits) {
		int64_t *p = malloc(cap * sizeof(*p));

		if (!p)
			return GFXSTAT_E_NOMEM;
		for (k = 0; k < i; k++)
			p[k] = col_get(c, k);
		free(c->v);
		c->v = p;
		c->width = 8;
	}
	if (c->width == 8)
		((int64_t *)c->v)[i] = v;
	else
		((int32_t *)c->v)[i] = v == GFXSTAT_NS_NONE ? COL_NONE32 : (int32_t)v;
	return 0;
}

/* The start of frame @i of @s (struct fx's), or NONE. */
static int64_t fx_start(const struct stream *s, size_t i)
{
	int64_t r = col_get(&s->start, i);

	return r == GFXSTAT_NS_NONE || s->start_abs ? r : s->present[i] - r;
}

/* What frame @i of @s says about itself. */
static struct fx fx_at(const struct stream *s, size_t i)
{
	struct fx x;

	x.overrun = col_get(&s->overrun, i);
	x.dur = col_get(&s->dur, i);
	x.start = fx_start(s, i);
	x.own_late = col_get(&s->own_late, i);
	x.len = col_get(&s->len, i);
	x.verdict = s->verdict[i];
	return x;
}

/* Frame @i of @s (frames before it held, room for @cap) says @x; its present is held. */
static int fx_set(struct stream *s, size_t i, size_t cap, const struct fx *x)
{
	int64_t st = x->start;

	/* present - start, where the start is before the present (as metrics takes it) and
	 * the difference an int64; else (never for times >= 0) every start as is */
	if (st != GFXSTAT_NS_NONE && !s->start_abs &&
	    (st >= s->present[i] || st < 0 || s->present[i] < 0)) {
		int64_t *abs = malloc(cap * sizeof(*abs));
		size_t k;

		if (!abs)
			return GFXSTAT_E_NOMEM;
		for (k = 0; k < i; k++)
			abs[k] = fx_start(s, k);
		free(s->start.v);
		s->start.v = abs;
		s->start.width = 8;
		s->start_abs = 1;
	}
	if (st != GFXSTAT_NS_NONE && !s->start_abs)
		st = s->present[i] - st;
	s->verdict[i] = x->verdict;
	return col_set(&s->overrun, i, cap, x->overrun) || col_set(&s->dur, i, cap, x->dur) ||
			       col_set(&s->start, i, cap, st) ||
			       col_set(&s->own_late, i, cap, x->own_late) ||
			       col_set(&s->len, i, cap, x->len)
		       ? GFXSTAT_E_NOMEM : 0;
}

static int push_untimed(struct stream *s, const struct fx *x)
{
	if (s->nu == s->capu) {
		size_t nc = s->capu ? s->capu * 2 : 64;
		struct fx *u;

		if (nc > MAX_FRAMES_PER_STREAM)
			return GFXSTAT_E_LIMIT;
		u = realloc(s->ux, nc * sizeof(*u));
		if (!u)
			return GFXSTAT_E_NOMEM;
		s->ux = u;
		s->capu = nc;
	}
	s->ux[s->nu++] = *x;
	return 0;
}

static int push(struct stream *s, int64_t present, int64_t period, int64_t render, int input,
		const struct fx *x)
{
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 8; /* a run may hold 65536 layers */
		int64_t *a;
		signed char *d, *e;

		if (nc > MAX_FRAMES_PER_STREAM)
			return GFXSTAT_E_LIMIT;
		d = realloc(s->input, nc);
		if (!d)
			return GFXSTAT_E_NOMEM;
		s->input = d;
		e = realloc(s->verdict, nc);
		if (!e)
			return GFXSTAT_E_NOMEM;
		s->verdict = e;
		a = realloc(s->present, nc * sizeof(*a));
		if (!a)
			return GFXSTAT_E_NOMEM;
		s->present = a;
		if (col_reserve(&s->period, nc) || col_reserve(&s->render, nc) ||
		    col_reserve(&s->overrun, nc) || col_reserve(&s->dur, nc) ||
		    col_reserve(&s->start, nc) || col_reserve(&s->own_late, nc) ||
		    col_reserve(&s->len, nc))
			return GFXSTAT_E_NOMEM;
		s->cap = nc;
	}
	s->present[s->n] = present;
	s->input[s->n] = (signed char)input;
	if (col_set(&s->period, s->n, s->cap, period) || col_set(&s->render, s->n, s->cap, render) ||
	    fx_set(s, s->n, s->cap, x))
		return GFXSTAT_E_NOMEM;
	s->n++;
	return 0;
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

/* How much of @over (an interval's excess over its cadence or refresh period) the frame's own
 * latency explains: all of it without a start, else its latency excess, within [0, @over]. */
static int64_t own_excess(int64_t over, int64_t exc)
{
	if (exc == GFXSTAT_NS_NONE)
		return over;
	return exc < 0 ? 0 : exc < over ? exc : over;
}

/*
 * How late janky frame @x was: past its deadline by Android's own account (FrameTimeline;
 * gfxinfo framestats with FrameDeadline); else @step (its interval when counted, else its own
 * duration or overrun) beyond its cadence period @cad, of which a frame whose start the trace
 * shows counts only its latency beyond the layer's median, @exc (own_excess(), as the hitch
 * time: its start-to-present length holds the normal pipeline latency, which is no lateness);
 * else NONE (a janky frame is late by something: an unknown amount is said so, never 0). A
 * frame that ended before its deadline (FrameTimeline: janky for SurfaceFlinger's or the
 * display's reasons) is judged by @step.
 */
static int64_t janky_late(const struct fx *x, int64_t step, int64_t cad, int64_t exc)
{
	int64_t over;

	if (x->own_late != GFXSTAT_NS_NONE && x->own_late > 0)
		return x->own_late;
	if (step == GFXSTAT_NS_NONE || cad <= 0 || step <= cad)
		return GFXSTAT_NS_NONE;
	over = own_excess(step - cad, exc);
	return over > 0 ? over : GFXSTAT_NS_NONE;
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
			return push_untimed(s, &x);
		return push(s, f->present_ns, f->vsync_period_ns, render, input, &x);
	}
}

/* ------------------------------------------------------------------------------------ */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* nearest rank: the smallest value with at least p% of the values at or below it */
static int64_t rank(const int64_t *sorted, size_t n, int p)
{
	size_t k = (size_t)((n * (size_t)p + 99) / 100);

	return sorted[k ? k - 1 : 0];
}

/*
 * The stream's refresh period: the most common per-frame period, else from its intervals
 * (not for app-side frames: Choreographer/DrawFrame starts are not presents, and can follow
 * each other faster than a vsync), else @dflt, with *@assumed set.
 */
static int64_t stream_period(const struct stream *s, const int64_t *iv_sorted, size_t niv,
			     int64_t dflt, int *assumed)
{
	int64_t best = 0, cur = 0;
	size_t i, run = 0, best_run = 0, k = 0;
	int64_t *p = malloc((s->n ? s->n : 1) * sizeof(*p));

	if (p) {
		for (i = 0; i < s->n; i++)
			if (col_get(&s->period, i) != GFXSTAT_NS_NONE && col_get(&s->period, i) > 0)
				p[k++] = col_get(&s->period, i);
		gx_sort_i64(p, k);
		for (i = 0; i < k; i++) {
			run = i && p[i] == cur ? run + 1 : 1;
			cur = p[i];
			if (run > best_run) {
				best_run = run;
				best = cur;
			}
		}
		free(p);
	}
	*assumed = 0;
	if (best)
		return best;
	*assumed = 1;
	if (s->source == GFXSTAT_SRC_APP)
		return dflt;
	/* intervals: the median of those near the 10th percentile of the ones under 100 ms
	 * (present jitter spreads single-vsync intervals around the period; skipped vsyncs
	 * make multiples of it, which this leaves out) */
	{
		size_t lo = 0, m = 0, a, b;
		int64_t base;

		while (lo < niv && iv_sorted[lo] <= 0)
			lo++;
		for (i = lo; i < niv && iv_sorted[i] < 100 * GFXSTAT_NSEC_PER_MSEC; i++)
			m++;
		if (m < 3)
			return dflt;
		base = iv_sorted[lo + m / 10];
		for (a = lo; a < lo + m && iv_sorted[a] < base / 2; a++)
			;
		for (b = a; b < lo + m && iv_sorted[b] <= base * 3 / 2; b++)
			;
		if (b == a || iv_sorted[a + (b - a) / 2] < PERIOD_MIN_NS)
			return dflt;
		*assumed = 0;
		return iv_sorted[a + (b - a) / 2];
	}
}

size_t gfxstat_jank_windows(const int64_t *iv, size_t n, int64_t period_ns,
			    struct gfxstat_jank_window *out, size_t cap)
{
	/* seed 001 at 60 Hz: start > 33.3 ms (2 vsyncs), run until >= 99.6 ms (6 x 16.6) and
	 * the next frame is < 17 ms, or the last frame; thresholds scale with the period */
	int64_t start_ns = 2 * period_ns, len_ns = period_ns * 5976 / 1000,
		next_ns = period_ns * 102 / 100;
	size_t i = 0, found = 0;
	int64_t t = 0;

	while (i < n) {
		size_t j;
		int64_t sum = 0, longest = 0, t0 = t;

		if (iv[i] <= start_ns) {
			t += iv[i++];
			continue;
		}
		for (j = i; j < n; j++) {
			sum += iv[j];
			if (iv[j] > longest)
				longest = iv[j];
			if (sum >= len_ns && (j + 1 == n || iv[j + 1] < next_ns))
				break;
		}
		if (j == n)
			j = n - 1;
		if (found < cap) {
			out[found].start_ns = t0;
			out[found].frames = (uint32_t)(j - i + 1);
			out[found].dur_ns = sum;
			out[found].longest_ns = longest;
			out[found].fps = sum ? (double)(j - i + 1) * 1e9 / (double)sum : 0;
		}
		found++;
		t = t0 + sum;
		i = j + 1;
	}
	return found;
}

/* PerfDog jank at interval @i (3 before it exist): over twice the mean of the previous
 * three and over two film frames */
static int perfdog_jank(const int64_t *iv, size_t i)
{
	return 3 * iv[i] > 2 * (iv[i - 1] + iv[i - 2] + iv[i - 3]) && iv[i] > PERFDOG_JANK_NS;
}

/* The refresh period at frame @j: its own, else the stream's @dflt. */
static int64_t frame_period(const struct stream *s, size_t j, int64_t dflt)
{
	int64_t p = col_get(&s->period, j);

	return p > 0 && p != GFXSTAT_NS_NONE ? p : dflt;
}

/* The refresh period at interval @i: the later frame's. */
static int64_t period_at(const struct stream *s, size_t i, int64_t dflt)
{
	return frame_period(s, i + 1, dflt);
}

/*
 * The FPS of app-side frames (GFXSTAT_SRC_APP), over whole vsync periods. Their times are the
 * ends of the app's DrawFrames, which jitter with the work: two frames drawn for consecutive
 * vsyncs may end 14 ms apart at 60 Hz, and frames over their summed intervals would be faster
 * than the display. Each frame was drawn for one vsync, so each interval counts as the whole
 * periods it spans (at least one), and the FPS can never exceed the refresh rate. The
 * present-based rates of SurfaceFlinger's frames are left as they are: their presents are on
 * vsyncs already.
 */
static void app_side_fps(const struct stream *s, const int64_t *iv, const unsigned char *use,
			 const unsigned char *counted, size_t niv, int64_t period, int scroll_only,
			 struct gfxstat_layer_metrics *m)
{
	int64_t active = 0, all = 0;
	size_t i, nc = 0;

	for (i = 0; i < niv; i++) {
		int64_t q = gx_whole_periods(iv[i], period_at(s, i, period));

		all += q;
		if (use[i] && counted[i]) {
			active += q;
			nc++;
		}
	}
	m->fps = active ? (double)nc * 1e9 / (double)active : 0;
	m->fps_wall = scroll_only ? m->fps : all ? (double)niv * 1e9 / (double)all : 0;
}

/*
 * Scrolls: a scroll starts at a frame whose app work handled input and takes the frames that
 * follow (the fling included) until a gap of settle_ns: the content has settled. Sets
 * use[i] for the intervals the metrics count: all of them, or with scroll_only the intervals
 * inside scrolls. Their hitch rate comes once the intervals are judged (scroll_hitch()).
 */
static int scrolls(const struct gfxstat_metrics_opts *o, struct stream *s, const int64_t *iv,
		   unsigned char *use)
{
	struct gfxstat_layer_metrics *m = &s->m;
	size_t n = s->n, j, start = 0, cap = 0, ns = 0;
	int on = 0;

	for (j = 0; j + 1 < n; j++)
		use[j] = !o->scroll_only;
	for (j = 0; j <= n; j++) {
		int end_here = on && (j == n || iv[j - 1] >= o->settle_ns);

		if (end_here) {
			size_t k, run = 0;
			struct gfxstat_scroll *sc;

			on = 0;
			if (j - 1 > start) { /* at least one interval */
				if (gx_grow((void **)&s->scrolls, &cap, ns, sizeof(*s->scrolls),
					    16))
					return GFXSTAT_E_NOMEM;
				sc = &s->scrolls[ns++];
				memset(sc, 0, sizeof(*sc));
				sc->start_ns = s->present[start];
				sc->end_ns = s->present[j - 1];
				sc->frames = (uint32_t)(j - start);
				for (k = start; k + 1 < j; k++) {
					if (o->scroll_only)
						use[k] = 1;
					if (iv[k] > sc->longest_ns)
						sc->longest_ns = iv[k];
					if (++run >= 4 && perfdog_jank(iv, k))
						sc->jank++;
				}
				{
					double dur = (double)(sc->end_ns - sc->start_ns) / 1e9;

					sc->fps = dur > 0 ? (double)(sc->frames - 1) / dur : 0;
				}
			}
		}
		if (j < n && !on && s->input[j] == 1) {
			on = 1;
			start = j;
		}
	}
	m->nscrolls = ns;
	m->scrolls = s->scrolls;
	return 0;
}

/*
 * A scroll's hitch rate is the layer's hitch_ms_per_s over the scroll's intervals: what each
 * counted interval lost (@hit: against the cadence, from the frame's start or its own
 * deadline where it has one) summed, per second of those intervals. One name, one
 * definition (docs/metrics.md): a scroll spanning every interval has the layer's rate. Then
 * whether it gets worse the further you scroll: the slope of the rate over the scrolls.
 */
static void scroll_hitch(struct stream *s, const int64_t *iv, const unsigned char *counted,
			 const int64_t *hit)
{
	struct gfxstat_layer_metrics *m = &s->m;
	size_t j, k = 0, ns = m->nscrolls;

	for (j = 0; j < ns; j++) {
		struct gfxstat_scroll *sc = &s->scrolls[j];
		int64_t h = 0, act = 0;

		while (k + 1 < s->n && s->present[k] < sc->start_ns)
			k++;
		/* interval k runs from present k to present k + 1 */
		for (; k + 1 < s->n && s->present[k + 1] <= sc->end_ns; k++)
			if (counted[k]) {
				h += hit[k];
				act += iv[k];
			}
		sc->hitch_ms_per_s = act ? (double)h / 1e6 / ((double)act / 1e9) : 0;
	}
	if (ns >= 2) {
		double mx = (double)(ns - 1) / 2, my = 0, sxy = 0, sxx = 0;

		for (j = 0; j < ns; j++)
			my += s->scrolls[j].hitch_ms_per_s / (double)ns;
		for (j = 0; j < ns; j++) {
			sxy += ((double)j - mx) * (s->scrolls[j].hitch_ms_per_s - my);
			sxx += ((double)j - mx) * ((double)j - mx);
		}
		m->scroll_hitch_slope = sxy / sxx;
	}
}

/* vsyncs an interval spans at period @p, rounded, 1 to CADENCE_MAX_VSYNCS */
static uint32_t vsyncs_of(int64_t iv, int64_t p)
{
	int64_t v = (iv + p / 2) / p;

	return v < 1 ? 1 : v > CADENCE_MAX_VSYNCS ? CADENCE_MAX_VSYNCS : (uint32_t)v;
}

/*
 * The content's cadence at each counted interval, in refresh periods: the lower quartile of
 * the vsyncs the last CADENCE_WINDOW counted intervals span (the first ones look ahead to
 * fill the window). The lower quartile makes it asymmetric: a faster cadence takes over once
 * a quarter of the window shows it, a slower one only once three quarters do, so a 60 FPS
 * scroll that drops to 30 for a stretch stays judged at 60 while a game capped at 30 is judged
 * at 30. On top of that, the cadence in force changes only after the new value has held for
 * 8 counted intervals (hysteresis against flapping), and never goes slower than 20 FPS
 * (CADENCE_MAX_NS): a layer that only manages 10 FPS is slow, not "steady at 10".
 * @cad gets the cadence for every interval (1 for those not counted); returns the changes.
 */
static uint32_t cadence(const struct stream *s, const int64_t *iv, const unsigned char *counted,
			size_t niv, int64_t period, uint32_t *cad)
{
	size_t *idx = malloc((niv ? niv : 1) * sizeof(*idx));
	uint32_t *v = malloc((niv ? niv : 1) * sizeof(*v));
	size_t nc = 0, k, j, lo, hi;
	uint32_t cur = 0, cand = 0, held = 0, changes = 0;

	for (j = 0; j < niv; j++)
		cad[j] = 1;
	if (!idx || !v) {
		free(idx);
		free(v);
		return 0;
	}
	for (j = 0; j < niv; j++)
		if (counted[j]) {
			idx[nc] = j;
			v[nc++] = vsyncs_of(iv[j], period_at(s, j, period));
		}
	for (k = 0; k < nc; k++) {
		uint32_t hist[CADENCE_MAX_VSYNCS + 1] = { 0 }, lq = 1, c;
		size_t m, r, seen = 0;
		int64_t p = period_at(s, idx[k], period);
		int64_t cmax = CADENCE_MAX_NS / p;

		lo = k + 1 >= CADENCE_WINDOW ? k + 1 - CADENCE_WINDOW : 0;
		hi = lo + CADENCE_WINDOW < nc ? lo + CADENCE_WINDOW : nc;
		for (j = lo; j < hi; j++)
			hist[v[j]]++;
		m = hi - lo;
		r = (m + 3) / 4; /* nearest rank of the 25th percentile */
		for (c = 1; c <= CADENCE_MAX_VSYNCS; c++) {
			seen += hist[c];
			if (seen >= r) {
				lq = c;
				break;
			}
		}
		if (cmax < 1)
			cmax = 1;
		if ((int64_t)lq > cmax)
			lq = (uint32_t)cmax;
		if (!cur) {
			cur = lq;
		} else if (lq != cur) {
			held = lq == cand ? held + 1 : 1;
			cand = lq;
			if (held >= 8) {
				cur = lq;
				changes++;
				held = 0;
			}
		} else {
			held = 0;
		}
		cad[idx[k]] = cur;
	}
	free(idx);
	free(v);
	return changes;
}

/* androidx benchmark's percentile: linear between the two nearest ranks (androidx/androidx
 * benchmark/benchmark-common/src/main/java/androidx/benchmark/MetricResult.kt getPercentile) */
static double lerp_pct(const int64_t *sorted, size_t n, int pct)
{
	double ideal = (double)pct / 100.0 * (double)(n - 1);
	size_t a = (size_t)ideal, b = a + 1 < n ? a + 1 : a;

	return (double)sorted[a] + ((double)sorted[b] - (double)sorted[a]) * (ideal - (double)a);
}

static void macro_pcts(int64_t *v, size_t n, double *out)
{
	static const int pct[4] = { 50, 90, 95, 99 };
	size_t k;

	if (!n)
		return;
	gx_sort_i64(v, n);
	for (k = 0; k < 4; k++)
		out[k] = lerp_pct(v, n, pct[k]) / 1e6;
}

/* Macrobenchmark FrameTimingMetric: frameDurationCpuMs from the frames' own duration, and
 * frameOverrunMs from their deadline (see frame_overrun()), over timed and untimed frames */
static int macrobenchmark(struct stream *s)
{
	struct gfxstat_layer_metrics *m = &s->m;
	size_t tot = s->n + s->nu, i, nd = 0, no = 0;
	int64_t *d = malloc((tot ? tot : 1) * sizeof(*d));
	int64_t *ov = malloc((tot ? tot : 1) * sizeof(*ov));

	if (!d || !ov) {
		free(d);
		free(ov);
		return GFXSTAT_E_NOMEM;
	}
	for (i = 0; i < tot; i++) {
		struct fx xi = i < s->n ? fx_at(s, i) : s->ux[i - s->n];
		const struct fx *x = &xi;

		if (x->dur != GFXSTAT_NS_NONE && x->dur >= 0)
			d[nd++] = x->dur;
		if (x->overrun != GFXSTAT_NS_NONE)
			ov[no++] = x->overrun;
	}
	m->macro_cpu_n = nd;
	m->macro_overrun_n = no;
	macro_pcts(d, nd, m->macro_cpu_ms);
	macro_pcts(ov, no, m->macro_overrun_ms);
	free(d);
	free(ov);
	return 0;
}

/*
 * What the layer normally takes from a frame's start to its present (docs/metrics.md, "Idle is
 * not jank"): the median, nearest rank, of that latency over its frames that carry a start.
 * Return: 1 with @med set, 0 when under half of its frames carry one (then no frame is judged
 * from its start: a SurfaceView drawn by a GL thread borrows doFrames of its process's other
 * window now and then). @v: room for the stream's frames (compute()'s scratch).
 */
static int latency_median(const struct stream *s, int64_t *v, int64_t *med)
{
	size_t i, k = 0;

	for (i = 0; i < s->n; i++)
		if (fx_start(s, i) != GFXSTAT_NS_NONE)
			v[k++] = s->present[i] - fx_start(s, i);
	if (!k || 2 * k < s->n)
		return 0;
	gx_sort_i64(v, k);
	*med = rank(v, k, 50);
	return 1;
}

/* Taobao jank-FPS windows of one run of counted intervals, all judged at @p (a cadence
 * period), kept when under 5/6 of 1/@p; returns the new count kept in @s->jw */
static size_t taobao_run(struct stream *s, const int64_t *iv, size_t start, size_t end, int64_t p,
			 size_t kept)
{
	struct gfxstat_jank_window tmp[256];
	size_t found, w;
	double limit = 1e9 / (double)p * 5 / 6;

	found = gfxstat_jank_windows(iv + start, end - start, p, tmp, 256);
	for (w = 0; w < found && w < 256; w++) {
		if (tmp[w].fps >= limit || kept >= s->jwcap)
			continue;
		if (s->jw) {
			s->jw[kept] = tmp[w];
			s->jw[kept].start_ns += s->present[start];
		}
		kept++;
	}
	return kept;
}

/* Is frame @i of @s janky: the source's verdict where it gave one, else late (@late: each
 * interval's; @use: each interval inside a scroll, for --scroll-only)? */
static int janky_at(const struct gfxstat_metrics_opts *o, const struct stream *s, size_t i,
		    const unsigned char *use, const unsigned char *late)
{
	int in = !o->scroll_only || (i && use[i - 1]);
	int j = s->verdict[i] >= 0 ? s->verdict[i] : i && in && late[i - 1];

	return in && j;
}

/* Is untimed frame @x janky: its verdict, else an overrun past its deadline? */
static int untimed_janky(const struct fx *x)
{
	return x->verdict >= 0 ? x->verdict > 0 : x->overrun != GFXSTAT_NS_NONE && x->overrun > 0;
}

static int compute(const struct gfxstat_metrics_opts *o, struct stream *s, size_t *windows_left)
{
	struct gfxstat_layer_metrics *m = &s->m;
	size_t n = s->n, i, niv = n ? n - 1 : 0, nc = 0, k;
	int64_t *iv = malloc((niv ? niv : 1) * sizeof(*iv));
	/* one scratch of every interval and untimed frame (8 bytes each), in turn: the sorted
	 * intervals (the period), the latencies (their median), the counted frame times */
	int64_t *sorted = malloc((niv + s->nu + 1) * sizeof(*sorted)), *cnt = sorted;
	unsigned char *use = malloc(niv ? niv : 1), *counted = malloc(niv ? niv : 1);
	unsigned char *late = malloc(niv ? niv : 1);
	uint32_t *cad = malloc((niv ? niv : 1) * sizeof(*cad));
	int64_t *hit = malloc((niv ? niv : 1) * sizeof(*hit)); /* each interval's hitch time */
	int64_t active = 0, wait = 0, max_c = 0, hitch = 0, hitch_r = 0, period, jank_time = 0;
	int64_t lat_med = 0;
	double span;
	int rc = GFXSTAT_E_NOMEM, by_start;

	if (!iv || !sorted || !use || !counted || !late || !cad || !hit)
		goto out;
	m->name = s->name;
	m->app = s->app;
	m->is_app = s->is_app;
	m->source = s->source;
	m->frames = n + s->nu;
	m->untimed = s->nu;
	m->first_ns = n ? s->present[0] : 0;
	m->last_ns = n ? s->present[n - 1] : 0;
	span = (double)(m->last_ns - m->first_ns) / 1e9;
	m->duration_s = span;
	for (i = 0; i < niv; i++) {
		iv[i] = s->present[i + 1] - s->present[i];
		sorted[i] = iv[i];
	}
	gx_sort_i64(sorted, niv);
	period = stream_period(s, sorted, niv, o->default_period_ns, &m->period_assumed);
	m->period_ns = period;
	m->refresh_hz = 1e9 / (double)period;
	if (scrolls(o, s, iv, use))
		goto out;
	for (i = 0; i < niv; i++)
		counted[i] = use[i] && iv[i] < o->wait_ns;
	m->cadence_changes = cadence(s, iv, counted, niv, period, cad);
	by_start = latency_median(s, sorted, &lat_med);

	/* counted intervals vs idle waits (the seed's rule) */
	{
		uint64_t by_cad[CADENCE_MAX_VSYNCS + 1] = { 0 };
		uint32_t c, best = 1;

		for (i = 0; i < niv; i++) {
			int64_t p = period_at(s, i, period), pc = p * (int64_t)cad[i];
			int64_t ovr = col_get(&s->overrun, i + 1);
			/* a frame with its own start: how much longer than the layer's normal latency
			 * it took from that start to the display (NONE: judged by its interval) */
			int64_t exc = by_start && fx_start(s, i + 1) != GFXSTAT_NS_NONE
					      ? s->present[i + 1] - fx_start(s, i + 1) - lat_med
					      : GFXSTAT_NS_NONE;

			late[i] = 0;
			hit[i] = 0;
			if (!use[i])
				continue;
			if (!counted[i]) {
				m->waits++;
				wait += iv[i];
				continue;
			}
			by_cad[cad[i]]++;
			cnt[nc++] = iv[i];
			active += iv[i];
			if (iv[i] > max_c)
				max_c = iv[i];
			if (iv[i] >= 100 * GFXSTAT_NSEC_PER_MSEC)
				m->a++;
			else if (iv[i] >= 50 * GFXSTAT_NSEC_PER_MSEC)
				m->b++;
			else if (iv[i] >= 42 * GFXSTAT_NSEC_PER_MSEC)
				m->c++;
			/* refresh-based: missed at least one vsync (1.5 periods, robust to jitter), and
			 * a frame with a start lost more than half a period on its own way */
			if (2 * iv[i] > 3 * p && (exc == GFXSTAT_NS_NONE || 2 * exc > p)) {
				m->refresh.slow_frames++;
				m->refresh.d++;
			}
			if (iv[i] > p)
				hitch_r += own_excess(iv[i] - p, exc);
			/* against the frame's own deadline where the source gives one (Macrobenchmark:
			 * a positive overrun is a dropped frame), else against the cadence: it missed
			 * at least one vsync of the cadence, (c + 0.5) periods -- and, for a frame
			 * whose start the trace shows, its latency from that start exceeded the
			 * layer's median by over half a cadence period (an idle gap before an on-time
			 * frame is not jank; JankTracker and FrameTimeline measure from the frame's
			 * intended start too) */
			if (ovr != GFXSTAT_NS_NONE) {
				late[i] = ovr > 0;
				hit[i] = ovr > 0 ? ovr : 0;
			} else {
				late[i] = 2 * iv[i] > (2 * (int64_t)cad[i] + 1) * p &&
					  (exc == GFXSTAT_NS_NONE || 2 * exc > pc);
				hit[i] = iv[i] > pc ? own_excess(iv[i] - pc, exc) : 0;
			}
			hitch += hit[i];
			if (late[i]) {
				m->slow_frames++;
				m->d++;
			}
			{
				/* Matrix: dropped = (duration - interval) / interval, integer division;
				 * Matrix judges against the refresh period, not the content's cadence */
				int64_t dropped = iv[i] > p ? (iv[i] - p) / p : 0;
				int lvl = dropped >= 42 ? GFXSTAT_MATRIX_FROZEN
					  : dropped >= 24 ? GFXSTAT_MATRIX_HIGH
					  : dropped >= 9  ? GFXSTAT_MATRIX_MIDDLE
					  : dropped >= 3  ? GFXSTAT_MATRIX_NORMAL
							  : GFXSTAT_MATRIX_BEST;

				m->matrix_levels[lvl]++;
				m->matrix_dropped += (uint64_t)dropped;
			}
		}
		for (c = 1; c <= CADENCE_MAX_VSYNCS; c++)
			if (by_cad[c] > by_cad[best])
				best = c;
		m->cadence_vsyncs = best;
		m->cadence_fps = 1e9 / ((double)period * best);
	}
	m->intervals = nc;
	m->wait_s = (double)wait / 1e9;
	m->active_s = (double)active / 1e9;
	m->fps = active ? (double)nc * 1e9 / (double)active : 0;
	m->fps_wall = o->scroll_only ? m->fps : span > 0 ? (double)niv / span : 0;
	if (s->source == GFXSTAT_SRC_APP)
		app_side_fps(s, iv, use, counted, niv, period, o->scroll_only, m);
	m->matrix_dropped_per_frame = nc ? (double)m->matrix_dropped / (double)nc : 0;
	m->hitch_ms_per_s = active ? (double)hitch / 1e6 / ((double)active / 1e9) : 0;
	scroll_hitch(s, iv, counted, hit);
	m->refresh.hitch_ms_per_s = active ? (double)hitch_r / 1e6 / ((double)active / 1e9) : 0;

	/* percentiles of the counted frame times, nearest rank; a source with no presents
	 * (gfxinfo's legacy table) has only the frames' own durations */
	if (!nc && !n)
		for (k = 0; k < s->nu; k++)
			if (s->ux[k].dur != GFXSTAT_NS_NONE && s->ux[k].dur >= 0)
				cnt[nc++] = s->ux[k].dur;
	gx_sort_i64(cnt, nc);
	if (nc) {
		int64_t slow_sum = 0;
		size_t nslow = (nc + 99) / 100;

		m->frame_ms_p50 = (double)rank(cnt, nc, 50) / 1e6;
		m->frame_ms_p90 = (double)rank(cnt, nc, 90) / 1e6;
		m->frame_ms_p95 = (double)rank(cnt, nc, 95) / 1e6;
		m->frame_ms_p99 = (double)rank(cnt, nc, 99) / 1e6;
		m->frame_ms_max = (double)cnt[nc - 1] / 1e6;
		/* GameBench Low 1%: 1000 / mean of the slowest 1% of frame times */
		for (k = 0; k < nslow; k++)
			slow_sum += cnt[nc - 1 - k];
		m->fps_low_1pct = slow_sum > 0 ? 1e9 * (double)nslow / (double)slow_sum : 0;
	}

	/* the seed's score, with the FPS term capped at 1 */
	if (m->intervals) {
		double g = m->fps / o->target_fps, h, dn = (double)m->intervals;

		if (g > 1)
			g = 1;
		h = o->kpi_ms < (double)max_c / 1e6 ? o->kpi_ms / ((double)max_c / 1e6) : 1;
		m->score = g * 60 + h * 20 + (1 - (double)m->a / dn) * 10 +
			   (1 - (double)m->b / dn) * 7 + (1 - (double)m->c / dn) * 3;
		m->score = round(m->score * 100) / 100;
	}

	/* PerfDog: over every used interval in order, waits included (PerfDog has no idle
	 * rule); with --scroll-only the previous three are taken within the same scroll */
	{
		size_t run = 0;

		for (i = 0; i < niv; i++) {
			if (!use[i]) {
				run = 0;
				continue;
			}
			if (++run >= 4 && perfdog_jank(iv, i)) {
				m->jank++;
				jank_time += iv[i];
				if (iv[i] > PERFDOG_BIG_NS)
					m->big_jank++;
			}
		}
	}
	/* a count per 10 minutes from a few seconds of frames is noise, not a rate */
	m->rates_valid = span >= RATE_MIN_S;
	if (m->rates_valid) {
		m->jank_per_10min = (double)m->jank * 600.0 / span;
		m->big_jank_per_10min = (double)m->big_jank * 600.0 / span;
	}
	if (span > 0)
		m->stutter = (double)jank_time / 1e9 / span;

	/* Android frozen frames: render time when the source has it, else the interval */
	for (i = 0; i < n; i++) {
		int64_t d = col_get(&s->render, i) != GFXSTAT_NS_NONE ? col_get(&s->render, i)
			    : i ? iv[i - 1] : 0;

		if (o->scroll_only && (!i || !use[i - 1]))
			continue;
		m->frozen_frames += d >= o->frozen_ns;
	}
	for (k = 0; k < s->nu; k++)
		m->frozen_frames += s->ux[k].dur != GFXSTAT_NS_NONE && s->ux[k].dur >= o->frozen_ns;
	m->frozen_share = m->frames ? (double)m->frozen_frames / (double)m->frames : 0;

	/* per-window FPS (GameBench's per-second series): presents in each full window */
	if (n && span * 1e9 >= (double)o->window_ns) {
		size_t nw = (size_t)((m->last_ns - m->first_ns) / o->window_ns), w, j = 0, nz = 0;
		double *sorted_w;

		if (nw > WINDOWS_MAX)
			nw = WINDOWS_MAX;
		if (nw > *windows_left)
			nw = *windows_left;
		*windows_left -= nw;
		/* none left: no series, the median is the FPS (calloc(0) may give NULL) */
		s->window_fps = calloc(nw ? nw : 1, sizeof(double));
		sorted_w = malloc((nw ? nw : 1) * sizeof(double));
		if (!s->window_fps || !sorted_w) {
			free(sorted_w);
			goto out;
		}
		for (w = 0; w < nw; w++) {
			int64_t end = m->first_ns + (int64_t)(w + 1) * o->window_ns;
			size_t c = 0;

			while (j < n && s->present[j] < end) {
				/* --scroll-only: frames that end an interval inside a scroll */
				c += !o->scroll_only || (j && use[j - 1]);
				j++;
			}
			s->window_fps[w] = (double)c * 1e9 / (double)o->window_ns;
			if (c)
				sorted_w[nz++] = s->window_fps[w];
		}
		m->nwindows = (uint32_t)nw;
		m->window_fps = s->window_fps;
		qsort(sorted_w, nz, sizeof(double), cmp_dbl);
		m->fps_median = !nz ? m->fps
				: nz % 2 ? sorted_w[nz / 2]
					 : (sorted_w[nz / 2 - 1] + sorted_w[nz / 2]) / 2;
		free(sorted_w);
	} else {
		m->fps_median = m->fps;
	}

	/* Taobao jank-FPS windows, within runs of counted intervals (a wait ends a run) and of
	 * one cadence (the thresholds scale with the cadence period); the refresh-based count
	 * takes the runs whole at the refresh period */
	{
		size_t start = 0, end, kept = 0, kept_r = 0;

		/* sized by the intervals, not the cap: a run of thousands of layers of a few
		 * frames each must not take the cap's memory each */
		s->jwcap = niv < JANK_WINDOW_CAP ? niv : JANK_WINDOW_CAP;
		s->jw = malloc((s->jwcap ? s->jwcap : 1) * sizeof(*s->jw));
		if (!s->jw)
			goto out;
		for (end = 0; end <= niv; end++) {
			size_t a, b;

			if (end < niv && counted[end])
				continue;
			for (a = start; a < end; a = b) {
				for (b = a; b < end && cad[b] == cad[a]; b++)
					;
				kept = taobao_run(s, iv, a, b, period * (int64_t)cad[a], kept);
			}
			{
				struct gfxstat_jank_window *keep = s->jw;

				s->jw = NULL; /* count only */
				kept_r = taobao_run(s, iv, start, end, period, kept_r);
				s->jw = keep;
			}
			start = end + 1;
		}
		m->njank_windows = kept;
		m->jank_windows = s->jw;
		m->refresh.njank_windows = kept_r;
	}

	/* the one janky predicate (janky_at()); the list sized by the janky frames, counted
	 * first: not by every frame (56 bytes each, held to the output) */
	{
		size_t nj = 1;

		for (i = 0; i < n; i++)
			nj += janky_at(o, s, i, use, late);
		for (k = 0; k < s->nu && !o->scroll_only; k++)
			nj += untimed_janky(&s->ux[k]);
		s->jl = malloc(nj * sizeof(*s->jl));
	}
	if (!s->jl)
		goto out;
	for (i = 0; i < n; i++) {
		struct gfxstat_janky_frame *e;
		struct fx x;
		int64_t step;

		if (!janky_at(o, s, i, use, late))
			continue;
		x = fx_at(s, i);
		e = &s->jl[m->njanky_list++];
		e->present_ns = s->present[i];
		/* its step: its interval when counted; after an idle wait (or first) the
		 * interval is the gap, not the frame: its own duration, else how late it ended,
		 * else unknown */
		step = i && counted[i - 1] && iv[i - 1] > 0 ? iv[i - 1]
		       : x.dur != GFXSTAT_NS_NONE ? x.dur
		       : x.overrun != GFXSTAT_NS_NONE && x.overrun > 0 ? x.overrun
									: GFXSTAT_NS_NONE;
		/* its length: its own time where the source gives it (frame_len()), else its
		 * step. The interval would put another frame's time in it (8.3 ms for a frame
		 * that waited 41.6 ms for its vsync, then presented one refresh after its
		 * neighbour) */
		e->length_ns = x.len != GFXSTAT_NS_NONE ? x.len : step;
		/* the frame's own period: the first frame has no interval (and a one-frame
		 * stream no second frame to borrow one from) */
		e->cadence_ns = frame_period(s, i, period) * (int64_t)(i ? cad[i - 1] : 1);
		e->index = i;
		e->late_ns = janky_late(&x, step, e->cadence_ns,
					by_start && x.start != GFXSTAT_NS_NONE
						? s->present[i] - x.start - lat_med
						: GFXSTAT_NS_NONE);
	}
	for (k = 0; k < s->nu && !o->scroll_only; k++) {
		const struct fx *x = &s->ux[k];
		struct gfxstat_janky_frame *e;

		if (!untimed_janky(x))
			continue;
		e = &s->jl[m->njanky_list++];
		e->present_ns = GFXSTAT_NS_NONE;
		e->length_ns = x->len != GFXSTAT_NS_NONE ? x->len : x->dur;
		e->cadence_ns = period;
		e->index = n + k;
		e->late_ns = janky_late(x, x->dur, period, GFXSTAT_NS_NONE);
	}
	m->janky_frames = m->njanky_list;
	m->janky_list = s->jl;
	rc = 0;
out:
	free(iv);
	free(sorted);
	free(use);
	free(counted);
	free(late);
	free(cad);
	free(hit);
	/* after the scratch is given back: its arrays and macrobenchmark()'s (47 bytes an
	 * interval together) are not held at once */
	return rc ? rc : macrobenchmark(s);
}

/* Sort an app's frames by present, keeping each frame's period and render time with it; the
 * frames of several layers in one vsync are one. */
static int sort_app(struct stream *a)
{
	size_t k;
	size_t n = a->n, w = 0;
	size_t *ord = malloc((n ? n : 1) * sizeof(*ord));
	struct stream t; /* the sorted frames: its per-frame arrays */
	int rc = 0;

	memset(&t, 0, sizeof(t));
	t.cap = n ? n : 1;
	t.present = malloc(t.cap * sizeof(*t.present));
	t.input = malloc(t.cap);
	t.verdict = malloc(t.cap);
	if (!ord || !t.present || !t.input || !t.verdict) {
		rc = GFXSTAT_E_NOMEM;
		goto out;
	}
	for (k = 0; k < n; k++)
		ord[k] = k;
	{
		/* sort indexes by present: simple shell sort keeps it dependency-free */
		size_t gap, x, y;
		const int64_t *np = a->present;

		for (gap = n / 2; gap > 0; gap /= 2)
			for (x = gap; x < n; x++)
				for (y = x; y >= gap &&
					    np[ord[y - gap]] > np[ord[y]]; y -= gap) {
					size_t tmp = ord[y];

					ord[y] = ord[y - gap];
					ord[y - gap] = tmp;
				}
	}
	for (k = 0; k < n && !rc; k++) {
		int64_t p = a->present[ord[k]];
		struct fx x = fx_at(a, ord[k]);

		if (w && t.present[w - 1] == p) {
			struct fx y = fx_at(&t, w - 1);

			/* one vsync, several layers: input if any of them had it */
			if (a->input[ord[k]] > t.input[w - 1])
				t.input[w - 1] = a->input[ord[k]];
			/* and janky if any of them was */
			if (x.verdict > y.verdict)
				y.verdict = x.verdict;
			/* and took as long as the longest of them */
			if (x.len != GFXSTAT_NS_NONE && (y.len == GFXSTAT_NS_NONE || x.len > y.len))
				y.len = x.len;
			/* and started when the earliest of them did */
			if (x.start != GFXSTAT_NS_NONE &&
			    (y.start == GFXSTAT_NS_NONE || x.start < y.start))
				y.start = x.start;
			rc = fx_set(&t, w - 1, t.cap, &y);
			continue;
		}
		t.present[w] = p;
		t.input[w] = a->input[ord[k]];
		if (col_set(&t.period, w, t.cap, col_get(&a->period, ord[k])) ||
		    col_set(&t.render, w, t.cap, col_get(&a->render, ord[k])) ||
		    fx_set(&t, w, t.cap, &x))
			rc = GFXSTAT_E_NOMEM;
		w++;
	}
	if (!rc) {
		/* the app's arrays become the sorted ones (t's old ones are freed below) */
		struct stream old = *a;

		a->present = t.present;
		a->period = t.period;
		a->render = t.render;
		a->input = t.input;
		a->overrun = t.overrun;
		a->dur = t.dur;
		a->start = t.start;
		a->own_late = t.own_late;
		a->len = t.len;
		a->verdict = t.verdict;
		a->start_abs = t.start_abs;
		a->n = w;
		a->cap = t.cap;
		t = old;
	}
out:
	free(ord);
	free(t.present);
	free(t.period.v);
	free(t.render.v);
	free(t.input);
	free(t.overrun.v);
	free(t.dur.v);
	free(t.start.v);
	free(t.own_late.v);
	free(t.len.v);
	free(t.verdict);
	return rc;
}

/*
 * An app's stream: the union of its layers' presents (a vsync counts once). Apps are found
 * through a map, in the order of their first layer, and each layer's frames are added in
 * layer order: linear in layers and apps.
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
	/* an app of one layer whose presents strictly increase is that layer, frame for frame
	 * (sort_app would copy it unchanged): it shares the layer's arrays, which no one writes
	 * once the input has ended, instead of a second copy of every frame */
	for (i = 0; i < nlayers; i++)
		if (of[i] != SIZE_MAX)
			m->s[of[i]].mn++;
	for (i = 0; i < nlayers && !rc; i++) {
		struct stream *a, *l = &m->s[i];

		if (of[i] == SIZE_MAX)
			continue;
		a = &m->s[of[i]];
		if (a->mn == 1) {
			for (k = 1; k < l->n && l->present[k - 1] < l->present[k]; k++)
				;
			if (k >= l->n) {
				a->present = l->present;
				a->period = l->period;
				a->render = l->render;
				a->input = l->input;
				a->overrun = l->overrun;
				a->dur = l->dur;
				a->start = l->start;
				a->own_late = l->own_late;
				a->len = l->len;
				a->verdict = l->verdict;
				a->start_abs = l->start_abs;
				a->n = l->n;
				a->cap = l->n ? l->n : 1;
				a->ux = l->ux;
				a->nu = l->nu;
				a->capu = l->capu;
				a->borrowed = 1;
			}
		}
		for (k = 0; k < l->n && !rc && !a->borrowed; k++)
		{
			struct fx x = fx_at(l, k);

			rc = push(a, l->present[k], col_get(&l->period, k), col_get(&l->render, k),
				  l->input[k], &x);
		}
		for (k = 0; k < l->nu && !rc && !a->borrowed; k++)
			rc = push_untimed(a, &l->ux[k]);
		if (rc) {
			rc = GFXSTAT_E_NOMEM;
			break;
		}
		a->m.source_judged += l->m.source_judged;
		a->m.source_janky += l->m.source_janky;
		for (k = 0; k < GFXSTAT_FT_JANK_BITS; k++)
			a->m.ft_jank[k] += l->m.ft_jank[k];
		for (k = 0; k < 6; k++)
			a->m.ft_present[k] += l->m.ft_present[k];
		for (k = 0; k < GFXSTAT_GFXINFO_REASONS; k++)
			a->m.gfxinfo_reasons[k] += l->m.gfxinfo_reasons[k];
	}
	for (i = first; i < m->ns && !rc; i++) {
		if (!m->s[i].borrowed)
			rc = sort_app(&m->s[i]);
		m->s[i].mn = 0; /* counted again below, with the members */
	}
	/* each app's layers, so a reader lists them without scanning every layer per app */
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
	rc = build_apps(m);
	for (i = 0; i < m->ns && !rc; i++)
		rc = compute(&m->o, &m->s[i], &m->windows_left);
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
