/* SPDX-License-Identifier: MIT */
/* Unit tests: the container unwrapper (every split point) and gfxstat_detect(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check.h"
#include "gfxstat/gfxstat_container.h"

#define OUT_CAP (1 << 16)

struct sink {
	char buf[OUT_CAP];
	size_t n;
	int stop_after; /* return 1 once this many bytes arrived; 0 = never */
};

static int on_bytes(void *user, const void *p, size_t n)
{
	struct sink *s = user;

	if (s->n + n > OUT_CAP)
		n = OUT_CAP - s->n;
	memcpy(s->buf + s->n, p, n);
	s->n += n;
	return s->stop_after && s->n >= (size_t)s->stop_after;
}

/* Unwrap @in fed as [0, cut) + [cut, n) (cut == n: one feed); @chunk > 0 feeds that size. */
static int unwrap(const void *in, size_t n, size_t cut, size_t chunk, struct sink *s,
		  struct gfxstat_unwrap_stats *st, enum gfxstat_format *layers, int *nlayers)
{
	struct gfxstat_unwrap *u = gfxstat_unwrap_new(on_bytes, s, st);
	const unsigned char *p = in;
	int rc = 0;
	size_t off;

	s->n = 0;
	if (!u)
		return GFXSTAT_E_NOMEM;
	if (chunk) {
		for (off = 0; off < n && !rc; off += chunk)
			rc = gfxstat_unwrap_feed(u, p + off, n - off < chunk ? n - off : chunk);
	} else {
		rc = gfxstat_unwrap_feed(u, p, cut);
		if (!rc)
			rc = gfxstat_unwrap_feed(u, p + cut, n - cut);
	}
	if (!rc)
		rc = gfxstat_unwrap_finish(u);
	if (layers)
		*nlayers = gfxstat_unwrap_layers(u, layers, 8);
	gfxstat_unwrap_free(u);
	return rc;
}

static struct sink s1, s2;

/* Every split point and byte-at-a-time give @want exactly. */
static void check_all_splits(const void *in, size_t n, const char *want, size_t wn)
{
	size_t cut;
	int bad = 0;

	for (cut = 0; cut <= n; cut++) {
		int rc = unwrap(in, n, cut, 0, &s1, NULL, NULL, NULL);

		if (rc || s1.n != wn || memcmp(s1.buf, want, wn) != 0) {
			if (!bad)
				fprintf(stderr, "  split at %zu: rc %d, %zu bytes: '%.*s'\n", cut, rc,
					s1.n, (int)(s1.n > 200 ? 200 : s1.n), s1.buf);
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(unwrap(in, n, 0, 1, &s2, NULL, NULL, NULL), 0);
	CHECK(s2.n == wn && memcmp(s2.buf, want, wn) == 0);
	CHECK_EQ(unwrap(in, n, 0, 7, &s2, NULL, NULL, NULL), 0);
	CHECK(s2.n == wn && memcmp(s2.buf, want, wn) == 0);
}

static const char trace[] =
	"# tracer: nop\n"
	"#\n"
	"  surfaceflinger-683   (  683) [000] ...1   200.000000: tracing_mark_write: B|683|x\n"
	"  surfaceflinger-683   (  683) [000] ...1   200.000100: tracing_mark_write: E|683\n";

static size_t zpack(const void *in, size_t n, unsigned char *out, size_t cap, int gzip)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, gzip ? 16 + 15 : 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)(uintptr_t)in;
	z.avail_in = (unsigned)n;
	z.next_out = out;
	z.avail_out = (unsigned)cap;
	deflate(&z, Z_FINISH);
	n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}

TEST(plain_text)
{
	static const char in[] = "\xef\xbb\xbf# tracer: nop\r\nline two\r\r\nlone\rcr\n";
	static const char want[] = "# tracer: nop\nline two\nlone\rcr\n";
	enum gfxstat_format l[8];
	int nl = 0;

	check_all_splits(in, sizeof(in) - 1, want, sizeof(want) - 1);
	CHECK_EQ(unwrap(in, sizeof(in) - 1, 3, 0, &s1, NULL, l, &nl), 0);
	CHECK_EQ(nl, 1);
	CHECK_EQ(l[0], GFXSTAT_FMT_FTRACE_TEXT);
	/* a last line without '\n', and a CR at the very end */
	check_all_splits("a\r\nb\r", 5, "a\nb\r", 4);
}

