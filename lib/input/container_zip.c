/* SPDX-License-Identifier: MIT */
/*
 * Zip archives (systrace .html.zip, the way traces are shared), read with Debian's libzip:
 * the one trace member is unwrapped by a child level like any other container. A zip's
 * directory is at its end, so nothing can be passed on before the stream ends: a stream is
 * held whole (bounded), a regular file is reopened by libzip for random access and its bytes
 * are only counted. Builds without libzip (the static phone build) count zip_skipped.
 *
 * libzip is loaded with dlopen() when the first zip comes, not linked: linked, it maps libzip,
 * libcrypto and libbz2 into every run of every command (1.7 MB of the 4 MB `gfxstat
 * --version` took). A host where Debian's libzip4 is missing then reads no zip
 * (zip_skipped), as the phone build.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "container_local.h"

void gx_zip_reset(struct gfxstat_unwrap *u)
{
	free(u->zbuf);
	u->zbuf = NULL;
	u->nzbuf = 0;
	u->capzbuf = 0;
	u->zseen = 0;
	u->zfile = 0;
}

#ifdef GFXSTAT_HAVE_LIBZIP
#include <dlfcn.h>
#include <pthread.h>
#include <zip.h>

#define LIBZIP "libzip.so.4" /* Debian's libzip4; its ABI holds since libzip 1.0 */

/* the libzip calls used here, from dlsym() */
static struct {
	zip_t *(*open)(const char *, int, int *);
	zip_t *(*open_from_source)(zip_source_t *, int, zip_error_t *);
	zip_source_t *(*source_buffer_create)(const void *, zip_uint64_t, int, zip_error_t *);
	void (*source_free)(zip_source_t *);
	void (*error_init)(zip_error_t *);
	void (*error_fini)(zip_error_t *);
	zip_int64_t (*get_num_entries)(zip_t *, zip_flags_t);
	const char *(*get_name)(zip_t *, zip_uint64_t, zip_flags_t);
	zip_file_t *(*fopen_index)(zip_t *, zip_uint64_t, zip_flags_t);
	zip_int64_t (*fread)(zip_file_t *, void *, zip_uint64_t);
	int (*fclose)(zip_file_t *);
	void (*discard)(zip_t *);
} zl;
static pthread_once_t zl_once = PTHREAD_ONCE_INIT;
static int zl_ok;

static void zl_load(void)
{
	void *h = dlopen(LIBZIP, RTLD_NOW | RTLD_LOCAL);
	int bad = 0;

	if (!h)
		return;
	/* POSIX: a function pointer travels through void * (dlsym's own contract) */
#define GET(field, name) bad = bad || !(*(void **)&zl.field = dlsym(h, name))
	GET(open, "zip_open");
	GET(open_from_source, "zip_open_from_source");
	GET(source_buffer_create, "zip_source_buffer_create");
	GET(source_free, "zip_source_free");
	GET(error_init, "zip_error_init");
	GET(error_fini, "zip_error_fini");
	GET(get_num_entries, "zip_get_num_entries");
	GET(get_name, "zip_get_name");
	GET(fopen_index, "zip_fopen_index");
	GET(fread, "zip_fread");
	GET(fclose, "zip_fclose");
	GET(discard, "zip_discard");
#undef GET
	if (bad) {
		dlclose(h);
		return;
	}
	zl_ok = 1; /* kept loaded: the process may read more zips */
}

/* libzip, loaded once; 0 when it cannot be */
static int zl_have(void)
{
	pthread_once(&zl_once, zl_load);
	return zl_ok;
}

static struct gfxstat_unwrap *root_of(struct gfxstat_unwrap *u)
{
	while (u->parent)
		u = u->parent;
	return u;
}

int gfxstat_unwrap_zip_support(void)
{
	return zl_have();
}

