/* SPDX-License-Identifier: MIT */
/*
 * The model stage (gfxstat_model.h): one identity per surface, its app, one account of each
 * frame when a trace describes it twice, and presents that strictly increase per layer.
 */
#include <stdlib.h>

#include "model_local.h"
#include "gfxstat/gfxstat_model.h"

#define DISPLAY_LAYER "(display)"
/* 60 Hz: the vsync assumed when nothing in the input gives one */
#define DEFAULT_PERIOD 16666667
/* Two inputs of one recording may share a frame or two at their seam (a present stamped by
 * prediction at the end of one, the first latch of the next): only more is an overlap. */
#define SEAM_VSYNCS 2
#define MAX_FORMATS 8
/* names (layers, apps, processes) a recording may hold: far beyond any real trace */
#define MAX_NAMES ((size_t)1 << 24)
/* the held frames' packs kept in memory (about 65 k frames); past it, a temporary file */
#define MODEL_KEEP ((size_t)4 << 20)
/* the held frames' records sorted in memory at once; past it, runs in a temporary file */
#define SORT_RUN ((size_t)1 << 20)

GX_COUNTER_TABLE(GFXSTAT_MODEL_STATS, enum gfxstat_model_stat, GFXSTAT_MODEL_STAT_COUNT,
		 gfxstat_model_stat_name, gfxstat_model_stat_doc, gfxstat_model_stat_severity)

struct layer_state {
	struct gfxstat_model_layer pub;
	char *app;              /* owned; pub.app points here or to "" */
	int64_t last_present;   /* over the whole recording */
	int64_t last_period;    /* the refresh period at that present */
	/* held frames of this input: FrameTimeline's, those of them with a display token, and
	 * markers' (reconcile() compares these with those) */
	uint64_t held_ft, held_tok, held_markers;
};

/*
 * A frame held until the input's end (hold_frames: Perfetto's FrameTimeline): what the sorts
 * and reconcile() set, and the rest of it packed (frame_pack()), as a held frame of a long
 * capture is mostly fields it does not have, and its times are close to each other: this
 * record and about 64 bytes instead of 440. What reconcile() reads of every frame (its
 * display token, whether it was dropped) is kept here. The pack's offset grows with each
 * frame held, so it is the arrival order that keeps the sorts stable. The records go through
 * external sorts (gx_xsort): past SORT_RUN, in runs in a temporary file.
 */
struct held {
	int64_t present_ns, vsync_period_ns;
	int64_t display_token; /* what reconcile() reads of every frame, kept out of the pack */
	uint32_t pack_lo; /* offset of its packed frame in the model's pack, low 32 bits */
	uint32_t layer;
	uint32_t app;     /* index in apps + 1; 0 = none */
	uint8_t pack_hi;  /* ... and the high 8 (frame_pack() refuses an offset past 2^40) */
	uint8_t source;   /* enum gfxstat_frame_source */
	uint8_t dropped;  /* FrameTimeline's present type says it was dropped */
};
_Static_assert(sizeof(struct held) <= GX_SORT_MAX, "held frames are sorted by gx_sort()");

/* A frame as 8-byte words: packed, those that differ from a frame just initialised. */
#define FRAME_WORDS ((sizeof(struct gfxstat_frame) + 7) / 8)
#define MASK_WORDS ((FRAME_WORDS + 63) / 64)
#define PACK_LIMIT ((uint64_t)1 << 40)

static uint64_t held_pack(const struct held *h)
{
	return (uint64_t)h->pack_hi << 32 | h->pack_lo;
}

/* The last present of the earlier inputs of one format: a later input must start after it. */
struct format_span {
	const char *format;
	int64_t end;
};

struct gfxstat_model {
	gfxstat_frame_fn fn;
	void *user;
	struct gx_strmap layer_names;
	struct layer_state *layers;
	size_t layers_cap;
	struct gx_strmap apps;      /* interned app names, for held frames */
	struct gx_strmap procs;     /* key: the pid's 4 bytes */
	char **proc_names;
	size_t procs_cap;
	struct gx_strmap pkgs;      /* packages of the complete names the recording shows */
	struct gx_strmap tails;     /* the last COMM_LEN characters of those names ... */
	long *tail_pkg;             /* ... -> their package in pkgs, or -1 when several */
	size_t tails_cap;
	int hold;
	const char *format;
	int polls_repeat;           /* gfxinfo: each poll repeats the rows still in hwui's ring */
	struct format_span *span;   /* the earlier inputs of this input's format, or NULL */
	/* the held frames' records: FrameTimeline's by the display frame they join, the rest
	 * in arrival order; then (reconcile()) the markers' comparisons, and every frame that
	 * goes on by present */
	struct gx_xsort ft, other, check, out;
	struct gx_spill pack;       /* the held frames, packed (struct held's pack): past
				     * MODEL_KEEP bytes, in a temporary file in tmpdir */
	const char *tmpdir;         /* gfxstat_model_set_tmpdir()'s; NULL: memory only */
	uint64_t held_to_file;      /* bytes of this input's held frames that went to the file */
	uint64_t blank[FRAME_WORDS]; /* gfxstat_frame_init()'s frame, without its source */
	int64_t period;             /* the refresh period in force, by present order */
	int64_t in_end;             /* the current input's last present */
	struct format_span spans[MAX_FORMATS];
	unsigned nspans;
	int64_t overlap_end, overlap_at;
	int overlapped;             /* sticky: producers may turn the error into "aborted" */
	struct gfxstat_model_stats stats;
};

