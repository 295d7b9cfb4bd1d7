/* SPDX-License-Identifier: MIT */
/*
 * gfxstat unwrap: decode a container (systrace HTML, atrace -z, gzip, UTF-16) to trace text.
 * gfxstat latency: stitch dumpsys SurfaceFlinger --latency polls into one frame list.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd_unwrap.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_container.h"
#include "gfxstat/gfxstat_sflatency.h"

/* Files taken from one directory of polls. */
#define MAX_DIR_FILES 100000

/* Warn of each non-INFO counter. Return: the ERROR-severity ones (data lost), summed. */
static unsigned long long report_unwrap(const char *name, const struct gfxstat_unwrap_stats *st)
{
	unsigned long long damaged = 0;
	int i;

	for (i = 0; i < GFXSTAT_UNWRAP_STAT_COUNT; i++) {
		enum gfxstat_severity sev = gfxstat_unwrap_stat_severity((enum gfxstat_unwrap_stat)i);

		if (!st->v[i] || sev == GFXSTAT_SEV_INFO)
			continue;
		if (sev == GFXSTAT_SEV_ERROR)
			damaged += st->v[i];
		cli_warn("%s: %" PRIu64 " %s", name, st->v[i],
			 gfxstat_unwrap_stat_doc((enum gfxstat_unwrap_stat)i));
	}
	return damaged;
}

static void layers_text(const struct gfxstat_unwrap *u, char *buf, size_t cap)
{
	enum gfxstat_format f[8];
	int n = gfxstat_unwrap_layers(u, f, 8), i;
	size_t off = 0;

	buf[0] = 0;
	if (n > 8)
		n = 8;
	for (i = 0; i < n && off < cap; i++) {
		int w = snprintf(buf + off, cap - off, "%s%s", i ? " > " : "", gfxstat_format_name(f[i]));

		if (w < 0)
			break;
		off += (size_t)w;
	}
	if (!n)
		snprintf(buf, cap, "%s", gfxstat_format_name(GFXSTAT_FMT_UNKNOWN));
}

/* unwrap ----------------------------------------------------------------------------------- */

static const struct cli_opt unwrap_opts[] = {
	{ 'o', "output", "FILE", "write the decoded text to FILE (default: standard output)" },
	{ 'q', "quiet", NULL, "do not print the detected format" },
	{ 0, NULL, NULL, NULL },
};

static const char unwrap_details[] =
	"Reads a capture and writes the ftrace text inside it, so any text tool can use it:\n"
	"  systrace HTML (every <script class=\"trace-data\"> block of ftrace text; trace2html\n"
	"  base64+gzip viewer-data; the 2012 'var linuxPerfData = \"...\"' form); JSON and\n"
	"  PROCESS DUMP blocks are skipped\n"
	"  atrace output ('TRACE:' then text, or a zlib stream with -z; CRLF added by an\n"
	"  'adb shell' pty before the zlib stream is undone, as catapult does)\n"
	"  gzip and zlib files, also around HTML; UTF-16LE/BE text with a BOM\n"
	"  a zip (systrace .zip): its one trace member; with several, their names\n"
	"  plain text: a UTF-8 BOM is dropped and CRLF line ends become LF\n"
	"  Perfetto protobuf: copied unchanged\n"
	"The detected layers are printed on standard error, e.g. 'gzip > systrace-html >\n"
	"ftrace-text'. No byte exits 3; a damaged input 3 after what could be decoded.\n";

static const struct cli_cmd unwrap_cmd = {
	"gfxstat unwrap",
	"gfxstat unwrap [-o FILE] [-q] [FILE|-]",
	"Decode a container (systrace HTML, atrace -z, gzip, UTF-16) to trace text.",
	unwrap_details,
	unwrap_opts,
};

struct unwrap_run {
	const char *out_path;
	FILE *out;
	int write_failed;
	struct gfxstat_unwrap *u;
	struct gfxstat_unwrap_stats st;
	int lib_rc;
};

