/* SPDX-License-Identifier: MIT */
/*
 * The payloads of the scheduler's ftrace events, as text: "key=value" lists in the order
 * of each event's TP_printk (kernel include/trace/events/sched.h, power.h, binder.h,
 * task.h). One table per event names its keys, their types and where they go in struct
 * gfxstat_sched_event; keys may come in any order and unknown ones are skipped.
 */
#include <stddef.h>

#include "scan_local.h"
#include "sched_local.h"
#include "vec16_local.h"

enum ftype {
	F_STR,   /* struct gfxstat_str; a task name may hold spaces: it runs to the next key */
	F_I32,   /* decimal, may be negative */
	F_U32,   /* decimal */
	F_HEX32, /* "0x1f" (binder flags and code) */
	F_HEX64, /* "3d0f00" (task_newtask clone_flags, %lx) */
	F_STATE, /* prev_state letters */
};

struct field {
	const char *key;
	unsigned char kn;
	unsigned char type;
	unsigned char required;
	size_t off;
};

#define EV(m) offsetof(struct gfxstat_sched_event, m)
#define FLD(k, t, req, m) { k, sizeof(k) - 1, t, req, EV(m) }

/* include/trace/events/sched.h sched_switch: "prev_comm=%s prev_pid=%d prev_prio=%d
 * prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d" */
static const struct field f_switch[] = {
	FLD("prev_comm", F_STR, 0, sw.prev_comm),
	FLD("prev_pid", F_I32, 1, sw.prev_pid),
	FLD("prev_prio", F_I32, 0, sw.prev_prio),
	FLD("prev_state", F_STATE, 0, sw.prev_state),
	FLD("next_comm", F_STR, 0, sw.next_comm),
	FLD("next_pid", F_I32, 1, sw.next_pid),
	FLD("next_prio", F_I32, 0, sw.next_prio),
	{ NULL, 0, 0, 0, 0 },
};

/* sched_wakeup_template: "comm=%s pid=%d prio=%d target_cpu=%03d"; 3.x kernels add
 * "success=%d" before target_cpu */
static const struct field f_wake[] = {
	FLD("comm", F_STR, 0, wake.comm),
	FLD("pid", F_I32, 1, wake.pid),
	FLD("prio", F_I32, 0, wake.prio),
	{ "success", 7, F_I32, 0, (size_t)-1 },
	FLD("target_cpu", F_I32, 0, wake.target_cpu),
	{ NULL, 0, 0, 0, 0 },
};

/* Android's sched_blocked_reason: "pid=%d iowait=%d caller=%pS" */
static const struct field f_blocked[] = {
	FLD("pid", F_I32, 1, blocked.pid),
	FLD("iowait", F_I32, 0, blocked.io_wait),
	FLD("caller", F_STR, 0, blocked.caller),
	{ NULL, 0, 0, 0, 0 },
};

/* include/trace/events/power.h cpu (cpu_frequency, cpu_idle): "state=%lu cpu_id=%lu" */
static const struct field f_freq[] = {
	FLD("state", F_U32, 1, freq.state),
	FLD("cpu_id", F_I32, 1, freq.cpu_id),
	{ NULL, 0, 0, 0, 0 },
};

/* power.h cpu_frequency_limits: "min=%lu max=%lu cpu_id=%lu" */
static const struct field f_limits[] = {
	FLD("min", F_U32, 0, limits.min_khz),
	FLD("max", F_U32, 1, limits.max_khz),
	FLD("cpu_id", F_I32, 1, limits.cpu_id),
	{ NULL, 0, 0, 0, 0 },
};

/* drivers/android/binder_trace.h binder_transaction: "transaction=%d dest_node=%d
 * dest_proc=%d dest_thread=%d reply=%d flags=0x%x code=0x%x" */
static const struct field f_binder[] = {
	FLD("transaction", F_I32, 1, binder.transaction),
	FLD("dest_node", F_I32, 0, binder.dest_node),
	FLD("dest_proc", F_I32, 0, binder.dest_proc),
	FLD("dest_thread", F_I32, 0, binder.dest_thread),
	FLD("reply", F_I32, 0, binder.reply),
	FLD("flags", F_HEX32, 0, binder.flags),
	FLD("code", F_HEX32, 0, binder.code),
	{ NULL, 0, 0, 0, 0 },
};

