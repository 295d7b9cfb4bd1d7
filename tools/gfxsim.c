/* SPDX-License-Identifier: MIT */
/*
 * gfxsim - write a synthetic Android 9 style `atrace gfx` trace, as
 * `cat /sys/kernel/debug/tracing/trace_pipe` shows it, together with the ground
 * truth of which buffers reached the display and when.
 *
 * The simulation is vsync driven.  At every hardware vsync k (time t0 + k * P) it
 * decides, in this order: burst/idle phase changes, the HW_VSYNC_0 toggle, background
 * activity (status bar tick, short animations, transactions), which producers get a
 * VSYNC-app callback and what their frame looks like, whether SurfaceFlinger gets a
 * VSYNC-sf callback and what it latches and composes, and video buffers.  Every
 * decision made at vsync k only schedules lines at times >= t0 + k * P, so once vsync k
 * is decided all lines before vsync k + 1 are final and are written out of a min-heap
 * in time order.  Memory is bounded by the amount of work in flight, never by the
 * trace length.
 *
 * Everything that depends on the *order of lines* (BufferQueue counter values, the
 * VSYNC toggle values, the truth timestamps) is computed when the line is written, so
 * the trace and the truth always agree with what a reader sees.
 *
 * Independent PRNG streams keep outputs comparable across options: `sim` drives
 * the simulation, `fmt` the cosmetic per-line choices of marker lines (cpu migration,
 * irq flags, "<...>" comms) and `noise` the sched/cpu noise.  So --sched-noise, --tgid,
 * --irq, --legacy-marker, --crlf and --no-header never change which frames happen or when
 * (`aux` feeds the header block).
 *
 * Build: cc -std=c11 -O2 -Wall -Wextra -Wstrict-prototypes -o build/gfxsim tools/gfxsim.c
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL
#define NEVER		INT64_MAX

#define NCPU		8
#define MAX_APPS	32
#define MAX_THREADS	320
#define MAX_NAMES	512
#define NAME_LEN	128
#define MAX_LAYERS	48
#define MAX_PRODUCERS	40
#define LAYER_FIFO	8
#define SF_BINDERS	4
#define OUT_BUF_SIZE	((size_t)4 << 20)
/* Longest possible line: header ~60, sched_switch payload ~190, marker name < NAME_LEN. */
#define LINE_MAX_LEN	1024
#define HEAP_MAX	((size_t)1 << 24)
#define TF_CAP		8192	/* truth frames latched but not yet presented */
#define TR_CAP		2048	/* truth refreshes not yet presented */
#define VIDEO_PERIOD	33333333LL	/* 30 fps decoder feeding a SurfaceTexture */

/* ------------------------------------------------------------------------------------ */
/* Messages                                                                             */

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("gfxsim: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Usage errors exit 2, as the brief and the project's exit-code table require. */
static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fputs("gfxsim: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\ntry 'gfxsim --help' for more information\n", stderr);
	exit(2);
}

/* ------------------------------------------------------------------------------------ */
/* PRNG: splitmix64.  Tiny, fast, and good enough for workload shapes.                  */

struct rng {
	uint64_t s;
};

static uint64_t rng_u64(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) by multiply-shift; n must be > 0. */
static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_u64(r) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [lo, hi], both inclusive. */
static int64_t rng_range(struct rng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)(hi - lo) + 1;

	return lo + (int64_t)(rng_u64(r) % span);
}

static uint64_t mix64(uint64_t x)
{
	struct rng r = { x };

	return rng_u64(&r);
}

/* ------------------------------------------------------------------------------------ */
/* Options                                                                              */

enum tgid_mode { TGID_5, TGID_7, TGID_NONE };
enum irq_mode { IRQ_4, IRQ_5, IRQ_NONE };

struct opts {
	uint64_t seed;
	int hz;
	int64_t duration_ns;	/* 0: not given */
	uint64_t size;		/* 0: not given */
	int apps;
	bool game;
	int jank_pct;
	int idle_pct;
	int noise;
	enum tgid_mode tgid;
	enum irq_mode irq;
	bool legacy;
	bool header;
	bool crlf;
	const char *truth_path;
	const char *out_path;
};

enum opt_id {
	O_SEED, O_HZ, O_DURATION, O_SIZE, O_APPS, O_GAME, O_JANK, O_IDLE, O_NOISE, O_TGID,
	O_IRQ, O_LEGACY, O_HEADER, O_NO_HEADER, O_CRLF, O_TRUTH, O_OUT, O_HELP,
};

struct opt_def {
	const char *lname;
	char sname;
	bool has_arg;
	enum opt_id id;
	const char *argname;
	const char *help;
};

/* One table drives both parsing and --help, so they cannot drift apart. */
static const struct opt_def opt_table[] = {
	{ "seed", 0, true, O_SEED, "N", "PRNG seed, decimal or 0x hex (default 1)" },
	{ "hz", 0, true, O_HZ, "HZ", "refresh rate: 60, 90, 120 or 144 (default 60)" },
	{ "duration", 0, true, O_DURATION, "SEC",
	  "simulated seconds, decimals allowed (default 10 unless --size)" },
	{ "size", 0, true, O_SIZE, "BYTES",
	  "stop after >= BYTES written; suffix k/M/G = KiB/MiB/GiB" },
	{ "apps", 0, true, O_APPS, "N", "number of app processes, 0..32 (default 2)" },
	{ "game", 0, false, O_GAME, NULL, "add a game drawing into a SurfaceView" },
	{ "jank", 0, true, O_JANK, "PERCENT", "share of app frames over budget (default 5)" },
	{ "idle", 0, true, O_IDLE, "PERCENT",
	  "share of time in idle gaps, 0..90 (default 20; 0 = never idle)" },
	{ "sched-noise", 0, true, O_NOISE, "N",
	  "about N sched/cpu lines per marker line, 0..100 (default 0)" },
	{ "tgid", 0, true, O_TGID, "5|7|none", "TGID column width or none (default 5)" },
	{ "irq", 0, true, O_IRQ, "4|5|none", "irq-flags column width or none (default 4)" },
	{ "legacy-marker", 0, false, O_LEGACY, NULL,
	  "write '0: ' instead of 'tracing_mark_write: '" },
	{ "header", 0, false, O_HEADER, NULL,
	  "write the '# tracer: nop' block and clock sync markers (default)" },
	{ "no-header", 0, false, O_NO_HEADER, NULL, "omit them (a bare trace_pipe stream)" },
	{ "crlf", 0, false, O_CRLF, NULL, "CRLF line endings" },
	{ "truth", 0, true, O_TRUTH, "FILE", "write the ground-truth CSV to FILE" },
	{ "output", 'o', true, O_OUT, "FILE", "write the trace to FILE (default stdout)" },
	{ "help", 'h', false, O_HELP, NULL, "show this help and exit" },
};

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: gfxsim [<options>]\n\n"
	      "Write a synthetic Android 9 atrace/trace_pipe gfx trace and its ground truth.\n\n",
	      f);
	for (i = 0; i < sizeof(opt_table) / sizeof(opt_table[0]); i++) {
		const struct opt_def *d = &opt_table[i];
		char left[48];

		if (d->sname)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", d->sname, d->lname,
				 d->has_arg ? " " : "", d->has_arg ? d->argname : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", d->lname,
				 d->has_arg ? " " : "", d->has_arg ? d->argname : "");
		fprintf(f, "  %-28s %s\n", left, d->help);
	}
	fputs("\nWhen both --duration and --size are given, whichever comes first stops.\n"
	      "The pid column is 7 wide with --tgid 7 (or --tgid none --irq 5), else 5.\n"
	      "Truth CSV: present_ns,layer,app,latch_ns,vsync_ns,late_vsyncs.\n", f);
}

/* Strict unsigned decimal (or 0x hex when hex_ok); rejects sign, junk and overflow. */
static bool parse_u64(const char *s, bool hex_ok, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;

	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static int parse_int_opt(const char *name, const char *arg, int lo, int hi)
{
	uint64_t v;

	if (!parse_u64(arg, false, &v) || v < (uint64_t)lo || v > (uint64_t)hi)
		die_usage("invalid value '%s' for --%s (expected an integer %d..%d)",
			  arg, name, lo, hi);
	return (int)v;
}

/* "10", "2.5", "0.125s": seconds to integer ns without floating point. */
static int64_t parse_duration(const char *arg)
{
	const char *s = arg;
	int64_t sec = 0, frac = 0, scale = NSEC_PER_SEC;
	bool digits = false;

	for (; *s >= '0' && *s <= '9'; s++, digits = true) {
		sec = sec * 10 + (*s - '0');
		if (sec > 10000000)
			goto bad;
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, digits = true) {
			if (scale > 1) {
				scale /= 10;
				frac += (*s - '0') * scale;
			}
		}
	}
	if (*s == 's')
		s++;
	if (*s || !digits || sec * NSEC_PER_SEC + frac <= 0)
		goto bad;
	return sec * NSEC_PER_SEC + frac;
bad:
	die_usage("invalid value '%s' for --duration (expected seconds > 0, e.g. 10 or 2.5)",
		  arg);
}

static uint64_t parse_size(const char *arg)
{
	char num[32];
	size_t n = strlen(arg);
	uint64_t v, mul = 1;

	if (n == 0 || n >= sizeof(num))
		goto bad;
	memcpy(num, arg, n + 1);
	switch (num[n - 1]) {
	case 'k': case 'K': mul = (uint64_t)1 << 10; break;
	case 'm': case 'M': mul = (uint64_t)1 << 20; break;
	case 'g': case 'G': mul = (uint64_t)1 << 30; break;
	default: break;
	}
	if (mul != 1)
		num[n - 1] = '\0';
	if (!parse_u64(num, false, &v) || v == 0 || v > UINT64_MAX / mul)
		goto bad;
	return v * mul;
bad:
	die_usage("invalid value '%s' for --size (expected bytes > 0, suffix k/M/G allowed)",
		  arg);
}

