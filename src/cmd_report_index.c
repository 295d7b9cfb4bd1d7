/* SPDX-License-Identifier: MIT */
/*
 * gfxstat report RUNFOLDER: one report per recording of a run folder (record --repeat, record
 * --all) or of a folder of recordings, and an index page over them: the device, the date, per
 * recording its busiest app's FPS, janky share and p90 with a small FPS chart, the mean +- sd
 * over the recordings, and the command that compares the run with another. The recordings
 * are found as compare finds them (cli_input.c); a folder of android_FPS_frome_GFX fps.csv
 * sessions is read folder by folder.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_input.h"
#include "cli_output.h"
#include "cmd_report.h"

/* one row of the index */
struct idx_row {
	char *name;     /* as shown: the session folder's or the file's name */
	char *input;    /* what is reported: a session folder or a file */
	char *out;      /* its report */
	char *href;     /* the link to it, from the index */
	char date[40];  /* iteration.json's start, or "" */
	int failed;     /* an iteration marked failed: no report */
	int rc;
	struct cli_report_head head;
};

struct idx {
	struct idx_row *row;
	size_t n;
};

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_file(const char *dir, const char *name)
{
	char p[4400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

static char *cat3(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
	char *s = malloc(n);

	if (s)
		snprintf(s, n, "%s%s%s", a, b, c);
	return s;
}

/* The real path of the folder holding @file (which need not exist yet), or NULL. */
static char *real_dir(const char *file)
{
	const char *s = strrchr(file, '/');
	char *d, *r;

	if (!s)
		return realpath(".", NULL);
	if (s == file)
		return realpath("/", NULL);
	d = strndup(file, (size_t)(s - file));
	r = d ? realpath(d, NULL) : NULL;
	free(d);
	return r;
}

/*
 * The link from a page in @from_dir (a real path) to @to (its folder must exist): relative,
 * so that the index and its reports open from wherever they are reached, and move together.
 * NULL when out of memory or when @to's folder cannot be resolved.
 */
static char *rel_link(const char *from_dir, const char *to)
{
	char *tdir = real_dir(to), *r;
	const char *a, *b, *base = base_name(to);
	size_t common = 0, i, up = 0, n;

	if (!tdir)
		return NULL;
	/* the longest common run of whole components */
	for (i = 0;; i++) {
		char ca = from_dir[i], cb = tdir[i];

		if ((ca == '/' || !ca) && (cb == '/' || !cb))
			common = i;
		if (ca != cb || !ca)
			break;
	}
	a = from_dir + common;
	b = tdir + common;
	for (; *a; a++)
		up += *a == '/';
	n = up * 3 + strlen(b) + strlen(base) + 2;
	r = malloc(n);
	if (r) {
		size_t o = 0;

		for (i = 0; i < up; i++)
			o += (size_t)snprintf(r + o, n - o, "../");
		if (*b)
			o += (size_t)snprintf(r + o, n - o, "%s/", b + 1);
		snprintf(r + o, n - o, "%s", base);
	}
	free(tdir);
	return r;
}

static int add_row(struct idx *x, const char *name, const char *input, const char *out,
		   const char *href, int failed)
{
	struct idx_row *n = realloc(x->row, (x->n + 1) * sizeof(*n)), *r;

	if (!n)
		return -1;
	x->row = n;
	r = &n[x->n++];
	memset(r, 0, sizeof(*r));
	r->failed = failed;
	r->name = strdup(name);
	r->input = strdup(input);
	r->out = strdup(out);
	r->href = strdup(href);
	return r->name && r->input && r->out && r->href ? 0 : -1;
}

/* "start" of a session's iteration.json (cmd_record_repeat.c writes it flat), for the date */
static void iteration_start(const char *dir, char *buf, size_t cap)
{
	char p[4200], text[4096], *s, *e;
	size_t n;
	FILE *f;

	buf[0] = 0;
	snprintf(p, sizeof(p), "%s/iteration.json", dir);
	if (!(f = fopen(p, "r")))
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	if ((s = strstr(text, "\"start\":\"")) && (e = strchr(s + 9, '"')))
		snprintf(buf, cap, "%.*s", (int)(e - s - 9), s + 9);
}

static void put_html(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/* three significant digits (33.9 FPS, 16.7 ms, 5.02 %): what a run's spread allows */
static void put_num(FILE *f, double v)
{
	double a = fabs(v);

	if (isnan(v))
		fputs("n/a", f);
	else
		fprintf(f, "%.*f", a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3, v);
}

/* a cell with the value rounded as text and exact in data-v (the tests read it) */
static void put_cell(FILE *f, const char *k, double v, const char *unit)
{
	fprintf(f, "<td data-k=\"%s\" data-v=\"%.9g\">", k, v);
	put_num(f, v);
	fputs(unit, f);
	fputs("</td>", f);
}

/* the FPS windows as a small step chart, all rows on one scale [0, @ymax]: each full second
 * a step over its width (one second is one step), a second with no frame a gap, as the
 * report's FPS lane draws them; a recording with no full second says so */
static void put_spark(FILE *f, const struct cli_report_head *h, double ymax)
{
	const double w = 160, ht = 30;
	size_t i;
	int open = 0;

	if (!h->nw || !(ymax > 0)) {
		fprintf(f, "<td class=\"spark t hint\" title=\"FPS is counted per full second\">%s</td>",
			h->line[0] ? "under 1 s of frames: no full second" : "");
		return;
	}
	fprintf(f, "<td class=\"spark\"><svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"role=\"img\"><title>FPS per second, 0 to %.0f (%zu full second%s)</title><path "
		"fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.2\" d=\"", w, ht + 2, w, ht + 2, ymax,
		h->nw, h->nw == 1 ? "" : "s");
	for (i = 0; i < h->nw; i++) {
		double y = 1 + ht - ht * (h->wfps[i] > ymax ? ymax : h->wfps[i]) / ymax;

		if (!(h->wfps[i] > 0)) {
			open = 0;
			continue;
		}
		fprintf(f, "%s%.1f,%.1fH%.1f", open ? "L" : "M", w * (double)i / (double)h->nw, y,
			w * (double)(i + 1) / (double)h->nw);
		open = 1;
	}
	fputs("\"/></svg></td>", f);
}

/* mean +- sd (sample) of one column over the reported rows */
static void put_mean(FILE *f, const struct idx *x, size_t off, const char *k, const char *unit)
{
	double s = 0, ss = 0, v, m;
	size_t i, n = 0;

	for (i = 0; i < x->n; i++) {
		if (!x->row[i].head.line[0])
			continue;
		v = *(const double *)((const char *)&x->row[i].head + off);
		if (isnan(v))
			continue;
		s += v;
		n++;
	}
	if (!n) {
		fprintf(f, "<td data-k=\"%s\">-</td>", k);
		return;
	}
	m = s / (double)n;
	for (i = 0; i < x->n; i++) {
		if (!x->row[i].head.line[0])
			continue;
		v = *(const double *)((const char *)&x->row[i].head + off);
		if (!isnan(v))
			ss += (v - m) * (v - m);
	}
	fprintf(f, "<td data-k=\"%s\" data-v=\"%.9g\"", k, m);
	if (n > 1)
		fprintf(f, " data-sd=\"%.9g\"", sqrt(ss / (double)(n - 1)));
	fputs(">", f);
	put_num(f, m);
	if (n > 1) {
		fputs(" &plusmn; ", f);
		put_num(f, sqrt(ss / (double)(n - 1)));
	}
	fputs(unit, f);
	fputs("</td>", f);
}

static const char idx_style[] =
	"<style>body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:12px 24px;"
	"max-width:1400px;color:#202124}h1{font-size:1.3em;overflow-wrap:anywhere}"
	".wrap{overflow-x:auto;max-width:100%}table{border-collapse:collapse}"
	"td,th{border-bottom:1px solid #dadce0;padding:3px 10px;text-align:right;white-space:nowrap}"
	"td.t,th.t{text-align:left}tr.mean td{font-weight:600;border-top:2px solid #9aa0a6}"
	"tr.failed td{color:#c62828}.meta th{text-align:left;color:#5f6368;font-weight:normal}"
	".meta td{text-align:left;white-space:normal;overflow-wrap:anywhere}"
	".cmd{font-family:ui-monospace,monospace;font-size:.85em;background:#f8f9fa;"
	"padding:4px 8px;overflow-wrap:anywhere}.hint{color:#5f6368;font-size:.9em}"
	"@media(max-width:640px){body{padding:8px;font-size:13px}}</style>";

static void write_index(FILE *f, const struct idx *x, const char *dir, const char *title)
{
	const char *device = NULL, *date = NULL;
	double ymax = 0, total = 0;
	size_t i, k, reported = 0;
	int same_device = 1;

	for (i = 0; i < x->n; i++) {
		const struct idx_row *r = &x->row[i];

		if (r->head.device[0]) {
			if (device && strcmp(device, r->head.device))
				same_device = 0;
			if (!device)
				device = r->head.device;
		}
		if (r->date[0] && !date)
			date = r->date;
		for (k = 0; k < r->head.nw; k++)
			if (r->head.wfps[k] > ymax)
				ymax = r->head.wfps[k];
		if (r->head.line[0]) {
			total += r->head.duration_s;
			reported++;
		}
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
	      "<meta name=\"generator\" content=\"gfxstat\"><title>", f);
	put_html(f, title ? title : dir);
	fputs("</title>", f);
	fputs(idx_style, f);
	fputs("</head><body><h1>", f);
	put_html(f, title ? title : dir);
	fputs("</h1><table class=\"meta\"><tr><th>folder</th><td>", f);
	put_html(f, dir);
	fputs("</td></tr>", f);
	if (device) {
		fputs("<tr><th>device</th><td id=\"device\">", f);
		put_html(f, same_device ? device : "several (see each row)");
		fputs("</td></tr>", f);
	}
	if (date) {
		fputs("<tr><th>started</th><td id=\"date\">", f);
		put_html(f, date);
		fputs("</td></tr>", f);
	}
	fprintf(f, "<tr><th>recordings</th><td><span id=\"session-count\">%zu</span>, %zu reported, "
		"<span id=\"duration\">", x->n, reported);
	put_num(f, total);
	fputs("</span> s of frames in all</td></tr></table>\n", f);
	fputs("<h2>Each recording</h2><p class=\"hint\">The busiest app of each recording (else its "
	      "busiest layer): the same values as compare uses. The chart: FPS per second, every "
	      "row on one scale.</p>\n<div class=\"wrap\"><table id=\"sessions\"><thead><tr>"
	      "<th class=\"t\">recording</th><th class=\"t\">started</th><th class=\"t\">app</th>"
	      "<th>duration</th><th>FPS</th><th>janky frames</th><th>p90 frame</th>"
	      "<th class=\"t\">FPS per second</th>", f);
	if (!same_device)
		fputs("<th class=\"t\">device</th>", f);
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < x->n; i++) {
		const struct idx_row *r = &x->row[i];

		fprintf(f, "<tr class=\"%s\" data-key=\"", r->failed ? "failed" : "rec");
		put_html(f, r->name);
		fputs("\"><td class=\"t\">", f);
		if (!r->failed && (r->rc == CLI_OK || r->head.line[0])) {
			fputs("<a class=\"session\" href=\"", f);
			put_html(f, r->href);
			fputs("\">", f);
			put_html(f, r->name);
			fputs("</a>", f);
		} else {
			put_html(f, r->name);
		}
		fputs("</td><td class=\"t\">", f);
		put_html(f, r->date[0] ? r->date : "-");
		fputs("</td>", f);
		if (r->failed) {
			fputs("<td class=\"t\" colspan=\"6\">its iteration.json says it failed: left "
			      "out, as compare leaves it out</td>", f);
		} else if (!r->head.line[0]) {
			fprintf(f, "<td class=\"t\" colspan=\"6\">no report (exit status %d)</td>",
				r->rc);
		} else {
			fputs("<td class=\"t\" data-k=\"app\">", f);
			put_html(f, r->head.app);
			fputs("</td>", f);
			put_cell(f, "duration_s", r->head.duration_s, " s");
			put_cell(f, "fps", r->head.fps, "");
			put_cell(f, "janky_pct", r->head.janky_pct, " %");
			put_cell(f, "p90_ms", r->head.p90_ms, " ms");
			put_spark(f, &r->head, ymax);
		}
		if (!same_device) {
			fputs("<td class=\"t\">", f);
			put_html(f, r->head.device);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody><tfoot><tr class=\"mean\"><td class=\"t\" colspan=\"3\">mean &plusmn; sd</td>",
	      f);
	put_mean(f, x, offsetof(struct cli_report_head, duration_s), "duration_s", " s");
	put_mean(f, x, offsetof(struct cli_report_head, fps), "fps", "");
	put_mean(f, x, offsetof(struct cli_report_head, janky_pct), "janky_pct", " %");
	put_mean(f, x, offsetof(struct cli_report_head, p90_ms), "p90_ms", " ms");
	fputs("<td></td>", f);
	if (!same_device)
		fputs("<td></td>", f);
	fputs("</tr></tfoot></table></div>\n<h2>Compare</h2><p>This run against another, every "
	      "recording a side (Welch's t from 3 a side):</p><p class=\"cmd\" id=\"compare-cmd\">"
	      "gfxstat report --compare ", f);
	put_html(f, dir);
	fputs(" OTHER_RUN_FOLDER -o compare.html</p><p class=\"cmd\">gfxstat compare ", f);
	put_html(f, dir);
	fputs(" OTHER_RUN_FOLDER</p></body></html>\n", f);
}

/* a folder of android_FPS_frome_GFX sessions (fps.csv, no capture): read folder by folder */
static int seed_rows(struct idx *x, const char *dir, int index_in_dir)
{
	struct dirent **ents = NULL;
	char p[4096], cap[4400], out[4400];
	int i, n = scandir(dir, &ents, NULL, alphasort), seeds = 0, rc = 0;

	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, ents[i]->d_name);
		if (ents[i]->d_name[0] != '.' && is_dir(p) && !cli_session_capture(p, cap, sizeof(cap)) &&
		    has_file(p, "fps.csv"))
			seeds++;
	}
	for (i = 0; i < n && seeds && !rc; i++) {
		const char *e = ents[i]->d_name;

		snprintf(p, sizeof(p), "%s/%s", dir, e);
		if (e[0] == '.' || !is_dir(p) ||
		    (!cli_session_capture(p, cap, sizeof(cap)) && !has_file(p, "fps.csv")))
			continue;
		snprintf(out, sizeof(out), "%s/report.html", p);
		snprintf(cap, sizeof(cap), "%s/report.html", index_in_dir ? e : p);
		rc = add_row(x, e, p, out, cap, 0);
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return rc ? -1 : seeds;
}

int cli_report_index(const char *dir, const char *out, const char *title)
{
	struct idx x = { NULL, 0 };
	struct cli_inputs in;
	struct cli_output io;
	char index[4400], rdir[4096], *ops[1];
	int rc = CLI_OK, seeds, files = 0;
	size_t i;

	memset(&in, 0, sizeof(in));
	snprintf(index, sizeof(index), "%s/index.html", dir);
	seeds = seed_rows(&x, dir, !out);
	if (seeds < 0)
		goto nomem;
	if (!seeds) {
		/* the recordings as compare finds them */
		ops[0] = (char *)dir;
		if ((rc = cli_inputs_expand(ops, 1, 0, &in)))
			goto done;
		for (i = 0; i < in.nrec; i++)
			files += !is_dir(in.name[i]);
		/* a folder of recordings: the reports and the index in DIR/reports, so that no
		 * page of ours is read as a recording of the folder */
		snprintf(rdir, sizeof(rdir), "%s/reports", dir);
		if (files) {
			snprintf(index, sizeof(index), "%s/index.html", rdir);
			if (cli_mkdir_p(rdir)) {
				cli_error("cannot make '%s': %s", rdir, strerror(errno));
				rc = CLI_OUTPUT;
				goto done;
			}
		}
		for (i = 0; i < in.nrec; i++) {
			const char *nm = in.name[i], *b = base_name(nm);
			char *o, *h;
			int e;

			if (is_dir(nm)) {
				o = cat3(nm, "/", "report.html");
				h = out ? cat3(nm, "/", "report.html") :
					  cat3(files ? "../" : "", b, "/report.html");
			} else {
				char *ob = cat3(b, ".html", "");

				o = ob ? cat3(rdir, "/", ob) : NULL;
				h = out ? (o ? strdup(o) : NULL) : ob;
				if (out)
					free(ob);
			}
			e = !o || !h || add_row(&x, b, nm, o, h, 0);
			free(o);
			free(h);
			if (e)
				goto nomem;
		}
		for (i = 0; i < in.nfailed; i++)
			if (add_row(&x, base_name(in.failed[i]), in.failed[i], "", "", 1))
				goto nomem;
	}
	if (!out)
		out = index;
	if (cli_output_create(&io, out, 0)) {
		rc = CLI_OUTPUT;
		goto done;
	}
	/* the links from where the index is, not from the working directory (-o elsewhere) */
	{
		char *from = real_dir(out);

		for (i = 0; from && i < x.n; i++) {
			char *h;

			if (x.row[i].failed || !x.row[i].out[0])
				continue;
			h = rel_link(from, x.row[i].out);
			if (h) {
				free(x.row[i].href);
				x.row[i].href = h;
			}
		}
		free(from);
	}
	for (i = 0; i < x.n && !cli_interrupted(); i++) {
		struct idx_row *r = &x.row[i];

		if (r->failed)
			continue;
		iteration_start(r->input, r->date, sizeof(r->date));
		r->rc = cli_report_one(r->input, r->out, &r->head);
		rc = r->rc > rc ? r->rc : rc;
	}
	write_index(io.f, &x, dir, title);
	if (cli_interrupted()) {
		cli_output_close(&io, 0);
		rc = cli_interrupted();
	} else {
		int wrc = cli_output_finish(&io, 1);

		rc = wrc ? wrc : rc;
	}
	goto done;
nomem:
	cli_error("out of memory");
	rc = CLI_INPUT;
done:
	for (i = 0; i < x.n; i++) {
		free(x.row[i].name);
		free(x.row[i].input);
		free(x.row[i].out);
		free(x.row[i].href);
		free(x.row[i].head.wfps);
	}
	free(x.row);
	cli_inputs_free(&in);
	return rc;
}
