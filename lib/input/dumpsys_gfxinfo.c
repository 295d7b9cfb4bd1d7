/* SPDX-License-Identifier: MIT */
/*
 * `dumpsys gfxinfo [<pkg>] [framestats]` (FORMATS.md section 4): a push parser over the
 * line reader. The dump is a sequence of blocks: a process block opened by
 * "** Graphics info for pid N [name] **" (its summary is the process's global ProfileData),
 * then window blocks opened by "\t<title> (visibility=N)" or "Window: <name>". A block
 * holds a summary, the optional "Draw Prepare Process Execute" table and a ---PROFILEDATA---
 * CSV. Rows are kept until the block ends, because before Android 12 the summary that tells
 * 7.1 from 8+ may follow the rows; then the block is run through the JankTracker of its
 * release (gfxinfo_janktracker.c) and passed on frame by frame.
 */
#include <stdlib.h>

#include "janktracker_local.h"
#include "utf16_local.h"

#define NAME_CAP 512
#define MAX_COLS 40
#define DEFAULT_MAX_ROWS 4096
#define UTF16_SLICE 8192
/* a kept row: the FrameInfo values, then the tracker's verdict and reasons */
#define ROW_JANKY GFXSTAT_FI_COUNT
#define ROW_REASONS (GFXSTAT_FI_COUNT + 1)
#define ROW_W (GFXSTAT_FI_COUNT + 2)
/* hwui FrameInfoVisualizer.cpp: a profile bar over FRAME_THRESHOLD_NS is drawn janky */
#define TABLE_JANK_NS 16000000LL

struct gfxstat_gfxinfo {
	struct gfxstat_gfxinfo_opts o;
	struct gfxstat_gfxinfo_sink sink;
	struct gfxstat_gfxinfo_counts counts;
	struct gfxstat_line_reader *lr;
	int stopped;

	/* encoding sniffing */
	int stream_start;
	uint8_t sniff[2];
	int nsniff;
	int utf16;
	struct gx_utf16 u;
	char *ubuf;

	/* the process being read */
	int32_t pid;
	char app[NAME_CAP];
	size_t app_n;

	/* the block being read */
	int open;
	struct gfxstat_gfxinfo_block b;
	char name[NAME_CAP];
	int from_title;   /* opened by a "(visibility=N)" line: a "Window:" line renames it */
	int in_table;     /* after "\tDraw\tPrepare\tProcess\tExecute" */
	int table_cols;   /* its columns: 4, or 3 ("\tDraw\tProcess\tExecute", Android 4.1-4.4) */
	char title[NAME_CAP]; /* the last "\t<window>" line (4.1-4.4 print no visibility) */
	int has_title;
	int in_pd;        /* inside ---PROFILEDATA--- */
	int pd_header;    /* its header was read */
	int ncols;
	int col[MAX_COLS]; /* header column -> GFXSTAT_FI_*, or -1 */
	int value_checked; /* the FrameInterval/FrameStartTime values were checked */
	int64_t *rows;    /* nrows x ROW_W */
	int64_t *tmp;     /* cap: the present latencies, sorted for their median */
	size_t nrows, cap;
	struct gfxstat_gfxinfo_table_row *trows; /* the legacy table of the block */
	size_t ntrows, tcap;
	int64_t uptime_ns; /* the last "Uptime:" line */
};

#define CNT(g, name) ((g)->counts.v[GFXSTAT_GFXINFO_##name]++)

GX_COUNTER_TABLE(GFXSTAT_GFXINFO_COUNTS, enum gfxstat_gfxinfo_count, GFXSTAT_GFXINFO_COUNT_N,
		 gfxstat_gfxinfo_count_name, gfxstat_gfxinfo_count_doc,
		 gfxstat_gfxinfo_count_severity)

const struct gfxstat_gfxinfo_counts *gfxstat_gfxinfo_counts(const struct gfxstat_gfxinfo *g)
{
	return &g->counts;
}

