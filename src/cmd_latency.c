/* SPDX-License-Identifier: MIT */
/*
 * gfxstat latency: stitch dumpsys SurfaceFlinger --latency polls into one frame list, as CSV
 * or as one JSON document (docs/output.md); --layers reads --list output instead.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_json.h"
#include "cmd_unwrap.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_container.h"
#include "gfxstat/gfxstat_sflatency.h"

/* Files taken from one directory of polls. */
#define MAX_DIR_FILES 100000

enum { OPT_LAYER = 256, OPT_LAYERS, OPT_APP, OPT_PACKAGE, OPT_FORMAT };

static const struct cli_opt latency_opts[] = {
	{ OPT_LAYER, "layer", "NAME", "the layer the dumps were taken for (labels the frames)" },
	{ OPT_LAYERS, "layers", NULL, "the inputs are --list output: print the layer names" },
	{ OPT_APP, "app", "PKG", "with --layers: print only the likeliest layer of PKG" },
	{ OPT_PACKAGE, "package", "PKG", NULL },
	{ OPT_FORMAT, "format", "csv|json", "output format (csv); json: one document, a header first" },
	{ 'q', "quiet", NULL, "no summary on standard error, only warnings and errors" },
	{ 0, NULL, NULL, NULL },
};

static const char latency_details[] =
	"Reads 'dumpsys SurfaceFlinger --latency <layer>' output: one dump, a concatenation of\n"
	"dumps, or a directory of polls (files read in name order), plain, UTF-16 or gzip.\n"
	"Writes the frames as CSV on standard output, oldest first, each frame once:\n"
	"  present_ns,desired_present_ns,actual_end_ns,interval_ns\n"
	"(actualPresentTime, desiredPresentTime, frameReadyTime, time since the previous\n"
	"present; an empty field when unknown), the names 'gfxstat frames' uses. With\n"
	"--format json, one document: the header (inputs, refresh rate, span), then the same\n"
	"frames (null when unknown), the gaps and the counts.\n"
	"Successive polls overlap (the ring holds 127 frames): the overlap is dropped.\n"
	"Frames whose present fence was pending are taken\n"
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
	"gfxstat latency [--layer NAME] [--format csv|json] [-q] FILE...|DIR|-\n"
	"       gfxstat latency --layers [--app PKG] FILE|-",
	"Frames from dumpsys SurfaceFlinger --latency polls, stitched, as CSV or JSON.",
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
	/* --format json: frames and gaps held until the header (every input) is known */
	int json;
	struct cli_json_header hdr;
	FILE *jframes, *jgaps;
	char *bframes, *bgaps;
	size_t nbframes, nbgaps, nframes, ngaps;
	char **paths;             /* the inputs, for the header: one end of file each */
	int npaths, file;
	unsigned long long file_bytes;
	int header_failed;
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
	case OPT_FORMAT:
		if (strcmp(arg, "csv") && strcmp(arg, "json")) {
			cli_error("--format takes csv or json, not '%s'", arg);
			return -1;
		}
		r->json = !strcmp(arg, "json");
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
	struct latency_run *r = user;

	if (r->json) {
		FILE *o = r->jframes;

		cli_json_header_frame(&r->hdr, f);
		fputs(r->nframes++ ? ",\n{\"present_ns\":" : "\n{\"present_ns\":", o);
		cli_json_ns(o, f->present_ns);
		fputs(",\"desired_present_ns\":", o);
		cli_json_ns(o, f->desired_present_ns);
		fputs(",\"actual_end_ns\":", o);
		cli_json_ns(o, f->actual_end_ns);
		fputs(",\"interval_ns\":", o);
		cli_json_ns(o, f->interval_ns);
		fputc('}', o);
		return 0;
	}
	print_ns(f->present_ns, ",");
	print_ns(f->desired_present_ns, ",");
	print_ns(f->actual_end_ns, ",");
	print_ns(f->interval_ns, "\n");
	return 0;
}

static int on_gap(void *user, const struct gfxstat_sfl_gap *g)
{
	struct latency_run *r = user;

	if (r->json) {
		fprintf(r->jgaps, "%s{\"dump\":%" PRIu64 ",\"kind\":\"%s\",\"last_present_ns\":",
			r->ngaps++ ? "," : "", g->dump + 1,
			g->kind == GFXSTAT_SFL_GAP ? "gap" : "restart");
		cli_json_ns(r->jgaps, g->last_present_ns);
		fputs(",\"next_present_ns\":", r->jgaps);
		cli_json_ns(r->jgaps, g->next_present_ns);
		fputc('}', r->jgaps);
	}
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
		printf("%s\n", cli_shown_n(name.p, name.n));
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

	r->file_bytes += n;
	r->lib_rc = gfxstat_unwrap_feed(r->u, buf, n);
	return r->lib_rc;
}

