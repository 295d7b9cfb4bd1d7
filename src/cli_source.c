/* SPDX-License-Identifier: MIT */
/* Reading one input into the per-frame model, whatever its format. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_source.h"
#include "gfxstat/gfxstat_container.h"
#include "gfxstat/gfxstat_gfxinfo.h"
#include "gfxstat/gfxstat_perfetto.h"
#include "gfxstat/gfxstat_sflatency.h"

/* Bytes of decoded content looked at before choosing the parser. */
#define SNIFF 4096

/* The CLI keeps its own small layer table: names in first-seen order. */
struct name_table {
	char **names;
	size_t n, cap;
};

struct reader {
	struct cli_source *src;
	gfxstat_frame_fn fn;
	void *user;
	struct gfxstat_unwrap *unwrap;
	struct gfxstat_unwrap_stats ustats;
	struct gfxstat_trace_parser *trace;
	struct gfxstat_sf_frames *sf;
	struct gfxstat_perfetto *pf;
	struct gfxstat_gfxinfo *gi;
	struct gfxstat_sfl *sfl;
	struct gfxstat_sfl_stats sflstats;
	int detected;
	char head[SNIFF];
	size_t nhead;
	int lib_rc;
};

static long table_find_add(struct cli_source *src, struct gfxstat_str name)
{
	struct name_table *t = src->layers;
	size_t i;

	/* layers are few (tens); a linear scan keeps this simple */
	for (i = t->n; i-- > 0;)
		if (strlen(t->names[i]) == name.n && memcmp(t->names[i], name.p, name.n) == 0)
			return (long)i;
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 16;
		char **nn = realloc(t->names, nc * sizeof(*nn));
		struct cli_layer_stat *ns = realloc(src->layer_stat, nc * sizeof(*ns));

		if (nn)
			t->names = nn;
		if (ns)
			src->layer_stat = ns;
		if (!nn || !ns)
			return -1;
		t->cap = nc;
	}
	t->names[t->n] = malloc(name.n + 1);
	if (!t->names[t->n])
		return -1;
	memcpy(t->names[t->n], name.p, name.n);
	t->names[t->n][name.n] = 0;
	memset(&src->layer_stat[t->n], 0, sizeof(src->layer_stat[0]));
	src->nlayers = ++t->n;
	return (long)t->n - 1;
}

const char *cli_source_layer_name(const struct cli_source *src, size_t i)
{
	const struct name_table *t = src->layers;

	return i < t->n ? t->names[i] : "?";
}

static int on_frame(void *user, const struct gfxstat_frame *frame)
{
	struct reader *rd = user;
	struct gfxstat_frame copy;
	const struct gfxstat_frame *f = frame;
	long i;

	if ((frame->input < 0 && frame->source == GFXSTAT_SRC_FTRACE) ||
	    (frame->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY && !frame->layer.n)) {
		copy = *frame;
		if (frame->source == GFXSTAT_SRC_FTRACE)
			copy.input = gfxstat_causes_input(rd->src->causes, frame);
		if (frame->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY && !frame->layer.n) {
			/* display frames have no layer: they are the screen's own timeline */
			copy.layer.p = "(display)";
			copy.layer.n = 9;
		}
		f = &copy;
	}
	i = table_find_add(rd->src, f->layer);
	if (i >= 0 && f->present_ns != GFXSTAT_NS_NONE) {
		struct cli_layer_stat *st = &rd->src->layer_stat[i];

		/* sources that do not give the interval (FrameTimeline, --latency) get it here */
		if (f->interval_ns == GFXSTAT_NS_NONE && st->frames &&
		    f->present_ns >= st->last_present) {
			if (f != &copy) {
				copy = *frame;
				f = &copy;
			}
			copy.interval_ns = f->present_ns - st->last_present;
		}
		if (!st->frames)
			st->first_present = f->present_ns;
		st->last_present = f->present_ns;
		st->frames++;
		st->source = f->source;
	}
	return rd->fn ? rd->fn(rd->user, f) : 0;
}

/* Markers go to the frame extractor and to the section tracker that explains late frames. */
static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct reader *rd = user;
	int rc = gfxstat_causes_marker(rd->src->causes, ev, m);

	return rc ? rc : gfxstat_sf_frames_marker(rd->sf, ev, m);
}

