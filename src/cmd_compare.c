/* SPDX-License-Identifier: MIT */
/* gfxstat compare: BASE against NEW per app, with a 95 % interval and a verdict; gates. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_source.h"
#include "cli_store.h"
#include "cmd_compare.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_compare.h"

enum {
	OPT_APP = 256, OPT_LAYER, OPT_FORMAT, OPT_FAIL_IF, OPT_JUNIT, OPT_RESAMPLES, OPT_SEED,
	OPT_BLOCK, OPT_SAVE, OPT_DB, OPT_LABEL, OPT_METHOD, OPT_SEGMENT
};

static const struct cli_opt compare_opts[] = {
	{ OPT_APP, "app", "PKG", "only this package" },
	{ OPT_LAYER, "layer", "SUBSTRING", "compare layers whose name contains SUBSTRING, not apps" },
	{ OPT_FORMAT, "format", "table|json", "output format (table)" },
	{ OPT_FAIL_IF, "fail-if", "EXPR", "a gate, e.g. 'fps<55', 'janky_pct regressed' (repeatable)" },
	{ OPT_JUNIT, "junit", "FILE", "write the gates as JUnit XML" },
	{ OPT_METHOD, "method", "segments|block", "under 3 recordings a side (segments)" },
	{ OPT_SEGMENT, "segment", "SEC", "segments: one per SEC of a recording, 2 to 8 (5)" },
	{ OPT_RESAMPLES, "resamples", "N", "block: bootstrap resamples (400)" },
	{ OPT_SEED, "seed", "N", "block: seed of the resampling, for reproducible intervals (1)" },
	{ OPT_BLOCK, "block", "SEC", "block: block of time resampled together (1)" },
	{ OPT_SAVE, "save", NULL, "store NEW's recordings in the history (gfxstat history)" },
	{ OPT_DB, "db", "PATH|URL", "history store: SQLite file or postgresql:// URL" },
	{ OPT_LABEL, "label", "TEXT", "label of the saved runs: build id, git sha, branch" },
	{ 'q', "quiet", NULL, "no warnings about skipped input lines" },
	{ 0, NULL, NULL, NULL },
};

static const char compare_details[] =
	"BASE and NEW are each a recording (any input gfxstat reads), a session folder of\n"
	"'gfxstat record', or a run folder of iterations (one session per subfolder; an\n"
	"iteration marked failed in its iteration.json is left out and named).\n"
	"With >= 3 recordings a side the interval is Welch's t interval over the per-recording\n"
	"values. Otherwise the frames of each side are cut into 2 to 8 consecutive segments of\n"
	"time (one per --segment SEC), the library computes every metric on each, and the\n"
	"interval is Welch's t over the segment values, centred on the whole recordings'\n"
	"difference: segments see what drifts over seconds, which differs between recordings.\n"
	"--method block instead resamples 1 s blocks (--block); it sees only the noise inside\n"
	"one recording and calls too many same-distribution pairs different.\n"
	"The verdict is better or worse when the 95 % interval excludes 0, else no significant\n"
	"change. See docs/compare.md for the calibration.\n"
	"Gates (--fail-if): METRIC<N, <=, >, >= on NEW's value; 'METRIC regressed' and\n"
	"'METRIC worse_by>N[%]' only when the change is significant. Metrics: fps, janky_pct,\n"
	"p50_ms, p90_ms, p99_ms, jank_per_min, big_jank_per_min, hitch_ms_per_s, scroll_fps,\n"
	"frozen_frames.\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed, 2 usage, 3 unreadable input, 5 cannot write.\n";

static const struct cli_cmd compare_cmd = {
	"gfxstat compare",
	"gfxstat compare [--app PKG] [--layer S] [--format table|json] [--fail-if EXPR]...\n"
	"                       [--junit FILE] [--save [--db PATH|URL] [--label L]] BASE NEW",
	"Compare two recordings or sets of iterations: difference, 95 % interval, verdict.",
	compare_details,
	compare_opts,
};

static int compare_opt(void *user, int id, const char *arg)
{
	struct compare *c = user;
	long v;

	switch (id) {
	case OPT_APP:
		c->app = arg;
		return 0;
	case OPT_LAYER:
		c->layer = arg;
		return 0;
	case OPT_FORMAT:
		if (strcmp(arg, "json") && strcmp(arg, "table")) {
			cli_error("--format must be table or json, not '%s'", arg);
			return -1;
		}
		c->json = !strcmp(arg, "json");
		return 0;
	case OPT_FAIL_IF:
		if (c->ngates == MAX_GATES) {
			cli_error("at most %d --fail-if gates", MAX_GATES);
			return -1;
		}
		return cli_gate_parse(arg, 1, &c->gates[c->ngates++]);
	case OPT_JUNIT:
		c->junit = arg;
		return 0;
	case OPT_RESAMPLES:
		if (cli_long("--resamples", arg, 50, 100000, &v))
			return -1;
		c->resamples = v;
		return 0;
	case OPT_SEED:
		if (cli_long("--seed", arg, 0, 0x7fffffffL, &v))
			return -1;
		c->seed = (unsigned long long)v;
		return 0;
	case OPT_BLOCK:
		return cli_duration_ns("--block", arg, GFXSTAT_NSEC_PER_SEC, &c->block_ns) ||
		       (c->block_ns < 10 * GFXSTAT_NSEC_PER_MSEC &&
			(cli_error("--block must be at least 0.01 s"), 1)) ? -1 : 0;
	case OPT_METHOD:
		if (strcmp(arg, "segments") && strcmp(arg, "block")) {
			cli_error("--method must be segments or block, not '%s'", arg);
			return -1;
		}
		c->block = !strcmp(arg, "block");
		return 0;
	case OPT_SEGMENT:
		return cli_duration_ns("--segment", arg, GFXSTAT_NSEC_PER_SEC, &c->seg_ns) ||
		       (c->seg_ns < GFXSTAT_NSEC_PER_SEC &&
			(cli_error("--segment must be at least 1 s"), 1)) ? -1 : 0;
	case OPT_SAVE:
		c->save = 1;
		return 0;
	case OPT_DB:
		c->db = arg;
		return 0;
	case OPT_LABEL:
		c->label = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The raw capture of session folder @dir (cmd_record.c's names), or NULL. */
