/* SPDX-License-Identifier: MIT */
/* Reading one input file through the library's entry point (gfxstat_source.h), and inspect. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_source.h"
#include "cli_system.h"
#include "gfxstat/gfxstat_source.h"

/* A count of input lines or events skipped (-q: none of these, as --help says; the damage
 * that stops a read is still said). */
static void count_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void count_warn(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (cli_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cli_warn("%s", buf);
}

/*
 * Every input of one run is one recording (gfxstat_source.h): one model across them, so a
 * surface keeps its identity and its presents keep increasing from one input to the next.
 */
/* an input was refused as overlapping an earlier one: the run's inputs are wrong, and
 * no file of it is written (cli_source_refused()) */
static int refused;

static struct gfxstat_source *recording;
static gfxstat_frame_fn current_fn;
static void *current_user;

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	(void)user;
	return current_fn ? current_fn(current_user, f) : 0;
}

static gfxstat_marker_fn current_marker; /* cli_source_read_all() */

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	(void)user;
	return current_marker ? current_marker(current_user, ev, m) : 0;
}

static void forget_inputs(void);

void cli_source_end_recording(void)
{
	gfxstat_source_free(recording);
	recording = NULL;
	forget_inputs();
	refused = 0;
}

static unsigned source_flags;

void cli_source_no_causes(void)
{
	source_flags |= GFXSTAT_SOURCE_NO_CAUSES;
}

void cli_source_thread_states(void)
{
	source_flags |= GFXSTAT_SOURCE_THREAD_STATES;
}

static int64_t sys_window;

void cli_source_system(int64_t window_ns)
{
	source_flags |= GFXSTAT_SOURCE_SYSTEM;
	sys_window = window_ns;
}

void cli_source_system_report(const struct cli_source *src, FILE *o, int json)
{
	const struct gfxstat_sysctx_counts *c = src->sys ? gfxstat_sysctx_counts(src->sys) : NULL;
	int k, pass, n;

	if (json) {
		cli_system_json(o, src->sys, 0);
		return;
	}
	if (!c)
		return;
	/* pass 0: what it holds (with counts), pass 1: what it lacks */
	for (pass = 0; pass < 2; pass++) {
		n = 0;
		fputs(pass ? "  system events absent:" : "  system events:", o);
		for (k = 1; k < GFXSTAT_SCHED_KIND_COUNT + GFXSTAT_COUNTER_KIND_COUNT - 1; k++) {
			int sched = k < GFXSTAT_SCHED_KIND_COUNT;
			int ck = k - GFXSTAT_SCHED_KIND_COUNT + 1;
			uint64_t v = sched ? c->sched[k] : c->counter[ck];
			const char *name = sched ? gfxstat_sysctx_sched_name((enum gfxstat_sched_kind)k)
						 : gfxstat_counter_kind_name((enum gfxstat_counter_kind)ck);

			/* binder_reply is a kernel's alternative to binder_transaction's reply flag */
			if ((pass == 0) != (v > 0) || (pass && k == GFXSTAT_SCHED_BINDER_REPLY))
				continue;
			if (pass)
				fprintf(o, "%s %s", n ? "," : "", name);
			else
				fprintf(o, "%s %s %llu", n ? "," : "", name, (unsigned long long)v);
			n++;
		}
		fputs(n ? "\n" : " none\n", o);
	}
	if (c->cpus)
		fprintf(o, "  system series: %llu CPUs in %llu frequency clusters, %zu series per "
			"window\n", (unsigned long long)c->cpus, (unsigned long long)c->clusters,
			gfxstat_sysctx_nseries(src->sys));
}

static struct gfxstat_source *the_recording(void)
{
	static int registered;

	if (!recording) {
		struct gfxstat_source_sink sink = { on_frame, on_marker, NULL, source_flags };

		recording = gfxstat_source_new(&sink);
		if (recording) {
			gfxstat_source_set_sys_window(recording, sys_window);
			gfxstat_source_set_tmpdir(recording, cli_tmpdir());
			gfxstat_source_set_threads(recording, cli_threads());
		}
		if (recording && !registered)
			registered = !atexit(cli_source_end_recording);
	}
	return recording;
}