static void apply_opt(struct opts *o, const struct opt_def *d, const char *arg)
{
	switch (d->id) {
	case O_SEED:
		if (!parse_u64(arg, true, &o->seed))
			die_usage("invalid value '%s' for --seed", arg);
		break;
	case O_HZ:
		o->hz = parse_int_opt(d->lname, arg, 1, 1000);
		if (o->hz != 60 && o->hz != 90 && o->hz != 120 && o->hz != 144)
			die_usage("invalid value '%s' for --hz (expected 60, 90, 120 or 144)",
				  arg);
		break;
	case O_DURATION: o->duration_ns = parse_duration(arg); break;
	case O_SIZE: o->size = parse_size(arg); break;
	case O_APPS: o->apps = parse_int_opt(d->lname, arg, 0, MAX_APPS); break;
	case O_GAME: o->game = true; break;
	case O_JANK: o->jank_pct = parse_int_opt(d->lname, arg, 0, 100); break;
	case O_IDLE: o->idle_pct = parse_int_opt(d->lname, arg, 0, 90); break;
	case O_NOISE: o->noise = parse_int_opt(d->lname, arg, 0, 100); break;
	case O_TGID:
		if (!strcmp(arg, "5"))
			o->tgid = TGID_5;
		else if (!strcmp(arg, "7"))
			o->tgid = TGID_7;
		else if (!strcmp(arg, "none"))
			o->tgid = TGID_NONE;
		else
			die_usage("invalid value '%s' for --tgid (expected 5, 7 or none)", arg);
		break;
	case O_IRQ:
		if (!strcmp(arg, "4"))
			o->irq = IRQ_4;
		else if (!strcmp(arg, "5"))
			o->irq = IRQ_5;
		else if (!strcmp(arg, "none"))
			o->irq = IRQ_NONE;
		else
			die_usage("invalid value '%s' for --irq (expected 4, 5 or none)", arg);
		break;
	case O_LEGACY: o->legacy = true; break;
	case O_HEADER: o->header = true; break;
	case O_NO_HEADER: o->header = false; break;
	case O_CRLF: o->crlf = true; break;
	case O_TRUTH: o->truth_path = arg; break;
	case O_OUT: o->out_path = arg; break;
	case O_HELP:
		usage(stdout);
		exit(0);
	}
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	const size_t nopt = sizeof(opt_table) / sizeof(opt_table[0]);
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct opt_def *d = NULL;
		const char *arg = NULL;
		size_t j;

		if (a[0] == '-' && a[1] == '-' && a[2]) {
			const char *eq = strchr(a + 2, '=');
			size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);

			for (j = 0; j < nopt; j++)
				if (strlen(opt_table[j].lname) == n &&
				    !strncmp(opt_table[j].lname, a + 2, n))
					d = &opt_table[j];
			if (!d)
				die_usage("unknown option '%s'", a);
			if (eq) {
				if (!d->has_arg)
					die_usage("option '--%s' takes no value", d->lname);
				arg = eq + 1;
			}
		} else if (a[0] == '-' && a[1] && a[1] != '-' && !a[2]) {
			for (j = 0; j < nopt; j++)
				if (opt_table[j].sname == a[1])
					d = &opt_table[j];
			if (!d)
				die_usage("unknown option '%s'", a);
		} else {
			die_usage("unexpected argument '%s'", a);
		}
		if (d->has_arg && !arg) {
			if (i + 1 >= argc)
				die_usage("option '%s' needs a value", a);
			arg = argv[++i];
		}
		apply_opt(o, d, arg);
	}
}

/* ------------------------------------------------------------------------------------ */
/* Simulation state                                                                     */

/* Fixed marker names; dynamic ones (layers, TX, launches) are appended after N_FIXED. */
enum {
	N_DOFRAME, N_INPUT, N_ANIMATION, N_TRAVERSAL, N_MEASURE, N_LAYOUT, N_DRAW, N_RECORD,
	N_INFLATE, N_DRAWFRAME, N_SYNCFRAME, N_UPDATETEX, N_DEQUEUE, N_FLUSH, N_SWAP,
	N_QUEUE, N_ONDRAW, N_ONMSG, N_HTRANSACTION, N_HINVALIDATE, N_LATCH, N_HREFRESH,
	N_PRECOMP, N_REBUILD, N_SETUPHWC, N_DOCOMP, N_POSTFB, N_POSTCOMP, N_VSYNC_APP,
	N_VSYNC_SF, N_HW_VSYNC, N_HW_VSYNC_ON, N_FRAMEMISSED, N_CLIENTCOMP, N_LOADDATA,
	N_FIXED,
};

static const char *const fixed_names[N_FIXED] = {
	[N_DOFRAME] = "Choreographer#doFrame",
	[N_INPUT] = "input",
	[N_ANIMATION] = "animation",
	[N_TRAVERSAL] = "traversal",
	[N_MEASURE] = "measure",
	[N_LAYOUT] = "layout",
	[N_DRAW] = "draw",
	[N_RECORD] = "Record View#draw()",
	[N_INFLATE] = "inflate",
	[N_DRAWFRAME] = "DrawFrame",
	[N_SYNCFRAME] = "syncFrameState",
	[N_UPDATETEX] = "updateTexImage",
	[N_DEQUEUE] = "dequeueBuffer",
	[N_FLUSH] = "flush commands",
	[N_SWAP] = "eglSwapBuffersWithDamageKHR",
	[N_QUEUE] = "queueBuffer",
	[N_ONDRAW] = "onDrawFrame",
	[N_ONMSG] = "onMessageReceived",
	[N_HTRANSACTION] = "handleTransaction",
	[N_HINVALIDATE] = "handleMessageInvalidate",
	[N_LATCH] = "latchBuffer",
	[N_HREFRESH] = "handleMessageRefresh",
	[N_PRECOMP] = "preComposition",
	[N_REBUILD] = "rebuildLayerStacks",
	[N_SETUPHWC] = "setUpHWComposer",
	[N_DOCOMP] = "doComposition",
	[N_POSTFB] = "postFramebuffer",
	[N_POSTCOMP] = "postComposition",
	[N_VSYNC_APP] = "VSYNC-app",
	[N_VSYNC_SF] = "VSYNC-sf",
	[N_HW_VSYNC] = "HW_VSYNC_0",
	[N_HW_VSYNC_ON] = "HW_VSYNC_ON_0",
	[N_FRAMEMISSED] = "FrameMissed",
	[N_CLIENTCOMP] = "hasClientComposition",
	[N_LOADDATA] = "loadData",
};

/* Kinds of scheduled marker lines. */
enum ev_kind {
	EK_B,		/* B|pid|name */
	EK_E,		/* E|pid */
	EK_C,		/* C|pid|name|a */
	EK_S,		/* S|pid|name|a */
	EK_F,		/* F|pid|name|a */
	EK_TEXT,	/* the name verbatim (trace_event_clock_sync) */
	EK_VSYNC,	/* C|pid|name|toggle; VSYNC-app/sf present pending truth frames */
	EK_BUFQ,	/* C|pid|layer|++depth (BufferQueueProducer::queueBuffer) */
	EK_ACQ,		/* C|pid|layer|depth-=name (acquire); b = truth frame slot or -1 */
	EK_POSTFB,	/* B|pid|postFramebuffer; a = truth refresh slot */
};

struct ev {
	int64_t t;
	uint64_t seq;	/* FIFO among equal times keeps per-thread order stable */
	uint16_t thr;
	uint8_t kind;
	int32_t name;
	int32_t a;
	int32_t b;
};

enum sched_state { SS_SLEEPING, SS_RUNNABLE, SS_RUNNING };

struct thread {
	char comm[16];		/* real comm (sched_switch payloads) */
	int tid;
	int tgid;
	int prio;
	uint16_t unknown_pm;	/* per mille of lines whose header shows "<...>" */
	bool tgid_unknown;	/* header shows (-----) */
	bool idle;
	uint8_t cpu;
	int8_t run_cpu;		/* sched noise: the CPU running it, or -1 */
	uint8_t sst;		/* sched noise: SS_SLEEPING, SS_RUNNABLE or SS_RUNNING */
	int16_t rq;		/* sched noise: its index in runq while runnable */
	uint8_t hlen[2];
	uint8_t plen;
	char hdr[2][48];	/* "<comm>-<pid> (<tgid>) " precomputed: [0] named, [1] <...> */
	char pidstr[12];	/* tgid as text, for marker payloads */
};

struct buf_entry {
	int64_t q;		/* time of the queue counter line (scheduled) */
	int64_t intended;	/* display vsync index the frame was meant for */
	int prod;
	int launch_name;	/* first frame after a launch: end "launching:" when shown */
};

struct layer {
	int name;
	int tx_name;
	char app[64];
	bool sf;		/* consumer in SurfaceFlinger: latched, composed, in the truth */
	int count;		/* emission-time queue depth: what the counter shows */
	struct buf_entry fifo[LAYER_FIFO];
	int head, n;
	bool tx_pending;
	int64_t tx_time;
	uint64_t presented;
	uint64_t queued;
};

enum pkind { PK_APP, PK_GL };

struct producer {
	enum pkind kind;
	int layer;
	int ui, rt, worker;	/* thread indices; PK_GL uses rt only */
	int64_t armed_at;	/* requestNextVsync time, NEVER when not requested */
	int64_t ui_free, rt_free, worker_free;
	int frames_left;	/* -1: keep drawing; >0: frames still to draw; 0: stop */
	int outstanding;	/* buffers decided but not yet latched */
	int launch_name;	/* "launching: <pkg>" to end when the first frame shows, or -1 */
	bool heavy;		/* game: more work and more jank */
};

enum phase { PH_ACTIVE, PH_DRAIN, PH_IDLE };

struct tframe {
	int layer;
	int64_t intended;
	int64_t latch_ns;
};

struct trefresh {
	uint64_t first;
	uint32_t n;
	bool posted;
	int64_t disp_idx;
};

struct gen {
	struct opts o;
	struct rng sim, fmt, noise, aux;
	int64_t P, app_off, sf_off;
	int64_t t_start, t0, t_end;
	int pidw;
	const char *eol;
	size_t eol_len;
	const char *mark;
	size_t mark_len;

	/* output */
	FILE *out;
	const char *out_name;
	char *buf;
	size_t len;
	uint64_t flushed;
	uint64_t lines, marker_lines, noise_lines;
	int64_t last_us;
	int64_t noise_credit;
	int64_t sec_cached;
	char sec_str[24];
	size_t sec_len;
	bool stop;

	/* names */
	char names[MAX_NAMES][NAME_LEN];
	uint8_t name_len[MAX_NAMES];
	int nnames;

	/* threads */
	struct thread th[MAX_THREADS];
	int nth;
	int cpu_cur[NCPU];
	int idle_thr[NCPU];
	int pool[MAX_THREADS];	/* non-idle threads, for noise */
	int npool;
	int runq[MAX_THREADS];	/* sched noise: runnable threads */
	int nrunq;
	int freq_idx[2];	/* sched noise: frequency step of the big [0] and little [1] */
	bool cstate[NCPU];	/* sched noise: the CPU's idle task is in a C-state */
	int sfpid;
	int t_sf_main, t_dispsync, t_evctl, t_hwbinder, t_sfbinder[SF_BINDERS];
	int t_ss_binder, t_ss_am, t_atrace, t_vbinder;

	/* layers and producers */
	struct layer L[MAX_LAYERS];
	int nl;
	struct producer pr[MAX_PRODUCERS];
	int np;
	int p_app[MAX_APPS];
	int p_sysui, p_gamewin, p_gamegl;
	int launch_app[MAX_APPS + 1];
	int nfg;		/* fg candidates: apps, then the game */
	int fg;

	/* vsync / phase state */
	enum phase phase;
	int64_t burst_end, idle_until;
	bool hw_on;
	int64_t hw_from;
	int quiet;
	int64_t next_sb;
	int64_t sf_main_free;
	int64_t last_disp_ns;
	bool sf_retry;
	int tog_app, tog_sf, tog_hw;

	/* SurfaceTexture video (consumer in the app process) */
	int video_prod, video_layer;
	bool v_started, v_on;
	int64_t v0, v_end;
	uint64_t v_seed;
	uint64_t v_base, v_i, v_consumed;

	/* event heap */
	struct ev *heap;
	size_t hn, hcap;
	uint64_t seq;

	/* truth */
	FILE *truth;
	struct tframe tf[TF_CAP];
	uint64_t tf_head, tf_tail;
	struct trefresh tr[TR_CAP];
	uint64_t tr_head, tr_tail;
	uint64_t truth_rows;
	uint64_t anomalies;
};

/* ------------------------------------------------------------------------------------ */
/* Small helpers                                                                        */

static int64_t rns(struct gen *g, int64_t lo_us, int64_t hi_us)
{
	return rng_range(&g->sim, lo_us * NSEC_PER_USEC, hi_us * NSEC_PER_USEC);
}

/* A random share of the vsync period, in hundredths of a percent resolution. */
static int64_t pctP(struct gen *g, int lo, int hi)
{
	return g->P * rng_range(&g->sim, (int64_t)lo * 100, (int64_t)hi * 100) / 10000;
}

static bool chance_pm(struct rng *r, uint32_t pm)
{
	return rng_below(r, 1000) < pm;
}

