/* SPDX-License-Identifier: MIT */
/* Shared by the HTML report and the Trace Event export: frames kept per layer, compactly. */
#ifndef GX_HTML_LOCAL_H
#define GX_HTML_LOCAL_H

#include "../gx_local.h"
#include "gfxstat/gfxstat_report.h"

/* One layer's presented frames, in present order. */
struct gx_rlayer {
	char *name, *app;
	enum gfxstat_frame_source source;
	int64_t *present;
	int64_t *start;    /* the slice start of each frame (export only), or NULL */
	size_t n, cap;
};

struct gx_rstore {
	struct gx_strmap names; /* layer name -> index in @layers */
	struct gx_rlayer *layers;
	size_t nlayers, cap;
	int want_start;
	long last;              /* the layer of the previous frame: frames come in runs */
};

GFXSTAT_HIDDEN int gx_rstore_init(struct gx_rstore *s, int want_start);
GFXSTAT_HIDDEN void gx_rstore_free(struct gx_rstore *s);
/* Return: the layer's index, or a negative GFXSTAT_E_* code. */
GFXSTAT_HIDDEN long gx_rstore_layer(struct gx_rstore *s, const struct gfxstat_frame *f);
/* Keep @f (with @start when the store wants it). Return: 0 or GFXSTAT_E_NOMEM. */
GFXSTAT_HIDDEN int gx_rstore_add(struct gx_rstore *s, const struct gfxstat_frame *f,
				 int64_t start);
/* The layer named @name, or -1. */
GFXSTAT_HIDDEN long gx_rstore_find(const struct gx_rstore *s, const char *name);
/* The index of the first frame of @l presented at @t, or -1. */
GFXSTAT_HIDDEN long gx_rlayer_at(const struct gx_rlayer *l, int64_t t);

/* A buffered writer over a gfxstat_write_fn: the first error sticks. */
struct gx_wr {
	gfxstat_write_fn fn;
	void *user;
	char buf[16384];
	size_t len;
	int err;
};

