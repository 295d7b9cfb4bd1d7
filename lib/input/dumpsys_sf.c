/* SPDX-License-Identifier: MIT */
/*
 * dumpsys SurfaceFlinger --latency <layer>: period line, FrameTracker rows, stitching of
 * successive polls; and the --list layer names.
 */
#include <stdlib.h>
#include <string.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_capture.h" /* gfxstat_shell_unquote() */
#include "gfxstat/gfxstat_sflatency.h"

GX_COUNTER_TABLE(GFXSTAT_SFL_STATS, enum gfxstat_sfl_stat, GFXSTAT_SFL_STAT_COUNT,
		 gfxstat_sfl_stat_name, gfxstat_sfl_stat_doc, gfxstat_sfl_stat_severity)

#define SFL_INC(p, name) SFL_ADD(p, name, 1)
#define SFL_ADD(p, name, k)                                                                \
	do {                                                                               \
		if ((p)->st)                                                               \
			(p)->st->v[GFXSTAT_SFL_STAT_##name] += (k);                        \
	} while (0)

static const char unresponsive[] = "SurfaceFlinger appears to be unresponsive";
/* what `gfxstat record` writes before each poll it keeps (lib/capture/capture_poll.c) */
static const char poll_command[] = "$ dumpsys SurfaceFlinger --latency";

/* ---------------------------------------------------------------------------------------- */
/* Pure parsing                                                                              */

/* Scan a signed decimal int64 at *s (advance on success only). */
static int scan_i64(const char **s, const char *end, int64_t *out)
{
	const char *p = *s;
	int neg = 0;
	uint64_t v = 0, lim;

	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (p == end || !gx_isdigit(*p))
		return -1;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	while (p < end && gx_isdigit(*p)) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (lim - d) / 10)
			return -1;
		v = v * 10 + d;
		p++;
	}
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	*s = p;
	return 0;
}

