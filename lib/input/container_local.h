/* SPDX-License-Identifier: MIT */
/* The unwrapper's insides, shared by container.c and container_html.c. Not for src/. */
#ifndef GX_CONTAINER_LOCAL_H
#define GX_CONTAINER_LOCAL_H

#include <zlib.h>

#include "../gx_local.h"
#include "gfxstat/gfxstat_container.h"

#define GX_UW_HEAD 1024     /* bytes sniffed before deciding */
#define GX_UW_TAG 1024      /* longest HTML tag examined */
#define GX_UW_WS 256        /* indentation held before a possible </script> */
#define GX_UW_OBUF 4096     /* staging buffer of the byte-at-a-time decoders */
#define GX_UW_ZOUT 65536    /* inflate output window */
#define GX_UW_MAX_LAYERS 8
#define GX_UW_DLINE 512     /* longest PROCESS DUMP line read */
#define GX_UW_DPIDS 8192    /* process ids kept for a legacy "ps -t" table (power of 2) */
#define GX_UW_ZIP_MAX ((size_t)256 << 20) /* a zip from a stream is held whole up to this */
#define GX_UW_ZIP_NAMES 512 /* room for the member names of a zip that was not read */

#define GX_UW_INC(u, name) GX_UW_ADD(u, name, 1)
#define GX_UW_ADD(u, name, k)                                                              \
	do {                                                                               \
		if ((u)->sink->st)                                                         \
			(u)->sink->st->v[GFXSTAT_UNWRAP_STAT_##name] += (k);               \
	} while (0)

/* Where every level's output ends up; shared by the whole tree of unwrappers. */
struct gx_uw_sink {
	gfxstat_bytes_fn out;
	void *user;
	struct gfxstat_unwrap_stats *st;
	int last;        /* last byte passed on, or -1 */
	int need_sep;    /* a text stream ended: the next one starts on a new line */
	int nlayers;     /* layers recorded at the first byte passed on; 0 = not yet */
	enum gfxstat_format layers[GX_UW_MAX_LAYERS];
	gfxstat_task_fn task; /* PROCESS DUMP entries, or NULL */
	void *task_user;
};

enum gx_uw_mode {
	GX_UW_SNIFF,   /* collecting the head */
	GX_UW_TEXT,    /* text passed on, CRs before LF dropped */
	GX_UW_RAW,     /* bytes passed on as they are (Perfetto) */
	GX_UW_SKIP,    /* bytes dropped (zip, JSON blocks, after corruption) */
	GX_UW_PRELUDE, /* atrace lines before "TRACE:" */
	GX_UW_CHILD,   /* everything goes to the child (after "TRACE:") */
	GX_UW_INFLATE, /* gzip or zlib */
	GX_UW_UTF16,   /* UTF-16 to UTF-8 */
	GX_UW_HTML,    /* systrace HTML scanner */
	GX_UW_DUMP,    /* a PROCESS DUMP block, read line by line (container_html.c) */
	GX_UW_ZIP,     /* a zip archive, held (or counted) until the end (container_zip.c) */
};

/* The table a PROCESS DUMP line belongs to, set by its "USER ..." header line. */
enum gx_dump_table {
	GX_D_NONE,        /* before the first header */
	GX_D_PROC,        /* ps -A -o USER,PID,PPID,VSIZE,RSS,WCHAN,ADDR=PC,S,NAME,COMM */
	GX_D_THREAD,      /* ps -AT -o USER,PID,TID,CMD */
	GX_D_LEGACY_PROC, /* toolbox ps: USER PID PPID VSIZE RSS WCHAN PC NAME */
	GX_D_LEGACY_THREAD, /* toolbox ps -t, same columns */
};

/* HTML scanner states */
enum gx_html_state {
	GX_H_TEXT,      /* outside tags */
	GX_H_TAG,       /* inside "<...", collecting */
	GX_H_SKIPTAG,   /* an over-long tag: skip to '>' */
	GX_H_COMMENT,   /* "<!-- ... -->" */
	GX_H_SCRIPT,    /* an ordinary <script>: look for </script> and linuxPerfData */
	GX_H_JSNL,      /* after linuxPerfData = "\, expecting the line end */
	GX_H_JS,        /* inside the JavaScript string */
	GX_H_BLOCK_NL,  /* just after a data block's opening tag: drop one line end */
	GX_H_BLOCK,     /* inside a trace-data / viewer-data block */
	GX_H_ENDTAG,    /* after "</script": skip to '>' */
};

struct gfxstat_unwrap {
	struct gx_uw_sink *sink;
	struct gx_uw_sink own_sink;   /* the root's */
	struct gfxstat_unwrap *parent, *child;
	int depth;
	int block;        /* inside an HTML block: only ftrace text is passed on */
	int collapse;     /* 1 or 2: undo "\r\n" or "\r\r\n" (pty) before sniffing */
	unsigned cpend;   /* CRs held by the collapse filter */
	int skip_nl;      /* drop line ends before sniffing (after "TRACE:") */
	int ended;        /* finish seen since the last byte */
	enum gx_uw_mode mode;
	enum gfxstat_format kind;
	enum gfxstat_format via; /* HTML: the current block's form (VIEWER_DATA, SYSTRACE_JS) */
	unsigned char head[GX_UW_HEAD];
	size_t nhead;
	uint64_t text_cr; /* TEXT: CRs held until the next byte says whether they end a line */
	int text_eol;     /* TEXT: the first line end, '\n' or '\r' (CR only), or 0 unseen */
	size_t text_seen; /* TEXT: bytes looked at for a NUL (the first GX_UW_HEAD) */
	int text_nul;     /* TEXT: one seen there */
	/* PRELUDE */
	char pline[8];
	size_t plen;
	/* INFLATE */
	z_stream z;
	int z_init, z_gzip, z_done, z_any, z_trailing;
	unsigned char *zout;
	/* UTF16 */
	int be, have_odd;
	unsigned char odd;
	uint32_t hi;      /* a pending high surrogate, or 0 */
	/* HTML */
	enum gx_html_state hs;
	char tag[GX_UW_TAG];
	size_t ntag;
	int tag_m;        /* progress through "!--" / "-->" / "</script" */
	int js_m;         /* progress through linuxPerfData = "\ */
	char hold[16];    /* a possible "</script" */
	size_t nhold;
	char ws[GX_UW_WS];
	size_t nws;
	int ws_active;
	int b64;          /* the block is base64 (viewer-data) */
	int b64_bad;
	uint32_t b64acc;
	int b64n, b64pad;
	int js_esc;       /* 0, or the escape state in the JavaScript string */
	uint32_t js_val;
	int js_digits;
	unsigned char obuf[GX_UW_OBUF];
	size_t nobuf;
	/* DUMP */
	char dline[GX_UW_DLINE];
	size_t ndline;
	int dlong;        /* the current line is over the limit: skip to its end */
	enum gx_dump_table dtable;
	int32_t *dpids;   /* legacy: open-addressing set of the first table's pids (0 = empty) */
	size_t ndpids;
	/* ZIP: libzip needs random access, so a stream is held whole (bounded); a regular file
	 * named by gfxstat_unwrap_set_path() is reopened instead and its bytes only counted */
	char *zpath;      /* root: the regular file the next stream is, or NULL */
	size_t zlimit;    /* root: most bytes of a zip held from a stream */
	unsigned char *zbuf;
	size_t nzbuf, capzbuf;
	uint64_t zseen;   /* bytes of the archive fed */
	int zfile;        /* read from zpath, not from zbuf */
	char znames[GX_UW_ZIP_NAMES]; /* root: members of the last zip not read, or "" */
};

/* container.c */
GFXSTAT_HIDDEN int gx_uw_input(struct gfxstat_unwrap *u, const void *buf, size_t n);
GFXSTAT_HIDDEN int gx_uw_end(struct gfxstat_unwrap *u);
GFXSTAT_HIDDEN struct gfxstat_unwrap *gx_uw_child(struct gfxstat_unwrap *u, int block);
/* Stage a code point as UTF-8 in u->obuf / pass u->obuf to u->child. */
GFXSTAT_HIDDEN int gx_uw_put_utf8(struct gfxstat_unwrap *u, uint32_t cp);
GFXSTAT_HIDDEN int gx_uw_obuf_flush(struct gfxstat_unwrap *u);

/* container_html.c (PROCESS DUMP blocks are read there too) */
GFXSTAT_HIDDEN void gx_html_start(struct gfxstat_unwrap *u);
GFXSTAT_HIDDEN int gx_html_feed(struct gfxstat_unwrap *u, const unsigned char *p, size_t n);
GFXSTAT_HIDDEN int gx_html_end(struct gfxstat_unwrap *u);
GFXSTAT_HIDDEN void gx_dump_start(struct gfxstat_unwrap *u);
GFXSTAT_HIDDEN int gx_dump_feed(struct gfxstat_unwrap *u, const unsigned char *p, size_t n);
GFXSTAT_HIDDEN int gx_dump_end(struct gfxstat_unwrap *u);

/* container_zip.c */
GFXSTAT_HIDDEN void gx_zip_start(struct gfxstat_unwrap *u);
GFXSTAT_HIDDEN int gx_zip_feed(struct gfxstat_unwrap *u, const unsigned char *p, size_t n);
GFXSTAT_HIDDEN int gx_zip_end(struct gfxstat_unwrap *u);
GFXSTAT_HIDDEN void gx_zip_reset(struct gfxstat_unwrap *u);

#endif
