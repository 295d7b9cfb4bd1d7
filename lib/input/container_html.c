/* SPDX-License-Identifier: MIT */
/*
 * systrace / catapult HTML, scanned as a stream: tags are read one at a time into a
 * bounded buffer, ordinary <script> bodies are skipped up to "</script", and the body of
 * every <script class="trace-data"> (text) or <script id="viewer-data"> (base64, then
 * usually gzip) block, and the JavaScript string of the 2012 form
 *   <script>
 *   var linuxPerfData = "\
 *   # tracer: nop\n\
 *   ...\n";
 *   </script>
 * go to a child level, which decides whether the block is ftrace text. Nothing is held
 * whole: a 30 MB block or a 30 MB JavaScript line streams through.
 */
#include <string.h>

#include "container_local.h"

static const char end_pat[] = "</script";   /* compared case-insensitively */
static const char js_pat[] = "linuxPerfData = \"\\";
#define END_LEN (sizeof(end_pat) - 1)
#define JS_LEN (sizeof(js_pat) - 1)

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static int has(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit), i;

	for (i = 0; i + k <= n; i++)
		if (memcmp(s + i, lit, k) == 0)
			return 1;
	return 0;
}

void gx_html_start(struct gfxstat_unwrap *u)
{
	u->hs = GX_H_TEXT;
	u->ntag = 0;
	u->tag_m = 0;
	u->js_m = 0;
	u->nhold = 0;
	u->nws = 0;
	u->ws_active = 0;
	u->b64 = 0;
	u->via = GFXSTAT_FMT_UNKNOWN;
	u->nobuf = 0;
}

static int block_open(struct gfxstat_unwrap *u, enum gfxstat_format via)
{
	if (!gx_uw_child(u, 1))
		return GFXSTAT_E_NOMEM;
	GX_UW_INC(u, html_blocks);
	u->via = via;
	u->nhold = 0;
	u->nws = 0;
	u->ws_active = 1;
	u->nobuf = 0;
	u->b64 = via == GFXSTAT_FMT_VIEWER_DATA;
	u->b64_bad = 0;
	u->b64acc = 0;
	u->b64n = 0;
	u->b64pad = 0;
	u->js_esc = 0;
	return 0;
}

/* End of a block's body: what the child holds is flushed, and it ends. */
static int block_close(struct gfxstat_unwrap *u)
{
	int rc = gx_uw_obuf_flush(u), rc2;

	u->nws = 0; /* the indentation of the </script> line */
	u->ws_active = 0;
	rc2 = gx_uw_end(u->child);
	u->via = GFXSTAT_FMT_UNKNOWN;
	return rc ? rc : rc2;
}

/* A complete tag "<...>" (without the brackets) was read. */
static int tag_done(struct gfxstat_unwrap *u)
{
	const char *t = u->tag;
	size_t n = u->ntag, i;

	u->hs = GX_H_TEXT;
	if (n < 6)
		return 0;
	for (i = 0; i < 6; i++)
		if (lower((unsigned char)t[i]) != (unsigned char)"script"[i])
			return 0;
	if (n > 6 && t[6] != ' ' && t[6] != '\t' && t[6] != '\n' && t[6] != '\r')
		return 0;
	if (t[n - 1] == '/')
		return 0;
	if (has(t, n, "viewer-data")) {
		u->hs = GX_H_BLOCK_NL;
		return block_open(u, GFXSTAT_FMT_VIEWER_DATA);
	}
	if (has(t, n, "trace-data") && has(t, n, "class")) {
		u->hs = GX_H_BLOCK_NL;
		return block_open(u, GFXSTAT_FMT_UNKNOWN);
	}
	u->hs = GX_H_SCRIPT;
	u->tag_m = 0;
	u->js_m = 0;
	return 0;
}

static int obuf_put(struct gfxstat_unwrap *u, unsigned char c)
{
	if (u->nobuf == sizeof(u->obuf)) {
		int rc = gx_uw_obuf_flush(u);

		if (rc)
			return rc;
	}
	u->obuf[u->nobuf++] = c;
	return 0;
}

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

static int b64_in(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n && !u->b64_bad && !rc; i++) {
		unsigned char c = p[i];
		int v;

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '=') {
			u->b64pad++;
			continue;
		}
		v = b64_value(c);
		if (v < 0 || u->b64pad) {
			GX_UW_INC(u, corrupt);
			u->b64_bad = 1;
			break;
		}
		u->b64acc = u->b64acc << 6 | (uint32_t)v;
		if (++u->b64n == 4) {
			rc = obuf_put(u, (unsigned char)(u->b64acc >> 16));
			if (!rc)
				rc = obuf_put(u, (unsigned char)(u->b64acc >> 8));
			if (!rc)
				rc = obuf_put(u, (unsigned char)u->b64acc);
			u->b64n = 0;
			u->b64acc = 0;
		}
	}
	return rc;
}

