/* SPDX-License-Identifier: MIT */
/*
 * An append-only store of bytes held to the input's end (the frames Perfetto and the model
 * keep to sort them at the end): its first blocks stay in memory, and past a budget the oldest
 * full blocks go to a temporary file with no name in the directory the caller names, so that
 * memory stops growing with the input while every byte comes back as it went in. The file
 * disappears with the process, even a killed one. With no directory, or where no file can be
 * made or written, the blocks simply stay in memory: the run goes on as it did before there
 * was a file.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../gx_local.h"

#define NO_FILE (-1)   /* none made yet */
#define NEVER_FILE (-2) /* none could be made or written: memory only */

void gx_spill_init(struct gx_spill *s, size_t keep_bytes, const char *dir)
{
	memset(s, 0, sizeof(*s));
	s->keep = keep_bytes / GX_SPILL_BLOCK ? keep_bytes / GX_SPILL_BLOCK : 1;
	s->dir = dir;
	s->fd = dir && *dir ? NO_FILE : NEVER_FILE;
}

void gx_spill_free(struct gx_spill *s)
{
	size_t i, keep = s->keep;
	const char *dir = s->dir;

	for (i = 0; i < s->nblock; i++)
		free(s->block[i].p);
	free(s->block);
	for (i = 0; i < GX_SPILL_CACHE; i++)
		free(s->cache[i]);
	if (s->fd >= 0)
		close(s->fd);
	gx_spill_init(s, keep * GX_SPILL_BLOCK, dir);
}

/* A file with no name in @dir: O_TMPFILE where the kernel and the file system have it, else
 * a named one removed at once. */
int gx_tmpfile(const char *dir)
{
	char path[4096];
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
#endif
	if ((size_t)snprintf(path, sizeof(path), "%s/gfxstat-spill-XXXXXX", dir) >= sizeof(path))
		return -1;
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	fcntl(fd, F_SETFD, FD_CLOEXEC); /* adb and the shell commands gfxstat runs get none */
	return fd;
}

/* The whole of @n bytes at @off written (@out) or read: pwrite()/pread() may do part of it. */
int gx_io_all(int fd, void *buf, size_t n, off_t off, int out)
{
	unsigned char *p = buf;

	while (n) {
		ssize_t k = out ? pwrite(fd, p, n, off) : pread(fd, p, n, off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
		off += k;
	}
	return 0;
}

/* Past the budget: the oldest block still in memory goes to the file (at its own place). */
static void spill_oldest(struct gx_spill *s)
{
	size_t b;

	while (s->oldest + 1 < s->nblock && !s->block[s->oldest].p) /* given back */
		s->oldest++;
	b = s->oldest;
	if (s->fd == NEVER_FILE || b + 1 >= s->nblock)
		return;
	if (s->fd == NO_FILE) {
		s->fd = gx_tmpfile(s->dir);
		if (s->fd < 0) {
			s->fd = NEVER_FILE;
			return;
		}
	}
	if ((uint64_t)b * GX_SPILL_BLOCK > (uint64_t)INT64_MAX / 2 ||
	    gx_io_all(s->fd, s->block[b].p, GX_SPILL_BLOCK, (off_t)b * (off_t)GX_SPILL_BLOCK, 1)) {
		/* a full disk: what is left stays in memory, what went out is still there */
		s->fd_broken = 1;
		return;
	}
	free(s->block[b].p);
	s->block[b].p = NULL;
	s->oldest++;
	s->in_mem--;
	s->spilled++;
}

unsigned char *gx_spill_reserve(struct gx_spill *s, size_t n, uint64_t *off)
{
	if (n > GX_SPILL_BLOCK)
		return NULL;
	if (!s->nblock || s->used + n > GX_SPILL_BLOCK) {
		unsigned char *b;

		if (gx_grow((void **)&s->block, &s->cap, s->nblock, sizeof(*s->block), 64))
			return NULL;
		/* zeroed: a block goes to the file whole, the tail no piece filled too (calloc()
		 * of a block this size is fresh pages from the kernel, already zero) */
		b = calloc(1, GX_SPILL_BLOCK);
		if (!b)
			return NULL;
		s->block[s->nblock].p = b;
		s->block[s->nblock++].pieces = 0;
		s->in_mem++;
		s->used = 0;
		/* the block just filled is older than this one: it may go */
		if (s->in_mem > s->keep && !s->fd_broken && s->oldest + 1 < s->nblock)
			spill_oldest(s);
	}
	*off = (uint64_t)(s->nblock - 1) * GX_SPILL_BLOCK + s->used;
	return s->block[s->nblock - 1].p + s->used;
}

void gx_spill_commit(struct gx_spill *s, size_t n)
{
	s->used += n;
	s->block[s->nblock - 1].pieces++;
}

void gx_spill_done(struct gx_spill *s, uint64_t off)
{
	size_t b = (size_t)(off / GX_SPILL_BLOCK);
	struct gx_spill_block *k;

	if (b >= s->nblock)
		return;
	k = &s->block[b];
	if (!k->pieces || --k->pieces)
		return;
	if (k->p && b + 1 < s->nblock) { /* not the one being filled */
		free(k->p);
		k->p = NULL;
		s->in_mem--;
	}
}

const unsigned char *gx_spill_at(struct gx_spill *s, uint64_t off)
{
	size_t b = (size_t)(off / GX_SPILL_BLOCK), at = (size_t)(off % GX_SPILL_BLOCK), i, lru = 0;

	if (b >= s->nblock)
		return NULL;
	if (s->block[b].p)
		return s->block[b].p + at;
	for (i = 0; i < GX_SPILL_CACHE; i++) {
		if (s->cache[i] && s->cached[i] == b + 1) {
			s->age[i] = ++s->clock;
			return s->cache[i] + at;
		}
		if (s->age[i] < s->age[lru])
			lru = i;
	}
	if (!s->cache[lru]) {
		s->cache[lru] = malloc(GX_SPILL_BLOCK);
		if (!s->cache[lru])
			return NULL;
	}
	s->cached[lru] = 0;
	if (gx_io_all(s->fd, s->cache[lru], GX_SPILL_BLOCK, (off_t)b * (off_t)GX_SPILL_BLOCK, 0))
		return NULL;
	s->cached[lru] = b + 1;
	s->age[lru] = ++s->clock;
	return s->cache[lru] + at;
}
