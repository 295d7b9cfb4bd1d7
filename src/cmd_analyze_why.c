/* SPDX-License-Identifier: MIT */
/*
 * gfxstat analyze: why frames were janky. Every janky frame's cause class and evidence, with
 * where its main thread's and RenderThread's time went (from the scheduler's events, when the
 * trace has them); the causes clustered by signature, most jank time first.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_system.h"
#include "cmd_analyze_why.h"

struct cli_why_pool {
	char **slot; /* the interned strings, open addressing */
	size_t n, cap;
	struct cli_why out; /* cli_why_unpack()'s */
	struct gfxstat_cause_thread main, render;
};

struct cli_why_pool *cli_why_pool_new(void)
{
	return calloc(1, sizeof(struct cli_why_pool));
}

void cli_why_pool_free(struct cli_why_pool *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->cap; i++)
		free(p->slot[i]);
	free(p->slot);
	free(p);
}

static size_t str_hash(const char *s)
{
	size_t h = 14695981039346656037ULL & (size_t)-1; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211ULL;
	return h;
}

const char *cli_why_intern(struct cli_why_pool *p, const char *s)
{
	size_t i, n;

	if (2 * (p->n + 1) > p->cap) {
		size_t nc = p->cap ? 2 * p->cap : 256, k;
		char **ns = calloc(nc, sizeof(*ns));

		if (!ns)
			return NULL;
		for (k = 0; k < p->cap; k++)
			if (p->slot[k]) {
				for (i = str_hash(p->slot[k]) & (nc - 1); ns[i]; i = (i + 1) & (nc - 1))
					;
				ns[i] = p->slot[k];
			}
		free(p->slot);
		p->slot = ns;
		p->cap = nc;
	}
	for (i = str_hash(s) & (p->cap - 1); p->slot[i]; i = (i + 1) & (p->cap - 1))
		if (!strcmp(p->slot[i], s))
			return p->slot[i];
	n = strlen(s) + 1;
	p->slot[i] = malloc(n);
	if (!p->slot[i])
		return NULL;
	memcpy(p->slot[i], s, n);
	p->n++;
	return p->slot[i];
}

/* A packed cause: these bytes, then its text, then its known threads, zero runs counted. */
enum { TH_NONE, TH_KEPT, TH_KNOWN /* known, its work not kept */ };
struct packed_head {
	unsigned char cls, no_sched, main, render; /* @main, @render: TH_* */
	const char *signature, *summary; /* interned */
};

unsigned char *cli_why_pack(struct cli_why_pool *p, const struct gfxstat_cause *c, int threads)
{
	unsigned char buf[sizeof(struct packed_head) + GFXSTAT_CAUSE_TEXT +
			  4 * sizeof(struct gfxstat_cause_thread)];
	size_t nt = strnlen(c->text, sizeof(c->text) - 1), o = sizeof(struct packed_head);
	struct packed_head h;
	unsigned char *k;

	h.cls = (unsigned char)c->cls;
	h.no_sched = (unsigned char)(c->no_sched != 0);
	h.main = !c->main.known ? TH_NONE : threads ? TH_KEPT : TH_KNOWN;
	h.render = !c->render.known ? TH_NONE : threads ? TH_KEPT : TH_KNOWN;
	h.signature = cli_why_intern(p, c->signature);
	h.summary = cli_why_intern(p, c->summary);
	if (!h.signature || !h.summary)
		return NULL;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + o, c->text, nt);
	o += nt;
	buf[o++] = 0;
	if (h.main == TH_KEPT)
		o += gfxstat_zero_pack(&c->main, sizeof(c->main), buf + o);
	if (h.render == TH_KEPT)
		o += gfxstat_zero_pack(&c->render, sizeof(c->render), buf + o);
	k = malloc(o);
	if (k)
		memcpy(k, buf, o);
	return k;
}

const char *cli_why_text(const unsigned char *k)
{
	return (const char *)k + sizeof(struct packed_head);
}

/* A thread packed without its work (cli_why_pack() without threads): known, nothing else. */
static void known_only(struct gfxstat_cause_thread *t)
{
	memset(t, 0, sizeof(*t));
	t->known = 1;
}