static int64_t present_key(const struct held *h)
{
	return h->present_ns == GFXSTAT_NS_NONE ? INT64_MAX : h->present_ns;
}

static int by_arrival(const struct held *x, const struct held *y)
{
	return held_pack(x) < held_pack(y) ? -1 : held_pack(x) > held_pack(y);
}

/* present, then arrival: the order the frames go on in */
static int by_present(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	if (present_key(x) != present_key(y))
		return present_key(x) < present_key(y) ? -1 : 1;
	return by_arrival(x, y);
}

/* A FrameTimeline frame held, with the token of the display frame it meets in reconcile(). */
struct ft_held {
	struct held h;
	int64_t join; /* a display frame's own token; a surface frame's display frame's */
};

/* token joined, display frames first (by present and period: two display frames of one token,
 * none in a real trace, meet their surface frames in an order that does not hang on arrival),
 * then arrival */
static int by_join(const void *a, const void *b)
{
	const struct ft_held *x = a, *y = b;
	int sx = x->h.source == GFXSTAT_SRC_FRAMETIMELINE, sy = y->h.source == GFXSTAT_SRC_FRAMETIMELINE;

	if (x->join != y->join)
		return x->join < y->join ? -1 : 1;
	if (sx != sy)
		return sx ? 1 : -1;
	if (!sx && x->h.present_ns != y->h.present_ns)
		return x->h.present_ns < y->h.present_ns ? -1 : 1;
	if (!sx && x->h.vsync_period_ns != y->h.vsync_period_ns)
		return x->h.vsync_period_ns < y->h.vsync_period_ns ? -1 : 1;
	return by_arrival(&x->h, &y->h);
}

/*
 * What reconcile() compares of a layer's FrameTimeline frames and markers, as one sorted
 * stream: by display token (CHECK_TOKEN: a marker agrees when a FrameTimeline frame has its
 * token) or by time (CHECK_TIME: a FrameTimeline frame's present as @key; a marker's present
 * plus its period as @key, minus it as @lo: it agrees when the last FrameTimeline present at or
 * before @key is at or after @lo, i.e. one is within a period of it).
 */
enum { CHECK_TOKEN, CHECK_TIME };
struct check {
	int64_t key, lo;
	uint32_t layer;
	uint8_t kind;   /* CHECK_* */
	uint8_t marker; /* 0: FrameTimeline's, first on a tie */
};

static int by_check(const void *a, const void *b)
{
	const struct check *x = a, *y = b;

	if (x->layer != y->layer)
		return x->layer < y->layer ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->marker > y->marker) - (x->marker < y->marker);
}

static void sorts_init(struct gfxstat_model *m)
{
	gx_xsort_init(&m->ft, sizeof(struct ft_held), by_join, SORT_RUN, m->tmpdir);
	gx_xsort_init(&m->other, sizeof(struct held), NULL, SORT_RUN, m->tmpdir);
	gx_xsort_init(&m->check, sizeof(struct check), by_check, SORT_RUN, m->tmpdir);
	gx_xsort_init(&m->out, sizeof(struct held), by_present, SORT_RUN, m->tmpdir);
}

/* Given back, the bytes they wrote to their files counted in held_to_file. */
static void sort_free(struct gfxstat_model *m, struct gx_xsort *x)
{
	m->held_to_file += x->to_file;
	gx_xsort_free(x);
}

static void sorts_free(struct gfxstat_model *m)
{
	sort_free(m, &m->ft);
	sort_free(m, &m->other);
	sort_free(m, &m->check);
	sort_free(m, &m->out);
}

struct gfxstat_str gfxstat_layer_canonical(const char *name, size_t n)
{
	static const char *const prefix[] = { "BufferTX - ", "TX - " };
	const char *nul = n ? memchr(name, 0, n) : NULL;
	struct gfxstat_str s;
	size_t i;

	/* a name is text: a damaged one (a NUL inside, as fuzzed Perfetto strings have) ends
	 * there, so every output and every C-string table sees the same name */
	if (nul)
		n = (size_t)(nul - name);
	s.p = name;
	s.n = n;

	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++) {
		size_t k = strlen(prefix[i]);

		if (n > k && memcmp(name, prefix[i], k) == 0) {
			s.p += k;
			s.n -= k;
			break;
		}
	}
	return s;
}

void gfxstat_model_set_tmpdir(struct gfxstat_model *m, const char *dir)
{
	m->tmpdir = dir;
}

uint64_t gfxstat_model_held_to_file(const struct gfxstat_model *m)
{
	return m->held_to_file;
}

