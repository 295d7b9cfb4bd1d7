/* SPDX-License-Identifier: MIT */
/* analyze: why frames were janky (cmd_analyze_why.c): causes with thread states, clusters. */
#ifndef CMD_ANALYZE_WHY_H
#define CMD_ANALYZE_WHY_H

#include <stdio.h>

#include "cli_json.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_cause.h"

/*
 * A frame's cause as the output reads it (cli_why_unpack()): its class, evidence and threads.
 */
struct cli_why {
	enum gfxstat_cause_class cls;
	int no_sched;
	const char *text, *signature, *summary;
	const struct gfxstat_cause_thread *main, *render; /* NULL when not known */
};

/*
 * Where analyze keeps the causes of a recording's frames that may turn out janky until the
 * output: a struct gfxstat_cause is 2 KB, most of it the two threads' zeros, and the
 * signature and summary are shared by every frame of one cause. Each cause is packed
 * (cli_why_pack(): its text as is, its signature and summary interned -- one copy per
 * distinct string -- and, for JSON --janky only, its threads with their runs of zero bytes
 * counted): about 500 bytes with the threads, 190 without.
 */
struct cli_why_pool;

struct cli_why_pool *cli_why_pool_new(void);
/* Frees the pool, its interned strings and the scratch cli_why_unpack() fills (not the packed
 * causes: each is one allocation, freed with free()). NULL is allowed. */
void cli_why_pool_free(struct cli_why_pool *p);

/* @s, interned in @p: one copy per distinct string, freed with the pool. NULL when out of
 * memory. */
const char *cli_why_intern(struct cli_why_pool *p, const char *s);

/* @c packed (one allocation), or NULL when out of memory. Its threads' work is kept only with
 * @threads (JSON --janky prints it; every other output asks only whether a thread is known,
 * and without them a cause takes ~190 bytes, not ~500): unpacked without, a known thread is
 * one with nothing but known set. */
unsigned char *cli_why_pack(struct cli_why_pool *p, const struct gfxstat_cause *c, int threads);

/* The text of packed cause @k: valid while @k is. */
const char *cli_why_text(const unsigned char *k);

/* Packed cause @k as the output reads it: valid until the next cli_why_unpack() on @p. */
const struct cli_why *cli_why_unpack(struct cli_why_pool *p, const unsigned char *k);

/*
 * The cause recorded for janky frame @j of layer or app @l of @m, or NULL; *@on is set to the
 * layer the frame was on (for an app: one of its layers; NULL when none is known).
 */
typedef const struct cli_why *(*cli_why_fn)(void *user, const struct gfxstat_metrics *m,
					     const struct gfxstat_layer_metrics *l,
					     const struct gfxstat_janky_frame *j, const char **on);

/* What the note about missing thread states says, once (docs/metrics.md). */
#define CLI_WHY_NO_SCHED "record with the 'sched freq' categories for thread states"

/* `analyze --janky --format json`: the header, every janky frame with its cause and threads,
 * the clusters. Return: 0, or -1 when out of memory (after saying so). */
int cli_why_janky_json(FILE *o, const struct cli_json_header *h, const struct gfxstat_metrics *m,
		       cli_why_fn why, void *user);

/* `analyze --format json`: as cli_json_analyze(), each entry with its own "causes" (its
 * clusters), and the recording's after the layers (each app's frames from its own timeline,
 * each layer of no app's). Return: 0, or -1 when out of memory. */
int cli_why_analyze_json(FILE *o, const struct cli_json_header *h,
			 const struct gfxstat_metrics *m, cli_why_fn why, void *user);

/* The table's "  why: ..." line under @l's headline: its cluster of most jank time. */
void cli_why_line(const struct gfxstat_metrics *m, const struct gfxstat_layer_metrics *l,
		  cli_why_fn why, void *user);

/* Whether some janky frame's app work was found in a trace without scheduler events: the
 * run says CLI_WHY_NO_SCHED once. */
int cli_why_no_sched(const struct gfxstat_metrics *m, cli_why_fn why, void *user);

#endif