static const char *skip_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* Up to @max integers separated by blanks, nothing else. Return how many, or -1. */
static int scan_ints(const char *s, size_t n, int64_t *v, int max)
{
	const char *end = s + n;
	int k = 0;

	while (end > s && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	s = skip_blank(s, end);
	while (s < end) {
		if (k == max || scan_i64(&s, end, &v[k]))
			return -1;
		k++;
		if (s < end && *s != ' ' && *s != '\t')
			return -1;
		s = skip_blank(s, end);
	}
	return k;
}

enum gfxstat_parse_res gfxstat_sfl_row_parse(const char *s, size_t n,
					     struct gfxstat_sfl_row *out)
{
	int64_t v[3];
	int k = scan_ints(s, n, v, 3);

	if (k == 0)
		return GFXSTAT_PARSE_UNSUPPORTED;
	if (k != 3)
		return GFXSTAT_PARSE_FAIL;
	out->desired_ns = v[0];
	out->actual_ns = v[1];
	out->ready_ns = v[2];
	return GFXSTAT_PARSE_OK;
}

/* ---------------------------------------------------------------------------------------- */
/* The stream parser                                                                         */

struct gfxstat_sfl {
	struct gfxstat_line_reader *lr;
	struct gfxstat_sfl_sink sink;
	struct gfxstat_sfl_stats *st;
	struct gfxstat_stats lst;   /* the line reader's counters */
	uint64_t too_long_seen;
	char *layer;
	size_t nlayer;
	int named;                  /* the layer was named by record's command line */
	/* the dump being read */
	int in_dump;
	int64_t period;
	int block;                  /* 0 = the first block of the dump */
	int block_has_rows, after_blank;
	struct gfxstat_sfl_row *rows;
	size_t nrows;
	uint64_t dump;              /* index of the dump being read */
	uint64_t ndumps;
	/* stitching */
	int have_last;
	struct gfxstat_sfl_row last; /* the last row passed on (or skipped as invalid) */
	int64_t last_present;       /* for the interval; NONE after a gap */
	size_t pending_tail;        /* rows of the last dump still pending */
	int rc;
};

static int64_t opt_time(int64_t t)
{
	return t == GFXSTAT_SFL_PENDING || t < 0 ? GFXSTAT_NS_NONE : t;
}

static int same_frame(const struct gfxstat_sfl_row *a, const struct gfxstat_sfl_row *b)
{
	return a->desired_ns == b->desired_ns &&
	       (a->ready_ns == b->ready_ns || a->ready_ns == GFXSTAT_SFL_PENDING ||
		b->ready_ns == GFXSTAT_SFL_PENDING);
}

static int emit_frame(struct gfxstat_sfl *p, const struct gfxstat_sfl_row *r)
{
	struct gfxstat_frame f;

	gfxstat_frame_init(&f, GFXSTAT_SRC_SF_LATENCY);
	f.layer.p = p->layer ? p->layer : "";
	f.layer.n = p->nlayer;
	f.present_ns = r->actual_ns;
	f.desired_present_ns = opt_time(r->desired_ns);
	/* frameReadyTime is the buffer's acquire fence (FrameTracker.cpp in frameworks/native
	 * services/surfaceflinger: "desiredPresentTime, actualPresentTime, frameReadyTime"):
	 * when the app's GPU work ended, as FrameTimeline's actual surface end, not a latch */
	f.actual_end_ns = opt_time(r->ready_ns);
	f.vsync_period_ns = p->period > 0 ? p->period : GFXSTAT_NS_NONE;
	if (p->last_present != GFXSTAT_NS_NONE)
		f.interval_ns = r->actual_ns - p->last_present;
	p->last_present = r->actual_ns;
	SFL_INC(p, frames);
	return p->sink.frame && p->sink.frame(p->sink.user, &f) ? GFXSTAT_E_ABORTED : 0;
}

/* The dump is complete: pass on the frames not seen before. */
static int stitch(struct gfxstat_sfl *p)
{
	struct gfxstat_sfl_row *r = p->rows;
	size_t n = 0, i, s = 0, zeros = 0;
	int full, rc = 0;

	if (!p->in_dump)
		return 0;
	p->in_dump = 0;
	for (i = 0; i < p->nrows; i++) {
		if (!r[i].desired_ns && !r[i].actual_ns && !r[i].ready_ns) {
			zeros++;
			continue;
		}
		r[n++] = r[i];
	}
	SFL_ADD(p, empty_rows, zeros);
	if (!p->nrows)
		SFL_INC(p, no_rows);
	full = !zeros && n >= GFXSTAT_SFL_RING_ROWS;
	if (!n)
		return 0;
	p->pending_tail = 0;
	if (p->have_last) {
		size_t j = n;

		while (j > 0 && !same_frame(&r[j - 1], &p->last))
			j--;
		if (j > 0) {
			s = j;
			SFL_ADD(p, overlap_rows, j);
		} else {
			struct gfxstat_sfl_gap g;

			while (s < n && r[s].desired_ns <= p->last.desired_ns)
				s++;
			if (s == n) {
				SFL_INC(p, stale_dumps);
				return 0;
			}
			g.kind = s == 0 && full ? GFXSTAT_SFL_GAP : GFXSTAT_SFL_RESET;
			if (g.kind == GFXSTAT_SFL_GAP)
				SFL_INC(p, gaps);
			else
				SFL_INC(p, resets);
			g.dump = p->dump;
			g.last_present_ns = p->last_present;
			g.next_present_ns = opt_time(r[s].actual_ns);
			g.period_ns = p->period > 0 ? p->period : GFXSTAT_NS_NONE;
			p->last_present = GFXSTAT_NS_NONE;
			if (p->sink.gap && p->sink.gap(p->sink.user, &g))
				return GFXSTAT_E_ABORTED;
		}
	}
	for (i = s; i < n && !rc; i++) {
		if (r[i].actual_ns == GFXSTAT_SFL_PENDING) {
			/* fences signal in order: the rest come with the next dump */
			p->pending_tail = n - i;
			SFL_ADD(p, pending_rows, n - i);
			break;
		}
		p->have_last = 1;
		p->last = r[i];
		if (r[i].actual_ns < 0) {
			SFL_INC(p, invalid_rows);
			p->last_present = GFXSTAT_NS_NONE;
			continue;
		}
		rc = emit_frame(p, &r[i]);
	}
	return rc;
}

/*
 * The layer record's command line names ("$ dumpsys SurfaceFlinger --latency 'NAME'", one word
 * gfxstat_shell_quote() wrote): the capture's frames are that layer's, whatever the file is
 * called. A word that is not such a word leaves the name as it was.
 */
static void name_from_command(struct gfxstat_sfl *p, const char *w, size_t n)
{
	char buf[1024];
	size_t len;
	char *name;

	while (n && (*w == ' ' || *w == '\t')) {
		w++;
		n--;
	}
	while (n && (w[n - 1] == '\r' || w[n - 1] == ' '))
		n--;
	if (!n || gfxstat_shell_unquote(w, n, buf, sizeof(buf), &len) || !len)
		return;
	name = malloc(len + 1);
	if (!name)
		return;
	memcpy(name, buf, len + 1);
	free(p->layer);
	p->layer = name;
	p->nlayer = len;
	p->named = 1;
}

static int on_line(void *user, const char *s, size_t n)
{
	struct gfxstat_sfl *p = user;
	struct gfxstat_sfl_row row;
	int64_t v[3];
	int k;

	if (n >= sizeof(unresponsive) - 1 && memcmp(s, unresponsive, sizeof(unresponsive) - 1) == 0) {
		SFL_INC(p, unresponsive);
		return 0;
	}
	if (n >= sizeof(poll_command) - 1 && memcmp(s, poll_command, sizeof(poll_command) - 1) == 0) {
		/* the next period line starts the dump; the first command names the layer */
		if (!p->named)
			name_from_command(p, s + sizeof(poll_command) - 1,
					  n - (sizeof(poll_command) - 1));
		return 0;
	}
	k = scan_ints(s, n, v, 3);
	if (k == 0) {
		if (p->in_dump && p->block_has_rows)
			p->after_blank = 1;
		return 0;
	}
	if (k == 1) {
		p->rc = stitch(p);
		if (p->rc)
			return 1;
		p->in_dump = 1;
		p->dump = p->ndumps++;
		SFL_INC(p, dumps);
		p->period = v[0];
		/* damage, not a display: its rows keep the period the model has in force */
		if (p->period > GX_PERIOD_LIMIT) {
			SFL_INC(p, bad_period);
			p->period = 0;
		}
		p->nrows = 0;
		p->block = 0;
		p->block_has_rows = 0;
		p->after_blank = 0;
		return 0;
	}
	if (k != 3) {
		SFL_INC(p, malformed);
		return 0;
	}
	row.desired_ns = v[0];
	row.actual_ns = v[1];
	row.ready_ns = v[2];
	SFL_INC(p, rows);
	if (!p->in_dump) {
		SFL_INC(p, rows_without_period);
		return 0;
	}
	if (p->after_blank) {
		p->after_blank = 0;
		p->block++;
		SFL_INC(p, extra_blocks);
	}
	if (p->block)
		return 0;
	p->block_has_rows = 1;
	if (p->nrows == GFXSTAT_SFL_MAX_ROWS) {
		SFL_INC(p, too_many_rows);
		return 0;
	}
	p->rows[p->nrows++] = row;
	return 0;
}

struct gfxstat_sfl *gfxstat_sfl_new(const char *layer, const struct gfxstat_sfl_sink *sink,
				    struct gfxstat_sfl_stats *stats)
{
	struct gfxstat_sfl *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (sink)
		p->sink = *sink;
	p->st = stats;
	p->last_present = GFXSTAT_NS_NONE;
	p->rows = malloc(GFXSTAT_SFL_MAX_ROWS * sizeof(*p->rows));
	p->lr = gfxstat_line_reader_new(4096, on_line, p, &p->lst);
	if (layer) {
		p->nlayer = strlen(layer);
		p->layer = malloc(p->nlayer + 1);
		if (p->layer)
			memcpy(p->layer, layer, p->nlayer + 1);
	}
	if (!p->rows || !p->lr || (layer && !p->layer)) {
		gfxstat_sfl_free(p);
		return NULL;
	}
	return p;
}

void gfxstat_sfl_free(struct gfxstat_sfl *p)
{
	if (!p)
		return;
	gfxstat_line_reader_free(p->lr);
	free(p->rows);
	free(p->layer);
	free(p);
}

static int sync_rc(struct gfxstat_sfl *p, int rc)
{
	uint64_t tl = p->lst.v[GFXSTAT_STAT_line_too_long];

	SFL_ADD(p, line_too_long, tl - p->too_long_seen);
	p->too_long_seen = tl;
	if (p->rc) {
		rc = p->rc;
		p->rc = 0;
	}
	return rc;
}

int gfxstat_sfl_feed(struct gfxstat_sfl *p, const void *buf, size_t n)
{
	if (!p)
		return GFXSTAT_E_INVAL;
	return sync_rc(p, gfxstat_line_reader_feed(p->lr, buf, n));
}

int gfxstat_sfl_end_file(struct gfxstat_sfl *p)
{
	int rc;

	if (!p)
		return GFXSTAT_E_INVAL;
	rc = sync_rc(p, gfxstat_line_reader_finish(p->lr));
	if (rc)
		return rc;
	return stitch(p);
}

int gfxstat_sfl_finish(struct gfxstat_sfl *p)
{
	int rc = gfxstat_sfl_end_file(p);

	if (rc)
		return rc;
	SFL_ADD(p, pending_at_end, p->pending_tail);
	p->pending_tail = 0;
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* --list                                                                                    */

static int has_prefix(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && memcmp(s, lit, k) == 0;
}

static int has_sub(const char *s, size_t n, const char *lit)
{
	struct gfxstat_str str = { s, n };

	return gx_str_has(str, lit, strlen(lit));
}

enum gfxstat_parse_res gfxstat_sflist_line(const char *s, size_t n, struct gfxstat_str *name)
{
	static const char *const fields[] = {
		"parentId=", "relativeParentId=", "mirrorId=", "!handle", "z=", "layerStack=",
	};
	static const char wrap[] = "RequestedLayerState{";

	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (!n)
		return GFXSTAT_PARSE_UNSUPPORTED;
	if (has_prefix(s, n, wrap) && s[n - 1] == '}') {
		int again = 1;

		s += sizeof(wrap) - 1;
		n -= sizeof(wrap) - 1 + 1;
		/* drop the debug fields that follow the name, last first; the name ends in #id */
		while (again && n) {
			size_t sp = n, f, d = n;

			again = 0;
			while (d && gx_isdigit(s[d - 1]))
				d--;
			if (d < n && d && s[d - 1] == '#')
				break;
			while (sp && s[sp - 1] != ' ')
				sp--;
			if (!sp)
				break;
			for (f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
				if (has_prefix(s + sp, n - sp, fields[f])) {
					n = sp - 1;
					again = 1;
					break;
				}
			}
		}
	}
	name->p = s;
	name->n = n;
	return n ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_UNSUPPORTED;
}

int gfxstat_sflist_score(struct gfxstat_str name, const char *pkg)
{
	static const char *const containers[] = {
		"ActivityRecord{", "Task=", "WindowToken", "Surface(name=", "Background for",
		"Dim layer", "Letterbox", "Splash Screen", "animation-leash", "WallpaperWindowToken",
		"ActivityRecordInputSink", "Input Consumer", "Bounds for",
	};
	const char *s = name.p;
	size_t n = name.n, i, k;

	if (!n)
		return 0;
	for (i = 0; i < sizeof(containers) / sizeof(containers[0]); i++)
		if (has_sub(s, n, containers[i]))
			return 0;
	if (pkg && *pkg && !has_sub(s, n, pkg))
		return 0;
	if (has_prefix(s, n, "SurfaceView") || has_sub(s, n, "SurfaceView[") ||
	    has_sub(s, n, "SurfaceView - "))
		return 3;
	if (has_sub(s, n, "(BLAST)"))
		return 2;
	/* "<pkg>/<activity>#N", perhaps after a window hash "1a2b3c4 " */
	k = pkg && *pkg ? strlen(pkg) : 0;
	if (!k)
		return has_sub(s, n, "/") && has_sub(s, n, "#") ? 2 : 1;
	for (i = 0; i + k < n; i++)
		if (memcmp(s + i, pkg, k) == 0 && s[i + k] == '/' && (!i || s[i - 1] == ' '))
			return has_sub(s, n, "#") ? 2 : 1;
	return 1;
}