struct gfxstat_model *gfxstat_model_new(gfxstat_frame_fn fn, void *user)
{
	struct gfxstat_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	/* first: gfxstat_model_free() closes their files */
	gx_spill_init(&m->pack, MODEL_KEEP, NULL);
	sorts_init(m);
	m->fn = fn;
	m->user = user;
	m->period = GFXSTAT_NS_NONE;
	if (gx_strmap_init(&m->layer_names, MAX_NAMES) || gx_strmap_init(&m->apps, MAX_NAMES) ||
	    gx_strmap_init(&m->procs, MAX_NAMES) || gx_strmap_init(&m->pkgs, MAX_NAMES) ||
	    gx_strmap_init(&m->tails, MAX_NAMES)) {
		gfxstat_model_free(m);
		return NULL;
	}
	{
		struct gfxstat_frame blank;

		gfxstat_frame_init(&blank, (enum gfxstat_frame_source)0);
		blank.layer.p = blank.app.p = ""; /* as hold() leaves a held frame */
		m->blank[FRAME_WORDS - 1] = 0;
		memcpy(m->blank, &blank, sizeof(blank));
	}
	gfxstat_model_input_begin(m, 0, "");
	return m;
}

void gfxstat_model_free(struct gfxstat_model *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->procs.n; i++)
		free(m->proc_names[i]);
	free(m->proc_names);
	for (i = 0; i < m->layer_names.n; i++)
		free(m->layers[i].app);
	free(m->layers);
	sorts_free(m);
	gx_spill_free(&m->pack);
	gx_strmap_free(&m->layer_names);
	gx_strmap_free(&m->apps);
	gx_strmap_free(&m->procs);
	gx_strmap_free(&m->pkgs);
	gx_strmap_free(&m->tails);
	free(m->tail_pkg);
	free(m);
}

void gfxstat_model_count(struct gfxstat_model *m, enum gfxstat_model_stat s)
{
	m->stats.v[s]++;
}

/*
 * The kernel keeps a task's name in TASK_COMM_LEN (16) bytes with its NUL, and Android names an
 * app's main thread after the last 15 characters of its process name (frameworks/base
 * core/jni/AndroidRuntime.cpp, AndroidRuntime::setArgv0: pthread_setname_np(pthread_self(),
 * argv0 + len - 15)): "com.android.systemui" runs as "ndroid.systemui". A process named with
 * exactly 15 characters may have been named so: its app is the one package whose complete name
 * ends with it, wherever the recording shows that name (a full process name, a layer's
 * package); with none or several, the name is truncated and the app unknown.
 */
#define COMM_LEN 15

/* A complete name @full the recording shows, of package @pkg. */
static int known_name(struct gfxstat_model *m, struct gfxstat_str full, struct gfxstat_str pkg)
{
	int created;
	long pi, ti;

	if (full.n < COMM_LEN || !pkg.n)
		return 0;
	pi = gx_strmap_add(&m->pkgs, pkg.p, pkg.n, NULL);
	ti = pi < 0 ? pi : gx_strmap_add(&m->tails, full.p + full.n - COMM_LEN, COMM_LEN, &created);
	if (ti < 0)
		return ti == GFXSTAT_E_NOMEM ? (int)ti : 0; /* past the name limit: not known */
	/* indexes are made one at a time: one more each time at most */
	if (gx_grow((void **)&m->tail_pkg, &m->tails_cap, (size_t)ti, sizeof(*m->tail_pkg), 64))
		return GFXSTAT_E_NOMEM;
	if (created)
		m->tail_pkg[ti] = pi;
	else if (m->tail_pkg[ti] != pi)
		m->tail_pkg[ti] = -1; /* two packages end so */
	return 0;
}

/* The app of a process whose name @comm (COMM_LEN characters) may be cut; empty if unknown. */
static struct gfxstat_str comm_package(const struct gfxstat_model *m, const char *comm)
{
	struct gfxstat_str app = { "", 0 };
	long ti = gx_strmap_find(&m->tails, comm, COMM_LEN);

	if (ti >= 0 && m->tail_pkg[ti] >= 0) {
		app.p = m->pkgs.keys[m->tail_pkg[ti]].p;
		app.n = m->pkgs.keys[m->tail_pkg[ti]].n;
	}
	return app;
}

int gfxstat_model_process(struct gfxstat_model *m, int32_t pid, struct gfxstat_str name)
{
	int created = 0;
	long i = gx_strmap_add(&m->procs, (const char *)&pid, sizeof(pid), &created);
	char *copy;

	if (i < 0)
		return (int)i;
	if (gx_grow((void **)&m->proc_names, &m->procs_cap, (size_t)i, sizeof(*m->proc_names), 64))
		return GFXSTAT_E_NOMEM;
	if (!created)
		free(m->proc_names[i]);
	m->proc_names[i] = NULL;
	copy = malloc(name.n + 1);
	if (!copy)
		return GFXSTAT_E_NOMEM;
	memcpy(copy, name.p, name.n);
	copy[name.n] = 0;
	m->proc_names[i] = copy;
	/* a name longer than a comm is complete, and so is its package ("pkg:service");
	 * one of exactly COMM_LEN characters may be cut */
	if (name.n > COMM_LEN) {
		struct gfxstat_str pkg = gx_process_package(copy);
		int rc = known_name(m, name, pkg);

		return rc ? rc : known_name(m, pkg, pkg);
	}
	return 0;
}

/*
 * The app of a frame: what the source says; else the process that produced it (its pid, as
 * the input names it); else the package in the layer's name.
 */