GFXSTAT_HIDDEN void gx_wr_put(struct gx_wr *w, const char *p, size_t n);
GFXSTAT_HIDDEN void gx_wr_puts(struct gx_wr *w, const char *s);
GFXSTAT_HIDDEN void gx_wr_printf(struct gx_wr *w, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* @s as a JSON string literal, safe inside <script> (no "</"). */
GFXSTAT_HIDDEN void gx_wr_json_str(struct gx_wr *w, const char *s, size_t n);
/* @s escaped for HTML text and attributes. */
GFXSTAT_HIDDEN void gx_wr_html(struct gx_wr *w, const char *s, size_t n);
/* Flush. Return: 0 or the first error. */
GFXSTAT_HIDDEN int gx_wr_flush(struct gx_wr *w);
/* The report being collected (gfxstat_report.h). */
struct gx_hcause {
	long layer;        /* in @st; an untimed frame's: in @unames */
	int64_t present;   /* NONE for an untimed frame */
	uint64_t ord;      /* an untimed frame's rank among its layer's (janky_frame.index) */
	char *cause;
};

/* A frame's cause class and cluster keys, found as its cause text is (gx_hcause). */
struct gx_hwhy {
	long layer;
	int64_t present;
	uint64_t ord;
	int cls;           /* enum gfxstat_cause_class */
	char *sig, *summary;
};

struct gfxstat_html {
	const struct gfxstat_report_asset *assets;
	struct gx_rstore st;
	char **meta;           /* key, value, key, value, ... */
	size_t nmeta;
	struct gx_hcause *causes;
	size_t ncauses, capcauses;
	int causes_sorted;
	struct gx_strmap unames; /* layers with untimed frames, */
	uint64_t *ucount;        /* and how many each had so far */
	int64_t **udur;          /* and their own durations, in the order read (the report's
				  * distribution and janky lane of a dump with no present times) */
	size_t capu;
	char **seed;           /* fps.csv rows, without '\n' */
	size_t nseed, capseed;
	int64_t (*modes)[2];   /* refresh-rate mode switches: present, vsync period */
	size_t nmodes, capmodes;
	struct gx_hwhy *why;   /* the causes' classes and cluster keys (html_why.c) */
	size_t nwhy, capwhy;
	int why_sorted;
	struct gx_hlanes *lanes; /* context lanes and screenshots (html_lanes.c), or NULL */
};

/* The context lanes' and screenshots' part of the data block: ,"ctx":[...],"shots":[...]
 * (html_lanes.c), times in seconds from @t0. */
GFXSTAT_HIDDEN void gx_html_lanes_data(struct gfxstat_html *h, int64_t t0, struct gx_wr *w);
GFXSTAT_HIDDEN void gx_html_lanes_free(struct gfxstat_html *h);

/* Mode switches kept at most (a display flapping between rates would be a long list). */
#define GX_HTML_MAX_MODES 10000

/* The cause recorded for frame @present of layer @name (untimed, NONE: the one of rank @ord
 * among the layer's untimed frames), or NULL. */
GFXSTAT_HIDDEN const char *gx_html_cause_of(struct gfxstat_html *h, const char *name,
					    int64_t present, uint64_t ord);
/* The class and cluster keys recorded for a frame (as gx_html_cause_of()), or NULL. */
GFXSTAT_HIDDEN const struct gx_hwhy *gx_html_why_of(struct gfxstat_html *h, const char *name,
						    int64_t present, uint64_t ord);
/* The name of @y's class ("unknown" for NULL). */
GFXSTAT_HIDDEN const char *gx_html_class_name(const struct gx_hwhy *y);
GFXSTAT_HIDDEN void gx_html_why_free(struct gfxstat_html *h);
/* The charts' time origin: the earliest present of any layer (0 when none). */
GFXSTAT_HIDDEN int64_t gx_html_time_origin(const struct gfxstat_html *h);
/* The verdict per app, first on the page (html_verdict.c). */
GFXSTAT_HIDDEN void gx_html_verdict(struct gfxstat_html *h, const struct gfxstat_metrics *m,
				    struct gx_wr *w);
/* The other tools' metrics, folded (html_tools.c). */
GFXSTAT_HIDDEN void gx_html_tools(struct gfxstat_html *h, const struct gfxstat_metrics *m,
				  struct gx_wr *w);
/* @name shortened in the middle to about @max characters, the whole name in its title. */
GFXSTAT_HIDDEN void gx_wr_name(struct gx_wr *w, const char *name, size_t max);
/* <td class="t lay" title=@name>@name shortened as gx_wr_name()</td>: a layer in a long
 * table, its whole name written once */
GFXSTAT_HIDDEN void gx_wr_name_cell(struct gx_wr *w, const char *name, size_t max);
/* <@tag data-k=@key data-v=@v (3 decimals, as analyze --json)>@v (@prec decimals)@unit</@tag> */
GFXSTAT_HIDDEN void gx_wr_num(struct gx_wr *w, const char *tag, const char *key, double v,
			      int prec, const char *unit);
GFXSTAT_HIDDEN void gx_wr_count(struct gx_wr *w, const char *tag, const char *key, uint64_t v);
/* <tr data-kind data-name><td>the name</td>: a row of a table of apps and layers */
GFXSTAT_HIDDEN void gx_html_row_head(struct gx_wr *w, const struct gfxstat_layer_metrics *l);
/* The page's title, the input in one line, the verdict: before the timeline. */
GFXSTAT_HIDDEN void gx_html_top(struct gfxstat_html *h, const struct gfxstat_metrics *m,
				const char *title, struct gx_wr *w);
/* The details: figures, distribution, janky frames, the other tools, the recording. */
GFXSTAT_HIDDEN void gx_html_body(struct gfxstat_html *h, const struct gfxstat_metrics *m,
				 const char *title, struct gx_wr *w);
/*
 * Write the template of @assets with title, style, script and license filled in; @part
 * writes every other marker ("body", "data"). Return: 0, GFXSTAT_E_NOMEM, GFXSTAT_E_INVAL
 * when an asset is missing, or @fn's non-zero.
 */
GFXSTAT_HIDDEN int gx_html_fill(const struct gfxstat_report_asset *assets, const char *title,
				void (*part)(void *ctx, const char *name, struct gx_wr *w),
				void *ctx, gfxstat_write_fn fn, void *user);
/* Split one CSV row into at most @max fields (quotes removed, in place). Return: the count. */
GFXSTAT_HIDDEN size_t gx_csv_split(char *row, char **fields, size_t max);
#endif