static const struct gfxstat_model *model(void)
{
	return gfxstat_source_model(recording);
}

const struct gfxstat_model_layer *cli_source_layer(const struct cli_source *src, size_t i)
{
	(void)src;
	return gfxstat_model_layer(model(), i);
}

static int feed(void *user, const void *buf, size_t n)
{
	return gfxstat_source_feed(user, buf, n);
}

static int end_of_file(void *user)
{
	return gfxstat_source_end(user);
}

/* What the chosen parser adds to `inspect`, and its warnings. */
static void summarise(struct cli_source *src, const struct gfxstat_source_summary *sum)
{
	int i;

	src->warnings = sum->damaged;
	if (sum->have_perfetto) {
		const struct gfxstat_perfetto_summary *ps = &sum->perfetto;

		snprintf(src->extra, sizeof(src->extra),
			 "perfetto: %llu packets, %llu ftrace print events; FrameTimeline: %llu "
			 "surface frames (%llu janky), %llu display frames (%llu janky), %llu "
			 "incomplete",
			 (unsigned long long)ps->packets, (unsigned long long)ps->print_events,
			 (unsigned long long)ps->frames_surface, (unsigned long long)ps->janky_surface,
			 (unsigned long long)ps->frames_display, (unsigned long long)ps->janky_display,
			 (unsigned long long)ps->incomplete);
		if (sum->held_to_file) { /* a long capture: where its frames waited */
			char b[32];
			size_t n = strlen(src->extra);

			snprintf(src->extra + n, sizeof(src->extra) - n, "; held to the end: %s in "
				 "a temporary file", cli_bytes(sum->held_to_file, b, sizeof(b)));
		}
		if (ps->build[0])
			snprintf(src->android, sizeof(src->android), "Android %s%s(%s)",
				 ps->release[0] ? ps->release : "?", ps->sdk ? "" : " ", ps->build);
		/* the same warnings as perfetto-dump's, so every command reports damage alike */
		if (ps->truncated)
			cli_warn("%s: the last packet is cut short (a truncated trace)", src->path);
		if (ps->broken)
			cli_warn("%s: the stream could not be followed after %llu packets; the rest "
				 "was ignored", src->path, (unsigned long long)ps->packets);
		if (ps->inflate_failed)
			cli_warn("%s: %llu compressed packets could not be inflated", src->path,
				 (unsigned long long)ps->inflate_failed);
		if (ps->build[0] && ps->sdk)
			snprintf(src->android, sizeof(src->android), "Android %s, SDK %d (%s)",
				 ps->release[0] ? ps->release : "?", (int)ps->sdk, ps->build);
	} else if (sum->have_gfxinfo) {
		const struct gfxstat_gfxinfo_counts *gc = &sum->gfxinfo;

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
			count_warn("%s: %llu %s", src->path, (unsigned long long)gc->v[i],
				 gfxstat_gfxinfo_count_doc((enum gfxstat_gfxinfo_count)i));
		}
	} else if (sum->have_sfl) {
		const struct gfxstat_sfl_stats *st = &sum->sfl;

		snprintf(src->extra, sizeof(src->extra),
			 "--latency: %llu dumps, %llu rows, %llu frames",
			 (unsigned long long)st->v[GFXSTAT_SFL_STAT_dumps],
			 (unsigned long long)st->v[GFXSTAT_SFL_STAT_rows],
			 (unsigned long long)st->v[GFXSTAT_SFL_STAT_frames]);
		for (i = 0; i < GFXSTAT_SFL_STAT_COUNT; i++) {
			if (!st->v[i] ||
			    gfxstat_sfl_stat_severity((enum gfxstat_sfl_stat)i) == GFXSTAT_SEV_INFO)
				continue;
			count_warn("%s: %llu %s", src->path, (unsigned long long)st->v[i],
				 gfxstat_sfl_stat_doc((enum gfxstat_sfl_stat)i));
		}
	}
	for (i = 0; i < GFXSTAT_UNWRAP_STAT_COUNT; i++) {
		if (!sum->unwrap.v[i] ||
		    gfxstat_unwrap_stat_severity((enum gfxstat_unwrap_stat)i) == GFXSTAT_SEV_INFO)
			continue;
		count_warn("%s: %llu %s", src->path, (unsigned long long)sum->unwrap.v[i],
			 gfxstat_unwrap_stat_doc((enum gfxstat_unwrap_stat)i));
	}
	snprintf(src->layers_desc, sizeof(src->layers_desc), "%s", sum->containers);
}