static char *session_input(const char *dir)
{
	static const char *const names[] = { "trace.txt.gz", "trace.pftrace", "latency.txt.gz",
					     "gfxinfo.txt.gz", "trace.txt" };
	char p[4096];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (is_file(p))
			return strdup(p);
	}
	return NULL;
}

/* Whether iteration folder @dir says it failed (cmd_record_repeat.c writes iteration.json). */
static int iteration_failed(const char *dir)
{
	char p[4096], buf[4096];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/iteration.json", dir);
	f = fopen(p, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, "\"failed\":true") != NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push(char ***v, size_t *n, char *s)
{
	char **nv = s ? realloc(*v, (*n + 1) * sizeof(**v)) : NULL;

	if (!nv) {
		free(s);
		return -1;
	}
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

/* A side's recordings: a file, a session folder, or a run folder of session folders. */
static int side_resolve(struct side *s)
{
	char *in, **sub = NULL, p[4096];
	size_t nsub = 0, i;
	DIR *d;
	struct dirent *e;

	if (!is_dir(s->path))
		return push(&s->recs, &s->nrec, strdup(s->path)) ? CLI_INPUT : CLI_OK;
	in = session_input(s->path);
	if (in)
		return push(&s->recs, &s->nrec, in) ? CLI_INPUT : CLI_OK;
	d = opendir(s->path);
	if (!d) {
		cli_error("cannot open '%s': %s", s->path, strerror(errno));
		return CLI_INPUT;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof(p), "%s/%s", s->path, e->d_name);
			if (is_dir(p) && push(&sub, &nsub, strdup(p)))
				break;
		}
	closedir(d);
	qsort(sub, nsub, sizeof(*sub), cmp_str);
	for (i = 0; i < nsub; i++) {
		in = session_input(sub[i]);
		if (in && iteration_failed(sub[i])) {
			free(in);
			push(&s->failed, &s->nfailed, strdup(sub[i]));
		} else if (in) {
			push(&s->recs, &s->nrec, in);
		}
		free(sub[i]);
	}
	free(sub);
	if (!s->nrec) {
		cli_error("'%s' is neither a recording, a session folder nor a run folder of "
			  "sessions (no trace.txt.gz, trace.pftrace, latency.txt.gz or gfxinfo.txt.gz)",
			  s->path);
		return CLI_INPUT;
	}
	return CLI_OK;
}

int cmp_key_match(const struct compare *c, const struct gfxstat_layer_metrics *l)
{
	if (c->app && (!l->app || strcmp(l->app, c->app)))
		return 0;
	if (c->layer)
		return !l->is_app && strstr(l->name, c->layer) != NULL;
	return l->is_app && l->app && l->app[0];
}

struct keyed_frames *cmp_key_get(struct side *s, const char *p, size_t n)
{
	struct keyed_frames *k;
	size_t i;

	for (i = 0; i < s->nkeys; i++)
		if (strlen(s->keys[i].key) == n && !memcmp(s->keys[i].key, p, n))
			return &s->keys[i];
	k = realloc(s->keys, (s->nkeys + 1) * sizeof(*k));
	if (!k)
		return NULL;
	s->keys = k;
	k = &k[s->nkeys];
	memset(k, 0, sizeof(*k));
	k->key = malloc(n + 1);
	if (!k->key)
		return NULL;
	memcpy(k->key, p, n);
	k->key[n] = 0;
	s->nkeys++;
	return k;
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct compare *c = user;
	struct gfxstat_str key = c->layer ? f->layer : f->app;
	struct keyed_frames *k;

	if ((c->lib_rc = gfxstat_metrics_frame(c->cur_m, f)))
		return c->lib_rc;
	if (!c->keep_frames || f->present_ns == GFXSTAT_NS_NONE || !key.n ||
	    (c->layer && !cli_str_contains(f->layer, c->layer)) ||
	    (c->app && (f->app.n != strlen(c->app) || memcmp(f->app.p, c->app, f->app.n))))
		return 0;
	k = cmp_key_get(c->cur, key.p, key.n);
	if (!k)
		return c->lib_rc = GFXSTAT_E_NOMEM;
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 1024;
		struct gfxstat_frame *nf = realloc(k->f, cap * sizeof(*nf));

		if (!nf)
			return c->lib_rc = GFXSTAT_E_NOMEM;
		k->f = nf;
		k->cap = cap;
	}
	k->f[k->n] = *f;
	/* the text is borrowed: the copy names its key, which outlives it */
	k->f[k->n].layer.p = k->key;
	k->f[k->n].layer.n = key.n;
	k->f[k->n].app = k->f[k->n].layer;
	if (c->layer)
		k->f[k->n].app.n = 0;
	k->n++;
	return 0;
}

