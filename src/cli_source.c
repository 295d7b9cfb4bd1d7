/* SPDX-License-Identifier: MIT */
/* Reading one input into the per-frame model, whatever its format. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_source.h"

/* The CLI keeps its own small layer table: names in first-seen order. */
struct name_table {
	char **names;
	size_t n, cap;
};

struct reader {
	struct cli_source *src;
	gfxstat_frame_fn fn;
	void *user;
	struct gfxstat_trace_parser *trace;
	struct gfxstat_sf_frames *sf;
	int detected;
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
	long i = table_find_add(rd->src, frame->layer);
	struct gfxstat_frame copy;
	const struct gfxstat_frame *f = frame;

	if (frame->input < 0 && frame->source == GFXSTAT_SRC_FTRACE) {
		copy = *frame;
		copy.input = gfxstat_causes_input(rd->src->causes, frame);
		f = &copy;
	}

	if (i >= 0) {
		struct cli_layer_stat *st = &rd->src->layer_stat[i];

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

static int feed(void *user, const void *buf, size_t n)
{
	struct reader *rd = user;

	if (!rd->detected) {
		rd->detected = 1;
		rd->src->format = "ftrace text";
	}
	rd->lib_rc = gfxstat_trace_parser_feed(rd->trace, buf, n);
	return rd->lib_rc;
}

static int end_of_file(void *user)
{
	struct reader *rd = user;

	rd->lib_rc = gfxstat_trace_parser_finish(rd->trace);
	if (!rd->lib_rc || rd->lib_rc == GFXSTAT_E_ABORTED)
		rd->lib_rc = gfxstat_sf_frames_finish(rd->sf);
	return rd->lib_rc;
}

int cli_source_read(const char *path, gfxstat_frame_fn fn, void *user, struct cli_source *src)
{
	struct reader rd;
	char *paths[1];
	int rc;

	memset(src, 0, sizeof(*src));
	src->path = path;
	src->format = "empty";
	src->layers = calloc(1, sizeof(struct name_table));
	memset(&rd, 0, sizeof(rd));
	rd.src = src;
	rd.fn = fn;
	rd.user = user;
	rd.sf = gfxstat_sf_frames_new(on_frame, &rd);
	src->causes = gfxstat_causes_new();
	rd.trace = rd.sf && src->causes ? gfxstat_trace_parser_new(on_marker, &rd) : NULL;
	if (!src->layers || !rd.trace) {
		cli_error("out of memory");
		gfxstat_sf_frames_free(rd.sf);
		gfxstat_causes_free(src->causes);
		free(src->layers);
		src->layers = NULL;
		src->causes = NULL;
		return CLI_INPUT;
	}
	paths[0] = (char *)path;
	rc = cli_read_inputs(paths, 1, feed, end_of_file, &rd, &src->bytes);
	src->stats = *gfxstat_trace_parser_stats(rd.trace);
	gfxstat_sf_frames_summary(rd.sf, &src->sf);
	src->have_sf = 1;
	src->interrupted = cli_stop_signal != 0;
	gfxstat_trace_parser_free(rd.trace);
	gfxstat_sf_frames_free(rd.sf);
	if (rc) {
		cli_source_free(src);
		return rc;
	}
	if (rd.lib_rc && rd.lib_rc != GFXSTAT_E_ABORTED) {
		cli_error("%s: %s", path, gfxstat_strerror(rd.lib_rc));
		cli_source_free(src);
		return CLI_INPUT;
	}
	if (src->bytes && !src->stats.v[GFXSTAT_STAT_events]) {
		cli_error("%s: no frame source found (not ftrace text, and no other format this "
			  "build reads)", path);
		cli_source_free(src);
		return CLI_INPUT;
	}
	return CLI_OK;
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
	printf("  format: %s, %llu bytes, %llu lines (%llu events, %llu atrace markers)\n",
	       src->format, src->bytes, (unsigned long long)st->v[GFXSTAT_STAT_lines],
	       (unsigned long long)st->v[GFXSTAT_STAT_events],
	       (unsigned long long)st->v[GFXSTAT_STAT_marker_events]);
	if (!src->have_sf)
		return;
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
	if (sf->latched_unpresented)
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
