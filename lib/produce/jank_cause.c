/* SPDX-License-Identifier: MIT */
/*
 * Why a frame was late. From traces: the app's main-thread Choreographer#doFrame and its
 * RenderThread DrawFrame that produced the frame, with their longest inner sections; when
 * both were within budget, SurfaceFlinger/GPU. From framestats: the FrameMetrics phase that
 * took more than half the frame budget (Taobao's rule). From FrameTimeline: Android's own
 * jank type. With a thread-state tracker set (gfxstat_causes_set_thread_states()), each
 * doFrame and DrawFrame also times its thread, and jank_class.c gives the frame one class.
 * A layer drawn by a thread of the app's own (no doFrame or DrawFrame: a game engine, a
 * GLSurfaceView, a decoder) is explained by that thread's work between its queueBuffers.
 */
#include <stdio.h>
#include <stdlib.h>

#include "produce_local.h"
#include "jank_class_local.h"
#include "gfxstat/gfxstat_perfetto.h"

#define NAME_MAX_LEN 64
#define PATH_LEN 128 /* the longest section inside, and its own longest inside, nested */
#define MAX_DEPTH 32
#define MAX_THREADS 16384
#define HISTORY 64 /* recent frames of work per process */
#define MAX_LAYERS 4096
#define QUEUE_DEPTH 3 /* buffers a layer's queue holds at most (triple buffering) */
#define MAX_NAMES 65536 /* process and thread names kept to find a layer's process */
#define NAME_KEY 258    /* "p:" or "c:", then a name */
#define COMM_LEN 15     /* a thread's name: the kernel's TASK_COMM_LEN, NUL excluded */
#define MAX_KEPT 32768  /* frames of work kept for frames explained after the input's end */
#define PACK_BLOCK 65536 /* the kept works' packed bytes are held in blocks of this size */
#define QHISTORY 64      /* recent frames of a producer thread's work per process */
/* what a producer frame is called: its thread's work from one queueBuffer to the next */
#define QWORK_NAME "queueBuffer to queueBuffer"

struct open_slice {
	int64_t start;
	int64_t child_max;
	int input;      /* an input section finished inside it */
	uint64_t layer; /* hash of the layer a queueBuffer inside it queued to, or 0 */
	int producer;   /* a queueBuffer outside any doFrame, DrawFrame or queueBuffer: its end
			 * ends a frame of its thread's own (produce_end()) */
	char name[NAME_MAX_LEN];
	char child[NAME_MAX_LEN];
	char path[PATH_LEN];
};

/*
 * A thread that queues buffers outside any doFrame or DrawFrame (a game engine's render
 * thread, a GLSurfaceView's GLThread, a decoder or camera feeding a SurfaceView): its frame of
 * work runs from the end of its previous queueBuffer to the end of the next. Made at its first
 * such queueBuffer.
 */
struct producer {
	int64_t start;    /* the current frame's start (the last queueBuffer's end), or NONE */
	int span_open;    /* a thread-state span is open over it */
	int depth;        /* the depth of the longest section so far: the shallowest seen */
	int64_t child_ns; /* its longest section that began in the frame, cut at its end */
	char child[NAME_MAX_LEN];
	char path[PATH_LEN];
};

/* A producer thread's frame of work, as a process keeps its recent ones. */
struct qwork {
	int64_t start, end, child_ns;
	uint64_t layer;   /* hash of the layer its queueBuffer queued to, when the trace shows it */
	int32_t tid, pid;
	char comm[COMM_LEN + 1];
	char child[NAME_MAX_LEN];
	char path[PATH_LEN];
	int has_span;
	struct gfxstat_thread_span span;
};

struct qproc {
	int32_t pid;
	unsigned head, n;
	struct qwork q[QHISTORY];
};

struct thread {
	int32_t tid, pid;
	struct producer *prod; /* its own frames, when it queues buffers by itself; or NULL */
	int depth;
	int named;      /* its task name was noted (note_name()) */
	char comm[COMM_LEN + 1]; /* its task name, as its events last gave it, or "" */
	/* its open sections, as deep as it went (at most MAX_DEPTH): 288 bytes each, and most
	 * threads open few, so not MAX_DEPTH of them for each of thousands of threads */
	struct open_slice *s;
	int cap_s;
};

enum { WORK_MAIN, WORK_RENDER };

struct work {
	int kind;
	int input;
	int64_t start, end;
	int64_t child_ns;
	uint64_t layer; /* hash of the layer it queued a buffer to, when the trace shows it */
	char name[NAME_MAX_LEN];
	char child[NAME_MAX_LEN];
	char path[PATH_LEN];
	int32_t tid;
	int32_t pid;
	char comm[COMM_LEN + 1];        /* its thread's task name, or "" */
	int64_t token;                  /* the vsync id its section names (Android 12+), or -1 */
	int has_span;                   /* @span says where its thread's time went */
	struct gfxstat_thread_span span;
};

struct proc {
	int32_t pid;
	int has_render; /* the process draws on a RenderThread (Android 5+): DrawFrames are frames */
	unsigned head, n;
	struct work w[HISTORY];
};

/*
 * A kept work (gfxstat_causes_keep_work()): what pick_work() chooses by, beside its packed
 * bytes. A struct work is ~880 bytes, most of them zeros (unused name bytes, a span's empty
 * binder slots) and repeated text; with its strings interned and the rest packed
 * (pack_work(): zero runs counted) one takes ~160 bytes and this index 56 (the bench's
 * api32-x800.pftrace: 32768 in 7 MB, not 28).
 */
struct kept {
	int64_t start, end, token;
	int32_t pid;
	int16_t kind;
	uint32_t off; /* of its packed bytes */
	/* its strings, interned in @strs (a frame's doFrame, child and path are the app's few
	 * section names; its name, "Choreographer#doFrame 191058", the same less its token) */
	uint32_t name, child, path, comm;
};

/* A layer's place in its process's work: the end of the last work given to one of its frames. */
struct layer_pos {
	uint64_t hash;
	int32_t pid;
	int64_t last_end;
};

struct gfxstat_causes {
	struct thread *threads;
	size_t nthreads, cap_threads;
	struct proc *procs;
	size_t nprocs, cap_procs;
	struct qproc *qprocs; /* the processes with producer threads, and their recent frames */
	size_t nqprocs, cap_qprocs;
	struct layer_pos *layers;
	size_t nlayers, cap_layers;
	size_t qb;      /* the thread (index + 1) whose queueBuffer began last, or 0 */
	int qb_level;   /* that queueBuffer's depth */
	/* id -> index maps (key: the 4 bytes of the id): lookups stay O(1) with many threads */
	struct gx_strmap thread_ix, proc_ix, qproc_ix;
	/* recent thread_of() answers by the tid's low bits (index + 1; 0 = none): every B and E
	 * asks, mostly of the few threads that are busy */
	struct {
		int32_t tid;
		uint32_t ix;
	} tcache[64];
	struct gfxstat_thread_states *ts; /* times each work's thread, when set */
	/* the names the recording gives processes ("p:" PROCESS DUMP) and threads ("c:" their
	 * task names), to find the process of a layer whose producer SurfaceFlinger's markers do
	 * not say: per name its pid, or -2 when two processes carry it */
	struct gx_strmap names;
	int32_t *name_pid;
	size_t cap_names;
	uint64_t names_gen; /* changes of @names */
	/* the last app_process() answer, while no name or thread came since */
	uint64_t last_app, last_gen;
	int32_t last_pid;
	/* every frame of work that names its vsync id, in the order they ended
	 * (gfxstat_causes_keep_work()) */
	int keep;
	struct kept *kept;
	size_t nkept, cap_kept;
	/* their packed bytes (pack_work()), in blocks that never move: an offset is block *
	 * PACK_BLOCK + place */
	unsigned char **blocks;
	size_t nblocks, cap_blocks, used; /* @used: bytes taken in the last block */
	/* the kept works pick_work() chose, unpacked: [0] the doFrame, [1] the DrawFrame of
	 * one frame (ft_app() holds both at once) */
	struct work unpacked[2];
	struct gx_strmap strs; /* the kept works' strings (intern()) */
};

/* The layer a counter names: "BufferTX - <layer>" on 12+, the layer itself before. */
static uint64_t layer_hash(struct gfxstat_str s)
{
	if (s.n > 11 && memcmp(s.p, "BufferTX - ", 11) == 0)
		return gx_hash(s.p + 11, s.n - 11);
	return gx_hash(s.p, s.n);
}