/* binder_transaction_received: "transaction=%d" */
static const struct field f_received[] = {
	FLD("transaction", F_I32, 1, binder.transaction),
	{ NULL, 0, 0, 0, 0 },
};

/* include/trace/events/task.h task_rename: "pid=%d oldcomm=%s newcomm=%s oom_score_adj=%hd" */
static const struct field f_rename[] = {
	FLD("pid", F_I32, 1, rename.pid),
	FLD("oldcomm", F_STR, 0, rename.oldcomm),
	FLD("newcomm", F_STR, 0, rename.newcomm),
	FLD("oom_score_adj", F_I32, 0, rename.oom_score_adj),
	{ NULL, 0, 0, 0, 0 },
};

/* task.h task_newtask: "pid=%d comm=%s clone_flags=%lx oom_score_adj=%hd" */
static const struct field f_newtask[] = {
	FLD("pid", F_I32, 1, newtask.pid),
	FLD("comm", F_STR, 0, newtask.comm),
	FLD("clone_flags", F_HEX64, 0, newtask.clone_flags),
	FLD("oom_score_adj", F_I32, 0, newtask.oom_score_adj),
	{ NULL, 0, 0, 0, 0 },
};

static const struct field *const fields_of[GFXSTAT_SCHED_KIND_COUNT] = {
	[GFXSTAT_SCHED_SWITCH] = f_switch,
	[GFXSTAT_SCHED_WAKING] = f_wake,
	[GFXSTAT_SCHED_WAKEUP] = f_wake,
	[GFXSTAT_SCHED_WAKEUP_NEW] = f_wake,
	[GFXSTAT_SCHED_BLOCKED_REASON] = f_blocked,
	[GFXSTAT_SCHED_CPU_FREQUENCY] = f_freq,
	[GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS] = f_limits,
	[GFXSTAT_SCHED_CPU_IDLE] = f_freq,
	[GFXSTAT_SCHED_BINDER_TRANSACTION] = f_binder,
	[GFXSTAT_SCHED_BINDER_RECEIVED] = f_received,
	[GFXSTAT_SCHED_BINDER_REPLY] = f_binder,
	[GFXSTAT_SCHED_TASK_RENAME] = f_rename,
	[GFXSTAT_SCHED_TASK_NEWTASK] = f_newtask,
};

static int is(struct gfxstat_str s, const char *lit, size_t n)
{
	return memcmp(s.p, lit, n) == 0;
}

enum gfxstat_sched_kind gfxstat_sched_kind_of(struct gfxstat_str e)
{
	/* by length first: most events of a busy trace (irq, workqueue, sde_*) fail there or at
	 * their first byte */
	switch (e.n) {
	case 8:
		return is(e, "cpu_idle", 8) ? GFXSTAT_SCHED_CPU_IDLE : GFXSTAT_SCHED_NONE;
	case 11:
		return is(e, "task_rename", 11) ? GFXSTAT_SCHED_TASK_RENAME : GFXSTAT_SCHED_NONE;
	case 12:
		if (e.p[0] == 's' && is(e, "sched_", 6)) {
			if (is(e, "sched_switch", 12))
				return GFXSTAT_SCHED_SWITCH;
			if (is(e, "sched_waking", 12))
				return GFXSTAT_SCHED_WAKING;
			if (is(e, "sched_wakeup", 12))
				return GFXSTAT_SCHED_WAKEUP;
			return GFXSTAT_SCHED_NONE;
		}
		if (is(e, "binder_reply", 12))
			return GFXSTAT_SCHED_BINDER_REPLY;
		return is(e, "task_newtask", 12) ? GFXSTAT_SCHED_TASK_NEWTASK : GFXSTAT_SCHED_NONE;
	case 13:
		return is(e, "cpu_frequency", 13) ? GFXSTAT_SCHED_CPU_FREQUENCY : GFXSTAT_SCHED_NONE;
	case 16:
		return is(e, "sched_wakeup_new", 16) ? GFXSTAT_SCHED_WAKEUP_NEW : GFXSTAT_SCHED_NONE;
	case 18:
		return is(e, "binder_transaction", 18) ? GFXSTAT_SCHED_BINDER_TRANSACTION
							: GFXSTAT_SCHED_NONE;
	case 20:
		if (is(e, "sched_blocked_reason", 20))
			return GFXSTAT_SCHED_BLOCKED_REASON;
		return is(e, "cpu_frequency_limits", 20) ? GFXSTAT_SCHED_CPU_FREQUENCY_LIMITS
							  : GFXSTAT_SCHED_NONE;
	case 27:
		return is(e, "binder_transaction_received", 27) ? GFXSTAT_SCHED_BINDER_RECEIVED
								 : GFXSTAT_SCHED_NONE;
	}
	return GFXSTAT_SCHED_NONE;
}

