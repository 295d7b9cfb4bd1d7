/* SPDX-License-Identifier: MIT */
/*
 * The unwrapper: a tree of levels, each of which sniffs its own input and then decodes one
 * container layer (gzip/zlib, UTF-16, atrace's "TRACE:", systrace HTML) into a child level,
 * or passes text (or raw protobuf) to the shared sink. Every buffer has a fixed size.
 */
#include <stdlib.h>
#include <string.h>

#include "container_local.h"

GX_COUNTER_TABLE(GFXSTAT_UNWRAP_STATS, enum gfxstat_unwrap_stat, GFXSTAT_UNWRAP_STAT_COUNT,
		 gfxstat_unwrap_stat_name, gfxstat_unwrap_stat_doc, gfxstat_unwrap_stat_severity)

/* ---------------------------------------------------------------------------------------- */
/* The sink                                                                                  */

static void record_layers(struct gfxstat_unwrap *u)
{
	struct gfxstat_unwrap *chain[GFXSTAT_UNWRAP_MAX_DEPTH + 2], *l;
	struct gx_uw_sink *s = u->sink;
	int n = 0, i;

	for (l = u; l && n < (int)(sizeof(chain) / sizeof(chain[0])); l = l->parent)
		chain[n++] = l;
	for (i = n - 1; i >= 0 && s->nlayers < GX_UW_MAX_LAYERS; i--) {
		l = chain[i];
		s->layers[s->nlayers++] = l->kind;
		if (l->mode == GX_UW_HTML && l->via != GFXSTAT_FMT_UNKNOWN &&
		    s->nlayers < GX_UW_MAX_LAYERS)
			s->layers[s->nlayers++] = l->via;
	}
}

/* Pass @n bytes on; a text stream that follows another starts on a new line. */
static int sink_emit(struct gfxstat_unwrap *u, const void *p, size_t n, int text)
{
	struct gx_uw_sink *s = u->sink;

	if (!n)
		return 0;
	if (!s->nlayers)
		record_layers(u);
	if (text && s->need_sep && s->last != -1 && s->last != '\n') {
		if (s->st)
			s->st->v[GFXSTAT_UNWRAP_STAT_out_bytes]++;
		s->last = '\n';
		if (s->out(s->user, "\n", 1))
			return GFXSTAT_E_ABORTED;
	}
	s->need_sep = 0;
	s->last = ((const unsigned char *)p)[n - 1];
	if (s->st)
		s->st->v[GFXSTAT_UNWRAP_STAT_out_bytes] += n;
	return s->out(s->user, p, n) ? GFXSTAT_E_ABORTED : 0;
}

static int emit_crs(struct gfxstat_unwrap *u, uint64_t k)
{
	static const char crs[16] = "\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r\r";
	int rc = 0;

	while (k && !rc) {
		size_t m = k < sizeof(crs) ? (size_t)k : sizeof(crs);

		rc = sink_emit(u, crs, m, 1);
		k -= m;
	}
	return rc;
}

/* @k line ends of a text whose lines end in CR only */
static int emit_lfs(struct gfxstat_unwrap *u, uint64_t k)
{
	static const char lfs[16] = "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n";
	int rc = 0;

	while (k && !rc) {
		size_t m = k < sizeof(lfs) ? (size_t)k : sizeof(lfs);

		rc = sink_emit(u, lfs, m, 1);
		k -= m;
	}
	return rc;
}

/*
 * Text: CRs right before a LF are dropped ("\r\n", "\r\r\n"); a lone CR is kept -- unless
 * the text's first line end was a lone CR: its lines end in CR only, and each CR is a LF.
 */