/* Is another process's queueBuffer open, the one whose counter is awaited? */
static int queue_open(const struct gfxstat_causes *c, int32_t pid)
{
	const struct thread *t;

	if (!c->qb || c->qb > c->nthreads)
		return 0;
	t = &c->threads[c->qb - 1];
	return t->pid != pid && t->depth > c->qb_level && c->qb_level < MAX_DEPTH &&
	       strncmp(t->s[c->qb_level].name, "queueBuffer", 11) == 0;
}

/*
 * A counter that SurfaceFlinger raises while an app's queueBuffer is open names the layer
 * the buffer went to: on Android <= 11 the app's queueBuffer is a binder call that SF serves
 * on a binder thread, tracing ATRACE_INT(mConsumerName, queue size) with the layer's name
 * (LineageOS/android_frameworks_native libs/gui/BufferQueueProducer.cpp queueBuffer). The
 * first such counter of another process, above 0, is taken.
 */
static void queue_counter(struct gfxstat_causes *c, const struct gfxstat_marker *m)
{
	struct thread *t;
	struct open_slice *s;

	if (!c->qb || c->qb > c->nthreads)
		return;
	t = &c->threads[c->qb - 1];
	if (t->depth <= c->qb_level || c->qb_level >= MAX_DEPTH) {
		c->qb = 0;
		return;
	}
	s = &t->s[c->qb_level];
	if (s->layer || m->pid == t->pid || m->value <= 0 || strncmp(s->name, "queueBuffer", 11))
		return;
	s->layer = layer_hash(m->name);
}

struct gfxstat_causes *gfxstat_causes_new(void)
{
	struct gfxstat_causes *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (gx_strmap_init(&c->thread_ix, MAX_THREADS) || gx_strmap_init(&c->proc_ix, MAX_THREADS) ||
	    gx_strmap_init(&c->qproc_ix, MAX_THREADS) ||
	    gx_strmap_init(&c->names, MAX_NAMES) || gx_strmap_init(&c->strs, 4 * MAX_KEPT)) {
		gfxstat_causes_free(c);
		return NULL;
	}
	return c;
}

void gfxstat_causes_free(struct gfxstat_causes *c)
{
	if (!c)
		return;
	while (c->nthreads) {
		c->nthreads--;
		free(c->threads[c->nthreads].s);
		free(c->threads[c->nthreads].prod);
	}
	free(c->threads);
	free(c->procs);
	free(c->qprocs);
	gx_strmap_free(&c->qproc_ix);
	free(c->layers);
	gx_strmap_free(&c->thread_ix);
	gx_strmap_free(&c->proc_ix);
	gx_strmap_free(&c->names);
	gx_strmap_free(&c->strs);
	free(c->name_pid);
	free(c->kept);
	while (c->nblocks)
		free(c->blocks[--c->nblocks]);
	free(c->blocks);
	free(c);
}

/* @dst = "@name > @inner" (or @name), cut at PATH_LEN: the longest section, nested. */
static void set_path(char *dst, const char *name, const char *inner)
{
	struct gx_out o = { dst, PATH_LEN, 0 };

	gx_out_puts(&o, name);
	if (inner[0]) {
		gx_out_puts(&o, " > ");
		gx_out_puts(&o, inner);
	}
	dst[o.len < PATH_LEN ? o.len : PATH_LEN - 1] = 0;
}

static void copy_name(char *dst, struct gfxstat_str s)
{
	size_t n = s.n < NAME_MAX_LEN - 1 ? s.n : NAME_MAX_LEN - 1, i;

	/* the name of every section that begins: 8 bytes at a time, the last word overlapping,
	 * where a memcpy() call of a variable length costs more than the copy */
	if (n >= 8) {
		for (i = 0; i + 8 < n; i += 8)
			memcpy(dst + i, s.p + i, 8);
		memcpy(dst + n - 8, s.p + n - 8, 8);
	} else if (n) { /* an empty name may come with no pointer: memcpy(NULL) is undefined */
		memcpy(dst, s.p, n);
	}
	dst[n] = 0;
}

/* Threads and processes are indexed by id (traces may hold tens of thousands of threads). */
static struct thread *thread_of(struct gfxstat_causes *c, int32_t tid, int32_t pid)
{
	unsigned h = (uint32_t)tid % 64;
	long i;
	int created;

	if (c->tcache[h].ix && c->tcache[h].tid == tid)
		return &c->threads[c->tcache[h].ix - 1];
	i = gx_strmap_find(&c->thread_ix, (const char *)&tid, sizeof(tid));
	if (i >= 0) {
		c->tcache[h].tid = tid;
		c->tcache[h].ix = (uint32_t)i + 1;
		return &c->threads[i];
	}
	if (c->nthreads >= MAX_THREADS ||
	    gx_grow((void **)&c->threads, &c->cap_threads, c->nthreads, sizeof(*c->threads), 64))
		return NULL;
	/* the map's indexes follow the array: both are appended together */
	i = gx_strmap_add(&c->thread_ix, (const char *)&tid, sizeof(tid), &created);
	if (i < 0 || (size_t)i != c->nthreads)
		return NULL;
	memset(&c->threads[c->nthreads], 0, sizeof(struct thread));
	c->threads[c->nthreads].tid = tid;
	c->threads[c->nthreads].pid = pid;
	return &c->threads[c->nthreads++];
}

static struct proc *proc_of(struct gfxstat_causes *c, int32_t pid, int create)
{
	long i = gx_strmap_find(&c->proc_ix, (const char *)&pid, sizeof(pid));
	int created;

	if (i >= 0)
		return &c->procs[i];
	if (!create || c->nprocs >= MAX_THREADS ||
	    gx_grow((void **)&c->procs, &c->cap_procs, c->nprocs, sizeof(*c->procs), 16))
		return NULL;
	i = gx_strmap_add(&c->proc_ix, (const char *)&pid, sizeof(pid), &created);
	if (i < 0 || (size_t)i != c->nprocs)
		return NULL;
	memset(&c->procs[c->nprocs], 0, sizeof(struct proc));
	c->procs[c->nprocs].pid = pid;
	return &c->procs[c->nprocs++];
}

static struct qproc *qproc_of(struct gfxstat_causes *c, int32_t pid, int create)
{
	long i = gx_strmap_find(&c->qproc_ix, (const char *)&pid, sizeof(pid));
	int created;

	if (i >= 0)
		return &c->qprocs[i];
	if (!create || c->nqprocs >= MAX_THREADS ||
	    gx_grow((void **)&c->qprocs, &c->cap_qprocs, c->nqprocs, sizeof(*c->qprocs), 4))
		return NULL;
	i = gx_strmap_add(&c->qproc_ix, (const char *)&pid, sizeof(pid), &created);
	if (i < 0 || (size_t)i != c->nqprocs)
		return NULL;
	c->qprocs[c->nqprocs].pid = pid;
	c->qprocs[c->nqprocs].head = c->qprocs[c->nqprocs].n = 0;
	return &c->qprocs[c->nqprocs++];
}

/*
 * Process @pid is named @name (@kind 'p': a process, as PROCESS DUMP lists it; 'c': one of its
 * threads, as a task name). A name two processes carry names none of them.
 */
static void note_name(struct gfxstat_causes *c, char kind, struct gfxstat_str name, int32_t pid)
{
	char key[NAME_KEY];
	int created = 0;
	long i;

	if (pid <= 0 || !name.n || name.n > NAME_KEY - 2 || name.p[0] == '<' ||
	    gx_grow((void **)&c->name_pid, &c->cap_names, c->names.n, sizeof(*c->name_pid), 64))
		return; /* "<...>": the trace did not know the name */
	key[0] = kind;
	key[1] = ':';
	memcpy(key + 2, name.p, name.n);
	i = gx_strmap_add(&c->names, key, name.n + 2, &created);
	if (i < 0 || (size_t)i >= c->cap_names)
		return;
	if (created || (c->name_pid[i] != pid && c->name_pid[i] != -2))
		c->names_gen++;
	if (created)
		c->name_pid[i] = pid;
	else if (c->name_pid[i] != pid)
		c->name_pid[i] = -2;
}