uint32_t gfxstat_task_state_parse(struct gfxstat_str s)
{
	uint32_t st = 0;
	size_t i;

	/* most switches: one letter */
	if (s.n == 1 && s.p[0] == 'S')
		return GFXSTAT_TASK_INTERRUPTIBLE;
	if (s.n == 1 && s.p[0] == 'R')
		return GFXSTAT_TASK_RUNNABLE;
	if (!s.n)
		return GFXSTAT_TASK_UNKNOWN;
	for (i = 0; i < s.n; i++) {
		switch (s.p[i]) {
		case 'R':
			break;
		case '+':
			st |= GFXSTAT_TASK_PREEMPTED;
			break;
		case '|':
			break;
		case 'S':
			st |= GFXSTAT_TASK_INTERRUPTIBLE;
			break;
		case 'D':
			st |= GFXSTAT_TASK_UNINTERRUPTIBLE;
			break;
		case 'T':
			st |= GFXSTAT_TASK_STOPPED;
			break;
		case 't':
			st |= GFXSTAT_TASK_TRACED;
			break;
		case 'X':
			st |= GFXSTAT_TASK_EXIT_DEAD;
			break;
		case 'Z':
			st |= GFXSTAT_TASK_EXIT_ZOMBIE;
			break;
		case 'x':
			st |= GFXSTAT_TASK_DEAD;
			break;
		case 'K':
			st |= GFXSTAT_TASK_WAKEKILL;
			break;
		case 'W':
			st |= GFXSTAT_TASK_WAKING;
			break;
		case 'P':
			st |= GFXSTAT_TASK_PARKED;
			break;
		case 'N':
			st |= GFXSTAT_TASK_NOLOAD;
			break;
		case 'I':
			st |= GFXSTAT_TASK_IDLE;
			break;
		default:
			return GFXSTAT_TASK_UNKNOWN;
		}
	}
	return st;
}

/* Does @p start one of @f's keys followed by '=' (or the switch's "==>")? */
static int key_at(const char *p, const char *end, const struct field *f)
{
	if (end - p >= 3 && p[0] == '=' && p[1] == '=' && p[2] == '>')
		return 1;
	for (; f->key; f++)
		if ((size_t)(end - p) > f->kn && p[f->kn] == '=' && p[0] == f->key[0] &&
		    memcmp(p, f->key, f->kn) == 0)
			return 1;
	return 0;
}