static const char html[] =
	"<!DOCTYPE html>\n<html>\n<head>\n<script>\n"
	"if(!r.advanceToLineMatching(/^  var linuxPerfData = \"\\\\$/))return;\n"
	"var s='<script class=\"trace-data\" type=\"application\\/text\">';\n"
	"</script>\n<!-- <script class=\"trace-data\">not this</script> -->\n"
	"</head><body>\n"
	"<!-- BEGIN TRACE -->\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"PROCESS DUMP\nUSER PID\nroot 1\n"
	"  </script>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"# tracer: nop\n"
	"#\n"
	"  surfaceflinger-683   (  683) [000] ...1   200.000000: tracing_mark_write: B|683|x\n"
	"  surfaceflinger-683   (  683) [000] ...1   200.000100: tracing_mark_write: E|683\n"
	"  </SCRIPT>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"{\"traceEvents\": [], \"x\": \"</scrip\"}  </script>\n"
	"<!-- END TRACE -->\n</body>\n</html>\n";

TEST(systrace_html)
{
	struct gfxstat_unwrap_stats st;
	enum gfxstat_format l[8];
	int nl = 0;

	check_all_splits(html, sizeof(html) - 1, trace, sizeof(trace) - 1);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(html, sizeof(html) - 1, 100, 0, &s1, &st, l, &nl), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_html_blocks], 3);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_html_text_blocks], 1);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_html_dump_blocks], 1);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_html_json_blocks], 1);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_truncated], 0);
	CHECK_EQ(nl, 2);
	CHECK_EQ(l[0], GFXSTAT_FMT_SYSTRACE_HTML);
	CHECK_EQ(l[1], GFXSTAT_FMT_FTRACE_TEXT);
	/* cut inside the block: what came is passed on, and the cut is counted */
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(html, strstr(html, "E|683") - html, 0, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_truncated], 1);
	CHECK(s1.n > 100 && memcmp(s1.buf, trace, s1.n - 1) == 0);
}

TEST(systrace_js)
{
	static const char in[] =
		"<html><body>\n  <div class=\"view\">\n  </div>\n  <script>\n"
		"  var linuxPerfData = \"\\\n"
		"# tracer: nop\\n\\\n"
		"  a-1 [000] 1.000000: 0: B|1|say \\\"hi\\\" \\\\ \\x41\\u00e9\\n\\\r\n"
		"  a-1 [000] 1.000001: 0: E\\n\";\n"
		"  </script>\n</body>\n</html>\n";
	static const char want[] = "# tracer: nop\n"
				   "  a-1 [000] 1.000000: 0: B|1|say \"hi\" \\ A\xc3\xa9\n"
				   "  a-1 [000] 1.000001: 0: E\n";
	enum gfxstat_format l[8];
	int nl = 0;

	check_all_splits(in, sizeof(in) - 1, want, sizeof(want) - 1);
	CHECK_EQ(unwrap(in, sizeof(in) - 1, 5, 0, &s1, NULL, l, &nl), 0);
	CHECK_EQ(nl, 3);
	CHECK_EQ(l[1], GFXSTAT_FMT_SYSTRACE_JS);
}

TEST(atrace_z)
{
	static unsigned char z[4096], in[8192], mangled[16384];
	struct gfxstat_unwrap_stats st;
	size_t zn = zpack(trace, sizeof(trace) - 1, z, sizeof(z), 0), n, m, i;
	enum gfxstat_format l[8];
	int nl = 0, k;

	CHECK(zn > 10);
	n = 0;
	memcpy(in, "capturing trace... done\nTRACE:\n", 31);
	n = 31;
	memcpy(in + n, z, zn);
	n += zn;
	check_all_splits(in, n, trace, sizeof(trace) - 1);
	CHECK_EQ(unwrap(in, n, 0, 0, &s1, NULL, l, &nl), 0);
	CHECK_EQ(l[0], GFXSTAT_FMT_ATRACE_Z);
	CHECK_EQ(gfxstat_detect(in, n), GFXSTAT_FMT_ATRACE_Z);

	/* through a pty once ("\r\n") and twice ("\r\r\n", Windows adb): undone */
	for (k = 1; k <= 2; k++) {
		for (i = 0, m = 0; i < n; i++) {
			if (in[i] == '\n') {
				mangled[m++] = '\r';
				if (k == 2)
					mangled[m++] = '\r';
			}
			mangled[m++] = in[i];
		}
		check_all_splits(mangled, m, trace, sizeof(trace) - 1);
		memset(&st, 0, sizeof(st));
		CHECK_EQ(unwrap(mangled, m, 0, 0, &s1, &st, NULL, NULL), 0);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_corrupt], 0);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_prelude_lines], 1);
	}
	/* atrace without -z: text after TRACE: */
	memcpy(in, "TRACE:\n", 7);
	memcpy(in + 7, trace, sizeof(trace) - 1);
	check_all_splits(in, 7 + sizeof(trace) - 1, trace, sizeof(trace) - 1);
	/* cut short: counted */
	memcpy(in, "TRACE:\n", 7);
	memcpy(in + 7, z, zn);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(in, 7 + zn / 2, 0, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_truncated], 1);
	/* corrupt: counted, the rest skipped */
	memcpy(in + 7 + 2, "\xff\xff\xff\xff\xff\xff", 6);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(in, 7 + zn, 0, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_corrupt], 1);
}

