/* SPDX-License-Identifier: MIT */
/* The decision metrics, --fail-if gates and their JUnit XML. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_output.h"
#include "gfxstat/gfxstat.h"

const struct cli_metric_def cli_metrics[CLI_M_COUNT] = {
	[CLI_M_FPS] = { "fps", "FPS", 1, "frames per second of activity (waits left out)" },
	[CLI_M_JANKY_PCT] = { "janky_pct", "%", 0, "janky frames, % of frames (docs/metrics.md)" },
	[CLI_M_P50] = { "p50_ms", "ms", 0, "median frame time" },
	[CLI_M_P90] = { "p90_ms", "ms", 0, "90th percentile frame time" },
	[CLI_M_P99] = { "p99_ms", "ms", 0, "99th percentile frame time" },
	[CLI_M_JANK_PER_MIN] = { "jank_per_min", "/min", 0, "PerfDog jank per minute of span" },
	[CLI_M_BIG_JANK_PER_MIN] = { "big_jank_per_min", "/min", 0,
				     "PerfDog big jank per minute of span" },
	[CLI_M_HITCH] = { "hitch_ms_per_s", "ms/s", 0, "Apple hitch time ratio" },
	[CLI_M_SCROLL_FPS] = { "scroll_fps", "FPS", 1, "FPS over the scrolls' frames" },
	[CLI_M_FROZEN] = { "frozen_frames", "", 0, "Android frozen frames (>= 700 ms)" },
};

double cli_metric_value(const struct gfxstat_layer_metrics *l, int metric)
{
	double frames = 0, span = 0;
	size_t i;

	switch (metric) {
	case CLI_M_FPS:
		return l->intervals ? l->fps : NAN;
	case CLI_M_JANKY_PCT:
		return l->frames ? 100.0 * (double)l->janky_frames / (double)l->frames : NAN;
	case CLI_M_P50:
		return l->intervals ? l->frame_ms_p50 : NAN;
	case CLI_M_P90:
		return l->intervals ? l->frame_ms_p90 : NAN;
	case CLI_M_P99:
		return l->intervals ? l->frame_ms_p99 : NAN;
	case CLI_M_JANK_PER_MIN:
		return l->duration_s > 0 ? (double)l->jank * 60.0 / l->duration_s : NAN;
	case CLI_M_BIG_JANK_PER_MIN:
		return l->duration_s > 0 ? (double)l->big_jank * 60.0 / l->duration_s : NAN;
	case CLI_M_HITCH:
		return l->intervals ? l->hitch_ms_per_s : NAN;
	case CLI_M_SCROLL_FPS:
		/* the scrolls' intervals over their time: what --scroll-only's FPS counts */
		for (i = 0; i < l->nscrolls; i++) {
			if (l->scrolls[i].frames < 2)
				continue;
			frames += l->scrolls[i].frames - 1;
			span += (double)(l->scrolls[i].end_ns - l->scrolls[i].start_ns) / 1e9;
		}
		return span > 0 ? frames / span : NAN;
	case CLI_M_FROZEN:
		return (double)l->frozen_frames;
	}
	return NAN;
}

int cli_metric_find(const char *name, size_t n)
{
	int i;

	for (i = 0; i < CLI_M_COUNT; i++)
		if (strlen(cli_metrics[i].name) == n && !memcmp(cli_metrics[i].name, name, n))
			return i;
	return -1;
}

const char *cli_verdict_name(enum cli_verdict v)
{
	switch (v) {
	case CLI_V_SAME:
		return "no significant change";
	case CLI_V_BETTER:
		return "better";
	case CLI_V_WORSE:
		return "worse";
	default:
		return "n/a";
	}
}