static int32_t name_pid(const struct gfxstat_causes *c, char kind, struct gfxstat_str name)
{
	char key[NAME_KEY];
	long i;

	if (!name.n || name.n > NAME_KEY - 2)
		return -1;
	key[0] = kind;
	key[1] = ':';
	memcpy(key + 2, name.p, name.n);
	i = gx_strmap_find(&c->names, key, name.n + 2);
	return i < 0 ? -1 : c->name_pid[i];
}

/*
 * The process of package @app when SurfaceFlinger's markers do not say which process
 * produced its layer: the one process the recording names so -- by PROCESS DUMP, or by the
 * name of a thread (a process's main thread carries the last 15 characters of its package,
 * art/runtime SetThreadName) in marker lines or the scheduler's events. -1 when no process,
 * or more than one, is named so.
 */
static int32_t app_process(const struct gfxstat_causes *c, struct gfxstat_str app)
{
	struct gfxstat_causes *m = (struct gfxstat_causes *)c; /* its cache */
	struct gfxstat_str comm = app;
	int32_t v[3], got = -1;
	uint64_t h, gen;
	int i;

	if (!c || !app.n)
		return -1;
	/* the threads' names are scanned: not again for every frame of the layer while the
	 * names stand (a rename is a new name: task_rename events counted) */
	h = gx_hash(app.p, app.n);
	gen = c->names_gen + 1;
	if (c->ts) {
		const struct gfxstat_sched_counts *k = gfxstat_thread_states_counts(c->ts);

		gen += (k->threads << 20) + (k->events[GFXSTAT_SCHED_TASK_RENAME] << 40);
	}
	if (h == c->last_app && gen == c->last_gen)
		return c->last_pid;
	m->last_app = h;
	m->last_gen = gen;
	m->last_pid = -1;
	if (comm.n > COMM_LEN) {
		comm.p += comm.n - COMM_LEN;
		comm.n = COMM_LEN;
	}
	v[0] = name_pid(c, 'p', app);
	v[1] = name_pid(c, 'c', comm);
	v[2] = gx_thread_states_comm_pid(c->ts, comm.p, comm.n);
	for (i = 0; i < 3; i++) {
		if (v[i] == -2 || (v[i] >= 0 && got >= 0 && v[i] != got))
			return -1;
		if (v[i] >= 0)
			got = v[i];
	}
	m->last_pid = got;
	return got;
}

int gfxstat_causes_task(void *p, int32_t pid, int32_t tid, struct gfxstat_str name)
{
	struct gfxstat_causes *c = p;

	note_name(c, tid ? 'c' : 'p', name, pid);
	return 0;
}

void gfxstat_causes_keep_work(struct gfxstat_causes *c, int on)
{
	c->keep = on;
}

/* The vsync id a frame's section names, "Choreographer#doFrame 191058", "DrawFrames 191058"
 * (Android 12+: the FrameTimeline token of the frame); -1 when it names none. */
static int64_t name_token(const char *name)
{
	const char *p = strchr(name, ' ');
	int64_t v = 0;
	int n = 0;

	if (!p)
		return -1;
	for (p++; *p >= '0' && *p <= '9' && n < 18; p++, n++)
		v = v * 10 + (*p - '0');
	return n && (!*p || *p == ' ') ? v : -1;
}

static int is_input(const char *name)
{
	/* asked of every section that ends inside another: the first byte rules most out */
	switch (name[0]) {
	case 'i':
		return strcmp(name, "input") == 0;
	case 'd':
		return strncmp(name, "deliverInputEvent", 17) == 0;
	case 'R':
		return strncmp(name, "RV Scroll", 9) == 0;
	case 'L':
		return strncmp(name, "ListView scroll", 15) == 0;
	default:
		return 0;
	}
}

static int work_kind(const char *name)
{
	if (name[0] != 'C' && name[0] != 'D')
		return -1; /* asked of every section that begins: most are neither */
	if (strncmp(name, "Choreographer#doFrame", 21) == 0)
		return WORK_MAIN;
	if (strcmp(name, "DrawFrame") == 0 || strncmp(name, "DrawFrames", 10) == 0)
		return WORK_RENDER;
	return -1;
}

/*
 * @s (of at most @cap bytes) interned in c->strs: "S" and the string; a name whose token
 * (name_token(): @token, or -1) prints back as its digits, "T" and the name without them.
 * Return: its index, or -1 when out of memory.
 */
static long intern(struct gfxstat_causes *c, const char *s, size_t cap, int64_t token)
{
	char key[PATH_LEN + 2], tok[24];
	size_t n = strnlen(s, cap), d;
	const char *p = token >= 0 ? strchr(s, ' ') : NULL;
	int created;

	key[0] = 'S';
	if (p) {
		p++;
		d = strspn(p, "0123456789");
		if ((size_t)snprintf(tok, sizeof(tok), "%lld", (long long)token) == d &&
		    !memcmp(tok, p, d)) {
			key[0] = 'T';
			memcpy(key + 1, s, (size_t)(p - s));
			memcpy(key + 1 + (p - s), p + d, n - (size_t)(p - s) - d);
			n -= d;
			return gx_strmap_add(&c->strs, key, n + 1, &created);
		}
	}
	memcpy(key + 1, s, n);
	return gx_strmap_add(&c->strs, key, n + 1, &created);
}

/* String @i of c->strs into @dst (of @cap bytes), the token put back into a name's. */
static void interned(const struct gfxstat_causes *c, uint32_t i, int64_t token, char *dst,
		     size_t cap)
{
	const char *p = c->strs.keys[i].p, *sp = p[0] == 'T' ? strchr(p + 1, ' ') : NULL;

	if (sp) /* the name as it was: its first space, the token's digits, the rest */
		snprintf(dst, cap, "%.*s%lld%s", (int)(sp + 1 - (p + 1)), p + 1, (long long)token,
			 sp + 1);
	else
		snprintf(dst, cap, "%s", p + 1);
}

/*
 * Pack @w into @out (room for 2 * sizeof(*w) + 2 bytes): the struct less the fields and
 * strings the index holds (struct kept) and a span it has not set, all zeroed, then every run
 * of zero bytes written as a 0 and its length (1-255). Return: its length.
 */
static size_t pack_work(const struct work *w, unsigned char *out)
{
	struct work z;

	memset(&z, 0, sizeof(z)); /* the padding too */
	z.input = w->input;
	z.child_ns = w->child_ns;
	z.layer = w->layer;
	z.tid = w->tid;
	z.has_span = w->has_span;
	if (w->has_span)
		z.span = w->span; /* gfxstat_thread_states_span_end() zeroed it first */
	return gfxstat_zero_pack(&z, sizeof(z), out);
}

/* Kept work @k unpacked into @w. */
static void unpack_work(const struct gfxstat_causes *c, const struct kept *k, struct work *w)
{
	gfxstat_zero_unpack(c->blocks[k->off / PACK_BLOCK] + k->off % PACK_BLOCK, w, sizeof(*w));
	interned(c, k->name, k->token, w->name, sizeof(w->name));
	interned(c, k->child, -1, w->child, sizeof(w->child));
	interned(c, k->path, -1, w->path, sizeof(w->path));
	interned(c, k->comm, -1, w->comm, sizeof(w->comm));
	w->kind = k->kind;
	w->start = k->start;
	w->end = k->end;
	w->token = k->token;
	w->pid = k->pid;
}

/* Keep @w, packed, for frames explained after the input's end; out of memory: not kept. */
static void keep_work(struct gfxstat_causes *c, const struct work *w)
{
	unsigned char buf[2 * sizeof(struct work) + 2];
	size_t n = pack_work(w, buf);
	long name = intern(c, w->name, sizeof(w->name), w->token);
	long child = intern(c, w->child, sizeof(w->child), -1);
	long path = intern(c, w->path, sizeof(w->path), -1);
	long comm = intern(c, w->comm, sizeof(w->comm), -1);
	struct kept *k;

	if (name < 0 || child < 0 || path < 0 || comm < 0 ||
	    gx_grow((void **)&c->kept, &c->cap_kept, c->nkept, sizeof(*c->kept), 256))
		return;
	if (!c->nblocks || c->used + n > PACK_BLOCK) {
		unsigned char *blk;

		if (gx_grow((void **)&c->blocks, &c->cap_blocks, c->nblocks, sizeof(*c->blocks), 16))
			return;
		blk = malloc(PACK_BLOCK);
		if (!blk)
			return;
		c->blocks[c->nblocks++] = blk;
		c->used = 0;
	}
	memcpy(c->blocks[c->nblocks - 1] + c->used, buf, n);
	k = &c->kept[c->nkept++];
	k->start = w->start;
	k->end = w->end;
	k->token = w->token;
	k->pid = w->pid;
	k->kind = (int16_t)w->kind;
	k->name = (uint32_t)name;
	k->child = (uint32_t)child;
	k->path = (uint32_t)path;
	k->comm = (uint32_t)comm;
	k->off = (uint32_t)((c->nblocks - 1) * PACK_BLOCK + c->used);
	c->used += n;
}

