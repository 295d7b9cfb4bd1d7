/* SPDX-License-Identifier: MIT */
/*
 * gfxstat perfetto-dump: decode a Perfetto protobuf trace and print what was found: packets,
 * clocks, ftrace print events, and FrameTimeline frame counts per layer, per jank_type and
 * per present_type (trace_processor's strings), optionally every frame and every marker.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_perfetto.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_perfetto.h"
#include "gfxstat/gfxstat_sysctx.h"

enum { OPT_FRAMES = 256, OPT_MARKERS, OPT_PROCESSES, OPT_SCHED, OPT_COUNTERS };

static const struct cli_opt pd_opts[] = {
	{ OPT_FRAMES, "frames", NULL, "print every FrameTimeline frame, one tab-separated line each" },
	{ OPT_MARKERS, "markers", NULL, "print every atrace marker of the ftrace print events" },
	{ OPT_PROCESSES, "processes", NULL, "print every process the trace names, with its app" },
	{ OPT_SCHED, "sched", NULL, "print every scheduler event, as the kernel's ftrace text" },
	{ OPT_COUNTERS, "counters", NULL, "print every counter sample (CPU, GPU, thermal, power)" },
	{ 0, NULL, NULL, NULL },
};

static const char pd_details[] =
	"Decodes a Perfetto protobuf trace (not gzip-wrapped) without libperfetto and prints a\n"
	"summary: packets, clocks, ftrace print events, and FrameTimeline actual frames counted\n"
	"per layer, per jank_type and per present_type, with trace_processor's names. The counts\n"
	"include actual frames whose FrameEnd never came (shown as incomplete), as\n"
	"trace_processor's actual_frame_timeline_slice table does.\n"
	"\n"
	"Frames are listed in present order, then the incomplete ones; markers in time order.\n"
	"\n"
	"--frames lines: kind, token, display token, pid, expected start, expected end,\n"
	"actual start, actual end (ns, trace clock; '-' when absent), jank_type and\n"
	"jank_type_raw, present_type and present_type_raw, prediction_type and\n"
	"prediction_type_raw (trace_processor's names, then the trace's value; '-' when\n"
	"absent), janky (0/1), app ('-' when unknown), vsync period and duration (ns, '-' when\n"
	"absent), layer.\n"
	"--processes: every process the trace names (ProcessTree), with its app: pid, name, app.\n"
	"--markers lines: timestamp, pid, cpu, marker kind, name, value.\n"
	"--sched lines: each scheduler event (sched_switch, sched_waking, cpu_frequency, binder,\n"
	"...; compact_sched too) as ftrace text with nanoseconds, which `gfxstat` reads back;\n"
	"with --markers, the markers too (as tracing_mark_write lines), merged in time order:\n"
	"one text trace of the same events. --counters lines: time (ns), kind, index,\n"
	"value, unit, name ('-' when none). Either adds scheduler and counter totals to the\n"
	"summary.\n"
	"\n"
	"An empty input, a stream that cannot be decoded, or a truncated trace (after its\n"
	"summary) exits 3.\n";

static const struct cli_cmd pd_cmd = {
	"gfxstat perfetto-dump",
	"gfxstat perfetto-dump [--frames] [--markers] [--processes] [--sched] [--counters] FILE|-",
	"Print what the Perfetto decoder finds in a protobuf trace.",
	pd_details,
	pd_opts,
};

#define MAX_LAYERS 4096
#define MAX_JANK_TYPES 256

struct pd_layer {
	char *name;
	size_t n;
	uint64_t count, incomplete;
};

struct pd_jank {
	int32_t jank;
	uint64_t count;
};

/* Counts of one frame source. */
struct pd_counts {
	struct pd_jank jank[MAX_JANK_TYPES];
	size_t njank;
	uint64_t jank_other;
	uint64_t present[6];
	uint64_t total, incomplete;
};

struct pd_run {
	int frames, markers, processes, sched, counters;
	struct gfxstat_perfetto *dec;
	struct gfxstat_stats stats;
	struct pd_layer *layers;
	size_t nlayers;
	uint64_t layers_other;
	struct pd_counts surface, display;
	int lib_rc;
};