static struct gfxstat_str resolve_app(struct gfxstat_model *m, const struct gfxstat_frame *f,
				      struct gfxstat_str layer)
{
	struct gfxstat_str app = f->app;
	const char *nul = app.n ? memchr(app.p, 0, app.n) : NULL;
	int cut = 0;

	if (nul) /* as layer names (gfxstat_layer_canonical()) */
		app.n = (size_t)(nul - app.p);

	if (app.n)
		return app;
	if (f->pid >= 0) {
		long i = gx_strmap_find(&m->procs, (const char *)&f->pid, sizeof(f->pid));

		if (i >= 0 && m->proc_names[i]) {
			/* a name that may be the kernel's cut comm is never taken as a package */
			app = strlen(m->proc_names[i]) == COMM_LEN
				      ? comm_package(m, m->proc_names[i])
				      : gx_process_package(m->proc_names[i]);
			if (app.n)
				return app;
			/* a cut name that reads like a package: say so rather than guess */
			cut = strlen(m->proc_names[i]) == COMM_LEN &&
			      gx_process_package(m->proc_names[i]).n;
		}
	}
	app = gfxstat_layer_app(layer.p, layer.n);
	if (!app.n && cut)
		gfxstat_model_count(m, GFXSTAT_MODEL_truncated_names);
	return app;
}

static long layer_index(struct gfxstat_model *m, struct gfxstat_str name)
{
	int created = 0;
	long i = gx_strmap_add(&m->layer_names, name.p, name.n, &created);

	if (i < 0 || !created)
		return i;
	if (gx_grow((void **)&m->layers, &m->layers_cap, (size_t)i, sizeof(*m->layers), 32))
		return GFXSTAT_E_NOMEM;
	memset(&m->layers[i], 0, sizeof(m->layers[i]));
	m->layers[i].pub.name = m->layer_names.keys[i].p;
	m->layers[i].pub.app = "";
	m->layers[i].last_present = GFXSTAT_NS_NONE;
	m->layers[i].last_period = 0;
	m->layers[i].pub.first_present = GFXSTAT_NS_NONE;
	m->layers[i].pub.last_present = GFXSTAT_NS_NONE;
	{
		/* a layer's name quotes its package whole */
		struct gfxstat_str pkg = gfxstat_layer_app(name.p, name.n);
		int rc = known_name(m, pkg, pkg);

		if (rc)
			return rc;
	}
	return i;
}

static struct gfxstat_str layer_name_of(const struct gfxstat_frame *f)
{
	struct gfxstat_str s;

	if (!f->layer.n && (f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY ||
			    f->source == GFXSTAT_SRC_FTRACE_DISPLAY)) {
		/* display frames have no layer: they are the screen's own timeline */
		s.p = DISPLAY_LAYER;
		s.n = sizeof(DISPLAY_LAYER) - 1;
		return s;
	}
	return gfxstat_layer_canonical(f->layer.p, f->layer.n);
}

static int overlaps(struct gfxstat_model *m, int64_t present, int64_t period)
{
	/* dumpsys gfxinfo polls repeat the rows still in hwui's ring: a repeated frame is the
	 * same frame (dropped as not increasing), not an overlap. An input lying wholly before
	 * an earlier one overlaps the recording as much as one inside it: the inputs of one run
	 * come in time order. */
	if (m->polls_repeat || !m->span || present >= m->span->end - SEAM_VSYNCS * period)
		return 0;
	m->overlap_end = m->span->end;
	m->overlap_at = present;
	m->overlapped = 1;
	return 1;
}

/* The frame as the model gives it: named, app set, ordered, interval and period filled. */
static int emit(struct gfxstat_model *m, const struct gfxstat_frame *in, long li,
		struct gfxstat_str app)
{
	struct layer_state *l = &m->layers[li];
	struct gfxstat_frame f = *in;
	int64_t period;