static int side_read(struct compare *c, struct side *s)
{
	struct gfxstat_metrics_opts mo;
	size_t i;

	gfxstat_metrics_opts_init(&mo);
	s->m = calloc(s->nrec, sizeof(*s->m));
	if (!s->m)
		return CLI_INPUT;
	c->cur = s;
	for (i = 0; i < s->nrec; i++) {
		struct cli_source src;
		int rc;

		cli_source_end_recording(); /* each recording on its own */
		s->m[i] = c->cur_m = gfxstat_metrics_new(&mo);
		if (!c->cur_m)
			return CLI_INPUT;
		rc = cli_source_read(s->recs[i], on_frame, c, &src);
		if (rc)
			return rc;
		cli_source_report(&src, 0);
		cli_source_free(&src);
		if (c->lib_rc || gfxstat_metrics_finish(c->cur_m)) {
			cli_error("%s: %s", s->recs[i],
				  gfxstat_strerror(c->lib_rc ? c->lib_rc : GFXSTAT_E_NOMEM));
			return CLI_INPUT;
		}
	}
	cli_source_end_recording();
	return CLI_OK;
}

const struct gfxstat_layer_metrics *cmp_find_row(const struct compare *c,
						  const struct gfxstat_metrics *m, const char *key)
{
	size_t i, n = gfxstat_metrics_count(m);

	for (i = 0; i < n; i++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, i);

		if (cmp_key_match(c, l) && !strcmp(c->layer ? l->name : l->app, key))
			return l;
	}
	return NULL;
}

static enum cli_verdict verdict(int metric, const struct gfxstat_ci *ci)
{
	int up;

