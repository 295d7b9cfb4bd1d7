/* SPDX-License-Identifier: MIT */
/*
 * gfxstat report --compare BASE NEW: both sides' FPS timelines and frame-time distributions
 * overlaid per app, with the comparison; the numbers are those of `gfxstat compare --format
 * json`, printed into the page by the same function. The view pages' text buffer and writer.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_input.h"
#include "cli_output.h"
#include "cli_source.h"
#include "cli_store.h"
#include "cmd_compare.h"
#include "cmd_history.h"
#include "cmd_report.h"
#include "cmd_report_view.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_report.h"

void cli_sb_put(struct cli_sbuf *b, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->n + n + 1 > b->cap && cli_grow_to((void **)&b->p, &b->cap, b->n + n + 1, 1, 4096)) {
		b->err = 1;
		return;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

void cli_sb_puts(struct cli_sbuf *b, const char *s)
{
	cli_sb_put(b, s, strlen(s));
}

void cli_sb_printf(struct cli_sbuf *b, const char *fmt, ...)
{
	char t[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(t, sizeof(t), fmt, ap);
	va_end(ap);
	if (n > 0)
		cli_sb_put(b, t, (size_t)n < sizeof(t) ? (size_t)n : sizeof(t) - 1);
}

void cli_sb_str(struct cli_sbuf *b, const char *s)
{
	cli_sb_puts(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == '"' || c == '\\')
			cli_sb_printf(b, "\\u%04x", c);
		else
			cli_sb_put(b, s, 1);
	}
	cli_sb_puts(b, "\"");
}

/* all of @f from its start, appended to @b */
void cli_sb_file(struct cli_sbuf *b, FILE *f)
{
	char t[8192];
	size_t n;

	rewind(f);
	while ((n = fread(t, 1, sizeof(t), f)) > 0)
		cli_sb_put(b, t, n);
	/* one line of JSON: the newline is not part of it */
	while (b->n && (b->p[b->n - 1] == '\n'))
		b->p[--b->n] = 0;
}

static int write_file(void *user, const void *buf, size_t n)
{
	return fwrite(buf, 1, n, user) == n ? 0 : errno ? errno : EIO;
}

int cli_view_write_page(const char *out, const struct gfxstat_html_view *v)
{
	struct cli_output o;
	int rc;

	if (cli_output_create(&o, out, 0))
		return CLI_OUTPUT;
	rc = gfxstat_html_view_write(cli_report_assets, v, write_file, o.f);
	if (rc) {
		cli_output_close(&o, 0);
		cli_error("cannot write '%s': %s", out, gfxstat_strerror(rc));
		return CLI_OUTPUT;
	}
	return cli_output_finish(&o, 1);
}

/* ---- the comparison ------------------------------------------------------------------ */

/* frame-time histogram: 0.5 ms bins up to 100 ms, the last bin for everything longer */
#define HIST_BIN_MS 0.5
#define HIST_BINS 201

struct app_hist {
	char *app;
	unsigned long long frames;
	unsigned long long count[HIST_BINS];
};

struct cmp_side {
	char *const *args;      /* the side's operands, as compare takes them */
	size_t nargs;
	struct cli_inputs in;   /* expanded as compare expands them: one recording a file */
	struct app_hist *h;
	size_t nh;
};

/* one app's frames in the recording at hand: when each was presented and its interval */
struct rec_app {
	char *app;
	int64_t *t, *iv;
	size_t n, cap;
};

struct cmp_read {
	struct cmp_side *side;
	struct gfxstat_metrics *m;
	struct rec_app *ra;
	size_t nra;
	int lib_rc;
};

static struct rec_app *rec_app_of(struct cmp_read *c, const struct gfxstat_str *app)
{
	struct rec_app *a;
	size_t i;

	for (i = 0; i < c->nra; i++)
		if (strlen(c->ra[i].app) == app->n && !memcmp(c->ra[i].app, app->p, app->n))
			return &c->ra[i];
	a = realloc(c->ra, (c->nra + 1) * sizeof(*a));
	if (!a)
		return NULL;
	c->ra = a;
	a = &a[c->nra];
	memset(a, 0, sizeof(*a));
	if (!(a->app = malloc(app->n + 1)))
		return NULL;
	memcpy(a->app, app->p, app->n);
	a->app[app->n] = 0;
	c->nra++;
	return a;
}

