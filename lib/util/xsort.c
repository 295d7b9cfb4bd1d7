/* SPDX-License-Identifier: MIT */
/*
 * Fixed-size records sorted without holding them all (the model's frames held to a capture's
 * end): they are put in any order and read back sorted. Each run of the records put, up to a
 * budget, is sorted in memory and goes to an unnamed temporary file (spill.c's); the end
 * merges the runs through a small buffer each, in passes of at most XSORT_FANIN runs, so that
 * memory stays the budget and the buffers however many records there are. gx_sort() is not
 * stable: a comparator that is a total order (the model's ends in the arrival order) gives
 * one result however the records fell into runs. The last run, and a single one, never leave
 * memory; with no directory, or where no file can be made or written, every run stays in
 * memory and the merge is the same. With no comparator the records come back in the order
 * they were put (a list that spills). Kept (@keep), they can be read again.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../gx_local.h"

/* runs merged at once; past it, merged into longer runs first (another pass over the file) */
#define XSORT_FANIN 64
/* a run's read buffer in the file's merge */
#define XSORT_READ ((size_t)32 << 10)
#define NO_FILE (-1)
#define NEVER_FILE (-2)

void gx_xfile_init(struct gx_xfile *f, const char *dir)
{
	f->dir = dir;
	f->fd = dir && *dir ? NO_FILE : NEVER_FILE;
	f->end = 0;
}

void gx_xfile_close(struct gx_xfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	gx_xfile_init(f, f->dir);
}

void gx_xsort_init_shared(struct gx_xsort *x, size_t size, int (*cmp)(const void *, const void *),
			  size_t run_bytes, struct gx_xfile *f)
{
	memset(x, 0, sizeof(*x));
	x->size = size;
	x->cmp = cmp;
	x->per_run = run_bytes / size ? run_bytes / size : 1;
	x->file = f;
	gx_xfile_init(&x->own, NULL);
}

void gx_xsort_init(struct gx_xsort *x, size_t size, int (*cmp)(const void *, const void *),
		   size_t run_bytes, const char *dir)
{
	gx_xsort_init_shared(x, size, cmp, run_bytes, NULL);
	gx_xfile_init(&x->own, dir);
}

/* The file its runs go to: its own, or the one it shares (NULL: own, so that the struct can
 * move) */
static struct gx_xfile *xf(struct gx_xsort *x)
{
	return x->file ? x->file : &x->own;
}

void gx_xsort_free(struct gx_xsort *x)
{
	size_t i;

	for (i = 0; i < x->nrun; i++) {
		free(x->run[i].mem);
		free(x->run[i].buf);
	}
	free(x->run);
	free(x->fill);
	free(x->heap);
	if (x->file)
		gx_xsort_init_shared(x, x->size, x->cmp, x->per_run * x->size, x->file);
	else {
		gx_xfile_close(&x->own);
		gx_xsort_init(x, x->size, x->cmp, x->per_run * x->size, x->own.dir);
	}
}

static struct gx_xrun *new_run(struct gx_xsort *x)
{
	struct gx_xrun *r;