const struct cli_why *cli_why_unpack(struct cli_why_pool *p, const unsigned char *k)
{
	struct packed_head h;
	const unsigned char *in = k + sizeof(h);

	memcpy(&h, k, sizeof(h));
	p->out.cls = (enum gfxstat_cause_class)h.cls;
	p->out.no_sched = h.no_sched;
	p->out.signature = h.signature;
	p->out.summary = h.summary;
	p->out.text = (const char *)in;
	in += strlen(p->out.text) + 1;
	p->out.main = p->out.render = NULL;
	if (h.main == TH_KEPT)
		in = gfxstat_zero_unpack(in, &p->main, sizeof(p->main));
	else if (h.main == TH_KNOWN)
		known_only(&p->main);
	if (h.main)
		p->out.main = &p->main;
	if (h.render == TH_KEPT)
		gfxstat_zero_unpack(in, &p->render, sizeof(p->render));
	else if (h.render == TH_KNOWN)
		known_only(&p->render);
	if (h.render)
		p->out.render = &p->render;
	return &p->out;
}

/* How late a janky frame was (the library's one rule, janky_frame.late_ns: FrameTimeline's
 * own account, else its length past its cadence period), or GFXSTAT_NS_NONE when not known:
 * a janky frame is late by something, so "0 ms" would be a claim. */
static int64_t jank_ns(const struct gfxstat_janky_frame *j)
{
	return j->late_ns;
}

static void json_ms(FILE *o, int64_t ns)
{
	fprintf(o, "%.3f", (double)ns / 1e6);
}

static void json_opt_str(FILE *o, const char *s)
{
	if (s && s[0])
		cli_json_str(o, s);
	else
		fputs("null", o);
}

static void json_opt_u32(FILE *o, uint32_t v)
{
	if (v)
		fprintf(o, "%u", v);
	else
		fputs("null", o);
}

/* One thread's work: "main_thread": {...}. */
static void json_thread(FILE *o, const char *key, const struct gfxstat_cause_thread *t)
{
	const struct gfxstat_thread_span *s = &t->span;
	unsigned c, k, first = 1;

	fprintf(o, ",\"%s\":{\"tid\":%d,\"section\":", key, (int)s->tid);
	cli_json_str(o, t->section);
	fputs(",\"longest_inside\":", o);
	json_opt_str(o, t->path);
	fputs(",\"work_start_ns\":", o);
	cli_json_ns(o, s->start_ns);
	fputs(",\"work_end_ns\":", o);
	cli_json_ns(o, s->end_ns);
	fputs(",\"states_ms\":{", o);
	for (k = 0; k < GFXSTAT_TS_COUNT; k++) {
		fprintf(o, "%s\"%s\":", k ? "," : "",
			gfxstat_thread_state_name((enum gfxstat_thread_state)k));
		json_ms(o, s->state_ns[k]);
	}
	fputs("},\"cpus\":[", o);
	for (c = 0; c < 64; c++)
		if (s->cpus >> c & 1) {
			fprintf(o, "%s%u", first ? "" : ",", c);
			first = 0;
		}
	fputs("],\"max_freq_khz\":", o);
	json_opt_u32(o, s->max_freq_khz);
	fputs(",\"mean_freq_khz\":", o);
	json_opt_u32(o, s->mean_freq_khz);
	fputs(",\"cluster_max_khz\":", o);
	json_opt_u32(o, s->cluster_max_khz);
	fputs(",\"system_max_khz\":", o);
	json_opt_u32(o, s->system_max_khz);
	fprintf(o, ",\"little_core\":%s,\"capped\":%s", s->little ? "true" : "false",
		s->capped ? "true" : "false");
	fputs(",\"binder\":[", o);
	for (k = 0; k < s->nbinder; k++) {
		const struct gfxstat_span_binder *b = &s->binder[k];

		fprintf(o, "%s{\"dest_pid\":%d,\"dest_process\":", k ? "," : "", (int)b->dest_pid);
		json_opt_str(o, b->dest_comm);
		fputs(",\"dest_tid\":", o);
		if (b->dest_tid > 0)
			fprintf(o, "%d", (int)b->dest_tid);
		else
			fputs("null", o);
		fputs(",\"dest_thread\":", o);
		json_opt_str(o, b->dest_thread_comm);
		fputs(",\"start_ns\":", o);
		cli_json_ns(o, b->start_ns);
		fputs(",\"ms\":", o);
		json_ms(o, b->dur_ns);
		fprintf(o, ",\"replied\":%s}", b->replied ? "true" : "false");
	}
	fputs("],\"woken_by\":", o);
	if (s->longest_sleep_ns > 0 && (s->waker_tid >= 0 || s->waker_irq)) {
		fprintf(o, "{\"tid\":%d,\"pid\":", (int)s->waker_tid);
		if (s->waker_pid > 0)
			fprintf(o, "%d", (int)s->waker_pid);
		else
			fputs("null", o);
		fputs(",\"comm\":", o);
		json_opt_str(o, s->waker_comm);
		fprintf(o, ",\"interrupt\":%s,\"after_sleep_ms\":", s->waker_irq ? "true" : "false");
		json_ms(o, s->longest_sleep_ns);
		fputs("}", o);
	} else {
		fputs("null", o);
	}
	fputs(",\"blocked\":", o);
	if (s->longest_blocked_ns > 0) {
		fputs("{\"function\":", o);
		json_opt_str(o, s->blocked_fn);
		fputs(",\"io_wait\":", o);
		fputs(s->io_wait < 0 ? "null" : s->io_wait ? "true" : "false", o);
		fputs(",\"ms\":", o);
		json_ms(o, s->longest_blocked_ns);
		fputs("}", o);
	} else {
		fputs("null", o);
	}
	fputs(",\"ran_instead\":", o);
	if (s->longest_runnable_ns > 0 && s->instead_tid >= 0) {
		fprintf(o, "{\"tid\":%d,\"comm\":", (int)s->instead_tid);
		json_opt_str(o, s->instead_comm);
		fputs(",\"wait_ms\":", o);
		json_ms(o, s->longest_runnable_ns);
		fputs("}", o);
	} else {
		fputs("null", o);
	}
	fputs("}", o);
}

