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
#include <stdlib.h>
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

/* ---------------------------------------------------------------------------------------- */
/*
 * PROCESS DUMP blocks: two snapshots of ps written by systrace's android_process_data agent
 * (catapult systrace/systrace/tracing_agents/android_process_data_agent.py), each a process
 * table then a thread table, every table opened by a "USER ..." header. Read as catapult's
 * importer does (tracing/tracing/extras/importer/android/process_data_importer.html): each
 * header toggles between a process and a thread table, and an 8-column process header means
 * the legacy toolbox form.
 */

#define DUMP_FIELDS 12

struct dump_line {
	struct gfxstat_str f[DUMP_FIELDS];
	int nf;         /* fields found, at most DUMP_FIELDS (further ones are not split) */
	const char *end;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void dump_split(const char *s, size_t n, struct dump_line *l)
{
	const char *e = s + n;

	while (e > s && is_space(e[-1]))
		e--;
	l->end = e;
	l->nf = 0;
	while (s < e && l->nf < DUMP_FIELDS) {
		const char *b;

		while (s < e && is_space(*s))
			s++;
		if (s == e)
			break;
		b = s;
		while (s < e && !is_space(*s))
			s++;
		l->f[l->nf].p = b;
		l->f[l->nf].n = (size_t)(s - b);
		l->nf++;
	}
}

/* A pid or tid: 1 to 9 digits, above 0. */
static int dump_id(struct gfxstat_str f, int32_t *out)
{
	int32_t v = 0;
	size_t i;

	if (!f.n || f.n > 9)
		return -1;
	for (i = 0; i < f.n; i++) {
		if (f.p[i] < '0' || f.p[i] > '9')
			return -1;
		v = v * 10 + (f.p[i] - '0');
	}
	*out = v;
	return v > 0 ? 0 : -1;
}

/* From field @i to the end of the line: a thread name, which may hold spaces. */
static struct gfxstat_str dump_rest(const struct dump_line *l, int i)
{
	struct gfxstat_str r = { l->f[i].p, (size_t)(l->end - l->f[i].p) };

	return r;
}

/*
 * The NAME column of a process row. A kernel thread's "[irq/93-KRYO L3-]" holds a space:
 * take fields up to the one that closes the bracket; otherwise one field, as catapult does.
 */
static struct gfxstat_str dump_name(const struct dump_line *l, int i)
{
	struct gfxstat_str r = l->f[i];
	int j;

