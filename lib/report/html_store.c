/* SPDX-License-Identifier: MIT */
/* Frames kept per layer for the report and the export, and the buffered writer they share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "html_local.h"

/* as many layers as the model allows in one recording, and then some */
#define GX_RSTORE_MAX_LAYERS 65536

int gx_rstore_init(struct gx_rstore *s, int want_start)
{
	memset(s, 0, sizeof(*s));
	s->want_start = want_start;
	s->last = -1;
	return gx_strmap_init(&s->names, GX_RSTORE_MAX_LAYERS);
}

void gx_rstore_free(struct gx_rstore *s)
{
	size_t i;

	for (i = 0; i < s->nlayers; i++) {
		free(s->layers[i].name);
		free(s->layers[i].app);
		free(s->layers[i].present);
		free(s->layers[i].start);
	}
	free(s->layers);
	gx_strmap_free(&s->names);
}

static char *dup_str(struct gfxstat_str v)
{
	char *d = malloc(v.n + 1);

	if (d) {
		memcpy(d, v.p, v.n);
		d[v.n] = 0;
	}
	return d;
}

long gx_rstore_layer(struct gx_rstore *s, const struct gfxstat_frame *f)
{
	struct gx_rlayer *l;
	int created = 0;
	long i;

	if (s->last >= 0) {
		l = &s->layers[s->last];
		if (strlen(l->name) == f->layer.n && !memcmp(l->name, f->layer.p, f->layer.n))
			return s->last;
	}
	i = gx_strmap_add(&s->names, f->layer.p, f->layer.n, &created);
	if (i < 0)
		return i;
	if (created) {
		if (gx_grow((void **)&s->layers, &s->cap, s->nlayers, sizeof(*s->layers), 16))
			return GFXSTAT_E_NOMEM;
		l = &s->layers[s->nlayers];
		memset(l, 0, sizeof(*l));
		l->name = dup_str(f->layer);
		l->app = dup_str(f->app);
		l->source = f->source;
		s->nlayers++;
		if (!l->name || !l->app)
			return GFXSTAT_E_NOMEM;
	}
	s->last = i;
	return i;
}

int gx_rstore_add(struct gx_rstore *s, const struct gfxstat_frame *f, int64_t start)
{
	long i = gx_rstore_layer(s, f);
	struct gx_rlayer *l;

	if (i < 0)
		return (int)i;
	l = &s->layers[i];
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 256;
		int64_t *p = realloc(l->present, nc * sizeof(*p));

		if (!p)
			return GFXSTAT_E_NOMEM;
		l->present = p;
		if (s->want_start) {
			p = realloc(l->start, nc * sizeof(*p));
			if (!p)
				return GFXSTAT_E_NOMEM;
			l->start = p;
		}
		l->cap = nc;
	}
	l->present[l->n] = f->present_ns;
	if (s->want_start)
		l->start[l->n] = start;
	l->n++;
	return 0;
}

long gx_rstore_find(const struct gx_rstore *s, const char *name)
{
	return gx_strmap_find(&s->names, name, strlen(name));
}

long gx_rlayer_at(const struct gx_rlayer *l, int64_t t)
{
	size_t lo = 0, hi = l->n;

	/* presents are in order: the first one not before @t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->present[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->n && l->present[lo] == t ? (long)lo : -1;
}

static void wr_drain(struct gx_wr *w)
{
	if (w->len && !w->err)
		w->err = w->fn(w->user, w->buf, w->len);
	w->len = 0;
}

void gx_wr_put(struct gx_wr *w, const char *p, size_t n)
{
	if (w->err)
		return;
	if (n >= sizeof(w->buf)) {
		wr_drain(w);
		if (!w->err)
			w->err = w->fn(w->user, p, n);
		return;
	}
	if (w->len + n > sizeof(w->buf))
		wr_drain(w);
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void gx_wr_puts(struct gx_wr *w, const char *s)
{
	gx_wr_put(w, s, strlen(s));
}

void gx_wr_printf(struct gx_wr *w, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(b)) {
		/* longer than the stack buffer: formatted again on the heap, never cut */
		char *big = malloc((size_t)n + 1);

		if (!big) {
			w->err = w->err ? w->err : GFXSTAT_E_NOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		gx_wr_put(w, big, (size_t)n);
		free(big);
	} else if (n > 0) {
		gx_wr_put(w, b, (size_t)n);
	}
}

void gx_wr_json_str(struct gx_wr *w, const char *s, size_t n)
{
	size_t i, run = 0;

	gx_wr_put(w, "\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[8];

		/* '<' escaped so that no "</script" or "<!--" can end the data block */
		if (c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != 0x7f)
			continue;
		gx_wr_put(w, s + run, i - run);
		snprintf(e, sizeof(e), "\\u%04x", c);
		gx_wr_put(w, e, 6);
		run = i + 1;
	}
	gx_wr_put(w, s + run, n - run);
	gx_wr_put(w, "\"", 1);
}

void gx_wr_html(struct gx_wr *w, const char *s, size_t n)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		const char *e;

		switch (s[i]) {
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '&': e = "&amp;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&#39;"; break;
		default: continue;
		}
		gx_wr_put(w, s + run, i - run);
		gx_wr_puts(w, e);
		run = i + 1;
	}
	gx_wr_put(w, s + run, n - run);
}

int gx_wr_flush(struct gx_wr *w)
{
	wr_drain(w);
	return w->err;
}