static struct app_hist *hist_of(struct cmp_side *s, const struct gfxstat_str *app)
{
	struct app_hist *h;
	size_t i;

	for (i = 0; i < s->nh; i++)
		if (strlen(s->h[i].app) == app->n && !memcmp(s->h[i].app, app->p, app->n))
			return &s->h[i];
	h = realloc(s->h, (s->nh + 1) * sizeof(*h));
	if (!h)
		return NULL;
	s->h = h;
	h = &h[s->nh];
	memset(h, 0, sizeof(*h));
	if (!(h->app = malloc(app->n + 1)))
		return NULL;
	memcpy(h->app, app->p, app->n);
	h->app[app->n] = 0;
	s->nh++;
	return h;
}

static int cmp_frame(void *user, const struct gfxstat_frame *f)
{
	struct cmp_read *c = user;
	struct app_hist *h;
	struct rec_app *a;
	double ms;
	size_t b;

	if ((c->lib_rc = gfxstat_metrics_frame(c->m, f)))
		return c->lib_rc;
	if (!f->app.n || f->present_ns == GFXSTAT_NS_NONE || f->interval_ns == GFXSTAT_NS_NONE ||
	    f->interval_ns <= 0)
		return 0;
	if (!(h = hist_of(c->side, &f->app)))
		return c->lib_rc = GFXSTAT_E_NOMEM;
	ms = (double)f->interval_ns / 1e6;
	b = ms / HIST_BIN_MS >= HIST_BINS - 1 ? HIST_BINS - 1 : (size_t)(ms / HIST_BIN_MS);
	h->count[b]++;
	h->frames++;
	if (!(a = rec_app_of(c, &f->app)))
		return c->lib_rc = GFXSTAT_E_NOMEM;
	if (a->n == a->cap) {
		size_t nc = a->cap ? 2 * a->cap : 1024;
		int64_t *nt = realloc(a->t, nc * sizeof(*nt)), *ni;

		if (nt)
			a->t = nt;
		if (!nt || !(ni = realloc(a->iv, nc * sizeof(*ni))))
			return c->lib_rc = GFXSTAT_E_NOMEM;
		a->iv = ni;
		a->cap = nc;
	}
	a->t[a->n] = f->present_ns;
	a->iv[a->n++] = f->interval_ns;
	return 0;
}

/* at most this many frame times a recording and app on the page: past it, each drawn point
 * is the longest frame of its run of frames, so that no janky frame is hidden */
#define FT_MAX_POINTS 20000

/* @a's frame times as "ft_s" (seconds from @t0) and "ft_ms" */
static void frame_times(struct cli_sbuf *b, const struct rec_app *a, int64_t t0)
{
	size_t step = a->n > FT_MAX_POINTS ? (a->n + FT_MAX_POINTS - 1) / FT_MAX_POINTS : 1;
	size_t i, k, pass;

	for (pass = 0; pass < 2; pass++) {
		cli_sb_puts(b, pass ? "],\"ft_ms\":[" : ",\"ft_s\":[");
		for (i = 0; i < a->n; i += step) {
			size_t best = i;

			for (k = i + 1; k < i + step && k < a->n; k++)
				if (a->iv[k] > a->iv[best])
					best = k;
			if (pass)
				cli_sb_printf(b, "%s%.3f", i ? "," : "", (double)a->iv[best] / 1e6);
			else
				cli_sb_printf(b, "%s%.4f", i ? "," : "",
					      (double)(a->t[best] - t0) / 1e9);
		}
	}
	cli_sb_puts(b, "]");
}

static void rec_apps_free(struct cmp_read *c)
{
	size_t i;

	for (i = 0; i < c->nra; i++) {
		free(c->ra[i].app);
		free(c->ra[i].t);
		free(c->ra[i].iv);
	}
	free(c->ra);
	c->ra = NULL;
	c->nra = 0;
}

/* One recording: its apps' FPS windows and frame times into @b; frame times into the
 * side's histograms. */
