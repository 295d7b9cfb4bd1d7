/* SPDX-License-Identifier: MIT */
/*
 * gfxstat compare: BASE against NEW per app, with a 95 % interval and a verdict; gates.
 * Each side is one or more recordings (cli_input.h); each recording is read into a model of
 * its own and analysed alone, and only per-recording values (or, under 3 recordings a side,
 * segments of each recording) feed the statistics: two recordings are never one timeline.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_input.h"
#include "cli_json.h"
#include "cli_source.h"
#include "cli_store.h"
#include "cmd_compare.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_compare.h"

enum {
	OPT_APP = 256, OPT_LAYER, OPT_FORMAT, OPT_FAIL_IF, OPT_JUNIT, OPT_RESAMPLES, OPT_SEED,
	OPT_BLOCK, OPT_SAVE, OPT_DB, OPT_LABEL, OPT_METHOD, OPT_SEGMENT, OPT_BASE, OPT_NEW
};

static const struct cli_opt compare_opts[] = {
	{ OPT_BASE, "base", "INPUT", "one of BASE's inputs (repeatable; NEW's with --new)" },
	{ OPT_NEW, "new", "INPUT", "the same for NEW (repeatable)" },
	{ OPT_APP, "app", "PKG", "only this package; a gate fails when NEW has no frames of it" },
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
	"BASE and NEW are each one or more recordings: a file (any input gfxstat reads), a\n"
	"session folder of 'gfxstat record', a run folder of sessions (record --repeat or --all;\n"
	"an iteration marked failed in its iteration.json is left out and named), or a folder of\n"
	"recordings (every file in it but .json, .csv, .log, .md and .xml, one recording each,\n"
	"as Macrobenchmark keeps its iterations). Several inputs a side: --base INPUT... --new\n"
	"INPUT... (each option repeated). Each recording is analysed on its own, never merged\n"
	"with another; its values feed the statistics.\n"
	"With >= 3 recordings a side the interval is Welch's t interval over the per-recording\n"
	"values. Otherwise each recording is cut into 2 to 8 consecutive segments of time (one\n"
	"per --segment SEC), the library computes every metric on each, and the interval is\n"
	"Welch's t over the segment values, centred on the difference of the per-recording\n"
	"means: segments see what drifts over seconds, which differs between recordings.\n"
	"--method block instead resamples 1 s blocks (--block); it sees only the noise inside\n"
	"one recording and calls too many same-distribution pairs different.\n"
	"The verdict is better or worse when the 95 % interval excludes 0, else no significant\n"
	"change. See docs/compare.md for the calibration.\n"
	"Gates (--fail-if) judge NEW: METRIC<N, <=, >, >= on NEW's value (the mean of its\n"
	"recordings), for every app of NEW and --app PKG; an app gated with --app that has no\n"
	"frames in a recording of NEW fails. 'METRIC regressed' and 'METRIC worse_by>N[%]' fail\n"
	"only when the change is significant, and fail when the app is not on both sides.\n"
	"Metrics: fps, janky_pct, p50_ms, p90_ms, p99_ms, jank_per_min, big_jank_per_min,\n"
	"hitch_ms_per_s, scroll_fps, frozen_frames. No app in common exits 3, naming both\n"
	"sides' apps.\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed, 2 usage, 3 unreadable input or nothing in common,\n"
	"5 cannot write.\n";

static const struct cli_cmd compare_cmd = {
	"gfxstat compare",
	"gfxstat compare [--app PKG] [--layer S] [--format table|json] [--fail-if EXPR]...\n"
	"                       [--junit FILE] [--save [--db PATH|URL] [--label L]] BASE NEW\n"
	"       gfxstat compare [options] --base INPUT [--base INPUT]... --new INPUT "
	"[--new INPUT]...",
	"Compare two recordings or sets of recordings: difference, 95 % interval, verdict.",
	compare_details,
	compare_opts,
};

struct compare_args {
	struct compare *c;
	struct side *s;
};

static int side_arg(struct side *s, const char *arg)
{
	char **na = realloc(s->args, (s->nargs + 1) * sizeof(*na));

	if (!na) {
		cli_error("out of memory");
		return -1;
	}
	s->args = na;
	na[s->nargs++] = (char *)arg;
	return 0;
}

static int compare_opt(void *user, int id, const char *arg)
{
	struct compare_args *a = user;
	struct compare *c = a->c;
	long v;

	switch (id) {
	case OPT_BASE:
		return side_arg(&a->s[0], arg);
	case OPT_NEW:
		return side_arg(&a->s[1], arg);
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
		return cli_gate_parse(arg, CLI_GATE_BASE, &c->gates[c->ngates++]);
	case OPT_JUNIT:
		c->junit = arg;
		return cli_check_path("--junit", arg) ? -1 : 0;
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

int cmp_key_match(const struct compare *c, const struct gfxstat_layer_metrics *l)
{
	if (c->app && (!l->app || strcmp(l->app, c->app)))
		return 0;
	if (c->layer)
		return !l->is_app && strstr(l->name, c->layer) != NULL;
	return l->is_app && l->app && l->app[0];
}

/* The key's frames in @r, made on first use. */
static struct keyed_frames *key_get(struct rec *r, const char *p, size_t n)
{
	struct keyed_frames *k;
	size_t i;