static int pd_opt(void *user, int id, const char *arg)
{
	struct pd_run *r = user;

	(void)arg;
	if (id == OPT_FRAMES)
		r->frames = 1;
	else if (id == OPT_MARKERS)
		r->markers = 1;
	else if (id == OPT_PROCESSES)
		r->processes = 1;
	else if (id == OPT_SCHED)
		r->sched = 1;
	else if (id == OPT_COUNTERS)
		r->counters = 1;
	else
		return -1;
	return 0;
}

static void count_layer(struct pd_run *r, const struct gfxstat_str *name, int incomplete)
{
	size_t i;
	char *copy;

	for (i = 0; i < r->nlayers; i++)
		if (r->layers[i].n == name->n && memcmp(r->layers[i].name, name->p, name->n) == 0)
			break;
	if (i == r->nlayers) {
		copy = r->nlayers < MAX_LAYERS ? malloc(name->n + 1) : NULL;
		if (!copy) {
			r->layers_other++;
			return;
		}
		memcpy(copy, name->p, name->n);
		copy[name->n] = 0;
		r->layers[i].name = copy;
		r->layers[i].n = name->n;
		r->layers[i].count = 0;
		r->layers[i].incomplete = 0;
		r->nlayers++;
	}
	r->layers[i].count++;
	r->layers[i].incomplete += (uint64_t)incomplete;
}

static void count_frame(struct pd_run *r, const struct gfxstat_frame *f, int incomplete)
{
	struct pd_counts *c = f->source == GFXSTAT_SRC_FRAMETIMELINE ? &r->surface : &r->display;
	size_t i;

	c->total++;
	c->incomplete += (uint64_t)incomplete;
	if (f->source == GFXSTAT_SRC_FRAMETIMELINE)
		count_layer(r, &f->layer, incomplete);
	for (i = 0; i < c->njank && c->jank[i].jank != f->jank_type; i++)
		;
	if (i == c->njank && c->njank < MAX_JANK_TYPES) {
		c->jank[i].jank = f->jank_type;
		c->jank[i].count = 0;
		c->njank++;
	}
	if (i < c->njank)
		c->jank[i].count++;
	else
		c->jank_other++;
	c->present[f->present_type >= 1 && f->present_type <= 5 ? f->present_type : 0]++;
}

static void print_ns(int64_t ns)
{
	if (ns == GFXSTAT_NS_NONE)
		fputs("\t-", stdout);
	else
		printf("\t%lld", (long long)ns);
}

/* A code as docs/output.md writes it: the name, then the raw value; "-\t-" when absent. */
static void print_code(const char *name, int32_t raw)
{
	if (raw < 0)
		fputs("\t-\t-", stdout);
	else
		printf("\t%s\t%d", name, (int)raw);
}

static void print_frame(const struct gfxstat_frame *f)
{
	char jank[512];

	gfxstat_perfetto_jank_type_str(f->jank_type, jank, sizeof(jank));
	printf("%s\t%lld\t%lld\t%d", f->source == GFXSTAT_SRC_FRAMETIMELINE ? "surface" : "display",
	       (long long)f->token, (long long)f->display_token, (int)f->pid);
	print_ns(f->expected_start_ns);
	print_ns(f->expected_end_ns);
	print_ns(f->actual_start_ns);
	print_ns(f->actual_end_ns);
	print_code(jank, f->jank_type);
	print_code(gfxstat_perfetto_present_type_name(f->present_type), f->present_type);
	print_code(gfxstat_perfetto_prediction_type_name(f->prediction_type), f->prediction_type);
	/* names from the trace: shown, so no control character reaches a terminal or a tab
	 * splits a column */
	printf("\t%d\t%s", (int)f->janky, f->app.n ? cli_shown_n(f->app.p, f->app.n) : "-");
	print_ns(f->vsync_period_ns);
	print_ns(f->duration_ns);
	printf("\t%s\n", cli_shown_n(f->layer.p, f->layer.n));
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct pd_run *r = user;

	count_frame(r, f, 0);
	if (r->frames)
		print_frame(f);
	return 0;
}

static int on_incomplete(void *user, const struct gfxstat_frame *f)
{
	struct pd_run *r = user;

	count_frame(r, f, 1);
	if (r->frames)
		print_frame(f);
	return 0;
}