static int text_out(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	int rc;

	/* NUL bytes in the first GX_UW_HEAD bytes of a text, said when nothing is found in it
	 * (UTF-16 that could not be told); counted on the bytes, never on how they were cut */
	if (u->text_seen < GX_UW_HEAD) {
		size_t k = GX_UW_HEAD - u->text_seen < n ? GX_UW_HEAD - u->text_seen : n;

		if (!u->text_nul && memchr(p, 0, k)) {
			u->text_nul = 1;
			GX_UW_INC(u, text_nul);
		}
		u->text_seen += k;
	}
	while (n) {
		const unsigned char *cr;
		size_t k;

		if (u->text_cr) {
			if (*p == '\r') {
				u->text_cr++;
				p++;
				n--;
				continue;
			}
			if (*p != '\n' && !u->text_eol) {
				u->text_eol = '\r';
				GX_UW_INC(u, cr_line_ends);
			}
			if (*p != '\n') {
				rc = u->text_eol == '\r' ? emit_lfs(u, u->text_cr)
							: emit_crs(u, u->text_cr);
				if (rc)
					return rc;
			}
			u->text_eol = u->text_eol ? u->text_eol : '\n';
			u->text_cr = 0;
		}
		cr = memchr(p, '\r', n);
		k = cr ? (size_t)(cr - p) : n;
		if (!u->text_eol && memchr(p, '\n', k))
			u->text_eol = '\n';
		rc = sink_emit(u, p, k, 1);
		if (rc || !cr)
			return rc;
		u->text_cr = 1;
		p += k + 1;
		n -= k + 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* Levels                                                                                    */

static void level_reset(struct gfxstat_unwrap *u)
{
	if (u->z_init)
		inflateEnd(&u->z);
	u->z_init = 0;
	u->z_done = 0;
	u->z_any = 0;
	u->z_trailing = 0;
	u->mode = GX_UW_SNIFF;
	u->nhead = 0;
	u->text_cr = 0;
	u->text_eol = 0;
	u->text_seen = 0;
	u->text_nul = 0;
	u->plen = 0;
	u->cpend = 0;
	u->have_odd = 0;
	u->hi = 0;
	u->nobuf = 0;
	u->via = GFXSTAT_FMT_UNKNOWN;
	u->ended = 1;
	gx_zip_reset(u);
}

static struct gfxstat_unwrap *level_new(void)
{
	struct gfxstat_unwrap *u = calloc(1, sizeof(*u));

	if (u)
		level_reset(u);
	return u;
}

struct gfxstat_unwrap *gx_uw_child(struct gfxstat_unwrap *u, int block)
{
	struct gfxstat_unwrap *c = u->child;

	if (!c) {
		c = level_new();
		if (!c)
			return NULL;
		c->sink = u->sink;
		c->parent = u;
		c->depth = u->depth + 1;
		u->child = c;
	}
	c->block = block;
	c->collapse = 0;
	c->skip_nl = 0;
	return c;
}

static int inflate_start(struct gfxstat_unwrap *u, int gzip)
{
	if (!u->zout) {
		u->zout = malloc(GX_UW_ZOUT);
		if (!u->zout)
			return GFXSTAT_E_NOMEM;
	}
	memset(&u->z, 0, sizeof(u->z));
	if (inflateInit2(&u->z, gzip ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
		return GFXSTAT_E_NOMEM;
	u->z_init = 1;
	u->z_gzip = gzip;
	u->z_done = 0;
	return 0;
}

/* 1: a PROCESS DUMP block (read for names), 2: a CGROUP DUMP block (skipped), else 0. */
static int is_dump_block(const unsigned char *h, size_t n)
{
	while (n && (*h == '\n' || *h == '\r' || *h == ' ' || *h == '\t')) {
		h++;
		n--;
	}
	if (n >= 12 && memcmp(h, "PROCESS DUMP", 12) == 0)
		return 1;
	return n >= 11 && memcmp(h, "CGROUP DUMP", 11) == 0 ? 2 : 0;
}

/*
 * The shortest prefix of the head that tells what the stream is, or 0 while it cannot be
 * told yet. Detection looks at exactly that prefix, so the verdict does not depend on how
 * the input was cut into chunks.
 */
static size_t head_ready(const unsigned char *h, size_t n)
{
	size_t i = 0, nl = 0;

	if (n < 2) /* a 0 byte second would make it UTF-16 */
		return 0;
	{
		enum gfxstat_format f = gfxstat_detect(h, 2);

		if (f == GFXSTAT_FMT_GZIP || f == GFXSTAT_FMT_ZLIB || f == GFXSTAT_FMT_UTF16LE ||
		    f == GFXSTAT_FMT_UTF16BE)
			return 2;
		/* a 0 byte at once: UTF-16 without a byte-order mark, told on 64 bytes */
		if (!h[0] || !h[1])
			return n >= 64 ? 64 : 0;
	}
	if (n >= 3 && h[0] == 0xef && h[1] == 0xbb && h[2] == 0xbf)
		i = 3;
	while (i < n && (h[i] == ' ' || h[i] == '\t' || h[i] == '\r' || h[i] == '\n'))
		i++;
	if (i < n && (h[i] == '{' || h[i] == '[' || h[i] == '#'))
		return i + 1;
	if (i < n && h[i] == '<')
		return i + 9 <= n ? i + 9 : 0; /* enough to tell an HTML tag from "<...>-1234" */
	for (; i < n; i++)
		if (h[i] == '\n' && ++nl == 8)
			return i + 1;
	return n >= GX_UW_HEAD ? GX_UW_HEAD : 0;
}

static void decide(struct gfxstat_unwrap *u, size_t ready)
{
	enum gfxstat_format f = gfxstat_detect(u->head, ready ? ready : u->nhead);
	int container = f == GFXSTAT_FMT_GZIP || f == GFXSTAT_FMT_ZLIB ||
			f == GFXSTAT_FMT_UTF16LE || f == GFXSTAT_FMT_UTF16BE ||
			f == GFXSTAT_FMT_ATRACE || f == GFXSTAT_FMT_ATRACE_Z ||
			f == GFXSTAT_FMT_SYSTRACE_HTML;

	u->kind = f;
	if (container && u->depth >= GFXSTAT_UNWRAP_MAX_DEPTH) {
		GX_UW_INC(u, nesting_too_deep);
		u->mode = GX_UW_SKIP;
		return;
	}
	switch (f) {
	case GFXSTAT_FMT_GZIP:
	case GFXSTAT_FMT_ZLIB:
		u->mode = inflate_start(u, f == GFXSTAT_FMT_GZIP) ? GX_UW_SKIP : GX_UW_INFLATE;
		return;
	case GFXSTAT_FMT_UTF16LE:
	case GFXSTAT_FMT_UTF16BE:
		u->mode = GX_UW_UTF16;
		u->be = f == GFXSTAT_FMT_UTF16BE;
		if (u->head[0] == 0 || u->head[1] == 0) {
			GX_UW_INC(u, utf16_no_bom);
			return;
		}
		memmove(u->head, u->head + 2, u->nhead - 2); /* the BOM */
		u->nhead -= 2;
		return;
	case GFXSTAT_FMT_ZIP:
		if (u->block) {
			GX_UW_INC(u, html_other_blocks);
			u->mode = GX_UW_SKIP;
		} else {
			gx_zip_start(u);
		}
		return;
	case GFXSTAT_FMT_ATRACE:
	case GFXSTAT_FMT_ATRACE_Z:
		u->mode = GX_UW_PRELUDE;
		return;
	default:
		break;
	}
	if (u->nhead >= 3 && u->head[0] == 0xef && u->head[1] == 0xbb && u->head[2] == 0xbf) {
		memmove(u->head, u->head + 3, u->nhead - 3);
		u->nhead -= 3;
	}
	if (f == GFXSTAT_FMT_SYSTRACE_HTML && !u->block) {
		u->mode = GX_UW_HTML;
		gx_html_start(u);
		return;
	}
	if (!u->block) {
		u->mode = f == GFXSTAT_FMT_PERFETTO || f == GFXSTAT_FMT_UNKNOWN ? GX_UW_RAW
										 : GX_UW_TEXT;
		return;
	}
	/* inside an HTML block: ftrace text only */
	u->mode = GX_UW_SKIP;
	if (f == GFXSTAT_FMT_FTRACE_TEXT) {
		GX_UW_INC(u, html_text_blocks);
		u->mode = GX_UW_TEXT;
	} else if (f == GFXSTAT_FMT_JSON) {
		GX_UW_INC(u, html_json_blocks);
	} else if (is_dump_block(u->head, u->nhead)) {
		GX_UW_INC(u, html_dump_blocks);
		if (is_dump_block(u->head, u->nhead) == 1) {
			u->mode = GX_UW_DUMP;
			gx_dump_start(u);
		}
	} else if (u->nhead) {
		GX_UW_INC(u, html_other_blocks);
	}
}

/* ---------------------------------------------------------------------------------------- */
/* Layers                                                                                    */

static int prelude_in(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	while (n) {
		const unsigned char *nl = memchr(p, '\n', n);
		size_t seg = nl ? (size_t)(nl - p) : n, k;
		struct gfxstat_unwrap *c;

		if (u->plen < sizeof(u->pline)) {
			k = sizeof(u->pline) - u->plen;
			memcpy(u->pline + u->plen, p, seg < k ? seg : k);
		}
		u->plen += seg;
		if (!nl)
			return 0;
		p += seg + 1;
		n -= seg + 1;
		if (u->plen >= 6 && u->plen <= 8 && memcmp(u->pline, "TRACE:", 6) == 0 &&
		    (u->plen < 7 || u->pline[6] == '\r') && (u->plen < 8 || u->pline[7] == '\r')) {
			c = gx_uw_child(u, u->block);
			if (!c)
				return GFXSTAT_E_NOMEM;
			/* a "TRACE:\r\n" line: the pty rewrote every '\n' after it too */
			c->collapse = (int)(u->plen - 6);
			c->skip_nl = 1;
			u->mode = GX_UW_CHILD;
			return gx_uw_input(c, p, n);
		}
		GX_UW_INC(u, prelude_lines);
		u->plen = 0;
	}
	return 0;
}

static int inflate_in(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	struct gfxstat_unwrap *c = gx_uw_child(u, u->block);
	int rc, zr;

	if (!c)
		return GFXSTAT_E_NOMEM;
	while (n && u->mode == GX_UW_INFLATE) {
		if (u->z_done) {
			if (u->z_trailing) {
				GX_UW_ADD(u, trailing_garbage, n);
				return 0;
			}
			while (n && (*p == 0 || *p == '\n' || *p == '\r' || *p == ' '))
				p++, n--;
			if (!n)
				return 0;
			if (u->z_gzip && *p == 0x1f) {
				inflateReset(&u->z);
				u->z_done = 0;
				GX_UW_INC(u, multi_members);
				continue;
			}
			u->z_trailing = 1;
			continue;
		}
		u->z.next_in = (unsigned char *)(uintptr_t)p;
		u->z.avail_in = n > 1u << 30 ? 1u << 30 : (unsigned)n;
		do {
			size_t got;

			u->z.next_out = u->zout;
			u->z.avail_out = GX_UW_ZOUT;
			zr = inflate(&u->z, Z_NO_FLUSH);
			got = GX_UW_ZOUT - u->z.avail_out;
			if (got) {
				u->z_any = 1;
				rc = gx_uw_input(c, u->zout, got);
				if (rc)
					return rc;
			}
			if (zr == Z_STREAM_END) {
				u->z_done = 1;
				break;
			}
			if (zr == Z_BUF_ERROR)
				break;
			if (zr != Z_OK) {
				GX_UW_INC(u, corrupt);
				u->mode = GX_UW_SKIP;
				return 0;
			}
		} while (u->z.avail_in || !u->z.avail_out);
		n -= (size_t)(u->z.next_in - p);
		p = u->z.next_in;
	}
	return 0;
}

static int obuf_to_child(struct gfxstat_unwrap *u)
{
	size_t n = u->nobuf;

	u->nobuf = 0;
	return n ? gx_uw_input(u->child, u->obuf, n) : 0;
}

static int put_utf8(struct gfxstat_unwrap *u, uint32_t cp)
{
	unsigned char *o;

	if (u->nobuf + 4 > sizeof(u->obuf)) {
		int rc = obuf_to_child(u);

		if (rc)
			return rc;
	}
	o = u->obuf + u->nobuf;
	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		u->nobuf += 1;
	} else if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		u->nobuf += 2;
	} else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		u->nobuf += 3;
	} else {
		o[0] = (unsigned char)(0xf0 | cp >> 18);
		o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[3] = (unsigned char)(0x80 | (cp & 0x3f));
		u->nobuf += 4;
	}
	return 0;
}

int gx_uw_obuf_flush(struct gfxstat_unwrap *u)
{
	return obuf_to_child(u);
}

int gx_uw_put_utf8(struct gfxstat_unwrap *u, uint32_t cp)
{
	return put_utf8(u, cp);
}

static int utf16_in(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	int rc = 0;
	size_t i;

	if (!gx_uw_child(u, u->block))
		return GFXSTAT_E_NOMEM;
	for (i = 0; i < n && !rc; i++) {
		uint32_t unit;

		if (!u->have_odd) {
			u->odd = p[i];
			u->have_odd = 1;
			continue;
		}
		u->have_odd = 0;
		unit = u->be ? (uint32_t)u->odd << 8 | p[i] : (uint32_t)p[i] << 8 | u->odd;
		if (u->hi) {
			uint32_t hi = u->hi;

			u->hi = 0;
			if (unit >= 0xdc00 && unit <= 0xdfff) {
				rc = put_utf8(u, 0x10000 + ((hi - 0xd800) << 10) + (unit - 0xdc00));
				continue;
			}
			GX_UW_INC(u, utf16_bad);
			rc = put_utf8(u, 0xfffd);
			if (rc)
				break;
		}
		if (unit >= 0xd800 && unit <= 0xdbff) {
			u->hi = unit;
		} else if (unit >= 0xdc00 && unit <= 0xdfff) {
			GX_UW_INC(u, utf16_bad);
			rc = put_utf8(u, 0xfffd);
		} else {
			rc = put_utf8(u, unit);
		}
	}
	return rc ? rc : obuf_to_child(u);
}

static int run(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	if (!n)
		return 0;
	switch (u->mode) {
	case GX_UW_TEXT:
		return text_out(u, p, n);
	case GX_UW_RAW:
		return sink_emit(u, p, n, 0);
	case GX_UW_PRELUDE:
		return prelude_in(u, p, n);
	case GX_UW_CHILD:
		return gx_uw_input(u->child, p, n);
	case GX_UW_INFLATE:
		return inflate_in(u, p, n);
	case GX_UW_UTF16:
		return utf16_in(u, p, n);
	case GX_UW_HTML:
		return gx_html_feed(u, p, n);
	case GX_UW_DUMP:
		return gx_dump_feed(u, p, n);
	case GX_UW_ZIP:
		return gx_zip_feed(u, p, n);
	default:
		return 0;
	}
}

static int dispatch(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	size_t take, ready;
	int rc;

	u->ended = 0;
	if (u->mode != GX_UW_SNIFF)
		return run(u, p, n);
	if (u->skip_nl && !u->nhead)
		while (n && (*p == '\n' || *p == '\r'))
			p++, n--;
	take = GX_UW_HEAD - u->nhead;
	if (take > n)
		take = n;
	memcpy(u->head + u->nhead, p, take);
	u->nhead += take;
	ready = head_ready(u->head, u->nhead);
	if (!ready)
		return 0;
	decide(u, ready);
	rc = run(u, u->head, u->nhead);
	u->nhead = 0;
	if (rc)
		return rc;
	return run(u, p + take, n - take);
}

/* Undo a pty's "\n" -> "\r\n" (collapse 1) or "\r\r\n" (collapse 2), then dispatch. */
static int collapse_in(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	unsigned char buf[4096];
	size_t m = 0, i;
	unsigned k = (unsigned)u->collapse;
	int rc;

	for (i = 0; i < n; i++) {
		unsigned char c = p[i];

		if (m + k + 2 > sizeof(buf)) {
			rc = dispatch(u, buf, m);
			if (rc)
				return rc;
			m = 0;
		}
		if (c == '\r') {
			if (u->cpend == k)
				buf[m++] = '\r';
			else
				u->cpend++;
			continue;
		}
		if (c == '\n' && u->cpend == k)
			GX_UW_INC(u, crlf_collapsed);
		else
			for (; u->cpend; u->cpend--)
				buf[m++] = '\r';
		u->cpend = 0;
		buf[m++] = c;
	}
	return dispatch(u, buf, m);
}

int gx_uw_input(struct gfxstat_unwrap *u, const void *buf, size_t n)
{
	if (!n)
		return 0;
	if (u->collapse)
		return collapse_in(u, buf, n);
	return dispatch(u, buf, n);
}

/* End of this level's stream: flush, count what was cut, end the child; then reset. */
int gx_uw_end(struct gfxstat_unwrap *u)
{
	int rc = 0, rc2;

	if (u->ended && u->mode == GX_UW_SNIFF && !u->nhead && !u->cpend)
		return 0;
	if (u->collapse && u->cpend) {
		static const unsigned char crs[2] = { '\r', '\r' };
		unsigned k = u->cpend;

		u->cpend = 0;
		rc = dispatch(u, crs, k);
	}
	if (!rc && u->mode == GX_UW_SNIFF && u->nhead) {
		decide(u, 0);
		rc = run(u, u->head, u->nhead);
		u->nhead = 0;
	}
	switch (u->mode) {
	case GX_UW_TEXT:
		if (!rc && u->text_cr)
			rc = u->text_eol == '\r' ? emit_lfs(u, u->text_cr) : emit_crs(u, u->text_cr);
		u->sink->need_sep = 1;
		break;
	case GX_UW_INFLATE:
		if (!u->z_done)
			GX_UW_INC(u, truncated);
		/* fall through */
	case GX_UW_CHILD:
		rc2 = u->child ? gx_uw_end(u->child) : 0;
		rc = rc ? rc : rc2;
		break;
	case GX_UW_UTF16:
		if (u->have_odd || u->hi) {
			GX_UW_INC(u, utf16_bad);
			if (!rc)
				rc = put_utf8(u, 0xfffd);
		}
		if (!rc)
			rc = obuf_to_child(u);
		rc2 = u->child ? gx_uw_end(u->child) : 0;
		rc = rc ? rc : rc2;
		break;
	case GX_UW_HTML:
		rc2 = gx_html_end(u);
		rc = rc ? rc : rc2;
		break;
	case GX_UW_DUMP:
		rc2 = gx_dump_end(u);
		rc = rc ? rc : rc2;
		break;
	case GX_UW_ZIP:
		rc2 = rc ? 0 : gx_zip_end(u);
		rc = rc ? rc : rc2;
		break;
	default:
		if (u->mode == GX_UW_SKIP && u->child)
			gx_uw_end(u->child);
		break;
	}
	level_reset(u);
	return rc;
}

/* ---------------------------------------------------------------------------------------- */
/* Public API                                                                                */

struct gfxstat_unwrap *gfxstat_unwrap_new(gfxstat_bytes_fn out, void *user,
					  struct gfxstat_unwrap_stats *stats)
{
	struct gfxstat_unwrap *u;

	if (!out)
		return NULL;
	u = level_new();
	if (!u)
		return NULL;
	u->sink = &u->own_sink;
	u->own_sink.out = out;
	u->own_sink.user = user;
	u->own_sink.st = stats;
	u->own_sink.last = -1;
	return u;
}

void gfxstat_unwrap_free(struct gfxstat_unwrap *u)
{
	while (u) {
		struct gfxstat_unwrap *c = u->child;

		if (u->z_init)
			inflateEnd(&u->z);
		free(u->zout);
		free(u->dpids);
		free(u->zbuf);
		free(u->zpath);
		free(u);
		u = c;
	}
}

int gfxstat_unwrap_feed(struct gfxstat_unwrap *u, const void *buf, size_t n)
{
	if (!u || (!buf && n))
		return GFXSTAT_E_INVAL;
	if (u->sink->st)
		u->sink->st->v[GFXSTAT_UNWRAP_STAT_in_bytes] += n;
	if (u->ended && !u->nhead) {
		u->kind = GFXSTAT_FMT_UNKNOWN; /* a new stream */
		u->sink->nlayers = 0;
	}
	return gx_uw_input(u, buf, n);
}

int gfxstat_unwrap_finish(struct gfxstat_unwrap *u)
{
	int rc;

	if (!u)
		return GFXSTAT_E_INVAL;
	rc = gx_uw_end(u);
	gfxstat_unwrap_set_path(u, NULL); /* it named this stream only */
	return rc;
}

void gfxstat_unwrap_set_task_fn(struct gfxstat_unwrap *u, gfxstat_task_fn fn, void *user)
{
	if (!u)
		return;
	u->sink->task = fn;
	u->sink->task_user = user;
}

enum gfxstat_format gfxstat_unwrap_kind(const struct gfxstat_unwrap *u)
{
	return u ? u->kind : GFXSTAT_FMT_UNKNOWN;
}

int gfxstat_unwrap_layers(const struct gfxstat_unwrap *u, enum gfxstat_format *out, int max)
{
	const struct gx_uw_sink *s;
	int i, n = 0;

	if (!u)
		return 0;
	s = u->sink;
	if (s->nlayers) {
		for (i = 0; i < s->nlayers; i++, n++)
			if (n < max)
				out[n] = s->layers[i];
		return n;
	}
	for (; u && u->kind != GFXSTAT_FMT_UNKNOWN; u = u->child, n++)
		if (n < max)
			out[n] = u->kind;
	return n;
}