/* Count the janky frames of @l (a layer, or an app's own timeline) into @cc. Return: 0, or -1
 * when out of memory. */
static int cluster_row(struct gfxstat_cause_clusters *cc, const struct gfxstat_metrics *m,
		       const struct gfxstat_layer_metrics *l, cli_why_fn why, void *user)
{
	size_t i;

	for (i = 0; i < l->njanky_list; i++) {
		const struct gfxstat_janky_frame *j = &l->janky_list[i];
		const char *on;
		const struct cli_why *c = why(user, m, l, j, &on);
		int rc = c ? gfxstat_cause_clusters_add(cc, c->cls, c->signature, c->summary,
							jank_ns(j))
			   : gfxstat_cause_clusters_add(cc, GFXSTAT_CAUSE_UNKNOWN,
							"unknown|no cause recorded",
							"no cause recorded", jank_ns(j));

		if (rc)
			return -1;
	}
	return 0;
}

/* The clusters of @l's janky frames alone, or NULL when out of memory. */
static struct gfxstat_cause_clusters *cluster_one(const struct gfxstat_metrics *m,
						  const struct gfxstat_layer_metrics *l,
						  cli_why_fn why, void *user)
{
	struct gfxstat_cause_clusters *cc = gfxstat_cause_clusters_new();

	if (cc && cluster_row(cc, m, l, why, user)) {
		gfxstat_cause_clusters_free(cc);
		cc = NULL;
	}
	return cc;
}

/* SurfaceFlinger's own refreshes, the "(display)" layer: the screen's timeline, no producer */
static int layer_is_display(const struct gfxstat_layer_metrics *l)
{
	return !l->is_app && (l->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY ||
			      l->source == GFXSTAT_SRC_FTRACE_DISPLAY);
}

/*
 * The clusters of the run: each app's janky frames as its own timeline has them (its layers'
 * frames merged, as its table block counts them: a doFrame presented on two of its surfaces
 * is not counted once per surface), and those of each other producer (a layer of no app);
 * the display's own, SurfaceFlinger's refreshes (layer_is_display()), only when no
 * producer has a janky frame. The display's janky frames are the visible result of the
 * producers' (an app's late buffer is a display frame that missed), so ranking them beside
 * the apps' would count one stall twice and put SurfaceFlinger on top of a run whose app was
 * slow (list_jank: "SurfaceFlinger: 3 of 13" beside the app's "sleeping in input handling: 8
 * of 10"). Their frames add up to the producers' janky frames (or else the display's).
 */