void gfxstat_gfxinfo_opts_init(struct gfxstat_gfxinfo_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* ---------------------------------------------------------------------------------------- */
/* Small scanners over (p, end): advance only on success                                      */

static int starts(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && memcmp(s, lit, k) == 0;
}

/* an optionally negative int64 */
static int scan_i64(const char **s, const char *end, int64_t *out)
{
	const char *p = *s;
	int neg = 0;
	uint64_t v = 0, lim;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (p >= end || !gx_isdigit(*p))
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; p < end && gx_isdigit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (lim - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*s = p;
	return 0;
}

static int scan_lit(const char **s, const char *end, const char *lit)
{
	size_t k = strlen(lit);

	if ((size_t)(end - *s) < k || memcmp(*s, lit, k) != 0)
		return -1;
	*s += k;
	return 0;
}

static void copy_name(char *dst, const char *s, size_t n)
{
	if (n > NAME_CAP - 1)
		n = NAME_CAP - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Blocks                                                                                    */

/* The header names column @fi. */
static int has_column(const struct gfxstat_gfxinfo *g, int fi)
{
	int k;

	for (k = 0; k < g->ncols; k++)
		if (g->col[k] == fi)
			return 1;
	return 0;
}

/*
 * A header of no release's length (cut short, or a vendor's) and no summary: the release whose
 * columns it names, newest first, as FrameInfoNames grew (FORMATS.md 4.3): FrameDeadline
 * (12+, finishFrame's deadline), GpuCompleted (10-11), DequeueBufferDuration (7.1-9: 8-9, as
 * for 16 columns without a summary), else 6.0-7.0, whose addFrame reads only Flags,
 * IntendedVsync and FrameCompleted (frameworks/base libs/hwui/JankTracker.cpp). So a row with a
 * duration always carries a verdict (fuzz_gfxinfo's invariant); the CLI prints the rules used.
 */
static enum gfxstat_gfxinfo_rules rules_from_columns(const struct gfxstat_gfxinfo *g)
{
	if (!g->b.has_rows || !g->ncols)
		return GFXSTAT_RULES_UNKNOWN;
	if (has_column(g, GFXSTAT_FI_FRAME_DEADLINE))
		return GFXSTAT_RULES_12;
	if (has_column(g, GFXSTAT_FI_GPU_COMPLETED))
		return GFXSTAT_RULES_10;
	if (has_column(g, GFXSTAT_FI_DEQUEUE_BUFFER_DURATION))
		return GFXSTAT_RULES_8;
	return GFXSTAT_RULES_6;
}

static enum gfxstat_gfxinfo_rules rules_for(const struct gfxstat_gfxinfo *g)
{
	const struct gfxstat_profile *d = &g->b.dump;
	int a = g->o.android;

	if (a) {
		if (a <= 6)
			return GFXSTAT_RULES_6;
		if (a == 7)
			return GFXSTAT_RULES_7;
		if (a <= 9)
			return GFXSTAT_RULES_8;
		if (a <= 11)
			return GFXSTAT_RULES_10;
		return GFXSTAT_RULES_12;
	}
	switch (g->b.columns) {
	case 14:
		return GFXSTAT_RULES_6;
	case 16:
		/* 7.1 and 8-9 share the layout; 8+ prints "Number Frame deadline missed" */
		if (g->b.has_summary && d->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE] < 0 &&
		    d->jank_counts[GFXSTAT_JANK_SLOW_RT] >= 0)
			return GFXSTAT_RULES_7;
		return GFXSTAT_RULES_8;
	case 17:
	case 18:
		return GFXSTAT_RULES_10;
	case 0:
		break;
	default:
		if (g->b.columns >= 22)
			return GFXSTAT_RULES_12;
		break;
	}
	if (!g->b.has_summary)
		return rules_from_columns(g);
	if (d->janky_legacy >= 0 || d->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE_LEGACY] >= 0)
		return GFXSTAT_RULES_12;
	if (d->gpu_hist_entries)
		return GFXSTAT_RULES_10;
	if (d->jank_counts[GFXSTAT_JANK_MISSED_DEADLINE] >= 0)
		return GFXSTAT_RULES_8;
	return GFXSTAT_RULES_7;
}

/* The vsync period for the pre-12 rules: the smallest IntendedVsync step of 2 ms or more. */
static int64_t infer_interval(const struct gfxstat_gfxinfo *g)
{
	int64_t best = 0, prev = GFXSTAT_NS_NONE;
	size_t i;

	for (i = 0; i < g->nrows; i++) {
		int64_t iv = g->rows[i * ROW_W + GFXSTAT_FI_INTENDED_VSYNC];

		if (iv <= 0)
			continue;
		if (prev != GFXSTAT_NS_NONE && iv > prev) {
			uint64_t d = (uint64_t)iv - (uint64_t)prev;

			if (d >= 2 * (uint64_t)GFXSTAT_NSEC_PER_MSEC &&
			    d <= 100 * (uint64_t)GFXSTAT_NSEC_PER_MSEC && (!best || (int64_t)d < best))
				best = (int64_t)d;
		}
		prev = iv;
	}
	return best ? best : 16666667;
}

static int plausible_after(int64_t t, int64_t iv)
{
	return t > 0 && t >= iv && (uint64_t)t - (uint64_t)iv <= 3600ULL * GFXSTAT_NSEC_PER_SEC;
}

/* When the frame was finished: GpuCompleted if the GPU ended after the CPU, else FrameCompleted */
static int64_t completion(const int64_t *fi)
{
	int64_t iv = fi[GFXSTAT_FI_INTENDED_VSYNC], fc = fi[GFXSTAT_FI_FRAME_COMPLETED];
	int64_t gpu = fi[GFXSTAT_FI_GPU_COMPLETED];

	if (!plausible_after(fc, iv))
		return GFXSTAT_NS_NONE;
	return gpu != GFXSTAT_NS_NONE && gpu > fc && plausible_after(gpu, iv) ? gpu : fc;
}

/*
 * A DisplayPresentTime to trust: after the buffer was queued (SwapBuffers) and after the
 * window's previous real present. hwui fills it only when a later frame fetches the present
 * fence, so the last rows before an idle gap hold 0, garbage, or an older frame's value.
 */
static int real_present(const int64_t *fi, int64_t prev_real)
{
	int64_t dp = fi[GFXSTAT_FI_DISPLAY_PRESENT_TIME], sb = fi[GFXSTAT_FI_SWAP_BUFFERS];

	if (dp == GFXSTAT_NS_NONE || !plausible_after(dp, fi[GFXSTAT_FI_INTENDED_VSYNC]))
		return 0;
	if (sb != GFXSTAT_NS_NONE && sb > 0 && dp < sb)
		return 0;
	return prev_real == GFXSTAT_NS_NONE || dp > prev_real;
}

static int64_t row_period(const int64_t *fi, int64_t in)
{
	int64_t fint = fi[GFXSTAT_FI_FRAME_INTERVAL];

	return fint != GFXSTAT_NS_NONE && fint > 0 ? fint : in > 0 ? in : GFXSTAT_NS_NONE;
}

/*
 * Present times on one basis (docs/gfxinfo.md, "Present times"). A counted row's present is
 * its DisplayPresentTime when real_present(); else its completion plus the window's median
 * (DisplayPresentTime - completion) over the real ones, so that it lands where a real one
 * would (about a frame later than FrameCompleted) instead of mixing the two clocks. With no
 * real present in the window, completion is the basis for every row. A layer shows at most
 * one buffer per refresh, so a present less than a period (less 2 % for timestamp noise:
 * +-0.6 % at 120 Hz in the Sound-to-Visualiation sample) after the previous one goes to the
 * previous one plus a period: an estimate, or a fence time off its vsync (the aNavMode
 * tablet's fences come 14.6 ms apart six times in seven, then 29.2 ms, against a 16.67 ms
 * FrameInterval, although its frames follow the 60 Hz vsync one by one). Return: the latency.
 */
static int64_t present_latency(struct gfxstat_gfxinfo *g)
{
	int64_t prev_real = GFXSTAT_NS_NONE;
	size_t i, n = 0;

	for (i = 0; i < g->nrows; i++) {
		const int64_t *fi = g->rows + i * ROW_W;
		int64_t c = completion(fi);

		if (fi[ROW_JANKY] < 0 && g->b.rules != GFXSTAT_RULES_UNKNOWN)
			continue;
		if (c == GFXSTAT_NS_NONE || !real_present(fi, prev_real))
			continue;
		prev_real = fi[GFXSTAT_FI_DISPLAY_PRESENT_TIME];
		g->tmp[n++] = prev_real - c > 0 ? prev_real - c : 0;
	}
	if (!n)
		return GFXSTAT_NS_NONE;
	qsort(g->tmp, n, sizeof(*g->tmp), gx_cmp_i64);
	return g->tmp[(n - 1) / 2];
}

static void set_present(struct gfxstat_gfxinfo *g, struct gfxstat_frame *f, const int64_t *fi,
			int64_t lat, int64_t *prev, int64_t *prev_real)
{
	int64_t c = completion(fi), p, period = f->vsync_period_ns;

	if (c == GFXSTAT_NS_NONE)
		return;
	if (lat != GFXSTAT_NS_NONE && real_present(fi, *prev_real)) {
		p = *prev_real = fi[GFXSTAT_FI_DISPLAY_PRESENT_TIME];
		g->b.presents_real++;
	} else {
		p = lat != GFXSTAT_NS_NONE ? c + lat : c;
		if (lat != GFXSTAT_NS_NONE) {
			g->b.presents_estimated++;
			CNT(g, presents_estimated);
		}
	}
	if (*prev != GFXSTAT_NS_NONE && period != GFXSTAT_NS_NONE &&
	    p - *prev < period - period / 50) {
		p = *prev + period;
		g->b.presents_moved++;
		CNT(g, presents_moved);
	} else if (*prev != GFXSTAT_NS_NONE && p <= *prev) {
		p = *prev + 1; /* no period known: still strictly increasing */
		g->b.presents_moved++;
		CNT(g, presents_moved);
	}
	f->present_ns = p;
	if (*prev != GFXSTAT_NS_NONE)
		f->interval_ns = p - *prev;
	*prev = p;
}

/* The package a window belongs to when no process header named it: "pkg/Activity". */
static struct gfxstat_str frame_app(const struct gfxstat_gfxinfo_block *b)
{
	struct gfxstat_str a = b->app;
	const char *sl;

	if (a.n || !b->name.n)
		return a;
	sl = memchr(b->name.p, '/', b->name.n);
	if (sl && sl > b->name.p && memchr(b->name.p, '.', (size_t)(sl - b->name.p)) &&
	    !memchr(b->name.p, ' ', (size_t)(sl - b->name.p))) {
		a.p = b->name.p;
		a.n = (size_t)(sl - b->name.p);
	}
	return a;
}

/* A table row's work: its stages summed (4.1-4.4 have no Prepare). */
static int64_t table_sum(const struct gfxstat_gfxinfo_table_row *r)
{
	return r->draw_ns + (r->prepare_ns != GFXSTAT_NS_NONE ? r->prepare_ns : 0) + r->process_ns +
	       r->execute_ns;
}

/* The legacy table as frames: no times, so no present; janky as its profile bar is drawn. */
static int table_frames(struct gfxstat_gfxinfo *g)
{
	struct gfxstat_frame f;
	size_t i;

	for (i = 0; i < g->ntrows; i++) {
		const struct gfxstat_gfxinfo_table_row *r = &g->trows[i];

		gfxstat_frame_init(&f, GFXSTAT_SRC_GFXINFO);
		f.layer = g->b.name;
		f.app = frame_app(&g->b);
		f.pid = g->b.pid;
		f.duration_ns = table_sum(r);
		f.janky = f.duration_ns > TABLE_JANK_NS;
		f.legacy_ns[GFXSTAT_LEGACY_DRAW] = r->draw_ns;
		f.legacy_ns[GFXSTAT_LEGACY_PREPARE] = r->prepare_ns;
		f.legacy_ns[GFXSTAT_LEGACY_PROCESS] = r->process_ns;
		f.legacy_ns[GFXSTAT_LEGACY_EXECUTE] = r->execute_ns;
		if (g->sink.frame && g->sink.frame(g->sink.user, &f))
			return 1;
	}
	return 0;
}

/* End of a block: recompute, pass on the frames, then the block. Return: non-zero to stop. */
static int close_block(struct gfxstat_gfxinfo *g)
{
	struct gx_jank_tracker t;
	struct gfxstat_frame f;
	int64_t prev = GFXSTAT_NS_NONE, prev_real = GFXSTAT_NS_NONE, lat;
	size_t i;
	int rc = 0;

	if (!g->open)
		return 0;
	g->open = 0;
	if (g->in_pd) {
		CNT(g, profiledata_unterminated);
		g->in_pd = 0;
	}
	g->in_table = 0;
	g->b.app.p = g->app;
	g->b.app.n = g->app_n;
	g->b.name.p = g->name;
	g->b.name.n = strlen(g->name);
	g->b.rules = rules_for(g);
	g->b.present_latency_ns = GFXSTAT_NS_NONE;
	if (g->b.has_rows) {
		/* with no known release the rows are still passed on, janky -1 */
		int known = g->b.rules != GFXSTAT_RULES_UNKNOWN;
		int64_t in = g->o.frame_interval_ns;

		if (!in && g->b.rules != GFXSTAT_RULES_12)
			in = infer_interval(g);
		gx_jank_tracker_init(&t, g->b.rules, in, g->o.forgiveness_ns, &g->b.calc);
		if (!known)
			gfxstat_profile_init(&g->b.calc);
		g->b.frame_interval_ns = in;
		/* the verdicts first: which rows count decides which presents are kept */
		for (i = 0; i < g->nrows; i++) {
			int64_t *fi = g->rows + i * ROW_W;
			uint32_t reasons = 0;

			/* unknown release: the rows JankTracker would count (finished, total > 0) */
			fi[ROW_JANKY] = known ? gx_jank_tracker_frame(&t, fi, &reasons) :
				gx_frame_incomplete(fi) || gx_frame_total_duration(fi) <= 0 ? -1 : 0;
			fi[ROW_REASONS] = reasons;
		}
		lat = present_latency(g);
		g->b.present_latency_ns = lat;
		for (i = 0; i < g->nrows; i++) {
			const int64_t *fi = g->rows + i * ROW_W;

			gfxstat_frame_init(&f, GFXSTAT_SRC_GFXINFO);
			memcpy(f.fi, fi, sizeof(f.fi));
			f.layer = g->b.name;
			f.app = frame_app(&g->b);
			f.pid = g->b.pid;
			f.janky = known ? (int32_t)fi[ROW_JANKY] : -1;
			f.jank_reasons = (uint32_t)fi[ROW_REASONS];
			if (gx_frame_incomplete(fi))
				g->b.rows_incomplete++;
			f.vsync_period_ns = row_period(fi, in);
			if (f.vsync_period_ns != GFXSTAT_NS_NONE && !g->b.frame_interval_ns)
				g->b.frame_interval_ns = f.vsync_period_ns;
			/*
			 * A row Android does not count never finished (its slot holds 0, garbage
			 * or an older frame's times): no duration, no present, so that every
			 * consumer counts exactly the frames JankTracker counts.
			 */
			if (fi[ROW_JANKY] >= 0) {
				f.duration_ns = gx_frame_total_duration(fi);
				set_present(g, &f, fi, lat, &prev, &prev_real);
			}
			if (fi[GFXSTAT_FI_FRAME_TIMELINE_VSYNC_ID] != GFXSTAT_NS_NONE &&
			    fi[GFXSTAT_FI_FRAME_TIMELINE_VSYNC_ID] != -1)
				f.token = fi[GFXSTAT_FI_FRAME_TIMELINE_VSYNC_ID];
			if (!rc && g->sink.frame && g->sink.frame(g->sink.user, &f))
				rc = 1;
		}
		g->counts.v[GFXSTAT_GFXINFO_rows_incomplete] += g->b.rows_incomplete;
		if (known)
			gx_jank_tracker_done(&t);
	} else if (g->ntrows) {
		rc = table_frames(g);
	}
	CNT(g, blocks);
	if (!rc && g->sink.block && g->sink.block(g->sink.user, &g->b))
		rc = 1;
	g->nrows = 0;
	g->ntrows = 0;
	return rc;
}

int gfxstat_gfxinfo_fps_between(const struct gfxstat_gfxinfo_block *a,
				const struct gfxstat_gfxinfo_block *b, double *fps)
{
	const struct gfxstat_profile *x = &a->dump, *y = &b->dump;

	if (!a->has_summary || !b->has_summary || x->total_frames < 0 || y->total_frames < 0 ||
	    a->uptime_ns == GFXSTAT_NS_NONE || b->uptime_ns == GFXSTAT_NS_NONE ||
	    x->stats_since_ns != y->stats_since_ns || b->uptime_ns <= a->uptime_ns ||
	    y->total_frames < x->total_frames)
		return GFXSTAT_E_INVAL;
	*fps = (double)(y->total_frames - x->total_frames) * 1e9 /
	       (double)(b->uptime_ns - a->uptime_ns);
	return 0;
}

static int open_block(struct gfxstat_gfxinfo *g, enum gfxstat_gfxinfo_block_kind kind,
		      const char *name, size_t n)
{
	int rc = close_block(g);

	memset(&g->b, 0, sizeof(g->b));
	g->b.kind = kind;
	g->b.pid = g->pid;
	g->b.uptime_ns = g->uptime_ns;
	g->b.present_latency_ns = GFXSTAT_NS_NONE;
	g->ntrows = 0;
	gfxstat_profile_init(&g->b.dump);
	gfxstat_profile_init(&g->b.calc);
	copy_name(g->name, name, n);
	g->open = 1;
	g->from_title = 0;
	g->in_table = 0;
	g->in_pd = 0;
	g->nrows = 0;
	return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* PROFILEDATA                                                                                */

static void pd_header(struct gfxstat_gfxinfo *g, const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	int k = 0, iv_label = -1, st_label = -1;

	g->pd_header = 1;
	g->value_checked = 0;
	if (!starts(s, n, "Flags"))
		CNT(g, header_malformed);
	while (p < end && k < MAX_COLS) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t len = (size_t)((c ? c : end) - p);
		int i, m = -1;

		if (!c && !len)
			break; /* the trailing comma */
		for (i = 0; i < GFXSTAT_FI_COUNT; i++) {
			const char *nm = gfxstat_frameinfo_name((enum gfxstat_frameinfo)i);

			if (strlen(nm) == len && memcmp(nm, p, len) == 0) {
				m = i;
				break;
			}
		}
		if (m < 0)
			CNT(g, header_unknown_columns);
		if (m == GFXSTAT_FI_FRAME_INTERVAL)
			iv_label = k;
		if (m == GFXSTAT_FI_FRAME_START_TIME)
			st_label = k;
		g->col[k++] = m;
		if (!c)
			break;
		p = c + 1;
	}
	g->ncols = k;
	g->b.columns = k;
	/* 12-14 label the enum's FrameStartTime,FrameInterval as FrameInterval,FrameStartTime */
	if (iv_label >= 0 && st_label == iv_label + 1) {
		g->col[iv_label] = GFXSTAT_FI_FRAME_START_TIME;
		g->col[st_label] = GFXSTAT_FI_FRAME_INTERVAL;
		g->b.header_swapped = 1;
		CNT(g, header_swapped);
	}
}

/* FrameInterval is a period (or -1), FrameStartTime a timestamp: trust values over labels. */
static void check_values(struct gfxstat_gfxinfo *g, int64_t *fi)
{
	int64_t a = fi[GFXSTAT_FI_FRAME_INTERVAL], b = fi[GFXSTAT_FI_FRAME_START_TIME], x;
	int k, ia = -1, ib = -1;

	if (a == GFXSTAT_NS_NONE || b == GFXSTAT_NS_NONE || a <= 0 || b <= 0)
		return;
	g->value_checked = 1;
	if (!(a > 60 * GFXSTAT_NSEC_PER_SEC && b < GFXSTAT_NSEC_PER_SEC))
		return;
	for (k = 0; k < g->ncols; k++) {
		if (g->col[k] == GFXSTAT_FI_FRAME_INTERVAL)
			ia = k;
		else if (g->col[k] == GFXSTAT_FI_FRAME_START_TIME)
			ib = k;
	}
	if (ia >= 0 && ib >= 0) {
		g->col[ia] = GFXSTAT_FI_FRAME_START_TIME;
		g->col[ib] = GFXSTAT_FI_FRAME_INTERVAL;
	}
	g->b.header_swapped = !g->b.header_swapped;
	x = fi[GFXSTAT_FI_FRAME_INTERVAL];
	fi[GFXSTAT_FI_FRAME_INTERVAL] = fi[GFXSTAT_FI_FRAME_START_TIME];
	fi[GFXSTAT_FI_FRAME_START_TIME] = x;
}

static int grow_rows(struct gfxstat_gfxinfo *g)
{
	size_t max = g->o.max_rows ? g->o.max_rows : DEFAULT_MAX_ROWS, ncap;
	int64_t *r;

	if (g->nrows < g->cap)
		return 0;
	if (g->cap >= max)
		return GFXSTAT_E_LIMIT;
	ncap = g->cap ? g->cap * 2 : 128;
	if (ncap > max)
		ncap = max;
	r = realloc(g->rows, ncap * ROW_W * sizeof(*r));
	if (!r)
		return GFXSTAT_E_NOMEM;
	g->rows = r;
	r = realloc(g->tmp, ncap * sizeof(*r));
	if (!r)
		return GFXSTAT_E_NOMEM;
	g->tmp = r;
	g->cap = ncap;
	return 0;
}

static int pd_row(struct gfxstat_gfxinfo *g, const char *s, size_t n)
{
	int64_t fi[GFXSTAT_FI_COUNT], v;
	const char *p = s, *end = s + n;
	int k, i, rc;

	for (i = 0; i < GFXSTAT_FI_COUNT; i++)
		fi[i] = GFXSTAT_NS_NONE;
	for (k = 0; k < g->ncols; k++) {
		if (p >= end) {
			CNT(g, rows_short);
			return 0;
		}
		if (scan_i64(&p, end, &v) || (p < end && *p != ',')) {
			CNT(g, rows_malformed);
			return 0;
		}
		if (p < end)
			p++;
		if (g->col[k] >= 0)
			fi[g->col[k]] = v;
	}
	if (p != end) {
		CNT(g, rows_malformed);
		return 0;
	}
	if (!g->value_checked)
		check_values(g, fi);
	rc = grow_rows(g);
	if (rc == GFXSTAT_E_LIMIT) {
		CNT(g, rows_over_limit);
		return 0;
	}
	if (rc)
		return rc;
	memcpy(g->rows + g->nrows * ROW_W, fi, sizeof(fi));
	g->nrows++;
	g->b.rows++;
	CNT(g, rows);
	if (fi[GFXSTAT_FI_FLAGS] != 0) {
		g->b.rows_flagged++;
		CNT(g, rows_flagged);
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Summary lines (ProfileData::dump)                                                         */

static int hist_line(struct gfxstat_gfxinfo *g, const char *p, const char *end, int gpu)
{
	struct gfxstat_profile *d = &g->b.dump;
	unsigned nb = gpu ? GFXSTAT_GPU_BUCKETS : GFXSTAT_HIST_BUCKETS, j = 0, tries;
	int64_t label, count;
	int entries = 0;

	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		if (scan_i64(&p, end, &label) || scan_lit(&p, end, "ms=") ||
		    scan_i64(&p, end, &count) || count < 0 || count > UINT32_MAX)
			return -1;
		for (tries = 0; tries < nb; tries++, j = (j + 1) % nb) {
			uint32_t l = gpu ? gfxstat_profile_gpu_bucket_ms(j) :
					   gfxstat_profile_bucket_ms(j);

			if ((int64_t)l == label)
				break;
		}
		if (tries == nb)
			return -1;
		if (gpu)
			d->gpu_hist[j] = (uint32_t)count;
		else
			d->hist[j] = (uint32_t)count;
		entries++;
	}
	if (gpu)
		d->gpu_hist_entries = entries;
	else
		d->hist_entries = entries;
	return 0;
}

/* "N (x.xx%)" or "N" */
static int count_value(const char *p, const char *end, int64_t *out)
{
	return scan_i64(&p, end, out) || *out < 0 ? -1 : 0;
}

static int pct_index(int64_t n)
{
	return n == 50 ? 0 : n == 90 ? 1 : n == 95 ? 2 : n == 99 ? 3 : -1;
}

/* Return: 1 if the line was a summary line, 0 if not; malformed values are counted. */
static int summary_line(struct gfxstat_gfxinfo *g, const char *s, size_t n, int *stop)
{
	const char *p = s, *end = s + n;
	struct gfxstat_profile *d;
	int64_t v;
	int bad = 0, i, known = 0;

	/* cheap filter: every summary line starts with one of these letters or a digit */
	if (!n || !(gx_isdigit(*s) || *s == 'S' || *s == 'T' || *s == 'J' || *s == 'N' ||
		    *s == 'H' || *s == 'G'))
		return 0;
	if (starts(s, n, "Stats since: ") || starts(s, n, "Total frames rendered: ") ||
	    starts(s, n, "Janky frames") || starts(s, n, "Number ") ||
	    starts(s, n, "HISTOGRAM:") || starts(s, n, "GPU HISTOGRAM:") ||
	    starts(s, n, "Note: Data has been filtered!"))
		known = 1;
	else if (gx_isdigit(*s) && (GX_STR_HAS(((struct gfxstat_str){ s, n }), "th percentile: ") ||
				    GX_STR_HAS(((struct gfxstat_str){ s, n }),
					       "th gpu percentile: ")))
		known = 1;
	if (!known)
		return 0;
	/* before any block, or a second summary in one block: a new, unnamed window block */
	if (!g->open || (g->b.has_summary && (starts(s, n, "Stats since: ") ||
					      (starts(s, n, "Total frames rendered: ") &&
					       g->b.dump.total_frames >= 0))))
		*stop = open_block(g, GFXSTAT_BLOCK_WINDOW, "", 0);
	d = &g->b.dump;
	g->b.has_summary = 1;
	d->lines++;
	CNT(g, summary_lines);
	if (!scan_lit(&p, end, "Stats since: ")) {
		bad = scan_i64(&p, end, &v) || scan_lit(&p, end, "ns");
		if (!bad)
			d->stats_since_ns = v;
	} else if (!scan_lit(&p, end, "Total frames rendered: ")) {
		bad = count_value(p, end, &d->total_frames);
	} else if (!scan_lit(&p, end, "Janky frames (legacy): ")) {
		bad = count_value(p, end, &d->janky_legacy);
	} else if (!scan_lit(&p, end, "Janky frames: ")) {
		bad = count_value(p, end, &d->janky_frames);
	} else if (!scan_lit(&p, end, "Number ")) {
		const char *colon = memchr(p, ':', (size_t)(end - p));
		size_t len = colon ? (size_t)(colon - p) : 0;
		int t = -1;

		for (i = 0; colon && i < GFXSTAT_JANK_COUNT; i++) {
			const char *nm = gfxstat_jank_type_name((enum gfxstat_jank_type)i);

			if (strlen(nm) == len && memcmp(nm, p, len) == 0)
				t = i;
		}
		if (colon && len == 9 && memcmp(p, "Slow draw", 9) == 0)
			t = GFXSTAT_JANK_SLOW_RT;
		if (t >= 0) {
			p = colon + 1;
			while (p < end && *p == ' ')
				p++;
			bad = count_value(p, end, &d->jank_counts[t]);
		}
		/* vendor "Number ..." lines are tolerated */
	} else if (!scan_lit(&p, end, "HISTOGRAM:")) {
		bad = hist_line(g, p, end, 0);
	} else if (!scan_lit(&p, end, "GPU HISTOGRAM:")) {
		bad = hist_line(g, p, end, 1);
	} else if (!scan_lit(&p, end, "Note: Data has been filtered!")) {
		d->filtered = 1;
	} else if (!scan_i64(&p, end, &v)) {
		int gpu = !scan_lit(&p, end, "th gpu percentile: ");
		int idx = pct_index(v);

		if (!gpu && scan_lit(&p, end, "th percentile: "))
			bad = 1;
		else if (scan_i64(&p, end, &v) || scan_lit(&p, end, "ms") || v < 0 ||
			 v > INT32_MAX)
			bad = 1;
		else if (idx >= 0 && gpu)
			d->gpu_percentile[idx] = (int32_t)v;
		else if (idx >= 0)
			d->percentile[idx] = (int32_t)v;
	}
	if (bad)
		CNT(g, summary_malformed);
	return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* The legacy "Draw Prepare Process Execute" table                                            */

static int scan_ms(const char **s, const char *end, int64_t *out)
{
	const char *p = *s, *q;
	int neg = 0;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	for (q = p; q < end && (gx_isdigit(*q) || *q == '.'); q++)
		;
	if (q == p || gfxstat_parse_decimal_ns(p, (size_t)(q - p), GFXSTAT_NSEC_PER_MSEC, out))
		return -1;
	if (neg)
		*out = -*out;
	*s = q;
	return 0;
}

/*
 * A row of the table: "\t%3.2f" per stage, in ms. Four stages from Android 5.0 (hwui
 * DrawProfiler.cpp, then FrameInfoVisualizer.cpp: Draw Prepare Process Execute); three in
 * 4.1-4.4, whose Java renderer kept no Prepare stage (core/java/android/view/
 * HardwareRenderer.java, GlRenderer.dumpGfxInfo, PROFILE_FRAME_DATA_COUNT = 3).
 * Return: 1 if it was a table row, 0 if not, <0 to stop
 */
static int table_row(struct gfxstat_gfxinfo *g, const char *s, size_t n)
{
	struct gfxstat_gfxinfo_table_row r;
	const char *p = s, *end = s + n;
	int64_t *v4[4] = { &r.draw_ns, &r.prepare_ns, &r.process_ns, &r.execute_ns };
	int64_t *v3[3] = { &r.draw_ns, &r.process_ns, &r.execute_ns };
	int64_t **v = g->table_cols == 3 ? v3 : v4;
	int i;

	r.prepare_ns = GFXSTAT_NS_NONE;
	for (i = 0; i < (g->table_cols == 3 ? 3 : 4); i++) {
		while (p < end && (*p == '\t' || *p == ' '))
			p++;
		if (scan_ms(&p, end, v[i]))
			return 0;
	}
	while (p < end && (*p == '\t' || *p == ' '))
		p++;
	if (p != end)
		return 0;
	if (g->ntrows == g->tcap) {
		size_t max = g->o.max_rows ? g->o.max_rows : DEFAULT_MAX_ROWS;
		size_t ncap = g->tcap ? g->tcap * 2 : 128;
		struct gfxstat_gfxinfo_table_row *nr;

		if (ncap > max)
			ncap = max;
		if (ncap <= g->tcap) {
			CNT(g, rows_over_limit);
			return 1;
		}
		nr = realloc(g->trows, ncap * sizeof(*nr));
		if (!nr)
			return GFXSTAT_E_NOMEM;
		g->trows = nr;
		g->tcap = ncap;
	}
	g->trows[g->ntrows++] = r;
	g->b.table_rows++;
	g->b.table_columns = g->table_cols;
	/* hwui draws the bar janky over 16 ms (FrameInfoVisualizer.cpp); 4.1-4.4's Java renderer
	 * drew its threshold line at 16 ms too (HardwareRenderer.java, getThreshold()) */
	if (table_sum(&r) > TABLE_JANK_NS)
		g->b.table_janky++;
	CNT(g, table_rows);
	if (g->sink.table_row) {
		g->b.app.p = g->app;
		g->b.app.n = g->app_n;
		g->b.name.p = g->name;
		g->b.name.n = strlen(g->name);
		if (g->sink.table_row(g->sink.user, &g->b, &r))
			return -1;
	}
	return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* Lines                                                                                      */

static int process_header(struct gfxstat_gfxinfo *g, const char *s, size_t n)
{
	const char *p = s + strlen("** Graphics info for pid "), *end = s + n, *lb, *rb;
	int64_t pid;
	int rc = close_block(g);

	CNT(g, processes);
	g->pid = -1;
	g->app_n = 0;
	if (!scan_i64(&p, end, &pid) && pid >= 0 && pid <= INT32_MAX)
		g->pid = (int32_t)pid;
	lb = memchr(p, '[', (size_t)(end - p));
	rb = NULL;
	for (; lb && end > lb; end--)
		if (end[-1] == ']') {
			rb = end - 1;
			break;
		}
	if (lb && rb) {
		copy_name(g->app, lb + 1, (size_t)(rb - lb - 1));
		g->app_n = strlen(g->app);
	}
	if (open_block(g, GFXSTAT_BLOCK_PROCESS, "", 0))
		rc = 1;
	return rc;
}

static int on_line(void *user, const char *s, size_t n)
{
	struct gfxstat_gfxinfo *g = user;
	const char *t, *vis;
	size_t tn;
	int stop = 0, r;

	if (g->stopped)
		return 1;
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	if (g->in_pd) {
		if (n == 17 && memcmp(s, "---PROFILEDATA---", 17) == 0) {
			g->in_pd = 0;
			return 0;
		}
		if (!n)
			return 0;
		if (!g->pd_header) {
			pd_header(g, s, n);
			return 0;
		}
		if (gx_isdigit(s[0]) || s[0] == '-') {
			r = pd_row(g, s, n);
			if (r)
				g->stopped = 1;
			return r ? 1 : 0;
		}
		/* something else: the block was cut off */
		CNT(g, profiledata_unterminated);
		g->in_pd = 0;
	}
	if (!n || s[0] != '\t')
		g->has_title = 0; /* the window line comes right before its table */
	if (!n) {
		g->in_table = 0;
		return 0;
	}
	if (n == 17 && memcmp(s, "---PROFILEDATA---", 17) == 0) {
		if (!g->open || g->b.has_rows)
			stop = open_block(g, GFXSTAT_BLOCK_WINDOW, "", 0);
		g->in_pd = 1;
		g->pd_header = 0;
		g->b.has_rows = 1;
		g->in_table = 0;
		CNT(g, profiledata);
		goto out;
	}
	if (starts(s, n, "Uptime: ")) {
		const char *p = s + 8;
		int64_t ms;

		/* when the dump was taken: ActivityManager's uptimeMillis(), the clock of
		 * "Stats since" (hwui's systemTime(SYSTEM_TIME_MONOTONIC)) */
		if (!scan_i64(&p, s + n, &ms) && ms >= 0 && ms <= INT64_MAX / GFXSTAT_NSEC_PER_MSEC)
			g->uptime_ns = ms * GFXSTAT_NSEC_PER_MSEC;
		goto out;
	}
	if (starts(s, n, "** Graphics info for pid ")) {
		stop = process_header(g, s, n);
		goto out;
	}
	if (starts(s, n, "Window: ") || starts(s, n, "Package: ")) {
		int pkg = s[0] == 'P';

		t = memchr(s, ' ', n) + 1;
		tn = n - (size_t)(t - s);
		if (pkg && g->open && g->b.kind == GFXSTAT_BLOCK_PROCESS && !g->b.has_summary)
			goto out;
		if (g->open && g->from_title && !g->b.has_summary && !g->b.has_rows) {
			copy_name(g->name, t, tn);
			g->from_title = 0;
		} else {
			stop = open_block(g, GFXSTAT_BLOCK_WINDOW, t, tn);
		}
		goto out;
	}
	if (s[0] == '\t') {
		struct gfxstat_str line = { s, n };
		int four;

		t = s;
		while (t < s + n && *t == '\t')
			t++;
		tn = n - (size_t)(t - s);
		four = starts(t, tn, "Draw\tPrepare\tProcess\tExecute");
		if (four || starts(t, tn, "Draw\tProcess\tExecute")) {
			/* 4.1-4.4 name the window on the line before, with no "(visibility=N)" */
			if (!g->open || (g->has_title && g->b.kind == GFXSTAT_BLOCK_PROCESS))
				stop = open_block(g, GFXSTAT_BLOCK_WINDOW, g->title,
						  g->has_title ? strlen(g->title) : 0);
			g->in_table = 1;
			g->table_cols = four ? 4 : 3;
			g->has_title = 0;
			goto out;
		}
		if (g->in_table) {
			r = table_row(g, s, n);
			if (r < 0)
				stop = 1;
			if (r)
				goto out;
			g->in_table = 0;
		}
		if (GX_STR_HAS(line, " (visibility=") && s[n - 1] == ')') {
			for (vis = s + n - 1; vis > t; vis--)
				if (starts(vis, (size_t)(s + n - vis), " (visibility="))
					break;
			stop = open_block(g, GFXSTAT_BLOCK_WINDOW, t, (size_t)(vis - t));
			g->from_title = 1;
			goto out;
		}
		copy_name(g->title, t, tn);
		g->has_title = 1;
		goto out;
	}
	g->in_table = 0;
	summary_line(g, s, n, &stop);
out:
	if (stop)
		g->stopped = 1;
	return stop;
}

/* ---------------------------------------------------------------------------------------- */
/* Feeding                                                                                    */

struct gfxstat_gfxinfo *gfxstat_gfxinfo_new(const struct gfxstat_gfxinfo_opts *o,
					    const struct gfxstat_gfxinfo_sink *sink,
					    struct gfxstat_stats *stats)
{
	struct gfxstat_gfxinfo *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	if (o)
		g->o = *o;
	if (sink)
		g->sink = *sink;
	g->lr = gfxstat_line_reader_new(0, on_line, g, stats);
	g->ubuf = malloc(GX_UTF16_OUT_MAX(UTF16_SLICE));
	if (!g->lr || !g->ubuf) {
		gfxstat_gfxinfo_free(g);
		return NULL;
	}
	g->stream_start = 1;
	g->pid = -1;
	g->uptime_ns = GFXSTAT_NS_NONE;
	gx_utf16_init(&g->u);
	return g;
}

void gfxstat_gfxinfo_free(struct gfxstat_gfxinfo *g)
{
	if (!g)
		return;
	gfxstat_line_reader_free(g->lr);
	free(g->ubuf);
	free(g->rows);
	free(g->tmp);
	free(g->trows);
	free(g);
}

static int pass(struct gfxstat_gfxinfo *g, const uint8_t *p, size_t n)
{
	int rc;

	if (!g->utf16)
		return gfxstat_line_reader_feed(g->lr, p, n);
	while (n) {
		size_t take = n < UTF16_SLICE ? n : UTF16_SLICE;
		size_t k = gx_utf16_feed(&g->u, p, take, g->ubuf);

		rc = gfxstat_line_reader_feed(g->lr, g->ubuf, k);
		if (rc)
			return rc;
		p += take;
		n -= take;
	}
	return 0;
}

int gfxstat_gfxinfo_feed(struct gfxstat_gfxinfo *g, const void *buf, size_t n)
{
	const uint8_t *p = buf;
	int rc;

	if (g->stopped)
		return GFXSTAT_E_ABORTED;
	if (g->stream_start) {
		while (n && g->nsniff < 2) {
			g->sniff[g->nsniff++] = *p++;
			n--;
		}
		if (g->nsniff < 2)
			return 0;
		g->stream_start = 0;
		if (g->sniff[0] == 0xFF && g->sniff[1] == 0xFE) {
			g->utf16 = 1;
			gx_utf16_init(&g->u);
			CNT(g, utf16);
		} else {
			rc = gfxstat_line_reader_feed(g->lr, g->sniff, 2);
			if (rc)
				return rc;
		}
	}
	return pass(g, p, n);
}

int gfxstat_gfxinfo_finish(struct gfxstat_gfxinfo *g)
{
	int rc = 0;

	if (!g->stopped) {
		if (g->stream_start && g->nsniff)
			rc = gfxstat_line_reader_feed(g->lr, g->sniff, (size_t)g->nsniff);
		if (!rc && g->utf16) {
			size_t k = gx_utf16_finish(&g->u, g->ubuf);

			rc = gfxstat_line_reader_feed(g->lr, g->ubuf, k);
		}
		if (!rc)
			rc = gfxstat_line_reader_finish(g->lr);
		if (!rc && close_block(g)) {
			g->stopped = 1;
			rc = GFXSTAT_E_ABORTED;
		}
	}
	if (g->stopped)
		rc = GFXSTAT_E_ABORTED;
	/* ready for a new stream */
	gfxstat_line_reader_finish(g->lr);
	g->open = 0;
	g->in_pd = 0;
	g->in_table = 0;
	g->nrows = 0;
	g->ntrows = 0;
	g->uptime_ns = GFXSTAT_NS_NONE;
	g->stream_start = 1;
	g->nsniff = 0;
	g->utf16 = 0;
	g->pid = -1;
	g->app_n = 0;
	g->app[0] = 0;
	return rc;
}