	for (i = 0; i < r->nkeys; i++)
		if (strlen(r->keys[i].key) == n && !memcmp(r->keys[i].key, p, n))
			return &r->keys[i];
	k = realloc(r->keys, (r->nkeys + 1) * sizeof(*k));
	if (!k)
		return NULL;
	r->keys = k;
	k = &k[r->nkeys];
	memset(k, 0, sizeof(*k));
	k->key = malloc(n + 1);
	if (!k->key)
		return NULL;
	memcpy(k->key, p, n);
	k->key[n] = 0;
	r->nkeys++;
	return k;
}

static struct keyed_frames *key_find(const struct rec *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nkeys; i++)
		if (!strcmp(r->keys[i].key, key))
			return &r->keys[i];
	return NULL;
}

/* @k's copy of layer name @s: the frames kept borrow it */
static const char *layer_name(struct keyed_frames *k, struct gfxstat_str s)
{
	char **nl;
	size_t i;

	for (i = 0; i < k->nlayers; i++)
		if (strlen(k->layers[i]) == s.n && !memcmp(k->layers[i], s.p, s.n))
			return k->layers[i];
	nl = realloc(k->layers, (k->nlayers + 1) * sizeof(*nl));
	if (!nl)
		return NULL;
	k->layers = nl;
	nl[k->nlayers] = malloc(s.n + 1);
	if (!nl[k->nlayers])
		return NULL;
	memcpy(nl[k->nlayers], s.p, s.n);
	nl[k->nlayers][s.n] = 0;
	return nl[k->nlayers++];
}

static int on_frame(void *user, const struct gfxstat_frame *f)
{
	struct compare *c = user;
	struct rec *r = c->cur;
	struct gfxstat_str key = c->layer ? f->layer : f->app;
	struct keyed_frames *k;
	struct gfxstat_frame *kf;

	if ((c->lib_rc = gfxstat_metrics_frame(r->m, f)))
		return c->lib_rc;
	if (f->present_ns == GFXSTAT_NS_NONE || !key.n ||
	    (c->layer && !cli_str_contains(f->layer, c->layer)) ||
	    (c->app && !cli_str_is(f->app, c->app)))
		return 0;
	cli_json_header_frame(&c->hdr, f);
	if (f->vsync_period_ns > 0 && (!r->min_period || f->vsync_period_ns < r->min_period))
		r->min_period = f->vsync_period_ns;
	if (!c->keep_frames)
		return 0;
	k = key_get(r, key.p, key.n);
	if (!k)
		return c->lib_rc = GFXSTAT_E_NOMEM;
	if (k->n == k->cap && cli_grow((void **)&k->f, &k->cap, k->n, sizeof(*k->f), 1024))
		return c->lib_rc = GFXSTAT_E_NOMEM;
	kf = &k->f[k->n];
	*kf = *f;
	/* the text is borrowed: the copy keeps its layer (the library merges an app's layers
	 * by its own rule) under names that outlive the input */
	kf->layer.p = c->layer ? k->key : layer_name(k, f->layer);
	if (!kf->layer.p)
		return c->lib_rc = GFXSTAT_E_NOMEM;
	kf->app.p = k->key;
	kf->app.n = c->layer ? 0 : key.n;
	k->n++;
	return 0;
}