static int on_marker(void *user, const struct gfxstat_ftrace_line *ev,
		     const struct gfxstat_marker *m)
{
	struct pd_run *r = user;

	/* with --sched, one trace: the marker as the ftrace line of its print event */
	if (r->markers && r->sched)
		printf("<...>-%d (-----) [%03d] .... %lld.%09lld: tracing_mark_write: %s\n",
		       (int)ev->pid, (int)ev->cpu, (long long)(ev->ts_ns / GFXSTAT_NSEC_PER_SEC),
		       (long long)(ev->ts_ns % GFXSTAT_NSEC_PER_SEC),
		       cli_shown_n(ev->payload.p, ev->payload.n));
	else if (r->markers)
		printf("%s\t%d\t%d\t%c\t%s\t%lld\n", cli_shown_n(ev->ts_text.p, ev->ts_text.n),
		       (int)ev->pid, (int)ev->cpu, (char)m->kind, cli_shown_n(m->name.p, m->name.n),
		       (long long)m->value);
	return 0;
}

static int on_process(void *user, int32_t pid, struct gfxstat_str name)
{
	struct pd_run *r = user;
	struct gfxstat_str app;

	if (r->processes) {
		app = gfxstat_perfetto_app(r->dec, pid);
		printf("%d\t%s\t%s\n", (int)pid, cli_shown_n(name.p, name.n),
		       app.n ? cli_shown_n(app.p, app.n) : "-");
	}
	return 0;
}

static int on_sched(void *user, const struct gfxstat_sched_event *ev)
{
	char line[1024];

	(void)user;
	gfxstat_sched_event_format(ev, line, sizeof(line));
	printf("%s\n", cli_shown(line));
	return 0;
}

static int on_counter(void *user, const struct gfxstat_counter *c)
{
	(void)user;
	printf("%lld\t%s\t%d\t%lld\t%s\t%s\n", (long long)c->ts_ns,
	       gfxstat_counter_kind_name(c->kind), (int)c->index, (long long)c->value,
	       gfxstat_counter_kind_unit(c->kind), c->name.n ? cli_shown_n(c->name.p, c->name.n) : "-");
	return 0;
}

/* With --sched or --counters: what the scheduler part found. */
static void report_sched(const struct gfxstat_perfetto_sched_summary *c)
{
	int k;

	printf("scheduler events:");
	for (k = 1; k < GFXSTAT_SCHED_KIND_COUNT; k++)
		if (c->sched[k])
			printf(" %s %llu", gfxstat_sysctx_sched_name((enum gfxstat_sched_kind)k),
			       (unsigned long long)c->sched[k]);
	printf("\ncompact_sched: %llu bundles, %llu switches, %llu wakings, %llu skipped (no "
	       "previous thread), %llu errors; kernel %d.%d\n",
	       (unsigned long long)c->compact_bundles, (unsigned long long)c->compact_switch,
	       (unsigned long long)c->compact_waking, (unsigned long long)c->compact_skipped,
	       (unsigned long long)c->compact_errors, c->kernel_major, c->kernel_minor);
	printf("merge: %llu held at most, %llu late (dropped), %llu forced out, %llu bundles with "
	       "lost events, %llu malformed\n",
	       (unsigned long long)c->held_max, (unsigned long long)c->late,
	       (unsigned long long)c->forced, (unsigned long long)c->lost_events,
	       (unsigned long long)c->malformed);
	printf("counters:");
	for (k = 1; k < GFXSTAT_COUNTER_KIND_COUNT; k++)
		if (c->counter[k])
			printf(" %s %llu", gfxstat_counter_kind_name((enum gfxstat_counter_kind)k),
			       (unsigned long long)c->counter[k]);
	printf("\n");
}

static int pd_feed(void *user, const void *buf, size_t n)
{
	struct pd_run *r = user;

	r->lib_rc = gfxstat_perfetto_feed(r->dec, buf, n);
	return r->lib_rc != 0;
}

static int pd_end_of_file(void *user)
{
	(void)user;
	return 0;
}