	if (ci->method == GFXSTAT_CI_NONE)
		return CLI_V_NA;
	if (ci->lo <= 0 && ci->hi >= 0)
		return CLI_V_SAME;
	up = ci->lo > 0;
	return up == cli_metrics[metric].higher_better ? CLI_V_BETTER : CLI_V_WORSE;
}

/* Welch over per-recording values of @key; recordings without the key or the value skip. */
static void welch_key(const struct compare *c, struct side *b, struct side *n, const char *key,
		      struct result *res)
{
	double *vb = malloc(b->nrec * sizeof(*vb)), *vn = malloc(n->nrec * sizeof(*vn));
	size_t i, nb, nn;
	int j;

	for (j = 0; j < CLI_M_COUNT && vb && vn; j++) {
		for (i = nb = 0; i < b->nrec; i++) {
			const struct gfxstat_layer_metrics *l = cmp_find_row(c, b->m[i], key);

			if (l && !isnan(cli_metric_value(l, j)))
				vb[nb++] = cli_metric_value(l, j);
		}
		for (i = nn = 0; i < n->nrec; i++) {
			const struct gfxstat_layer_metrics *l = cmp_find_row(c, n->m[i], key);

			if (l && !isnan(cli_metric_value(l, j)))
				vn[nn++] = cli_metric_value(l, j);
		}
		gfxstat_ci_welch(vb, nb, vn, nn, LEVEL, &res->ci[j]);
		if (res->ci[j].method == GFXSTAT_CI_NONE) {
			res->ci[j].base = nb ? gfxstat_mean_sd(vb, nb, &res->ci[j].df) : NAN;
			res->ci[j].new_ = nn ? gfxstat_mean_sd(vn, nn, &res->ci[j].df) : NAN;
			res->ci[j].diff = res->ci[j].new_ - res->ci[j].base;
		}
	}
	free(vb);
	free(vn);
}

/* --save: every recording of NEW, as its own run. */
static int save_new(const struct compare *c, struct side *n)
{
	struct cli_store *st;
	size_t i;
	int rc = cli_store_open(c->db, &st);

	for (i = 0; !rc && i < n->nrec; i++) {
		struct cli_store_run run = { 0 };
		char *abs;

		run.label = c->label;
		run.source = "compare";
		run.kind = "compare";
		/* an absolute path: the store outlives the working directory */
		abs = realpath(n->recs[i], NULL);
		run.session_path = abs ? abs : n->recs[i];
		rc = cli_store_save_all(st, &run, n->m[i], NULL);
		free(abs);
	}
	cli_store_close(st);
	return rc;
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nrec; i++) {
		free(s->recs[i]);
		if (s->m)
			gfxstat_metrics_free(s->m[i]);
	}
	for (i = 0; i < s->nfailed; i++)
		free(s->failed[i]);
	for (i = 0; i < s->nkeys; i++) {
		free(s->keys[i].key);
		free(s->keys[i].f);
	}
	free(s->recs);
	free(s->failed);
	free(s->m);
	free(s->keys);
}