static void bad_gate(const char *expr, const char *why)
{
	char names[300] = "";
	size_t len = 0;
	int i;

	for (i = 0; i < CLI_M_COUNT; i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
					cli_metrics[i].name);
	cli_error("bad --fail-if '%s': %s", expr, why);
	fprintf(stderr, "  metrics: %s\n"
		"  forms: METRIC<N, METRIC<=N, METRIC>N, METRIC>=N, METRIC regressed,\n"
		"         METRIC worse_by>N, METRIC worse_by>N%% (compare), METRIC stepped_up,\n"
		"         METRIC stepped_down, METRIC stepped_worse (trend)\n", names);
}

static const char *skip_sp(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "<", "<=", ">" or ">=" at *s: copied to @op, *s moved past it */
static int scan_op(const char **s, char op[3])
{
	const char *p = *s;

	if (*p != '<' && *p != '>')
		return -1;
	op[0] = *p++;
	op[1] = 0;
	if (*p == '=') {
		op[1] = '=';
		op[2] = 0;
		p++;
	}
	*s = p;
	return 0;
}

/* a number after optional blanks */
static int scan_num_sp(const char **s, double *v)
{
	const char *p = skip_sp(*s);
	char *end;

	errno = 0;
	*v = strtod(p, &end);
	if (end == p || errno || !isfinite(*v))
		return -1;
	*s = end;
	return 0;
}

int cli_gate_parse(const char *expr, enum cli_gate_mode mode, struct cli_gate *g)
{
	const char *s = skip_sp(expr), *name = s;

	memset(g, 0, sizeof(*g));
	snprintf(g->expr, sizeof(g->expr), "%s", expr);
	while (*s && (isalnum((unsigned char)*s) || *s == '_'))
		s++;
	g->metric = cli_metric_find(name, (size_t)(s - name));
	if (g->metric < 0) {
		bad_gate(expr, s == name ? "no metric name" : "unknown metric");
		return -1;
	}
	s = skip_sp(s);
	if (mode == CLI_GATE_HISTORY) {
		static const char *const steps[] = { "stepped_up", "stepped_down", "stepped_worse" };
		size_t i;

		for (i = 0; i < 3; i++)
			if (!strncmp(s, steps[i], strlen(steps[i])) && !*skip_sp(s + strlen(steps[i])))
				break;
		if (i == 3) {
			bad_gate(expr, "trend takes 'METRIC stepped_up', 'METRIC stepped_down' or "
				 "'METRIC stepped_worse'");
			return -1;
		}
		g->kind = i == 0 ? CLI_GATE_STEP_UP : i == 1 ? CLI_GATE_STEP_DOWN
			: CLI_GATE_STEP_WORSE;
		return 0;
	}
	if (!strncmp(s, "regressed", 9) && !*skip_sp(s + 9)) {
		g->kind = CLI_GATE_REGRESSED;
	} else if (!strncmp(s, "worse_by", 8)) {
		g->kind = CLI_GATE_WORSE_BY;
		s = skip_sp(s + 8);
		if (scan_op(&s, g->op) || g->op[0] != '>' || scan_num_sp(&s, &g->value) ||
		    g->value < 0) {
			bad_gate(expr, "worse_by takes '>N' or '>N%' with N >= 0");
			return -1;
		}
		s = skip_sp(s);
		if (*s == '%') {
			g->percent = 1;
			s++;
		}
		if (*skip_sp(s)) {
			bad_gate(expr, "unexpected text after the number");
			return -1;
		}
	} else {
		g->kind = CLI_GATE_ABS;
		if (scan_op(&s, g->op) || scan_num_sp(&s, &g->value) || *skip_sp(s)) {
			bad_gate(expr, "expected METRIC<N, METRIC>N (or <=, >=), 'regressed' or "
				 "'worse_by>N[%]'");
			return -1;
		}
	}
	if (g->kind != CLI_GATE_ABS && mode != CLI_GATE_BASE) {
		bad_gate(expr, "a relative gate needs a base: use it with 'gfxstat compare'");
		return -1;
	}
	return 0;
}

static int holds(double v, const char *op, double x)
{
	if (op[0] == '<')
		return op[1] ? v <= x : v < x;
	return op[1] ? v >= x : v > x;
}

void cli_gate_eval(const struct cli_gate *g, const struct cli_gate_input *in,
		   struct cli_gate_result *r)
{
	const struct cli_metric_def *m = &cli_metrics[g->metric];
	double worse_by, lim;

	memset(r, 0, sizeof(*r));
	r->gate = g;
	snprintf(r->app, sizeof(r->app), "%s", in->app ? in->app : "");
	if (isnan(in->new_value) || (g->kind != CLI_GATE_ABS &&
				     (!in->have_base || in->verdict == CLI_V_NA))) {
		r->skipped = 1;
		snprintf(r->msg, sizeof(r->msg), "%s has no value here", m->name);
		return;
	}
	if (g->kind == CLI_GATE_ABS) {
		r->failed = holds(in->new_value, g->op, g->value);
		snprintf(r->msg, sizeof(r->msg), "%s %.3f %s %g", m->name, in->new_value,
			 r->failed ? g->op : "passes", g->value);
		return;
	}
	worse_by = m->higher_better ? in->base_value - in->new_value
				    : in->new_value - in->base_value;
	lim = g->percent ? fabs(in->base_value) * g->value / 100 : g->value;
	/* relative gates fail only on a significant change: noise never stops a release */
	r->failed = in->verdict == CLI_V_WORSE &&
		    (g->kind == CLI_GATE_REGRESSED || holds(worse_by, g->op, lim));
	snprintf(r->msg, sizeof(r->msg), "%s %.3f -> %.3f (%+.3f, 95%% CI %+.3f..%+.3f): %s",
		 m->name, in->base_value, in->new_value, in->diff, in->lo, in->hi,
		 cli_verdict_name(in->verdict));
}

void cli_gate_fail(const struct cli_gate *g, const char *app, struct cli_gate_result *r,
		   const char *fmt, ...)
{
	va_list ap;

	memset(r, 0, sizeof(*r));
	r->gate = g;
	r->failed = 1;
	snprintf(r->app, sizeof(r->app), "%s", app ? app : "");
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
}

static void xml_str(FILE *o, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", o);
		else if (c == '<')
			fputs("&lt;", o);
		else if (c == '>')
			fputs("&gt;", o);
		else if (c == '"')
			fputs("&quot;", o);
		else if (c < 0x20 && c != '\t' && c != '\n')
			fputc('?', o); /* not allowed in XML 1.0 */
		else
			fputc(c, o);
	}
}

