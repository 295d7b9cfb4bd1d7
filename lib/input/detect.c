/* SPDX-License-Identifier: MIT */
/* Format sniffing from the first bytes of a stream: a pure function, no state. */
#include <string.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_container.h"

#define FMT_NAME__(id, name, doc) name,
#define FMT_DOC__(id, name, doc) doc,
static const char *const fmt_names[] = { GFXSTAT_FORMATS(FMT_NAME__) };
static const char *const fmt_docs[] = { GFXSTAT_FORMATS(FMT_DOC__) };
#undef FMT_NAME__
#undef FMT_DOC__

const char *gfxstat_format_name(enum gfxstat_format f)
{
	if ((unsigned)f >= GFXSTAT_FMT_COUNT)
		f = GFXSTAT_FMT_UNKNOWN;
	return fmt_names[f];
}

const char *gfxstat_format_doc(enum gfxstat_format f)
{
	if ((unsigned)f >= GFXSTAT_FMT_COUNT)
		f = GFXSTAT_FMT_UNKNOWN;
	return fmt_docs[f];
}

/* How many lines of the head are looked at. */
#define DETECT_LINES 16

static int starts(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && memcmp(s, lit, k) == 0;
}

static int starts_ci(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit), i;

	if (n < k)
		return 0;
	for (i = 0; i < k; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != lit[i])
			return 0;
	}
	return 1;
}

static int html_start(const char *s, size_t n)
{
	static const char *const tags[] = {
		"<!doctype", "<html", "<head", "<body", "<script", "<!--", "<meta", "<?xml",
	};
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (starts_ci(s, n, tags[i]))
			return 1;
	return 0;
}

/*
 * A Perfetto trace is a sequence of "0a <varint length> <TracePacket>" records. A packet may be
 * empty ("0a 00"): Perfetto's own writers begin traces with them, and trace_processor takes any
 * input whose first byte is 0x0a as a proto trace (perfetto src/trace_processor/util/
 * trace_type.cc, GuessTraceType). Text never holds a NUL byte, so leading empty packets are
 * skipped and the first non-empty one is checked; a head of empty packets only is a trace.
 */