TEST(gzip_nested)
{
	static unsigned char gz[8192], two[16384];
	struct gfxstat_unwrap_stats st;
	size_t n = zpack(html, sizeof(html) - 1, gz, sizeof(gz), 1), m;
	enum gfxstat_format l[8];
	int nl = 0;

	CHECK(n > 20);
	check_all_splits(gz, n, trace, sizeof(trace) - 1);
	CHECK_EQ(unwrap(gz, n, 0, 0, &s1, NULL, l, &nl), 0);
	CHECK_EQ(nl, 3);
	CHECK_EQ(l[0], GFXSTAT_FMT_GZIP);
	CHECK_EQ(l[1], GFXSTAT_FMT_SYSTRACE_HTML);
	CHECK_EQ(l[2], GFXSTAT_FMT_FTRACE_TEXT);
	/* two gzip members of text: read as one stream */
	m = zpack(trace, sizeof(trace) - 1, two, sizeof(two), 1);
	m += zpack(trace, sizeof(trace) - 1, two + m, sizeof(two) - m, 1);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(two, m, m / 2, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(s1.n, 2 * (sizeof(trace) - 1));
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_multi_members], 1);
}

TEST(viewer_data)
{
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	static unsigned char gz[4096];
	static char in[16384];
	size_t n = zpack(trace, sizeof(trace) - 1, gz, sizeof(gz), 1), i, m;
	enum gfxstat_format l[8];
	int nl = 0;

	m = (size_t)snprintf(in, sizeof(in),
			     "<html>\n<script id=\"viewer-data\" type=\"text/plain\">\n");
	for (i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)gz[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)gz[i + 1] << 8;
		if (i + 2 < n)
			v |= gz[i + 2];
		in[m++] = b64[v >> 18 & 63];
		in[m++] = b64[v >> 12 & 63];
		in[m++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
		in[m++] = i + 2 < n ? b64[v & 63] : '=';
		if (i % 57 == 54)
			in[m++] = '\n';
	}
	m += (size_t)snprintf(in + m, sizeof(in) - m, "\n</script>\n</html>\n");
	check_all_splits(in, m, trace, sizeof(trace) - 1);
	CHECK_EQ(unwrap(in, m, 0, 0, &s1, NULL, l, &nl), 0);
	CHECK_EQ(nl, 4);
	CHECK_EQ(l[1], GFXSTAT_FMT_VIEWER_DATA);
	CHECK_EQ(l[2], GFXSTAT_FMT_GZIP);
}

TEST(utf16)
{
	/* BOM, "16666667\r\n", U+1F600 as a surrogate pair, a lone low surrogate */
	static const unsigned char in[] = {
		0xff, 0xfe, '1', 0, '6', 0, '6', 0, '6', 0, '6', 0, '6', 0, '6', 0, '7', 0,
		'\r', 0, '\n', 0, 0x3d, 0xd8, 0x00, 0xde, 0x00, 0xdc, 'x', 0, 0xe9, 0,
	};
	static const char want[] = "16666667\n\xf0\x9f\x98\x80\xef\xbf\xbdx\xc3\xa9";
	struct gfxstat_unwrap_stats st;

	check_all_splits(in, sizeof(in), want, sizeof(want) - 1);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(in, sizeof(in), 0, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_utf16_bad], 1);
	/* an odd byte count: the last byte is replaced */
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(in, sizeof(in) - 1, 0, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_utf16_bad], 2);
}

/*
 * Text whose lines end in CR only was one long line: no frame source found, in words that
 * said ftrace text was not ftrace text. Its CRs are line ends now, from the first line end
 * (a lone CR) on; UTF-16 without a byte-order mark (mostly ASCII) is read as UTF-16, LE and
 * BE, whatever the split; each counted.
 */