static int unwrap_opt(void *user, int id, const char *arg)
{
	struct unwrap_run *r = user;

	switch (id) {
	case 'o':
		r->out_path = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static int unwrap_out(void *user, const void *buf, size_t n)
{
	struct unwrap_run *r = user;

	if (fwrite(buf, 1, n, r->out) != n) {
		r->write_failed = errno ? errno : EIO;
		return 1;
	}
	return 0;
}

static int unwrap_feed(void *user, const void *buf, size_t n)
{
	struct unwrap_run *r = user;

	r->lib_rc = gfxstat_unwrap_feed(r->u, buf, n);
	return r->lib_rc;
}

static int unwrap_eof(void *user)
{
	struct unwrap_run *r = user;

	r->lib_rc = gfxstat_unwrap_finish(r->u);
	return r->lib_rc;
}

int cmd_unwrap(int argc, char **argv)
{
	struct unwrap_run r;
	unsigned long long bytes = 0;
	char layers[256];
	const char *name;
	unsigned long long damaged;
	int first, rc;

	memset(&r, 0, sizeof(r));
	first = cli_parse(&unwrap_cmd, argc, argv, unwrap_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0 || cli_check_path("-o/--output", r.out_path))
		return CLI_USAGE;
	if (argc - first > 1) {
		cli_error("unwrap takes one input, not %d", argc - first);
		return CLI_USAGE;
	}
	name = argc > first && strcmp(argv[first], "-") ? argv[first] : "standard input";
	r.out = stdout;
	if (r.out_path && strcmp(r.out_path, "-") != 0) {
		r.out = fopen(r.out_path, "wb");
		if (!r.out) {
			cli_error("cannot create '%s': %s", r.out_path, strerror(errno));
			return CLI_OUTPUT;
		}
	}
	r.u = gfxstat_unwrap_new(unwrap_out, &r, &r.st);
	if (!r.u) {
		cli_error("out of memory");
		rc = CLI_INPUT;
		goto out;
	}
	cli_catch_signals();
	gfxstat_unwrap_set_path(r.u, argc > first ? argv[first] : NULL); /* a zip: random access */
	rc = cli_read_inputs(argv + first, argc - first, unwrap_feed, unwrap_eof, &r, &bytes);
	if (fflush(r.out) && !r.write_failed)
		r.write_failed = errno ? errno : EIO;
	if (r.write_failed) {
		cli_error("cannot write '%s': %s", r.out_path ? r.out_path : "standard output",
			  strerror(r.write_failed));
		rc = CLI_OUTPUT;
		goto out;
	}
	if (r.lib_rc && r.lib_rc != GFXSTAT_E_ABORTED) {
		cli_error("%s", gfxstat_strerror(r.lib_rc));
		rc = CLI_INPUT;
		goto out;
	}
	if (!rc && !bytes && !cli_stop_signal && (rc = cli_empty_input(name)))
		goto out;
	layers_text(r.u, layers, sizeof(layers));
	cli_info("%s: %s, %" PRIu64 " bytes in, %" PRIu64 " out", name, layers,
		 r.st.v[GFXSTAT_UNWRAP_STAT_in_bytes], r.st.v[GFXSTAT_UNWRAP_STAT_out_bytes]);
	damaged = report_unwrap(name, &r.st);
	if (*gfxstat_unwrap_zip_names(r.u))
		cli_info("%s: zip members: %s", name, gfxstat_unwrap_zip_names(r.u));
	if (damaged && !rc)
		rc = cli_damaged(name, damaged);
out:
	gfxstat_unwrap_free(r.u);
	if (r.out && r.out != stdout)
		fclose(r.out);
	return rc;
}

/* latency ---------------------------------------------------------------------------------- */

enum { OPT_LAYER = 256, OPT_LAYERS, OPT_APP, OPT_PACKAGE };

static const struct cli_opt latency_opts[] = {
	{ OPT_LAYER, "layer", "NAME", "the layer the dumps were taken for (labels the frames)" },
	{ OPT_LAYERS, "layers", NULL, "the inputs are --list output: print the layer names" },
	{ OPT_APP, "app", "PKG", "with --layers: print only the likeliest layer of PKG" },
	{ OPT_PACKAGE, "package", "PKG", NULL },
	{ 'q', "quiet", NULL, "no summary on standard error, only warnings and errors" },
	{ 0, NULL, NULL, NULL },
};

static const char latency_details[] =
	"Reads 'dumpsys SurfaceFlinger --latency <layer>' output: one dump, a concatenation of\n"
	"dumps, or a directory of polls (files read in name order), plain, UTF-16 or gzip.\n"
	"Writes the frames as CSV on standard output, oldest first, each frame once:\n"
	"  present_ns,desired_ns,ready_ns,interval_ns\n"
	"(actualPresentTime, desiredPresentTime, frameReadyTime, time since the previous\n"
	"present; an empty field when unknown). Successive polls overlap (the ring holds 127\n"
	"frames): the overlap is dropped. Frames whose present fence was pending are taken\n"
	"from the next poll. When a poll came too late and shares no frame with the previous\n"
	"one, the gap is reported on standard error and the next interval is left empty.\n"
	"\n"
	"  adb shell dumpsys SurfaceFlinger --list          # find the layer name\n"
	"  while :; do adb shell dumpsys SurfaceFlinger --latency \"'LAYER'\" > poll.$(date +%s%N)\n"
	"  sleep 1; done                                    # at 60 Hz a poll every < 2 s\n"
	"\n"
	"With --layers, the inputs are --list output (Android 15's RequestedLayerState{...}\n"
	"lines are reduced to the layer name); --app PKG prints only the likeliest layer.\n"
	"\n"
	"No frame (no rows: the layer did not match?), no --layers name, or no byte exits 3.\n";

static const struct cli_cmd latency_cmd = {
	"gfxstat latency",
	"gfxstat latency [--layer NAME] [-q] FILE...|DIR|-\n"
	"       gfxstat latency --layers [--app PKG] FILE|-",
	"Frames from dumpsys SurfaceFlinger --latency polls, stitched, as CSV.",
	latency_details,
	latency_opts,
};

struct latency_run {
	const char *layer;
	const char *package;
	int layers_mode;
	struct gfxstat_unwrap *u;
	struct gfxstat_unwrap_stats ust;
	struct gfxstat_sfl *p;
	struct gfxstat_sfl_stats st;
	int lib_rc;
	/* --layers */
	struct gfxstat_line_reader *lr;
	char *best;
	int best_score;
	unsigned long long names;
};

static int latency_opt(void *user, int id, const char *arg)
{
	struct latency_run *r = user;

	switch (id) {
	case OPT_LAYER:
		r->layer = arg;
		return 0;
	case OPT_LAYERS:
		r->layers_mode = 1;
		return 0;
	case OPT_APP:
		r->package = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static void print_ns(int64_t v, const char *sep)
{
	if (v == GFXSTAT_NS_NONE)
		fputs(sep, stdout);
	else
		printf("%" PRId64 "%s", v, sep);
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	(void)user;
	print_ns(f->present_ns, ",");
	print_ns(f->desired_present_ns, ",");
	print_ns(f->actual_end_ns, ",");
	print_ns(f->interval_ns, "\n");
	return 0;
}

static int on_gap(void *user, const struct gfxstat_sfl_gap *g)
{
	(void)user;
	if (g->kind == GFXSTAT_SFL_GAP && g->last_present_ns != GFXSTAT_NS_NONE &&
	    g->next_present_ns != GFXSTAT_NS_NONE) {
		double ms = (double)(g->next_present_ns - g->last_present_ns) / 1e6;

		cli_warn("gap before dump %" PRIu64 ": frames between %" PRId64 " and %" PRId64
			 " (%.1f ms) are missing: poll more often",
			 g->dump + 1, g->last_present_ns, g->next_present_ns, ms);
	} else {
		cli_warn("dump %" PRIu64 " %s the previous one: the frame before it is unknown",
			 g->dump + 1,
			 g->kind == GFXSTAT_SFL_GAP ? "shares no frame with" : "restarts after");
	}
	return 0;
}

static int list_line(void *user, const char *s, size_t n)
{
	struct latency_run *r = user;
	struct gfxstat_str name;
	int score;

	if (gfxstat_sflist_line(s, n, &name) != GFXSTAT_PARSE_OK)
		return 0;
	r->names++;
	if (!r->package) {
		printf("%.*s\n", (int)name.n, name.p);
		return 0;
	}
	score = gfxstat_sflist_score(name, r->package);
	if (score && score >= r->best_score) {
		char *b = realloc(r->best, name.n + 1);

		if (!b)
			return 1;
		memcpy(b, name.p, name.n);
		b[name.n] = 0;
		r->best = b;
		r->best_score = score;
	}
	return 0;
}

static int latency_out(void *user, const void *buf, size_t n)
{
	struct latency_run *r = user;

	if (r->layers_mode)
		return gfxstat_line_reader_feed(r->lr, buf, n) != 0;
	return gfxstat_sfl_feed(r->p, buf, n) != 0;
}

static int latency_feed(void *user, const void *buf, size_t n)
{
	struct latency_run *r = user;

	r->lib_rc = gfxstat_unwrap_feed(r->u, buf, n);
	return r->lib_rc;
}

static int latency_eof(void *user)
{
	struct latency_run *r = user;

	r->lib_rc = gfxstat_unwrap_finish(r->u);
	if (!r->lib_rc)
		r->lib_rc = r->layers_mode ? gfxstat_line_reader_finish(r->lr)
					   : gfxstat_sfl_end_file(r->p);
	return r->lib_rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The operands, with each directory replaced by its regular files in name order. */
static char **expand_inputs(char **in, int n, int *out_n)
{
	char **v = NULL;
	size_t nv = 0, cap = 0;
	int i;

	for (i = 0; i < n; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;
		size_t first = nv;

		if (strcmp(in[i], "-") == 0 || stat(in[i], &st) || !S_ISDIR(st.st_mode)) {
			d = NULL;
		} else {
			d = opendir(in[i]);
			if (!d) {
				cli_error("cannot open '%s': %s", in[i], strerror(errno));
				goto fail;
			}
		}
		while (1) {
			char *path;
			size_t len;
			struct stat fst;

			if (d) {
				e = readdir(d);
				if (!e)
					break;
				if (e->d_name[0] == '.')
					continue;
				len = strlen(in[i]) + strlen(e->d_name) + 2;
				path = malloc(len);
				if (path)
					snprintf(path, len, "%s/%s", in[i], e->d_name);
				if (path && (stat(path, &fst) || !S_ISREG(fst.st_mode))) {
					free(path);
					continue;
				}
			} else {
				path = strdup(in[i]);
			}
			if (nv == cap) {
				char **g;

				cap = cap ? cap * 2 : 16;
				g = realloc(v, cap * sizeof(*v));
				if (!g) {
					free(path);
					path = NULL;
				} else {
					v = g;
				}
			}
			if (!path || nv >= MAX_DIR_FILES) {
				cli_error(path ? "more than %d input files" : "out of memory",
					  MAX_DIR_FILES);
				free(path);
				if (d)
					closedir(d);
				goto fail;
			}
			v[nv++] = path;
			if (!d)
				break;
		}
		if (d) {
			closedir(d);
			if (nv == first)
				cli_warn("'%s' holds no files", in[i]);
			else /* v is NULL while nothing was added: no qsort(NULL, 0, ...) */
				qsort(v + first, nv - first, sizeof(*v), cmp_str);
		}
	}
	*out_n = (int)nv;
	return v ? v : calloc(1, sizeof(*v));
fail:
	while (nv)
		free(v[--nv]);
	free(v);
	return NULL;
}

static int report_latency(const struct latency_run *r, const char *name)
{
	const uint64_t *v = r->st.v;
	unsigned long long damaged = 0;
	int i, rc = CLI_OK;

	cli_info("%" PRIu64 " dumps, %" PRIu64 " rows, %" PRIu64 " frames; %" PRIu64
		 " overlapping rows dropped, %" PRIu64 " gaps, %" PRIu64 " restarts",
		 v[GFXSTAT_SFL_STAT_dumps], v[GFXSTAT_SFL_STAT_rows], v[GFXSTAT_SFL_STAT_frames],
		 v[GFXSTAT_SFL_STAT_overlap_rows], v[GFXSTAT_SFL_STAT_gaps],
		 v[GFXSTAT_SFL_STAT_resets]);
	for (i = 0; i < GFXSTAT_SFL_STAT_COUNT; i++) {
		enum gfxstat_severity sev = gfxstat_sfl_stat_severity((enum gfxstat_sfl_stat)i);

		if (!v[i] || sev == GFXSTAT_SEV_INFO || i == GFXSTAT_SFL_STAT_gaps ||
		    i == GFXSTAT_SFL_STAT_resets)
			continue;
		if (sev == GFXSTAT_SEV_ERROR)
			damaged += v[i];
		cli_warn("%s: %" PRIu64 " %s", name, v[i],
			 gfxstat_sfl_stat_doc((enum gfxstat_sfl_stat)i));
	}
	if (!v[GFXSTAT_SFL_STAT_dumps]) {
		cli_error("%s: no --latency dump (a refresh-period line, then rows)%s", name,
			  v[GFXSTAT_SFL_STAT_rows] ? "" : "; 'gfxstat inspect' says what it is");
		rc = CLI_INPUT;
	} else if (!v[GFXSTAT_SFL_STAT_frames]) {
		/* a lone number in the period range is not a result (issue 8) */
		cli_error("%s: no frames: %" PRIu64 " refresh-period line%s but no frame rows (the "
			  "layer name did not match?); 'gfxstat latency --layers' on a 'dumpsys "
			  "SurfaceFlinger --list' finds the layer", name, v[GFXSTAT_SFL_STAT_dumps],
			  v[GFXSTAT_SFL_STAT_dumps] == 1 ? "" : "s");
		rc = CLI_INPUT;
	} else if (damaged) {
		rc = cli_damaged(name, damaged);
	}
	return rc;
}

int cmd_latency(int argc, char **argv)
{
	struct latency_run r;
	struct gfxstat_sfl_sink sink = { on_frame, on_gap, NULL };
	unsigned long long bytes = 0, damaged; /* damaged: ERROR-severity counters */
	char **paths = NULL;
	const char *name;
	int first, n = 0, rc, rc2, i;

	memset(&r, 0, sizeof(r));
	first = cli_parse(&latency_cmd, argc, argv, latency_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (r.package && !r.layers_mode) {
		cli_error("--package goes with --layers");
		return CLI_USAGE;
	}
	paths = expand_inputs(argv + first, argc - first, &n);
	if (!paths)
		return CLI_INPUT;
	if (!n && argc > first) { /* empty folders: not standard input */
		cli_error("no input file: the folders given hold no files");
		free(paths);
		return CLI_INPUT;
	}
	name = n == 1 && strcmp(paths[0], "-") ? paths[0] : n > 1 ? "the inputs" : "standard input";
	sink.user = &r;
	r.u = gfxstat_unwrap_new(latency_out, &r, &r.ust);
	if (r.layers_mode)
		r.lr = gfxstat_line_reader_new(0, list_line, &r, NULL);
	else
		r.p = gfxstat_sfl_new(r.layer, &sink, &r.st);
	if (!r.u || (!r.lr && !r.p)) {
		cli_error("out of memory");
		rc = CLI_INPUT;
		goto out;
	}
	if (!r.layers_mode)
		fputs("present_ns,desired_ns,ready_ns,interval_ns\n", stdout);
	cli_catch_signals();
	rc = cli_read_inputs(paths, n, latency_feed, latency_eof, &r, &bytes);
	if (!rc && !r.lib_rc && r.p)
		r.lib_rc = gfxstat_sfl_finish(r.p);
	if (r.lib_rc && r.lib_rc != GFXSTAT_E_ABORTED) {
		cli_error("%s", gfxstat_strerror(r.lib_rc));
		rc = CLI_INPUT;
		goto out;
	}
	if (fflush(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno));
		rc = CLI_OUTPUT;
		goto out;
	}
	if (!rc && !bytes && !cli_stop_signal && (rc = cli_empty_input(name)))
		goto out;
	damaged = report_unwrap(name, &r.ust);
	if (r.layers_mode) {
		if (r.package && r.best)
			printf("%s\n", r.best);
		cli_info("%llu layer names", r.names);
		if (!rc && !r.names) {
			cli_error("%s: no layer names: not 'dumpsys SurfaceFlinger --list' output",
				  name);
			rc = CLI_INPUT;
		} else if (!rc && r.package && !r.best) {
			cli_error("no layer of '%s' in the --list output", r.package);
			rc = CLI_INPUT;
		}
		if (!rc && damaged)
			rc = cli_damaged(name, damaged);
		if (fflush(stdout) && rc == CLI_OK) {
			cli_error("cannot write standard output: %s", strerror(errno));
			rc = CLI_OUTPUT;
		}
		goto out;
	}
	rc2 = report_latency(&r, name);
	if (!rc)
		rc = rc2;
	if (!rc && damaged)
		rc = cli_damaged(name, damaged);
out:
	gfxstat_unwrap_free(r.u);
	gfxstat_sfl_free(r.p);
	gfxstat_line_reader_free(r.lr);
	free(r.best);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}