	if (gx_grow((void **)&x->run, &x->caprun, x->nrun, sizeof(*x->run), 2))
		return NULL;
	r = &x->run[x->nrun++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* A run sorted: int64 values by the sort made for them (no call per comparison). */
static void sort_run(struct gx_xsort *x, unsigned char *a, size_t n)
{
	if (x->cmp == gx_cmp_i64)
		gx_sort_i64((int64_t *)(void *)a, n);
	else if (x->cmp)
		gx_sort(a, n, x->size, x->cmp);
}

/* The full run being put, sorted, to the file (or kept in memory where it cannot go). */
static int close_run(struct gx_xsort *x)
{
	struct gx_xfile *f = xf(x);
	struct gx_xrun *r;

	sort_run(x, x->fill, x->nfill);
	r = new_run(x);
	if (!r)
		return GFXSTAT_E_NOMEM;
	r->n = x->nfill;
	if (f->fd == NO_FILE) {
		f->fd = gx_tmpfile(f->dir);
		if (f->fd < 0)
			f->fd = NEVER_FILE;
	}
	if (f->fd >= 0 && !gx_io_all(f->fd, x->fill, x->nfill * x->size, (off_t)f->end, 1)) {
		r->off = f->end;
		f->end += (uint64_t)x->nfill * x->size;
		x->to_file += (uint64_t)x->nfill * x->size;
	} else { /* a full disk: this run stays in memory, the next gets a buffer of its own */
		r->mem = x->fill;
		x->fill = NULL;
		x->capfill = 0;
	}
	x->nfill = 0;
	return 0;
}

int gx_xsort_put(struct gx_xsort *x, const void *rec)
{
	if (x->nfill == x->per_run) {
		int rc = close_run(x);

		if (rc)
			return rc;
	}
	if (x->nfill == x->capfill) {
		/* from a few: thousands of sorts of a few records (a metrics store per layer)
		 * each take little */
		size_t cap = x->capfill ? x->capfill * 2 : 8;

		if (cap > x->per_run)
			cap = x->per_run;
		if (gx_grow_to((void **)&x->fill, &x->capfill, cap, x->size, cap))
			return GFXSTAT_E_NOMEM;
	}
	if (x->size == sizeof(int64_t)) /* the metrics' sorts: no call to copy 8 bytes */
		memcpy(x->fill + x->nfill * sizeof(int64_t), rec, sizeof(int64_t));
	else
		memcpy(x->fill + x->nfill * x->size, rec, x->size);
	x->nfill++;
	x->count++;
	return 0;
}

/* Records a buffer of the file's reads and writes holds: XSORT_READ bytes, at least one. */
static size_t per_buffer(const struct gx_xsort *x)
{
	return XSORT_READ / x->size ? XSORT_READ / x->size : 1;
}

/* @r's next records read from the file into its buffer. Return: the first, or NULL. */
static const unsigned char *refill(struct gx_xsort *x, struct gx_xrun *r)
{
	size_t per = per_buffer(x), k = per;

	if (k > r->n - r->pos)
		k = r->n - r->pos;
	if (!r->buf) {
		r->buf = malloc(per * x->size);
		if (!r->buf) {
			x->failed = GFXSTAT_E_NOMEM;
			return NULL;
		}
	}
	if (gx_io_all(xf(x)->fd, r->buf, k * x->size,
		      (off_t)(r->off + (uint64_t)r->pos * x->size), 0)) {
		x->failed = GFXSTAT_E_IO;
		return NULL;
	}
	r->bi = 0;
	r->bn = k;
	return r->buf;
}

int gx_xsort_flush(struct gx_xsort *x)
{
	int rc = x->nfill ? close_run(x) : 0;

	free(x->fill);
	x->fill = NULL;
	x->nfill = x->capfill = 0;
	return rc;
}

/* The record @r reads next; NULL once read. */
static inline const unsigned char *head(struct gx_xsort *x, struct gx_xrun *r)
{
	if (r->pos == r->n)
		return NULL;
	if (r->mem)
		return r->mem + r->pos * x->size;
	if (r->bi < r->bn)
		return r->buf + r->bi * x->size;
	return refill(x, r);
}

/* @r's head read: its memory goes back once the run is (unless @x keeps it to read again). */
static inline void advance(struct gx_xsort *x, struct gx_xrun *r)
{
	r->pos++;
	if (r->mem) {
		if (r->pos == r->n && !x->keep) {
			free(r->mem);
			r->mem = NULL;
		}
		return;
	}
	if (++r->bi == r->bn && r->pos == r->n) {
		free(r->buf);
		r->buf = NULL;
	}
}

/* Runs @a before @b: their heads, then the order they were put. */
static int before(void *ctx, size_t a, size_t b)
{
	struct gx_xsort *x = ctx;
	const void *p = head(x, &x->run[a]), *q = head(x, &x->run[b]);
	int c;

	if (x->cmp == gx_cmp_i64) {
		int64_t u = *(const int64_t *)p, v = *(const int64_t *)q;

		c = (u > v) - (u < v);
	} else {
		c = x->cmp(p, q);
	}
	return c < 0 || (c == 0 && a < b);
}

static void sift(struct gx_xsort *x, size_t i)
{
	gx_heap_sift(x->heap, x->nheap, i, before, x);
}

/* The heap of runs [@lo, @hi) with a record left, by their heads. */
static int heap_runs(struct gx_xsort *x, size_t lo, size_t hi)
{
	size_t i;

	free(x->heap);
	x->heap = malloc((hi - lo ? hi - lo : 1) * sizeof(*x->heap));
	if (!x->heap)
		return GFXSTAT_E_NOMEM;
	x->nheap = 0;
	for (i = lo; i < hi; i++) {
		if (head(x, &x->run[i]))
			x->heap[x->nheap++] = i;
		else if (x->failed)
			return x->failed;
	}
	for (i = x->nheap / 2; i-- > 0;)
		sift(x, i);
	return 0;
}

/* The record returned last is read past only now: it stays where it is (in its run's memory
 * or read buffer, not copied) until the caller asks for the next. */
static void drop_taken(struct gx_xsort *x)
{
	struct gx_xrun *r;

	if (!x->taken)
		return;
	x->taken = 0;
	if (!x->cmp) {
		advance(x, &x->run[x->cur]);
		return;
	}
	r = &x->run[x->heap[0]];
	advance(x, r);
	if (!head(x, r)) {
		if (x->failed) {
			x->nheap = 0;
			return;
		}
		x->heap[0] = x->heap[--x->nheap];
	}
	sift(x, 0);
}

/* The smallest head of the heap; NULL once every run is read (or x->failed). */
static const void *pop(struct gx_xsort *x)
{
	drop_taken(x);
	if (!x->nheap)
		return NULL;
	x->taken = 1;
	return head(x, &x->run[x->heap[0]]);
}

/* Runs [0, XSORT_FANIN) of the file merged into one at its end, in their place. */
static int merge_first(struct gx_xsort *x)
{
	struct gx_xfile *f = xf(x);
	unsigned char *w;
	size_t per = per_buffer(x), nw = 0, i;
	struct gx_xrun m = { 0 };
	const void *p;
	int rc;

	w = malloc(per * x->size);
	if (!w)
		return GFXSTAT_E_NOMEM;
	m.off = f->end;
	rc = heap_runs(x, 0, XSORT_FANIN);
	while (!rc && (p = pop(x))) {
		memcpy(w + nw * x->size, p, x->size);
		if (++nw == per) {
			if (gx_io_all(f->fd, w, nw * x->size, (off_t)(m.off + m.n * x->size), 1))
				rc = GFXSTAT_E_IO;
			m.n += nw;
			nw = 0;
		}
	}
	if (!rc && x->failed)
		rc = x->failed;
	if (!rc && nw && gx_io_all(f->fd, w, nw * x->size, (off_t)(m.off + m.n * x->size), 1))
		rc = GFXSTAT_E_IO;
	free(w);
	if (rc)
		return rc;
	m.n += nw;
	f->end += (uint64_t)m.n * x->size;
	x->to_file += (uint64_t)m.n * x->size;
	for (i = 0; i < XSORT_FANIN; i++) {
		free(x->run[i].mem);
		free(x->run[i].buf);
	}
	/* first, as it holds the runs put first: ties keep their order */
	memmove(x->run + 1, x->run + XSORT_FANIN, (x->nrun - XSORT_FANIN) * sizeof(*x->run));
	x->nrun -= XSORT_FANIN - 1;
	x->run[0] = m;
	return 0;
}

int gx_xsort_sorted(struct gx_xsort *x)
{
	struct gx_xrun *r;
	int rc;

	if (x->nfill) { /* the last run stays in memory, no larger than it is */
		sort_run(x, x->fill, x->nfill);
		if (x->capfill > x->nfill) {
			unsigned char *p = realloc(x->fill, x->nfill * x->size);

			if (p)
				x->fill = p;
		}
		r = new_run(x);
		if (!r)
			return GFXSTAT_E_NOMEM;
		r->n = x->nfill;
		r->mem = x->fill;
		x->fill = NULL;
		x->nfill = x->capfill = 0;
	}
	if (!x->cmp)
		return 0;
	/* only the runs in the file take a buffer each (those in memory are read in place): past
	 * XSORT_FANIN, the first ones are merged into one first */
	while (xf(x)->fd >= 0 && x->nrun > XSORT_FANIN) {
		rc = merge_first(x);
		if (rc)
			return rc;
	}
	return heap_runs(x, 0, x->nrun);
}

const void *gx_xsort_next(struct gx_xsort *x)
{
	const unsigned char *p;

	if (x->cmp)
		return pop(x);
	drop_taken(x);
	while (x->cur < x->nrun) {
		struct gx_xrun *r = &x->run[x->cur];

		p = head(x, r);
		if (p) {
			x->taken = 1;
			return p;
		}
		if (x->failed)
			return NULL;
		x->cur++;
	}
	return NULL;
}

int gx_xsort_rewind(struct gx_xsort *x)
{
	size_t i;

	if (!x->keep)
		return GFXSTAT_E_INVAL;
	for (i = 0; i < x->nrun; i++) {
		x->run[i].pos = x->run[i].bi = x->run[i].bn = 0;
		free(x->run[i].buf);
		x->run[i].buf = NULL;
	}
	x->cur = 0;
	x->failed = 0;
	x->taken = 0;
	return x->cmp ? heap_runs(x, 0, x->nrun) : 0;
}
