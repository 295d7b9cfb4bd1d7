/* SPDX-License-Identifier: MIT */
/*
 * gfxstat gfxinfo: read `dumpsys gfxinfo <pkg> [framestats]`, recompute every window's
 * summary from its PROFILEDATA rows with the JankTracker of the dump's Android release, and
 * print it in dumpsys's own format next to the dump's summary, flagging what differs.
 * The CSV and JSON writers are in cmd_gfxinfo_out.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_gfxinfo.h"
#include "cmd_gfxinfo_out.h"

enum { OPT_ANDROID = 256, OPT_PERIOD, OPT_FORGIVE, OPT_ALL, OPT_ROWS, OPT_FRAMES, OPT_FORMAT };

static const struct cli_opt gfxinfo_opts[] = {
	{ OPT_FORMAT, "format", "table|csv",
	  "the summaries as dumpsys prints them (table), or one CSV line per window" },
	{ 'c', "csv", NULL, "same as --format csv" },
	/* -f is gfx's frame threshold: not a second meaning here */
	{ OPT_ROWS, "rows", NULL, "list the framestats rows as CSV instead of the summaries" },
	{ OPT_FRAMES, "frames", NULL, NULL },
	{ OPT_ALL, "all", NULL, "also print blocks with no summary and no rows" },
	{ OPT_ANDROID, "android", "N", "use release N's JankTracker (6-16; default: from the dump)" },
	{ OPT_PERIOD, "vsync-period", "MS",
	  "period for the pre-12 and legacy rules (default: from the rows)" },
	{ OPT_FORGIVE, "forgiveness", "MS", "dequeue-time forgiveness (default 0, see below)" },
	{ 'q', "quiet", NULL, "no notes on standard error, only warnings and errors" },
	{ 0, NULL, NULL, NULL },
};

static const char gfxinfo_details[] =
	"Reads the output of 'adb shell dumpsys gfxinfo <pkg> framestats' (UTF-8 with or\n"
	"without a BOM, UTF-16LE with a BOM, CRLF): every process, every window, the summary\n"
	"text, the 'Draw Prepare Process Execute' table (Android 4.1-4.4: 'Draw Process\n"
	"Execute') and ---PROFILEDATA--- in any layout of\n"
	"Android 6 to 16 (14 to 25 columns; the 12-14 header that swaps FrameInterval and\n"
	"FrameStartTime is read by value). Each window's rows are run through that release's\n"
	"JankTracker and ProfileData (hwui), and the result is printed as dumpsys prints it.\n"
	"\n"
	"The dump's summary counts every frame since the stats were reset; the rows are only\n"
	"the last 120. So the two agree only when the rows hold every counted frame (then any\n"
	"difference is flagged as a mismatch); otherwise the differences are expected and the\n"
	"row histogram is checked to fit inside the dump's. Rows with non-zero Flags are kept\n"
	"and counted as Android counts them; rows whose FrameCompleted is 0 or absurd were\n"
	"never finished and are left out, as Android does. The dequeue forgiveness depends on\n"
	"the compositor offset, which the dump does not show: 0 unless --forgiveness is given.\n"
	"\n"
	"An empty input, or one with no gfxinfo summary, no framestats rows and no profile\n"
	"table, exits 3.\n";

static const struct cli_cmd gfxinfo_cmd = {
	"gfxstat gfxinfo",
	"gfxstat gfxinfo [--rows | --format table|csv] [--all] [--android N] [--vsync-period MS]\n"
	"                       [--forgiveness MS] [-q] [FILE|-]...",
	"Recompute dumpsys gfxinfo's jank summary from the framestats rows, and compare.",
	gfxinfo_details,
	gfxinfo_opts,
};


