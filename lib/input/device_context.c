/* SPDX-License-Identifier: MIT */
/*
 * The device's context replies (gfxstat_device_context.h): what `record` reads once per
 * sample beside the frames. Nothing here allocates; numbers are integers from their digits.
 *
 * Sources of the formats, read for this file:
 * - grep -H and find error lines: toybox lib/lib.c perror_msg() ("%s: %s: %s", the tool, the
 *   file, strerror) as grep.c and find.c call it; GNU grep and find write the same, find
 *   with the file quoted ('...' in the C locale, ‘...’ in UTF-8 ones).
 * - /proc/stat and /proc/PID/stat: the kernel's fs/proc/stat.c show_stat() ("cpu  " and
 *   "cpu%d" then user nice system idle iowait irq softirq steal guest guest_nice) and
 *   fs/proc/array.c do_task_stat() (comm in parentheses, the state, 10 fields, then utime
 *   and stime); Documentation/filesystems/proc.rst; /proc/uptime: fs/proc/uptime.c
 *   ("%lu.%02lu %lu.%02lu").
 * - kgsl gpubusy: msm kgsl_pwrctrl.c gpubusy_show() ("%7d %7d\n", busy_old, total_old).
 * - atrace --list_categories: frameworks/native cmds/atrace/atrace.cpp listSupportedCategories()
 *   ("  %10s - %s\n").
 */
#include <stdint.h>
#include <string.h>

#include "gfxstat/gfxstat_device_context.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