/*
 * Does a queueBuffer that begins on @t now end a frame of @t's own? Every producer queues its
 * buffers through libgui, which traces it (frameworks/native libs/gui/Surface.cpp
 * Surface::queueBuffer and BufferQueueProducer::queueBuffer, ATRACE_CALL): an app's
 * RenderThread inside its DrawFrame, a main thread that draws inside its doFrame; any other
 * thread draws and queues by itself. Not a queueBuffer inside another (BLAST's in-process
 * BufferQueueProducer::queueBuffer inside Surface::queueBuffer), nor SurfaceFlinger's binder
 * thread serving another process's (queue_open()).
 */
static int is_producer(const struct gfxstat_causes *c, const struct thread *t)
{
	int i;

	if (t->pid <= 0 || queue_open(c, t->pid))
		return 0;
	for (i = 0; i < t->depth && i < MAX_DEPTH; i++)
		if (work_kind(t->s[i].name) >= 0 || strncmp(t->s[i].name, "queueBuffer", 11) == 0)
			return 0;
	return 1;
}

/* The layer a queueBuffer's own name gives ("queueBuffer: <layer>", "queueBuffer - <layer>"),
 * or 0. */
static uint64_t name_layer(const char *name)
{
	const char *p = name + 11;

	if ((p[0] == ':' && p[1] == ' ') || (p[0] == ' ' && p[1] == '-' && p[2] == ' ')) {
		p += p[0] == ':' ? 2 : 3;
		if (*p)
			return layer_hash((struct gfxstat_str){ p, strlen(p) });
	}
	return 0;
}

/* A section of @t that began at @start in its current producer frame, at @depth, took @dur
 * (to its end, or to the frame's end while still open): the longest at the shallowest depth
 * is the frame's "longest inside". */
static void produce_child(struct producer *q, int depth, int64_t start, int64_t dur,
			  const struct open_slice *s)
{
	if (q->start == GFXSTAT_NS_NONE || start < q->start)
		return; /* began before the frame: the previous frame's */
	if (depth > q->depth || (depth == q->depth && dur <= q->child_ns))
		return;
	q->depth = depth;
	q->child_ns = dur;
	memcpy(q->child, s->name, NAME_MAX_LEN);
	set_path(q->path, s->name, s->path);
}

/*
 * @t's producer queueBuffer @s ended at @ts: its frame of work since its previous one is kept
 * for its process (with its thread's states, when timed), and the next one begins.
 */
static int produce_end(struct gfxstat_causes *c, struct thread *t, const struct open_slice *s,
		       int64_t ts, int32_t cpu)
{
	struct producer *q = t->prod;
	int i;

	if (!q) {
		q = t->prod = malloc(sizeof(*q));
		if (!q)
			return GFXSTAT_E_NOMEM;
		q->start = GFXSTAT_NS_NONE;
		q->span_open = 0;
	}
	if (q->start != GFXSTAT_NS_NONE && ts >= q->start) {
		struct qproc *qp = qproc_of(c, t->pid, 1);
		struct qwork *w;

		if (!qp)
			return 0;
		/* sections still open (an eglSwapBuffers around the queueBuffer), cut here */
		for (i = 0; i < t->depth && i < MAX_DEPTH; i++)
			produce_child(q, i, t->s[i].start, ts - t->s[i].start, &t->s[i]);
		w = &qp->q[(qp->head + qp->n) % QHISTORY];
		if (qp->n == QHISTORY)
			qp->head = (qp->head + 1) % QHISTORY;
		else
			qp->n++;
		w->start = q->start;
		w->end = ts;
		w->child_ns = q->child_ns;
		w->layer = s->layer ? s->layer : name_layer(s->name);
		w->tid = t->tid;
		w->pid = t->pid;
		memcpy(w->comm, t->comm, sizeof(w->comm));
		memcpy(w->child, q->child, NAME_MAX_LEN);
		memcpy(w->path, q->path, PATH_LEN);
		w->has_span = c->ts && q->span_open &&
			      gfxstat_thread_states_span_end(c->ts, t->tid, ts, &w->span);
	}
	q->start = ts;
	q->depth = MAX_DEPTH + 1;
	q->child_ns = -1;
	q->child[0] = q->path[0] = 0;
	q->span_open = c->ts && !gfxstat_thread_states_span_begin(c->ts, t->tid, ts, cpu);
	return 0;
}

int gfxstat_causes_marker(void *p, const struct gfxstat_ftrace_line *ev,
			  const struct gfxstat_marker *m)
{
	struct gfxstat_causes *c = p;
	struct thread *t;

	if (m->kind == GFXSTAT_MARKER_COUNTER) {
		queue_counter(c, m);
		return 0;
	}
	if (m->kind != GFXSTAT_MARKER_BEGIN && m->kind != GFXSTAT_MARKER_END)
		return 0;
	t = thread_of(c, ev->pid, m->pid >= 0 ? m->pid : ev->tgid);
	if (!t)
		return 0;
	if (m->pid >= 0)
		t->pid = m->pid;
	if (!t->named && t->pid > 0 && ev->task.n && ev->task.p[0] != '<') {
		note_name(c, 'c', ev->task, t->pid);
		t->named = 1;
	}
	if (ev->task.n && ev->task.p[0] != '<') {
		/* the kernel keeps the first TASK_COMM_LEN - 1 bytes of a thread's name */
		size_t n = ev->task.n < COMM_LEN ? ev->task.n : COMM_LEN;

		/* on every marker of trace text: 8 to 15 bytes as two overlapping 8-byte copies,
		 * no memcpy() call of a variable length */
		if (n >= 8) {
			memcpy(t->comm, ev->task.p, 8);
			memcpy(t->comm + n - 8, ev->task.p + n - 8, 8);
		} else {
			memcpy(t->comm, ev->task.p, n);
		}
		t->comm[n] = 0;
	}
	if (m->kind == GFXSTAT_MARKER_BEGIN) {
		if (t->depth < MAX_DEPTH && t->depth >= t->cap_s) {
			int nc = t->cap_s ? 2 * t->cap_s : 4;
			struct open_slice *ns;

			nc = nc < MAX_DEPTH ? nc : MAX_DEPTH;
			ns = realloc(t->s, (size_t)nc * sizeof(*ns));
			if (!ns)
				return GFXSTAT_E_NOMEM;
			t->s = ns;
			t->cap_s = nc;
		}
		if (t->depth < MAX_DEPTH) {
			struct open_slice *s = &t->s[t->depth];

			s->start = ev->ts_ns;
			s->child_max = 0;
			s->input = 0;
			s->layer = 0;
			s->producer = 0;
			s->child[0] = 0;
			s->path[0] = 0;
			copy_name(s->name, m->name);
			if (work_kind(s->name) >= 0) {
				if (c->ts)
					gfxstat_thread_states_span_begin(c->ts, ev->pid, ev->ts_ns,
									 ev->cpu);
				/* the thread's one span is this work's now: its own frame
				 * is not timed, so not kept */
				if (t->prod)
					t->prod->start = GFXSTAT_NS_NONE;
			}
			/* an app's queueBuffer; not SF's binder thread serving it (its own
			 * "queueBuffer" section, while the app's is still open) */
			if (s->name[0] == 'q' && strncmp(s->name, "queueBuffer", 11) == 0) {
				s->producer = is_producer(c, t);
				if (!queue_open(c, t->pid)) {
					c->qb = (size_t)(t - c->threads) + 1;
					c->qb_level = t->depth;
				}
			}
		}
		t->depth++;
		return 0;
	}
	if (t->depth == 0)
		return 0;
	t->depth--;
	if (t->depth >= MAX_DEPTH)
		return 0;
	{
		struct open_slice *s = &t->s[t->depth];
		int64_t dur = ev->ts_ns - s->start;
		int kind;

		/* the parent learns its longest child, and whether input was handled inside */
		if (t->depth > 0 && t->depth - 1 < MAX_DEPTH) {
			struct open_slice *parent = &t->s[t->depth - 1];

			parent->input |= s->input || is_input(s->name);
			if (!parent->layer)
				parent->layer = s->layer;
			if (dur > parent->child_max) {
				parent->child_max = dur;
				memcpy(parent->child, s->name, NAME_MAX_LEN);
				set_path(parent->path, s->name, s->path);
			}
		}
		if (t->prod)
			produce_child(t->prod, t->depth, s->start, dur, s);
		if (s->producer)
			return produce_end(c, t, s, ev->ts_ns, ev->cpu);
		kind = work_kind(s->name);
		if (kind >= 0 && t->pid >= 0) {
			struct proc *pr = proc_of(c, t->pid, 1);
			struct work *w;

			if (!pr)
				return 0;
			w = &pr->w[(pr->head + pr->n) % HISTORY];
			if (pr->n == HISTORY)
				pr->head = (pr->head + 1) % HISTORY;
			else
				pr->n++;
			pr->has_render |= kind == WORK_RENDER;
			w->kind = kind;
			w->input = s->input;
			w->start = s->start;
			w->end = ev->ts_ns;
			w->child_ns = s->child_max;
			w->layer = s->layer;
			memcpy(w->name, s->name, NAME_MAX_LEN);
			memcpy(w->child, s->child, NAME_MAX_LEN);
			memcpy(w->path, s->path, PATH_LEN);
			w->tid = t->tid;
			w->pid = t->pid;
			memcpy(w->comm, t->comm, sizeof(w->comm));
			w->token = name_token(w->name);
			w->has_span = c->ts &&
				      gfxstat_thread_states_span_end(c->ts, t->tid, ev->ts_ns, &w->span);
			/* (FrameTimeline, Android 12+, finds its work by the vsync id the section
			 * names: only such work is kept) */
			if (c->keep && w->token >= 0 && c->nkept < MAX_KEPT)
				keep_work(c, w);
		}
	}
	return 0;
}