TEST(cr_only_and_utf16_no_bom)
{
	static const char cr[] = "# tracer: nop\rline two\r\rlast\r\nend\r";
	static const char cr_want[] = "# tracer: nop\nline two\n\nlast\nend\n";
	static unsigned char u16[2][2 * sizeof(trace)];
	struct gfxstat_unwrap_stats st;
	enum gfxstat_format l[8];
	size_t i, n = sizeof(trace) - 1;
	int be, nl = 0;

	check_all_splits(cr, sizeof(cr) - 1, cr_want, sizeof(cr_want) - 1);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(cr, sizeof(cr) - 1, 0, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_cr_line_ends], 1);
	for (be = 0; be < 2; be++) {
		for (i = 0; i < n; i++) {
			u16[be][2 * i + be] = (unsigned char)trace[i];
			u16[be][2 * i + !be] = 0;
		}
		CHECK_EQ(gfxstat_detect(u16[be], 2 * n),
			 be ? GFXSTAT_FMT_UTF16BE : GFXSTAT_FMT_UTF16LE);
		check_all_splits(u16[be], 2 * n, trace, n);
		memset(&st, 0, sizeof(st));
		CHECK_EQ(unwrap(u16[be], 2 * n, 0, 0, &s1, &st, l, &nl), 0);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_utf16_no_bom], 1);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_text_nul], 0);
		CHECK_EQ(nl, 2);
		CHECK_EQ(l[1], GFXSTAT_FMT_FTRACE_TEXT);
		/* short of 64 bytes: told at the end, from what there is */
		check_all_splits(u16[be], 28, trace, 14);
	}
	/* NUL bytes in a text's head are counted whatever the cut (the fuzzer found the count
	 * taken on the bytes that had arrived when the format was decided) */
	{
		static const char nul[] = "# tracer\n\0\0x\n";
		size_t cut;
		int bad = 0;

		for (cut = 0; cut < sizeof(nul) - 1; cut++) {
			memset(&st, 0, sizeof(st));
			CHECK_EQ(unwrap(nul, sizeof(nul) - 1, cut, 0, &s1, &st, NULL, NULL), 0);
			bad += st.v[GFXSTAT_UNWRAP_STAT_text_nul] != 1;
		}
		CHECK_EQ(bad, 0);
	}
}

