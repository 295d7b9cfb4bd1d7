/* SPDX-License-Identifier: MIT */
/*
 * One stream's figures (gx_metrics_compute()), every anchor tool's by its own definition
 * (METRICS.md, docs/metrics.md), in passes over the stream's frames as its store gives them
 * back, in present order: memory does not grow with the frames. Whatever needs them sorted
 * (the most common period, the medians, the percentiles) takes them from an external sort
 * (gx_xsort); whatever looks around a frame (PerfDog's three before it, the cadence's window
 * of 61, Taobao's windows) keeps only that much. Frame time = the interval between
 * consecutive presents; interval k runs from frame k to frame k + 1.
 */
#include <math.h>
#include <stdlib.h>

#include "metrics_local.h"

#define PERFDOG_JANK_NS 83333333LL   /* two film frames: 2 * 1000 / 24 ms */
#define PERFDOG_BIG_NS 125000000LL   /* three film frames */
#define JANK_WINDOW_CAP 4096
#define TAOBAO_RUN_WINDOWS 256        /* windows of one run looked at */
#define CADENCE_WINDOW 61             /* counted intervals the cadence is taken over */
#define CADENCE_MAX_NS (50 * GFXSTAT_NSEC_PER_MSEC) /* slowest cadence: 20 FPS */
#define CADENCE_MAX_VSYNCS 64
#define RATE_MIN_S 60.0               /* per-10-minute rates need a minute of frames */
/* The per-window FPS series of a layer stops after WINDOWS_MAX windows (36 hours of 1 s
 * windows), and the series of all layers together after WINDOWS_BUDGET (metrics.c): one
 * frame far from the others (a damaged time, 20 years on) must not make a series of billions
 * of empty windows; gfxstat analyze ran out of memory on 200 bytes. */
#define WINDOWS_MAX ((size_t)1 << 17)
/* the shortest refresh period an estimate may give: 144 Hz is 6.944 ms, 6.9 leaves room for
 * present jitter; anything shorter is not a display's period (app-side work, back-to-back) */
#define PERIOD_MIN_NS 6900000LL
/* the sorts' runs kept in memory; past it, in the metrics' temporary file */
#define SORT_RUN ((size_t)256 << 10)

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ---- reading the stores and the sorts ------------------------------------------------ */

/* The stream's frames from the first again. */
static int frames_from_start(struct stream *src)
{
	return gx_xsort_rewind(&src->frames);
}

static int untimed_from_start(struct stream *src)
{
	return gx_xsort_rewind(&src->untimed);
}

/* a store's reading ended early: a failed read back (a full or failing disk) */
static int read_rc(const struct gx_xsort *x)
{
	return x->failed ? x->failed : 0;
}

static void sort_init(struct gx_xsort *x, struct gx_xfile *file)
{
	gx_xsort_init_shared(x, sizeof(int64_t), gx_cmp_i64, SORT_RUN, file);
}

/* The values of sorted @x at the @k (<= 8) indexes @at (each < its count) into @out. */
static int values_at(struct gx_xsort *x, const size_t *at, int64_t *out, size_t k)
{
	const int64_t *v;
	size_t i = 0, j, last = 0, got = 0;
	int rc = gx_xsort_sorted(x);

	for (j = 0; j < k; j++)
		if (at[j] > last)
			last = at[j];
	while (!rc && i <= last && (v = gx_xsort_next(x))) {
		for (j = 0; j < k; j++)
			if (at[j] == i) {
				out[j] = *v;
				got++;
			}
		i++;
	}
	return rc ? rc : got < k ? (x->failed ? x->failed : GFXSTAT_E_IO) : 0;
}

/* nearest rank: the index of the smallest value with at least p% of the @n values at or
 * below it */
static size_t rank_at(size_t n, int p)
{
	size_t k = (n * (size_t)p + 99) / 100;

	return k ? k - 1 : 0;
}

/* androidx benchmark's percentile: linear between the two nearest ranks (androidx/androidx
 * benchmark/benchmark-common/src/main/java/androidx/benchmark/MetricResult.kt getPercentile) */
static int macro_pcts(struct gx_xsort *x, double *out)
{
	static const int pct[4] = { 50, 90, 95, 99 };
	size_t n = (size_t)x->count, at[8], k;
	double ideal[4];
	int64_t v[8];
	int rc;

	if (!n)
		return 0;
	for (k = 0; k < 4; k++) {
		ideal[k] = (double)pct[k] / 100.0 * (double)(n - 1);
		at[2 * k] = (size_t)ideal[k];
		at[2 * k + 1] = at[2 * k] + 1 < n ? at[2 * k] + 1 : at[2 * k];
	}
	rc = values_at(x, at, v, 8);
	for (k = 0; k < 4 && !rc; k++)
		out[k] = ((double)v[2 * k] +
			  ((double)v[2 * k + 1] - (double)v[2 * k]) * (ideal[k] - (double)at[2 * k])) /
			 1e6;
	return rc;
}

/* ---- the refresh period ---------------------------------------------------------------- */

/* The most common of the sorted periods @per (the smallest of the most common), or 0. */
static int period_mode(struct gx_xsort *per, int64_t *best)
{
	const int64_t *v;
	int64_t cur = 0;
	size_t run = 0, best_run = 0, i = 0;
	int rc = gx_xsort_sorted(per);

	*best = 0;
	while (!rc && (v = gx_xsort_next(per))) {
		run = i++ && *v == cur ? run + 1 : 1;
		cur = *v;
		if (run > best_run) {
			best_run = run;
			*best = cur;
		}
	}
	return rc ? rc : read_rc(per);
}

/*
 * From the intervals, where no frame gives its period (not for app-side frames:
 * Choreographer/DrawFrame starts are not presents, and can follow each other faster than a
 * vsync): the median of those near the 10th percentile of the ones under 100 ms (present
 * jitter spreads single-vsync intervals around the period; skipped vsyncs make multiples of
 * it, which this leaves out). 0: none.
 */