static int num_i64(const char *p, size_t n, int hex, int64_t *out)
{
	const char *e = p + n;
	int neg = 0;
	uint64_t v = 0;

	if (p < e && *p == '-' && !hex) {
		neg = 1;
		p++;
	}
	if (hex && e - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (p == e || e - p > 20)
		return -1;
	for (; p < e; p++) {
		unsigned d;

		if (gx_isdigit(*p))
			d = (unsigned)(*p - '0');
		else if (hex && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (hex && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return -1;
		if (v > (UINT64_MAX - d) / (hex ? 16 : 10))
			return -1;
		v = v * (hex ? 16 : 10) + d;
	}
	if (!hex && v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

static int store(struct gfxstat_sched_event *ev, const struct field *f, const char *v, size_t n)
{
	char *dst;
	int64_t x;

	if (f->off == (size_t)-1) /* a field not kept: ev + off would overflow (UBSan) */
		return 0;
	dst = (char *)ev + f->off;
	switch (f->type) {
	case F_STR: {
		struct gfxstat_str s = { v, n };

		memcpy(dst, &s, sizeof(s));
		return 0;
	}
	case F_STATE: {
		uint32_t st = gfxstat_task_state_parse((struct gfxstat_str){ v, n });

		memcpy(dst, &st, sizeof(st));
		return 0;
	}
	case F_I32:
		if (num_i64(v, n, 0, &x) || x < INT32_MIN || x > INT32_MAX)
			return -1;
		{
			int32_t i = (int32_t)x;

			memcpy(dst, &i, sizeof(i));
		}
		return 0;
	case F_U32:
		if (num_i64(v, n, 0, &x) || x < 0 || x > (int64_t)UINT32_MAX)
			return -1;
		{
			uint32_t u = (uint32_t)x;

			memcpy(dst, &u, sizeof(u));
		}
		return 0;
	case F_HEX32:
		if (num_i64(v, n, 1, &x) || (uint64_t)x > UINT32_MAX)
			return -1;
		{
			uint32_t u = (uint32_t)x;

			memcpy(dst, &u, sizeof(u));
		}
		return 0;
	case F_HEX64:
		if (num_i64(v, n, 1, &x))
			return -1;
		{
			uint64_t u = (uint64_t)x;

			memcpy(dst, &u, sizeof(u));
		}
		return 0;
	}
	return -1;
}

/* The irq-flags column before the timestamp ("d.h2"): its third letter says hard/soft irq. */
static unsigned irq_context(const struct gfxstat_ftrace_line *line)
{
	const char *start = line->task.p, *q = line->ts_text.p, *tok;

	if (!q || !start || q <= start)
		return 0;
	/* the usual " d.h2 " before the timestamp: what the loops below find, read in place */
	if (q - start >= 6 && q[-1] == ' ' && q[-6] == ' ' && q[-2] != ' ' && q[-3] != ' ' &&
	    q[-4] != ' ' && q[-5] != ' ') {
		if (q[-2] == ']')
			return 0;
		q -= 5;
		goto letter;
	}
	while (q > start && q[-1] == ' ')
		q--;
	tok = q;
	while (tok > start && tok[-1] != ' ' && q - tok < 8)
		tok--;
	if (q - tok < 4 || q[-1] == ']')
		return 0;
	q = tok;
letter:
	switch (q[2]) {
	case 'h':
		return GFXSTAT_SCHED_IRQ_HARD;
	case 's':
		return GFXSTAT_SCHED_IRQ_SOFT;
	case 'H':
		return GFXSTAT_SCHED_IRQ_HARD | GFXSTAT_SCHED_IRQ_SOFT;
	}
	return 0;
}

/* @p (n bytes, in the line) is the literal @s: with @n a constant, two overlapping compares
 * of 8 (or 4) bytes, no call (memcmp() is one when it is not inlined). */
static inline int eqn(const char *p, const char *s, size_t n)
{
#if GX_SWAR
	if (n >= 8 && n <= 16)
		return gx_load8(p) == gx_load8(s) && gx_load8(p + n - 8) == gx_load8(s + n - 8);
	if (n >= 4 && n < 8) {
		uint32_t a, b, c, d;

		memcpy(&a, p, 4);
		memcpy(&b, s, 4);
		memcpy(&c, p + n - 4, 4);
		memcpy(&d, s + n - 4, 4);
		return a == b && c == d;
	}
#endif
	return memcmp(p, s, n) == 0;
}

/*
 * The fast path: the three events that make most of a trace's scheduler lines, in the exact
 * order the kernel prints them. Any surprise (a kernel that prints otherwise, a name with
 * " next_pid=" in it) returns -1 and the general parser below reads the line instead.
 */
static inline int lit(const char **pp, const char *end, const char *s, size_t n)
{
	if ((size_t)(end - *pp) < n || !eqn(*pp, s, n))
		return -1;
	*pp += n;
	return 0;
}

/* A decimal int32 ending at a space or the end (a pid, prio, cpu: never negative here but
 * for prio -1 of a deadline task, which the general parser reads). */
static inline int dec(const char **pp, const char *end, int32_t *out)
{
	const char *p = *pp, *stop = end - p > 10 ? p + 10 : end;
	uint64_t v = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Up to 7 digits with 8 bytes to read, without a branch per digit (a pid's length varies,
	 * and a mispredicted loop exit costs more than the digits): the bytes minus '0', the first
	 * that is no digit found by its high bit (x > 9 sets it once 0x76 is added; a byte below
	 * '0' borrows only from those after it), then the 8-digit multiply of simdjson's
	 * parse_eight_digits_unrolled on the digits moved to the top (zero bytes are leading 0s).
	 */
	if (end - p >= 8) {
		uint64_t w, x, nd;
		unsigned len;

		memcpy(&w, p, 8);
		x = w - 0x3030303030303030ULL;
		nd = (x | (x + 0x7676767676767676ULL)) & 0x8080808080808080ULL;
		if (nd) {
			len = (unsigned)__builtin_ctzll(nd) >> 3;
			if (!len)
				return -1;
			if (p[len] != ' ')
				return -1;
			x <<= 8 * (8 - len);
			x = (x & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
			x = (x & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
			x = (x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
			*out = (int32_t)x;
			*pp = p + len;
			return 0;
		}
	}
#endif
	/* at most 10 digits: an overflow past INT32_MAX is caught below, in 64 bits; one
	 * unsigned compare per digit */
	for (; p < stop; p++) {
		unsigned d = (unsigned)(unsigned char)*p - '0';

		if (d > 9)
			break;
		v = v * 10 + d;
	}
	if (p == *pp || (p < end && *p != ' ') || v > INT32_MAX)
		return -1;
	*out = (int32_t)v;
	*pp = p;
	return 0;
}

/* A task name, up to the " <key>=" that follows it. */
static inline int name_to(const char **pp, const char *end, const char *key, size_t kn,
		   struct gfxstat_str *out)
{
	const char *p = *pp, *last = end - kn - 1; /* a key fits after a space before @last */

#if GX_SWAR
	/* a task name is at most 15 bytes: its blank is nearly always among the next 16
	 * (vec16_local.h: SSE2, NEON on the phones, else SWAR) */
	if (last - p >= 16) {
		gx_v16_marks m = gx_v16_eq_marks(gx_v16_load(p), ' ');

		if (m) {
			const char *b = p + gx_v16_first(m);

			if (b[1] == key[0] && eqn(b + 1, key, kn)) {
				out->p = p;
				out->n = (size_t)(b - p);
				*pp = b + 1 + kn;
				return 0;
			}
		}
	}
#endif
	while (p < last && (p = gx_find_byte(p, last, ' ')) != NULL) {
		if (p[1] == key[0] && eqn(p + 1, key, kn)) {
			out->p = *pp;
			out->n = (size_t)(p - *pp);
			*pp = p + 1 + kn;
			return 0;
		}
		p++; /* a space inside the name ("Jit thread pool") */
	}
	return -1;
}

#if GX_SWAR
/* @p holds the 8-byte literal @s (in the payload: the caller checked the length) */
#define AT8(p, s) (gx_load8(p) == gx_load8(s))

/* The decimal of 1 to 7 digits at @p (8 bytes readable at @p): its length, 0 when there is
 * none. dec()'s word read without its bounds, nor its test of the blank after: every caller
 * compares the literal that follows, which starts with that blank. */
static inline unsigned digits_to_blank(const char *p, int32_t *out)
{
	uint64_t w = gx_load8(p), m = gx_nondigit8(w);
	unsigned k;

	if (!m)
		return 0;
	k = gx_first8(m);
	if (!k)
		return 0;
	*out = (int32_t)(k <= 4 ? gx_digits4(w, k) : gx_digits8(w, k));
	return k;
}

/* A task name without blanks at @p (16 bytes readable there): the blank after it, or NULL
 * (a name with a blank, or none, goes to name_to() and the general parser). */
static inline const char *name_end(const char *p)
{
	gx_v16_marks m = gx_v16_eq_marks(gx_v16_load(p), ' ');

	return m ? p + gx_v16_first(m) : NULL;
}

/* The decimal of 1 to 7 digits from @q to @end, the payload's last field (8 payload bytes
 * lie before @end): the 8 bytes that end the payload, those before @q shifted out as zero
 * bytes (no digits). */
static inline int digits_to_end(const char *q, const char *end, int32_t *out)
{
	unsigned k = (unsigned)(end - q);
	uint64_t w;

	if (end - q < 1 || end - q > 7)
		return -1;
	w = gx_load8(end - 8) >> (8 * (8 - k));
	if (gx_first8(gx_nondigit8(w)) != k)
		return -1;
	*out = (int32_t)(k <= 4 ? gx_digits4(w, k) : gx_digits8(w, k));
	return 0;
}

/*
 * sched_switch as the kernel prints it (include/trace/events/sched.h), every field at the
 * place the one before puts it: the lengths checked once for the fixed part, then once
 * for the rest, instead of before each field. Names without blanks, pids and prios of 1 to
 * 7 digits, a state of one letter S or R; anything else is left to fast_parse()'s steps and
 * the general parser (-1). The payload is at least 84 bytes ("prev_comm= prev_pid=0
 * prev_prio=0 prev_state=S ==> next_comm= next_pid=0 next_prio=0").
 */
static inline int fast_switch(struct gfxstat_sched_event *ev, const char *p, const char *end)
{
	const char *b, *q, *st;
	unsigned k;

	/* p + 10 + 16 (a name), + 10 + 8 (pid), + 11 + 8 (prio), + 12 + 4 (state): p + 79 */
	if (end - p < 84 || !AT8(p, "prev_com") || p[8] != 'm' || p[9] != '=')
		return -1;
	q = p + 10;
	b = name_end(q);
	if (b && AT8(b, " prev_pi") && b[8] == 'd' && b[9] == '=') {
		ev->sw.prev_comm.p = q;
		ev->sw.prev_comm.n = (size_t)(b - q);
		q = b + 10;
	} else if (name_to(&q, end, "prev_pid=", 9, &ev->sw.prev_comm) || end - q < 49) {
		return -1; /* (a name with blanks: 49 bytes left keep the reads below in it) */
	}
	if (!(k = digits_to_blank(q, &ev->sw.prev_pid)))
		return -1;
	q += k;
	if (!AT8(q, " prev_pr") || !AT8(q + 3, "ev_prio="))
		return -1;
	q += 11;
	if (!(k = digits_to_blank(q, &ev->sw.prev_prio)))
		return -1;
	q += k;
	if (!AT8(q, " prev_st") || !AT8(q + 4, "v_state="))
		return -1;
	st = q + 12;
	if (st[1] == ' ' && (st[0] == 'S' || st[0] == 'R')) {
		/* gfxstat_task_state_parse()'s first cases */
		ev->sw.prev_state = st[0] == 'S' ? GFXSTAT_TASK_INTERRUPTIBLE : GFXSTAT_TASK_RUNNABLE;
		q = st + 1;
	} else {
		for (q = st; q < end && *q != ' '; q++)
			;
		ev->sw.prev_state = gfxstat_task_state_parse((struct gfxstat_str){ st, (size_t)(q - st) });
	}
	/* " ==> next_comm=" (15), a name and its blank (16 read), " next_pid=" (10), a pid
	 * (8 read: " next_pid=0 next_prio=0" is 23 bytes), " next_prio=" (11), a prio of 1 to
	 * 7 digits to the end */
	if (end - q < 15 + 16 || !AT8(q, " ==> nex") || !AT8(q + 7, "xt_comm="))
		return -1;
	q += 15;
	b = name_end(q);
	if (b && end - b >= 23 && AT8(b, " next_pi") && b[8] == 'd' && b[9] == '=') {
		ev->sw.next_comm.p = q;
		ev->sw.next_comm.n = (size_t)(b - q);
		q = b + 10;
	} else if (name_to(&q, end, "next_pid=", 9, &ev->sw.next_comm) || end - q < 13) {
		return -1;
	}
	if (!(k = digits_to_blank(q, &ev->sw.next_pid)))
		return -1;
	q += k;
	if (end - q < 12 || end - q > 18 || !AT8(q, " next_pr") || !AT8(q + 3, "xt_prio="))
		return -1;
	return digits_to_end(q + 11, end, &ev->sw.next_prio);
}

/* sched_wakeup_template as the kernel prints it: "comm=%s pid=%d prio=%d target_cpu=%03d"
 * (no "success=", which 3.x kernels add: fast_parse()'s steps read those), as fast_switch() */
static inline int fast_wake(struct gfxstat_sched_event *ev, const char *p, const char *end)
{
	const char *b, *q;
	unsigned k;

	/* "comm= pid=0 prio=0 target_cpu=0"; a name of up to 15 is read as 16 bytes */
	if (end - p < 31 || gx_load4(p) != gx_load4("comm") || p[4] != '=')
		return -1;
	q = p + 5;
	b = name_end(q);
	if (b && end - b >= 26 && b[0] == ' ' && gx_load4(b + 1) == gx_load4("pid=")) {
		ev->wake.comm.p = q;
		ev->wake.comm.n = (size_t)(b - q);
		q = b + 5;
	} else if (name_to(&q, end, "pid=", 4, &ev->wake.comm) || end - q < 21) {
		return -1;
	}
	/* q + 7 + 6 + 8 <= end: the pid, " prio=", the prio read */
	if (!(k = digits_to_blank(q, &ev->wake.pid)))
		return -1;
	q += k;
	if (q[0] != ' ' || gx_load4(q + 1) != gx_load4("prio") || q[5] != '=')
		return -1;
	q += 6;
	if (!(k = digits_to_blank(q, &ev->wake.prio)))
		return -1;
	q += k;
	if (end - q < 13 || !AT8(q, " target_") || gx_load4(q + 8) != gx_load4("cpu="))
		return -1;
	return digits_to_end(q + 12, end, &ev->wake.target_cpu);
}
#endif

static int fast_parse(struct gfxstat_sched_event *ev, const char *p, const char *end)
{
	switch (ev->kind) {
	case GFXSTAT_SCHED_SWITCH: {
		const char *st;

#if GX_SWAR
		if (!fast_switch(ev, p, end))
			return 0;
#endif
		if (lit(&p, end, "prev_comm=", 10) ||
		    name_to(&p, end, "prev_pid=", 9, &ev->sw.prev_comm) ||
		    dec(&p, end, &ev->sw.prev_pid) || lit(&p, end, " prev_prio=", 11) ||
		    dec(&p, end, &ev->sw.prev_prio) || lit(&p, end, " prev_state=", 12))
			return -1;
		st = p;
		if (end - p >= 2 && p[1] == ' ' && (p[0] == 'S' || p[0] == 'R')) {
			/* most switches: one letter (gfxstat_task_state_parse()'s first cases) */
			ev->sw.prev_state = p[0] == 'S' ? GFXSTAT_TASK_INTERRUPTIBLE
							: GFXSTAT_TASK_RUNNABLE;
			p++;
		} else {
			while (p < end && *p != ' ')
				p++;
			ev->sw.prev_state = gfxstat_task_state_parse(
				(struct gfxstat_str){ st, (size_t)(p - st) });
		}
		if (lit(&p, end, " ==> next_comm=", 15) ||
		    name_to(&p, end, "next_pid=", 9, &ev->sw.next_comm) ||
		    dec(&p, end, &ev->sw.next_pid) || lit(&p, end, " next_prio=", 11) ||
		    dec(&p, end, &ev->sw.next_prio))
			return -1;
		return p == end ? 0 : -1;
	}
	case GFXSTAT_SCHED_WAKING:
	case GFXSTAT_SCHED_WAKEUP:
	case GFXSTAT_SCHED_WAKEUP_NEW: {
		int32_t ok;

#if GX_SWAR
		if (!fast_wake(ev, p, end))
			return 0;
#endif
		if (lit(&p, end, "comm=", 5) || name_to(&p, end, "pid=", 4, &ev->wake.comm) ||
		    dec(&p, end, &ev->wake.pid) || lit(&p, end, " prio=", 6) ||
		    dec(&p, end, &ev->wake.prio))
			return -1;
		if (!lit(&p, end, " success=", 9) && dec(&p, end, &ok))
			return -1;
		if (lit(&p, end, " target_cpu=", 12) || dec(&p, end, &ev->wake.target_cpu))
			return -1;
		return p == end ? 0 : -1;
	}
	case GFXSTAT_SCHED_CPU_FREQUENCY:
	case GFXSTAT_SCHED_CPU_IDLE: {
		int64_t state = 0;
		int nd = 0;

		if (lit(&p, end, "state=", 6))
			return -1;
		while (p < end && gx_isdigit(*p) && nd < 11) {
			state = state * 10 + (*p++ - '0');
			nd++;
		}
		if (!nd || state > (int64_t)UINT32_MAX || lit(&p, end, " cpu_id=", 8) ||
		    dec(&p, end, &ev->freq.cpu_id))
			return -1;
		ev->freq.state = (uint32_t)state;
		return p == end ? 0 : -1;
	}
	default:
		return -1;
	}
}

/* The common fields, and every payload field at its "absent" value. */
/* The payload: zero, then each kind's "absent" values (the general parser's start). */
static void init_payload(enum gfxstat_sched_kind kind, struct gfxstat_sched_event *out)
{
	memset(&out->sw, 0, sizeof(*out) - offsetof(struct gfxstat_sched_event, sw));
	switch (kind) {
	case GFXSTAT_SCHED_WAKING:
	case GFXSTAT_SCHED_WAKEUP:
	case GFXSTAT_SCHED_WAKEUP_NEW:
		out->wake.target_cpu = -1;
		break;
	case GFXSTAT_SCHED_BLOCKED_REASON:
		out->blocked.io_wait = -1;
		break;
	case GFXSTAT_SCHED_BINDER_TRANSACTION:
	case GFXSTAT_SCHED_BINDER_RECEIVED:
		out->binder.dest_node = out->binder.dest_proc = out->binder.dest_thread = -1;
		break;
	case GFXSTAT_SCHED_BINDER_REPLY:
		out->binder.dest_node = out->binder.dest_proc = out->binder.dest_thread = -1;
		out->binder.reply = 1;
		break;
	default:
		break;
	}
	if (kind == GFXSTAT_SCHED_SWITCH)
		out->sw.prev_state = GFXSTAT_TASK_UNKNOWN;
}

enum gfxstat_parse_res gfxstat_sched_line_parse(const struct gfxstat_ftrace_line *line,
						struct gfxstat_sched_event *out)
{
	enum gfxstat_sched_kind kind = gfxstat_sched_kind_of(line->event);

	if (kind == GFXSTAT_SCHED_NONE)
		return GFXSTAT_PARSE_UNSUPPORTED;
	return gx_sched_line_parse_kind(line, kind, out);
}

/* The line's own fields, common to every kind. */
static inline void set_common(const struct gfxstat_ftrace_line *line, enum gfxstat_sched_kind kind,
			      struct gfxstat_sched_event *out)
{
	out->kind = kind;
	out->ts_ns = line->ts_ns;
	out->cpu = line->cpu;
	out->tid = line->pid;
	out->tgid = line->tgid;
	out->comm = line->task;
	/* who woke a thread matters, and whether from an interrupt: the flags are read for the
	 * wakeups only */
	out->irq = kind == GFXSTAT_SCHED_WAKING || kind == GFXSTAT_SCHED_WAKEUP ||
			   kind == GFXSTAT_SCHED_WAKEUP_NEW ? irq_context(line) : 0;
}

/*
 * The payload by the key tables (the fast paths' fallback, and the unit test's reference for
 * them). Out of line: its loops want every register, and a function that holds them saves
 * and restores six for each of the hundreds of thousands of lines the fast paths take.
 */
#ifdef __GNUC__
__attribute__((noinline))
#endif
static enum gfxstat_parse_res parse_general(enum gfxstat_sched_kind kind, const char *p,
					    const char *end, struct gfxstat_sched_event *out)
{
	const struct field *fs, *f;
	unsigned seen = 0, need = 0, i;

	init_payload(kind, out);
	fs = fields_of[kind];
	for (i = 0; fs[i].key; i++)
		if (fs[i].required)
			need |= 1u << i;
	while (p < end) {
		const char *k, *v;

		while (p < end && *p == ' ')
			p++;
		if (end - p >= 3 && p[0] == '=' && p[1] == '=' && p[2] == '>') {
			p += 3;
			continue;
		}
		k = p;
		while (p < end && *p != '=' && *p != ' ')
			p++;
		if (p >= end || *p != '=') {
			/* a word with no '=' (none of these events has one): skip it */
			while (p < end && *p != ' ')
				p++;
			continue;
		}
		for (f = fs, i = 0; f->key; f++, i++)
			if ((size_t)(p - k) == f->kn && memcmp(k, f->key, f->kn) == 0)
				break;
		v = ++p;
		if (f->key && f->type == F_STR) {
			/* a name runs to the next key of the event ("Jit thread pool") */
			while (p < end && !(*p == ' ' && key_at(p + 1, end, fs)))
				p++;
		} else {
			while (p < end && *p != ' ')
				p++;
		}
		if (!f->key)
			continue; /* a key this event does not use */
		if (store(out, f, v, (size_t)(p - v)))
			return GFXSTAT_PARSE_FAIL;
		seen |= 1u << i;
	}
	if ((seen & need) != need)
		return GFXSTAT_PARSE_FAIL;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gx_sched_line_parse_kind(const struct gfxstat_ftrace_line *line,
						enum gfxstat_sched_kind kind,
						struct gfxstat_sched_event *out)
{
	const char *p = line->payload.p, *end = p + line->payload.n;

	set_common(line, kind, out);
	/* the fast path sets every field of its kinds' members; the others' bytes are not read */
	if (!fast_parse(out, p, end))
		return GFXSTAT_PARSE_OK;
	return parse_general(kind, p, end, out);
}

enum gfxstat_parse_res gx_sched_line_parse_general(const struct gfxstat_ftrace_line *line,
						   enum gfxstat_sched_kind kind,
						   struct gfxstat_sched_event *out)
{
	set_common(line, kind, out);
	return parse_general(kind, line->payload.p, line->payload.p + line->payload.n, out);
}