/* Earlier inputs of this recording, to read a file given twice only once. */
static struct seen_input {
	char *path;
	off_t size;
} *seen;
static size_t nseen;

static int same_bytes(const char *a, const char *b, off_t size)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	static char ba[1 << 16], bb[1 << 16];
	int same = fa && fb;
	off_t left = size;

	while (same && left > 0) {
		size_t want = left < (off_t)sizeof(ba) ? (size_t)left : sizeof(ba);

		same = fread(ba, 1, want, fa) == want && fread(bb, 1, want, fb) == want &&
		       memcmp(ba, bb, want) == 0;
		left -= (off_t)want;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* The earlier input @path repeats byte for byte, or NULL; remembers @path. */
static const char *repeated_input(const char *path)
{
	struct stat st;
	struct seen_input *ns;
	size_t i;

	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	for (i = 0; i < nseen; i++)
		if (seen[i].size == st.st_size && same_bytes(seen[i].path, path, st.st_size))
			return seen[i].path;
	ns = realloc(seen, (nseen + 1) * sizeof(*seen));
	if (!ns)
		return NULL;
	seen = ns;
	seen[nseen].path = strdup(path);
	seen[nseen].size = st.st_size;
	if (seen[nseen].path)
		nseen++;
	return NULL;
}

static void forget_inputs(void)
{
	size_t i;

	for (i = 0; i < nseen; i++)
		free(seen[i].path);
	free(seen);
	seen = NULL;
	nseen = 0;
}

static void print_s(char *buf, size_t cap, int64_t ns)
{
	snprintf(buf, cap, "%lld.%06lld s", (long long)(ns / GFXSTAT_NSEC_PER_SEC),
		 (long long)(ns % GFXSTAT_NSEC_PER_SEC / 1000));
}

int cli_source_read(const char *path, gfxstat_frame_fn fn, void *user, struct cli_source *src)
{
	const struct gfxstat_source_summary *sum;
	const char *again;
	char *paths[1];
	int64_t end, at;
	int rc, lrc;

	memset(src, 0, sizeof(*src));
	src->path = path;
	src->format = "empty";
	if (!the_recording()) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	again = repeated_input(path);
	if (again) {
		cli_warn("%s: the same bytes as %s: read once", path, again);
		gfxstat_model_count(gfxstat_source_model_mut(recording),
				    GFXSTAT_MODEL_identical_inputs);
		src->format = "repeated";
		return CLI_OK;
	}
	if (gfxstat_source_begin(recording, path)) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	current_fn = fn;
	current_user = user;
	src->causes = gfxstat_source_causes(recording);
	paths[0] = (char *)path;
	rc = cli_read_inputs(paths, 1, feed, end_of_file, recording, &src->bytes);
	lrc = rc ? 0 : gfxstat_source_last_error(recording);
	current_fn = NULL;
	sum = gfxstat_source_summary(recording);
	src->summary = sum;
	src->format = sum->format;
	src->fmt = (int)sum->fmt;
	src->stats = sum->stats;
	src->sf = sum->sf;
	src->have_sf = sum->have_sf;
	src->have_app = sum->have_app;
	src->model = sum->model;
	src->sys = gfxstat_source_sysctx(recording);
	src->nlayers = gfxstat_model_layer_count(model());
	src->interrupted = cli_stop_signal != 0;
	summarise(src, sum);
	if (!rc && gfxstat_model_overlap(model(), &end, &at)) {
		char a[64], b[64];

		print_s(a, sizeof(a), at);
		print_s(b, sizeof(b), end);
		cli_error("%s: overlaps an earlier input in time (a frame at %s, before the earlier "
			  "input ends at %s): the inputs of one run must be one recording in time "
			  "order; give other recordings to separate runs", path, a, b);
		rc = CLI_INPUT;
		refused = 1;
	} else if (lrc && lrc != GFXSTAT_E_ABORTED) {
		cli_error("%s: %s", path, gfxstat_strerror(lrc));
		rc = CLI_INPUT;
	}
	if (!rc && !src->bytes && !src->interrupted) {
		rc = cli_empty_input(path);
	} else if (!rc && !src->model.v[GFXSTAT_MODEL_frames_in] && !sum->have_perfetto &&
		   !sum->have_gfxinfo && !sum->have_sfl && !src->stats.v[GFXSTAT_STAT_events]) {
		if (strstr(src->layers_desc, "sf-list"))
			cli_error("%s: a 'dumpsys SurfaceFlinger --list' (layer names, no frames): "
				  "'gfxstat latency --layers %s' lists them, and 'dumpsys "
				  "SurfaceFlinger --latency LAYER' gives a layer's frames", path, path);
		else /* what was read and what it looked like, not a verdict it contradicts */
			cli_error("%s: no frame source found: read as %s, %llu lines, none an ftrace "
				  "event, and not Perfetto, dumpsys gfxinfo or SurfaceFlinger "
				  "--latency%s", path, src->layers_desc[0] ? src->layers_desc : "text",
				  (unsigned long long)src->stats.v[GFXSTAT_STAT_lines],
				  sum->unwrap.v[GFXSTAT_UNWRAP_STAT_text_nul]
					  ? "; it holds NUL bytes: UTF-16 without a byte-order mark "
					    "and not ASCII? ('iconv -f UTF-16LE -t UTF-8' converts it)"
				  : sum->unwrap.v[GFXSTAT_UNWRAP_STAT_cr_line_ends]
					  ? " (its lines end in CR only)" : "");
		rc = CLI_INPUT;
	}
	if (rc)
		cli_source_free(src);
	return rc;
}

int cli_source_read_all(const char *path, gfxstat_frame_fn fn, gfxstat_marker_fn marker_fn,
			void *user, struct cli_source *src)
{
	int rc;

	current_marker = marker_fn;
	rc = cli_source_read(path, fn, user, src);
	current_marker = NULL;
	return rc;
}

void cli_source_free(struct cli_source *src)
{
	src->causes = NULL; /* the recording's, valid until the next input */
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
		count_warn("%s: %llu %s", src->path, (unsigned long long)st->v[k],
			 gfxstat_stat_doc((enum gfxstat_stat)k));
	}
	for (k = 0; k < GFXSTAT_MODEL_STAT_COUNT; k++) {
		if (!src->model.v[k] || k == GFXSTAT_MODEL_identical_inputs ||
		    gfxstat_model_stat_severity((enum gfxstat_model_stat)k) == GFXSTAT_SEV_INFO)
			continue;
		count_warn("%s: %llu %s", src->path, (unsigned long long)src->model.v[k],
			 gfxstat_model_stat_doc((enum gfxstat_model_stat)k));
	}
	if (src->have_sf && sf->over_limit)
		cli_warn("%s: %llu SurfaceFlinger counter events of names past the table's limit, "
			 "not read (more distinct layers than gfxstat keeps)", src->path,
			 (unsigned long long)sf->over_limit);
	if (src->have_sf && sf->nonincreasing)
		cli_warn("%s: %llu frames whose present was not after their layer's previous one, "
			 "dropped%s", src->path, (unsigned long long)sf->nonincreasing,
			 sf->time_jumps ? " (the trace's clock went back: are two captures glued "
					  "together? give them as separate inputs in time order)" : "");
	if (!verbose)
		return;
	/* names from the input are shown, never sent raw to the terminal */
	printf("%s\n", cli_shown(src->path));
	printf("  format: %s (%s), %llu bytes", src->format,
	       src->layers_desc[0] ? src->layers_desc : "?", src->bytes);
	if (st->v[GFXSTAT_STAT_lines])
		printf(", %llu lines (%llu events, %llu atrace markers)",
		       (unsigned long long)st->v[GFXSTAT_STAT_lines],
		       (unsigned long long)st->v[GFXSTAT_STAT_events],
		       (unsigned long long)st->v[GFXSTAT_STAT_marker_events]);
	printf("\n");
	if (src->extra[0])
		printf("  %s\n", cli_shown(src->extra));
	cli_source_system_report(src, stdout, 0);
	if (!src->have_sf)
		goto layers;
	if (src->android[0])
		printf("  android: %s%s%s%s\n", cli_shown(src->android), era(sf) ? "; markers of " : "",
		       era(sf) ? era(sf) : "", "");
	else
		printf("  android: %s\n", era(sf) ? era(sf) : "unknown (no SurfaceFlinger markers)");
	if (sf->first_ts != GFXSTAT_NS_NONE) {
		printf("  span: ");
		print_ts(sf->first_ts);
		printf(" .. ");
		print_ts(sf->last_ts);
		printf(" s (%.3f s of markers)\n", (double)(sf->last_ts - sf->first_ts) / 1e9);
	}
	if (sf->sf_pid < 0) {
		printf("  surfaceflinger: no VSYNC counters: no frames from its markers%s\n",
		       src->have_app ? "; the frames below are the app's own (Choreographer#doFrame "
				       "and DrawFrame): rendered, not proven presented"
		       : src->model.v[GFXSTAT_MODEL_frames_out] && src->fmt == GFXSTAT_FMT_PERFETTO
		       ? "; the frames below are FrameTimeline's"
		       : src->model.v[GFXSTAT_MODEL_frames_out] ? " (the frames below come from "
								  "the source's own timeline)" : "");
	} else {
		printf("  surfaceflinger: pid %d, ", sf->sf_pid);
		if (sf->sf_main_tid >= 0)
			printf("main thread %d, ", sf->sf_main_tid);
		else
			printf("main thread unknown (no composition marker), ");
		printf("%llu refreshes with new frames\n", (unsigned long long)sf->refreshes);
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
	{
		size_t n = 0;

		for (i = 0; i < src->nlayers; i++)
			n += cli_source_layer(src, i)->frames > 0;
		printf("  layers: %zu\n", n);
	}
	for (i = 0; i < src->nlayers; i++) {
		const struct gfxstat_model_layer *l = cli_source_layer(src, i);
		double span = (double)(l->last_present - l->first_present) / 1e9;

		if (!l->frames)
			continue;
		printf("    %6llu frames", (unsigned long long)l->frames);
		/* FPS while drawing (idle waits left out, as analyze's), over the span shown */
		if (l->active_intervals && l->active_ns > 0)
			printf("  %6.1f fps over %8.2f s", (double)l->active_intervals * 1e9 /
							     (double)l->active_ns, span);
		else if (l->first_present == GFXSTAT_NS_NONE)
			printf("  %-29s", "(no present times)");
		else
			printf("  %29s", "");
		printf("  %s", cli_shown(l->name));
		if (l->app[0] && !strstr(l->name, l->app))
			printf("  [%s]", cli_shown(l->app));
		printf("\n");
	}
	if (src->model.v[GFXSTAT_MODEL_markers_compared])
		printf("  self-check: FrameTimeline has %llu of the %llu frames SurfaceFlinger's "
		       "markers show (%llu compared by vsync id, %llu by time within one vsync); "
		       "FrameTimeline's are the ones listed\n",
		       (unsigned long long)src->model.v[GFXSTAT_MODEL_markers_agree],
		       (unsigned long long)src->model.v[GFXSTAT_MODEL_markers_compared],
		       (unsigned long long)src->model.v[GFXSTAT_MODEL_markers_by_token],
		       (unsigned long long)(src->model.v[GFXSTAT_MODEL_markers_compared] -
					    src->model.v[GFXSTAT_MODEL_markers_by_token]));
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

/* Up to @max names of the recording's layers (or their apps, with @apps), quoted. */
static void list_names(char *buf, size_t cap, int apps, size_t max)
{
	size_t n = recording ? gfxstat_model_layer_count(model()) : 0, i, j, shown = 0, o = 0;

	buf[0] = 0;
	for (i = 0; i < n && o + 1 < cap; i++) {
		const char *name = apps ? gfxstat_model_layer(model(), i)->app
					: gfxstat_model_layer(model(), i)->name;
		int dup = !*name;

		for (j = 0; apps && !dup && j < i; j++)
			dup = !strcmp(gfxstat_model_layer(model(), j)->app, name);
		if (dup)
			continue;
		if (shown++ == max) {
			snprintf(buf + o, cap - o, ", ...");
			break;
		}
		o += (size_t)snprintf(buf + o, cap - o, "%s'%s'", o ? ", " : "", name);
		if (o >= cap)
			o = cap - 1;
	}
}

int cli_source_no_frames(const struct cli_source *last, const char *layer, const char *app)
{
	size_t n = recording ? gfxstat_model_layer_count(model()) : 0;
	char names[600], apps[600];

	list_names(names, sizeof(names), 0, 6);
	list_names(apps, sizeof(apps), 1, 6);
	if (n && (layer || app)) {
		cli_error("no frame matches%s%s%s%s%s%s; the input has %zu layer%s: %s%s%s", layer ?
			  " --layer '" : "", layer ? layer : "", layer ? "'" : "",
			  app ? " --app '" : "", app ? app : "", app ? "'" : "", n, n == 1 ? "" : "s",
			  names, apps[0] ? "; apps: " : "; no layer names its app", apps);
	} else if (!last) {
		cli_error("no frames: no input could be read");
	} else if (last->model.v[GFXSTAT_MODEL_out_of_range]) {
		cli_error("%s: no frames: the %llu it holds are damaged (times beyond any clock)",
			  last->path, (unsigned long long)last->model.v[GFXSTAT_MODEL_out_of_range]);
	} else if (strcmp(last->format, "sf-latency") == 0) {
		cli_error("%s: no frames: a --latency dump with no rows (the layer name did not "
			  "match?); 'gfxstat latency --layers' on a 'dumpsys SurfaceFlinger --list' "
			  "picks the layer", last->path);
	} else if (strcmp(last->format, "gfxinfo") == 0 && last->summary &&
		   last->summary->have_gfxinfo &&
		   last->summary->gfxinfo.v[GFXSTAT_GFXINFO_summary_lines]) {
		cli_error("%s: no frames: dumpsys gfxinfo with no framestats rows; 'gfxstat gfxinfo "
			  "%s' shows its summaries; 'dumpsys gfxinfo PKG framestats' gives rows",
			  last->path, last->path);
	} else if (strcmp(last->format, "gfxinfo") == 0) {
		/* no summary to show either (Android 4.1-5.1 print none): what gives frames */
		cli_error("%s: no frames: dumpsys gfxinfo with no summary, no framestats rows and no "
			  "profile table; Android 4.1-5.1 print frame times only with profiling on "
			  "('adb shell setprop debug.hwui.profile true', restart the app, use it, dump "
			  "again); 6.0+: 'dumpsys gfxinfo PKG framestats'", last->path);
	} else if (strcmp(last->format, "perfetto") == 0) {
		cli_error("%s: no frames: a Perfetto trace with no FrameTimeline frames and no "
			  "SurfaceFlinger or app frame markers; record with the "
			  "android.surfaceflinger.frametimeline data source and the gfx atrace "
			  "category ('gfxstat perfetto-dump' shows what it holds)", last->path);
	} else if (last->have_sf && last->sf.sf_pid >= 0) {
		cli_error("%s: no frames: SurfaceFlinger's markers (%llu refreshes) but no buffer "
			  "latched by a layer; record with the 'gfx' category ('gfxstat inspect' "
			  "shows what it holds)", last->path,
			  (unsigned long long)last->sf.refreshes);
	} else {
		cli_error("%s: no frames: %llu trace events but no SurfaceFlinger frame markers and "
			  "no app frames (Choreographer#doFrame with DrawFrame); record with the "
			  "'gfx' and 'view' categories ('gfxstat inspect' shows what it holds)",
			  last->path, (unsigned long long)last->stats.v[GFXSTAT_STAT_events]);
	}
	return CLI_INPUT;
}

int cli_source_refused(void)
{
	return refused;
}

int cli_source_damaged(const struct cli_source *src)
{
	return src->warnings ? cli_damaged(src->path, src->warnings) : CLI_OK;
}