static int period_of_intervals(struct stream *src, struct gx_xfile *file, int64_t *out)
{
	struct gx_xsort ivs;
	const struct frec *f;
	const int64_t *v;
	int64_t prev = 0, base = 0;
	size_t i = 0, lo = 0, m = 0, a = 0, b = 0, at;
	int rc = frames_from_start(src), pass;

	*out = 0;
	sort_init(&ivs, file);
	ivs.keep = 1;
	while (!rc && (f = gx_xsort_next(&src->frames))) {
		if (i++)
			rc = gx_xsort_put(&ivs, &(int64_t){ f->present - prev });
		prev = f->present;
	}
	if (!rc)
		rc = read_rc(&src->frames);
	if (!rc)
		rc = gx_xsort_sorted(&ivs);
	/* lo: the first above 0; m: those from there under 100 ms; then base, the one m / 10
	 * past lo; a: the first at or above base / 2; b: the first above 3 base / 2 */
	for (pass = 0; pass < 2 && !rc; pass++) {
		i = 0;
		while ((v = gx_xsort_next(&ivs))) {
			if (!pass) {
				lo += *v <= 0;
				m += *v > 0 && *v < 100 * GFXSTAT_NSEC_PER_MSEC;
			} else if (i >= lo && i < lo + m) {
				if (i == lo + m / 10)
					base = *v;
			}
			i++;
		}
		rc = read_rc(&ivs);
		if (!rc)
			rc = gx_xsort_rewind(&ivs);
		if (m < 3)
			break;
	}
	if (!rc && m >= 3) {
		/* the intervals in [lo, lo + m) are ascending: a and b by counting */
		i = 0;
		a = b = lo;
		while ((v = gx_xsort_next(&ivs))) {
			if (i >= lo && i < lo + m) {
				a += *v < base / 2;
				b += *v <= base * 3 / 2;
			}
			i++;
		}
		rc = read_rc(&ivs);
		/* a counts from lo those under base / 2 (a prefix); b those up to 3 base / 2 */
		if (!rc && b > a) {
			at = a + (b - a) / 2;
			rc = gx_xsort_rewind(&ivs);
			i = 0;
			while (!rc && (v = gx_xsort_next(&ivs))) {
				if (i++ == at) {
					*out = *v < PERIOD_MIN_NS ? 0 : *v;
					break;
				}
			}
		}
	}
	gx_xsort_free(&ivs);
	return rc;
}

/* ---- what looks around a frame ------------------------------------------------------- */

/* PerfDog jank at an interval @iv after three @prev (newest first): over twice their mean
 * and over two film frames */
static int perfdog_jank(int64_t iv, const int64_t *prev)
{
	return 3 * iv > 2 * (prev[0] + prev[1] + prev[2]) && iv > PERFDOG_JANK_NS;
}

static void push_prev(int64_t *prev, int64_t iv)
{
	prev[2] = prev[1];
	prev[1] = prev[0];
	prev[0] = iv;
}

/*
 * Scrolls: a scroll starts at a frame whose app work handled input and takes the frames that
 * follow (the fling included) until a gap of settle_ns: the content has settled. An interval
 * is inside one when a scroll is on and it is shorter than the gap. With scroll_only the
 * metrics count only those (use), else every interval. step(): interval with @iv ending at a
 * frame whose input is @input; return: is it inside a scroll.
 */
struct scroll_track {
	int on;
};

static int scroll_step(const struct gfxstat_metrics_opts *o, struct scroll_track *t,
		       int64_t iv, int input)
{
	int in = t->on && iv < o->settle_ns;

	if (t->on && iv >= o->settle_ns)
		t->on = 0;
	if (!t->on && input == 1)
		t->on = 1;
	return in;
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
 * fill the window: @first holds the first CADENCE_WINDOW). The lower quartile makes it
 * asymmetric: a faster cadence takes over once a quarter of the window shows it, a slower
 * one only once three quarters do, so a 60 FPS scroll that drops to 30 for a stretch stays
 * judged at 60 while a game capped at 30 is judged at 30. On top of that, the cadence in
 * force changes only after the new value has held for 8 counted intervals (hysteresis
 * against flapping), and never goes slower than 20 FPS (CADENCE_MAX_NS): a layer that only
 * manages 10 FPS is slow, not "steady at 10". Intervals not counted have cadence 1.
 */
struct cadence {
	uint32_t first[CADENCE_WINDOW], nfirst; /* the first counted intervals' vsyncs */
	uint32_t ring[CADENCE_WINDOW];          /* the last ones, at c % CADENCE_WINDOW */
	size_t c;                               /* counted intervals so far */
	uint32_t cur, cand, held, changes;
};

/* The next counted interval spans @v vsyncs at period @p: its cadence. */
static uint32_t cadence_next(struct cadence *cd, uint32_t v, int64_t p)
{
	uint32_t hist[CADENCE_MAX_VSYNCS + 1] = { 0 }, lq = 1, c;
	size_t m, r, seen = 0, j;
	int64_t cmax = CADENCE_MAX_NS / p;

	cd->ring[cd->c % CADENCE_WINDOW] = v;
	if (cd->c + 1 >= CADENCE_WINDOW) { /* the last CADENCE_WINDOW, this one included */
		for (j = 0; j < CADENCE_WINDOW; j++)
			hist[cd->ring[j]]++;
		m = CADENCE_WINDOW;
	} else { /* the first ones: the window from the start */
		for (j = 0; j < cd->nfirst; j++)
			hist[cd->first[j]]++;
		m = cd->nfirst;
	}
	cd->c++;
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
	if (!cd->cur) {
		cd->cur = lq;
	} else if (lq != cd->cur) {
		cd->held = lq == cd->cand ? cd->held + 1 : 1;
		cd->cand = lq;
		if (cd->held >= 8) {
			cd->cur = lq;
			cd->changes++;
			cd->held = 0;
		}
	} else {
		cd->held = 0;
	}
	return cd->cur;
}