static int gfxinfo_opt(void *user, int id, const char *arg)
{
	struct gfxinfo_run *r = user;
	long v;
	long long ns;

	switch (id) {
	case OPT_ROWS:
		r->frames = 1;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "csv") && strcmp(arg, "json")) {
			cli_error("--format takes table, csv or json, not '%s'", arg);
			return -1;
		}
		r->csv = !strcmp(arg, "csv");
		r->json = !strcmp(arg, "json");
		return 0;
	case 'c':
		r->csv = 1;
		return 0;
	case OPT_ALL:
		r->all = 1;
		return 0;
	case OPT_ANDROID:
		if (cli_long("--android", arg, 6, 16, &v))
			return -1;
		r->o.android = (int)v;
		return 0;
	case OPT_PERIOD:
		if (cli_duration_ns("--vsync-period", arg, GFXSTAT_NSEC_PER_MSEC, &ns))
			return -1;
		if (ns < 1000 || ns > GFXSTAT_NSEC_PER_SEC) {
			cli_error("--vsync-period takes milliseconds between 0.001 and 1000, not '%s'",
				  arg);
			return -1;
		}
		r->o.frame_interval_ns = ns;
		return 0;
	case OPT_FORGIVE:
		if (cli_duration_ns("--forgiveness", arg, GFXSTAT_NSEC_PER_MSEC, &ns))
			return -1;
		r->o.forgiveness_ns = ns;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* dumpsys's own summary format (ProfileData::dump)                                          */

static double pct_of(int64_t n, int64_t total)
{
	/* (float)jank / (float)total * 100.0f, printed through a double */
	return total <= 0 ? 0.0 : (double)((float)n / (float)total * 100.0f);
}