/* The last base64 group of a block, padded or not. */
static int b64_end(struct gfxstat_unwrap *u)
{
	int rc = 0;

	if (u->b64_bad)
		return 0;
	if (u->b64n == 2) {
		rc = obuf_put(u, (unsigned char)(u->b64acc >> 4));
	} else if (u->b64n == 3) {
		rc = obuf_put(u, (unsigned char)(u->b64acc >> 10));
		if (!rc)
			rc = obuf_put(u, (unsigned char)(u->b64acc >> 2));
	} else if (u->b64n == 1) {
		GX_UW_INC(u, corrupt);
	}
	u->b64n = 0;
	return rc;
}

static int all_blank(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return 0;
	return 1;
}

static int ws_flush(struct gfxstat_unwrap *u)
{
	size_t n = u->nws;

	u->nws = 0;
	return n ? gx_uw_input(u->child, u->ws, n) : 0;
}

/*
 * Body bytes of a text block. Spaces and tabs at the start of a line are held back, so
 * the indentation of the closing "  </script>" line is not passed on.
 */
static int content(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	const unsigned char *tail = p;
	size_t i, tn = n;
	int rc;

	if (!n)
		return 0;
	if (u->b64)
		return b64_in(u, p, n);
	for (i = n; i > 0; i--) {
		if (p[i - 1] == '\n') {
			rc = ws_flush(u);
			if (!rc)
				rc = gx_uw_input(u->child, p, i);
			if (rc)
				return rc;
			u->ws_active = 1;
			tail = p + i;
			tn = n - i;
			break;
		}
	}
	if (!tn)
		return 0;
	if (u->ws_active && all_blank(tail, tn) && u->nws + tn <= sizeof(u->ws)) {
		memcpy(u->ws + u->nws, tail, tn);
		u->nws += tn;
		return 0;
	}
	u->ws_active = 0;
	rc = ws_flush(u);
	return rc ? rc : gx_uw_input(u->child, tail, tn);
}

/* Inside a block body: pass it on until "</script". Return bytes used, or < 0. */
static long block_in(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	size_t i = 0;
	int rc;

	while (i < n) {
		const unsigned char *q;
		size_t k;

		if (u->nhold) {
			if (lower(p[i]) == (unsigned char)end_pat[u->nhold]) {
				u->hold[u->nhold++] = (char)p[i++];
				if (u->nhold == END_LEN) {
					u->nhold = 0;
					if (u->b64) {
						rc = b64_end(u);
						if (rc)
							return rc;
					}
					u->hs = GX_H_ENDTAG;
					rc = block_close(u);
					return rc ? rc : (long)i;
				}
				continue;
			}
			k = u->nhold;
			u->nhold = 0;
			rc = content(u, (const unsigned char *)u->hold, k);
			if (rc)
				return rc;
			continue;
		}
		q = memchr(p + i, '<', n - i);
		k = q ? (size_t)(q - (p + i)) : n - i;
		rc = content(u, p + i, k);
		if (rc)
			return rc;
		i += k;
		if (q) {
			u->hold[0] = '<';
			u->nhold = 1;
			i++;
		}
	}
	if (!u->b64)
		return (long)i;
	rc = gx_uw_obuf_flush(u);
	return rc ? rc : (long)i;
}

static int hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

enum { JS_PLAIN, JS_ESC, JS_HEX, JS_CR };

/* Inside the linuxPerfData string: decode escapes until the closing quote. */
static long js_in(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	size_t i = 0;
	int rc = 0;

	while (i < n && !rc) {
		unsigned char c = p[i++];
		int h;

		switch (u->js_esc) {
		case JS_PLAIN:
			if (c == '\\') {
				u->js_esc = JS_ESC;
			} else if (c == '"') {
				u->hs = GX_H_SCRIPT;
				u->tag_m = 0;
				u->js_m = 0;
				rc = block_close(u);
				return rc ? rc : (long)i;
			} else {
				rc = obuf_put(u, c);
			}
			break;
		case JS_ESC:
			u->js_esc = JS_PLAIN;
			switch (c) {
			case 'n':
				rc = obuf_put(u, '\n');
				break;
			case 't':
				rc = obuf_put(u, '\t');
				break;
			case 'r':
				rc = obuf_put(u, '\r');
				break;
			case 'b':
				rc = obuf_put(u, '\b');
				break;
			case 'f':
				rc = obuf_put(u, '\f');
				break;
			case 'v':
				rc = obuf_put(u, '\v');
				break;
			case '0':
				rc = obuf_put(u, 0);
				break;
			case '\n': /* line continuation */
				break;
			case '\r':
				u->js_esc = JS_CR;
				break;
			case 'x':
			case 'u':
				u->js_esc = JS_HEX;
				u->js_digits = c == 'x' ? 2 : 4;
				u->js_val = 0;
				break;
			default: /* \\ \" \' \/ and anything else stand for themselves */
				rc = obuf_put(u, c);
				break;
			}
			break;
		case JS_HEX:
			h = hex_value(c);
			if (h < 0) {
				GX_UW_INC(u, js_bad_escape);
				u->js_esc = JS_PLAIN;
				i--;
				break;
			}
			u->js_val = u->js_val << 4 | (uint32_t)h;
			if (--u->js_digits == 0) {
				u->js_esc = JS_PLAIN;
				rc = gx_uw_put_utf8(u, u->js_val);
			}
			break;
		default: /* JS_CR: "\\\r" continues the line, "\\\r\n" too */
			u->js_esc = JS_PLAIN;
			if (c != '\n')
				i--;
			break;
		}
	}
	if (!rc)
		rc = gx_uw_obuf_flush(u);
	return rc ? rc : (long)i;
}