/*
 * Taobao jank-FPS windows (gfxstat_jank_windows()) over a run of intervals fed one at a
 * time: a window starts at an interval over 2 periods and runs until it is 5.976 periods
 * long and the next interval is under 1.02 of one, or the run ends.
 */
struct taobao {
	int64_t start_ns, len_ns, next_ns, t, t0, sum, longest;
	uint32_t frames, found;
	int in;
};

static void taobao_begin(struct taobao *tb, int64_t period_ns)
{
	memset(tb, 0, sizeof(*tb));
	tb->start_ns = 2 * period_ns;
	tb->len_ns = period_ns * 5976 / 1000;
	tb->next_ns = period_ns * 102 / 100;
}

/* The window that ended: its (start_ns relative to the run) into @w; return 1 when one did. */
static int taobao_close(struct taobao *tb, struct gfxstat_jank_window *w)
{
	if (!tb->in)
		return 0;
	w->start_ns = tb->t0;
	w->frames = tb->frames;
	w->dur_ns = tb->sum;
	w->longest_ns = tb->longest;
	w->fps = tb->sum ? (double)tb->frames * 1e9 / (double)tb->sum : 0;
	tb->t = tb->t0 + tb->sum;
	tb->in = 0;
	tb->found++;
	return 1;
}

/* Feed interval @iv; return 1 with @w set when a window ended before it. */
static int taobao_feed(struct taobao *tb, int64_t iv, struct gfxstat_jank_window *w)
{
	int done = 0;

	if (tb->in && tb->sum >= tb->len_ns && iv < tb->next_ns)
		done = taobao_close(tb, w);
	if (tb->in) {
		tb->sum += iv;
		tb->frames++;
		if (iv > tb->longest)
			tb->longest = iv;
	} else if (iv <= tb->start_ns) {
		tb->t += iv;
	} else {
		tb->in = 1;
		tb->t0 = tb->t;
		tb->sum = tb->longest = iv;
		tb->frames = 1;
	}
	return done;
}

size_t gfxstat_jank_windows(const int64_t *iv, size_t n, int64_t period_ns,
			    struct gfxstat_jank_window *out, size_t cap)
{
	/* seed 001 at 60 Hz: start > 33.3 ms (2 vsyncs), run until >= 99.6 ms (6 x 16.6) and
	 * the next frame is < 17 ms, or the last frame; thresholds scale with the period */
	struct taobao tb;
	struct gfxstat_jank_window w;
	size_t i;

	taobao_begin(&tb, period_ns);
	for (i = 0; i <= n; i++) {
		int got = i < n ? taobao_feed(&tb, iv[i], &w) : taobao_close(&tb, &w);

		if (got && tb.found <= cap)
			out[tb.found - 1] = w;
	}
	return tb.found;
}

/* A window of a run at period @p kept when under 5/6 of 1/@p, the run's first
 * TAOBAO_RUN_WINDOWS only, at most @s->jwcap; @base: the run's first present. Return the
 * count kept. */
static size_t taobao_keep(struct stream *s, const struct gfxstat_jank_window *w, int64_t p,
			  int64_t base, uint32_t index, size_t kept, int store)
{
	double limit = 1e9 / (double)p * 5 / 6;

	if (index >= TAOBAO_RUN_WINDOWS || w->fps >= limit || kept >= s->jwcap)
		return kept;
	if (store) {
		s->jw[kept] = *w;
		s->jw[kept].start_ns += base;
	}
	return kept + 1;
}

/* Taobao's runs: counted intervals (a wait ends a run), each judged at its cadence's period
 * (sub-runs of one cadence), and whole at the refresh period (counted only). */
struct taobao_runs {
	struct taobao cad, ref;
	int on;
	uint32_t cad_of;   /* the sub-run's cadence */
	int64_t base, period;
	size_t kept, kept_r;
};

static void taobao_end_sub(struct stream *s, struct taobao_runs *r)
{
	struct gfxstat_jank_window w;
	int64_t p = r->period * (int64_t)r->cad_of;

	if (taobao_close(&r->cad, &w))
		r->kept = taobao_keep(s, &w, p, r->base, r->cad.found - 1, r->kept, 1);
}

static void taobao_end_run(struct stream *s, struct taobao_runs *r)
{
	struct gfxstat_jank_window w;

	if (!r->on)
		return;
	taobao_end_sub(s, r);
	if (taobao_close(&r->ref, &w))
		r->kept_r = taobao_keep(s, &w, r->period, 0, r->ref.found - 1, r->kept_r, 0);
	r->on = 0;
}

/* counted interval @iv of cadence @cad starting at present @at */
static void taobao_counted(struct stream *s, struct taobao_runs *r, int64_t iv, uint32_t cad,
			   int64_t at)
{
	struct gfxstat_jank_window w;

	if (!r->on) {
		r->on = 1;
		taobao_begin(&r->ref, r->period);
		r->cad_of = 0;
	}
	if (cad != r->cad_of) {
		if (r->cad_of)
			taobao_end_sub(s, r);
		r->cad_of = cad;
		r->base = at;
		taobao_begin(&r->cad, r->period * (int64_t)cad);
	}
	if (taobao_feed(&r->cad, iv, &w))
		r->kept = taobao_keep(s, &w, r->period * (int64_t)cad, r->base, r->cad.found - 1,
				      r->kept, 1);
	if (taobao_feed(&r->ref, iv, &w))
		r->kept_r = taobao_keep(s, &w, r->period, 0, r->ref.found - 1, r->kept_r, 0);
}

/* ---- the judgements of one frame ----------------------------------------------------- */

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

/* The refresh period at a frame: its own, else the stream's @dflt. */
static int64_t frame_period(const struct frec *f, int64_t dflt)
{
	return f->period > 0 && f->period != GFXSTAT_NS_NONE ? f->period : dflt;
}