void gx_zip_start(struct gfxstat_unwrap *u)
{
	struct gfxstat_unwrap *r = root_of(u);
	struct stat st;

	if (!zl_have()) {
		GX_UW_INC(u, zip_skipped);
		u->mode = GX_UW_SKIP;
		return;
	}
	r->znames[0] = 0;
	gx_zip_reset(u);
	u->mode = GX_UW_ZIP;
	/* only the outermost level is the file itself (not a zip inside a gzip), and a
	 * collapsed pty stream is not the file's bytes either */
	u->zfile = u == r && r->zpath && !u->collapse && stat(r->zpath, &st) == 0 &&
		   S_ISREG(st.st_mode);
}

int gx_zip_feed(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	struct gfxstat_unwrap *r = root_of(u);
	size_t limit = r->zlimit ? r->zlimit : GX_UW_ZIP_MAX;

	u->zseen += n;
	if (u->zfile)
		return 0;
	if (u->nzbuf + n > limit) {
		GX_UW_INC(u, zip_too_big);
		gx_zip_reset(u);
		u->mode = GX_UW_SKIP;
		return 0;
	}
	if (u->nzbuf + n > u->capzbuf) {
		size_t cap = u->capzbuf ? u->capzbuf : (size_t)1 << 20;
		unsigned char *nb;

		while (cap < u->nzbuf + n)
			cap = cap > limit / 2 ? limit : cap * 2;
		nb = realloc(u->zbuf, cap);
		if (!nb)
			return GFXSTAT_E_NOMEM;
		u->zbuf = nb;
		u->capzbuf = cap;
	}
	memcpy(u->zbuf + u->nzbuf, p, n);
	u->nzbuf += n;
	return 0;
}

/* A member worth reading: skip folders and the metadata macOS and editors leave. */
static int is_file_member(const char *name)
{
	const char *base;
	size_t n = strlen(name);

	if (!n || name[n - 1] == '/' || strncmp(name, "__MACOSX/", 9) == 0)
		return 0;
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	return base[0] != '.';
}

static int is_trace_format(enum gfxstat_format f)
{
	switch (f) {
	case GFXSTAT_FMT_FTRACE_TEXT:
	case GFXSTAT_FMT_ATRACE:
	case GFXSTAT_FMT_ATRACE_Z:
	case GFXSTAT_FMT_SYSTRACE_HTML:
	case GFXSTAT_FMT_SYSTRACE_JS:
	case GFXSTAT_FMT_GZIP:
	case GFXSTAT_FMT_ZLIB:
	case GFXSTAT_FMT_UTF16LE:
	case GFXSTAT_FMT_UTF16BE:
	case GFXSTAT_FMT_PERFETTO:
	case GFXSTAT_FMT_GFXINFO:
	case GFXSTAT_FMT_SF_LATENCY:
		return 1;
	default:
		return 0;
	}
}

/* What a member holds, from its first bytes; -1 when it cannot be read. */
static int sniff_member(zip_t *za, zip_uint64_t i)
{
	unsigned char head[GX_UW_HEAD];
	zip_file_t *zf = zl.fopen_index(za, i, 0);
	zip_int64_t got;
	size_t n = 0;

	if (!zf)
		return -1;
	while (n < sizeof(head) && (got = zl.fread(zf, head + n, sizeof(head) - n)) > 0)
		n += (size_t)got;
	zl.fclose(zf);
	return (int)gfxstat_detect(head, n);
}

static void add_name(char *buf, size_t cap, const char *name)
{
	size_t n = strlen(buf), k = strlen(name);

	if (n && strcmp(buf + n - 3, "...") == 0)
		return;
	if (n + (n ? 2 : 0) + k + 4 > cap) {
		if (n + 4 < cap)
			memcpy(buf + n, "...", 4);
		return;
	}
	if (n) {
		memcpy(buf + n, ", ", 2);
		n += 2;
	}
	memcpy(buf + n, name, k + 1);
}