/* The header's entry for the file just read: "utf-16le > sf-latency" is its layers. */
static void header_input(struct latency_run *r)
{
	char layers[256];
	const char *fmt, *path = r->file < r->npaths ? r->paths[r->file] : "-";

	cmd_unwrap_layers_text(r->u, layers, sizeof(layers));
	fmt = strrchr(layers, ' ');
	fmt = fmt ? fmt + 1 : layers;
	if (cli_json_header_input(&r->hdr, path, fmt, layers, r->file_bytes))
		r->header_failed = 1;
	r->file++;
	r->file_bytes = 0;
}

static int latency_eof(void *user)
{
	struct latency_run *r = user;

	r->lib_rc = gfxstat_unwrap_finish(r->u);
	if (r->json) /* read before the next file is sniffed afresh */
		header_input(r);
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
			if (cli_grow((void **)&v, &cap, nv, sizeof(*v), 16)) {
				free(path);
				path = NULL;
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

/* `latency --format json` (docs/output.md): the header, then what was held in memory. */
static void json_document(struct latency_run *r)
{
	const uint64_t *v = r->st.v;

	fclose(r->jframes);
	fclose(r->jgaps);
	r->jframes = r->jgaps = NULL;
	cli_json_begin(stdout, &r->hdr);
	fputs("\n\"layer\":", stdout);
	if (r->layer && r->layer[0])
		cli_json_str(stdout, r->layer);
	else
		fputs("null", stdout);
	fprintf(stdout, ",\"counts\":{\"dumps\":%" PRIu64 ",\"rows\":%" PRIu64 ",\"frames\":%"
		PRIu64 ",\"overlap_rows\":%" PRIu64 ",\"gaps\":%" PRIu64 ",\"restarts\":%" PRIu64
		"},\n\"gaps\":[", v[GFXSTAT_SFL_STAT_dumps], v[GFXSTAT_SFL_STAT_rows],
		v[GFXSTAT_SFL_STAT_frames], v[GFXSTAT_SFL_STAT_overlap_rows],
		v[GFXSTAT_SFL_STAT_gaps], v[GFXSTAT_SFL_STAT_resets]);
	fwrite(r->bgaps, 1, r->nbgaps, stdout);
	fputs("],\n\"frames\":[", stdout);
	fwrite(r->bframes, 1, r->nbframes, stdout);
	fputs("]}\n", stdout);
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
	if (r.json && r.layers_mode) {
		cli_error("--format json writes frames: not with --layers, which prints names");
		return CLI_USAGE;
	}
	cli_json_header_init(&r.hdr, "latency");
	paths = expand_inputs(argv + first, argc - first, &n);
	if (!paths)
		return CLI_INPUT;
	if (!n && argc > first) { /* empty folders: not standard input */
		cli_error("no input file: the folders given hold no files");
		free(paths);
		return CLI_INPUT;
	}
	name = n == 1 && strcmp(paths[0], "-") ? paths[0] : n > 1 ? "the inputs" : "standard input";
	r.paths = paths;
	r.npaths = n;
	sink.user = &r;
	r.u = gfxstat_unwrap_new(latency_out, &r, &r.ust);
	if (r.layers_mode)
		r.lr = gfxstat_line_reader_new(0, list_line, &r, NULL);
	else
		r.p = gfxstat_sfl_new(r.layer, &sink, &r.st);
	if (r.json) {
		r.jframes = open_memstream(&r.bframes, &r.nbframes);
		r.jgaps = open_memstream(&r.bgaps, &r.nbgaps);
	}
	if (!r.u || (!r.lr && !r.p) || (r.json && (!r.jframes || !r.jgaps))) {
		cli_error("out of memory");
		rc = CLI_INPUT;
		goto out;
	}
	if (!r.layers_mode && !r.json) /* the names `frames` uses (docs/output.md) */
		fputs("present_ns,desired_present_ns,actual_end_ns,interval_ns\n", stdout);
	cli_catch_signals();
	rc = cli_read_inputs(paths, n, latency_feed, latency_eof, &r, &bytes);
	if (cli_interrupted()) {
		rc = cli_interrupted();
		goto out;
	}
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
	damaged = cmd_unwrap_report(name, &r.ust);
	if (r.layers_mode) {
		if (r.package && r.best)
			printf("%s\n", cli_shown(r.best));
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
	if (r.json && r.header_failed) {
		cli_error("out of memory");
		rc = CLI_INPUT;
	} else if (r.json) {
		json_document(&r);
	}
	if (fflush(stdout) && rc == CLI_OK) {
		cli_error("cannot write standard output: %s", strerror(errno));
		rc = CLI_OUTPUT;
	}
out:
	if (r.jframes)
		fclose(r.jframes);
	if (r.jgaps)
		fclose(r.jgaps);
	free(r.bframes);
	free(r.bgaps);
	cli_json_header_free(&r.hdr);
	gfxstat_unwrap_free(r.u);
	gfxstat_sfl_free(r.p);
	gfxstat_line_reader_free(r.lr);
	free(r.best);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}