int cli_junit_write(const char *path, const char *suite, const struct cli_gate_result *r,
		    size_t n)
{
	struct cli_output out;
	size_t i, failed = 0, skipped = 0;
	int rc = cli_output_open(&out, path, 0);
	FILE *o = out.f;

	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		failed += r[i].failed != 0;
		skipped += r[i].skipped != 0;
	}
	fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"gfxstat\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n"
		"  <testsuite name=\"", n, failed, skipped);
	xml_str(o, suite);
	fprintf(o, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n", n, failed,
		skipped);
	for (i = 0; i < n; i++) {
		fputs("    <testcase classname=\"gfxstat.", o);
		xml_str(o, r[i].app[0] ? r[i].app : "(all)");
		fputs("\" name=\"", o);
		xml_str(o, r[i].gate->expr);
		fputs("\">", o);
		if (r[i].failed || r[i].skipped) {
			fputs(r[i].failed ? "\n      <failure message=\"" : "\n      <skipped message=\"",
			      o);
			xml_str(o, r[i].msg);
			fputs("\"/>\n    ", o);
		} else {
			fputs("\n      <system-out>", o);
			xml_str(o, r[i].msg);
			fputs("</system-out>\n    ", o);
		}
		fputs("</testcase>\n", o);
	}
	fputs("  </testsuite>\n</testsuites>\n", o);
	/* whole or not at all: a failed write leaves an earlier FILE as it was */
	return cli_output_close(&out, 1);
}