/* The latest work of @kind that ended by @by; @layer not 0: that did not queue to another layer
 * (@strict: that queued to @layer). */
static const struct work *last_work(const struct proc *pr, int kind, int64_t by, uint64_t layer,
				     int strict)
{
	unsigned i;

	for (i = pr->n; i-- > 0;) {
		const struct work *w = &pr->w[(pr->head + i) % HISTORY];

		if (w->kind == kind && w->end <= by &&
		    (!layer || w->layer == layer || (!strict && !w->layer)))
			return w;
	}
	return NULL;
}

/* The main-thread doFrame that contains @t: the UI thread waits in its doFrame until the
 * RenderThread has synced the frame (the rule of app_frames.c and of androidx Macrobenchmark's
 * FrameTimingQuery.kt, which joins a DrawFrame to the doFrame that contains its start). */
static const struct work *main_containing(const struct proc *pr, int64_t t)
{
	unsigned i;

	for (i = pr->n; i-- > 0;) {
		const struct work *w = &pr->w[(pr->head + i) % HISTORY];

		if (w->kind == WORK_MAIN && w->start <= t && t <= w->end)
			return w;
	}
	return NULL;
}

static struct layer_pos *layer_pos_of(struct gfxstat_causes *c, int32_t pid,
				      struct gfxstat_str layer)
{
	uint64_t h = layer_hash(layer);
	size_t i;

	for (i = c->nlayers; i-- > 0;)
		if (c->layers[i].hash == h && c->layers[i].pid == pid)
			return &c->layers[i];
	if (c->nlayers >= MAX_LAYERS)
		return NULL;
	if (gx_grow((void **)&c->layers, &c->cap_layers, c->nlayers, sizeof(*c->layers), 16))
		return NULL;
	c->layers[c->nlayers].hash = h;
	c->layers[c->nlayers].pid = pid;
	c->layers[c->nlayers].last_end = GFXSTAT_NS_NONE;
	return &c->layers[c->nlayers++];
}

/*
 * The app work that produced a latched buffer. A process's frames of work are its RenderThread
 * DrawFrames (its doFrames before Android 5, when the main thread drew); buffers leave a
 * layer's BufferQueue in the order they were queued, so each frame of a layer takes the oldest
 * frame of work that ended by its latch and after the one its previous frame took -- but no
 * deeper than QUEUE_DEPTH back (older ones were dropped, or drew another window of the
 * process). A layer's first frame takes the latest. Its start is the doFrame's start: a frame
 * that waited in a stuffed queue, or behind a 250 ms doFrame, still starts there.
 */
int gfxstat_causes_frame(struct gfxstat_causes *c, const struct gfxstat_frame *f, int64_t *start,
			 int *input)
{
	int64_t by = f->latch_ns != GFXSTAT_NS_NONE ? f->latch_ns : f->present_ns;
	unsigned cand[HISTORY], nc = 0, i, pick;
	const struct work *w, *mw;
	struct layer_pos *lp;
	struct proc *pr;
	int kind;

	if (!c || f->pid < 0 || by == GFXSTAT_NS_NONE)
		return 0;
	pr = proc_of(c, f->pid, 0);
	if (!pr || !pr->n)
		return 0;
	lp = layer_pos_of(c, f->pid, f->layer);
	if (!lp)
		return 0;
	kind = pr->has_render ? WORK_RENDER : WORK_MAIN;
	for (i = 0; i < pr->n; i++) {
		w = &pr->w[(pr->head + i) % HISTORY];
		if (w->kind == kind && w->end <= by && w->end > lp->last_end &&
		    (!w->layer || w->layer == lp->hash))
			cand[nc++] = i;
	}
	if (!nc)
		return 0;
	pick = lp->last_end == GFXSTAT_NS_NONE ? nc - 1 : nc > QUEUE_DEPTH ? nc - QUEUE_DEPTH : 0;
	w = &pr->w[(pr->head + cand[pick]) % HISTORY];
	lp->last_end = w->end;
	mw = kind == WORK_RENDER ? main_containing(pr, w->start) : w;
	*start = mw ? mw->start : w->start;
	*input = mw ? mw->input : -1;
	return 1;
}

/* The work of @kind whose start is in [@from, @to]: the last of them (the DrawFrame a doFrame
 * synced starts near its end). */
static const struct work *find_work(const struct proc *pr, int kind, int64_t from, int64_t to,
				     uint64_t layer)
{
	unsigned i;

	for (i = pr->n; i-- > 0;) {
		const struct work *w = &pr->w[(pr->head + i) % HISTORY];

		if (w->kind == kind && w->start >= from && w->start <= to &&
		    (!w->layer || w->layer == layer))
			return w;
	}
	return NULL;
}

/* The phase of a gfxinfo frame that took the longest. */
struct phase {
	const char *name;
	const char *what;  /* what it is, for a legacy table stage; else NULL */
	const char *who;   /* in the summary */
	enum gfxstat_cause_class cls;
	int64_t ns;
};

/* Of the FrameMetrics phases (framestats rows). Return: 0, or -1 when the frame has none. */
static int frameinfo_phase(const struct gfxstat_frame *f, struct phase *out)
{
	static const struct {
		const char *name;
		int from, to;
	} phases[] = {
		{ "input", GFXSTAT_FI_HANDLE_INPUT_START, GFXSTAT_FI_ANIMATION_START },
		{ "animation", GFXSTAT_FI_ANIMATION_START, GFXSTAT_FI_PERFORM_TRAVERSALS_START },
		{ "measure/layout", GFXSTAT_FI_PERFORM_TRAVERSALS_START, GFXSTAT_FI_DRAW_START },
		{ "draw", GFXSTAT_FI_DRAW_START, GFXSTAT_FI_SYNC_QUEUED },
		{ "sync", GFXSTAT_FI_SYNC_START, GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START },
		{ "command issue", GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START, GFXSTAT_FI_SWAP_BUFFERS },
		{ "swap buffers", GFXSTAT_FI_SWAP_BUFFERS, GFXSTAT_FI_FRAME_COMPLETED },
		{ "GPU", GFXSTAT_FI_SWAP_BUFFERS, GFXSTAT_FI_GPU_COMPLETED },
		{ "vsync delay", GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_VSYNC },
	};
	size_t i, best = 0;
	int64_t best_ns = -1;

	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		int64_t a = f->fi[phases[i].from], b = f->fi[phases[i].to];

		if (a == GFXSTAT_NS_NONE || b == GFXSTAT_NS_NONE || a <= 0 || b <= a)
			continue;
		if (b - a > best_ns) {
			best_ns = b - a;
			best = i;
		}
	}
	if (best_ns < 0)
		return -1;
	out->name = out->who = phases[best].name;
	out->what = NULL;
	/* swap buffers and GPU: the GPU's; the rest the app's own work */
	out->cls = best == 6 || best == 7 ? GFXSTAT_CAUSE_GPU : GFXSTAT_CAUSE_APP_WORK;
	out->ns = best_ns;
	return 0;
}