/* Is untimed frame @x janky: its verdict, else an overrun past its deadline? */
static int untimed_janky(const struct fx *x)
{
	return x->verdict >= 0 ? x->verdict > 0 : x->overrun != GFXSTAT_NS_NONE && x->overrun > 0;
}

static int add_janky(struct stream *s, struct gfxstat_janky_frame **e)
{
	if (gx_grow((void **)&s->jl, &s->capjl, s->njl, sizeof(*s->jl), 8))
		return GFXSTAT_E_NOMEM;
	*e = &s->jl[s->njl++];
	return 0;
}

/* ---- the passes ------------------------------------------------------------------------ */

/* What the first pass finds. */
struct first {
	struct gx_xsort per, lat, dur, ovr; /* sorted: periods, latencies, durations, overruns */
	int64_t first_ns, last_ns;
	size_t nscrolls, capscrolls;
};

/*
 * First pass: the frames' periods, latencies (present - start), durations and overruns to
 * their sorts; the scrolls, with their PerfDog jank (the three before within the scroll).
 */
/* The scroll @sc that began at frame @start ended at frame @i - 1 (presented at @end_ns):
 * kept when it holds an interval. */
static int scroll_close(struct stream *s, struct first *a, struct gfxstat_scroll *sc,
			size_t start, size_t i, int64_t end_ns)
{
	double dur;

	if (i - 1 <= start)
		return 0;
	if (gx_grow((void **)&s->scrolls, &a->capscrolls, a->nscrolls, sizeof(*s->scrolls), 16))
		return GFXSTAT_E_NOMEM;
	sc->end_ns = end_ns;
	sc->frames = (uint32_t)(i - start);
	dur = (double)(sc->end_ns - sc->start_ns) / 1e9;
	sc->fps = dur > 0 ? (double)(sc->frames - 1) / dur : 0;
	s->scrolls[a->nscrolls++] = *sc;
	return 0;
}

static int pass_first(const struct gfxstat_metrics_opts *o, struct stream *s,
		      struct stream *src, struct first *a)
{
	const struct frec *f;
	const struct fx *u;
	struct gfxstat_scroll sc;
	struct scroll_track t = { 0 };
	int64_t prev_present = 0, prev[3] = { 0, 0, 0 };
	size_t i = 0, start = 0, run = 0;
	int rc = frames_from_start(src);

	memset(&sc, 0, sizeof(sc));
	while (!rc && (f = gx_xsort_next(&src->frames))) {
		int in = 0;

		if (!i) {
			a->first_ns = f->present;
			t.on = f->input == 1;
		} else {
			int64_t iv = f->present - prev_present;
			int was_on = t.on;

			in = scroll_step(o, &t, iv, f->input);
			if (was_on && !in) /* the scroll ended at frame i - 1 */
				rc = scroll_close(s, a, &sc, start, i, prev_present);
			if (in) { /* interval i - 1 is inside it */
				if (iv > sc.longest_ns)
					sc.longest_ns = iv;
				if (++run >= 4 && perfdog_jank(iv, prev))
					sc.jank++;
			}
			push_prev(prev, iv);
		}
		if (t.on && !in) { /* one begins at frame i */
			start = i;
			run = 0;
			memset(&sc, 0, sizeof(sc));
			sc.start_ns = f->present;
		}
		a->last_ns = f->present;
		if (!rc && f->period != GFXSTAT_NS_NONE && f->period > 0)
			rc = gx_xsort_put(&a->per, &f->period);
		if (!rc && f->x.start != GFXSTAT_NS_NONE)
			rc = gx_xsort_put(&a->lat, &(int64_t){ f->present - f->x.start });
		if (!rc && f->x.dur != GFXSTAT_NS_NONE && f->x.dur >= 0)
			rc = gx_xsort_put(&a->dur, &f->x.dur);
		if (!rc && f->x.overrun != GFXSTAT_NS_NONE)
			rc = gx_xsort_put(&a->ovr, &f->x.overrun);
		prev_present = f->present;
		i++;
	}
	if (!rc)
		rc = read_rc(&src->frames);
	if (!rc && t.on) /* the last scroll ends with the frames */
		rc = scroll_close(s, a, &sc, start, i, prev_present);
	/* Macrobenchmark takes the untimed frames' durations and overruns too */
	if (!rc)
		rc = untimed_from_start(src);
	while (!rc && (u = gx_xsort_next(&src->untimed))) {
		if (u->dur != GFXSTAT_NS_NONE && u->dur >= 0)
			rc = gx_xsort_put(&a->dur, &u->dur);
		if (!rc && u->overrun != GFXSTAT_NS_NONE)
			rc = gx_xsort_put(&a->ovr, &u->overrun);
	}
	return rc ? rc : read_rc(&src->untimed);
}

/* The first CADENCE_WINDOW counted intervals' vsyncs (the cadence's first window). */
static int pass_cadence_window(const struct gfxstat_metrics_opts *o, struct stream *src,
			       int64_t period, struct cadence *cd)
{
	const struct frec *f;
	struct scroll_track t = { 0 };
	int64_t prev_present = 0;
	size_t i = 0;
	int rc = frames_from_start(src);

	while (!rc && cd->nfirst < CADENCE_WINDOW && (f = gx_xsort_next(&src->frames))) {
		if (!i++) {
			t.on = f->input == 1;
		} else {
			int64_t iv = f->present - prev_present;
			int use = scroll_step(o, &t, iv, f->input) || !o->scroll_only;

			if (use && iv < o->wait_ns)
				cd->first[cd->nfirst++] = vsyncs_of(iv, frame_period(f, period));
		}
		prev_present = f->present;
	}
	return rc ? rc : read_rc(&src->frames);
}