/* Digits at *s (advanced) into @v; 0, or -1 when there are none or they pass INT64_MAX. */
static int scan_u63(const char **s, const char *end, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;

	if (p >= end || !is_digit(*p))
		return -1;
	for (; p < end && is_digit(*p); p++) {
		if (x > ((uint64_t)INT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	*s = p;
	*v = x;
	return 0;
}

static void skip_blanks(const char **s, const char *end)
{
	while (*s < end && (**s == ' ' || **s == '\t'))
		(*s)++;
}

/* ---------------------------------------------------------------------------------------- */
/* grep -H and find replies                                                                  */

/* Whether @s (@n bytes) starts with @path then @sep. */
static int names(const char *s, size_t n, const char *path, char sep)
{
	size_t k = strlen(path);

	return k && n > k && s[k] == sep && !memcmp(s, path, k);
}

/* The path of @s that is one of @paths followed by @sep, longest first (@hint tried before
 * the others: the tools answer in order). Return: its index, or @npaths when none. */
static size_t which(const char *s, size_t n, const char *const *paths, size_t npaths, char sep,
		    const size_t *hint)
{
	size_t i, best = npaths, blen = 0;

	if (hint && *hint < npaths && names(s, n, paths[*hint], sep))
		return *hint;
	for (i = 0; i < npaths; i++) {
		size_t k = strlen(paths[i]);

		if (k > blen && names(s, n, paths[i], sep)) {
			best = i;
			blen = k;
		}
	}
	return best;
}

/*
 * "TOOL: PATH: REASON", PATH bare, in '...' or in ‘...’: the path's index and the reason.
 * Return: 1, or 0 when the line is not that.
 */
static int refusal(const char *s, size_t n, const char *const *paths, size_t npaths,
		   struct gfxstat_ctx_line *out)
{
	static const char *const open_q[] = { "", "'", "\xe2\x80\x98" };
	static const char *const close_q[] = { "", "'", "\xe2\x80\x99" };
	size_t t = 0, i, q;

	/* the tool: a lowercase word then ": " */
	while (t < n && s[t] >= 'a' && s[t] <= 'z')
		t++;
	if (!t || t + 2 > n || s[t] != ':' || s[t + 1] != ' ')
		return 0;
	t += 2;
	for (q = 0; q < 3; q++) {
		size_t ol = strlen(open_q[q]), cl = strlen(close_q[q]), best = npaths, blen = 0;

		if (n - t < ol || memcmp(s + t, open_q[q], ol))
			continue;
		for (i = 0; i < npaths; i++) {
			size_t k = strlen(paths[i]), at = t + ol;

			/* then the closing quote and ": " */
			if (!k || k <= blen || n - at < k + cl + 2 || memcmp(s + at, paths[i], k) ||
			    memcmp(s + at + k, close_q[q], cl) || s[at + k + cl] != ':' ||
			    s[at + k + cl + 1] != ' ')
				continue;
			best = i;
			blen = k;
		}
		if (best < npaths) {
			size_t at = t + ol + blen + cl + 2;

			out->kind = GFXSTAT_CTX_REFUSED;
			out->path = best;
			out->text.p = s + at;
			out->text.n = n - at;
			trim(&out->text.p, &out->text.n);
			return 1;
		}
	}
	return 0;
}

int gfxstat_ctx_reply_next(struct gfxstat_str *reply, const char *const *paths, size_t npaths,
			   char sep, size_t *hint, struct gfxstat_ctx_line *out)
{
	while (reply->n) {
		const char *s = reply->p, *nl = memchr(s, '\n', reply->n);
		size_t n = nl ? (size_t)(nl - s) : reply->n, i;

		reply->p += nl ? n + 1 : n;
		reply->n -= nl ? n + 1 : n;
		while (n && s[n - 1] == '\r')
			n--;
		if (refusal(s, n, paths, npaths, out)) {
			if (hint)
				*hint = out->path;
			return 1;
		}
		i = which(s, n, paths, npaths, sep, hint);
		if (i == npaths)
			continue;
		out->kind = GFXSTAT_CTX_TEXT;
		out->path = i;
		out->text.p = s + strlen(paths[i]) + 1;
		out->text.n = n - strlen(paths[i]) - 1;
		if (hint)
			*hint = i;
		/* find: a name, never a deeper path */
		if (sep == '/' && (!out->text.n || memchr(out->text.p, '/', out->text.n)))
			continue;
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* numbers                                                                                   */

enum gfxstat_parse_res gfxstat_ctx_number(const char *s, size_t n, int64_t *v)
{
	const char *end;
	uint64_t x;
	int neg = 0;

	trim(&s, &n);
	end = s + n;
	if (s < end && (*s == '-' || *s == '+')) {
		neg = *s == '-';
		s++;
	}
	if (scan_u63(&s, end, &x) || s != end)
		return GFXSTAT_PARSE_FAIL;
	*v = neg ? -(int64_t)x : (int64_t)x;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ctx_uptime(const char *s, size_t n, int64_t *ns)
{
	const char *end;
	uint64_t sec, frac = 0;
	int64_t scale = GFXSTAT_NSEC_PER_SEC;

	trim(&s, &n);
	end = s + n;
	if (scan_u63(&s, end, &sec) || sec > (uint64_t)(INT64_MAX / GFXSTAT_NSEC_PER_SEC) - 1)
		return GFXSTAT_PARSE_FAIL;
	if (s < end && *s == '.') {
		const char *f = ++s;

		/* the fraction scaled by its digit count: "67" is 670 ms; past 9 digits, cut */
		while (s < end && is_digit(*s)) {
			if (s - f < 9) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				scale /= 10;
			}
			s++;
		}
		if (s == f)
			return GFXSTAT_PARSE_FAIL;
	}
	if (s < end && !is_space(*s))
		return GFXSTAT_PARSE_FAIL;
	*ns = (int64_t)sec * GFXSTAT_NSEC_PER_SEC + (int64_t)frac * scale;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ctx_proc_stat_line(const char *s, size_t n,
						  struct gfxstat_ctx_cpu *out)
{
	const char *end = s + n;
	uint64_t f[10] = { 0 }, cpu = 0;
	int k = 0;

	if (n < 3 || memcmp(s, "cpu", 3))
		return GFXSTAT_PARSE_UNSUPPORTED;
	s += 3;
	if (s < end && is_digit(*s)) {
		if (scan_u63(&s, end, &cpu) || cpu > INT32_MAX)
			return GFXSTAT_PARSE_FAIL;
		out->cpu = (int32_t)cpu;
	} else {
		out->cpu = -1;
	}
	if (s >= end || (*s != ' ' && *s != '\t'))
		return GFXSTAT_PARSE_FAIL;
	for (;;) {
		skip_blanks(&s, end);
		if (s >= end || is_space(*s))
			break;
		if (k == 10 || scan_u63(&s, end, &f[k]))
			return GFXSTAT_PARSE_FAIL;
		k++;
	}
	if (k < 4)
		return GFXSTAT_PARSE_FAIL;
	/* each field < 2^63 and at most 6 summed: no wrap in 64 bits unsigned */
	out->busy = f[0] + f[1] + f[2] + f[5] + f[6] + f[7];
	out->idle = f[3] + f[4];
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ctx_gpubusy(const char *s, size_t n, int64_t *busy,
					   int64_t *total)
{
	const char *end = s + n;
	uint64_t b, t;

	skip_blanks(&s, end);
	if (scan_u63(&s, end, &b))
		return GFXSTAT_PARSE_FAIL;
	skip_blanks(&s, end);
	if (scan_u63(&s, end, &t))
		return GFXSTAT_PARSE_FAIL;
	while (s < end && is_space(*s))
		s++;
	if (s != end)
		return GFXSTAT_PARSE_FAIL;
	*busy = (int64_t)b;
	*total = (int64_t)t;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ctx_gpu_load(const char *s, size_t n, int64_t *permille)
{
	const char *end;
	uint64_t v;

	trim(&s, &n);
	end = s + n;
	if (scan_u63(&s, end, &v) || v > 100)
		return GFXSTAT_PARSE_FAIL;
	if (s < end && *s == '%') {
		s++;
	} else if (s < end && *s == '@') {
		/* the frequency after it: "585000000Hz" */
		uint64_t f;

		s++;
		if (scan_u63(&s, end, &f) || end - s != 2 || memcmp(s, "Hz", 2))
			return GFXSTAT_PARSE_FAIL;
		s = end;
	}
	if (s != end)
		return GFXSTAT_PARSE_FAIL;
	*permille = (int64_t)v * 10;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ctx_dumpsys_battery(const char *s, size_t n,
						   struct gfxstat_ctx_battery *out)
{
	static const char *const keys[] = { "level:", "scale:", "voltage:", "temperature:" };
	const char *end = s + n;
	int64_t *const dst[] = { &out->level, &out->scale, &out->voltage_mv, &out->temp_dc };
	int found = 0, absent = 0;

	out->level = out->scale = out->voltage_mv = out->temp_dc = INT64_MIN;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end, *p = s;
		size_t k;

		/* "  level: 85": indented, the key then a number (a sign for a cold battery) */
		skip_blanks(&p, e);
		/* a device without a battery (a TV box) still prints "present: false", level 0 */
		if (p != s && e - p >= 14 && !memcmp(p, "present: false", 14))
			absent = 1;
		for (k = 0; k < 4 && p != s; k++) {
			size_t kl = strlen(keys[k]);
			int64_t v;

			if ((size_t)(e - p) <= kl || memcmp(p, keys[k], kl))
				continue;
			if (gfxstat_ctx_number(p + kl, (size_t)(e - p) - kl, &v) != GFXSTAT_PARSE_OK)
				break;
			*dst[k] = v;
			found = 1;
			break;
		}
		s = nl ? nl + 1 : end;
	}
	return found && !absent ? GFXSTAT_PARSE_OK : GFXSTAT_PARSE_UNSUPPORTED;
}

enum gfxstat_parse_res gfxstat_ctx_pid_ticks(const char *s, size_t n, uint64_t *ticks)
{
	const char *end = s + n, *p = end;
	uint64_t v[12];
	int k;

	/* the comm is whatever the task named itself: the fields start after its last ')' */
	while (p > s && p[-1] != ')')
		p--;
	if (p == s)
		return GFXSTAT_PARSE_FAIL;
	/* the state (a letter), then ppid .. cmajflt (10 fields), utime, stime */
	skip_blanks(&p, end);
	if (p >= end || is_digit(*p) || is_space(*p))
		return GFXSTAT_PARSE_FAIL;
	while (p < end && *p != ' ')
		p++;
	for (k = 0; k < 12; k++) {
		skip_blanks(&p, end);
		/* tty_nr and tpgid may be -1 */
		if (p < end && *p == '-' && k < 10)
			p++;
		if (scan_u63(&p, end, &v[k]))
			return GFXSTAT_PARSE_FAIL;
	}
	*ticks = v[10] + v[11];
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ctx_status_kb(const char *s, size_t n, const char *key,
					     int64_t *kb)
{
	size_t k = strlen(key);
	const char *end = s + n;
	uint64_t v;

	if (n <= k || memcmp(s, key, k) || s[k] != ':')
		return GFXSTAT_PARSE_UNSUPPORTED;
	s += k + 1;
	skip_blanks(&s, end);
	if (scan_u63(&s, end, &v))
		return GFXSTAT_PARSE_FAIL;
	skip_blanks(&s, end);
	if (end - s < 2 || memcmp(s, "kB", 2))
		return GFXSTAT_PARSE_FAIL;
	s += 2;
	while (s < end && is_space(*s))
		s++;
	if (s != end)
		return GFXSTAT_PARSE_FAIL;
	*kb = (int64_t)v;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_ctx_pidof(const char *s, size_t n, int64_t *pid)
{
	const char *end = s + n;
	uint64_t v;

	while (s < end && is_space(*s))
		s++;
	if (scan_u63(&s, end, &v) || v < 1 || v > INT32_MAX || (s < end && !is_space(*s)))
		return GFXSTAT_PARSE_FAIL;
	*pid = (int64_t)v;
	return GFXSTAT_PARSE_OK;
}

enum gfxstat_parse_res gfxstat_atrace_category_line(const char *s, size_t n,
						    struct gfxstat_str *name)
{
	const char *end = s + n, *w;

	skip_blanks(&s, end);
	w = s;
	while (s < end && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || is_digit(*s) ||
			   *s == '_'))
		s++;
	/* "NAME - Description" */
	if (s == w || end - s < 3 || memcmp(s, " - ", 3))
		return GFXSTAT_PARSE_UNSUPPORTED;
	name->p = w;
	name->n = (size_t)(s - w);
	return GFXSTAT_PARSE_OK;
}