static int add_name(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int add_name(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (g->nnames >= MAX_NAMES)
		die("internal error: too many names");
	va_start(ap, fmt);
	n = vsnprintf(g->names[g->nnames], NAME_LEN, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= NAME_LEN)
		die("internal error: name too long");
	g->name_len[g->nnames] = (uint8_t)n;
	return g->nnames++;
}

/*
 * ART's SetThreadName keeps the *last* 15 characters of dotted names (so
 * "com.android.systemui" shows as "ndroid.systemui") and the first 15 otherwise.
 */
static void art_comm(char out[16], const char *name)
{
	size_t len = strlen(name);
	const char *s = name;

	if (len >= 15 && strchr(name, '.') && !strchr(name, '@'))
		s = name + len - 15;
	snprintf(out, 16, "%s", s);
}

static bool tid_used(const struct gen *g, int tid)
{
	int i;

	for (i = 0; i < g->nth; i++)
		if (!g->th[i].idle && g->th[i].tid == tid)
			return true;
	return false;
}

static int add_thread(struct gen *g, const char *comm, int tid, int tgid, int prio)
{
	struct thread *t;
	bool self = tid == tgid;

	if (g->nth >= MAX_THREADS)
		die("internal error: too many threads");
	while (tid_used(g, tid))
		tid++;
	if (self)
		tgid = tid;
	t = &g->th[g->nth];
	memset(t, 0, sizeof(*t));
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->tid = tid;
	t->tgid = tgid;
	t->prio = prio;
	t->cpu = (uint8_t)rng_below(&g->fmt, NCPU);
	return g->nth++;
}

/* Header prefix "<comm right 16>-<pid left W> [(<tgid>) ]" as the kernel prints it. */
static void thread_finish(struct gen *g, struct thread *t)
{
	int v;

	t->plen = (uint8_t)snprintf(t->pidstr, sizeof(t->pidstr), "%d", t->tgid);
	for (v = 0; v < 2; v++) {
		const char *c = t->idle ? "<idle>" : v ? "<...>" : t->comm;
		char *h = t->hdr[v];
		int n = snprintf(h, sizeof(t->hdr[v]), "%16s-%-*d ", c, g->pidw, t->tid);

		if (g->o.tgid != TGID_NONE) {
			int w = g->o.tgid == TGID_7 ? 7 : 5;

			if (t->tgid_unknown)
				n += snprintf(h + n, sizeof(t->hdr[v]) - (size_t)n, "(%.*s) ", w,
					      "-------");
			else
				n += snprintf(h + n, sizeof(t->hdr[v]) - (size_t)n, "(%*d) ", w,
					      t->tgid);
		}
		t->hlen[v] = (uint8_t)n;
	}
}

/* ------------------------------------------------------------------------------------ */
/* Event heap (min on t, then seq)                                                      */

static bool ev_less(const struct ev *a, const struct ev *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void ev_push(struct gen *g, int64_t t, int thr, enum ev_kind kind, int name, int a,
		    int b)
{
	struct ev e;
	size_t i;

	if (g->hn == g->hcap) {
		size_t ncap = g->hcap ? g->hcap * 2 : 4096;
		struct ev *nh;

		if (ncap > HEAP_MAX)
			die("internal error: event heap overflow");
		nh = realloc(g->heap, ncap * sizeof(*nh));
		if (!nh)
			die("out of memory");
		g->heap = nh;
		g->hcap = ncap;
	}
	e.t = t;
	e.seq = g->seq++;
	e.thr = (uint16_t)thr;
	e.kind = (uint8_t)kind;
	e.name = name;
	e.a = a;
	e.b = b;
	i = g->hn++;
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!ev_less(&e, &g->heap[p]))
			break;
		g->heap[i] = g->heap[p];
		i = p;
	}
	g->heap[i] = e;
}

static struct ev ev_pop(struct gen *g)
{
	struct ev top = g->heap[0];
	struct ev last = g->heap[--g->hn];
	size_t i = 0, n = g->hn;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && ev_less(&g->heap[c + 1], &g->heap[c]))
			c++;
		if (!ev_less(&g->heap[c], &last))
			break;
		g->heap[i] = g->heap[c];
		i = c;
	}
	if (n)
		g->heap[i] = last;
	return top;
}

/* Shorthands for scheduling on one thread. */
static void sB(struct gen *g, int64_t t, int thr, int name)
{
	ev_push(g, t, thr, EK_B, name, 0, 0);
}

static void sE(struct gen *g, int64_t t, int thr)
{
	ev_push(g, t, thr, EK_E, 0, 0, 0);
}

static void sC(struct gen *g, int64_t t, int thr, int name, int value)
{
	ev_push(g, t, thr, EK_C, name, value, 0);
}

/* ------------------------------------------------------------------------------------ */
/* Output                                                                               */

static void out_flush(struct gen *g)
{
	if (g->len && fwrite(g->buf, 1, g->len, g->out) != g->len)
		die("cannot write '%s': %s", g->out_name, strerror(errno));
	g->flushed += g->len;
	g->len = 0;
}

static char *out_reserve(struct gen *g)
{
	if (g->len > OUT_BUF_SIZE - LINE_MAX_LEN)
		out_flush(g);
	return g->buf + g->len;
}

static void out_commit(struct gen *g, char *end)
{
	memcpy(end, g->eol, g->eol_len);
	end += g->eol_len;
	g->len = (size_t)(end - g->buf);
	g->lines++;
	if (g->o.size && g->flushed + g->len >= g->o.size)
		g->stop = true;
}