/* What the main pass counts, beside s->m. */
struct counts {
	struct gx_xsort cnt;  /* the counted intervals, sorted: the frame time percentiles */
	int64_t active, wait, max_c, hitch, hitch_r, jank_time;
	int64_t app_active, app_all; /* app-side FPS: whole periods */
	size_t nc, app_nc;
	uint64_t by_cad[CADENCE_MAX_VSYNCS + 1];
};

/* The scrolls' hitch rates: each counted interval's hitch summed over the intervals of each
 * scroll, the first interval at or after its start through the last that ends by its end. */
struct scroll_hitch {
	size_t j;          /* the scroll being summed */
	int in;            /* its intervals have begun */
	int64_t h, act;
};

static void hitch_close(struct stream *s, struct scroll_hitch *sh)
{
	struct gfxstat_scroll *sc = &s->scrolls[sh->j];

	sc->hitch_ms_per_s = sh->act ? (double)sh->h / 1e6 / ((double)sh->act / 1e9) : 0;
	sh->j++;
	sh->in = 0;
	sh->h = sh->act = 0;
}

static void hitch_interval(struct stream *s, struct scroll_hitch *sh, int64_t from, int64_t to,
			   int counted, int64_t hit, int64_t iv)
{
	while (sh->j < s->m.nscrolls) {
		const struct gfxstat_scroll *sc = &s->scrolls[sh->j];

		if (!sh->in) {
			if (from < sc->start_ns)
				return;
			sh->in = 1;
		}
		if (to <= sc->end_ns) {
			if (counted) {
				sh->h += hit;
				sh->act += iv;
			}
			return;
		}
		hitch_close(s, sh);
	}
}

/* The per-window FPS series (GameBench's per-second series): presents in each full window. */
struct windows {
	size_t nw, w, c;
	int64_t first;
};

static void window_close(const struct gfxstat_metrics_opts *o, struct stream *s,
			 struct windows *wn)
{
	s->window_fps[wn->w++] = (double)wn->c * 1e9 / (double)o->window_ns;
	wn->c = 0;
}

static void window_frame(const struct gfxstat_metrics_opts *o, struct stream *s,
			 struct windows *wn, int64_t present, int counts)
{
	while (wn->w < wn->nw && present >= wn->first + (int64_t)(wn->w + 1) * o->window_ns)
		window_close(o, s, wn);
	if (wn->w < wn->nw)
		wn->c += (size_t)counts;
}

/* The context the main pass judges by. */
struct judge {
	int64_t period, lat_med;
	int by_start;
};

/*
 * Main pass, over every interval in order: counted or a wait, its cadence, late and hitch;
 * the seed's buckets, the refresh-based figures, Matrix, PerfDog, frozen frames, the windows,
 * Taobao's windows, the scrolls' hitch and the janky frames.
 */
static int pass_main(const struct gfxstat_metrics_opts *o, struct stream *s,
		     struct stream *src, const struct judge *jd, struct cadence *cd,
		     struct windows *wn, struct counts *k)
{
	struct gfxstat_layer_metrics *m = &s->m;
	const struct frec *f;
	struct frec prev;
	struct scroll_track t = { 0 };
	struct scroll_hitch sh = { 0, 0, 0, 0 };
	struct taobao_runs tr;
	int64_t last3[3] = { 0, 0, 0 }, period = jd->period;
	size_t i = 0, run = 0;
	int rc = frames_from_start(src);