static int read_recording(struct cmp_side *s, const char *path, struct cli_sbuf *b)
{
	struct gfxstat_metrics_opts mo;
	struct cmp_read c = { s, NULL, NULL, 0, 0 };
	struct cli_source src;
	size_t i, n, k, na = 0;
	int64_t t0 = GFXSTAT_NS_NONE;
	int rc;

	gfxstat_metrics_opts_init(&mo);
	cli_source_end_recording(); /* each recording on its own, as compare reads them */
	if (!(c.m = cli_metrics_new(&mo))) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	rc = cli_source_read(path, cmp_frame, &c, &src);
	if (rc) {
		gfxstat_metrics_free(c.m);
		rec_apps_free(&c);
		return rc;
	}
	cli_source_report(&src, 0);
	cli_source_free(&src);
	if (c.lib_rc || gfxstat_metrics_finish(c.m)) {
		cli_error("%s: %s", path, gfxstat_strerror(c.lib_rc ? c.lib_rc : GFXSTAT_E_NOMEM));
		gfxstat_metrics_free(c.m);
		rec_apps_free(&c);
		return CLI_INPUT;
	}
	n = gfxstat_metrics_count(c.m);
	for (i = 0; i < n; i++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(c.m, i);

		if (l->frames && (t0 == GFXSTAT_NS_NONE || l->first_ns < t0))
			t0 = l->first_ns;
	}
	cli_sb_puts(b, "{\"path\":");
	cli_sb_str(b, path);
	cli_sb_puts(b, ",\"apps\":[");
	for (i = 0; i < n; i++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(c.m, i);

		if (!l->is_app || !l->app || !l->app[0])
			continue;
		if (na++)
			cli_sb_puts(b, ",");
		cli_sb_puts(b, "{\"name\":");
		cli_sb_str(b, l->app);
		/* last_s: its last frame, where its FPS line ends (past its last full window) */
		cli_sb_printf(b, ",\"frames\":%llu,\"first_s\":%.6f,\"last_s\":%.6f,"
			      "\"window_s\":%.6f,\"wfps\":[", (unsigned long long)l->frames,
			  (double)(l->first_ns - (t0 == GFXSTAT_NS_NONE ? l->first_ns : t0)) / 1e9,
			  (double)(l->last_ns - (t0 == GFXSTAT_NS_NONE ? l->first_ns : t0)) / 1e9,
			  (double)mo.window_ns / 1e9);
		for (k = 0; k < l->nwindows; k++)
			cli_sb_printf(b, "%s%.3f", k ? "," : "", l->window_fps[k]);
		cli_sb_puts(b, "]");
		for (k = 0; k < c.nra; k++)
			if (!strcmp(c.ra[k].app, l->app))
				frame_times(b, &c.ra[k], t0 == GFXSTAT_NS_NONE ? l->first_ns : t0);
		cli_sb_puts(b, "}");
	}
	cli_sb_puts(b, "]}");
	gfxstat_metrics_free(c.m);
	rec_apps_free(&c);
	return CLI_OK;
}

/* `gfxstat compare --format json [--app PKG] --base B... --new N...`, its standard output
 * kept in @f: the page's numbers are compare's own */
static int compare_json(const struct cli_report_view *v, const struct cmp_side *s, FILE *f)
{
	char **av = malloc((2 * (s[0].nargs + s[1].nargs) + 8) * sizeof(*av));
	int ac = 0, saved, rc;
	size_t k, i;

	if (!av) {
		cli_error("out of memory");
		return CLI_INPUT;
	}
	av[ac++] = "compare";
	av[ac++] = "--format";
	av[ac++] = "json";
	if (v->app) {
		av[ac++] = "--app";
		av[ac++] = (char *)v->app;
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k].nargs; i++) {
			av[ac++] = k ? "--new" : "--base";
			av[ac++] = s[k].args[i];
		}
	av[ac] = NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(f), STDOUT_FILENO) < 0) {
		cli_error("cannot redirect standard output: %s", strerror(errno));
		if (saved >= 0)
			close(saved);
		free(av);
		return CLI_OUTPUT;
	}
	rc = cmd_compare(ac, av);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	free(av);
	return rc == CLI_JANK ? CLI_OK : rc;
}

/* a side's operands in one line, for the title and the header */
static void side_name(const struct cmp_side *s, char *buf, size_t cap)
{
	size_t i, o = 0;

	buf[0] = 0;
	for (i = 0; i < s->nargs && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? " " : "", s->args[i]);
}