TEST(raw_and_skipped)
{
	static const unsigned char pb[] = {
		0x0a, 0x06, 0x08, 0x01, 0x10, 0x00, 0x18, 0x02, 0x0a, 0x02, 0x08, 0x07,
	};
	struct gfxstat_unwrap_stats st;

	check_all_splits(pb, sizeof(pb), (const char *)pb, sizeof(pb));
	memset(&st, 0, sizeof(st));
	/* not a zip after its signature: damaged (with libzip) or not read (without) */
	CHECK_EQ(unwrap("PK\3\4abcdefgh", 12, 0, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(s1.n, 0);
	CHECK_EQ(st.v[gfxstat_unwrap_zip_support() ? GFXSTAT_UNWRAP_STAT_zip_damaged
						    : GFXSTAT_UNWRAP_STAT_zip_skipped], 1);
	check_all_splits("", 0, "", 0);
}

/* ---------------------------------------------------------------------------------------- */
/* zip: archives written here by hand (stored or raw deflate), read by libzip in the library  */

struct zmem {
	const char *name;
	const void *data;
	size_t n;
	int deflate;
};

static unsigned char *put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	return p + 2;
}

static unsigned char *put32(unsigned char *p, unsigned long v)
{
	return put16(put16(p, (unsigned)(v & 0xffff)), (unsigned)(v >> 16));
}

/* A zip of @nm members (APPNOTE 4.3: local headers, central directory, end record). */
static size_t mkzip(const struct zmem *m, int nm, unsigned char *out, size_t cap)
{
	unsigned long off[8], crc[8], csz[8];
	unsigned char *p = out, *cd;
	int i;

	for (i = 0; i < nm; i++) {
		size_t nl = strlen(m[i].name);
		unsigned char *data;

		off[i] = (unsigned long)(p - out);
		crc[i] = crc32(0, m[i].data, (unsigned)m[i].n);
		data = p + 30 + nl;
		if (m[i].deflate) {
			z_stream z;

			memset(&z, 0, sizeof(z));
			deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
			z.next_in = (unsigned char *)(uintptr_t)m[i].data;
			z.avail_in = (unsigned)m[i].n;
			z.next_out = data;
			z.avail_out = (unsigned)(cap - (size_t)(data - out) - 512);
			deflate(&z, Z_FINISH);
			csz[i] = z.total_out;
			deflateEnd(&z);
		} else {
			memcpy(data, m[i].data, m[i].n);
			csz[i] = (unsigned long)m[i].n;
		}
		p = put32(p, 0x04034b50);
		p = put16(p, 20);
		p = put16(p, 0);
		p = put16(p, m[i].deflate ? 8 : 0);
		p = put16(p, 0);
		p = put16(p, 0x21); /* 1980-01-01 */
		p = put32(p, crc[i]);
		p = put32(p, csz[i]);
		p = put32(p, (unsigned long)m[i].n);
		p = put16(p, (unsigned)nl);
		p = put16(p, 0);
		memcpy(p, m[i].name, nl);
		p += nl + csz[i];
	}
	cd = p;
	for (i = 0; i < nm; i++) {
		size_t nl = strlen(m[i].name);

		p = put32(p, 0x02014b50);
		p = put16(p, 20);
		p = put16(p, 20);
		p = put16(p, 0);
		p = put16(p, m[i].deflate ? 8 : 0);
		p = put16(p, 0);
		p = put16(p, 0x21);
		p = put32(p, crc[i]);
		p = put32(p, csz[i]);
		p = put32(p, (unsigned long)m[i].n);
		p = put16(p, (unsigned)nl);
		p = put32(p, 0); /* extra, comment */
		p = put32(p, 0); /* disk, internal attributes */
		p = put32(p, 0); /* external attributes */
		p = put32(p, off[i]);
		memcpy(p, m[i].name, nl);
		p += nl;
	}
	p = put32(p, 0x06054b50);
	p = put32(p, 0);
	p = put16(p, (unsigned)nm);
	p = put16(p, (unsigned)nm);
	p = put32(p, (unsigned long)(p - 12 - cd)); /* the directory's size */
	p = put32(p, (unsigned long)(cd - out));
	p = put16(p, 0);
	return (size_t)(p - out);
}

static unsigned char zbuf[1 << 14];

TEST(zip)
{
	static const char readme[] = "see the trace\n";
	struct zmem one[] = {
		{ "traces/", "", 0, 0 },             /* a folder */
		{ "__MACOSX/traces/._a.html", "\0\5\26\7", 4, 0 },
		{ "traces/a.html", html, sizeof(html) - 1, 1 },
		{ "README", readme, sizeof(readme) - 1, 0 },
	};
	struct zmem two[] = {
		{ "a.trace", trace, sizeof(trace) - 1, 1 },
		{ "b.trace", trace, sizeof(trace) - 1, 0 },
		{ "notes.txt", readme, sizeof(readme) - 1, 0 },
	};
	struct zmem odd[] = { { "only.bin", readme, sizeof(readme) - 1, 1 } };
	struct gfxstat_unwrap_stats st;
	enum gfxstat_format lay[8];
	int nl = 0;
	size_t n;

	if (!gfxstat_unwrap_zip_support()) {
		/* the phone build: counted, nothing passed on */
		n = mkzip(odd, 1, zbuf, sizeof(zbuf));
		memset(&st, 0, sizeof(st));
		CHECK_EQ(unwrap(zbuf, n, n, 0, &s1, &st, NULL, NULL), 0);
		CHECK_EQ(s1.n, 0);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_skipped], 1);
		return;
	}
	/* the one trace member (deflated HTML) is read; folder, macOS metadata and the README
	 * are not traces; the output is the HTML's trace text, whatever the cut */
	n = mkzip(one, 4, zbuf, sizeof(zbuf));
	check_all_splits(zbuf, n, trace, sizeof(trace) - 1);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(zbuf, n, n, 0, &s1, &st, lay, &nl), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_members], 1);
	CHECK_EQ(nl, 3);
	CHECK_EQ(lay[0], GFXSTAT_FMT_ZIP);
	CHECK_EQ(lay[1], GFXSTAT_FMT_SYSTRACE_HTML);
	CHECK_EQ(lay[2], GFXSTAT_FMT_FTRACE_TEXT);
	/* a member that is no trace but the only file: read, the next layer says what it is */
	n = mkzip(odd, 1, zbuf, sizeof(zbuf));
	CHECK_EQ(unwrap(zbuf, n, n, 0, &s1, NULL, NULL, NULL), 0);
	CHECK(s1.n == sizeof(readme) - 1 && memcmp(s1.buf, readme, s1.n) == 0);
	/* two traces: none read, the names kept */
	n = mkzip(two, 3, zbuf, sizeof(zbuf));
	{
		struct gfxstat_unwrap *u = gfxstat_unwrap_new(on_bytes, &s1, &st);

		memset(&st, 0, sizeof(st));
		s1.n = 0;
		CHECK_EQ(gfxstat_unwrap_feed(u, zbuf, n), 0);
		CHECK_EQ(gfxstat_unwrap_finish(u), 0);
		CHECK_EQ(s1.n, 0);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_several], 1);
		CHECK_CSTR(gfxstat_unwrap_zip_names(u), "a.trace, b.trace, notes.txt");
		gfxstat_unwrap_free(u);
	}
	/* cut before its central directory: damaged, nothing passed on */
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(zbuf, n - 30, n - 30, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(s1.n, 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_damaged], 1);
	/* a deflated member whose data is broken: what inflated before is kept, counted */
	n = mkzip(two, 1, zbuf, sizeof(zbuf));
	zbuf[30 + 7 + 20] ^= 0x55;
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(zbuf, n, n, 0, &s1, &st, NULL, NULL), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_corrupt], 1);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_members], 1);
}