static struct gfxstat_cause_clusters *cluster_all(const struct gfxstat_metrics *m, cli_why_fn why,
						  void *user)
{
	struct gfxstat_cause_clusters *cc = gfxstat_cause_clusters_new();
	size_t k, n = gfxstat_metrics_count(m);
	int display;

	/* the producers' first; the display's only when they have none */
	for (display = 0; display < 2 && cc && !gfxstat_cause_clusters_frames(cc); display++)
		for (k = 0; k < n && cc; k++) {
			const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);

			if (!l->is_app && l->app && l->app[0])
				continue; /* counted in its app's timeline */
			if (layer_is_display(l) != display)
				continue;
			if (cluster_row(cc, m, l, why, user)) {
				gfxstat_cause_clusters_free(cc);
				cc = NULL;
			}
		}
	return cc;
}

/* The thread-states note: the "thread_states" field. */
static void json_thread_states(FILE *o, const struct gfxstat_metrics *m, cli_why_fn why,
			       void *user)
{
	fputs("\n\"thread_states\":", o);
	if (cli_why_no_sched(m, why, user))
		cli_json_str(o, "not in the trace: " CLI_WHY_NO_SCHED);
	else
		fputs("null", o);
}

/* "causes":[...], a cluster a line (@nl), or all on one line (in a layer's entry). */
static void json_clusters(FILE *o, struct gfxstat_cause_clusters *cc, int nl)
{
	const struct gfxstat_cause_cluster *c;
	size_t i, n = gfxstat_cause_clusters_get(cc, &c);

	fputs(nl ? "\n\"causes\":[" : "\"causes\":[", o);
	for (i = 0; i < n; i++) {
		fprintf(o, "%s%s{\"cause_class\":\"%s\",\"signature\":", i ? "," : "",
			nl ? "\n" : "", gfxstat_cause_class_name(c[i].cls));
		cli_json_str(o, c[i].signature);
		fputs(",\"summary\":", o);
		cli_json_str(o, c[i].summary);
		fprintf(o, ",\"frames\":%llu,\"jank_ms\":", (unsigned long long)c[i].frames);
		json_ms(o, c[i].jank_ns);
		fprintf(o, ",\"late_unknown_frames\":%llu}", (unsigned long long)c[i].late_unknown);
	}
	fputs("]", o);
}

int cli_why_janky_json(FILE *o, const struct cli_json_header *h, const struct gfxstat_metrics *m,
		       cli_why_fn why, void *user)
{
	struct gfxstat_janky_ref *rows;
	struct gfxstat_cause_clusters *cc = cluster_all(m, why, user);
	size_t i, n = gfxstat_metrics_janky_all(m, &rows);

	if (!cc || n == (size_t)-1) {
		gfxstat_cause_clusters_free(cc);
		if (n != (size_t)-1)
			free(rows);
		cli_error("out of memory");
		return -1;
	}
	cli_json_begin(o, h);
	json_thread_states(o, m, why, user);
	fputs(",\n\"janky\":[", o);
	for (i = 0; i < n; i++) {
		const struct gfxstat_janky_frame *j = rows[i].frame;
		const struct gfxstat_layer_metrics *l = rows[i].layer;
		const char *on;
		const struct cli_why *c = why(user, m, l, j, &on);

		fputs(i ? ",\n{\"present_ns\":" : "\n{\"present_ns\":", o);
		cli_json_ns(o, j->present_ns);
		fputs(",\"layer\":", o);
		cli_json_str(o, l->name);
		fputs(",\"app\":", o);
		json_opt_str(o, l->app);
		fputs(",\"frame_ms\":", o);
		if (j->length_ns != GFXSTAT_NS_NONE)
			json_ms(o, j->length_ns);
		else
			fputs("null", o);
		fputs(",\"jank_ms\":", o);
		if (jank_ns(j) != GFXSTAT_NS_NONE)
			json_ms(o, jank_ns(j));
		else
			fputs("null", o); /* how late is not known */
		fputs(",\"cause\":", o);
		cli_json_str(o, c ? c->text : "unknown (no cause recorded for this frame)");
		fprintf(o, ",\"cause_class\":\"%s\",\"signature\":",
			gfxstat_cause_class_name(c ? c->cls : GFXSTAT_CAUSE_UNKNOWN));
		cli_json_str(o, c ? c->signature : "unknown|no cause recorded");
		if (c && c->main)
			json_thread(o, "main_thread", c->main);
		if (c && c->render)
			json_thread(o, "render_thread", c->render);
		fputs("}", o);
	}
	fputs("],", o);
	json_clusters(o, cc, 1);
	fputs("}\n", o);
	free(rows);
	gfxstat_cause_clusters_free(cc);
	return 0;
}