	f.layer.p = l->pub.name;
	f.layer.n = m->layer_names.keys[li].n;
	f.app = app;
	if (f.vsync_period_ns != GFXSTAT_NS_NONE && f.vsync_period_ns > 0)
		m->period = f.vsync_period_ns;
	else if (m->period != GFXSTAT_NS_NONE)
		f.vsync_period_ns = m->period;
	period = f.vsync_period_ns != GFXSTAT_NS_NONE ? f.vsync_period_ns : DEFAULT_PERIOD;
	if (f.present_ns != GFXSTAT_NS_NONE) {
		if (overlaps(m, f.present_ns, period))
			return GFXSTAT_E_OVERLAP;
		if (l->last_present != GFXSTAT_NS_NONE && f.present_ns <= l->last_present) {
			gfxstat_model_count(m, f.present_ns == l->last_present && m->polls_repeat
					       ? GFXSTAT_MODEL_repeated : GFXSTAT_MODEL_not_increasing);
			return 0;
		}
		/* a display shows one buffer of a layer per refresh: a present closer than 3/4 of
		 * a vsync to the previous one (the shorter period of the two, across a mode
		 * switch) cannot both have been on screen. App-side frames are rendered, not
		 * presented, and keep their times. */
		if (l->last_present != GFXSTAT_NS_NONE && f.source != GFXSTAT_SRC_APP &&
		    f.vsync_period_ns != GFXSTAT_NS_NONE) {
			int64_t p = f.vsync_period_ns;

			if (l->last_period > 0 && l->last_period < p)
				p = l->last_period;
			/* d * 4 < p * 3 without the products: d < p - floor(p / 4) */
			if (f.present_ns - l->last_present < p - p / 4) {
				gfxstat_model_count(m, GFXSTAT_MODEL_within_one_vsync);
				return 0;
			}
		}
		f.interval_ns = l->last_present != GFXSTAT_NS_NONE ? f.present_ns - l->last_present
								  : GFXSTAT_NS_NONE;
		if (l->pub.frames && f.interval_ns != GFXSTAT_NS_NONE &&
		    f.interval_ns < GFXSTAT_MODEL_WAIT_NS) {
			/* an app-side frame's time is the end of its drawing, which jitters with
			 * the work: it counts as the whole vsyncs it spans (at least one), as
			 * analyze's FPS does, so no rate is above the display's */
			l->pub.active_ns +=
				f.source == GFXSTAT_SRC_APP
					? gx_whole_periods(f.interval_ns,
							   period > 0 ? period : DEFAULT_PERIOD)
					: f.interval_ns;
			l->pub.active_intervals++;
		}
		l->last_present = f.present_ns;
		l->last_period = f.vsync_period_ns != GFXSTAT_NS_NONE ? f.vsync_period_ns : 0;
		if (l->pub.first_present == GFXSTAT_NS_NONE)
			l->pub.first_present = f.present_ns;
		l->pub.last_present = f.present_ns;
		if (m->in_end == GFXSTAT_NS_NONE || f.present_ns > m->in_end)
			m->in_end = f.present_ns;
	} else {
		f.interval_ns = GFXSTAT_NS_NONE;
	}
	if (!l->app && app.n) {
		l->app = malloc(app.n + 1);
		if (!l->app)
			return GFXSTAT_E_NOMEM;
		memcpy(l->app, app.p, app.n);
		l->app[app.n] = 0;
		l->pub.app = l->app;
	}
	l->pub.frames++;
	l->pub.source = f.source;
	gfxstat_model_count(m, GFXSTAT_MODEL_frames_out);
	return m->fn ? m->fn(m->user, &f) : 0;
}

/*
 * A packed frame: its mask words (bit i: word i differs from m->blank), then each word that
 * differs, each as a count byte and that many bytes of a value, little-endian. A word's
 * value is the smaller of its zigzag (counts, ids, tokens, periods) and the zigzag of its
 * difference from the last large word before it (NEAR in the count byte: a frame's times
 * are within a few vsyncs of each other): 5 bytes for most times instead of 8. Count bytes
 * rather than varints, as a held frame is read back twice or more (reconcile(), then emit()).
 */
#define NEAR 0x10u
#define REF_MIN ((uint64_t)1 << 32) /* a word this large becomes the next words' reference */
/* a packed frame's most bytes, and the 8 an unaligned 8-byte write or read may pass it by */
#define PACK_MAX ((MASK_WORDS + FRAME_WORDS) * 9 + 8)

static uint64_t zigzag(uint64_t d)
{
	return d << 1 ^ (0 - (d >> 63));
}

static uint64_t unzigzag(uint64_t z)
{
	return z >> 1 ^ (0 - (z & 1));
}

static int is_large(uint64_t w)
{
	return zigzag(w) >= 2 * REF_MIN;
}

/* the pack's bytes are little-endian, its low ones first */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define PACK_LE(x) __builtin_bswap64(x)
#else
#define PACK_LE(x) (x)
#endif

/* @v as a count byte (with @flags) and its bytes at @o; 8 bytes are written. Return: bytes used */
static size_t put_word(uint8_t *o, uint64_t v, unsigned flags)
{
	unsigned n = v ? (unsigned)(64 - __builtin_clzll(v) + 7) / 8 : 0;

	o[0] = (uint8_t)(n | flags);
	v = PACK_LE(v);
	memcpy(o + 1, &v, 8);
	return 1 + n;
}

static uint64_t get_word(const uint8_t **p, unsigned *flags)
{
	const uint8_t *q = *p;
	unsigned n = q[0] & 0x0f;
	uint64_t v;

	memcpy(&v, q + 1, 8);
	v = PACK_LE(v);
	*flags = q[0] & ~0x0fu;
	*p = q + 1 + n;
	return n == 8 ? v : v & (((uint64_t)1 << (8 * n)) - 1);
}

/* Pack @f's words that differ from m->blank at the end of m->pack; *at is where. */
static int frame_pack(struct gfxstat_model *m, const struct gfxstat_frame *f, uint64_t *at)
{
	uint64_t w[FRAME_WORDS], mask[MASK_WORDS] = { 0 }, ref = 0;
	uint8_t *o;
	size_t i, n = 0;

	w[FRAME_WORDS - 1] = 0; /* the bytes past the frame's, if any */
	memcpy(w, f, sizeof(*f));
	for (i = 0; i < FRAME_WORDS; i++)
		if (w[i] != m->blank[i])
			mask[i / 64] |= (uint64_t)1 << (i % 64);
	o = gx_spill_reserve(&m->pack, PACK_MAX, at);
	if (!o || *at + PACK_MAX >= PACK_LIMIT) /* past what struct held points to */
		return GFXSTAT_E_NOMEM;
	for (i = 0; i < MASK_WORDS; i++)
		n += put_word(o + n, mask[i], 0);
	for (i = 0; i < MASK_WORDS; i++) {
		uint64_t bits = mask[i];

		for (; bits; bits &= bits - 1) {
			uint64_t x = w[i * 64 + (size_t)__builtin_ctzll(bits)];
			uint64_t near = zigzag(x - ref), small = zigzag(x);

			n += near < small ? put_word(o + n, near, NEAR) : put_word(o + n, small, 0);
			if (is_large(x))
				ref = x;
		}
	}
	gx_spill_commit(&m->pack, n);
	return 0;
}