/*
 * Of the stages of the legacy profile table (frameworks/base libs/hwui
 * FrameInfoVisualizer::dumpData; DrawProfiler.cpp on 5.x; HardwareRenderer.java on 4.1-4.4,
 * without Prepare): Draw, the UI thread; Prepare and Process, the RenderThread; Execute, the
 * swap, waiting for the GPU. Return: 0, or -1 when the frame has none.
 */
static int legacy_phase(const struct gfxstat_frame *f, struct phase *out)
{
	static const struct {
		const char *name, *what, *who;
		enum gfxstat_cause_class cls;
	} stages[GFXSTAT_LEGACY_COUNT] = {
		{ "Draw", "the UI thread (input, animation, measure/layout, recording the display "
			  "list)", "UI thread (Draw)", GFXSTAT_CAUSE_APP_WORK },
		{ "Prepare", "the RenderThread's sync (uploading bitmaps as textures)",
		  "RenderThread sync (Prepare)", GFXSTAT_CAUSE_APP_WORK },
		{ "Process", "the RenderThread issuing the GPU commands",
		  "RenderThread issuing GPU commands (Process)", GFXSTAT_CAUSE_APP_WORK },
		{ "Execute", "swapping buffers (waiting for the GPU or a free buffer)",
		  "swap buffers (Execute)", GFXSTAT_CAUSE_GPU },
	};
	int i, best = -1;

	for (i = 0; i < GFXSTAT_LEGACY_COUNT; i++)
		if (f->legacy_ns[i] != GFXSTAT_NS_NONE && f->legacy_ns[i] > 0 &&
		    (best < 0 || f->legacy_ns[i] > f->legacy_ns[best]))
			best = i;
	if (best < 0)
		return -1;
	out->name = stages[best].name;
	out->what = stages[best].what;
	out->who = stages[best].who;
	out->cls = stages[best].cls;
	out->ns = f->legacy_ns[best];
	return 0;
}

/*
 * A gfxinfo frame, Taobao's rule: the phase over half the budget is the primary cause. Frames
 * with one phase share the signature (the class and the phase), whatever its time.
 */
static void gfxinfo_cause(const struct gfxstat_frame *f, int64_t budget, struct gfxstat_cause *out)
{
	char buf[GFXSTAT_CAUSE_TEXT];
	struct phase p;

	if (frameinfo_phase(f, &p) < 0 && legacy_phase(f, &p) < 0) {
		gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN, "unknown (no FrameInfo phases)");
		return;
	}
	if (2 * p.ns > budget) {
		snprintf(buf, sizeof(buf), "%s %.1f ms (over half the %.1f ms budget)%s%s", p.name,
			 (double)p.ns / 1e6, (double)budget / 1e6, p.what ? ": " : "",
			 p.what ? p.what : "");
		gx_cause_plain(out, p.cls, buf);
		snprintf(out->summary, sizeof(out->summary), "%s over half the budget", p.who);
		snprintf(out->signature, sizeof(out->signature), "%s|gfxinfo|%s",
			 gfxstat_cause_class_name(p.cls), p.name);
		return;
	}
	snprintf(buf, sizeof(buf), "none (no phase over half the budget; longest: %s %.1f ms)",
		 p.name, (double)p.ns / 1e6);
	gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN, buf);
	snprintf(out->summary, sizeof(out->summary), "no phase over half the budget");
	snprintf(out->signature, sizeof(out->signature), "unknown|gfxinfo|no phase over half");
}

int gfxstat_causes_input(const struct gfxstat_causes *c, const struct gfxstat_frame *f)
{
	int64_t by = f->latch_ns != GFXSTAT_NS_NONE ? f->latch_ns : f->present_ns;
	const struct proc *pr;
	const struct work *mw;

	if (!c || f->pid < 0)
		return -1;
	pr = proc_of((struct gfxstat_causes *)c, f->pid, 0);
	mw = pr ? last_work(pr, WORK_MAIN, by, 0, 0) : NULL;
	return mw ? mw->input : -1;
}

/* FrameTimeline's jank type (one bit) as a class: whose deadline was missed. */
static enum gfxstat_cause_class ft_class(int32_t bit)
{
	switch (bit) {
	case GFXSTAT_JANK_APP_DEADLINE_MISSED:
	case GFXSTAT_JANK_BUFFER_STUFFING:
	case GFXSTAT_JANK_APP_RESYNCED_JITTER:
		return GFXSTAT_CAUSE_APP_WORK;
	case GFXSTAT_JANK_SF_STUFFING:
	case GFXSTAT_JANK_SF_SCHEDULING:
	case GFXSTAT_JANK_PREDICTION_ERROR:
	case GFXSTAT_JANK_DISPLAY_HAL:
	case GFXSTAT_JANK_SF_CPU_DEADLINE_MISSED:
	case GFXSTAT_JANK_SF_GPU_DEADLINE_MISSED:
		return GFXSTAT_CAUSE_SURFACEFLINGER;
	}
	return GFXSTAT_CAUSE_UNKNOWN;
}

/* How the work of a FrameTimeline frame is chosen (ft_work()). */
struct pick {
	int kind;
	int32_t pid;
	int64_t token;    /* the vsync id its section names, or -1: by time */
	int64_t from, to; /* by time: its start within */
	int64_t near;     /* of several, the one that began nearest this */
	const struct work *w;   /* the one chosen: of a process's latest, */
	const struct kept *k;   /* or kept (unpacked once chosen) */
	int64_t w_start;        /* its start */
};