	memset(&tr, 0, sizeof(tr));
	tr.period = period;
	memset(&prev, 0, sizeof(prev));
	while (!rc && (f = gx_xsort_next(&src->frames))) {
		int use = !o->scroll_only, counted = 0, late = 0;
		uint32_t cad = 1;
		int64_t iv = 0, hit = 0, p = frame_period(f, period);

		if (!i) {
			t.on = f->input == 1;
		} else {
			int64_t pc, ovr = f->x.overrun;
			/* a frame with its own start: how much longer than the layer's normal
			 * latency it took from that start to the display (NONE: judged by its
			 * interval) */
			int64_t exc = jd->by_start && f->x.start != GFXSTAT_NS_NONE
					      ? f->present - f->x.start - jd->lat_med
					      : GFXSTAT_NS_NONE;

			iv = f->present - prev.present;
			use = scroll_step(o, &t, iv, f->input) || !o->scroll_only;
			counted = use && iv < o->wait_ns;
			if (counted)
				cad = cadence_next(cd, vsyncs_of(iv, p), p);
			pc = p * (int64_t)cad;
			if (use && !counted) {
				m->waits++;
				k->wait += iv;
			} else if (counted) {
				k->by_cad[cad]++;
				rc = gx_xsort_put(&k->cnt, &iv);
				k->nc++;
				k->active += iv;
				if (iv > k->max_c)
					k->max_c = iv;
				if (iv >= 100 * GFXSTAT_NSEC_PER_MSEC)
					m->a++;
				else if (iv >= 50 * GFXSTAT_NSEC_PER_MSEC)
					m->b++;
				else if (iv >= 42 * GFXSTAT_NSEC_PER_MSEC)
					m->c++;
				/* refresh-based: missed at least one vsync (1.5 periods, robust to
				 * jitter), and a frame with a start lost more than half a period on
				 * its own way */
				if (2 * iv > 3 * p && (exc == GFXSTAT_NS_NONE || 2 * exc > p)) {
					m->refresh.slow_frames++;
					m->refresh.d++;
				}
				if (iv > p)
					k->hitch_r += own_excess(iv - p, exc);
				/* against the frame's own deadline where the source gives one
				 * (Macrobenchmark: a positive overrun is a dropped frame), else
				 * against the cadence: it missed at least one vsync of the cadence,
				 * (c + 0.5) periods -- and, for a frame whose start the trace shows,
				 * its latency from that start exceeded the layer's median by over
				 * half a cadence period (an idle gap before an on-time frame is not
				 * jank; JankTracker and FrameTimeline measure from the frame's
				 * intended start too) */
				if (ovr != GFXSTAT_NS_NONE) {
					late = ovr > 0;
					hit = ovr > 0 ? ovr : 0;
				} else {
					late = 2 * iv > (2 * (int64_t)cad + 1) * p &&
					       (exc == GFXSTAT_NS_NONE || 2 * exc > pc);
					hit = iv > pc ? own_excess(iv - pc, exc) : 0;
				}
				k->hitch += hit;
				if (late) {
					m->slow_frames++;
					m->d++;
				}
				{
					/* Matrix: dropped = (duration - interval) / interval,
					 * integer division; Matrix judges against the refresh
					 * period, not the content's cadence */
					int64_t dropped = iv > p ? (iv - p) / p : 0;
					int lvl = dropped >= 42 ? GFXSTAT_MATRIX_FROZEN
						  : dropped >= 24 ? GFXSTAT_MATRIX_HIGH
						  : dropped >= 9  ? GFXSTAT_MATRIX_MIDDLE
						  : dropped >= 3  ? GFXSTAT_MATRIX_NORMAL
								  : GFXSTAT_MATRIX_BEST;

					m->matrix_levels[lvl]++;
					m->matrix_dropped += (uint64_t)dropped;
				}
			}
			/* app-side frames: each interval in whole periods */
			{
				int64_t q = gx_whole_periods(iv, p);

				k->app_all += q;
				if (use && counted) {
					k->app_active += q;
					k->app_nc++;
				}
			}
			/* PerfDog: over every used interval in order, waits included (PerfDog
			 * has no idle rule); with --scroll-only the previous three are taken
			 * within the same scroll */
			if (!use) {
				run = 0;
			} else if (++run >= 4 && perfdog_jank(iv, last3)) {
				m->jank++;
				k->jank_time += iv;
				if (iv > PERFDOG_BIG_NS)
					m->big_jank++;
			}
			push_prev(last3, iv);
			hitch_interval(s, &sh, prev.present, f->present, counted, hit, iv);
			if (counted)
				taobao_counted(s, &tr, iv, cad, prev.present);
			else
				taobao_end_run(s, &tr);
		}
		/* Android frozen frames: render time when the source has it, else the interval */
		{
			int64_t d = f->render != GFXSTAT_NS_NONE ? f->render : iv;

			if (!o->scroll_only || (i && use))
				m->frozen_frames += d >= o->frozen_ns;
		}
		if (wn->nw) /* --scroll-only: frames that end an interval inside a scroll */
			window_frame(o, s, wn, f->present, !o->scroll_only || (i && use));
		/* the one janky predicate: the source's verdict where it gave one, else late */
		{
			int in = !o->scroll_only || (i && use);
			int j = f->x.verdict >= 0 ? f->x.verdict : i && in && late;

			if (in && j && !rc) {
				struct gfxstat_janky_frame *e;
				int64_t step;

				rc = add_janky(s, &e);
				if (rc)
					break;
				e->present_ns = f->present;
				/* its step: its interval when counted; after an idle wait (or first)
				 * the interval is the gap, not the frame: its own duration, else how
				 * late it ended, else unknown */
				step = i && counted && iv > 0 ? iv
				       : f->x.dur != GFXSTAT_NS_NONE ? f->x.dur
				       : f->x.overrun != GFXSTAT_NS_NONE && f->x.overrun > 0
					       ? f->x.overrun
					       : GFXSTAT_NS_NONE;
				/* its length: its own time where the source gives it (frame_len()),
				 * else its step. The interval would put another frame's time in it
				 * (8.3 ms for a frame that waited 41.6 ms for its vsync, then
				 * presented one refresh after its neighbour) */
				e->length_ns = f->x.len != GFXSTAT_NS_NONE ? f->x.len : step;
				/* the frame's own period: the first frame has no interval */
				e->cadence_ns = p * (int64_t)(i ? cad : 1);
				e->index = i;
				e->late_ns = janky_late(&f->x, step, e->cadence_ns,
							jd->by_start && f->x.start != GFXSTAT_NS_NONE
								? f->present - f->x.start - jd->lat_med
								: GFXSTAT_NS_NONE);
			}
		}
		prev = *f;
		i++;
	}
	if (!rc)
		rc = read_rc(&src->frames);
	if (rc)
		return rc;
	taobao_end_run(s, &tr);
	while (sh.j < m->nscrolls)
		hitch_close(s, &sh);
	while (wn->w < wn->nw)
		window_close(o, s, wn);
	m->njank_windows = tr.kept;
	m->refresh.njank_windows = tr.kept_r;
	m->cadence_changes = cd->changes;
	return 0;
}

/* The untimed frames' frozen frames and janky ones (listed after the timed). */
static int pass_untimed(const struct gfxstat_metrics_opts *o, struct stream *s,
			struct stream *src, int64_t period)
{
	const struct fx *x;
	size_t k = 0;
	int rc = untimed_from_start(src);

	while (!rc && (x = gx_xsort_next(&src->untimed))) {
		struct gfxstat_janky_frame *e;

		k++;
		s->m.frozen_frames += x->dur != GFXSTAT_NS_NONE && x->dur >= o->frozen_ns;
		if (o->scroll_only || !untimed_janky(x))
			continue;
		rc = add_janky(s, &e);
		if (rc)
			break;
		e->present_ns = GFXSTAT_NS_NONE;
		e->length_ns = x->len != GFXSTAT_NS_NONE ? x->len : x->dur;
		e->cadence_ns = period;
		e->index = s->n + k - 1;
		e->late_ns = janky_late(x, x->dur, period, GFXSTAT_NS_NONE);
	}
	return rc ? rc : read_rc(&src->untimed);
}

/* Percentiles of the counted frame times, nearest rank, and GameBench's Low 1%: 1000 / mean
 * of the slowest 1% of them. A source with no presents (gfxinfo's legacy table) has only the
 * frames' own durations. */