static int cmp_layer(const void *a, const void *b)
{
	const struct pd_layer *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_jank(const void *a, const void *b)
{
	const struct pd_jank *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->jank < y->jank ? -1 : x->jank > y->jank;
}

static void print_counts(const char *what, struct pd_counts *c)
{
	char name[512];
	size_t i;
	int p;

	printf("\n%s frames per jank_type:\n", what);
	qsort(c->jank, c->njank, sizeof(c->jank[0]), cmp_jank);
	for (i = 0; i < c->njank; i++) {
		gfxstat_perfetto_jank_type_str(c->jank[i].jank, name, sizeof(name));
		printf("%8llu  %s\n", (unsigned long long)c->jank[i].count, name);
	}
	if (c->jank_other)
		printf("%8llu  (other jank types)\n", (unsigned long long)c->jank_other);
	printf("\n%s frames per present_type:\n", what);
	for (p = 0; p < 6; p++)
		if (c->present[p])
			printf("%8llu  %s\n", (unsigned long long)c->present[p],
			       gfxstat_perfetto_present_type_name(p));
}

static void report(struct pd_run *r, const char *path)
{
	const struct gfxstat_perfetto_summary *s = gfxstat_perfetto_summary(r->dec);
	size_t i;

	printf("file: %s\n", cli_shown(path));
	printf("bytes: %llu\n", (unsigned long long)s->bytes);
	printf("packets: %llu (compressed_packets: %llu, inflated to %llu bytes)\n",
	       (unsigned long long)s->packets, (unsigned long long)s->compressed,
	       (unsigned long long)s->compressed_bytes);
	printf("ftrace: %llu bundles, %llu events, %llu print events, %llu atrace markers\n",
	       (unsigned long long)s->ftrace_bundles, (unsigned long long)s->ftrace_events,
	       (unsigned long long)s->print_events, (unsigned long long)s->markers);
	printf("clock: trace %s (%u), frametimeline %s (%u), %llu snapshots, "
	       "%llu packets converted, %llu not convertible\n",
	       gfxstat_perfetto_clock_name(s->trace_clock), (unsigned)s->trace_clock,
	       s->ft_clock ? gfxstat_perfetto_clock_name(s->ft_clock) : "none",
	       (unsigned)s->ft_clock, (unsigned long long)s->clock_snapshots,
	       (unsigned long long)s->clock_converted, (unsigned long long)s->clock_unconverted);
	printf("system: build %s, Android %s, SDK %d\n",
	       s->build[0] ? cli_shown(s->build) : "unknown",
	       s->release[0] ? cli_shown(s->release) : "unknown", (int)s->sdk);
	printf("processes: %llu named, %llu packages listed; surface frames with an app: %llu\n",
	       (unsigned long long)s->processes, (unsigned long long)s->packages,
	       (unsigned long long)s->frames_app);
	printf("frametimeline events: %llu (expected display %llu, actual display %llu, "
	       "expected surface %llu, actual surface %llu, frame end %llu)\n",
	       (unsigned long long)s->ft_events, (unsigned long long)s->ft_expected_display,
	       (unsigned long long)s->ft_actual_display, (unsigned long long)s->ft_expected_surface,
	       (unsigned long long)s->ft_actual_surface, (unsigned long long)s->ft_frame_end);
	printf("frames: surface %llu (%llu janky), display %llu (%llu janky), incomplete %llu, "
	       "without expected %llu\n",
	       (unsigned long long)s->frames_surface, (unsigned long long)s->janky_surface,
	       (unsigned long long)s->frames_display, (unsigned long long)s->janky_display,
	       (unsigned long long)s->incomplete, (unsigned long long)s->no_expected);
	printf("skipped: %llu malformed, %llu too big, %llu inflate failed, %llu nested "
	       "compressed, %llu invalid frametimeline events, %llu unmatched FrameEnd, %llu bad "
	       "timestamps, %llu evicted, %llu duplicate cookies, %llu truncated\n",
	       (unsigned long long)s->malformed, (unsigned long long)s->packet_too_big,
	       (unsigned long long)s->inflate_failed, (unsigned long long)s->nested_compressed,
	       (unsigned long long)s->invalid_events, (unsigned long long)s->end_unmatched,
	       (unsigned long long)s->bad_timestamp, (unsigned long long)s->evicted,
	       (unsigned long long)s->duplicate_cookie, (unsigned long long)s->truncated);

	if (r->sched || r->counters)
		report_sched(&s->sched);
	printf("\nactual surface frames per layer (%llu frames, %llu incomplete, %zu layers):\n",
	       (unsigned long long)r->surface.total, (unsigned long long)r->surface.incomplete,
	       r->nlayers);
	qsort(r->layers, r->nlayers, sizeof(r->layers[0]), cmp_layer);
	for (i = 0; i < r->nlayers; i++) {
		printf("%8llu  %s", (unsigned long long)r->layers[i].count,
		       cli_shown(r->layers[i].name));
		if (r->layers[i].incomplete)
			printf("  (%llu incomplete)", (unsigned long long)r->layers[i].incomplete);
		putchar('\n');
	}
	if (r->layers_other)
		printf("%8llu  (other layers)\n", (unsigned long long)r->layers_other);
	print_counts("actual surface", &r->surface);
	printf("\nactual display frames: %llu (%llu incomplete)\n",
	       (unsigned long long)r->display.total, (unsigned long long)r->display.incomplete);
	print_counts("actual display", &r->display);
}

int cmd_perfetto_dump(int argc, char **argv)
{
	struct pd_run r;
	struct gfxstat_perfetto_sink sink;
	const struct gfxstat_perfetto_summary *s;
	unsigned long long bytes = 0;
	int first, rc;
	size_t i;

	memset(&r, 0, sizeof(r));
	first = cli_parse(&pd_cmd, argc, argv, pd_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (argc - first != 1) {
		cli_error("perfetto-dump takes one FILE (or '-'), not %d", argc - first);
		fprintf(stderr, "usage: %s\n", pd_cmd.usage);
		return CLI_USAGE;
	}
	r.layers = calloc(MAX_LAYERS, sizeof(*r.layers));
	sink.marker = on_marker;
	sink.frame = on_frame;
	sink.incomplete = on_incomplete;
	sink.process = on_process;
	sink.sched = r.sched ? on_sched : NULL;
	sink.counter = r.counters ? on_counter : NULL;
	sink.user = &r;
	r.dec = r.layers ? gfxstat_perfetto_new(&sink, &r.stats) : NULL;
	if (r.dec) {
		gfxstat_perfetto_set_tmpdir(r.dec, cli_tmpdir());
		gfxstat_perfetto_set_threads(r.dec, cli_threads());
	}
	if (!r.dec) {
		cli_error("out of memory");
		free(r.layers);
		return CLI_INPUT;
	}
	/* an endless standard input ends cleanly on SIGTERM, as in every command */
	cli_catch_signals();
	rc = cli_read_inputs(argv + first, 1, pd_feed, pd_end_of_file, &r, &bytes);
	if (cli_interrupted()) {
		rc = cli_interrupted();
		goto out;
	}
	if (rc == CLI_OK && !bytes && !cli_stop_signal) {
		rc = cli_empty_input(argv[first]);
		goto out;
	}
	if (rc == CLI_OK && r.lib_rc == 0)
		r.lib_rc = gfxstat_perfetto_finish(r.dec);
	s = gfxstat_perfetto_summary(r.dec);
	if (rc == CLI_OK && r.lib_rc) {
		cli_error("'%s': %s", argv[first], gfxstat_strerror(r.lib_rc));
		rc = CLI_INPUT;
	}
	if (rc == CLI_OK) {
		report(&r, argv[first]);
		if (fflush(stdout)) {
			cli_error("cannot write the summary");
			rc = CLI_OUTPUT;
		} else if (s->broken) {
			cli_error("'%s': not a Perfetto protobuf trace, or damaged after %llu packets",
				  argv[first], (unsigned long long)s->packets);
			rc = CLI_INPUT;
		} else if (!s->packets) {
			cli_error("'%s': no Perfetto trace packets", argv[first]);
			rc = CLI_INPUT;
		} else {
			/* the same words as every command that reads a Perfetto trace */
			if (s->truncated)
				cli_warn("%s: the last packet is cut short (a truncated trace)",
					 argv[first]);
			if (s->inflate_failed)
				cli_warn("%s: %llu compressed packets could not be inflated",
					 argv[first], (unsigned long long)s->inflate_failed);
			if (s->malformed)
				cli_warn("%llu malformed packets or messages skipped",
					 (unsigned long long)s->malformed);
			if (s->truncated || s->inflate_failed)
				rc = cli_damaged(argv[first], s->truncated + s->inflate_failed);
		}
	}
out:
	gfxstat_perfetto_free(r.dec);
	for (i = 0; i < r.nlayers; i++)
		free(r.layers[i].name);
	free(r.layers);
	return rc;
}