/* A stream over the limit is refused; a regular file is read from the file, not held. */
TEST(zip_limit_and_file)
{
	struct zmem one[] = { { "t.trace", trace, sizeof(trace) - 1, 0 } };
	struct gfxstat_unwrap_stats st;
	struct gfxstat_unwrap *u;
	char path[] = "/tmp/gfxstat-unit-zip-XXXXXX";
	size_t n = mkzip(one, 1, zbuf, sizeof(zbuf));
	FILE *f;
	int fd;

	if (!gfxstat_unwrap_zip_support())
		return;
	memset(&st, 0, sizeof(st));
	u = gfxstat_unwrap_new(on_bytes, &s1, &st);
	s1.n = 0;
	gfxstat_unwrap_set_zip_limit(u, n - 1);
	CHECK_EQ(gfxstat_unwrap_feed(u, zbuf, n), 0);
	CHECK_EQ(gfxstat_unwrap_finish(u), 0);
	CHECK_EQ(s1.n, 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_too_big], 1);
	/* the same limit, but the stream is a regular file: libzip reads the file itself */
	fd = mkstemp(path);
	CHECK(fd >= 0);
	f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	CHECK(f && fwrite(zbuf, 1, n, f) == n);
	if (f)
		fclose(f);
	memset(&st, 0, sizeof(st));
	CHECK_EQ(gfxstat_unwrap_set_path(u, path), 0);
	CHECK_EQ(gfxstat_unwrap_feed(u, zbuf, n), 0);
	CHECK_EQ(gfxstat_unwrap_finish(u), 0);
	CHECK(s1.n == sizeof(trace) - 1 && memcmp(s1.buf, trace, s1.n) == 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_too_big], 0);
	/* the path named that stream only: the next one is held, and over the limit again */
	memset(&st, 0, sizeof(st));
	CHECK_EQ(gfxstat_unwrap_feed(u, zbuf, n), 0);
	CHECK_EQ(gfxstat_unwrap_finish(u), 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_zip_too_big], 1);
	remove(path);
	gfxstat_unwrap_free(u);
}

TEST(stop)
{
	struct gfxstat_unwrap *u;

	s1.n = 0;
	s1.stop_after = 10;
	u = gfxstat_unwrap_new(on_bytes, &s1, NULL);
	CHECK(u != NULL);
	CHECK_EQ(gfxstat_unwrap_feed(u, html, sizeof(html) - 1), GFXSTAT_E_ABORTED);
	gfxstat_unwrap_free(u);
	s1.stop_after = 0;
	gfxstat_unwrap_free(NULL);
	CHECK(gfxstat_unwrap_new(NULL, NULL, NULL) == NULL);
}

TEST(detect)
{
	static const struct {
		const char *in;
		size_t n;
		enum gfxstat_format want;
	} t[] = {
		{ "", 0, GFXSTAT_FMT_UNKNOWN },
		{ "\x1f\x8b\x08\x00", 4, GFXSTAT_FMT_GZIP },
		{ "\x78\x9c\x01\x02", 4, GFXSTAT_FMT_ZLIB },
		{ "\xff\xfe" "1\0", 4, GFXSTAT_FMT_UTF16LE },
		{ "\xfe\xff\0" "1", 4, GFXSTAT_FMT_UTF16BE },
		{ "PK\3\4", 4, GFXSTAT_FMT_ZIP },
		{ "\x0a\x6b\x32\xe1\x80\x80\x00\x10", 8, GFXSTAT_FMT_PERFETTO },
		{ "\n# tracer: nop\n", 15, GFXSTAT_FMT_FTRACE_TEXT },
		{ "\xef\xbb\xbf# tracer: nop\n", 17, GFXSTAT_FMT_FTRACE_TEXT },
		{ "  <...>-18926 (-----) [002] ...1 1.000000: tracing_mark_write: E\n", 66,
		  GFXSTAT_FMT_FTRACE_TEXT },
		{ "TRACE:\n# tracer\n", 16, GFXSTAT_FMT_ATRACE },
		{ "TRACE:\r\n\x78\x9c", 10, GFXSTAT_FMT_ATRACE_Z },
		{ "<!DOCTYPE html>\n", 16, GFXSTAT_FMT_SYSTRACE_HTML },
		{ "{\"traceEvents\": []}", 19, GFXSTAT_FMT_JSON },
		{ "16666667\n", 9, GFXSTAT_FMT_SF_LATENCY },
		{ "16666667\r\n", 10, GFXSTAT_FMT_SF_LATENCY },
		/* lines that end in CR only; UTF-16 without a byte-order mark */
		{ "16666667\r1 2 3\r4 5 6\r", 21, GFXSTAT_FMT_SF_LATENCY },
		{ "# tracer: nop\r\rx\r", 17, GFXSTAT_FMT_FTRACE_TEXT },
		{ "1\0" "6\0" "6\0" "6\0" "\n\0", 10, GFXSTAT_FMT_UTF16LE },
		{ "\0" "1\0" "6\0" "6\0" "6\0\n", 10, GFXSTAT_FMT_UTF16BE },
		{ "1\0" "6\0" "\0\0" "6\0" "\n\0", 10, GFXSTAT_FMT_TEXT },
		{ "SurfaceFlinger appears to be unresponsive, dumping anyways\n16954612\n"
		  "7657467895508   7657482691352   7657493499756\n", 113, GFXSTAT_FMT_SF_LATENCY },
		{ "16666667\n0\t0\t0\n1\t2\t3\n\n", 21, GFXSTAT_FMT_SF_LATENCY },
		{ "Task=1#46\nDim layer#54\nStatusBar#0\n", 35, GFXSTAT_FMT_SF_LIST },
		{ "RequestedLayerState{a#1 parentId=2}\n", 36, GFXSTAT_FMT_SF_LIST },
		{ "Applications Graphics Acceleration Info:\nUptime: 1\n", 51, GFXSTAT_FMT_GFXINFO },
		{ "\n** Graphics info for pid 1 [x] **\n", 35, GFXSTAT_FMT_GFXINFO },
		{ "hello world\n", 12, GFXSTAT_FMT_TEXT },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum gfxstat_format got = gfxstat_detect(t[i].in, t[i].n);

		if (got != t[i].want)
			fprintf(stderr, "  detect case %zu: %s, want %s\n", i,
				gfxstat_format_name(got), gfxstat_format_name(t[i].want));
		CHECK_EQ(got, t[i].want);
	}
	CHECK_CSTR(gfxstat_format_name(GFXSTAT_FMT_SYSTRACE_HTML), "systrace-html");
	CHECK_CSTR(gfxstat_format_name((enum gfxstat_format)999), "unknown");
	CHECK_CSTR(gfxstat_unwrap_stat_name(GFXSTAT_UNWRAP_STAT_corrupt), "corrupt");
	CHECK_EQ(gfxstat_unwrap_stat_severity(GFXSTAT_UNWRAP_STAT_corrupt), GFXSTAT_SEV_ERROR);
}