static int frame_percentiles(struct stream *s, struct stream *src, struct counts *k)
{
	struct gfxstat_layer_metrics *m = &s->m;
	const int64_t *v;
	size_t nc = (size_t)k->cnt.count, i = 0, nslow, at[4];
	int64_t slow_sum = 0, val[4], last = 0;
	int rc = 0;

	if (!nc && !s->n) {
		const struct fx *x;

		rc = untimed_from_start(src);
		while (!rc && (x = gx_xsort_next(&src->untimed)))
			if (x->dur != GFXSTAT_NS_NONE && x->dur >= 0)
				rc = gx_xsort_put(&k->cnt, &x->dur);
		if (!rc)
			rc = read_rc(&src->untimed);
		nc = (size_t)k->cnt.count;
	}
	if (rc || !nc)
		return rc;
	nslow = (nc + 99) / 100;
	at[0] = rank_at(nc, 50);
	at[1] = rank_at(nc, 90);
	at[2] = rank_at(nc, 95);
	at[3] = rank_at(nc, 99);
	rc = gx_xsort_sorted(&k->cnt);
	while (!rc && (v = gx_xsort_next(&k->cnt))) {
		size_t j;

		for (j = 0; j < 4; j++)
			if (at[j] == i)
				val[j] = *v;
		if (i >= nc - nslow)
			slow_sum += *v;
		last = *v;
		i++;
	}
	if (!rc)
		rc = i == nc ? read_rc(&k->cnt) : k->cnt.failed ? k->cnt.failed : GFXSTAT_E_IO;
	if (rc)
		return rc;
	m->frame_ms_p50 = (double)val[0] / 1e6;
	m->frame_ms_p90 = (double)val[1] / 1e6;
	m->frame_ms_p95 = (double)val[2] / 1e6;
	m->frame_ms_p99 = (double)val[3] / 1e6;
	m->frame_ms_max = (double)last / 1e6;
	m->fps_low_1pct = slow_sum > 0 ? 1e9 * (double)nslow / (double)slow_sum : 0;
	return 0;
}

