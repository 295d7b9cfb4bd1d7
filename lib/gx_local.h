/* SPDX-License-Identifier: MIT */
/*
 * Library-internal helpers of lib/util/, which every stage may use. Not installed, not for
 * src/. Each stage's own internals are in its folder's *_local.h.
 */
#ifndef GX_LOCAL_H
#define GX_LOCAL_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h> /* off_t */
#include <string.h>

#include "gfxstat/gfxstat.h"

#if defined(__GNUC__)
#define GFXSTAT_HIDDEN __attribute__((visibility("hidden")))
#define GX_LIKELY(x) __builtin_expect(!!(x), 1)
#define GX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define GFXSTAT_HIDDEN
#define GX_LIKELY(x) (x)
#define GX_UNLIKELY(x) (x)
#endif

/*
 * The widest time any clock gives, either side of zero: 2^60 ns, 36 years of uptime. A time
 * beyond it is damage, not a frame; within it, the difference of two times (2^61 at most)
 * and three times that fit an int64_t. The longest refresh period taken: 2^40 ns (18
 * minutes), so a few periods of it add to such a time without overflow.
 */
#define GX_NS_LIMIT ((int64_t)1 << 60)
#define GX_PERIOD_LIMIT ((int64_t)1 << 40)

#define GX_STAT_INC(st, name)                                                              \
	do {                                                                               \
		if (st)                                                                    \
			(st)->v[GFXSTAT_STAT_##name]++;                                    \
	} while (0)
#define GX_STAT_ADD(st, name, k)                                                           \
	do {                                                                               \
		if (st)                                                                    \
			(st)->v[GFXSTAT_STAT_##name] += (k);                               \
	} while (0)

/*
 * The name, doc and severity accessors of a counter table written as F(name, sev, "doc"),
 * as GFXSTAT_STATS is: one definition for every parser's counters.
 */
#define GX_COUNTER_ROW__(name, sev, doc) { #name, doc, GFXSTAT_SEV_##sev },
#define GX_COUNTER_TABLE(TABLE, ENUM, N, NAME_FN, DOC_FN, SEV_FN)                          \
	static const struct {                                                              \
		const char *name, *doc;                                                    \
		enum gfxstat_severity sev;                                                 \
	} NAME_FN##_rows[] = { TABLE(GX_COUNTER_ROW__) };                                  \
	const char *NAME_FN(ENUM c)                                                        \
	{                                                                                  \
		return (unsigned)c < (N) ? NAME_FN##_rows[c].name : "?";                   \
	}                                                                                  \
	const char *DOC_FN(ENUM c)                                                         \
	{                                                                                  \
		return (unsigned)c < (N) ? NAME_FN##_rows[c].doc : "?";                    \
	}                                                                                  \
	enum gfxstat_severity SEV_FN(ENUM c)                                               \
	{                                                                                  \
		return (unsigned)c < (N) ? NAME_FN##_rows[c].sev : GFXSTAT_SEV_INFO;       \
	}

/* A growable buffer with a hard size limit (curl dynbuf's "toobig"). */
struct gx_buf {
	char *p;
	size_t len;
	size_t cap;
	size_t max;
};

GFXSTAT_HIDDEN void gx_buf_init(struct gx_buf *b, size_t max);
GFXSTAT_HIDDEN void gx_buf_free(struct gx_buf *b);
/* Return: 0, GFXSTAT_E_LIMIT (nothing appended) or GFXSTAT_E_NOMEM. */
GFXSTAT_HIDDEN int gx_buf_add(struct gx_buf *b, const void *p, size_t n);
GFXSTAT_HIDDEN int gx_buf_addc(struct gx_buf *b, char c);
static inline void gx_buf_reset(struct gx_buf *b)
{
	b->len = 0;
}

/* An array *@p of *@cap elements of @size: room for @need elements, the capacity doubled (from
 * @first the first time) until they fit. Return 0, or GFXSTAT_E_NOMEM (*@p and *@cap unchanged)
 * also when the capacity or its byte count would overflow size_t. Pass (void **)&arr only for a
 * plain object pointer arr (as every caller does). */
GFXSTAT_HIDDEN int gx_grow_to(void **p, size_t *cap, size_t need, size_t size, size_t first);
/* The same with @n elements used: room for one more. */
GFXSTAT_HIDDEN int gx_grow(void **p, size_t *cap, size_t n, size_t size, size_t first);
/* An array emptied from its end, @n elements left: its capacity given back down to @n once
 * @step or more are unused (where realloc() fails it stays as it was). */
GFXSTAT_HIDDEN void gx_shrink(void **p, size_t *cap, size_t n, size_t size, size_t step);

/*
 * Bytes held to the input's end (lib/util/spill.c): appended in pieces of at most a block,
 * each piece whole in one block; past @keep_bytes the oldest blocks go to an unnamed temporary
 * file in @dir (memory only with no @dir or where none can be written), and come back through
 * a cache of GX_SPILL_CACHE blocks.
 */
#define GX_SPILL_BLOCK ((size_t)1 << 18)
#define GX_SPILL_CACHE 4
struct gx_spill_block {
	unsigned char *p;      /* NULL once it is in the file, or given back */
	uint32_t pieces;       /* committed and not yet done (gx_spill_done()) */
};
struct gx_spill {
	struct gx_spill_block *block;
	size_t nblock, cap;
	size_t used;           /* bytes in use of the last block */
	size_t in_mem, keep;   /* blocks in memory; past keep, the oldest go to the file */
	size_t oldest;         /* the first block still in memory */
	size_t spilled;        /* blocks in the file */
	const char *dir;       /* where the file goes (borrowed); NULL: memory only */
	int fd;                /* the file; -1 none yet, -2 none can be made */
	int fd_broken;         /* a write failed: the rest stays in memory */
	unsigned char *cache[GX_SPILL_CACHE];
	size_t cached[GX_SPILL_CACHE]; /* block index + 1; 0 = empty */
	uint64_t age[GX_SPILL_CACHE], clock;
};

GFXSTAT_HIDDEN void gx_spill_init(struct gx_spill *s, size_t keep_bytes, const char *dir);
/* Everything given back, the file closed; ready to be used again with the same budget and
 * directory. */
GFXSTAT_HIDDEN void gx_spill_free(struct gx_spill *s);
/* Room for @n (<= GX_SPILL_BLOCK) bytes at the end, at offset *@off; then gx_spill_commit()
 * with what was used of it. Return: NULL when out of memory. */
GFXSTAT_HIDDEN unsigned char *gx_spill_reserve(struct gx_spill *s, size_t n, uint64_t *off);
GFXSTAT_HIDDEN void gx_spill_commit(struct gx_spill *s, size_t n);
/* The bytes at @off, to the end of the piece put there; valid until the next call. Return:
 * NULL when they cannot be read back (out of memory, a failing disk). */
GFXSTAT_HIDDEN const unsigned char *gx_spill_at(struct gx_spill *s, uint64_t off);
/* The piece at @off will not be read again: once every piece of its block is, the block's
 * memory goes back (the block being filled stays). Call it once per piece, or never. */
GFXSTAT_HIDDEN void gx_spill_done(struct gx_spill *s, uint64_t off);

/* A file with no name in @dir (O_TMPFILE, else one removed at once), closed on exec; -1 when
 * none can be made (lib/util/spill.c). */
GFXSTAT_HIDDEN int gx_tmpfile(const char *dir);
/* All @n bytes at @off written (@out) or read, as pwrite()/pread() may do part. Return: 0 or
 * -1. */
GFXSTAT_HIDDEN int gx_io_all(int fd, void *buf, size_t n, off_t off, int out);

/*
 * One worker thread running jobs in submission order, ahead of the caller who takes them back
 * in that order (lib/util/ahead.c). The jobs' data are the caller's array of @nslots slots:
 * fill slot gx_ahead_next() (GX_AHEAD_FULL: none free), then gx_ahead_submit(); the thread
 * calls @run(@user, slot); gx_ahead_take() waits for the oldest and returns its slot, the
 * caller's again. Return of gx_ahead_new(): NULL when no thread can be made.
 */
#define GX_AHEAD_FULL ((size_t)-1)
struct gx_ahead;
GFXSTAT_HIDDEN struct gx_ahead *gx_ahead_new(size_t nslots, void (*run)(void *user, size_t slot),
					     void *user);
/* Jobs submitted and not taken back. */
GFXSTAT_HIDDEN size_t gx_ahead_pending(const struct gx_ahead *a);
GFXSTAT_HIDDEN size_t gx_ahead_next(const struct gx_ahead *a);
GFXSTAT_HIDDEN void gx_ahead_submit(struct gx_ahead *a);
/* The slot gx_ahead_take() will return next (with one pending), without waiting. */
GFXSTAT_HIDDEN size_t gx_ahead_head(const struct gx_ahead *a);
GFXSTAT_HIDDEN size_t gx_ahead_take(struct gx_ahead *a);
/* The thread stopped once the jobs submitted have run; NULL does nothing. */
GFXSTAT_HIDDEN void gx_ahead_free(struct gx_ahead *a);

/* String -> dense index (insertion order) with interned keys. */
struct gx_strmap_key {
	char *p; /* NUL-terminated copy */
	size_t n;
	uint64_t hash;
};

struct gx_strmap {
	struct gx_strmap_key *keys;
	size_t n, cap, max_keys;
	uint32_t *slots; /* index + 1; 0 = empty */
	size_t nslots;
};

GFXSTAT_HIDDEN int gx_strmap_init(struct gx_strmap *m, size_t max_keys);
GFXSTAT_HIDDEN void gx_strmap_free(struct gx_strmap *m);
/* Return: the index, or -1 when absent. */
GFXSTAT_HIDDEN long gx_strmap_find(const struct gx_strmap *m, const char *p, size_t n);
/* Return: the index (new or old), GFXSTAT_E_LIMIT when full, or GFXSTAT_E_NOMEM. */
GFXSTAT_HIDDEN long gx_strmap_add(struct gx_strmap *m, const char *p, size_t n, int *created);

/* @iv in whole periods @p, at least one: the vsyncs an interval between two frames spans.
 * App-side FPS counts these (the analysis' and the model's rate for inspect alike). */
static inline int64_t gx_whole_periods(int64_t iv, int64_t p)
{
	int64_t q = p > 0 ? (iv + p / 2) / p : 1;

	return (q < 1 ? 1 : q) * p;
}

/* qsort comparator of int64_t values, ascending (lib/util/cmp.c). */
GFXSTAT_HIDDEN int gx_cmp_i64(const void *a, const void *b);
/* @a[0 .. @n) ascending, in place: what qsort with gx_cmp_i64 gives, faster. */
GFXSTAT_HIDDEN void gx_sort_i64(int64_t *a, size_t n);
/* @n records of @size (<= GX_SORT_MAX) bytes at @base, in place, by @cmp: for a total order,
 * what qsort() gives, without its buffer as large as the array. */
#define GX_SORT_MAX 64
GFXSTAT_HIDDEN void gx_sort(void *base, size_t n, size_t size,
			    int (*cmp)(const void *, const void *));

/* Sift @heap[@i] down a binary min-heap of @n indexes ordered by @before(@ctx, a, b) (a goes
 * first): the merges of sorted streams (lib/util/xsort.c, the metrics' apps). Inline, so
 * that a constant @before is inlined too. */
static inline void gx_heap_sift(size_t *heap, size_t n, size_t i,
				int (*before)(void *ctx, size_t a, size_t b), void *ctx)
{
	for (;;) {
		size_t c = 2 * i + 1, t;

		if (c >= n)
			return;
		if (c + 1 < n && before(ctx, heap[c + 1], heap[c]))
			c++;
		if (!before(ctx, heap[c], heap[i]))
			return;
		t = heap[i];
		heap[i] = heap[c];
		heap[c] = t;
		i = c;
	}
}

/*
 * Records of @size bytes (<= GX_SORT_MAX with a comparator) sorted past memory
 * (lib/util/xsort.c): put in any order (gx_xsort_put()), then gx_xsort_sorted(), then read
 * back in @cmp's order (gx_xsort_next(); the order of ties is defined only across runs: give
 * a total order); with @cmp NULL, in the order put. Runs of @run_bytes are sorted in memory
 * and go to an unnamed temporary file in @dir (memory only with no @dir or where none can be
 * written); the merge reads each through a small buffer. The record gx_xsort_next() returns
 * is read in place: valid until the next call.
 */
struct gx_xrun {
	unsigned char *mem;    /* the run in memory, or NULL: in the file at @off */
	uint64_t off;
	size_t n, pos;         /* records, records read */
	unsigned char *buf;    /* the file's run: its records buf[bi .. bn) read ahead */
	size_t bi, bn;
};
/* The file of the runs: an xsort's own, or one several share (gx_xsort_init_shared()). */
struct gx_xfile {
	const char *dir;       /* borrowed */
	int fd;                /* -1 none yet, -2 none can be made */
	uint64_t end;          /* bytes in it */
};
struct gx_xsort {
	size_t size, per_run;
	int (*cmp)(const void *, const void *);
	struct gx_xfile own;
	struct gx_xfile *file; /* NULL: own */
	int failed;            /* GFXSTAT_E_IO or _NOMEM: a read back failed */
	int keep;              /* set before reading: the records stay for gx_xsort_rewind() */
	uint64_t to_file;      /* bytes written to the file, merges included */
	uint64_t count;        /* records put */
	unsigned char *fill;   /* the run being put */
	size_t nfill, capfill;
	struct gx_xrun *run;
	size_t nrun, caprun, cur;
	size_t *heap, nheap;   /* runs by their next record */
	int taken;             /* gx_xsort_next() returned a record not yet read past */
};
GFXSTAT_HIDDEN void gx_xsort_init(struct gx_xsort *x, size_t size,
				  int (*cmp)(const void *, const void *), size_t run_bytes,
				  const char *dir);
/* The same, its runs in @f, which many sorts share (one file, not one each) and which must
 * outlive them: gx_xfile_init() first, gx_xfile_close() after them all. */
GFXSTAT_HIDDEN void gx_xsort_init_shared(struct gx_xsort *x, size_t size,
					 int (*cmp)(const void *, const void *), size_t run_bytes,
					 struct gx_xfile *f);
GFXSTAT_HIDDEN void gx_xfile_init(struct gx_xfile *f, const char *dir);
GFXSTAT_HIDDEN void gx_xfile_close(struct gx_xfile *f);
/* Return: 0 or GFXSTAT_E_NOMEM. */
GFXSTAT_HIDDEN int gx_xsort_put(struct gx_xsort *x, const void *rec);
/* The records put so far written out as a run now (to the file, where one can be written),
 * the memory they took given back: many sorts that share a budget (the metrics' stores).
 * Return: 0 or GFXSTAT_E_NOMEM. */
GFXSTAT_HIDDEN int gx_xsort_flush(struct gx_xsort *x);
/* No more records: the merge set up. Return: 0, GFXSTAT_E_NOMEM or GFXSTAT_E_IO. */
GFXSTAT_HIDDEN int gx_xsort_sorted(struct gx_xsort *x);
/* The next record (valid until the next call), or NULL at the end or when @x->failed. */
GFXSTAT_HIDDEN const void *gx_xsort_next(struct gx_xsort *x);
/* Read again from the first record (@x->keep set before reading). Return: 0,
 * GFXSTAT_E_INVAL without @x->keep, or GFXSTAT_E_NOMEM. */
GFXSTAT_HIDDEN int gx_xsort_rewind(struct gx_xsort *x);
/* Everything given back, the file closed; ready to be used again as initialised. */
GFXSTAT_HIDDEN void gx_xsort_free(struct gx_xsort *x);

/* A bounded writer that counts what it would write past the end, like snprintf. */
struct gx_out {
	char *p;
	size_t cap, len;
};

/* inline: a row is dozens of short puts (a comma, a field), each a call otherwise */
static inline void gx_out_put(struct gx_out *o, const char *s, size_t n)
{
	if (o->len < o->cap) {
		size_t room = o->cap - o->len;

		memcpy(o->p + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static inline void gx_out_puts(struct gx_out *o, const char *s)
{
	gx_out_put(o, s, strlen(s));
}
GFXSTAT_HIDDEN void gx_out_i64(struct gx_out *o, int64_t v);
/* A quoted CSV field, '"' inside doubled (RFC 4180; the seed's fields are always quoted). */
GFXSTAT_HIDDEN void gx_out_quoted(struct gx_out *o, struct gfxstat_str s);
/* Append '\n', NUL-terminate within the buffer; return the full length (as snprintf). */
GFXSTAT_HIDDEN size_t gx_out_line(struct gx_out *o);

static inline int gx_str_eq(struct gfxstat_str s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && memcmp(s.p, lit, n) == 0;
}

static inline int gx_str_has(struct gfxstat_str s, const char *lit, size_t litn)
{
	size_t i;

	if (litn > s.n)
		return 0;
	for (i = 0; i + litn <= s.n; i++) {
		const char *q = memchr(s.p + i, lit[0], s.n - litn + 1 - i);

		if (!q)
			return 0;
		i = (size_t)(q - s.p);
		if (memcmp(q, lit, litn) == 0)
			return 1;
	}
	return 0;
}
#define GX_STR_HAS(s, lit) gx_str_has((s), (lit), sizeof(lit) - 1)

static inline int gx_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* FNV-1a; keys here are short layer names. */
static inline uint64_t gx_hash(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 1469598103934665603ULL;

	while (n--) {
		h ^= *s++;
		h *= 1099511628211ULL;
	}
	return h;
}

#endif