/* PROCESS DUMP entries, as "pid/tid=name;" (tid 0: a process). */
struct tasks {
	char buf[4096];
	size_t n;
	int stop_at; /* return 1 at this entry (1-based); 0 = never */
	int seen;
};

static int on_task(void *user, int32_t pid, int32_t tid, struct gfxstat_str name)
{
	struct tasks *t = user;
	int k = snprintf(t->buf + t->n, sizeof(t->buf) - t->n, "%d/%d=%.*s;", (int)pid,
			 (int)tid, (int)name.n, name.p);

	if (k > 0 && (size_t)k < sizeof(t->buf) - t->n)
		t->n += (size_t)k;
	return ++t->seen == t->stop_at;
}

/* Unwrap @in fed in chunks of @chunk bytes (0: one feed), collecting the dump's entries. */
static int unwrap_tasks(const char *in, size_t chunk, struct tasks *t,
			struct gfxstat_unwrap_stats *st)
{
	struct gfxstat_unwrap *u = gfxstat_unwrap_new(on_bytes, &s1, st);
	size_t n = strlen(in), off;
	int rc = 0;

	t->n = 0;
	t->buf[0] = 0;
	t->seen = 0;
	s1.n = 0;
	if (!u)
		return GFXSTAT_E_NOMEM;
	gfxstat_unwrap_set_task_fn(u, on_task, t);
	if (!chunk)
		chunk = n;
	for (off = 0; off < n && !rc; off += chunk)
		rc = gfxstat_unwrap_feed(u, in + off, n - off < chunk ? n - off : chunk);
	if (!rc)
		rc = gfxstat_unwrap_finish(u);
	gfxstat_unwrap_free(u);
	return rc;
}

/*
 * The modern form, as in the Gracker-SystraceForBlog samples (trace_input_blog_list_jank:
 * rows copied from its dump, columns as written): a process table and a thread table, twice.
 * The kernel thread's NAME holds a space (xiaomi_launcher), a thread name holds spaces, the
 * header lines end in spaces, and the second snapshot renames pid 24874.
 */
static const char dump_html[] =
	"<html><body>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"PROCESS DUMP\n"
	"USER           PID  PPID     VSZ    RSS WCHAN  PC S NAME                        COMM"
	"                       \n"
	"root             1     0   32904   3892 SyS_epoll_wait 0 S init                 init\n"
	"root            357      2       0      0 0       0 S [irq/93-KRYO L3-]           "
	"[irq/93-KRYO L3-]\n"
	"u0_a229      24874 25425 1220576  98760 SyS_epoll_wait 0 S <pre-initialized> "
	"app_process32\n"
	"u0_a229      24874 bad\n"
	"USER           PID   TID CMD            \n"
	"u0_a229      24874 24874 .tencent.matrix\n"
	"u0_a229      24874 24881 Jit thread pool\r\n"
	"USER           PID  PPID     VSZ    RSS WCHAN  PC S NAME                        COMM\n"
	"u0_a229      24874 25425 1220640  99996 0       0 R sample.tencent.matrix       "
	"app_process32\n"
	"USER           PID   TID CMD\n"
	"u0_a229      24874 24912 RenderThread\n"
	"  </script>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"# tracer: nop\n"
	"  surfaceflinger-683   (  683) [000] ...1   200.000000: tracing_mark_write: B|683|x\n"
	"  surfaceflinger-683   (  683) [000] ...1   200.000100: tracing_mark_write: E|683\n"
	"  </script>\n</body></html>\n";