static char *put(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_i64(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, (uint64_t)0 - (uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

static char *put_cpu(char *p, int cpu)
{
	p[0] = (char)('0' + cpu / 100);
	p[1] = (char)('0' + cpu / 10 % 10);
	p[2] = (char)('0' + cpu % 10);
	return p + 3;
}

/*
 * "[cpu] [flags] <sec>.<usec>: " following trace_print_context(): "[%03d] ", the
 * lat-format flags, then " %5lu.%06lu".  With irq info off that leaves two spaces.
 */
static char *put_head(struct gen *g, char *p, const struct thread *t, bool unknown, int cpu,
		      const char *flags, int64_t us)
{
	int64_t sec = us / 1000000, frac = us % 1000000;
	int i;

	p = put(p, t->hdr[unknown], t->hlen[unknown]);
	*p++ = '[';
	p = put_cpu(p, cpu);
	*p++ = ']';
	*p++ = ' ';
	if (g->o.irq != IRQ_NONE) {
		p = put(p, flags, 4);
		if (g->o.irq == IRQ_5)
			*p++ = '.';	/* migrate-disable depth: 0 in practice */
	}
	*p++ = ' ';
	if (sec != g->sec_cached) {
		g->sec_cached = sec;
		g->sec_len = (size_t)snprintf(g->sec_str, sizeof(g->sec_str), "%5" PRId64, sec);
	}
	p = put(p, g->sec_str, g->sec_len);
	*p++ = '.';
	for (i = 5; i >= 0; i--) {
		p[i] = (char)('0' + frac % 10);
		frac /= 10;
	}
	p += 6;
	*p++ = ':';
	*p++ = ' ';
	return p;
}

static bool pick_unknown(struct rng *r, const struct thread *t)
{
	if (t->unknown_pm == 0)
		return false;
	if (t->unknown_pm >= 1000)
		return true;
	return chance_pm(r, t->unknown_pm);
}

static void out_text_line(struct gen *g, const char *s)
{
	char *p = out_reserve(g);

	out_commit(g, put(p, s, strlen(s)));
}

/* ------------------------------------------------------------------------------------ */
/* Sched noise                                                                          */

static const uint32_t freq_little[] = {
	300000, 576000, 748800, 998400, 1209600, 1324800, 1516800, 1612800, 1708800, 1766400,
};
static const uint32_t freq_big[] = {
	300000, 652800, 825600, 979200, 1132800, 1363200, 1536000, 1747200, 1843200, 1996800,
	2323200, 2803200,
};

static char *put_comm_pid(char *p, const char *k1, const struct thread *t, const char *k2)
{
	p = put(p, k1, strlen(k1));
	p = put(p, t->comm, strlen(t->comm));
	p = put(p, k2, strlen(k2));
	return put_i64(p, t->tid);
}

/*
 * The noise follows one scheduler state, so the events tell a consistent story as a real
 * trace's do: each CPU runs one thread (its idle task, swapper/N, when nothing else), a
 * thread runs on at most one CPU, sched_switch takes the CPU's thread off (prev_state S or D:
 * it sleeps; R or R+: preempted, it stays runnable) and puts on a runnable one, sched_waking
 * (then sched_wakeup, as the kernel writes both) makes a sleeping thread runnable. A thread
 * that writes a marker is running on the marker's CPU: before its marker it is woken if it
 * slept and switched in (sched_to_cpu), at the marker's time. Every choice here draws from
 * the `noise` stream, so frames and marker lines are the same with and without noise.
 */
static void rq_add(struct gen *g, int ti)
{
	struct thread *t = &g->th[ti];

	if (t->sst == SS_RUNNABLE || t->idle)
		return;
	t->sst = SS_RUNNABLE;
	t->rq = (int16_t)g->nrunq;
	g->runq[g->nrunq++] = ti;
}

static void rq_del(struct gen *g, int ti)
{
	struct thread *t = &g->th[ti];
	int last;

	if (t->sst != SS_RUNNABLE)
		return;
	last = g->runq[--g->nrunq];
	g->runq[t->rq] = last;
	g->th[last].rq = t->rq;
	t->rq = -1;
}

/* cpu_idle on an idle cpu: entering C-state 0..2, or leaving it (state=4294967295). */
static void cpu_idle_line(struct gen *g, int cpu, int64_t us)
{
	const struct thread *idle = &g->th[g->idle_thr[cpu]];
	bool enter = !g->cstate[cpu];
	char *p = out_reserve(g);

	p = put_head(g, p, idle, false, cpu, enter ? "d..1" : ".n.1", us);
	p = put(p, "cpu_idle: state=", 16);
	p = put_u64(p, enter ? rng_below(&g->noise, 3) : 4294967295u);
	p = put(p, " cpu_id=", 8);
	p = put_i64(p, cpu);
	out_commit(g, p);
	g->noise_lines++;
	g->cstate[cpu] = enter;
}

/* sched_switch on cpu from its current thread to thread ni, at us. */
static void sched_switch_line(struct gen *g, int cpu, int ni, const char *prev_state, int64_t us)
{
	struct rng *r = &g->noise;
	int pi = g->cpu_cur[cpu];
	struct thread *prev = &g->th[pi], *next = &g->th[ni];
	char *p;

	if (prev->idle && g->cstate[cpu])
		cpu_idle_line(g, cpu, us);	/* the CPU leaves its C-state first */
	p = out_reserve(g);
	if (prev->idle)
		prev_state = "R";	/* the idle task is always runnable */
	p = put_head(g, p, prev, pick_unknown(r, prev), cpu, "d..2", us);
	p = put_comm_pid(p, "sched_switch: prev_comm=", prev, " prev_pid=");
	p = put(p, " prev_prio=", 11);
	p = put_i64(p, prev->prio);
	p = put(p, " prev_state=", 12);
	p = put(p, prev_state, strlen(prev_state));
	p = put_comm_pid(p, " ==> next_comm=", next, " next_pid=");
	p = put(p, " next_prio=", 11);
	p = put_i64(p, next->prio);
	out_commit(g, p);
	g->noise_lines++;

	prev->run_cpu = -1;
	prev->sst = SS_SLEEPING;
	if (!prev->idle && prev_state[0] == 'R')
		rq_add(g, pi);
	rq_del(g, ni);
	next->sst = SS_RUNNING;
	next->run_cpu = (int8_t)cpu;
	g->cpu_cur[cpu] = ni;
}

/* sched_waking, then sched_wakeup, of sleeping thread wi by the thread running on cpu. */
static void sched_wake_lines(struct gen *g, int cpu, int wi, int target, int64_t us)
{
	static const char *const fl[] = { "d..3", "d..3", "d..4", "dn.3", "d.h4", "d..5" };
	struct rng *r = &g->noise;
	const struct thread *cur = &g->th[g->cpu_cur[cpu]], *w = &g->th[wi];
	bool unknown = pick_unknown(r, cur);
	int i;

	for (i = 0; i < 2; i++) {
		const char *f = i ? "d..4" : fl[rng_below(r, 6)];
		char *p = out_reserve(g);

		p = put_head(g, p, cur, unknown, cpu, f, us);
		p = put_comm_pid(p, i ? "sched_wakeup: comm=" : "sched_waking: comm=", w,
				 " pid=");
		p = put(p, " prio=", 6);
		p = put_i64(p, w->prio);
		p = put(p, " target_cpu=", 12);
		p = put_cpu(p, target);
		out_commit(g, p);
		g->noise_lines++;
	}
	rq_add(g, wi);
}

/* a runnable thread to run next, or -1 */
static int pick_runnable(struct gen *g)
{
	return g->nrunq ? g->runq[rng_below(&g->noise, (uint32_t)g->nrunq)] : -1;
}

/* a sleeping thread of the pool, or -1 when a few tries find none */
static int pick_sleeping(struct gen *g)
{
	int i;

	for (i = 0; i < 8; i++) {
		int ti = g->pool[rng_below(&g->noise, (uint32_t)g->npool)];

		if (g->th[ti].sst == SS_SLEEPING)
			return ti;
	}
	return -1;
}

/* Make thread ti the one cpu runs at us (before it writes a marker there). */
static void sched_to_cpu(struct gen *g, int ti, int cpu, int64_t us)
{
	struct thread *t = &g->th[ti];

	if (g->cpu_cur[cpu] == ti)
		return;
	if (t->sst == SS_RUNNING) {
		/* it ran on another CPU: preempted there, it migrates */
		int c = t->run_cpu, ni = pick_runnable(g);

		sched_switch_line(g, c, ni >= 0 ? ni : g->idle_thr[c], "R+", us);
	} else if (t->sst == SS_SLEEPING) {
		sched_wake_lines(g, cpu, ti, cpu, us);
	}
	sched_switch_line(g, cpu, ti, "R+", us);
}

/* cpufreq policy of a CPU: CPUs 0..3 the little cluster, 4..7 the big one */
static void freq_lines(struct gen *g, int cpu, int64_t us)
{
	struct rng *r = &g->noise;
	int cl = cpu < NCPU / 2, first = cl ? 0 : NCPU / 2, c;
	uint32_t nf = cl ? sizeof(freq_little) / sizeof(freq_little[0]) :
			   sizeof(freq_big) / sizeof(freq_big[0]);
	int step = 1 + (int)rng_below(r, 3), idx = g->freq_idx[cl];
	uint32_t f;

	/* governors move a few steps at a time; down when at the top, up at the bottom */
	idx += (idx + step >= (int)nf || (idx - step >= 0 && rng_below(r, 2))) ? -step : step;
	if (idx < 0)
		idx = 0;
	g->freq_idx[cl] = idx;
	f = cl ? freq_little[idx] : freq_big[idx];
	/* the policy's every CPU, written by the CPU that changed it (schedutil's sugov) */
	for (c = first; c < first + NCPU / 2; c++) {
		const struct thread *cur = &g->th[g->cpu_cur[cpu]];
		char *p = out_reserve(g);

		p = put_head(g, p, cur, false, cpu, "...1", us);
		p = put(p, "cpu_frequency: state=", 21);
		p = put_u64(p, f);
		p = put(p, " cpu_id=", 8);
		p = put_i64(p, c);
		out_commit(g, p);
		g->noise_lines++;
	}
}

/* a CPU switches: to a runnable thread, or a busy one to its idle task; false if none can */
static bool noise_switch(struct gen *g, int cpu, int64_t us)
{
	static const char *const states[] = { "S", "S", "S", "S", "S", "S", "S", "D", "R+",
					      "R" };
	int ni = pick_runnable(g), c;

	for (c = 0; ni < 0 && c < NCPU && g->th[g->cpu_cur[cpu]].idle; c++)
		cpu = (cpu + 1) % NCPU;
	if (ni < 0 && g->th[g->cpu_cur[cpu]].idle)
		return false;
	sched_switch_line(g, cpu, ni >= 0 ? ni : g->idle_thr[cpu],
			  states[rng_below(&g->noise, 10)], us);
	return true;
}

/* a sleeping thread wakes up; false if none was found */
static bool noise_wake(struct gen *g, int cpu, int64_t us)
{
	int ti = pick_sleeping(g);

	if (ti < 0)
		return false;
	sched_wake_lines(g, cpu, ti, (int)rng_below(&g->noise, NCPU), us);
	return true;
}

/* a CPU running its idle task enters or leaves a C-state; false if every CPU is busy */
static bool noise_idle(struct gen *g, int cpu, int64_t us)
{
	int c;

	for (c = 0; c < NCPU; c++)
		if (g->th[g->cpu_cur[(cpu + c) % NCPU]].idle) {
			cpu_idle_line(g, (cpu + c) % NCPU, us);
			return true;
		}
	return false;
}

/*
 * One noise event, in about the shares of a real `atrace sched freq idle gfx` trace (the
 * Gracker list_jank systrace: 37.7 k sched_switch, 20.5 k sched_waking and as many
 * sched_wakeup, 29.4 k cpu_idle, cpu_frequency only when a governor moves), falling back
 * to another kind when the state does not allow the drawn one.
 */
static void noise_line(struct gen *g, int64_t us)
{
	struct rng *r = &g->noise;
	uint32_t kind = rng_below(r, 100);
	int cpu = (int)rng_below(r, NCPU);

	if (kind < 1) {
		freq_lines(g, cpu, us);
		return;
	}
	if (kind < 50 && noise_switch(g, cpu, us))
		return;
	if (kind < 72 && noise_wake(g, cpu, us))
		return;
	if (noise_idle(g, cpu, us) || noise_switch(g, cpu, us) || noise_wake(g, cpu, us))
		return;
	freq_lines(g, cpu, us);
}

static void sched_init(struct gen *g)
{
	int i;

	for (i = 0; i < g->nth; i++) {
		g->th[i].run_cpu = -1;
		g->th[i].sst = SS_SLEEPING;
		g->th[i].rq = -1;
	}
	for (i = 0; i < NCPU; i++) {
		g->th[g->idle_thr[i]].run_cpu = (int8_t)i;
		g->th[g->idle_thr[i]].sst = SS_RUNNING;
		g->cpu_cur[i] = g->idle_thr[i];
	}
	g->freq_idx[0] = 3;
	g->freq_idx[1] = 3;
}

/*
 * About N noise lines per marker line: each marker earns 0..2N lines of credit, spent in
 * the gap before it at most one line per 8 us, so the noise spreads over time (idle gaps
 * get the backlog) instead of piling up between close markers.  Noise times are strictly
 * increasing and stay inside the gap, so they never move a marker.
 */
static void emit_noise(struct gen *g, int64_t prev_us, int64_t us)
{
	int64_t gap = us - prev_us, w, j, n, spent, cap = 64 * (int64_t)g->o.noise + 64;

	g->noise_credit += rng_below(&g->noise, (uint32_t)(2 * g->o.noise + 1));
	if (g->noise_credit > cap)
		g->noise_credit = cap;
	n = gap / 8;
	if (n == 0 && gap >= 2)
		n = 1;
	if (n > g->noise_credit)
		n = g->noise_credit;
	if (n <= 0)
		return;
	w = gap / (n + 1);
	/* credit counts lines: a wakeup writes two, a frequency change one per CPU of its
	 * policy, so a call may write more than one */
	for (j = 1, spent = 0; j <= n && spent < n && !g->stop; j++) {
		uint64_t before = g->noise_lines;

		noise_line(g, prev_us + j * w + rng_below(&g->noise, (uint32_t)w));
		spent += (int64_t)(g->noise_lines - before);
	}
	g->noise_credit -= spent;
}

/* ------------------------------------------------------------------------------------ */
/* Truth                                                                                */

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A VSYNC-app/sf line was written at ns: every posted refresh before it is presented. */
static void truth_present(struct gen *g, int64_t ns)
{
	while (g->tr_head < g->tr_tail) {
		struct trefresh *r = &g->tr[g->tr_head % TR_CAP];
		uint32_t i;

		if (!r->posted)
			break;
		for (i = 0; i < r->n; i++) {
			struct tframe *f = &g->tf[(r->first + i) % TF_CAP];
			struct layer *l = &g->L[f->layer];
			int64_t late = r->disp_idx - f->intended;

			if (late < 0) {
				/* Cannot happen by construction; count it so tests notice. */
				g->anomalies++;
				late = 0;
			}
			l->presented++;
			g->truth_rows++;
			if (g->truth) {
				fprintf(g->truth, "%" PRId64 ",", ns);
				csv_field(g->truth, g->names[l->name]);
				fputc(',', g->truth);
				csv_field(g->truth, l->app);
				fprintf(g->truth, ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
					f->latch_ns, g->t0 + r->disp_idx * g->P, late);
			}
		}
		g->tf_head = r->first + r->n;
		g->tr_head++;
	}
}

static int truth_refresh_new(struct gen *g)
{
	struct trefresh *r;

	if (g->tr_tail - g->tr_head >= TR_CAP)
		die("internal error: too many refreshes pending");
	r = &g->tr[g->tr_tail % TR_CAP];
	r->first = g->tf_tail;
	r->n = 0;
	r->posted = false;
	r->disp_idx = 0;
	return (int)(g->tr_tail++ % TR_CAP);
}

static int truth_frame_new(struct gen *g, int refresh, int layer, int64_t intended)
{
	struct tframe *f;

	if (g->tf_tail - g->tf_head >= TF_CAP)
		die("internal error: too many frames pending");
	f = &g->tf[g->tf_tail % TF_CAP];
	f->layer = layer;
	f->intended = intended;
	f->latch_ns = -1;
	g->tr[refresh].n++;
	return (int)(g->tf_tail++ % TF_CAP);
}

/* ------------------------------------------------------------------------------------ */
/* Writing one scheduled marker line                                                    */

static const char *marker_flags(struct gen *g)
{
	uint32_t x = rng_below(&g->fmt, 100);

	return x < 94 ? "...1" : x < 97 ? ".n.1" : "...2";
}

static void emit_event(struct gen *g, const struct ev *e)
{
	struct thread *t = &g->th[e->thr];
	int64_t us = e->t / NSEC_PER_USEC;
	struct layer *l;
	const char *flags;
	bool unknown;
	char *p;

	/* trace_pipe shows strictly increasing times; nudge collisions by 1 us. */
	if (us <= g->last_us)
		us = g->last_us + 1;
	if (g->o.noise) {
		emit_noise(g, g->last_us, us);
		if (g->stop)
			return;
	}
	if (rng_below(&g->fmt, 40) == 0)
		t->cpu = (uint8_t)rng_below(&g->fmt, NCPU);
	if (g->o.noise)
		sched_to_cpu(g, e->thr, t->cpu, us);
	else
		g->cpu_cur[t->cpu] = e->thr;

	/* separate statements: argument evaluation order is unspecified in C */
	flags = marker_flags(g);
	unknown = pick_unknown(&g->fmt, t);
	p = out_reserve(g);
	p = put_head(g, p, t, unknown, t->cpu, flags, us);
	p = put(p, g->mark, g->mark_len);
	switch ((enum ev_kind)e->kind) {
	case EK_B:
	case EK_POSTFB:
		*p++ = 'B';
		*p++ = '|';
		p = put(p, t->pidstr, t->plen);
		*p++ = '|';
		if (e->kind == EK_POSTFB)
			p = put(p, g->names[N_POSTFB], g->name_len[N_POSTFB]);
		else
			p = put(p, g->names[e->name], g->name_len[e->name]);
		break;
	case EK_E:
		*p++ = 'E';
		*p++ = '|';
		p = put(p, t->pidstr, t->plen);
		break;
	case EK_C:
	case EK_S:
	case EK_F:
	case EK_VSYNC:
	case EK_BUFQ:
	case EK_ACQ: {
		int name = e->name;
		int64_t val = e->a;

		if (e->kind == EK_VSYNC) {
			int *tog = name == N_VSYNC_APP ? &g->tog_app :
				   name == N_VSYNC_SF ? &g->tog_sf : &g->tog_hw;

			*tog ^= 1;
			val = *tog;
		} else if (e->kind == EK_BUFQ) {
			l = &g->L[e->a];
			name = l->name;
			val = ++l->count;
			l->queued++;
		} else if (e->kind == EK_ACQ) {
			l = &g->L[e->a];
			name = l->name;
			l->count -= e->name;
			val = l->count;
		}
		*p++ = e->kind == EK_S ? 'S' : e->kind == EK_F ? 'F' : 'C';
		*p++ = '|';
		p = put(p, t->pidstr, t->plen);
		*p++ = '|';
		p = put(p, g->names[name], g->name_len[name]);
		*p++ = '|';
		p = put_i64(p, val);
		break;
	}
	case EK_TEXT:
		p = put(p, g->names[e->name], g->name_len[e->name]);
		break;
	}
	out_commit(g, p);
	g->marker_lines++;
	g->last_us = us;

	/* Truth hooks use the printed time (us * 1000), i.e. what a reader can see. */
	if (e->kind == EK_ACQ && e->b >= 0)
		g->tf[e->b].latch_ns = us * NSEC_PER_USEC;
	else if (e->kind == EK_POSTFB) {
		struct trefresh *r = &g->tr[e->a];

		r->posted = true;
		r->disp_idx = (us * NSEC_PER_USEC - g->t0) / g->P + 1;
	} else if (e->kind == EK_VSYNC && e->name != N_HW_VSYNC)
		truth_present(g, us * NSEC_PER_USEC);
}

static void flush_until(struct gen *g, int64_t limit)
{
	while (g->hn && !g->stop && g->heap[0].t < limit) {
		struct ev e = ev_pop(g);

		emit_event(g, &e);
	}
}

/* ------------------------------------------------------------------------------------ */
/* World setup                                                                          */

static int new_layer(struct gen *g, int name, const char *app, bool sf)
{
	struct layer *l;

	if (g->nl >= MAX_LAYERS)
		die("internal error: too many layers");
	l = &g->L[g->nl];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->tx_name = add_name(g, "TX - %s", g->names[name]);
	snprintf(l->app, sizeof(l->app), "%s", app);
	l->sf = sf;
	return g->nl++;
}

static int new_producer(struct gen *g, enum pkind kind, int layer, int ui, int rt, int worker)
{
	struct producer *p;

	if (g->np >= MAX_PRODUCERS)
		die("internal error: too many producers");
	p = &g->pr[g->np];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->layer = layer;
	p->ui = ui;
	p->rt = rt;
	p->worker = worker;
	p->armed_at = NEVER;
	p->launch_name = -1;
	return g->np++;
}

struct app_threads {
	int main, rt, worker, binder;
};

/* An app process: UI thread, RenderThread and the usual ART/binder threads. */
static struct app_threads add_app_process(struct gen *g, const char *pkg, int pid)
{
	struct app_threads a;
	char comm[16], nm[32];

	art_comm(comm, pkg);
	a.main = add_thread(g, comm, pid, pid, 110);
	pid = g->th[a.main].tid;
	a.rt = add_thread(g, "RenderThread", pid + 20 + (int)rng_below(&g->sim, 40), pid, 110);
	snprintf(nm, sizeof(nm), "Thread-%d", 2 + (int)rng_below(&g->sim, 30));
	a.worker = add_thread(g, nm, pid + 60 + (int)rng_below(&g->sim, 30), pid, 120);
	snprintf(nm, sizeof(nm), "Binder:%d_%X", pid, 2u);
	a.binder = add_thread(g, nm, pid + 8 + (int)rng_below(&g->sim, 4), pid, 120);
	add_thread(g, "Jit thread pool", pid + 3 + (int)rng_below(&g->sim, 3), pid, 129);
	add_thread(g, "HeapTaskDaemon", pid + 4 + (int)rng_below(&g->sim, 3), pid, 124);
	add_thread(g, "ReferenceQueueD", pid + 5 + (int)rng_below(&g->sim, 3), pid, 124);
	return a;
}

static void setup_world(struct gen *g)
{
	struct rng *r = &g->sim;
	char nm[64];
	int i, pid, ss, sysui, nm_i;

	for (i = 0; i < N_FIXED; i++)
		add_name(g, "%s", fixed_names[i]);

	/* SurfaceFlinger */
	g->sfpid = 500 + (int)rng_below(r, 400);
	g->t_sf_main = add_thread(g, "surfaceflinger", g->sfpid, g->sfpid, 97);
	g->sfpid = g->th[g->t_sf_main].tid;
	g->t_hwbinder = add_thread(g, "", g->sfpid + 5 + (int)rng_below(r, 10), g->sfpid, 97);
	snprintf(g->th[g->t_hwbinder].comm, 16, "HwBinder:%d_1", g->sfpid);
	for (i = 0; i < SF_BINDERS; i++) {
		snprintf(nm, sizeof(nm), "Binder:%d_%X", g->sfpid, (unsigned)i + 1);
		g->t_sfbinder[i] = add_thread(g, nm, g->sfpid + 2 + i * 30 +
					      (int)rng_below(r, 20), g->sfpid, 120);
	}
	g->t_dispsync = add_thread(g, "DispSync", g->sfpid + 60 + (int)rng_below(r, 80),
				   g->sfpid, 97);
	/*
	 * EventControlThread's pthread_setname_np("EventControlThread") is longer than 15
	 * characters and fails, so the thread keeps the process comm.
	 */
	g->t_evctl = add_thread(g, "surfaceflinger", g->sfpid + 150 + (int)rng_below(r, 40),
				g->sfpid, 120);

	/* system_server and SystemUI */
	ss = 1000 + (int)rng_below(r, 500);
	ss = g->th[add_thread(g, "system_server", ss, ss, 118)].tid;
	g->t_ss_am = add_thread(g, "ActivityManager", ss + 20 + (int)rng_below(r, 20), ss, 110);
	add_thread(g, "android.display", ss + 40 + (int)rng_below(r, 20), ss, 112);
	add_thread(g, "android.anim", ss + 60 + (int)rng_below(r, 20), ss, 110);
	add_thread(g, "InputDispatcher", ss + 90 + (int)rng_below(r, 20), ss, 112);
	add_thread(g, "InputReader", ss + 110 + (int)rng_below(r, 20), ss, 112);
	snprintf(nm, sizeof(nm), "Binder:%d_%X", ss, 3u);
	g->t_ss_binder = add_thread(g, nm, ss + 130 + (int)rng_below(r, 40), ss, 120);

	sysui = ss + 600 + (int)rng_below(r, 800);
	{
		struct app_threads a = add_app_process(g, "com.android.systemui", sysui);
		int l = new_layer(g, add_name(g, "StatusBar#0"), "system", true);

		g->p_sysui = new_producer(g, PK_APP, l, a.main, a.rt, a.worker);
	}

	/* apps */
	pid = 3000 + (int)rng_below(r, 3000);
	for (i = 0; i < g->o.apps; i++) {
		char pkg[48];
		struct app_threads a;
		int l;

		snprintf(pkg, sizeof(pkg), "com.example.app%d", i + 1);
		a = add_app_process(g, pkg, pid);
		l = new_layer(g, add_name(g, "%s/%s.MainActivity#0", pkg, pkg), pkg, true);
		g->p_app[i] = new_producer(g, PK_APP, l, a.main, a.rt, a.worker);
		g->launch_app[i] = add_name(g, "launching: %s", pkg);
		pid = g->th[a.main].tid + 200 + (int)rng_below(r, 3000);
	}
	g->nfg = g->o.apps;
	g->p_gamewin = g->p_gamegl = -1;
	if (g->o.game) {
		const char *pkg = "com.example.game";
		struct app_threads a = add_app_process(g, pkg, pid);
		int lw, ls, gl;

		lw = new_layer(g, add_name(g, "%s/%s.GameActivity#0", pkg, pkg), pkg, true);
		ls = new_layer(g, add_name(g, "SurfaceView - %s/%s.GameActivity#0", pkg, pkg),
			       pkg, true);
		/* GLSurfaceView names its thread "GLThread <java id>": a comm with a space. */
		snprintf(nm, sizeof(nm), "GLThread %d", 200 + (int)rng_below(r, 300));
		gl = add_thread(g, nm, g->th[a.main].tid + 90 + (int)rng_below(r, 40),
				g->th[a.main].tid, 112);
		g->p_gamewin = new_producer(g, PK_APP, lw, a.main, a.rt, a.worker);
		g->p_gamegl = new_producer(g, PK_GL, ls, -1, gl, -1);
		g->pr[g->p_gamegl].heavy = true;
		g->launch_app[g->o.apps] = add_name(g, "launching: %s", pkg);
		g->nfg++;
	}

	/* A TextureView video in one app in half the seeds: an app-side SurfaceTexture. */
	g->video_prod = g->video_layer = -1;
	if (g->o.apps > 0 && rng_below(r, 2) == 0) {
		int vi = (int)rng_below(r, (uint32_t)g->o.apps);
		int vp = g->p_app[vi];
		int app_pid = g->th[g->pr[vp].ui].tid;
		int b;

		snprintf(nm, sizeof(nm), "Binder:%d_%X", app_pid, 2u);
		b = -1;
		for (i = 0; i < g->nth; i++)
			if (g->th[i].tgid == app_pid && !strcmp(g->th[i].comm, nm))
				b = i;
		if (b < 0)
			die("internal error: no binder thread for the video app");
		g->t_vbinder = b;
		g->video_prod = vp;
		nm_i = add_name(g, "SurfaceTexture-0-%d-%d", app_pid, (int)rng_below(r, 4));
		g->video_layer = new_layer(g, nm_i, g->L[g->pr[vp].layer].app, false);
		g->v_seed = rng_u64(r);
	}

	/* kernel threads and the trace reader */
	add_thread(g, "rcu_preempt", 8 + (int)rng_below(r, 3), 8, 120);
	add_thread(g, "ksoftirqd/2", 22 + (int)rng_below(r, 3), 22, 120);
	snprintf(nm, sizeof(nm), "kworker/u16:%d", (int)rng_below(r, 20));
	add_thread(g, nm, 6000 + (int)rng_below(r, 20000), 0, 120);
	add_thread(g, "kworker/0:1H", 400 + (int)rng_below(r, 100), 0, 100);
	add_thread(g, "irq/16-90b6400.", 4400 + (int)rng_below(r, 100), 0, 49);
	add_thread(g, "mdss_fb0", 300 + (int)rng_below(r, 100), 0, 83);
	g->t_atrace = add_thread(g, "atrace", 9000 + (int)rng_below(r, 2000), 0, 120);
	add_thread(g, "cat", 9000 + (int)rng_below(r, 2000), 0, 120);
	/* kernel threads are their own thread group */
	for (i = 0; i < g->nth; i++)
		if (g->th[i].tgid == 0)
			g->th[i].tgid = g->th[i].tid;

	for (i = 0; i < NCPU; i++) {
		int it;

		if (g->nth >= MAX_THREADS)
			die("internal error: too many threads");
		it = g->nth++;
		memset(&g->th[it], 0, sizeof(g->th[it]));
		snprintf(g->th[it].comm, 16, "swapper/%d", i % 1000);
		g->th[it].idle = true;
		g->th[it].prio = 120;
		g->th[it].tgid_unknown = true;
		g->th[it].cpu = (uint8_t)i;
		g->idle_thr[i] = it;
		g->cpu_cur[i] = it;
	}

	/*
	 * Which headers show "<...>" (comm not in the kernel's cache) or "(-----)" (tgid
	 * unknown).  Some marker writers always do, so every seed exercises both.
	 */
	for (i = 0; i < g->nth; i++) {
		struct thread *t = &g->th[i];
		uint32_t x = rng_below(&g->fmt, 100);

		if (t->idle)
			continue;
		t->unknown_pm = x < 10 ? 1000 : x < 18 ? 300 : 0;
		t->tgid_unknown = rng_below(&g->fmt, 100) < 6;
		g->pool[g->npool++] = i;
	}
	g->th[g->t_sfbinder[0]].unknown_pm = 1000;
	g->th[g->t_sfbinder[0]].tgid_unknown = true;
	g->th[g->t_sf_main].unknown_pm = 250;
	if (g->o.apps > 0)
		g->th[g->pr[g->p_app[0]].rt].unknown_pm = 200;
	for (i = 0; i < g->nth; i++)
		thread_finish(g, &g->th[i]);
}

/* ------------------------------------------------------------------------------------ */
/* Video decoder feeding an app SurfaceTexture                                          */

static int64_t video_time(const struct gen *g, uint64_t i)
{
	return g->v0 + (int64_t)i * VIDEO_PERIOD +
	       (int64_t)(mix64(g->v_seed ^ (g->v_base + i)) % (uint64_t)(2 * NSEC_PER_MSEC));
}

/* Buffers of the current video burst queued before t (jitter < period keeps order). */
static uint64_t video_count(const struct gen *g, int64_t t)
{
	uint64_t c;

	if (!g->v_started)
		return 0;
	if (t > g->v_end)
		t = g->v_end;
	if (t <= g->v0)
		return 0;
	c = (uint64_t)((t - g->v0 - 1) / VIDEO_PERIOD) + 1;
	if (video_time(g, c - 1) >= t)
		c--;
	return c;
}

static void video_emit(struct gen *g, int64_t hv_next)
{
	while (g->v_on) {
		int64_t tv = video_time(g, g->v_i);

		if (tv >= g->v_end) {
			g->v_on = false;
			break;
		}
		if (tv >= hv_next)
			break;
		ev_push(g, tv, g->t_vbinder, EK_BUFQ, 0, g->video_layer, 0);
		g->v_i++;
	}
}

/* ------------------------------------------------------------------------------------ */
/* Producers                                                                            */

static int64_t app_vsync_index(const struct gen *g, int64_t t)
{
	int64_t d = t - g->t0 - g->app_off;

	return d >= 0 ? d / g->P : -((-d + g->P - 1) / g->P);
}

/*
 * Work of one frame.  Most frames fit in a period; --jank percent of them do not:
 * mostly 1.1..3.8 periods (the buffer lands 1..3 vsyncs late), one in ten is a
 * 100..300 ms stall.
 */
static void frame_work(struct gen *g, bool heavy, int64_t *ui, int64_t *rt, int64_t *stall)
{
	uint32_t jank_bp = (uint32_t)g->o.jank_pct * 100 * (heavy ? 3 : 2) / 2;

	*ui = pctP(g, 12, 35);
	*rt = pctP(g, 15, 40);
	*stall = 0;
	if (rng_below(&g->sim, 10000) < jank_bp) {
		if (rng_below(&g->sim, 10) == 0) {
			*stall = rng_range(&g->sim, 100 * NSEC_PER_MSEC, 300 * NSEC_PER_MSEC);
		} else {
			int64_t total = pctP(g, 110, 380);
			int64_t share = rng_range(&g->sim, 20, 80);

			*ui = total * share / 100;
			*rt = total - *ui;
		}
	}
}

static void layer_fifo_push(struct gen *g, struct layer *l, int64_t q, int64_t intended,
			    int prod)
{
	struct buf_entry *b;

	if (l->n >= LAYER_FIFO)
		die("internal error: buffer queue overflow");
	b = &l->fifo[(l->head + l->n) % LAYER_FIFO];
	b->q = q;
	b->intended = intended;
	b->prod = prod;
	b->launch_name = g->pr[prod].launch_name;
	g->pr[prod].launch_name = -1;
	l->n++;
}

/* Re-arm rule: animations request the next vsync from inside doFrame. */
static void rearm(struct gen *g, struct producer *p, int64_t t)
{
	bool again = p->frames_left < 0 || (p->frames_left > 0 && --p->frames_left > 0);

	p->armed_at = again ? t + rns(g, 40, 400) : NEVER;
}

/* RenderThread tail shared by apps: dequeue, render, swap, queue. */
static int64_t render_tail(struct gen *g, int pi, int thr, int64_t t, int64_t work,
			   int64_t intended)
{
	struct producer *p = &g->pr[pi];
	int sfb = g->t_sfbinder[rng_below(&g->sim, SF_BINDERS)];
	int64_t q, qsf;

	t += rns(g, 5, 20);
	sB(g, t, thr, N_DEQUEUE);
	t += rns(g, 20, 150);
	sE(g, t, thr);
	t += rns(g, 5, 20);
	sB(g, t, thr, p->kind == PK_GL ? N_ONDRAW : N_FLUSH);
	t += work;
	sE(g, t, thr);
	t += rns(g, 5, 20);
	sB(g, t, thr, N_SWAP);
	t += rns(g, 20, 60);
	q = t;
	sB(g, q, thr, N_QUEUE);
	/* The queue-depth counter is written by SF's binder thread serving queueBuffer. */
	qsf = q + rns(g, 15, 60);
	ev_push(g, qsf, sfb, EK_BUFQ, 0, p->layer, 0);
	layer_fifo_push(g, &g->L[p->layer], qsf, intended, pi);
	p->outstanding++;
	t = qsf + rns(g, 40, 120);
	sE(g, t, thr);
	t += rns(g, 5, 25);
	sE(g, t, thr);
	return t;
}

static void app_frame(struct gen *g, int pi, int64_t t_ev)
{
	struct producer *p = &g->pr[pi];
	int ui = p->ui, rt = p->rt;
	int64_t d0, t, s, r, sync_end, intended, uiw, rtw, stall, avail;

	d0 = t_ev + rns(g, 30, 250);
	if (d0 < p->ui_free)
		d0 = p->ui_free + rns(g, 5, 40);
	/* Choreographer re-bases a late frame on the latest vsync ("Skipped N frames"). */
	intended = app_vsync_index(g, d0) + 2;
	rearm(g, p, d0);
	frame_work(g, p->heavy, &uiw, &rtw, &stall);

	t = d0;
	sB(g, t, ui, N_DOFRAME);
	if (rng_below(&g->sim, 100) < 15) {
		t += rns(g, 5, 20);
		sB(g, t, ui, N_INPUT);
		t += uiw * 5 / 100 + 1000;
		sE(g, t, ui);
	}
	t += rns(g, 5, 20);
	sB(g, t, ui, N_ANIMATION);
	t += uiw * 8 / 100 + 1000;
	sE(g, t, ui);
	t += rns(g, 5, 20);
	sB(g, t, ui, N_TRAVERSAL);
	if (rng_below(&g->sim, 100) < 30) {
		t += rns(g, 3, 10);
		sB(g, t, ui, N_MEASURE);
		t += uiw * 15 / 100 + 1000;
		sE(g, t, ui);
		t += rns(g, 3, 10);
		sB(g, t, ui, N_LAYOUT);
		t += uiw * 10 / 100 + 1000;
		sE(g, t, ui);
	}
	if (stall) {
		t += rns(g, 3, 10);
		sB(g, t, ui, N_INFLATE);
		t += stall;
		sE(g, t, ui);
	}
	t += rns(g, 3, 10);
	sB(g, t, ui, N_DRAW);
	t += rns(g, 3, 10);
	sB(g, t, ui, N_RECORD);
	t += uiw * 50 / 100 + 1000;
	sE(g, t, ui);
	s = t;

	/* The UI thread blocks in syncFrameState until RenderThread picks the frame up. */
	r = s + rns(g, 10, 40);
	if (r < p->rt_free)
		r = p->rt_free + rns(g, 5, 20);
	sB(g, r, rt, N_DRAWFRAME);
	t = r + rns(g, 5, 15);
	sB(g, t, rt, N_SYNCFRAME);
	if (pi == g->video_prod) {
		avail = (int64_t)(g->v_base + video_count(g, t));
		if (avail > (int64_t)g->v_consumed) {
			t += rns(g, 10, 30);
			sB(g, t, rt, N_UPDATETEX);
			t += rns(g, 20, 80);
			ev_push(g, t, rt, EK_ACQ, (int)(avail - (int64_t)g->v_consumed),
				g->video_layer, -1);
			g->v_consumed = (uint64_t)avail;
			t += rns(g, 10, 40);
			sE(g, t, rt);
		}
	}
	t += rns(g, 60, 250);
	sE(g, t, rt);
	sync_end = t;

	t = sync_end + rns(g, 15, 50);
	sE(g, t, ui);		/* draw */
	t += rns(g, 3, 10);
	sE(g, t, ui);		/* traversal */
	t += rns(g, 3, 10);
	sE(g, t, ui);		/* doFrame */
	p->ui_free = t;

	p->rt_free = render_tail(g, pi, rt, sync_end, rtw, intended);
	sE(g, p->rt_free += rns(g, 5, 20), rt);	/* DrawFrame */
}

/* A game's GL thread paced by VSYNC-app (as Swappy does); no Choreographer slices. */
static void gl_frame(struct gen *g, int pi, int64_t t_ev)
{
	struct producer *p = &g->pr[pi];
	int64_t d0, intended, uiw, rtw, stall;

	d0 = t_ev + rns(g, 40, 300);
	if (d0 < p->rt_free)
		d0 = p->rt_free + rns(g, 5, 40);
	intended = app_vsync_index(g, d0) + 2;
	rearm(g, p, d0);
	frame_work(g, p->heavy, &uiw, &rtw, &stall);
	p->rt_free = render_tail(g, pi, p->rt, d0 - 5000, uiw + rtw + stall, intended);
}

/* ------------------------------------------------------------------------------------ */
/* Activity phases                                                                      */

static void tx_set(struct gen *g, int layer, int64_t t)
{
	struct layer *l = &g->L[layer];

	if (l->tx_pending || !l->sf)
		return;
	sC(g, t, g->t_sfbinder[rng_below(&g->sim, SF_BINDERS)], l->tx_name, 1);
	l->tx_pending = true;
	l->tx_time = t;
}

static void arm(struct gen *g, int pi, int64_t t, int frames)
{
	struct producer *p = &g->pr[pi];

	p->frames_left = frames;
	if (p->armed_at == NEVER)
		p->armed_at = t;
}

static int64_t burst_length(struct gen *g)
{
	int64_t mean, len;

	if (g->o.idle_pct == 0)
		return rng_range(&g->sim, 3 * NSEC_PER_SEC, 8 * NSEC_PER_SEC);
	/* idle gaps average 1.75 s; pick bursts so the idle share matches --idle */
	mean = 1750 * NSEC_PER_MSEC / g->o.idle_pct * (100 - g->o.idle_pct);
	len = mean * rng_range(&g->sim, 30, 170) / 100;
	return len < 300 * NSEC_PER_MSEC ? 300 * NSEC_PER_MSEC : len;
}

static void start_burst(struct gen *g, int64_t ts, bool from_idle, bool initial)
{
	int old = g->fg, nf = g->nfg ? (int)rng_below(&g->sim, (uint32_t)g->nfg) : -1;
	bool launch = !initial && nf >= 0 && (nf != old || rng_below(&g->sim, 4) == 0);
	int64_t ta = ts + rns(g, 100, 500);

	if (from_idle) {
		/* resyncToHardwareVsync: EventControlThread turns HW vsync back on */
		sC(g, ts, g->t_evctl, N_HW_VSYNC_ON, 1);
		g->hw_on = true;
		g->hw_from = ts;
	}
	g->phase = PH_ACTIVE;
	g->fg = nf;
	g->burst_end = ts + burst_length(g);
	g->next_sb = ts + rns(g, 100000, 900000);
	if (nf < 0)
		return;
	if (nf < g->o.apps) {
		int pi = g->p_app[nf];

		arm(g, pi, initial ? g->t0 - 1 : ta, -1);
		if (launch) {
			ev_push(g, ts + rns(g, 1, 50), g->t_ss_binder, EK_S, g->launch_app[nf],
				0, 0);
			tx_set(g, g->pr[pi].layer, ts + rns(g, 60, 400));
			g->pr[pi].launch_name = g->launch_app[nf];
		}
		if (pi == g->video_prod) {
			/* all earlier video buffers were queued before this burst began */
			g->v_base += g->v_i;
			g->v_i = 0;
			g->v0 = ts + rns(g, 10000, 60000);
			g->v_end = g->burst_end;
			g->v_started = g->v_on = true;
		}
	} else {
		arm(g, g->p_gamegl, initial ? g->t0 - 1 : ta, -1);
		arm(g, g->p_gamewin, initial ? g->t0 - 1 : ta, 2);
		if (launch) {
			ev_push(g, ts + rns(g, 1, 50), g->t_ss_binder, EK_S,
				g->launch_app[g->o.apps], 0, 0);
			tx_set(g, g->pr[g->p_gamewin].layer, ts + rns(g, 60, 400));
			tx_set(g, g->pr[g->p_gamegl].layer, ts + rns(g, 60, 400));
			g->pr[g->p_gamewin].launch_name = g->launch_app[g->o.apps];
		}
	}
}

static void stop_all(struct gen *g)
{
	int i;

	for (i = 0; i < g->np; i++)
		g->pr[i].frames_left = 0;
}

static void phase_update(struct gen *g, int64_t hv)
{
	if (g->phase == PH_ACTIVE && hv >= g->burst_end) {
		stop_all(g);
		if (g->o.idle_pct == 0)
			start_burst(g, hv + g->app_off + rns(g, 300, 900), false, false);
		else
			g->phase = PH_DRAIN;
		g->quiet = 0;
	} else if (g->phase == PH_IDLE && g->idle_until < hv + g->P) {
		int64_t ts = g->idle_until;

		/* start after this vsync's VSYNC-app slot so the first callback is the next */
		if (ts < hv + g->app_off + 300 * NSEC_PER_USEC)
			ts = hv + g->app_off + 300 * NSEC_PER_USEC;
		start_burst(g, ts, true, false);
	}
}

/* Status bar clock ticks, short animations elsewhere, transactions, app worker slices. */
static void background(struct gen *g, int64_t hv)
{
	struct rng *r = &g->sim;
	int i;

	if (hv >= g->next_sb) {
		struct producer *p = &g->pr[g->p_sysui];

		if (p->armed_at == NEVER && p->frames_left == 0) {
			int n = 1 + (int)rng_below(r, 3);

			arm(g, g->p_sysui, hv + rns(g, 0, g->P / 2000), n);
		}
		g->next_sb += rns(g, 800000, 1200000);
	}
	for (i = 0; i < g->o.apps; i++) {
		struct producer *p = &g->pr[g->p_app[i]];

		if (i == g->fg || p->armed_at != NEVER || p->frames_left != 0)
			continue;
		if (rng_below(r, 600) == 0) {
			int n = 8 + (int)rng_below(r, 33);

			arm(g, g->p_app[i], hv + rns(g, 0, g->P / 2000), n);
		}
	}
	if (g->fg >= 0 && rng_below(r, 500) == 0) {
		int pi = g->fg < g->o.apps ? g->p_app[g->fg] :
			 (rng_below(r, 2) ? g->p_gamewin : g->p_gamegl);

		tx_set(g, g->pr[pi].layer, hv + rns(g, 0, g->P / 2000));
	}
	if (g->fg >= 0 && g->fg < g->o.apps && rng_below(r, 100) < 3) {
		struct producer *p = &g->pr[g->p_app[g->fg]];
		int64_t t = hv + rns(g, 0, g->P / 2000);

		if (p->worker_free <= t) {
			sB(g, t, p->worker, N_LOADDATA);
			t += rns(g, 500, 6000);
			sE(g, t, p->worker);
			p->worker_free = t;
		}
	}
}

static bool all_quiet(const struct gen *g, int64_t hv)
{
	int i;

	if (g->sf_retry || g->sf_main_free > hv || g->v_on)
		return false;
	for (i = 0; i < g->np; i++) {
		const struct producer *p = &g->pr[i];

		if (p->armed_at != NEVER || p->ui_free > hv || p->rt_free > hv ||
		    p->outstanding || p->worker_free > hv)
			return false;
	}
	for (i = 0; i < g->nl; i++)
		if (g->L[i].sf && (g->L[i].n || g->L[i].tx_pending))
			return false;
	return true;
}

/* ------------------------------------------------------------------------------------ */
/* SurfaceFlinger                                                                       */

static void sf_refresh(struct gen *g, int64_t hv, int64_t t_app)
{
	int thr = g->t_sf_main;
	int64_t t_vsf = hv + g->sf_off + rns(g, 20, 200), t, tp;
	bool work = g->sf_retry, missed, any_tx = false, overrun, client;
	int i, rec, launch_f[MAX_LAYERS], nlaunch = 0;

	if (t_app > 0 && t_vsf < t_app + 20 * NSEC_PER_USEC)
		t_vsf = t_app + rns(g, 25, 90);
	for (i = 0; i < g->nl && !work; i++) {
		const struct layer *l = &g->L[i];

		if (!l->sf)
			continue;
		if ((l->n && l->fifo[l->head].q < t_vsf) || (l->tx_pending && l->tx_time < t_vsf))
			work = true;
	}
	/* SF only asks DispSync for VSYNC-sf when a buffer or transaction is waiting. */
	if (!work)
		return;
	ev_push(g, t_vsf, g->t_dispsync, EK_VSYNC, N_VSYNC_SF, 0, 0);

	t = t_vsf + rns(g, 30, 250);
	if (t < g->sf_main_free + 5 * NSEC_PER_USEC)
		t = g->sf_main_free + rns(g, 5, 30);
	sB(g, t, thr, N_ONMSG);
	t += rns(g, 8, 25);
	/* Android 9: the previous present fence has not signalled yet -> back off. */
	missed = g->last_disp_ns > t;
	sC(g, t, thr, N_FRAMEMISSED, missed);
	if (missed) {
		t += rns(g, 10, 40);
		sE(g, t, thr);
		g->sf_main_free = t;
		g->sf_retry = true;
		return;
	}
	g->sf_retry = false;

	for (i = 0; i < g->nl; i++)
		if (g->L[i].sf && g->L[i].tx_pending && g->L[i].tx_time < t)
			any_tx = true;
	if (any_tx) {
		t += rns(g, 10, 40);
		sB(g, t, thr, N_HTRANSACTION);
		for (i = 0; i < g->nl; i++) {
			struct layer *l = &g->L[i];

			if (l->sf && l->tx_pending && l->tx_time < t) {
				t += rns(g, 5, 20);
				sC(g, t, thr, l->tx_name, 0);
				l->tx_pending = false;
			}
		}
		t += rns(g, 30, 150);
		sE(g, t, thr);
	}

	t += rns(g, 10, 30);
	sB(g, t, thr, N_HINVALIDATE);
	rec = truth_refresh_new(g);
	for (i = 0; i < g->nl; i++) {
		struct layer *l = &g->L[i];
		struct buf_entry *b;
		struct producer *p;
		int slot;

		if (!l->sf || !l->n || l->fifo[l->head].q >= t)
			continue;
		/* one buffer per layer per refresh; the rest waits (buffer stuffing) */
		b = &l->fifo[l->head];
		p = &g->pr[b->prod];
		t += rns(g, 10, 40);
		sB(g, t, thr, N_LATCH);
		t += rns(g, 20, 100);
		slot = truth_frame_new(g, rec, i, b->intended);
		ev_push(g, t, thr, EK_ACQ, 1, i, slot);
		t += rns(g, 15, 60);
		sE(g, t, thr);
		p->outstanding--;
		if (b->launch_name >= 0)
			launch_f[nlaunch++] = b->launch_name;
		l->head = (l->head + 1) % LAYER_FIFO;
		l->n--;
	}
	t += rns(g, 10, 40);
	sE(g, t, thr);		/* handleMessageInvalidate */
	t += rns(g, 5, 15);
	sE(g, t, thr);		/* onMessageReceived (INVALIDATE) */
	if (g->tr[rec].n == 0 && !any_tx) {
		/* nothing new to show: no REFRESH message, and no truth refresh */
		g->tr_tail--;
		g->sf_main_free = t;
		return;
	}

	overrun = rng_below(&g->sim, 10000) < (uint32_t)g->o.jank_pct * 10;
	client = overrun || rng_below(&g->sim, 100) < 3;
	t += rns(g, 30, 150);
	sB(g, t, thr, N_ONMSG);
	t += rns(g, 5, 15);
	sB(g, t, thr, N_HREFRESH);
	t += rns(g, 5, 15);
	sB(g, t, thr, N_PRECOMP);
	t += pctP(g, 1, 3);
	sE(g, t, thr);
	t += rns(g, 5, 15);
	sB(g, t, thr, N_REBUILD);
	t += pctP(g, 1, 3);
	sE(g, t, thr);
	t += rns(g, 5, 15);
	sB(g, t, thr, N_SETUPHWC);
	t += pctP(g, 3, 8);
	sE(g, t, thr);
	t += rns(g, 5, 15);
	sB(g, t, thr, N_DOCOMP);
	t += pctP(g, 1, 5);
	if (client)
		t += pctP(g, 5, 15);	/* GPU composition */
	if (overrun)
		t += pctP(g, 90, 150);
	sC(g, t, thr, N_CLIENTCOMP, client);
	t += pctP(g, 1, 3);
	tp = t;
	ev_push(g, tp, thr, EK_POSTFB, 0, rec, 0);
	t += pctP(g, 2, 6);
	sE(g, t, thr);		/* postFramebuffer */
	t += rns(g, 5, 15);
	sE(g, t, thr);		/* doComposition */
	t += rns(g, 5, 15);
	sB(g, t, thr, N_POSTCOMP);
	t += pctP(g, 1, 3);
	sE(g, t, thr);
	t += rns(g, 5, 15);
	sE(g, t, thr);		/* handleMessageRefresh */
	t += rns(g, 3, 10);
	sE(g, t, thr);		/* onMessageReceived (REFRESH) */
	g->sf_main_free = t;
	g->last_disp_ns = g->t0 + ((tp - g->t0) / g->P + 1) * g->P;
	/* ActivityMetricsLogger ends "launching:" once the first frame is drawn. */
	for (i = 0; i < nlaunch; i++)
		ev_push(g, t + rns(g, 500, 3000), g->t_ss_am, EK_F, launch_f[i], 0, 0);
}

/* ------------------------------------------------------------------------------------ */
/* One hardware vsync                                                                   */

static void do_vsync(struct gen *g, int64_t k)
{
	int64_t hv = g->t0 + k * g->P, t_app;
	bool fire = false;
	int i;

	phase_update(g, hv);
	if (g->hw_on && hv >= g->hw_from)
		ev_push(g, hv + rns(g, 12, 60), g->t_hwbinder, EK_VSYNC, N_HW_VSYNC, 0, 0);
	if (g->phase == PH_ACTIVE)
		background(g, hv);

	t_app = hv + g->app_off + rns(g, 20, 200);
	for (i = 0; i < g->np; i++)
		if (g->pr[i].armed_at <= t_app)
			fire = true;
	if (fire) {
		ev_push(g, t_app, g->t_dispsync, EK_VSYNC, N_VSYNC_APP, 0, 0);
		for (i = 0; i < g->np; i++) {
			struct producer *p = &g->pr[i];

			/* two buffers already queued or in flight: dequeueBuffer would block */
			if (p->armed_at > t_app || p->outstanding >= 2)
				continue;
			p->armed_at = NEVER;
			if (p->kind == PK_GL)
				gl_frame(g, i, t_app);
			else
				app_frame(g, i, t_app);
		}
	}
	sf_refresh(g, hv, fire ? t_app : 0);
	if (g->v_on)
		video_emit(g, hv + g->P);

	if (g->phase == PH_DRAIN) {
		if (!all_quiet(g, hv)) {
			g->quiet = 0;
		} else if (++g->quiet >= 3) {
			int64_t t_off = hv + rns(g, 300, 2000);

			sC(g, t_off, g->t_evctl, N_HW_VSYNC_ON, 0);
			g->hw_on = false;
			g->phase = PH_IDLE;
			g->idle_until = t_off + rng_range(&g->sim, 500 * NSEC_PER_MSEC,
							  3000 * NSEC_PER_MSEC);
		}
	}
}

/* ------------------------------------------------------------------------------------ */
/* Header block                                                                         */

static void hdr_line(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void hdr_line(struct gen *g, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out_text_line(g, line);
}

/*
 * The kernel's own column legend (print_func_help_header{,_irq}() in kernel/trace/trace.c):
 * the 4-flag form predates the migrate-disable column, the 5-flag form is 5.x.
 */
static void write_header(struct gen *g)
{
	static const char sp[] = "            ";
	static const char *const tails5[] = {
		"  _-----=> irqs-off/BH-disabled", " / _----=> need-resched",
		"| / _---=> hardirq/softirq", "|| / _--=> preempt-depth",
		"||| / _-=> migrate-disable", "|||| /     delay",
	};
	static const char *const tails4[] = {
		"  _-----=> irqs-off", " / _----=> need-resched", "| / _---=> hardirq/softirq",
		"|| / _--=> preempt-depth", "||| /     delay",
	};
	bool tg = g->o.tgid != TGID_NONE;
	uint64_t entries = 100000 + rng_below(&g->aux, 900000);
	size_t i;
	int prec;

	hdr_line(g, "# tracer: nop");
	hdr_line(g, "#");
	hdr_line(g, "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%d",
		 entries, entries, NCPU);
	hdr_line(g, "#");
	if (g->o.irq == IRQ_4) {
		prec = tg ? 10 : 2;
		for (i = 0; i < sizeof(tails4) / sizeof(tails4[0]); i++)
			hdr_line(g, "#                          %.*s%s", prec, sp, tails4[i]);
		hdr_line(g, "#           TASK-PID %.*sCPU#  ||||    TIMESTAMP  FUNCTION",
			 prec, "   TGID   ");
		hdr_line(g, "#              | |   %.*s  |   ||||       |         |",
			 prec, "     |    ");
	} else if (g->o.irq == IRQ_5) {
		prec = tg ? 12 : 2;
		for (i = 0; i < sizeof(tails5) / sizeof(tails5[0]); i++)
			hdr_line(g, "#                            %.*s%s", prec, sp, tails5[i]);
		hdr_line(g, "#           TASK-PID  %.*s CPU#  |||||  TIMESTAMP  FUNCTION",
			 prec, "     TGID   ");
		hdr_line(g, "#              | |    %.*s   |   |||||     |         |",
			 prec, "       |    ");
	} else if (g->pidw == 7) {
		hdr_line(g, "#           TASK-PID    %s CPU#     TIMESTAMP  FUNCTION",
			 tg ? "   TGID   " : "");
		hdr_line(g, "#              | |      %s   |         |         |",
			 tg ? "     |    " : "");
	} else {
		hdr_line(g, "#           TASK-PID   %s  CPU#   TIMESTAMP  FUNCTION",
			 tg ? "TGID     " : "");
		hdr_line(g, "#              | |     %s    |       |         |",
			 tg ? "  |      " : "");
	}
}

/* atrace writes these two markers when tracing starts (catapult uses them to align). */
static void clock_sync(struct gen *g)
{
	int64_t susp = rng_range(&g->aux, 0, g->t_start / 3);
	int64_t mono_us = (g->t_start - susp) / NSEC_PER_USEC;
	int64_t real_ms = 1546300800000LL + rng_range(&g->aux, 0, 150000000000LL);
	int n1, n2;

	n1 = add_name(g, "trace_event_clock_sync: parent_ts=%" PRId64 ".%06" PRId64,
		      mono_us / 1000000, mono_us % 1000000);
	n2 = add_name(g, "trace_event_clock_sync: realtime_ts=%" PRId64, real_ms);
	ev_push(g, g->t_start + rng_range(&g->aux, 5000, 20000), g->t_atrace, EK_TEXT, n1, 0, 0);
	ev_push(g, g->t_start + rng_range(&g->aux, 25000, 40000), g->t_atrace, EK_TEXT, n2, 0, 0);
}

/* ------------------------------------------------------------------------------------ */

static void summary(struct gen *g, int64_t sim_ns)
{
	int i;

	fprintf(stderr, "gfxsim: %" PRIu64 " bytes, %" PRIu64 " lines (%" PRIu64 " marker, %"
		PRIu64 " noise), %" PRId64 ".%03" PRId64 " s simulated, %" PRIu64
		" frames presented:", g->flushed, g->lines, g->marker_lines, g->noise_lines,
		(int64_t)(sim_ns / NSEC_PER_SEC), (int64_t)(sim_ns % NSEC_PER_SEC / NSEC_PER_MSEC),
		g->truth_rows);
	for (i = 0; i < g->nl; i++) {
		const struct layer *l = &g->L[i];

		if (l->sf)
			fprintf(stderr, " %s=%" PRIu64, g->names[l->name], l->presented);
		else
			fprintf(stderr, " %s=%" PRIu64 "(app-side buffers, not in truth)",
				g->names[l->name], l->queued);
	}
	if (g->anomalies)
		fprintf(stderr, " anomalies=%" PRIu64, g->anomalies);
	fputc('\n', stderr);
}

int main(int argc, char **argv)
{
	static struct gen gen;	/* large; keep it off the stack */
	struct gen *g = &gen;
	int64_t k, hv, sim_end;
	uint64_t s;

	g->o.seed = 1;
	g->o.hz = 60;
	g->o.apps = 2;
	g->o.jank_pct = 5;
	g->o.idle_pct = 20;
	g->o.header = true;
	parse_args(argc, argv, &g->o);
	if (!g->o.duration_ns && !g->o.size)
		g->o.duration_ns = 10 * NSEC_PER_SEC;

	s = mix64(g->o.seed ^ 0x67667873696d0001ULL);
	g->sim.s = s;
	g->fmt.s = mix64(s ^ 0x666d74ULL);
	g->noise.s = mix64(s ^ 0x6e6f697365ULL);
	g->aux.s = mix64(s ^ 0x617578ULL);	/* header block and clock sync only */

	g->P = (NSEC_PER_SEC + g->o.hz / 2) / g->o.hz;
	g->app_off = pctP(g, 6, 14);
	g->sf_off = g->app_off + pctP(g, 0, 10);
	/* a plausible uptime; one seed in ten is a freshly booted phone (padded seconds) */
	if (rng_below(&g->sim, 10) == 0)
		g->t_start = rng_range(&g->sim, 120, 9999) * NSEC_PER_SEC;
	else
		g->t_start = rng_range(&g->sim, 100000, 2000000) * NSEC_PER_SEC;
	g->t_start += rng_range(&g->sim, 0, NSEC_PER_SEC - 1);
	g->t0 = g->t_start + rng_range(&g->sim, NSEC_PER_MSEC, g->P);
	g->t_end = g->o.duration_ns ? g->t_start + g->o.duration_ns : NEVER;
	g->pidw = (g->o.tgid == TGID_7 || (g->o.tgid == TGID_NONE && g->o.irq == IRQ_5)) ? 7 : 5;
	g->eol = g->o.crlf ? "\r\n" : "\n";
	g->eol_len = strlen(g->eol);
	g->mark = g->o.legacy ? "0: " : "tracing_mark_write: ";
	g->mark_len = strlen(g->mark);
	g->last_us = g->t_start / NSEC_PER_USEC - 1;
	g->sec_cached = -1;
	g->fg = -1;

	setup_world(g);
	sched_init(g);

	g->out = stdout;
	g->out_name = "<stdout>";
	if (g->o.out_path) {
		g->out = fopen(g->o.out_path, "wb");
		if (!g->out)
			die("cannot open '%s': %s", g->o.out_path, strerror(errno));
		g->out_name = g->o.out_path;
	}
	if (g->o.truth_path) {
		g->truth = fopen(g->o.truth_path, "w");
		if (!g->truth)
			die("cannot open '%s': %s", g->o.truth_path, strerror(errno));
		fputs("present_ns,layer,app,latch_ns,vsync_ns,late_vsyncs\n", g->truth);
	}
	g->buf = malloc(OUT_BUF_SIZE);
	if (!g->buf)
		die("out of memory");

	if (g->o.header) {
		write_header(g);
		clock_sync(g);
	}
	g->hw_on = true;
	g->hw_from = g->t0;
	start_burst(g, g->t_start, false, true);

	for (k = 0; !g->stop; k++) {
		hv = g->t0 + k * g->P;
		if (hv >= g->t_end)
			break;
		do_vsync(g, k);
		flush_until(g, hv + g->P < g->t_end ? hv + g->P : g->t_end);
	}
	if (!g->stop)
		flush_until(g, g->t_end);
	out_flush(g);
	sim_end = g->last_us * NSEC_PER_USEC - g->t_start;

	if (g->out != stdout ? fclose(g->out) != 0 : fflush(g->out) != 0)
		die("cannot write '%s': %s", g->out_name, strerror(errno));
	if (g->truth && (ferror(g->truth) | fclose(g->truth)))
		die("cannot write '%s': %s", g->o.truth_path, strerror(errno));
	summary(g, sim_end < 0 ? 0 : sim_end);
	free(g->heap);
	free(g->buf);
	return 0;
}