static void print_profile(const struct gfxstat_profile *p)
{
	static const int pcts[4] = { 50, 90, 95, 99 };
	int i;

	if (p->stats_since_ns != GFXSTAT_NS_NONE)
		printf("Stats since: %lldns\n", (long long)p->stats_since_ns);
	if (p->filtered)
		printf("Note: Data has been filtered!\n");
	if (p->total_frames >= 0)
		printf("Total frames rendered: %lld\n", (long long)p->total_frames);
	if (p->janky_frames >= 0)
		printf("Janky frames: %lld (%.2f%%)\n", (long long)p->janky_frames,
		       pct_of(p->janky_frames, p->total_frames));
	if (p->janky_legacy >= 0)
		printf("Janky frames (legacy): %lld (%.2f%%)\n", (long long)p->janky_legacy,
		       pct_of(p->janky_legacy, p->total_frames));
	for (i = 0; i < 4; i++)
		if (p->percentile[i] >= 0)
			printf("%dth percentile: %dms\n", pcts[i], p->percentile[i]);
	for (i = 0; i < GFXSTAT_JANK_COUNT; i++)
		if (p->jank_counts[i] >= 0)
			printf("Number %s: %lld\n", gfxstat_jank_type_name((enum gfxstat_jank_type)i),
			       (long long)p->jank_counts[i]);
	if (p->hist_entries) {
		printf("HISTOGRAM:");
		for (i = 0; i < GFXSTAT_HIST_BUCKETS; i++)
			printf(" %ums=%u", gfxstat_profile_bucket_ms((unsigned)i), p->hist[i]);
		printf("\n");
	}
	if (p->gpu_hist_entries) {
		for (i = 0; i < 4; i++)
			if (p->gpu_percentile[i] >= 0)
				printf("%dth gpu percentile: %dms\n", pcts[i], p->gpu_percentile[i]);
		printf("GPU HISTOGRAM:");
		for (i = 0; i < GFXSTAT_GPU_BUCKETS; i++)
			printf(" %ums=%u", gfxstat_profile_gpu_bucket_ms((unsigned)i),
			       p->gpu_hist[i]);
		printf("\n");
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Comparison                                                                                 */

/* Return: 1 if every bucket of the rows' histogram is <= the dump's. */
static int hist_within(const uint32_t *rows, const uint32_t *dump, int n, int *first_bad)
{
	int i;

	for (i = 0; i < n; i++)
		if (rows[i] > dump[i]) {
			*first_bad = i;
			return 0;
		}
	return 1;
}

static int hist_diff(const uint32_t *a, const uint32_t *b, int n)
{
	int i, k = 0;

	for (i = 0; i < n; i++)
		k += a[i] != b[i];
	return k;
}

static void cmp_line(struct gfxinfo_run *r, enum gfxinfo_cover c, const char *field, long long calc,
		     long long dump)
{
	const char *note = "";

	if (calc < 0 && dump < 0)
		return;
	if (calc != dump) {
		if (c == COVER_ALL) {
			note = "  MISMATCH";
			r->mismatches++;
		} else {
			note = "  differs";
		}
	}
	printf("  %-38s", field);
	if (calc >= 0)
		printf(" %10lld", calc);
	else
		printf(" %10s", "-");
	if (dump >= 0)
		printf(" %10lld", dump);
	else
		printf(" %10s", "-");
	printf("%s\n", note);
}

static void compare(struct gfxinfo_run *r, const struct gfxstat_gfxinfo_block *b)
{
	static const char *const pnames[4] = { "50th percentile (ms)", "90th percentile (ms)",
					       "95th percentile (ms)", "99th percentile (ms)" };
	const struct gfxstat_profile *c = &b->calc, *d = &b->dump;
	enum gfxinfo_cover cv = cmd_gfxinfo_coverage(b);
	int i, bad = -1, k;
	char name[64];

	printf("-- compared with the dump's summary --\n");
	switch (cv) {
	case COVER_ALL:
		printf("The rows hold all %lld frames the dump counts: every field must agree.\n",
		       (long long)d->total_frames);
		break;
	case COVER_PART:
		printf("The dump counts %lld frames since its stats were reset; the rows hold only "
		       "the last %lld\n(the ring keeps 120): the dump's totals cannot be recomputed, "
		       "so differences are expected.\n",
		       (long long)d->total_frames, (long long)c->total_frames);
		break;
	case COVER_MORE:
		printf("The rows hold %lld frames, more than the %lld the dump counts (stats reset "
		       "after the\nrows were recorded?): differences are expected.\n",
		       (long long)c->total_frames, (long long)d->total_frames);
		break;
	case COVER_NONE:
		printf("Nothing to compare.\n");
		return;
	}
	printf("  %-38s %10s %10s\n", "field", "rows", "dump");
	cmp_line(r, cv, "Total frames rendered", c->total_frames, d->total_frames);
	cmp_line(r, cv, "Janky frames", c->janky_frames, d->janky_frames);
	cmp_line(r, cv, "Janky frames (legacy)", c->janky_legacy, d->janky_legacy);
	for (i = 0; i < 4; i++)
		cmp_line(r, cv, pnames[i], c->percentile[i], d->percentile[i]);
	for (i = 0; i < GFXSTAT_JANK_COUNT; i++) {
		snprintf(name, sizeof(name), "Number %s",
			 gfxstat_jank_type_name((enum gfxstat_jank_type)i));
		cmp_line(r, cv, name, c->jank_counts[i], d->jank_counts[i]);
	}
	if (c->hist_entries && d->hist_entries) {
		k = hist_diff(c->hist, d->hist, GFXSTAT_HIST_BUCKETS);
		if (!k) {
			printf("  HISTOGRAM: all %d buckets equal\n", GFXSTAT_HIST_BUCKETS);
		} else if (cv == COVER_ALL) {
			printf("  HISTOGRAM: %d buckets differ  MISMATCH\n", k);
			r->mismatches++;
		} else if (hist_within(c->hist, d->hist, GFXSTAT_HIST_BUCKETS, &bad)) {
			printf("  HISTOGRAM: %d buckets differ; every bucket of the rows fits in the "
			       "dump's\n", k);
		} else {
			printf("  HISTOGRAM: %d buckets differ; the rows have more %ums frames than "
			       "the dump  MISMATCH\n", k, gfxstat_profile_bucket_ms((unsigned)bad));
			r->mismatches++;
		}
	}
	if (c->gpu_hist_entries && d->gpu_hist_entries) {
		k = hist_diff(c->gpu_hist, d->gpu_hist, GFXSTAT_GPU_BUCKETS);
		if (!k)
			printf("  GPU HISTOGRAM: all %d buckets equal\n", GFXSTAT_GPU_BUCKETS);
		else if (cv == COVER_ALL)
			printf("  GPU HISTOGRAM: %d buckets differ  MISMATCH\n", k);
		else
			printf("  GPU HISTOGRAM: %d buckets differ\n", k);
		if (k && cv == COVER_ALL)
			r->mismatches++;
	}
}

/* The dump's own percentiles must follow from its own histogram (findPercentile). */
static void check_percentiles(struct gfxinfo_run *r, const struct gfxstat_profile *d)
{
	static const int pcts[4] = { 50, 90, 95, 99 };
	int i, bad = 0, n = 0;

	for (i = 0; i < 4; i++) {
		if (d->hist_entries == GFXSTAT_HIST_BUCKETS && d->percentile[i] >= 0) {
			n++;
			bad += (uint32_t)d->percentile[i] != gfxstat_profile_percentile(d, pcts[i]);
		}
		if (d->gpu_hist_entries == GFXSTAT_GPU_BUCKETS && d->gpu_percentile[i] >= 0) {
			n++;
			bad += (uint32_t)d->gpu_percentile[i] !=
			       gfxstat_profile_gpu_percentile(d, pcts[i]);
		}
	}
	if (!n)
		return;
	if (bad) {
		printf("(%d of the dump's %d percentiles do not follow from its HISTOGRAM  "
		       "MISMATCH)\n", bad, n);
		r->mismatches++;
	} else {
		printf("(the dump's %d percentiles follow from its HISTOGRAM lines)\n", n);
	}
}

static char *block_key(const struct gfxstat_gfxinfo_block *b)
{
	size_t n = b->app.n + b->name.n + 4;
	char *k = malloc(n);

	if (k)
		snprintf(k, n, "%.*s|%c|%.*s", (int)b->app.n, b->app.p,
			 b->kind == GFXSTAT_BLOCK_PROCESS ? 'p' : 'w', (int)b->name.n, b->name.p);
	return k;
}

/* Remember @b's summary; Return: the previous summary of the same window, or NULL. */
static const struct gfxstat_gfxinfo_block *remember(struct gfxinfo_run *r,
						    const struct gfxstat_gfxinfo_block *b,
						    struct gfxstat_gfxinfo_block *prev)
{
	char *k = block_key(b);
	size_t i;

	if (!k)
		return NULL;
	for (i = 0; i < r->nseen; i++)
		if (!strcmp(r->seen[i].key, k)) {
			*prev = r->seen[i].b;
			r->seen[i].b = *b;
			free(k);
			return prev;
		}
	if (cli_grow((void **)&r->seen, &r->capseen, r->nseen, sizeof(*r->seen), 16)) {
		free(k);
		return NULL;
	}
	r->seen[r->nseen].key = k;
	r->seen[r->nseen++].b = *b;
	return NULL;
}

/* Two summaries of one window: the frame rate between the dumps (library rule). */
static void print_between(struct gfxinfo_run *r, const struct gfxstat_gfxinfo_block *b)
{
	struct gfxstat_gfxinfo_block prev;
	const struct gfxstat_gfxinfo_block *a;
	double fps;

	if (!b->has_summary)
		return;
	a = remember(r, b, &prev);
	if (!a)
		return;
	if (gfxstat_gfxinfo_fps_between(a, b, &fps)) {
		printf("(an earlier dump has this summary too, but the frame rate between them "
		       "cannot be told: %s)\n",
		       a->uptime_ns == GFXSTAT_NS_NONE || b->uptime_ns == GFXSTAT_NS_NONE ?
			       "a dump has no Uptime line" :
		       a->dump.stats_since_ns != b->dump.stats_since_ns ?
			       "its stats were reset in between" :
			       "the dumps are not in time order");
		return;
	}
	printf("Since the previous dump: %lld frames in %.3f s: %.2f FPS (averaged, idle time "
	       "included)\n",
	       (long long)(b->dump.total_frames - a->dump.total_frames),
	       (double)(b->uptime_ns - a->uptime_ns) / 1e9, fps);
}

static void print_block(struct gfxinfo_run *r, const struct gfxstat_gfxinfo_block *b)
{
	if (b->pid != r->last_pid || !r->header_done) {
		printf("** Graphics info for pid %d [%s] **\n\n", (int)b->pid,
		       cli_shown_n(b->app.p, b->app.n));
		r->last_pid = b->pid;
		r->header_done = 1;
	}
	if (b->kind == GFXSTAT_BLOCK_PROCESS)
		printf("Process summary (the process's global data)\n");
	else
		printf("Window: %s\n", cli_shown_n(b->name.p, b->name.n));
	if (b->table_rows) {
		printf("%s table: %llu rows\n", b->table_columns == 3
		       ? "'Draw Process Execute' (Android 4.1-4.4, no Prepare)"
		       : "'Draw Prepare Process Execute'", (unsigned long long)b->table_rows);
		printf("  %llu of them over 16 ms (hwui's profile-bar rule)%s\n",
		       (unsigned long long)b->table_janky,
		       b->has_rows ? "; the framestats rows are the frames" :
				     "; as frames they have no present times (the table has none)");
	}
	if (b->has_rows) {
		printf("framestats: %llu rows (%llu with non-zero Flags, %llu never finished), "
		       "%d columns%s; Android %s rules",
		       (unsigned long long)b->rows, (unsigned long long)b->rows_flagged,
		       (unsigned long long)b->rows_incomplete, b->columns,
		       b->header_swapped ? ", FrameInterval/FrameStartTime swapped back" : "",
		       gfxstat_gfxinfo_rules_name(b->rules));
		if (b->frame_interval_ns > 0)
			printf(", period %.3f ms", (double)b->frame_interval_ns / 1e6);
		printf("\n");
		printf("presents: %llu DisplayPresentTime", (unsigned long long)b->presents_real);
		if (b->present_latency_ns != GFXSTAT_NS_NONE)
			printf(", %llu estimated (completion + %.3f ms, the median)",
			       (unsigned long long)b->presents_estimated,
			       (double)b->present_latency_ns / 1e6);
		else
			printf(" (none in the rows: FrameCompleted/GpuCompleted is the basis)");
		printf(", %llu moved to a refresh after the previous\n",
		       (unsigned long long)b->presents_moved);
	}
	if (b->has_rows && b->rules != GFXSTAT_RULES_UNKNOWN) {
		printf("-- recomputed from the rows --\n");
		print_profile(&b->calc);
	}
	if (b->has_summary) {
		printf("-- the dump's summary --\n");
		print_profile(&b->dump);
		check_percentiles(r, &b->dump);
		if (b->has_rows)
			compare(r, b);
	} else if (b->has_rows) {
		printf("(the dump has no summary for this window)\n");
	}
	print_between(r, b);
	printf("\n");
}


static int on_block(void *user, const struct gfxstat_gfxinfo_block *b)
{
	struct gfxinfo_run *r = user;

	if (b->has_summary || b->has_rows || b->table_rows)
		r->content++;
	if (!r->all && !b->has_summary && !b->has_rows && !b->table_rows)
		return 0;
	r->blocks_shown++;
	if (r->frames)
		return 0;
	if (r->json)
		cmd_gfxinfo_json_block(r, b);
	else if (r->csv)
		cmd_gfxinfo_csv_block(b);
	else
		print_block(r, b);
	return 0;
}


static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct gfxinfo_run *r = user;

	cli_json_header_frame(&r->hdr, f);
	if (r->frames)
		cmd_gfxinfo_row(r, f);
	return 0;
}

static int feed(void *user, const void *buf, size_t n)
{
	struct gfxinfo_run *r = user;

	r->lib_rc = gfxstat_gfxinfo_feed(r->g, buf, n);
	return r->lib_rc;
}

static int end_of_file(void *user)
{
	struct gfxinfo_run *r = user;

	r->lib_rc = gfxstat_gfxinfo_finish(r->g);
	return r->lib_rc;
}


int cmd_gfxinfo(int argc, char **argv)
{
	struct gfxinfo_run r;
	struct gfxstat_gfxinfo_sink sink;
	struct gfxstat_stats st;
	const struct gfxstat_gfxinfo_counts *cn;
	unsigned long long bytes = 0;
	int first, rc, i;

	memset(&r, 0, sizeof(r));
	memset(&st, 0, sizeof(st));
	cli_json_header_init(&r.hdr, "gfxinfo");
	gfxstat_gfxinfo_opts_init(&r.o);
	first = cli_parse(&gfxinfo_cmd, argc, argv, gfxinfo_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (r.frames && r.csv) {
		cli_error("--rows and --format csv cannot be used together");
		return CLI_USAGE;
	}
	sink.frame = on_frame;
	sink.block = on_block;
	sink.table_row = NULL;
	sink.user = &r;
	r.g = gfxstat_gfxinfo_new(&r.o, &sink, &st);
	if (!r.g) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	r.last_pid = -2;
	if (r.frames) {
		cmd_gfxinfo_rows_header();
	} else if (r.csv) {
		cmd_gfxinfo_csv_header();
	} else if (r.json && !(r.jo = open_memstream(&r.jbody, &r.njbody))) {
		cli_error("out of memory");
		gfxstat_gfxinfo_free(r.g);
		return CLI_INPUT;
	}
	cli_catch_signals();
	rc = cli_read_inputs(argv + first, argc - first, feed, end_of_file, &r, &bytes);
	if (cli_interrupted()) {
		/* no summary of part of a file */
		if (r.jo) {
			fclose(r.jo);
			free(r.jbody);
		}
		rc = cli_interrupted();
		goto done;
	}
	if (rc == CLI_OK && r.lib_rc && r.lib_rc != GFXSTAT_E_ABORTED) {
		cli_error("%s", gfxstat_strerror(r.lib_rc));
		rc = CLI_INPUT;
	}
	cn = gfxstat_gfxinfo_counts(r.g);
	for (i = 0; i < GFXSTAT_GFXINFO_COUNT_N; i++) {
		enum gfxstat_gfxinfo_count c = (enum gfxstat_gfxinfo_count)i;

		if (cn->v[i] && gfxstat_gfxinfo_count_severity(c) != GFXSTAT_SEV_INFO)
			cli_warn("%llu %s", (unsigned long long)cn->v[i],
				 gfxstat_gfxinfo_count_doc(c));
	}
	if (st.v[GFXSTAT_STAT_line_too_long])
		cli_warn("%llu %s", (unsigned long long)st.v[GFXSTAT_STAT_line_too_long],
			 gfxstat_stat_doc(GFXSTAT_STAT_line_too_long));
	cli_info("%llu processes, %llu blocks, %llu framestats rows (%llu with non-zero Flags)",
		 (unsigned long long)cn->v[GFXSTAT_GFXINFO_processes],
		 (unsigned long long)cn->v[GFXSTAT_GFXINFO_blocks],
		 (unsigned long long)cn->v[GFXSTAT_GFXINFO_rows],
		 (unsigned long long)cn->v[GFXSTAT_GFXINFO_rows_flagged]);
	if (r.mismatches)
		cli_warn("%llu fields differ where the rows hold every frame the dump counts",
			 r.mismatches);
	if (rc == CLI_OK && !bytes && !cli_stop_signal) {
		rc = cli_empty_input(argc - first == 1 ? argv[first] : argc == first ? "-" : "the inputs");
	} else if (rc == CLI_OK && !r.content) {
		/* what would give some: before 6.0 only the profile table, with profiling on */
		cli_error("no dumpsys gfxinfo summary, framestats rows or profile table in the input "
			  "(%llu processes); Android 4.1-5.1 print frame times only with profiling "
			  "on ('adb shell setprop debug.hwui.profile true', restart the app, use it, "
			  "dump again); 6.0+: 'dumpsys gfxinfo PKG framestats'",
			  (unsigned long long)cn->v[GFXSTAT_GFXINFO_processes]);
		rc = CLI_INPUT;
	}
	if (r.json)
		cmd_gfxinfo_json_document(&r, argv + first, argc - first, bytes);
	if (fflush(stdout) && rc == CLI_OK) {
		cli_error("cannot write the results: %s", strerror(errno));
		rc = CLI_OUTPUT;
	}
done:
	gfxstat_gfxinfo_free(r.g);
	for (i = 0; i < (int)r.nseen; i++)
		free(r.seen[i].key);
	free(r.seen);
	return rc;
}