/* |a - b|, and a - b saturated: a marker's time may be anything a file says */
static uint64_t dist(int64_t a, int64_t b)
{
	return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

static int64_t sub_sat(int64_t a, int64_t b)
{
	if (b < 0 ? a > INT64_MAX + b : a < INT64_MIN + b)
		return b < 0 ? INT64_MAX : INT64_MIN;
	return a - b;
}

/* Is work of @kind, @pid, @token, @start a candidate, nearer than the one chosen so far? */
static int better(const struct pick *p, int kind, int32_t pid, int64_t token, int64_t start)
{
	if (kind != p->kind || pid != p->pid)
		return 0;
	if (p->token >= 0 ? token != p->token : start < p->from || start > p->to)
		return 0;
	return (!p->w && !p->k) || dist(start, p->near) < dist(p->w_start, p->near);
}

static void consider(struct pick *p, const struct work *w)
{
	if (better(p, w->kind, w->pid, w->token, w->start)) {
		p->w = w;
		p->k = NULL;
		p->w_start = w->start;
	}
}

static void consider_kept(struct pick *p, const struct kept *k)
{
	if (better(p, k->kind, k->pid, k->token, k->start)) {
		p->w = NULL;
		p->k = k;
		p->w_start = k->start;
	}
}

#define KEPT_REACH 10000000000LL /* a frame's work ends within 10 s of its start */

/* The work @p chooses; a kept one unpacked into c->unpacked[@slot]. */
static const struct work *pick_work(const struct gfxstat_causes *c, const struct proc *pr,
				    struct pick *p, int64_t around, int slot)
{
	size_t lo = 0, hi = c->nkept;
	unsigned k;

	p->w = NULL;
	p->k = NULL;
	/* the kept works are in the order they ended: from the first that ended after @around
	 * less the reach, to the first that ended a reach after it */
	if (around != GFXSTAT_NS_NONE) {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (c->kept[mid].end < around - KEPT_REACH)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	for (; lo < c->nkept; lo++) {
		if (around != GFXSTAT_NS_NONE && c->kept[lo].end > around + KEPT_REACH)
			break;
		consider_kept(p, &c->kept[lo]);
	}
	for (k = 0; k < pr->n; k++)
		consider(p, &pr->w[(pr->head + k) % HISTORY]);
	if (p->k) {
		struct work *w = &((struct gfxstat_causes *)c)->unpacked[slot]; /* a scratch */

		unpack_work(c, p->k, w);
		p->w = w;
	}
	return p->w;
}

/*
 * The work of @kind that made FrameTimeline frame @f: the one whose section names the frame's
 * token (Android 12+ traces "Choreographer#doFrame <vsync id>" and "DrawFrames <vsync id>",
 * and a surface frame's token is that vsync id); else, where the sections name no vsync id,
 * by time: the doFrame that began nearest the frame's actual start (within half a period),
 * the DrawFrame that began last inside that doFrame.
 */
static const struct work *ft_work(const struct gfxstat_causes *c, const struct proc *pr,
				  const struct gfxstat_frame *f, int kind, const struct work *mw,
				  int64_t budget)
{
	struct pick p;
	const struct work *w;

	p.kind = kind;
	p.pid = f->pid;
	p.token = f->token;
	p.from = p.to = 0;
	p.near = f->actual_start_ns;
	if (f->token >= 0 && (w = pick_work(c, pr, &p, f->actual_start_ns, kind)))
		return w;
	p.token = -1;
	if (kind == WORK_MAIN) {
		p.from = f->actual_start_ns - budget / 2;
		p.to = f->actual_start_ns + budget / 2;
		p.near = f->actual_start_ns;
	} else if (mw) {
		p.from = mw->start;
		p.to = p.near = mw->end;
	} else {
		p.from = p.near = f->actual_start_ns;
		p.to = f->actual_end_ns != GFXSTAT_NS_NONE && f->actual_end_ns > p.from
			       ? f->actual_end_ns : p.from + budget;
	}
	w = pick_work(c, pr, &p, f->actual_start_ns, kind);
	/* a work that names a vsync id is another frame's */
	return w && w->token < 0 ? w : NULL;
}

static void view_of(const struct gfxstat_causes *c, const struct work *w,
		    struct gx_work_view *v)
{
	v->render = w->kind == WORK_RENDER;
	v->producer = 0;
	v->name = w->name;
	v->child = w->child;
	v->path = w->path;
	v->start = w->start;
	v->end = w->end;
	v->child_ns = w->child_ns;
	v->tid = w->tid;
	v->pid = w->pid;
	/* its name from its markers' events, else the scheduler's (a Perfetto trace's markers
	 * carry none) */
	v->comm = w->comm[0] || !c ? w->comm : gfxstat_thread_states_comm(c->ts, w->tid);
	v->span = w->has_span ? &w->span : NULL;
}

/*
 * Android blamed the app for frame @f, whose work was short (@w the longer of @mw and @rw,
 * within half the budget): the buffer was ready long after the DrawFrame ended (the GPU), or
 * the app began the frame late; else only that the work was short.
 */
static void ft_short(const struct gfxstat_frame *f, const struct work *mw, const struct work *rw,
		     const struct work *w, int64_t budget, const char *verdict,
		     struct gfxstat_cause *out)
{
	int64_t gpu = rw && f->actual_end_ns != GFXSTAT_NS_NONE ? sub_sat(f->actual_end_ns, rw->end)
								 : 0;
	int64_t late = mw && f->expected_start_ns != GFXSTAT_NS_NONE
			       ? sub_sat(mw->start, f->expected_start_ns) : 0;
	char buf[GFXSTAT_CAUSE_TEXT];
	struct gx_out o = { out->signature, sizeof(out->signature), 0 };

	if (gpu > budget / 2 && gpu >= late) {
		snprintf(buf, sizeof(buf), "%s; gpu: the app's work was within budget (%s %.1f ms), "
			 "and its buffer was ready %.1f ms after its %s ended (the GPU finished it "
			 "late)", verdict, w->name, (double)(w->end - w->start) / 1e6,
			 (double)gpu / 1e6, rw->name);
		gx_cause_plain(out, GFXSTAT_CAUSE_GPU, buf);
		snprintf(out->summary, sizeof(out->summary), "the app's frame finished late on the GPU");
		gx_out_puts(&o, "gpu|render|buffer ready late|");
	} else if (late > budget / 2) {
		snprintf(buf, sizeof(buf), "%s; app_work: the app began this frame %.1f ms after its "
			 "expected start (its thread was busy or asleep before), then worked within "
			 "budget (%s %.1f ms)", verdict, (double)late / 1e6, w->name,
			 (double)(w->end - w->start) / 1e6);
		gx_cause_plain(out, GFXSTAT_CAUSE_APP_WORK, buf);
		snprintf(out->summary, sizeof(out->summary), "the app began the frame late");
		gx_out_puts(&o, "app_work|main|began late|");
	} else {
		snprintf(buf, sizeof(buf), "%s; the app's work was within budget (%s %.1f ms)",
			 verdict, w->name, (double)(w->end - w->start) / 1e6);
		gx_cause_plain(out, GFXSTAT_CAUSE_APP_WORK, buf);
		gx_out_puts(&o, "app_work|");
		gx_out_puts(&o, verdict);
		gx_out_puts(&o, "|work within budget");
	}
	out->signature[o.len < o.cap ? o.len : o.cap - 1] = 0;
}

/*
 * A FrameTimeline surface frame explained from the app's work for it, as a frame of
 * SurfaceFlinger's markers is (ft_work() finds it), with its threads' states where the trace
 * has the scheduler's events. @verdict: Android's jank type when it blames the app
 * ("FrameTimeline: App Deadline Missed"), kept at the front of the text; NULL when Android
 * gave the frame no jank type. Return: 1 when the work was found (@out set), else 0.
 */
static int ft_app(const struct gfxstat_causes *c, const struct gfxstat_frame *f, int64_t budget,
		  int64_t prev_present, const char *verdict, struct gfxstat_cause *out)
{
	const struct work *mw, *rw, *w;
	struct gx_work_view mv, rv;
	const struct proc *pr;
	char buf[GFXSTAT_CAUSE_TEXT];

	if (!c || f->pid < 0 || f->actual_start_ns == GFXSTAT_NS_NONE)
		return 0;
	pr = proc_of((struct gfxstat_causes *)c, f->pid, 0);
	if (!pr)
		return 0;
	mw = ft_work(c, pr, f, WORK_MAIN, NULL, budget);
	rw = ft_work(c, pr, f, WORK_RENDER, mw, budget);
	if (!mw && !rw)
		return 0;
	w = !rw || (mw && mw->end - mw->start >= rw->end - rw->start) ? mw : rw;
	if (mw)
		view_of(c, mw, &mv);
	if (rw)
		view_of(c, rw, &rv);
	gx_cause_app(mw ? &mv : NULL, rw ? &rv : NULL, f, budget, prev_present,
		     gfxstat_thread_states_have_sched(c->ts), out);
	if (!verdict)
		return 1;
	if (dist(w->end, w->start) <= (uint64_t)budget / 2) {
		ft_short(f, mw, rw, w, budget, verdict, out);
		return 1;
	}
	{
		struct gx_out o = { buf, sizeof(buf), 0 };

		gx_out_puts(&o, verdict);
		gx_out_puts(&o, "; ");
		gx_out_puts(&o, out->text);
		buf[o.len < o.cap ? o.len : o.cap - 1] = 0;
	}
	memcpy(out->text, buf, sizeof(out->text));
	return 1;
}

/*
 * Frame @f of a layer of process @pid that no doFrame or DrawFrame explains, from the thread
 * that queued its buffer by itself (produce_end()): of the process's producer frames that
 * ended by @by (the latch, else the present), the last whose queueBuffer queued to the layer
 * (@h), else the last whose queueBuffer the trace does not tie to a layer -- never one that
 * queued to another. It is then judged as a DrawFrame is (gx_cause_app()), its thread named.
 * Return: 1 when explained (@out set), else 0.
 */
static int producer_cause(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			  int32_t pid, int64_t by, int64_t budget, int64_t prev_present,
			  struct gfxstat_cause *out)
{
	const struct qproc *qp = c ? qproc_of((struct gfxstat_causes *)c, pid, 0) : NULL;
	const struct qwork *w = NULL, *any = NULL;
	uint64_t h = layer_hash(f->layer);
	struct gx_work_view v;
	unsigned i;

	if (!qp || by == GFXSTAT_NS_NONE)
		return 0;
	for (i = qp->n; i-- > 0 && !w;) {
		const struct qwork *q = &qp->q[(qp->head + i) % QHISTORY];

		if (q->end > by)
			continue;
		if (q->layer == h)
			w = q;
		else if (!q->layer && !any)
			any = q;
	}
	if (!w)
		w = any;
	if (!w)
		return 0;
	memset(&v, 0, sizeof(v));
	v.render = v.producer = 1;
	v.name = QWORK_NAME;
	v.child = w->child;
	v.path = w->path;
	v.start = w->start;
	v.end = w->end;
	v.child_ns = w->child_ns > 0 ? w->child_ns : 0;
	v.tid = w->tid;
	v.pid = w->pid;
	v.comm = w->comm[0] ? w->comm : gfxstat_thread_states_comm(c->ts, w->tid);
	v.span = w->has_span ? &w->span : NULL;
	gx_cause_app(NULL, &v, f, budget, prev_present, gfxstat_thread_states_have_sched(c->ts),
		     out);
	return 1;
}

void gfxstat_causes_why(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			int64_t prev_present, struct gfxstat_cause *out)
{
	int64_t budget = f->vsync_period_ns > 0 && f->vsync_period_ns != GFXSTAT_NS_NONE
				 ? f->vsync_period_ns : 16666667;
	int64_t by = f->latch_ns != GFXSTAT_NS_NONE ? f->latch_ns : f->present_ns;
	const struct proc *pr;
	const struct work *mw, *rw;
	struct gx_work_view mv, rv;
	char buf[GFXSTAT_CAUSE_TEXT];
	int32_t pid = f->pid;
	uint64_t h;

	memset(out, 0, sizeof(*out));
	if (f->source == GFXSTAT_SRC_GFXINFO) {
		gfxinfo_cause(f, budget, out);
		return;
	}
	if (f->jank_type > 1) {
		/* Android's own verdict: the bits that made the frame janky by the library's rule
		 * (trace_processor's, gx_ft_janky_bits(): a surface frame with SurfaceFlinger
		 * Scheduling and App Deadline Missed is janky for the latter only); a frame with
		 * none of them: its lowest bit past JANK_NONE, up to Dropped, Buffer Stuffing last */
		int32_t bits = f->jank_type & ~1, bit;
		char name[128];

		bit = gx_ft_janky_bits(f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY, f->jank_type);
		if (!bit) {
			bit = bits & ~GFXSTAT_JANK_BUFFER_STUFFING;
			if (!bit)
				bit = bits;
			bit &= -bit;
			if (bit > 1024)
				bit = 0;
		}
		if (bit) {
			gfxstat_perfetto_jank_type_str(bit, name, sizeof(name));
			snprintf(buf, sizeof(buf), "%s: %s",
				 f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY
					 ? "FrameTimeline display frame (SurfaceFlinger)"
					 : "FrameTimeline", name);
			/* the app's deadline: why, from its work for the frame, where the trace
			 * has it (SurfaceFlinger's or the display's: theirs, said below) */
			if (f->source == GFXSTAT_SRC_FRAMETIMELINE &&
			    ft_class(bit & -bit) == GFXSTAT_CAUSE_APP_WORK &&
			    ft_app(c, f, budget, prev_present, buf, out))
				return;
			gx_cause_plain(out, ft_class(bit & -bit), buf);
			/* the kind is the jank type, not "FrameTimeline" */
			{
				struct gx_out o = { out->signature, sizeof(out->signature), 0 };

				gx_out_puts(&o, gfxstat_cause_class_name(out->cls));
				gx_out_puts(&o, "|");
				gx_out_puts(&o, buf);
				out->signature[o.len < o.cap ? o.len : o.cap - 1] = 0;
			}
			/* and so is the summary: "FrameTimeline: Buffer Stuffing", not a bare
			 * "FrameTimeline" that says no cause */
			gx_cause_phrase(out->summary, sizeof(out->summary), buf, strlen(buf));
			return;
		}
	}
	/* SurfaceFlinger's own frames: no app work explains them, their jank is SF's */
	if (f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY) {
		snprintf(buf, sizeof(buf), "SurfaceFlinger display frame: %s",
			 f->jank_type == 1 ? "no jank type (late only against the cadence)"
					   : "no FrameTimeline jank type");
		gx_cause_plain(out, GFXSTAT_CAUSE_SURFACEFLINGER, buf);
		return;
	}
	if (f->source == GFXSTAT_SRC_FTRACE_DISPLAY) {
		snprintf(buf, sizeof(buf), "SurfaceFlinger: %s",
			 f->janky > 0 ? "missed the refresh (FrameMissed counter)"
				      : "refresh late against the cadence");
		gx_cause_plain(out, GFXSTAT_CAUSE_SURFACEFLINGER, buf);
		return;
	}
	/* a surface frame Android gave no jank type, late against the cadence */
	if (f->source == GFXSTAT_SRC_FRAMETIMELINE && ft_app(c, f, budget, prev_present, NULL, out))
		return;
	/* a layer whose producer SurfaceFlinger's markers do not name: the process the
	 * recording names after its app, if exactly one */
	if (pid < 0)
		pid = app_process(c, f->app);
	if (pid < 0) {
		gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN,
			       "unknown (this layer's app process is not identified)");
		return;
	}
	pr = c ? proc_of((struct gfxstat_causes *)c, pid, 0) : NULL;
	if (!pr || !pr->n) {
		if (producer_cause(c, f, pid, by, budget, prev_present, out))
			return;
		gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN,
			       "unknown (no app sections for this layer's process in the trace: "
			       "record with the 'view' category)");
		return;
	}
	h = layer_hash(f->layer);
	if (f->actual_start_ns != GFXSTAT_NS_NONE) {
		/* the work gfxstat_causes_frame() gave the frame: its doFrame, and the DrawFrame
		 * that started inside it (or the DrawFrame itself, with no doFrame) */
		mw = find_work(pr, WORK_MAIN, f->actual_start_ns, f->actual_start_ns, h);
		rw = mw ? find_work(pr, WORK_RENDER, mw->start, mw->end, h)
			: find_work(pr, WORK_RENDER, f->actual_start_ns, f->actual_start_ns, h);
	} else {
		/* the last work before the latch; of a process found by name, not work that
		 * queued to another of its layers -- and for a SurfaceView, only work that queued
		 * to it: the app draws a SurfaceView from a thread of its own (a game engine's,
		 * Flutter's raster thread), not in the doFrame and DrawFrame of its window */
		int sv = f->pid < 0 && f->layer.n >= 11 && !memcmp(f->layer.p, "SurfaceView", 11);

		rw = last_work(pr, WORK_RENDER, by, f->pid < 0 ? h : 0, sv);
		/* of a process found by name, the doFrame the DrawFrame started in (whose sync it
		 * waited for); else the last doFrame, as before */
		mw = rw && f->pid < 0 ? main_containing(pr, rw->start) : NULL;
		if (!mw)
			mw = last_work(pr, WORK_MAIN, by, f->pid < 0 ? h : 0, sv);
		if (!mw && !rw && sv) {
			if (producer_cause(c, f, pid, by, budget, prev_present, out))
				return;
			gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN,
				       "unknown (a SurfaceView: the app draws it from a thread of its "
				       "own, not in a doFrame or DrawFrame)");
			return;
		}
	}
	if (!mw && !rw) {
		if (producer_cause(c, f, pid, by, budget, prev_present, out))
			return;
		gx_cause_plain(out, GFXSTAT_CAUSE_UNKNOWN,
			       "unknown (no Choreographer#doFrame or DrawFrame before this frame)");
		return;
	}
	if (mw)
		view_of(c, mw, &mv);
	if (rw)
		view_of(c, rw, &rv);
	gx_cause_app(mw ? &mv : NULL, rw ? &rv : NULL, f, budget, prev_present,
		     gfxstat_thread_states_have_sched(c->ts), out);
}

int gfxstat_causes_explain(const struct gfxstat_causes *c, const struct gfxstat_frame *f,
			   int64_t prev_present, char *buf, size_t cap)
{
	struct gfxstat_cause why;

	gfxstat_causes_why(c, f, prev_present, &why);
	return snprintf(buf, cap, "%s", why.text);
}

void gfxstat_causes_set_thread_states(struct gfxstat_causes *c, struct gfxstat_thread_states *t)
{
	c->ts = t;
}