static void side_free(struct cmp_side *s)
{
	size_t i;

	cli_inputs_free(&s->in);
	for (i = 0; i < s->nh; i++)
		free(s->h[i].app);
	free(s->h);
}

int cli_report_compare(const struct cli_report_view *v, char *const *base, size_t nbase,
		       char *const *new_, size_t nnew)
{
	struct cmp_side s[2];
	struct cli_sbuf data = { 0 };
	struct gfxstat_html_view view;
	const char *meta[8];
	char title[2100], nb[160], names[2][1024];
	size_t i, k, b;
	int rc = CLI_OK;
	FILE *f = tmpfile();

	memset(s, 0, sizeof(s));
	s[0].args = base;
	s[0].nargs = nbase;
	s[1].args = new_;
	s[1].nargs = nnew;
	if (!f) {
		cli_error("cannot make a temporary file: %s", strerror(errno));
		return CLI_OUTPUT;
	}
	/* compare first: it says what is wrong with an input, and decides the numbers */
	rc = compare_json(v, s, f);
	for (k = 0; k < 2 && !rc; k++) {
		/* the same expansion as compare's (cli_input.c), failed iterations left out */
		rc = cli_inputs_expand(s[k].args, s[k].nargs, CLI_INPUTS_EACH_FILE, &s[k].in);
		if (!rc && !s[k].in.nfile) {
			cli_error("%s: no recording to draw", s[k].args[0]);
			rc = CLI_INPUT;
		}
		side_name(&s[k], names[k], sizeof(names[k]));
	}
	if (rc) {
		fclose(f);
		side_free(&s[0]);
		side_free(&s[1]);
		return rc;
	}
	cli_sb_puts(&data, "{\"view\":\"compare\",\"compare\":");
	cli_sb_file(&data, f);
	fclose(f);
	cli_sb_printf(&data, ",\"bin_ms\":%.3f,\"sides\":[", HIST_BIN_MS);
	for (k = 0; k < 2 && !rc; k++) {
		cli_sb_puts(&data, k ? ",{\"path\":" : "{\"path\":");
		cli_sb_str(&data, names[k]);
		cli_sb_puts(&data, ",\"recordings\":[");
		for (i = 0; i < s[k].in.nfile && !rc; i++) {
			cli_sb_puts(&data, i ? "," : "");
			rc = read_recording(&s[k], s[k].in.file[i].path, &data);
		}
		cli_sb_puts(&data, "],\"hist\":[");
		for (i = 0; i < s[k].nh; i++) {
			cli_sb_puts(&data, i ? ",{\"name\":" : "{\"name\":");
			cli_sb_str(&data, s[k].h[i].app);
			cli_sb_printf(&data, ",\"frames\":%llu,\"counts\":[", s[k].h[i].frames);
			for (b = 0; b < HIST_BINS; b++)
				cli_sb_printf(&data, "%s%llu", b ? "," : "", s[k].h[i].count[b]);
			cli_sb_puts(&data, "]}");
		}
		cli_sb_puts(&data, "]}");
	}
	cli_source_end_recording();
	cli_sb_puts(&data, "]}");
	if (!rc && data.err) {
		cli_error("out of memory");
		rc = CLI_INPUT;
	}
	if (!rc) {
		if (v->title)
			snprintf(title, sizeof(title), "%s", v->title);
		else
			snprintf(title, sizeof(title), "gfxstat compare: %s vs %s", names[0],
				 names[1]);
		snprintf(nb, sizeof(nb), "%zu, %zu", s[0].in.nfile, s[1].in.nfile);
		meta[0] = "base";
		meta[1] = names[0];
		meta[2] = "new";
		meta[3] = names[1];
		meta[4] = "recordings (base, new)";
		meta[5] = nb;
		meta[6] = "made by";
		meta[7] = "gfxstat " GFXSTAT_VERSION;
		memset(&view, 0, sizeof(view));
		view.kind = "compare";
		view.title = title;
		view.meta = meta;
		view.nmeta = 4;
		view.data = data.p;
		view.data_len = data.n;
		rc = cli_view_write_page(v->out, &view);
	}
	side_free(&s[0]);
	side_free(&s[1]);
	free(data.p);
	return rc;
}