/* Pass member @i to the child level, then end it. */
static int read_member(struct gfxstat_unwrap *u, zip_t *za, zip_uint64_t i)
{
	struct gfxstat_unwrap *c = gx_uw_child(u, 0);
	zip_file_t *zf;
	zip_int64_t got;
	int rc = 0, rc2;

	if (!c)
		return GFXSTAT_E_NOMEM;
	if (!u->zout) {
		u->zout = malloc(GX_UW_ZOUT);
		if (!u->zout)
			return GFXSTAT_E_NOMEM;
	}
	zf = zl.fopen_index(za, i, 0);
	if (!zf) {
		GX_UW_INC(u, zip_damaged);
		return 0;
	}
	GX_UW_INC(u, zip_members);
	while (!rc && (got = zl.fread(zf, u->zout, GX_UW_ZOUT)) > 0)
		rc = gx_uw_input(c, u->zout, (size_t)got);
	if (!rc && got < 0)
		GX_UW_INC(u, corrupt); /* bad deflate data or CRC: what came before stays */
	zl.fclose(zf);
	rc2 = gx_uw_end(c);
	return rc ? rc : rc2;
}

int gx_zip_end(struct gfxstat_unwrap *u)
{
	struct gfxstat_unwrap *r = root_of(u);
	zip_t *za = NULL;
	zip_int64_t n, i;
	zip_uint64_t pick = 0, only = 0;
	int ntrace = 0, nfile = 0, rc = 0;

	if (u->zfile) {
		int zerr = 0;
		struct stat st;

		/* the file is the stream only if it still has the size that was fed */
		if (stat(r->zpath, &st) == 0 && (uint64_t)st.st_size == u->zseen)
			za = zl.open(r->zpath, ZIP_RDONLY, &zerr);
	} else if (u->nzbuf) {
		zip_error_t ze;
		zip_source_t *src;

		zl.error_init(&ze);
		src = zl.source_buffer_create(u->zbuf, u->nzbuf, 0, &ze);
		if (src) {
			za = zl.open_from_source(src, ZIP_RDONLY, &ze);
			if (!za)
				zl.source_free(src);
		}
		zl.error_fini(&ze);
	}
	if (!za) {
		GX_UW_INC(u, zip_damaged);
		return 0;
	}
	n = zl.get_num_entries(za, 0);
	for (i = 0; i < n; i++) {
		const char *name = zl.get_name(za, (zip_uint64_t)i, 0);
		int f;

		if (!name || !is_file_member(name))
			continue;
		nfile++;
		only = (zip_uint64_t)i;
		f = sniff_member(za, (zip_uint64_t)i);
		if (f >= 0 && is_trace_format((enum gfxstat_format)f)) {
			ntrace++;
			pick = (zip_uint64_t)i;
		}
	}
	if (ntrace == 1 || (ntrace == 0 && nfile == 1)) {
		rc = read_member(u, za, ntrace ? pick : only);
	} else {
		if (ntrace)
			GX_UW_INC(u, zip_several);
		else
			GX_UW_INC(u, zip_no_trace);
		for (i = 0; i < n; i++) {
			const char *name = zl.get_name(za, (zip_uint64_t)i, 0);

			if (name && is_file_member(name))
				add_name(r->znames, sizeof(r->znames), name);
		}
	}
	zl.discard(za);
	return rc;
}

#else /* no libzip: the phone build */

int gfxstat_unwrap_zip_support(void)
{
	return 0;
}

void gx_zip_start(struct gfxstat_unwrap *u)
{
	GX_UW_INC(u, zip_skipped);
	u->mode = GX_UW_SKIP;
}

int gx_zip_feed(struct gfxstat_unwrap *u, const unsigned char *p, size_t n)
{
	(void)u;
	(void)p;
	(void)n;
	return 0;
}

int gx_zip_end(struct gfxstat_unwrap *u)
{
	(void)u;
	return 0;
}

#endif

int gfxstat_unwrap_set_path(struct gfxstat_unwrap *u, const char *path)
{
	if (!u)
		return GFXSTAT_E_INVAL;
	free(u->zpath);
	u->zpath = NULL;
	if (!path || !strcmp(path, "-"))
		return 0;
	u->zpath = strdup(path);
	return u->zpath ? 0 : GFXSTAT_E_NOMEM;
}

void gfxstat_unwrap_set_zip_limit(struct gfxstat_unwrap *u, size_t bytes)
{
	if (u)
		u->zlimit = bytes;
}

const char *gfxstat_unwrap_zip_names(const struct gfxstat_unwrap *u)
{
	return u ? u->znames : "";
}