int cli_why_analyze_json(FILE *o, const struct cli_json_header *h,
			 const struct gfxstat_metrics *m, cli_why_fn why, void *user)
{
	struct gfxstat_cause_clusters *cc = cluster_all(m, why, user);
	size_t k, n = gfxstat_metrics_count(m);

	if (!cc) {
		cli_error("out of memory");
		return -1;
	}
	/* as cli_json_analyze(): one entry a line, each with its own clusters (the table's "why"
	 * line under its headline is the first) */
	cli_json_begin(o, h);
	fputs("\n\"layers\":[", o);
	for (k = 0; k < n; k++) {
		const struct gfxstat_layer_metrics *l = gfxstat_metrics_get(m, k);
		struct gfxstat_cause_clusters *lc = cluster_one(m, l, why, user);

		if (!lc) {
			gfxstat_cause_clusters_free(cc);
			cli_error("out of memory");
			return -1;
		}
		fputs("\n", o);
		cli_json_layer_open(o, l);
		fputc(',', o);
		json_clusters(o, lc, 0);
		fputc('}', o);
		gfxstat_cause_clusters_free(lc);
		if (k + 1 < n)
			fputc(',', o);
	}
	fputs("],", o);
	json_clusters(o, cc, 1);
	fputs(",", o);
	json_thread_states(o, m, why, user);
	cli_system_field(o);
	fputs("}\n", o);
	gfxstat_cause_clusters_free(cc);
	return 0;
}

void cli_why_line(const struct gfxstat_metrics *m, const struct gfxstat_layer_metrics *l,
		  cli_why_fn why, void *user)
{
	struct gfxstat_cause_clusters *cc;
	const struct gfxstat_cause_cluster *c;
	size_t n;

	if (!l->njanky_list)
		return;
	cc = cluster_one(m, l, why, user);
	if (!cc)
		return;
	n = gfxstat_cause_clusters_get(cc, &c);
	if (n) {
		printf("  why       %llu of %zu janky frames: %s, ", (unsigned long long)c[0].frames,
		       l->njanky_list, cli_shown(c[0].summary));
		/* how late, of the frames whose lateness is known; never 0 for unknown */
		if (c[0].late_unknown == c[0].frames) {
			printf("how late not known\n");
		} else {
			/* under 10 ms a tenth: a frame 0.2 ms past its deadline is not "0 ms" */
			printf("%.*f ms late in all", c[0].jank_ns < 10000000 ? 1 : 0,
			       (double)c[0].jank_ns / 1e6);
			if (c[0].late_unknown)
				printf(" (%llu of them by an amount not known)",
				       (unsigned long long)c[0].late_unknown);
			printf("\n");
		}
	}
	gfxstat_cause_clusters_free(cc);
}

int cli_why_no_sched(const struct gfxstat_metrics *m, cli_why_fn why, void *user)
{
	struct gfxstat_janky_ref *rows;
	size_t i, n = gfxstat_metrics_janky_all(m, &rows);
	int none = 0;

	if (n == (size_t)-1)
		return 0;
	for (i = 0; i < n && !none; i++) {
		const char *on;
		const struct cli_why *c = why(user, m, rows[i].layer, rows[i].frame, &on);

		none = c && c->no_sched && (c->main || c->render);
	}
	free(rows);
	return none;
}