static int looks_perfetto(const unsigned char *s, size_t n)
{
	size_t i, p, lim = n < 64 ? n : 64, e = 0;
	uint64_t len = 0;
	unsigned shift = 0, wt;
	int binary = 0;

	while (e + 1 < n && s[e] == 0x0a && s[e + 1] == 0x00)
		e += 2;
	if (e && n - e < 2)
		return 1;
	if (e) {
		s += e;
		n -= e;
		lim = n < 64 ? n : 64;
		binary = 1; /* the NUL of an empty packet */
	}
	if (n < (e ? 2u : 4u) || s[0] != 0x0a)
		return 0;
	for (p = 1; p < n && p < 11; p++) {
		len |= (uint64_t)(s[p] & 0x7f) << shift;
		shift += 7;
		if (!(s[p] & 0x80))
			break;
	}
	if (p >= n || p >= 11 || len == 0)
		return 0;
	p++;
	if (p < n) {
		wt = s[p] & 7;
		if (s[p] >> 3 == 0 || (wt != 0 && wt != 1 && wt != 2 && wt != 5))
			return 0;
	}
	/* text never holds control bytes other than tab, newline, CR, form feed */
	for (i = 0; i < lim; i++)
		if (s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' && s[i] != '\f')
			binary = 1;
	return binary;
}

/* a byte of text as the low byte of a UTF-16 unit: tab, CR, LF, or printable Latin-1 */
static int text_unit(unsigned char c)
{
	return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
}

/*
 * UTF-16 without a byte-order mark (a Windows redirect of adb's output, an editor's save):
 * in the first 64 bytes (8 at least), no unit is 0 and three in four are text with a 0 high
 * byte (a trace is mostly ASCII). Return GFXSTAT_FMT_UTF16LE (the 0 byte second),
 * GFXSTAT_FMT_UTF16BE (first) or GFXSTAT_FMT_UNKNOWN.
 */
static enum gfxstat_format utf16_no_bom(const unsigned char *s, size_t n)
{
	size_t i, m = (n < 64 ? n : 64) & ~(size_t)1, le = 0, be = 0;

	if (m < 8)
		return GFXSTAT_FMT_UNKNOWN;
	for (i = 0; i < m; i += 2) {
		unsigned char a = s[i], b = s[i + 1];

		if (!a && !b)
			return GFXSTAT_FMT_UNKNOWN;
		le += !b && text_unit(a);
		be += !a && text_unit(b);
	}
	return le * 4 >= m / 2 * 3 ? GFXSTAT_FMT_UTF16LE
	       : be * 4 >= m / 2 * 3 ? GFXSTAT_FMT_UTF16BE : GFXSTAT_FMT_UNKNOWN;
}

/*
 * The line end of [s, end): LF (CRs right before it are dropped as the reader drops them),
 * or CR when the first line end is a lone CR (classic Mac OS, some serial consoles).
 */
static char line_end(const char *s, const char *end)
{
	while (s < end && *s != '\r' && *s != '\n')
		s++;
	if (s == end || *s == '\n')
		return '\n';
	while (s < end && *s == '\r')
		s++;
	return s < end && *s != '\n' ? '\r' : '\n';
}

/* Is [s, s+n) a decimal integer, possibly negative, with nothing else but spaces/tabs? */
static int int_fields(const char *s, size_t n)
{
	size_t i = 0;
	int fields = 0;

	for (;;) {
		size_t d = 0;

		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			return fields;
		if (s[i] == '-')
			i++;
		while (i < n && gx_isdigit(s[i])) {
			i++;
			d++;
		}
		if (!d || (i < n && s[i] != ' ' && s[i] != '\t'))
			return -1;
		fields++;
	}
}

/* A --list line: a layer name ending in "#<id>", or the Android 15 debug wrapper. */
static int list_line(const char *s, size_t n)
{
	size_t i = n;

	if (starts(s, n, "RequestedLayerState{"))
		return 1;
	while (i && gx_isdigit(s[i - 1]))
		i--;
	return i < n && i > 1 && s[i - 1] == '#';
}

static int gfxinfo_line(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	return starts(s, n, "Applications Graphics Acceleration Info:") ||
	       starts(s, n, "** Graphics info for pid") || starts(s, n, "Stats since:") ||
	       starts(s, n, "Total frames rendered:") || starts(s, n, "---PROFILEDATA---") ||
	       starts(s, n, "Profile data in ms:") || starts(s, n, "Graphics info for pid");
}

enum gfxstat_format gfxstat_detect(const void *head, size_t n)
{
	const unsigned char *u = head;
	const char *s = head, *end, *line;
	struct gfxstat_ftrace_line fl;
	int lines = 0, list = 0, ints1 = 0, other = 0, first = 1;
	enum gfxstat_format f16;
	char eol;

	if (!n)
		return GFXSTAT_FMT_UNKNOWN;
	if (n >= 2 && u[0] == 0x1f && u[1] == 0x8b)
		return GFXSTAT_FMT_GZIP;
	if (n >= 2 && u[0] == 0xff && u[1] == 0xfe)
		return GFXSTAT_FMT_UTF16LE;
	if (n >= 2 && u[0] == 0xfe && u[1] == 0xff)
		return GFXSTAT_FMT_UTF16BE;
	if (n >= 4 && memcmp(u, "PK\3\4", 4) == 0)
		return GFXSTAT_FMT_ZIP;
	if (n >= 2 && u[0] == 0x78 && (u[0] * 256 + u[1]) % 31 == 0 &&
	    (u[1] == 0x01 || u[1] == 0x5e || u[1] == 0x9c || u[1] == 0xda))
		return GFXSTAT_FMT_ZLIB;
	if (looks_perfetto(u, n))
		return GFXSTAT_FMT_PERFETTO;
	f16 = utf16_no_bom(u, n);
	if (f16 != GFXSTAT_FMT_UNKNOWN)
		return f16;

	end = s + n;
	if (n >= 3 && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
		s += 3;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	if (s == end)
		return GFXSTAT_FMT_TEXT;
	if (html_start(s, (size_t)(end - s)))
		return GFXSTAT_FMT_SYSTRACE_HTML;
	if (*s == '{' || *s == '[')
		return GFXSTAT_FMT_JSON;
	eol = line_end(s, end);

	/* "TRACE:" anywhere in the first lines: atrace's own output */
	for (line = s; line < end && lines < DETECT_LINES; lines++) {
		const char *nl = memchr(line, eol, (size_t)(end - line));
		const char *le = nl ? nl : end;
		size_t k = (size_t)(le - line);

		while (k && line[k - 1] == '\r')
			k--;
		if (k == 6 && memcmp(line, "TRACE:", 6) == 0) {
			const char *q = le;

			while (q < end && (*q == '\r' || *q == '\n'))
				q++;
			if (q < end && (unsigned char)*q == 0x78)
				return GFXSTAT_FMT_ATRACE_Z;
			return GFXSTAT_FMT_ATRACE;
		}
		if (!nl)
			break;
		line = nl + 1;
	}

	lines = 0;
	for (line = s; line < end && lines < DETECT_LINES;) {
		const char *nl = memchr(line, eol, (size_t)(end - line));
		const char *le = nl ? nl : end;
		size_t k = (size_t)(le - line);
		int f;

		while (k && line[k - 1] == '\r')
			k--;
		if (!nl && (size_t)(end - s) >= 64 && lines)
			break; /* a cut last line says little */
		if (k == 0)
			goto next;
		lines++;
		if (first) {
			first = 0;
			if (*line == '#')
				return GFXSTAT_FMT_FTRACE_TEXT;
			if (gfxstat_ftrace_line_parse(line, k, &fl) == GFXSTAT_PARSE_OK)
				return GFXSTAT_FMT_FTRACE_TEXT;
			/* SurfaceFlinger's own warning, or the command line `gfxstat record`
			 * writes before each --latency poll it keeps (capture_poll.c) */
			if (starts(line, k, "SurfaceFlinger appears to be unresponsive") ||
			    starts(line, k, "$ dumpsys SurfaceFlinger --latency")) {
				lines--;
				first = 1;
				goto next;
			}
		}
		if (gfxinfo_line(line, k))
			return GFXSTAT_FMT_GFXINFO;
		if (starts(line, k, "$ dumpsys SurfaceFlinger --latency"))
			goto next; /* record's line before each poll: neither a row nor other text */
		f = int_fields(line, k);
		if (f == 1 || f == 3)
			ints1 |= f == 1 && lines == 1;
		else if (list_line(line, k))
			list++;
		else
			other++;
next:
		if (!nl)
			break;
		line = nl + 1;
	}
	if (ints1 && !other && !list)
		return GFXSTAT_FMT_SF_LATENCY;
	if (list && list * 2 >= lines)
		return GFXSTAT_FMT_SF_LIST;
	return GFXSTAT_FMT_TEXT;
}