/* Read every recording of side @s, each into a model and metrics of its own. */
static int side_read(struct compare *c, struct side *s)
{
	struct gfxstat_metrics_opts mo;
	size_t i;

	gfxstat_metrics_opts_init(&mo);
	s->rec = calloc(s->in.nfile ? s->in.nfile : 1, sizeof(*s->rec));
	if (!s->rec) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	for (i = 0; i < s->in.nfile; i++) {
		struct rec *r = &s->rec[s->nrec++];
		struct cli_source src;
		int rc;

		r->path = s->in.file[i].path;
		r->name = s->in.name[s->in.file[i].rec];
		cli_source_end_recording(); /* each recording on its own */
		cli_json_header_recording(&c->hdr);
		c->cur = r;
		r->m = cli_metrics_new(&mo);
		if (!r->m) {
			cli_error("out of memory");
			return CLI_INPUT;
		}
		rc = cli_source_read(r->path, on_frame, c, &src);
		if (rc)
			return rc;
		cli_source_report(&src, 0);
		if (src.warnings) {
			/* a gate judged on part of a recording would pass a cut or crashed capture */
			cli_error("%s: damaged or truncated (see the warnings above): compare decides "
				  "nothing on part of a recording", r->name);
			cli_source_free(&src);
			return CLI_INPUT;
		}
		if (cli_json_header_source(&c->hdr, &src))
			c->lib_rc = GFXSTAT_E_NOMEM;
		cli_source_free(&src);
		if (c->lib_rc || gfxstat_metrics_finish(r->m)) {
			cli_error("%s: %s", r->path,
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

/* The recordings of side @s with frames of @key, into @ks. Return: 0 or -1 (memory). */
static int key_side(const struct compare *c, struct side *s, const char *key,
		    struct key_side *ks)
{
	size_t i;

	ks->k = calloc(s->nrec ? s->nrec : 1, sizeof(*ks->k));
	ks->row = calloc(s->nrec ? s->nrec : 1, sizeof(*ks->row));
	ks->rec = calloc(s->nrec ? s->nrec : 1, sizeof(*ks->rec));
	if (!ks->k || !ks->row || !ks->rec)
		return -1;
	for (i = 0; i < s->nrec; i++) {
		const struct gfxstat_layer_metrics *l = cmp_find_row(c, s->rec[i].m, key);

		if (!l || !l->frames)
			continue;
		ks->row[ks->n] = l;
		ks->rec[ks->n] = &s->rec[i];
		ks->k[ks->n] = key_find(&s->rec[i], key);
		ks->n++;
	}
	return 0;
}

static void key_side_free(struct key_side *ks)
{
	free(ks->k);
	free(ks->row);
	free(ks->rec);
}

/* The mean of metric @j over the recordings of @ks that have it, NAN if none; their values
 * into @v, their count into *@nv. */
static double side_values(const struct key_side *ks, int j, double *v, size_t *nv)
{
	double sd;
	size_t i;

	*nv = 0;
	for (i = 0; i < ks->n; i++) {
		double x = cli_metric_value(ks->row[i], j);

		if (!isnan(x))
			v[(*nv)++] = x;
	}
	return *nv ? gfxstat_mean_sd(v, *nv, &sd) : NAN;
}

/* Point estimates (the per-recording means) and the interval of every metric of @r. */
static int compute_key(const struct compare *c, int welch, struct result *r)
{
	size_t nb = r->side[0].n, nn = r->side[1].n, cb, cn;
	double *vb = malloc((nb ? nb : 1) * sizeof(*vb)), *vn = malloc((nn ? nn : 1) * sizeof(*vn));
	int j, rc = 0;

	if (!vb || !vn) {
		free(vb);
		free(vn);
		return GFXSTAT_E_NOMEM;
	}
	for (j = 0; j < CLI_M_COUNT; j++) {
		struct gfxstat_ci *ci = &r->ci[j];

		memset(ci, 0, sizeof(*ci));
		ci->base = side_values(&r->side[0], j, vb, &cb);
		ci->new_ = side_values(&r->side[1], j, vn, &cn);
		ci->diff = ci->new_ - ci->base;
		if (welch) /* on success, the same means and their difference */
			gfxstat_ci_welch(vb, cb, vn, cn, LEVEL, ci);
	}
	if (!welch && nb && nn)
		rc = (c->block ? cmp_boot_key : cmp_seg_key)(c, &r->side[0], &r->side[1], r);
	for (j = 0; j < CLI_M_COUNT; j++)
		r->v[j] = verdict(j, &r->ci[j]);
	free(vb);
	free(vn);
	return rc;
}

/* Up to 8 names of what side @s holds that compare could key on ("a, b, ..."), or "no app". */
static void side_names(const struct compare *c, const struct side *s, char *buf, size_t cap)
{
	const char *seen[9];
	size_t i, r, q, nseen = 0, o = 0;

	buf[0] = 0;
	for (i = 0; i < s->nrec && nseen < 9; i++) {
		size_t n = gfxstat_metrics_count(s->rec[i].m);

		for (r = 0; r < n && nseen < 9; r++) {
			const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(s->rec[i].m, r);
			const char *name = c->layer ? l->name : l->app;

			if (c->layer ? l->is_app || !strstr(l->name, c->layer)
				     : !l->is_app || !l->app || !l->app[0])
				continue;
			for (q = 0; q < nseen && strcmp(seen[q], name); q++)
				;
			if (q == nseen)
				seen[nseen++] = name;
		}
	}
	for (q = 0; q < nseen && o + 1 < cap; q++) {
		o += (size_t)snprintf(buf + o, cap - o, "%s%s", q ? ", " : "",
				      q == 8 ? "..." : seen[q]);
		if (o >= cap)
			o = cap - 1;
	}
	if (!nseen)
		snprintf(buf, cap, "%s", c->layer ? "no matching layer" : "no app");
}

/*
 * An FPS above FPS_SLACK x the highest refresh rate in force, or a median frame time of 0,
 * cannot be: said as an internal error, never printed as a result. Return: 0 or CLI_INPUT.
 */
static int implausible(const struct result *res, size_t nres)
{
	size_t i, q;
	int k;

	for (i = 0; i < nres; i++)
		for (k = 0; k < 2; k++)
			for (q = 0; q < res[i].side[k].n; q++) {
				const struct gfxstat_layer_metrics *l = res[i].side[k].row[q];
				const struct rec *r = res[i].side[k].rec[q];
				double fps = cli_metric_value(l, CLI_M_FPS);

				if (!isnan(fps) && r->min_period > 0 &&
				    fps * (double)r->min_period > FPS_SLACK * 1e9) {
					cli_error("internal error: %s in %s: %.2f FPS, above %.2f x "
						  "its highest refresh rate (%.1f Hz); not printed",
						  res[i].key, r->path, fps, FPS_SLACK,
						  1e9 / (double)r->min_period);
					return CLI_INPUT;
				}
				if (l->intervals && !(l->frame_ms_p50 > 0)) {
					cli_error("internal error: %s in %s: a median frame time of "
						  "%g ms; not printed", res[i].key, r->path,
						  l->frame_ms_p50);
					return CLI_INPUT;
				}
			}
	return CLI_OK;
}

/* The first recording of NEW without frames of @r's key, or NULL. */
static const char *missing_in(const struct side *s, const struct key_side *ks)
{
	size_t i, q;

	for (i = 0; i < s->nrec; i++) {
		for (q = 0; q < ks->n && ks->rec[q] != &s->rec[i]; q++)
			;
		if (q == ks->n)
			return s->rec[i].name;
	}
	return NULL;
}

/*
 * Judge every gate. A threshold gate: on every key NEW has, and on --app whether NEW has it
 * or not; a relative gate: on every key, which must be on both sides. Return: results made.
 */
static size_t run_gates(const struct compare *c, const struct side *s, const struct result *res,
			size_t nres, struct cli_gate_result *gr, int *failed)
{
	char names[256];
	size_t g, i, n = 0;

	/* --app with --layer: the keys are the app's layers (each judged below); none on either
	 * side is the app missing */
	for (g = 0; g < c->ngates && c->app && c->layer && !nres; g++) {
		cli_gate_fail(&c->gates[g], c->app, &gr[n], "no layer matching '%s' of %s in NEW",
			      c->layer, c->app);
		cli_error("gate '%s' failed on %s: %s", c->gates[g].expr, c->app, gr[n++].msg);
		*failed = 1;
	}
	for (g = 0; g < c->ngates; g++)
		for (i = 0; i < nres; i++) {
			const struct cli_gate *gate = &c->gates[g];
			const struct result *r = &res[i];
			const struct gfxstat_ci *ci = &r->ci[gate->metric];
			const char *miss = missing_in(&s[1], &r->side[1]);
			struct cli_gate_result *out = &gr[n];
			int rel = gate->kind != CLI_GATE_ABS;

			if (!rel && !r->side[1].n && !c->app)
				continue; /* an app of BASE only: not judged by a threshold */
			if (!r->side[1].n) {
				side_names(c, &s[1], names, sizeof(names));
				cli_gate_fail(gate, r->key, out, "%s has no frames in NEW (NEW has %s)",
					      r->key, names);
			} else if (c->app && miss) {
				cli_gate_fail(gate, r->key, out, "%s has no frames in %zu of the %zu "
					      "recordings of NEW (%s)", r->key, s[1].nrec - r->side[1].n,
					      s[1].nrec, miss);
			} else if (rel && !r->side[0].n) {
				side_names(c, &s[0], names, sizeof(names));
				cli_gate_fail(gate, r->key, out, "%s is not in BASE (BASE has %s): a "
					      "relative gate needs it on both sides", r->key, names);
			} else {
				struct cli_gate_input in = { r->key, ci->new_, rel, ci->base, ci->diff,
							     ci->lo, ci->hi, r->v[gate->metric] };
				size_t len;

				cli_gate_eval(gate, &in, out);
				len = strlen(out->msg);
				if (!out->skipped && r->side[1].n > 1 && len < sizeof(out->msg))
					snprintf(out->msg + len, sizeof(out->msg) - len,
						 " (NEW: the mean of %zu recordings)", r->side[1].n);
			}
			if (out->failed) {
				cli_error("gate '%s' failed on %s: %s", gate->expr, r->key, out->msg);
				*failed = 1;
			} else if (out->skipped) {
				cli_warn("gate '%s' skipped on %s: %s", gate->expr, r->key, out->msg);
			}
			n++;
		}
	return n;
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
		abs = realpath(n->rec[i].path, NULL);
		run.session_path = abs ? abs : n->rec[i].path;
		rc = cli_store_save_all(st, &run, n->rec[i].m, NULL);
		free(abs);
	}
	cli_store_close(st);
	return rc;
}

static void side_free(struct side *s)
{
	size_t i, k, l;

	for (i = 0; i < s->nrec; i++) {
		struct rec *r = &s->rec[i];

		gfxstat_metrics_free(r->m);
		for (k = 0; k < r->nkeys; k++) {
			free(r->keys[k].key);
			free(r->keys[k].f);
			for (l = 0; l < r->keys[k].nlayers; l++)
				free(r->keys[k].layers[l]);
			free(r->keys[k].layers);
		}
		free(r->keys);
	}
	free(s->rec);
	free(s->args);
	cli_inputs_free(&s->in);
}

/* The keys of both sides, BASE's first; --app is one whether a side has it or not. */
static int collect_keys(const struct compare *c, struct side *s, struct result **res,
			size_t *nres)
{
	size_t i, r, q;
	int k;

	if (c->app && !c->layer) {
		*res = calloc(1, sizeof(**res));
		if (!*res)
			return -1;
		(*res)[0].key = c->app;
		*nres = 1;
		return 0;
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k].nrec; i++) {
			size_t n = gfxstat_metrics_count(s[k].rec[i].m);

			for (r = 0; r < n; r++) {
				const struct gfxstat_layer_metrics *l =
					gfxstat_metrics_get(s[k].rec[i].m, r);
				const char *key = c->layer ? l->name : l->app;
				struct result *nr;

				if (!cmp_key_match(c, l) || !l->frames)
					continue;
				for (q = 0; q < *nres && strcmp((*res)[q].key, key); q++)
					;
				if (q < *nres)
					continue;
				nr = realloc(*res, (*nres + 1) * sizeof(*nr));
				if (!nr)
					return -1;
				*res = nr;
				memset(&nr[*nres], 0, sizeof(*nr));
				nr[(*nres)++].key = key;
			}
		}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare c;
	struct side s[2];
	struct compare_args ca = { &c, s };
	struct result *res = NULL;
	struct cli_gate_result *gr = NULL;
	char nb[256], nn[256];
	size_t nres = 0, ngr = 0, ncommon = 0, i;
	int first, rc = CLI_OK, welch, failed = 0, j, k;

	memset(&c, 0, sizeof(c));
	memset(s, 0, sizeof(s));
	s[0].label = "BASE";
	s[1].label = "NEW";
	c.resamples = 400;
	c.seed = 1;
	c.block_ns = GFXSTAT_NSEC_PER_SEC;
	c.seg_ns = 5 * GFXSTAT_NSEC_PER_SEC;
	cli_json_header_init(&c.hdr, "compare");
	first = cli_parse(&compare_cmd, argc, argv, compare_opt, &ca);
	if (first < 0) {
		rc = first == -2 ? CLI_OK : CLI_USAGE;
		goto out;
	}
	if (!s[0].nargs != !s[1].nargs) {
		cli_error("--base and --new go together: each side needs one or more inputs");
		rc = CLI_USAGE;
		goto out;
	}
	if (s[0].nargs && argc > first) {
		cli_error("with --base and --new, no other input ('%s')", argv[first]);
		rc = CLI_USAGE;
		goto out;
	}
	if (!s[0].nargs && argc - first != 2) {
		cli_error("compare takes two inputs, BASE and NEW, not %d (several a side: --base "
			  "INPUT... --new INPUT...)", argc - first);
		rc = CLI_USAGE;
		goto out;
	}
	if (!s[0].nargs && (side_arg(&s[0], argv[first]) || side_arg(&s[1], argv[first + 1]))) {
		rc = CLI_INPUT;
		goto out;
	}
	if ((c.db || c.label) && !c.save) {
		cli_error("--db and --label go with --save");
		rc = CLI_USAGE;
		goto out;
	}
	for (k = 0; k < 2 && !rc; k++) {
		rc = cli_inputs_expand(s[k].args, s[k].nargs, CLI_INPUTS_EACH_FILE, &s[k].in);
		if (!rc && !s[k].in.nfile) {
			cli_error("%s: no recording to compare: every iteration failed (%s, ...)",
				  s[k].label, s[k].in.nfailed ? s[k].in.failed[0] : "none");
			rc = CLI_INPUT;
		}
	}
	if (rc)
		goto out;
	welch = s[0].in.nfile >= 3 && s[1].in.nfile >= 3;
	c.keep_frames = !welch;
	/* a signal mid-read is said ("interrupted after N of M bytes") and decides nothing */
	cli_catch_signals();
	for (k = 0; k < 2 && !rc && !cli_stop_signal; k++)
		rc = side_read(&c, &s[k]);
	if (!rc && cli_interrupted())
		rc = cli_interrupted();
	if (rc)
		goto out;
	if (collect_keys(&c, s, &res, &nres))
		goto nomem;
	for (i = 0; i < nres; i++) {
		for (k = 0; k < 2; k++)
			if (key_side(&c, &s[k], res[i].key, &res[i].side[k]))
				goto nomem;
		if (compute_key(&c, welch, &res[i]))
			goto nomem;
		ncommon += res[i].side[0].n && res[i].side[1].n;
	}
	rc = implausible(res, nres);
	if (rc)
		goto out;
	gr = calloc(c.ngates * (nres + 1) + 1, sizeof(*gr));
	if (!gr)
		goto nomem;
	ngr = run_gates(&c, s, res, nres, gr, &failed);
	if (c.json)
		cmp_print_json(&c, s, welch, res, nres, gr, ngr);
	else
		cmp_print_table(&c, s, welch, res, nres);
	if (fflush(stdout)) {
		cli_error("cannot write standard output: %s", strerror(errno));
		rc = CLI_OUTPUT;
	}
	if (c.junit && (j = cli_junit_write(c.junit, "gfxstat compare", gr, ngr))) {
		cli_error("cannot write '%s': %s", c.junit, strerror(j));
		rc = CLI_OUTPUT;
	}
	if (!ncommon) {
		side_names(&c, &s[0], nb, sizeof(nb));
		side_names(&c, &s[1], nn, sizeof(nn));
		if (c.app && !c.layer)
			cli_error("nothing compared: %s is not on both sides; BASE has %s; NEW has %s",
				  c.app, nb, nn);
		else if (c.layer)
			cli_error("nothing compared: no layer matching '%s' in common; BASE has %s; "
				  "NEW has %s", c.layer, nb, nn);
		else
			cli_error("nothing compared: no app in common; BASE has %s; NEW has %s", nb,
				  nn);
	}
	if (!rc && c.save)
		rc = save_new(&c, &s[1]);
	/* no app in common is no comparison, whatever the gates say; with --app, a gate that
	 * failed on it (missing from NEW) says more */
	if (!rc && !ncommon && (!c.app || !failed))
		rc = CLI_INPUT;
	else if (!rc && failed)
		rc = CLI_JANK;
	goto out;
nomem:
	cli_error("out of memory");
	rc = CLI_INPUT;
out:
	for (i = 0; i < nres; i++)
		for (k = 0; k < 2; k++)
			key_side_free(&res[i].side[k]);
	free(res);
	free(gr);
	side_free(&s[0]);
	side_free(&s[1]);
	cli_json_header_free(&c.hdr);
	return rc;
}