int gx_html_feed(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	size_t i = 0;
	const unsigned char *q;
	unsigned char c;
	long used;
	int rc;

	while (i < n) {
		switch (u->hs) {
		case GX_H_TEXT:
			q = memchr(p + i, '<', n - i);
			if (!q)
				return 0;
			i = (size_t)(q - p) + 1;
			u->hs = GX_H_TAG;
			u->ntag = 0;
			break;
		case GX_H_TAG:
			c = p[i++];
			if (c == '>') {
				rc = tag_done(u);
				if (rc)
					return rc;
				break;
			}
			if (u->ntag == sizeof(u->tag)) {
				GX_UW_INC(u, html_tag_too_long);
				u->hs = GX_H_SKIPTAG;
				break;
			}
			u->tag[u->ntag++] = (char)c;
			if (u->ntag == 3 && memcmp(u->tag, "!--", 3) == 0) {
				u->hs = GX_H_COMMENT;
				u->tag_m = 0;
			}
			break;
		case GX_H_SKIPTAG:
		case GX_H_ENDTAG:
			q = memchr(p + i, '>', n - i);
			if (!q)
				return 0;
			i = (size_t)(q - p) + 1;
			u->hs = GX_H_TEXT;
			break;
		case GX_H_COMMENT:
			c = p[i++];
			if (c == '-')
				u->tag_m = u->tag_m < 2 ? u->tag_m + 1 : 2;
			else if (c == '>' && u->tag_m == 2)
				u->hs = GX_H_TEXT;
			else
				u->tag_m = 0;
			break;
		case GX_H_SCRIPT:
			c = p[i++];
			if (lower(c) == (unsigned char)end_pat[u->tag_m]) {
				if (++u->tag_m == (int)END_LEN) {
					u->hs = GX_H_ENDTAG;
					break;
				}
			} else {
				u->tag_m = c == '<';
			}
			if (c == (unsigned char)js_pat[u->js_m]) {
				if (++u->js_m == (int)JS_LEN) {
					u->js_m = 0;
					u->hs = GX_H_JSNL;
				}
			} else {
				u->js_m = c == 'l';
			}
			break;
		case GX_H_JSNL:
			c = p[i++];
			if (c == '\r')
				break;
			if (c != '\n') {
				u->hs = GX_H_SCRIPT;
				u->tag_m = 0;
				break;
			}
			rc = block_open(u, GFXSTAT_FMT_SYSTRACE_JS);
			if (rc)
				return rc;
			u->hs = GX_H_JS;
			break;
		case GX_H_JS:
			used = js_in(u, p + i, n - i);
			if (used < 0)
				return (int)used;
			i += (size_t)used;
			break;
		case GX_H_BLOCK_NL:
			c = p[i];
			if (c == '\r') {
				i++;
				break;
			}
			if (c == '\n')
				i++;
			u->hs = GX_H_BLOCK;
			break;
		case GX_H_BLOCK:
			used = block_in(u, p + i, n - i);
			if (used < 0)
				return (int)used;
			i += (size_t)used;
			break;
		}
	}
	return 0;
}

int gx_html_end(struct gfxstat_unwrap *u)
{
	int rc = 0;

	if (u->hs == GX_H_BLOCK || u->hs == GX_H_BLOCK_NL || u->hs == GX_H_JS) {
		GX_UW_INC(u, truncated);
		if (u->nhold) {
			size_t k = u->nhold;

			u->nhold = 0;
			rc = content(u, (const unsigned char *)u->hold, k);
		}
		if (!rc)
			rc = ws_flush(u);
		if (!rc && u->b64)
			rc = b64_end(u);
		if (!rc)
			rc = block_close(u);
	}
	gx_html_start(u);
	return rc;
}