/*
 * The words of the held frame @h as it was held, those it has; the others are left as they
 * were in @w (m->blank's for a whole frame).
 * Return: 0, or GFXSTAT_E_IO when its pack cannot be read back from the temporary file.
 */
static int held_words(struct gfxstat_model *m, const struct held *h, uint64_t *w)
{
	const uint8_t *q = gx_spill_at(&m->pack, held_pack(h));
	uint64_t mask[MASK_WORDS], ref = 0;
	unsigned flags;
	size_t k;

	if (!q)
		return GFXSTAT_E_IO;
	for (k = 0; k < MASK_WORDS; k++)
		mask[k] = get_word(&q, &flags);
	for (k = 0; k < MASK_WORDS; k++) {
		uint64_t bits = mask[k];

		for (; bits; bits &= bits - 1) {
			size_t i = k * 64 + (size_t)__builtin_ctzll(bits);
			uint64_t v = unzigzag(get_word(&q, &flags));

			w[i] = flags & NEAR ? v + ref : v;
			if (is_large(w[i]))
				ref = w[i];
		}
	}
	return 0;
}

/* The held frame @h, whole again (its keys as reconcile() left them). Return: as held_words(). */
static int frame_unpack(struct gfxstat_model *m, const struct held *h, struct gfxstat_frame *f)
{
	uint64_t w[FRAME_WORDS];
	int rc;

	memcpy(w, m->blank, sizeof(w));
	rc = held_words(m, h, w);
	memcpy(f, w, sizeof(*f));
	f->present_ns = h->present_ns;
	f->vsync_period_ns = h->vsync_period_ns;
	return rc;
}

/* FrameTimeline's PresentType of a frame never presented (frame_timeline_event.proto) */
#define FT_PRESENT_DROPPED 4

static int is_marker_source(enum gfxstat_frame_source s)
{
	return s == GFXSTAT_SRC_FTRACE || s == GFXSTAT_SRC_FTRACE_DISPLAY;
}

static int is_ft_source(enum gfxstat_frame_source s)
{
	return s == GFXSTAT_SRC_FRAMETIMELINE || s == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY;
}

static int hold(struct gfxstat_model *m, const struct gfxstat_frame *f, long li,
		struct gfxstat_str app)
{
	struct layer_state *l = &m->layers[li];
	struct gfxstat_frame c;
	struct ft_held r;
	struct held *h = &r.h;
	uint64_t at;
	int rc;

	/* the borrowed strings die with the callback */
	c = *f;
	c.layer.p = c.app.p = "";
	c.layer.n = c.app.n = 0;
	rc = frame_pack(m, &c, &at);
	if (rc)
		return rc;
	memset(&r, 0, sizeof(r)); /* the padding too: the records go to a file */
	h->pack_lo = (uint32_t)at;
	h->pack_hi = (uint8_t)(at >> 32);
	h->present_ns = f->present_ns;
	h->vsync_period_ns = f->vsync_period_ns;
	h->display_token = f->display_token;
	h->dropped = f->present_type == FT_PRESENT_DROPPED;
	h->source = (uint8_t)f->source;
	h->layer = (uint32_t)li;
	h->app = 0;
	if (app.n) {
		int created;
		long ai = gx_strmap_add(&m->apps, app.p, app.n, &created);

		if (ai < 0)
			return (int)ai;
		h->app = (uint32_t)ai + 1;
	}
	if (!is_ft_source(f->source)) {
		l->held_markers += is_marker_source(f->source);
		return gx_xsort_put(&m->other, h);
	}
	/* a display frame's token is its own (FrameTimeline gives it as both) */
	r.join = f->source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY && f->display_token < 0
			 ? f->token : f->display_token;
	l->held_ft++;
	l->held_tok += f->display_token >= 0;
	return gx_xsort_put(&m->ft, &r);
}

static int time_ok(int64_t t)
{
	return t == GFXSTAT_NS_NONE || (t >= -GX_NS_LIMIT && t <= GX_NS_LIMIT);
}

/* Every time the model and the metrics do arithmetic on is one a clock can give (a
 * --latency row near INT64_MAX overflowed the one-buffer-per-refresh test and dropped the
 * wrong frame): past this, differences and small multiples of them cannot overflow. */