int cmd_compare(int argc, char **argv)
{
	struct compare c;
	struct side s[2];
	struct result *res = NULL;
	struct cli_gate_result *gr = NULL;
	size_t nres = 0, ngr = 0, i, g;
	int first, rc = CLI_OK, boot, failed = 0, j, k;

	memset(&c, 0, sizeof(c));
	memset(s, 0, sizeof(s));
	c.resamples = 400;
	c.seed = 1;
	c.block_ns = GFXSTAT_NSEC_PER_SEC;
	c.seg_ns = 5 * GFXSTAT_NSEC_PER_SEC;
	first = cli_parse(&compare_cmd, argc, argv, compare_opt, &c);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (argc - first != 2) {
		cli_error("compare takes two inputs, BASE and NEW, not %d", argc - first);
		return CLI_USAGE;
	}
	if ((c.db || c.label) && !c.save) {
		cli_error("--db and --label go with --save");
		return CLI_USAGE;
	}
	s[0].path = argv[first];
	s[1].path = argv[first + 1];
	for (k = 0; k < 2 && !rc; k++)
		rc = side_resolve(&s[k]);
	boot = s[0].nrec < 3 || s[1].nrec < 3;
	c.keep_frames = boot;
	for (k = 0; k < 2 && !rc; k++)
		rc = side_read(&c, &s[k]);
	if (rc)
		goto out;
	/* the keys of both sides, in BASE's order */
	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k].nrec; i++) {
			size_t n = gfxstat_metrics_count(s[k].m[i]), r;

			for (r = 0; r < n; r++) {
				const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(s[k].m[i], r);
				const char *key = c.layer ? l->name : l->app;
				size_t q;

				if (!cmp_key_match(&c, l))
					continue;
				for (q = 0; q < nres && strcmp(res[q].key, key); q++)
					;
				if (q < nres || k == 1)
					continue;
				res = realloc(res, (nres + 1) * sizeof(*res));
				if (!res)
					goto nomem;
				memset(&res[nres], 0, sizeof(*res));
				res[nres++].key = key;
			}
		}
	for (i = 0; i < nres; i++) {
		struct keyed_frames *kb = NULL, *kn = NULL;
		double pb[CLI_M_COUNT], pn[CLI_M_COUNT];

		if (!boot) {
			welch_key(&c, &s[0], &s[1], res[i].key, &res[i]);
		} else {
			kb = cmp_key_get(&s[0], res[i].key, strlen(res[i].key));
			kn = cmp_key_get(&s[1], res[i].key, strlen(res[i].key));
			if (!kb || !kn)
				goto nomem;
			for (j = 0; j < CLI_M_COUNT; j++)
				res[i].ci[j].base = res[i].ci[j].new_ = res[i].ci[j].diff = NAN;
			if (kb->n < 2 || kn->n < 2) {
				cli_warn("%s: not in both BASE and NEW: not compared", res[i].key);
				continue;
			}
			if (cmp_point(&c, &s[0], kb, pb) || cmp_point(&c, &s[1], kn, pn))
				goto nomem;
			for (j = 0; j < CLI_M_COUNT; j++) {
				res[i].ci[j].base = pb[j];
				res[i].ci[j].new_ = pn[j];
				res[i].ci[j].diff = pn[j] - pb[j];
			}
			if ((c.block ? cmp_boot_key : cmp_seg_key)(&c, kb, kn, &res[i]))
				goto nomem;
		}
		for (j = 0; j < CLI_M_COUNT; j++)
			res[i].v[j] = verdict(j, &res[i].ci[j]);
	}
	if (!nres)
		cli_warn("nothing to compare: no %s%s%s in BASE", c.layer ? "layer matching " : "app",
			 c.layer ? c.layer : c.app ? " " : "", c.app && !c.layer ? c.app : "");
	gr = calloc(c.ngates * (nres ? nres : 1) + 1, sizeof(*gr));
	if (!gr)
		goto nomem;
	for (g = 0; g < c.ngates; g++)
		for (i = 0; i < nres; i++) {
			const struct gfxstat_ci *ci = &res[i].ci[c.gates[g].metric];
			struct cli_gate_input in = { res[i].key, ci->new_, 1, ci->base, ci->diff,
						     ci->lo, ci->hi, res[i].v[c.gates[g].metric] };

			cli_gate_eval(&c.gates[g], &in, &gr[ngr]);
			if (gr[ngr].failed) {
				cli_error("gate '%s' failed on %s: %s", c.gates[g].expr, res[i].key,
					  gr[ngr].msg);
				failed = 1;
			}
			ngr++;
		}
	if (c.json)
		cmp_print_json(&c, s, boot, res, nres, gr, ngr);
	else
		cmp_print_table(&c, s, boot, res, nres);
	if (fflush(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno));
		rc = CLI_OUTPUT;
	}
	if (c.junit && (j = cli_junit_write(c.junit, "gfxstat compare", gr, ngr))) {
		cli_error("cannot write '%s': %s", c.junit, strerror(j));
		rc = CLI_OUTPUT;
	}
	if (!rc && c.save)
		rc = save_new(&c, &s[1]);
	if (!rc && failed)
		rc = CLI_JANK;
	goto out;
nomem:
	cli_error("out of memory");
	rc = CLI_INPUT;
out:
	free(res);
	free(gr);
	side_free(&s[0]);
	side_free(&s[1]);
	return rc;
}