	if (r.n && r.p[0] == '[' && r.p[r.n - 1] != ']')
		for (j = i + 1; j < l->nf; j++)
			if (l->f[j].p[l->f[j].n - 1] == ']') {
				r.n = (size_t)(l->f[j].p + l->f[j].n - r.p);
				break;
			}
	return r;
}

static size_t dump_slot(int32_t pid)
{
	return ((uint32_t)pid * 2654435761u) & (GX_UW_DPIDS - 1);
}

static int dump_pid_add(struct gfxstat_unwrap *u, int32_t pid)
{
	size_t i;

	if (!u->dpids) {
		u->dpids = calloc(GX_UW_DPIDS, sizeof(*u->dpids));
		if (!u->dpids)
			return GFXSTAT_E_NOMEM;
	}
	if (u->ndpids >= GX_UW_DPIDS / 2)
		return 0; /* full enough: further processes are not remembered */
	for (i = dump_slot(pid); u->dpids[i] && u->dpids[i] != pid; i = (i + 1) & (GX_UW_DPIDS - 1))
		;
	if (!u->dpids[i]) {
		u->dpids[i] = pid;
		u->ndpids++;
	}
	return 0;
}

static int dump_pid_has(const struct gfxstat_unwrap *u, int32_t pid)
{
	size_t i;

	if (!u->dpids)
		return 0;
	for (i = dump_slot(pid); u->dpids[i]; i = (i + 1) & (GX_UW_DPIDS - 1))
		if (u->dpids[i] == pid)
			return 1;
	return 0;
}

static int dump_emit(struct gfxstat_unwrap *u, int32_t pid, int32_t tid, struct gfxstat_str name)
{
	struct gx_uw_sink *s = u->sink;

	if (tid)
		GX_UW_INC(u, dump_threads);
	else
		GX_UW_INC(u, dump_processes);
	if (s->task && s->task(s->task_user, pid, tid, name))
		return GFXSTAT_E_ABORTED;
	return 0;
}

static int dump_line(struct gfxstat_unwrap *u, const char *s, size_t n)
{
	struct dump_line l;
	int32_t pid, tid;
	int rc;

	dump_split(s, n, &l);
	if (!l.nf)
		return 0;
	if (l.f[0].n >= 4 && memcmp(l.f[0].p, "USER", 4) == 0) {
		/* "USER PID TID CMD" names itself; otherwise catapult's toggle */
		if (l.nf >= 3 && l.f[2].n == 3 && memcmp(l.f[2].p, "TID", 3) == 0)
			u->dtable = GX_D_THREAD;
		else if (u->dtable == GX_D_LEGACY_PROC)
			u->dtable = GX_D_LEGACY_THREAD;
		else if (u->dtable == GX_D_PROC)
			u->dtable = GX_D_THREAD;
		else
			u->dtable = l.nf == 8 ? GX_D_LEGACY_PROC : GX_D_PROC;
		if (u->dtable == GX_D_LEGACY_PROC && u->dpids) {
			memset(u->dpids, 0, GX_UW_DPIDS * sizeof(*u->dpids)); /* a new snapshot */
			u->ndpids = 0;
		}
		return 0;
	}
	switch (u->dtable) {
	case GX_D_PROC:
		/* USER PID PPID VSZ RSS WCHAN PC S NAME COMM */
		if (l.nf < 10 || dump_id(l.f[1], &pid))
			break;
		return dump_emit(u, pid, 0, dump_name(&l, 8));
	case GX_D_THREAD:
		/* USER PID TID CMD */
		if (l.nf < 4 || dump_id(l.f[1], &pid) || dump_id(l.f[2], &tid))
			break;
		return dump_emit(u, pid, tid, dump_rest(&l, 3));
	case GX_D_LEGACY_PROC:
		/* USER PID PPID VSIZE RSS WCHAN PC S NAME (the state has no header) */
		if (l.nf < 9 || dump_id(l.f[1], &pid))
			break;
		rc = dump_pid_add(u, pid);
		return rc ? rc : dump_emit(u, pid, 0, dump_rest(&l, 8));
	case GX_D_LEGACY_THREAD:
		/* the same columns; PID is the tid, PPID its process unless PID is a process */
		if (l.nf < 9 || dump_id(l.f[1], &tid))
			break;
		if (dump_pid_has(u, tid))
			pid = tid;
		else if (dump_id(l.f[2], &pid) || !dump_pid_has(u, pid))
			return 0; /* catapult drops threads of processes it did not list */
		return dump_emit(u, pid, tid, dump_rest(&l, 8));
	default:
		return 0; /* the "PROCESS DUMP" line, or text before a header */
	}
	GX_UW_INC(u, dump_bad_lines);
	return 0;
}

void gx_dump_start(struct gfxstat_unwrap *u)
{
	u->ndline = 0;
	u->dlong = 0;
	u->dtable = GX_D_NONE;
	u->ndpids = 0;
	if (u->dpids)
		memset(u->dpids, 0, GX_UW_DPIDS * sizeof(*u->dpids));
}

int gx_dump_feed(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	while (n) {
		const unsigned char *nl = memchr(p, '\n', n);
		size_t seg = nl ? (size_t)(nl - p) : n;
		int rc;

		if (!u->dlong && u->ndline + seg <= sizeof(u->dline)) {
			memcpy(u->dline + u->ndline, p, seg);
			u->ndline += seg;
		} else if (!u->dlong) {
			GX_UW_INC(u, dump_bad_lines);
			u->dlong = 1;
		}
		if (!nl)
			return 0;
		p += seg + 1;
		n -= seg + 1;
		rc = u->dlong ? 0 : dump_line(u, u->dline, u->ndline);
		u->ndline = 0;
		u->dlong = 0;
		if (rc)
			return rc;
	}
	return 0;
}

/* The block ended: its last line may lack a '\n'. */
int gx_dump_end(struct gfxstat_unwrap *u)
{
	int rc = 0;

	if (u->ndline && !u->dlong)
		rc = dump_line(u, u->dline, u->ndline);
	gx_dump_start(u);
	return rc;
}