static int frame_in_range(const struct gfxstat_frame *f)
{
	return time_ok(f->present_ns) && time_ok(f->latch_ns) && time_ok(f->desired_present_ns) &&
	       time_ok(f->expected_start_ns) && time_ok(f->expected_end_ns) &&
	       time_ok(f->actual_start_ns) && time_ok(f->actual_end_ns) &&
	       time_ok(f->duration_ns) &&
	       (f->vsync_period_ns == GFXSTAT_NS_NONE ||
		(f->vsync_period_ns >= -GX_PERIOD_LIMIT && f->vsync_period_ns <= GX_PERIOD_LIMIT));
}

int gfxstat_model_frame(void *user, const struct gfxstat_frame *f)
{
	struct gfxstat_model *m = user;
	struct gfxstat_str name = layer_name_of(f);
	long li;

	if (m->overlapped)
		return GFXSTAT_E_OVERLAP;
	/* a record with neither a present nor a duration (a gfxinfo row hwui does not count)
	 * times nothing: no command counts it */
	if (f->present_ns == GFXSTAT_NS_NONE && f->duration_ns == GFXSTAT_NS_NONE) {
		gfxstat_model_count(m, GFXSTAT_MODEL_untimed);
		return 0;
	}
	if (!frame_in_range(f)) {
		gfxstat_model_count(m, GFXSTAT_MODEL_out_of_range);
		return 0;
	}
	li = layer_index(m, name);
	if (li < 0)
		return (int)li;
	gfxstat_model_count(m, GFXSTAT_MODEL_frames_in);
	if (m->hold)
		return hold(m, f, li, resolve_app(m, f, name));
	return emit(m, f, li, resolve_app(m, f, name));
}

void gfxstat_model_input_begin(struct gfxstat_model *m, int hold_frames, const char *format)
{
	size_t i;

	m->hold = hold_frames;
	m->format = format ? format : "";
	m->polls_repeat = strcmp(m->format, "gfxinfo") == 0;
	m->span = NULL;
	for (i = 0; i < m->nspans; i++)
		if (strcmp(m->spans[i].format, m->format) == 0)
			m->span = &m->spans[i];
	sorts_free(m);
	m->held_to_file = 0;
	sorts_init(m);
	gx_spill_free(&m->pack);
	gx_spill_init(&m->pack, MODEL_KEEP, m->tmpdir);
	m->in_end = GFXSTAT_NS_NONE;
	memset(&m->stats, 0, sizeof(m->stats));
	for (i = 0; i < m->layer_names.n; i++) {
		m->layers[i].pub.frames = 0;
		m->layers[i].pub.active_ns = 0;
		m->layers[i].pub.active_intervals = 0;
		m->layers[i].pub.first_present = m->layers[i].pub.last_present = GFXSTAT_NS_NONE;
		m->layers[i].held_ft = m->layers[i].held_tok = m->layers[i].held_markers = 0;
	}
}

/*
 * A FrameTimeline surface frame's actual slice ends when the app's buffer was ready
 * (SurfaceFrame::traceActuals writes mActuals.endTime); it reaches the screen at the present
 * fence of the display frame it was latched in (DisplayFrame::onPresent hands signalTime to
 * each SurfaceFrame, and DisplayFrame::traceActuals ends the display slice at presentTime;
 * FrameTimeline::computeFps counts a layer's frames at those display present times).
 * frameworks/native services/surfaceflinger/FrameTimeline/FrameTimeline.cpp.
 * A dropped surface frame was never presented (FT_PRESENT_DROPPED).
 * The frames come sorted by that token, each display frame ahead of its surface frames.
 */
static void present_surface_frame(struct held *h, const struct ft_held *r,
				   const struct ft_held *display)
{
	if (h->dropped || r->join < 0 || !display || display->join != r->join) {
		h->present_ns = GFXSTAT_NS_NONE;
		return;
	}
	h->present_ns = display->h.present_ns;
	if (h->vsync_period_ns == GFXSTAT_NS_NONE)
		h->vsync_period_ns = display->h.vsync_period_ns;
}

static int put_check(struct gfxstat_model *m, const struct held *h, int kind, int marker,
		     int64_t key, int64_t lo)
{
	struct check c;

	memset(&c, 0, sizeof(c));
	c.layer = h->layer;
	c.kind = (uint8_t)kind;
	c.marker = (uint8_t)marker;
	c.key = key;
	c.lo = lo;
	return gx_xsort_put(&m->check, &c);
}

/* The comparisons of the markers with FrameTimeline (put_check()), counted. */
static int count_agreed(struct gfxstat_model *m)
{
	const struct check *c;
	struct check at = { 0, 0, UINT32_MAX, 0, 0 };
	int ft = 0; /* a FrameTimeline frame of @at's token; or present at or before it */
	int rc = gx_xsort_sorted(&m->check);

	while (!rc && (c = gx_xsort_next(&m->check))) {
		if (c->layer != at.layer || c->kind != at.kind ||
		    (c->kind == CHECK_TOKEN && c->key != at.key)) {
			at = *c;
			ft = 0;
		}
		if (!c->marker) {
			ft = 1;
			at.key = c->key;
		} else if (ft && (c->kind == CHECK_TOKEN || at.key >= c->lo)) {
			gfxstat_model_count(m, GFXSTAT_MODEL_markers_agree);
		}
	}
	return rc ? rc : m->check.failed;
}