int gx_metrics_compute(const struct gfxstat_metrics_opts *o, struct stream *s,
		       struct stream *src, struct gx_xfile *file, size_t *windows_left)
{
	struct gfxstat_layer_metrics *m = &s->m;
	size_t n = s->n, niv = n ? n - 1 : 0;
	struct first a;
	struct counts k;
	struct cadence cd;
	struct windows wn;
	struct judge jd;
	int64_t period = 0, lat = 0;
	double span;
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&k, 0, sizeof(k));
	memset(&cd, 0, sizeof(cd));
	memset(&wn, 0, sizeof(wn));
	memset(&jd, 0, sizeof(jd));
	sort_init(&a.per, file);
	sort_init(&a.lat, file);
	sort_init(&a.dur, file);
	sort_init(&a.ovr, file);
	sort_init(&k.cnt, file);
	m->name = s->name;
	m->app = s->app;
	m->is_app = s->is_app;
	m->source = s->source;
	m->frames = n + s->nu;
	m->untimed = s->nu;
	rc = pass_first(o, s, src, &a);
	m->nscrolls = a.nscrolls;
	m->scrolls = s->scrolls;
	m->first_ns = n ? a.first_ns : 0;
	m->last_ns = n ? a.last_ns : 0;
	span = (double)(m->last_ns - m->first_ns) / 1e9;
	m->duration_s = span;

	/* the refresh period: the most common per-frame period, else from the intervals (not
	 * for app-side frames), else the default, said to be assumed */
	if (!rc)
		rc = period_mode(&a.per, &period);
	gx_xsort_free(&a.per);
	m->period_assumed = 0;
	if (!rc && !period) {
		m->period_assumed = 1;
		if (s->source != GFXSTAT_SRC_APP)
			rc = period_of_intervals(src, file, &period);
		if (period)
			m->period_assumed = 0;
		else
			period = o->default_period_ns;
	}
	m->period_ns = period;
	m->refresh_hz = 1e9 / (double)period;

	/* What the layer normally takes from a frame's start to its present (docs/metrics.md,
	 * "Idle is not jank"): the median, nearest rank, of that latency over its frames that
	 * carry a start; none when under half of its frames carry one (then no frame is
	 * judged from its start: a SurfaceView drawn by a GL thread borrows doFrames of its
	 * process's other window now and then). */
	if (!rc && a.lat.count && 2 * a.lat.count >= n) {
		size_t at = rank_at((size_t)a.lat.count, 50);

		rc = values_at(&a.lat, &at, &lat, 1);
		jd.by_start = 1;
		jd.lat_med = lat;
	}
	gx_xsort_free(&a.lat);
	jd.period = period;

	/* the per-window FPS series: its room first */
	if (!rc && n && span * 1e9 >= (double)o->window_ns) {
		size_t nw = (size_t)((m->last_ns - m->first_ns) / o->window_ns);

		if (nw > WINDOWS_MAX)
			nw = WINDOWS_MAX;
		if (nw > *windows_left)
			nw = *windows_left;
		*windows_left -= nw;
		/* none left: no series, the median is the FPS (calloc(0) may give NULL) */
		s->window_fps = calloc(nw ? nw : 1, sizeof(double));
		if (!s->window_fps)
			rc = GFXSTAT_E_NOMEM;
		wn.nw = nw;
		wn.first = m->first_ns;
		m->nwindows = (uint32_t)nw;
		m->window_fps = s->window_fps;
	}
	/* Taobao's windows: sized by the intervals, not the cap: a run of thousands of layers
	 * of a few frames each must not take the cap's memory each */
	if (!rc) {
		s->jwcap = niv < JANK_WINDOW_CAP ? niv : JANK_WINDOW_CAP;
		s->jw = malloc((s->jwcap ? s->jwcap : 1) * sizeof(*s->jw));
		if (!s->jw)
			rc = GFXSTAT_E_NOMEM;
	}
	if (!rc)
		rc = pass_cadence_window(o, src, period, &cd);
	if (!rc)
		rc = pass_main(o, s, src, &jd, &cd, &wn, &k);
	if (!rc)
		rc = pass_untimed(o, s, src, period);
	m->njanky_list = s->njl;
	m->janky_frames = s->njl;
	m->janky_list = s->jl;
	m->jank_windows = s->jw;
	if (rc)
		goto out;

	{
		uint32_t c, best = 1;

		for (c = 1; c <= CADENCE_MAX_VSYNCS; c++)
			if (k.by_cad[c] > k.by_cad[best])
				best = c;
		m->cadence_vsyncs = best;
		m->cadence_fps = 1e9 / ((double)period * best);
	}
	m->intervals = k.nc;
	m->wait_s = (double)k.wait / 1e9;
	m->active_s = (double)k.active / 1e9;
	m->fps = k.active ? (double)k.nc * 1e9 / (double)k.active : 0;
	m->fps_wall = o->scroll_only ? m->fps : span > 0 ? (double)niv / span : 0;
	/*
	 * The FPS of app-side frames (GFXSTAT_SRC_APP), over whole vsync periods. Their times
	 * are the ends of the app's DrawFrames, which jitter with the work: two frames drawn for
	 * consecutive vsyncs may end 14 ms apart at 60 Hz, and frames over their summed
	 * intervals would be faster than the display. Each frame was drawn for one vsync, so
	 * each interval counts as the whole periods it spans (at least one), and the FPS can
	 * never exceed the refresh rate. The present-based rates of SurfaceFlinger's frames are
	 * left as they are: their presents are on vsyncs already.
	 */
	if (s->source == GFXSTAT_SRC_APP) {
		m->fps = k.app_active ? (double)k.app_nc * 1e9 / (double)k.app_active : 0;
		m->fps_wall = o->scroll_only ? m->fps
			      : k.app_all ? (double)niv * 1e9 / (double)k.app_all : 0;
	}
	m->matrix_dropped_per_frame = k.nc ? (double)m->matrix_dropped / (double)k.nc : 0;
	m->hitch_ms_per_s = k.active ? (double)k.hitch / 1e6 / ((double)k.active / 1e9) : 0;
	/* whether scrolling gets worse the further you scroll: the slope of the scrolls'
	 * hitch rate over their order */
	if (m->nscrolls >= 2) {
		size_t ns = m->nscrolls, j;
		double mx = (double)(ns - 1) / 2, my = 0, sxy = 0, sxx = 0;

		for (j = 0; j < ns; j++)
			my += s->scrolls[j].hitch_ms_per_s / (double)ns;
		for (j = 0; j < ns; j++) {
			sxy += ((double)j - mx) * (s->scrolls[j].hitch_ms_per_s - my);
			sxx += ((double)j - mx) * ((double)j - mx);
		}
		m->scroll_hitch_slope = sxy / sxx;
	}
	m->refresh.hitch_ms_per_s = k.active ? (double)k.hitch_r / 1e6 / ((double)k.active / 1e9)
					     : 0;
	rc = frame_percentiles(s, src, &k);
	if (rc)
		goto out;

	/* the seed's score, with the FPS term capped at 1 */
	if (m->intervals) {
		double g = m->fps / o->target_fps, h, dn = (double)m->intervals;

		if (g > 1)
			g = 1;
		h = o->kpi_ms < (double)k.max_c / 1e6 ? o->kpi_ms / ((double)k.max_c / 1e6) : 1;
		m->score = g * 60 + h * 20 + (1 - (double)m->a / dn) * 10 +
			   (1 - (double)m->b / dn) * 7 + (1 - (double)m->c / dn) * 3;
		m->score = round(m->score * 100) / 100;
	}
	/* a count per 10 minutes from a few seconds of frames is noise, not a rate */
	m->rates_valid = span >= RATE_MIN_S;
	if (m->rates_valid) {
		m->jank_per_10min = (double)m->jank * 600.0 / span;
		m->big_jank_per_10min = (double)m->big_jank * 600.0 / span;
	}
	if (span > 0)
		m->stutter = (double)k.jank_time / 1e9 / span;
	m->frozen_share = m->frames ? (double)m->frozen_frames / (double)m->frames : 0;
	if (s->window_fps) { /* the median of the windows that hold a frame */
		double *sorted_w = malloc((wn.nw ? wn.nw : 1) * sizeof(double));
		size_t w, nz = 0;

		if (!sorted_w) {
			rc = GFXSTAT_E_NOMEM;
			goto out;
		}
		for (w = 0; w < wn.nw; w++)
			if (s->window_fps[w] > 0)
				sorted_w[nz++] = s->window_fps[w];
		qsort(sorted_w, nz, sizeof(double), cmp_dbl);
		m->fps_median = !nz ? m->fps
				: nz % 2 ? sorted_w[nz / 2]
					 : (sorted_w[nz / 2 - 1] + sorted_w[nz / 2]) / 2;
		free(sorted_w);
	} else {
		m->fps_median = m->fps;
	}
	/* Macrobenchmark FrameTimingMetric: frameDurationCpuMs from the frames' own duration,
	 * and frameOverrunMs from their deadline (see frame_overrun()), over timed and untimed
	 * frames */
	m->macro_cpu_n = a.dur.count;
	m->macro_overrun_n = a.ovr.count;
	rc = macro_pcts(&a.dur, m->macro_cpu_ms);
	if (!rc)
		rc = macro_pcts(&a.ovr, m->macro_overrun_ms);
out:
	gx_xsort_free(&a.per);
	gx_xsort_free(&a.lat);
	gx_xsort_free(&a.dur);
	gx_xsort_free(&a.ovr);
	gx_xsort_free(&k.cnt);
	return rc;
}