/* The parser chosen for the decoded content. */
static int parse(struct reader *rd, const void *buf, size_t n)
{
	if (rd->pf)
		return gfxstat_perfetto_feed(rd->pf, buf, n);
	if (rd->gi)
		return gfxstat_gfxinfo_feed(rd->gi, buf, n);
	if (rd->sfl)
		return gfxstat_sfl_feed(rd->sfl, buf, n);
	return gfxstat_trace_parser_feed(rd->trace, buf, n);
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* Look at the first decoded bytes, pick the parser, then give it what was held back. */
static int decide(struct reader *rd)
{
	enum gfxstat_format f = gfxstat_detect(rd->head, rd->nhead);

	rd->detected = 1;
	rd->src->fmt = (int)f;
	if (f == GFXSTAT_FMT_PERFETTO) {
		struct gfxstat_perfetto_sink ps;

		memset(&ps, 0, sizeof(ps));
		ps.marker = on_marker;
		ps.frame = on_frame;
		ps.user = rd;
		rd->pf = gfxstat_perfetto_new(&ps, &rd->src->stats);
		if (!rd->pf)
			return GFXSTAT_E_NOMEM;
	} else if (f == GFXSTAT_FMT_GFXINFO) {
		struct gfxstat_gfxinfo_sink gs;

		memset(&gs, 0, sizeof(gs));
		gs.frame = on_frame;
		gs.user = rd;
		rd->gi = gfxstat_gfxinfo_new(NULL, &gs, &rd->src->stats);
		if (!rd->gi)
			return GFXSTAT_E_NOMEM;
	} else if (f == GFXSTAT_FMT_SF_LATENCY) {
		struct gfxstat_sfl_sink ls;

		memset(&ls, 0, sizeof(ls));
		ls.frame = on_frame;
		ls.user = rd;
		/* the dump does not name its layer: the file name stands for it */
		rd->sfl = gfxstat_sfl_new(base_name(rd->src->path), &ls, &rd->sflstats);
		if (!rd->sfl)
			return GFXSTAT_E_NOMEM;
	}
	rd->src->format = gfxstat_format_name(f == GFXSTAT_FMT_PERFETTO || f == GFXSTAT_FMT_GFXINFO ||
						      f == GFXSTAT_FMT_SF_LATENCY
					      ? f : GFXSTAT_FMT_FTRACE_TEXT);
	return rd->nhead ? parse(rd, rd->head, rd->nhead) : 0;
}

/* Decoded bytes from the unwrapper. */
static int on_unwrapped(void *user, const void *buf, size_t n)
{
	struct reader *rd = user;

	if (!rd->detected) {
		size_t take = n < SNIFF - rd->nhead ? n : SNIFF - rd->nhead;

		memcpy(rd->head + rd->nhead, buf, take);
		rd->nhead += take;
		if (rd->nhead < SNIFF)
			return 0;
		rd->lib_rc = decide(rd);
		if (rd->lib_rc)
			return rd->lib_rc;
		buf = (const char *)buf + take;
		n -= take;
	}
	rd->lib_rc = n ? parse(rd, buf, n) : 0;
	return rd->lib_rc;
}

static int feed(void *user, const void *buf, size_t n)
{
	struct reader *rd = user;
	int rc = gfxstat_unwrap_feed(rd->unwrap, buf, n);

	return rc ? rc : rd->lib_rc;
}

static int end_of_file(void *user)
{
	struct reader *rd = user;
	int rc = gfxstat_unwrap_finish(rd->unwrap);

	if (!rc && !rd->detected)
		rc = decide(rd);
	if (rc && rc != GFXSTAT_E_ABORTED) {
		rd->lib_rc = rc;
		return rc;
	}
	if (rd->pf)
		rc = gfxstat_perfetto_finish(rd->pf);
	else if (rd->gi)
		rc = gfxstat_gfxinfo_finish(rd->gi);
	else if (rd->sfl)
		rc = gfxstat_sfl_finish(rd->sfl);
	else
		rc = gfxstat_trace_parser_finish(rd->trace);
	if (!rc || rc == GFXSTAT_E_ABORTED)
		rc = gfxstat_sf_frames_finish(rd->sf);
	rd->lib_rc = rc;
	return rc;
}

/* What the chosen parser adds to `inspect`, and its warnings. */
static void summarise(struct reader *rd)
{
	struct cli_source *src = rd->src;
	size_t k;
	int i;

	if (rd->pf) {
		const struct gfxstat_perfetto_summary *ps = gfxstat_perfetto_summary(rd->pf);

		snprintf(src->extra, sizeof(src->extra),
			 "perfetto: %llu packets, %llu ftrace print events; FrameTimeline: %llu "
			 "surface frames (%llu janky), %llu display frames (%llu janky), %llu "
			 "incomplete",
			 (unsigned long long)ps->packets, (unsigned long long)ps->print_events,
			 (unsigned long long)ps->frames_surface, (unsigned long long)ps->janky_surface,
			 (unsigned long long)ps->frames_display, (unsigned long long)ps->janky_display,
			 (unsigned long long)ps->incomplete);
		src->warnings += ps->malformed + ps->truncated + ps->broken + ps->packet_too_big +
				 ps->inflate_failed;
	} else if (rd->gi) {
		const struct gfxstat_gfxinfo_counts *gc = gfxstat_gfxinfo_counts(rd->gi);

		snprintf(src->extra, sizeof(src->extra),
			 "gfxinfo: %llu processes, %llu blocks, %llu framestats rows (%llu with "
			 "non-zero Flags)",
			 (unsigned long long)gc->v[GFXSTAT_GFXINFO_processes],
			 (unsigned long long)gc->v[GFXSTAT_GFXINFO_blocks],
			 (unsigned long long)gc->v[GFXSTAT_GFXINFO_rows],
			 (unsigned long long)gc->v[GFXSTAT_GFXINFO_rows_flagged]);
		for (i = 0; i < GFXSTAT_GFXINFO_COUNT_N; i++) {
			if (!gc->v[i] ||
			    gfxstat_gfxinfo_count_severity((enum gfxstat_gfxinfo_count)i) ==
				    GFXSTAT_SEV_INFO)
				continue;
			cli_warn("%s: %llu %s", src->path, (unsigned long long)gc->v[i],
				 gfxstat_gfxinfo_count_doc((enum gfxstat_gfxinfo_count)i));
		}
	} else if (rd->sfl) {
		const struct gfxstat_sfl_stats *st = &rd->sflstats;

		snprintf(src->extra, sizeof(src->extra),
			 "--latency: %llu dumps, %llu rows, %llu frames",
			 (unsigned long long)st->v[GFXSTAT_SFL_STAT_dumps],
			 (unsigned long long)st->v[GFXSTAT_SFL_STAT_rows],
			 (unsigned long long)st->v[GFXSTAT_SFL_STAT_frames]);
		for (i = 0; i < GFXSTAT_SFL_STAT_COUNT; i++) {
			if (!st->v[i] ||
			    gfxstat_sfl_stat_severity((enum gfxstat_sfl_stat)i) == GFXSTAT_SEV_INFO)
				continue;
			cli_warn("%s: %llu %s", src->path, (unsigned long long)st->v[i],
				 gfxstat_sfl_stat_doc((enum gfxstat_sfl_stat)i));
		}
	}
	for (i = 0; i < GFXSTAT_UNWRAP_STAT_COUNT; i++) {
		if (!rd->ustats.v[i] ||
		    gfxstat_unwrap_stat_severity((enum gfxstat_unwrap_stat)i) == GFXSTAT_SEV_INFO)
			continue;
		cli_warn("%s: %llu %s", src->path, (unsigned long long)rd->ustats.v[i],
			 gfxstat_unwrap_stat_doc((enum gfxstat_unwrap_stat)i));
		src->warnings += rd->ustats.v[i];
	}
	{
		enum gfxstat_format lay[GFXSTAT_UNWRAP_MAX_DEPTH + 1];
		int nl = gfxstat_unwrap_layers(rd->unwrap, lay, GFXSTAT_UNWRAP_MAX_DEPTH + 1);
		size_t off = 0;

		src->layers_desc[0] = 0;
		for (k = 0; k < (size_t)nl && off < sizeof(src->layers_desc); k++)
			off += (size_t)snprintf(src->layers_desc + off,
						sizeof(src->layers_desc) - off, "%s%s",
						k ? " > " : "", gfxstat_format_name(lay[k]));
	}
}

static void reader_free(struct reader *rd)
{
	gfxstat_unwrap_free(rd->unwrap);
	gfxstat_trace_parser_free(rd->trace);
	gfxstat_sf_frames_free(rd->sf);
	gfxstat_perfetto_free(rd->pf);
	gfxstat_gfxinfo_free(rd->gi);
	gfxstat_sfl_free(rd->sfl);
}

int cli_source_read(const char *path, gfxstat_frame_fn fn, void *user, struct cli_source *src)
{
	struct reader *rd = calloc(1, sizeof(*rd));
	char *paths[1];
	int rc;

	memset(src, 0, sizeof(*src));
	src->path = path;
	src->format = "empty";
	src->layers = calloc(1, sizeof(struct name_table));
	src->causes = gfxstat_causes_new();
	if (rd) {
		rd->src = src;
		rd->fn = fn;
		rd->user = user;
		rd->sf = gfxstat_sf_frames_new(on_frame, rd);
		rd->trace = rd->sf ? gfxstat_trace_parser_new(on_marker, rd) : NULL;
		rd->unwrap = gfxstat_unwrap_new(on_unwrapped, rd, &rd->ustats);
	}
	if (!rd || !src->layers || !src->causes || !rd->trace || !rd->unwrap) {
		cli_error("out of memory");
		if (rd)
			reader_free(rd);
		free(rd);
		cli_source_free(src);
		return CLI_INPUT;
	}
	paths[0] = (char *)path;
	rc = cli_read_inputs(paths, 1, feed, end_of_file, rd, &src->bytes);
	if (!rd->pf && !rd->gi && !rd->sfl)
		src->stats = *gfxstat_trace_parser_stats(rd->trace);
	gfxstat_sf_frames_summary(rd->sf, &src->sf);
	src->have_sf = !rd->gi && !rd->sfl;
	src->interrupted = cli_stop_signal != 0;
	summarise(rd);
	if (!rc && rd->lib_rc && rd->lib_rc != GFXSTAT_E_ABORTED) {
		cli_error("%s: %s", path, gfxstat_strerror(rd->lib_rc));
		rc = CLI_INPUT;
	}
	if (!rc && src->bytes && !src->nlayers && !rd->pf && !rd->gi && !rd->sfl &&
	    !src->stats.v[GFXSTAT_STAT_events]) {
		cli_error("%s: no frame source found (%s is not ftrace text, Perfetto, dumpsys "
			  "gfxinfo or SurfaceFlinger --latency)", path,
			  src->layers_desc[0] ? src->layers_desc : "it");
		rc = CLI_INPUT;
	}
	reader_free(rd);
	free(rd);
	if (rc)
		cli_source_free(src);
	return rc;
}

void cli_source_free(struct cli_source *src)
{
	struct name_table *t = src->layers;
	size_t i;

	if (t) {
		for (i = 0; i < t->n; i++)
			free(t->names[i]);
		free(t->names);
		free(t);
	}
	free(src->layer_stat);
	gfxstat_causes_free(src->causes);
	src->causes = NULL;
	src->layers = NULL;
	src->layer_stat = NULL;
	src->nlayers = 0;
}

/* The Android version the SurfaceFlinger markers point to (FORMATS.md quick reference). */
static const char *era(const struct gfxstat_sf_summary *s)
{
	uint32_t m = s->markers_seen;

	if (m & GFXSTAT_SF_SEEN_PRESENT_AND_RELEASE)
		return "Android 14 QPR2 or later (presentFrameAndReleaseLayers)";
	if (m & GFXSTAT_SF_SEEN_POSTFRAMEBUFFER_FOR)
		return "Android 14 (postFramebuffer for <display>)";
	if (m & GFXSTAT_SF_SEEN_COMMIT_COMPOSITE)
		return "Android 13-14 (commit/composite)";
	if (m & (GFXSTAT_SF_SEEN_ON_MESSAGE_REFRESH | GFXSTAT_SF_SEEN_ON_MESSAGE_INVALIDATE)) {
		if (m & (GFXSTAT_SF_SEEN_BUFFER_TX | GFXSTAT_SF_SEEN_VSYNC_APPSF))
			return "Android 12 (onMessageRefresh, BLAST)";
		return "Android 11 (onMessageInvalidate/onMessageRefresh)";
	}
	if (m & GFXSTAT_SF_SEEN_HANDLE_MESSAGE_REFRESH) {
		if (m & GFXSTAT_SF_SEEN_HW_VSYNC_ID)
			return "Android 10 (handleMessageRefresh, HW_VSYNC_<display id>)";
		if (m & GFXSTAT_SF_SEEN_TX)
			return "Android 8.1-9 (handleMessageRefresh, TX - counters)";
		return "Android 7-9 (handleMessageRefresh)";
	}
	if (m & GFXSTAT_SF_SEEN_VSYNC_LEGACY)
		return "Android 4.x (a single VSYNC counter)";
	if (m & GFXSTAT_SF_SEEN_POSTFRAMEBUFFER)
		return "Android 9 or earlier (postFramebuffer)";
	return NULL;
}

static void print_ts(int64_t ns)
{
	printf("%lld.%06lld", (long long)(ns / GFXSTAT_NSEC_PER_SEC),
	       (long long)(ns % GFXSTAT_NSEC_PER_SEC / 1000));
}

void cli_source_report(const struct cli_source *src, int verbose)
{
	const struct gfxstat_stats *st = &src->stats;
	const struct gfxstat_sf_summary *sf = &src->sf;
	size_t i;
	int k;

	for (k = 0; k < GFXSTAT_STAT_COUNT; k++) {
		if (!st->v[k] || gfxstat_stat_severity((enum gfxstat_stat)k) == GFXSTAT_SEV_INFO)
			continue;
		cli_warn("%s: %llu %s", src->path, (unsigned long long)st->v[k],
			 gfxstat_stat_doc((enum gfxstat_stat)k));
	}
	if (!verbose)
		return;
	printf("%s\n", src->path);
	printf("  format: %s (%s), %llu bytes", src->format,
	       src->layers_desc[0] ? src->layers_desc : "?", src->bytes);
	if (st->v[GFXSTAT_STAT_lines])
		printf(", %llu lines (%llu events, %llu atrace markers)",
		       (unsigned long long)st->v[GFXSTAT_STAT_lines],
		       (unsigned long long)st->v[GFXSTAT_STAT_events],
		       (unsigned long long)st->v[GFXSTAT_STAT_marker_events]);
	printf("\n");
	if (src->extra[0])
		printf("  %s\n", src->extra);
	if (!src->have_sf)
		goto layers;
	printf("  android: %s\n", era(sf) ? era(sf) : "unknown (no SurfaceFlinger markers)");
	if (sf->first_ts != GFXSTAT_NS_NONE) {
		printf("  span: ");
		print_ts(sf->first_ts);
		printf(" .. ");
		print_ts(sf->last_ts);
		printf(" s (%.3f s of markers)\n", (double)(sf->last_ts - sf->first_ts) / 1e9);
	}
	if (sf->sf_pid < 0) {
		printf("  surfaceflinger: not found (no VSYNC counters): no frames from this trace\n");
	} else {
		printf("  surfaceflinger: pid %d, main thread %d, %llu refreshes with new frames\n",
		       sf->sf_pid, sf->sf_main_tid, (unsigned long long)sf->refreshes);
		for (i = 0; i < sf->nmodes; i++) {
			printf("  refresh rate: %.1f Hz (%.3f ms) from ",
			       1e9 / (double)sf->modes[i].period_ns,
			       (double)sf->modes[i].period_ns / 1e6);
			print_ts(sf->modes[i].from_ns);
			printf(" s\n");
		}
		if (!sf->nmodes)
			printf("  refresh rate: unknown (too few VSYNC toggles); 60 Hz assumed\n");
	}
layers:
	printf("  layers: %zu\n", src->nlayers);
	for (i = 0; i < src->nlayers; i++) {
		const struct cli_layer_stat *l = &src->layer_stat[i];
		double span = (double)(l->last_present - l->first_present) / 1e9;

		printf("    %6llu frames", (unsigned long long)l->frames);
		if (l->frames > 1 && span > 0)
			printf("  %6.1f fps over %.2f s", (double)(l->frames - 1) / span, span);
		else
			printf("  %26s", "");
		printf("  %s\n", cli_source_layer_name(src, i));
	}
	if (src->have_sf && sf->latched_unpresented)
		printf("  latched at the end but never presented: %llu\n",
		       (unsigned long long)sf->latched_unpresented);
	{
		int any = 0;

		for (k = 0; k < GFXSTAT_STAT_COUNT; k++) {
			if (!st->v[k] ||
			    gfxstat_stat_severity((enum gfxstat_stat)k) == GFXSTAT_SEV_INFO)
				continue;
			if (!any)
				printf("  skipped:\n");
			any = 1;
			printf("    %llu %s\n", (unsigned long long)st->v[k],
			       gfxstat_stat_doc((enum gfxstat_stat)k));
		}
		if (!any)
			printf("  skipped: nothing\n");
	}
}