static const char dump_want[] =
	"1/0=init;357/0=[irq/93-KRYO L3-];24874/0=<pre-initialized>;"
	"24874/24874=.tencent.matrix;24874/24881=Jit thread pool;"
	"24874/0=sample.tencent.matrix;24874/24912=RenderThread;";

TEST(process_dump)
{
	static const char text[] =
		"# tracer: nop\n"
		"  surfaceflinger-683   (  683) [000] ...1   200.000000: tracing_mark_write: "
		"B|683|x\n"
		"  surfaceflinger-683   (  683) [000] ...1   200.000100: tracing_mark_write: "
		"E|683\n";
	static const size_t chunks[] = { 0, 1, 2, 3, 7, 64, 100 };
	struct gfxstat_unwrap_stats st;
	struct tasks t;
	size_t i;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		memset(&st, 0, sizeof(st));
		CHECK_EQ(unwrap_tasks(dump_html, chunks[i], &t, &st), 0);
		CHECK_CSTR(t.buf, dump_want);
		CHECK(s1.n == sizeof(text) - 1 && memcmp(s1.buf, text, s1.n) == 0);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_html_dump_blocks], 1);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_dump_processes], 4);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_dump_threads], 3);
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_dump_bad_lines], 1); /* "24874 bad" */
	}
	/* without a callback the entries are still counted, and the text is the same */
	memset(&st, 0, sizeof(st));
	CHECK_EQ(unwrap(dump_html, sizeof(dump_html) - 1, 0, 5, &s2, &st, NULL, NULL), 0);
	CHECK(s2.n == sizeof(text) - 1 && memcmp(s2.buf, text, s2.n) == 0);
	CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_dump_processes], 4);
	/* the callback stops the unwrapper at the third entry */
	t.stop_at = 3;
	CHECK_EQ(unwrap_tasks(dump_html, 0, &t, NULL), GFXSTAT_E_ABORTED);
	CHECK_CSTR(t.buf, "1/0=init;357/0=[irq/93-KRYO L3-];24874/0=<pre-initialized>;");
	t.stop_at = 0;
}

/*
 * The legacy form ("ps && ps -t", toolbox): 8 header columns, a state column without a
 * header. In the "ps -t" table a line whose PID is a listed process is its main thread;
 * another line is a thread (PID = tid) of the process in PPID; catapult drops the rest.
 * A line over 512 bytes is counted and skipped; the last line lacks its '\n'.
 */
TEST(process_dump_legacy)
{
	char in[2048];
	struct gfxstat_unwrap_stats st;
	struct tasks t;
	size_t chunk;
	int k;

	memset(&t, 0, sizeof(t));
	k = snprintf(in, sizeof(in),
		     "<html><script class=\"trace-data\">\nPROCESS DUMP\n"
		     "USER     PID   PPID  VSIZE  RSS     WCHAN    PC        NAME\n"
		     "root      1     0     8904   788   c0232f8c 0001c8e8 S /init\n"
		     "u0_a12    1234  197   9000   900   ffffffff 00000000 S com.example.app\n"
		     "USER     PID   PPID  VSIZE  RSS     WCHAN    PC        NAME\n"
		     "root      1     0     8904   788   c0232f8c 0001c8e8 S /init\n"
		     "u0_a12    1234  197   9000   900   ffffffff 00000000 S com.example.app\n"
		     "u0_a12    1240  1234  9000   900   ffffffff 00000000 S Binder_1 x\n"
		     "u0_a12    1250  999   9000   900   ffffffff 00000000 S orphan\n"
		     "%0600d\n"
		     "u0_a12    1241  1234  9000   900   ffffffff 00000000 S RenderThread"
		     "</script></html>",
		     0);
	CHECK(k > 0 && (size_t)k < sizeof(in));
	for (chunk = 0; chunk < 9; chunk += 4) {
		memset(&st, 0, sizeof(st));
		CHECK_EQ(unwrap_tasks(in, chunk, &t, &st), 0);
		CHECK_CSTR(t.buf, "1/0=/init;1234/0=com.example.app;1/1=/init;"
				  "1234/1234=com.example.app;1234/1240=Binder_1 x;"
				  "1234/1241=RenderThread;");
		CHECK_EQ(st.v[GFXSTAT_UNWRAP_STAT_dump_bad_lines], 1);
		CHECK_EQ(s1.n, 0);
	}
}

TEST_SUITE(test_container)
{
	RUN(plain_text);
	RUN(systrace_html);
	RUN(process_dump);
	RUN(process_dump_legacy);
	RUN(systrace_js);
	RUN(atrace_z);
	RUN(gzip_nested);
	RUN(viewer_data);
	RUN(utf16);
	RUN(cr_only_and_utf16_no_bom);
	RUN(raw_and_skipped);
	RUN(zip);
	RUN(zip_limit_and_file);
	RUN(stop);
	RUN(detect);
}