/*
 * FrameTimeline (SurfaceFlinger's own account, with present fences) is authoritative where a
 * trace has it: the frames found from the markers of a layer it covers are the same buffers.
 * They are compared with it (a marker refresh that names its vsync id, Android 13+, by that
 * token; the others by the nearest FrameTimeline present) and not passed on again. Every
 * other frame goes to @m->out, to go on by present.
 */
static int reconcile(struct gfxstat_model *m)
{
	struct ft_held display; /* the display frame of the token being read */
	const struct ft_held *r;
	const struct held *o;
	int have = 0;
	int rc = gx_xsort_sorted(&m->ft);

	memset(&display, 0, sizeof(display));

	while (!rc && (r = gx_xsort_next(&m->ft))) {
		struct held h;

		memcpy(&h, &r->h, sizeof(h)); /* its padding too, zeroed: it may go to a file */

		if (h.source == GFXSTAT_SRC_FRAMETIMELINE_DISPLAY) {
			if (!have || display.join != r->join)
				display = *r;
			have = 1;
		} else {
			present_surface_frame(&h, r, have ? &display : NULL);
		}
		if (m->layers[h.layer].held_markers) {
			if (h.display_token >= 0)
				rc = put_check(m, &h, CHECK_TOKEN, 0, h.display_token, 0);
			if (!rc && h.present_ns != GFXSTAT_NS_NONE)
				rc = put_check(m, &h, CHECK_TIME, 0, h.present_ns, 0);
		}
		if (!rc)
			rc = gx_xsort_put(&m->out, &h);
	}
	if (!rc)
		rc = m->ft.failed;
	sort_free(m, &m->ft);
	if (!rc)
		rc = gx_xsort_sorted(&m->other);
	while (!rc && (o = gx_xsort_next(&m->other))) {
		const struct layer_state *l = &m->layers[o->layer];
		int64_t p = o->present_ns, period;

		if (!is_marker_source(o->source) || !l->held_ft) {
			rc = gx_xsort_put(&m->out, o);
			continue;
		}
		gfxstat_model_count(m, GFXSTAT_MODEL_markers_compared);
		gfxstat_model_count(m, GFXSTAT_MODEL_markers_replaced);
		gx_spill_done(&m->pack, held_pack(o));
		if (o->display_token >= 0 && l->held_tok) {
			gfxstat_model_count(m, GFXSTAT_MODEL_markers_by_token);
			rc = put_check(m, o, CHECK_TOKEN, 1, o->display_token, 0);
		} else if (p != GFXSTAT_NS_NONE) {
			period = o->vsync_period_ns != GFXSTAT_NS_NONE ? o->vsync_period_ns
								       : DEFAULT_PERIOD;
			rc = put_check(m, o, CHECK_TIME, 1, p + period, p - period);
		}
	}
	if (!rc)
		rc = m->other.failed;
	sort_free(m, &m->other);
	if (!rc)
		rc = count_agreed(m);
	sort_free(m, &m->check);
	return rc;
}

int gfxstat_model_input_end(struct gfxstat_model *m)
{
	int rc = 0;

	if (m->hold) {
		const struct held *h;

		m->held_to_file = 0;
		rc = reconcile(m);
		if (!rc)
			rc = gx_xsort_sorted(&m->out);
		/* a pack block all gone on gives its memory back: the next stages' memory grows
		 * as this one's gives way */
		while (!rc && (h = gx_xsort_next(&m->out))) {
			struct gfxstat_str app = { "", 0 };
			struct gfxstat_frame f;

			if (h->app) {
				app.p = m->apps.keys[h->app - 1].p;
				app.n = m->apps.keys[h->app - 1].n;
			}
			rc = frame_unpack(m, h, &f);
			if (!rc)
				rc = emit(m, &f, (long)h->layer, app);
			gx_spill_done(&m->pack, held_pack(h));
		}
		if (!rc)
			rc = m->out.failed;
		/* given back: the next stages' work at the end needs the room more */
		sorts_free(m);
		m->held_to_file += (uint64_t)m->pack.spilled * GX_SPILL_BLOCK;
		gx_spill_free(&m->pack);
		m->hold = 0;
	}
	if (m->in_end != GFXSTAT_NS_NONE) {
		if (!m->span && m->nspans < MAX_FORMATS) {
			m->span = &m->spans[m->nspans++];
			m->span->format = m->format;
			m->span->end = m->in_end;
		} else if (m->span && m->in_end > m->span->end) {
			m->span->end = m->in_end;
		}
		m->in_end = GFXSTAT_NS_NONE;
	}
	return rc;
}

int gfxstat_model_overlap(const struct gfxstat_model *m, int64_t *earlier_end, int64_t *at)
{
	*earlier_end = m->overlap_end;
	*at = m->overlap_at;
	return m->overlapped;
}

size_t gfxstat_model_layer_count(const struct gfxstat_model *m)
{
	return m->layer_names.n;
}

const struct gfxstat_model_layer *gfxstat_model_layer(const struct gfxstat_model *m, size_t i)
{
	static const struct gfxstat_model_layer none = { "?", "", 0, 0, 0, 0, 0, 0 };
	return i < m->layer_names.n ? &m->layers[i].pub : &none;
}

const struct gfxstat_model_stats *gfxstat_model_stats(const struct gfxstat_model *m)
{
	return &m->stats;
}
