/* SPDX-License-Identifier: MIT */
/*
 * The invariants every frame gfxstat writes must satisfy, checked on `gfxstat frames` CSV
 * (standard input). Written apart from the library so that it checks the output, not the
 * code that made it. Prints one line per violation, then per layer "frames<TAB>layer", and
 * exits 1 if anything was violated.
 *
 * Per layer: presents strictly increase; the interval is the difference of consecutive
 * presents and never shorter than 3/4 of the vsync period in force (presents land on
 * vsyncs; app-side frames are rendered, not presented, and are exempt); present >= latch
 * where both are known; no counter that is not a surface is a layer; a layer whose name
 * names a package has its app; FPS over the layer's span is at most 1.02 x the highest
 * refresh rate in force. Across layers: frames presented at one instant share one refresh
 * period.
 *
 * The figures printed about apps and layers, by analyze and compare (tables and JSON, one
 * recording or several, and the gates' values):
 *   plausible --json FILE...   every FPS (fps, fps_*, *_fps, window_fps, a compare metric
 *                              named fps, a gate's value, a summary's mean/min/max) at most
 *                              1.02 x the highest refresh rate of the header, and every
 *                              median frame time (p50, p50_ms) above 0
 *   plausible --table [--hz HZ] FILE...  the same on the text tables: "at H Hz: FPS F",
 *                              "refresh up to H Hz", the fps and p50_ms rows, "frame ms  p50
 *                              X", inspect's "N frames  F fps over S s"; the limit is the
 *                              highest rate printed, or HZ if higher (a table prints each
 *                              layer's most common rate only)
 *   plausible --hz FILE...     the highest refresh rate of each JSON document's header
 *   plausible --frames FILE... "path<TAB>app<TAB>frames" per recording and app of an analyze
 *                              or compare JSON, to compare the counts of the two commands
 *   plausible --layer-fps FILE... "fps<TAB>layer" per layer of an analyze JSON (one decimal),
 *                              to compare with inspect's rate per layer
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 64
#define MAX_LAYERS 4096
#define LINE (1 << 16)

struct layer {
	char *name;
	long long frames;
	long long last_present, first_present;
	long long presented;      /* frames with a present */
	long long min_period;     /* the shortest vsync period in force over its frames */
	int have, app_side;
};

static struct layer layers[MAX_LAYERS];
static int nlayers;
static long long violations;

/* Split an RFC 4180 line in place; returns the number of fields. */
static int split(char *s, char **f)
{
	int n = 0;

	while (n < MAX_FIELDS) {
		char *w = s;

		f[n++] = s;
		if (*s == '"') {
			char *r = s + 1;

			f[n - 1] = w;
			for (;;) {
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"' || !*r) {
					if (*r)
						r++;
					break;
				} else {
					*w++ = *r++;
				}
			}
			s = r;
			*w = 0;
			if (*s != ',')
				break;
			s++;
			continue;
		}
		while (*s && *s != ',')
			s++;
		if (!*s)
			break;
		*s++ = 0;
	}
	return n;
}

static struct layer *layer_of(const char *name)
{
	int i;

	for (i = 0; i < nlayers; i++)
		if (strcmp(layers[i].name, name) == 0)
			return &layers[i];
	if (nlayers == MAX_LAYERS)
		return NULL;
	layers[nlayers].name = strdup(name);
	return &layers[nlayers++];
}

static void bad(long long line, const char *layer, const char *what)
{
	violations++;
	if (violations <= 20)
		printf("violation: line %lld, layer '%s': %s\n", line, layer, what);
}

/* Counters that SurfaceFlinger or apps write that are not surfaces. */
static int non_layer(const char *n)
{
	static const char *const exact[] = { "TransactionQueue", "TransactionReadiness", "iq",
					     "GPU completion", "VSYNC", NULL };
	static const char *const prefix[] = { "VSYNC-", "HW_VSYNC", "VSP-", "Heap size",
					      "QueuedBuffer - ", "aq:", "wq:", "oq:",
					      "FrameMissed", "PrevFrameMissed", "HwcFrameMissed",
					      "GpuFrameMissed", "PrevHwcFrameMissed",
					      "PrevGpuFrameMissed", "BufferTX - ", "TX - ", NULL };
	int i;

	for (i = 0; exact[i]; i++)
		if (strcmp(n, exact[i]) == 0)
			return 1;
	for (i = 0; prefix[i]; i++)
		if (strncmp(n, prefix[i], strlen(prefix[i])) == 0)
			return 1;
	return 0;
}

/* "com.a.b/..." (an activity) names a package: letters, digits, '_' and at least one dot. */
static int names_package(const char *n)
{
	const char *slash = strchr(n, '/'), *b;
	int dot = 0;

	if (!slash)
		return 0;
	/* a window manager's animation leash quotes its app's window but is not the app's */
	if (strstr(n, " - animation-leash of "))
		return 0;
	for (b = slash; b > n; b--) {
		char c = b[-1];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_'))
			break;
		dot |= c == '.';
	}
	return dot && b < slash && *b != '.' && slash - b > 2;
}

static int frames_csv(void)
{
	static char line[LINE];
	char *f[MAX_FIELDS];
	int col_source = -1, col_layer = -1, col_app = -1, col_present = -1, col_interval = -1;
	int col_latch = -1, col_period = -1;
	long long ln = 0, last_instant = INT64_MIN, instant_period = 0;
	int i;

	while (fgets(line, sizeof(line), stdin)) {
		size_t len = strlen(line);
		int n;

		ln++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		n = split(line, f);
		if (ln == 1) {
			for (i = 0; i < n; i++) {
				if (!strcmp(f[i], "source"))
					col_source = i;
				else if (!strcmp(f[i], "layer"))
					col_layer = i;
				else if (!strcmp(f[i], "app"))
					col_app = i;
				else if (!strcmp(f[i], "present_ns"))
					col_present = i;
				else if (!strcmp(f[i], "interval_ns"))
					col_interval = i;
				else if (!strcmp(f[i], "latch_ns"))
					col_latch = i;
				else if (!strcmp(f[i], "vsync_period_ns"))
					col_period = i;
			}
			if (col_layer < 0 || col_present < 0 || col_interval < 0 || col_period < 0) {
				printf("violation: not a gfxstat frames header\n");
				return 1;
			}
			continue;
		}
		if (n <= col_period) {
			bad(ln, "?", "short row");
			continue;
		}
		{
			const char *name = f[col_layer], *src = f[col_source];
			struct layer *l = layer_of(name);
			long long present = *f[col_present] ? atoll(f[col_present]) : INT64_MIN;
			long long iv = *f[col_interval] ? atoll(f[col_interval]) : INT64_MIN;
			long long period = *f[col_period] ? atoll(f[col_period]) : 0;
			long long latch = col_latch >= 0 && *f[col_latch] ? atoll(f[col_latch])
									  : INT64_MIN;
			int app_side = strcmp(src, "app") == 0;

			if (!l)
				return 2;
			l->frames++;
			if (non_layer(name))
				bad(ln, name, "a counter that is not a surface is a layer");
			if (names_package(name) && !*f[col_app])
				bad(ln, name, "the layer names a package but app is empty");
			if (present == INT64_MIN)
				continue;
			if (latch != INT64_MIN && latch > present)
				bad(ln, name, "latched after its present");
			if (l->have && present <= l->last_present)
				bad(ln, name, "present not after the layer's previous present");
			if (l->have && iv != present - l->last_present)
				bad(ln, name, "interval is not the difference of presents");
			if (!l->have && iv != INT64_MIN)
				bad(ln, name, "first frame has an interval");
			if (l->have && !app_side && period > 0 && iv * 4 < period * 3)
				bad(ln, name, "interval shorter than 3/4 of the vsync period");
			if (!app_side && period > 0) {
				if (present == last_instant && period != instant_period)
					bad(ln, name, "two refresh periods at one instant");
				last_instant = present;
				instant_period = period;
			}
			if (!l->have)
				l->first_present = present;
			if (period > 0 && (!l->min_period || period < l->min_period))
				l->min_period = period;
			l->app_side = app_side;
			l->presented++;
			l->have = 1;
			l->last_present = present;
		}
	}
	/* FPS over a layer's span never above the highest refresh rate in force (2 % slack for
	 * the clocks' jitter) */
	for (i = 0; i < nlayers; i++) {
		const struct layer *l = &layers[i];
		double span = (double)(l->last_present - l->first_present);

		if (l->presented > 2 && !l->app_side && l->min_period > 0 && span > 0 &&
		    (double)(l->presented - 1) / span > 1.02 / (double)l->min_period)
			bad(0, l->name, "FPS over its span above 1.02 x the refresh rate");
	}
	for (i = 0; i < nlayers; i++)
		printf("%lld\t%s\n", layers[i].frames, layers[i].name);
	if (violations)
		printf("violations: %lld\n", violations);
	return violations ? 1 : 0;
}

/* ---- JSON outputs: a small DOM, enough for gfxstat's documents ------------------------- */

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jt t;
	double num;
	char *str;           /* J_STR */
	char *key;           /* a member's key, or NULL */
	struct jv *kid;      /* J_ARR, J_OBJ */
	size_t n, cap;
};

static const char *jp;   /* the parser's position */

static void ws(void)
{
	while (*jp == ' ' || *jp == '\n' || *jp == '\r' || *jp == '\t')
		jp++;
}

static char *jstring(void)
{
	size_t cap = 32, n = 0;
	char *s = malloc(cap);

	if (!s || *jp != '"')
		return free(s), NULL;
	for (jp++; *jp && *jp != '"'; jp++) {
		char c = *jp;

		if (c == '\\' && jp[1]) {
			jp++;
			c = *jp == 'n' ? '\n' : *jp == 't' ? '\t' : *jp == 'u' ? '?' : *jp;
			if (*jp == 'u')
				jp += 4;
		}
		if (n + 2 > cap) {
			char *ns = realloc(s, cap *= 2);

			if (!ns)
				return free(s), NULL;
			s = ns;
		}
		s[n++] = c;
	}
	if (*jp != '"')
		return free(s), NULL;
	jp++;
	s[n] = 0;
	return s;
}

static int jvalue(struct jv *v);

static struct jv *jkid(struct jv *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 8;
		struct jv *nk = realloc(v->kid, cap * sizeof(*nk));

		if (!nk)
			return NULL;
		v->kid = nk;
		v->cap = cap;
	}
	memset(&v->kid[v->n], 0, sizeof(v->kid[0]));
	return &v->kid[v->n++];
}

static int jvalue(struct jv *v)
{
	char *end;

	ws();
	if (*jp == '{' || *jp == '[') {
		char close = *jp == '{' ? '}' : ']';

		v->t = *jp == '{' ? J_OBJ : J_ARR;
		jp++;
		ws();
		if (*jp == close) {
			jp++;
			return 0;
		}
		for (;;) {
			struct jv *k = jkid(v);

			if (!k)
				return -1;
			ws();
			if (v->t == J_OBJ) {
				if (!(k->key = jstring()))
					return -1;
				ws();
				if (*jp++ != ':')
					return -1;
			}
			if (jvalue(k))
				return -1;
			ws();
			if (*jp == ',') {
				jp++;
				continue;
			}
			if (*jp++ != close)
				return -1;
			return 0;
		}
	}
	if (*jp == '"') {
		v->t = J_STR;
		return (v->str = jstring()) ? 0 : -1;
	}
	if (!strncmp(jp, "null", 4) || !strncmp(jp, "true", 4) || !strncmp(jp, "false", 5)) {
		v->t = *jp == 'n' ? J_NULL : J_BOOL;
		v->num = *jp == 't';
		jp += *jp == 'f' ? 5 : 4;
		return 0;
	}
	v->t = J_NUM;
	v->num = strtod(jp, &end);
	if (end == jp)
		return -1;
	jp = end;
	return 0;
}

static void jfree(struct jv *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		jfree(&v->kid[i]);
	free(v->kid);
	free(v->str);
	free(v->key);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
	size_t i;

	for (i = 0; o && o->t == J_OBJ && i < o->n; i++)
		if (!strcmp(o->kid[i].key, key))
			return &o->kid[i];
	return NULL;
}

static const char *jstr(const struct jv *o, const char *key)
{
	const struct jv *v = jget(o, key);

	return v && v->t == J_STR ? v->str : NULL;
}

/* a whole file, NUL-terminated; NULL when it cannot be read */
static char *slurp(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t n = 0, cap = 1 << 16;
	char *b = malloc(cap);

	if (!f || !b)
		return free(b), NULL;
	for (;;) {
		size_t got;

		if (n + 1 >= cap) {
			char *nb = realloc(b, cap *= 2);

			if (!nb)
				return free(b), NULL;
			b = nb;
		}
		got = fread(b + n, 1, cap - n - 1, f);
		if (!got)
			break;
		n += got;
	}
	if (f != stdin)
		fclose(f);
	b[n] = 0;
	return b;
}

static const char *cur_file;
static double fps_limit;      /* 1.02 x the highest refresh rate, 0 when unknown */

static void bad_figure(const char *where, const char *what, double v)
{
	violations++;
	if (violations <= 20)
		printf("violation: %s: %s: %s %g\n", cur_file, where, what, v);
}

static int part;             /* inside a part of a recording: a scroll, a window */

/*
 * An FPS over a recording (or over its layer's or app's frames) is at most 1.02 x the highest
 * refresh rate; over a part of it (a scroll, a window of time) at most 4/3 x, as no interval
 * is under 3/4 of a vsync: frames whose times are not on vsyncs (gfxinfo) come closer
 * together over a second than over a recording.
 */
static void check_fps(const char *where, double v)
{
	double lim = part ? fps_limit / 1.02 * 4 / 3 : fps_limit;

	if (lim > 0 && v > lim)
		bad_figure(where, part ? "an FPS over a part above 4/3 x the highest refresh rate"
				       : "an FPS above 1.02 x the highest refresh rate", v);
}

/*
 * A median frame time: above 0, and when it is one of intervals between presents (@presents),
 * at least 3/4 of the shortest refresh period in force (as every interval is).
 */
static void check_p50(const char *where, double v, int presents)
{
	if (!(v > 0))
		bad_figure(where, "a median frame time that is not above 0", v);
	else if (presents && fps_limit > 0 && v < 0.75 * 1000.0 * 1.02 / fps_limit)
		bad_figure(where, "a median frame time under 3/4 of the shortest refresh period", v);
}

static int fps_key(const char *k)
{
	size_t n = strlen(k);

	return !strcmp(k, "fps") || !strncmp(k, "fps_", 4) || (n > 4 && !strcmp(k + n - 4, "_fps"));
}

/* every figure of one value, its key @key (or NULL), inside @where (an app's or layer's name) */
static void jcheck(const struct jv *v, const char *key, const char *where)
{
	const char *name = jstr(v, "name"), *metric = jstr(v, "metric");
	const char *here = jstr(v, "layer") ? jstr(v, "layer") : jstr(v, "app") ? jstr(v, "app")
			   : name && strcmp(name, "fps") && strcmp(name, "p50_ms") ? name : where;
	int was = part;
	size_t i;

	if (key && (!strcmp(key, "scrolls") || !strcmp(key, "jank_windows") ||
		    !strcmp(key, "window_fps") || !strcmp(key, "scroll_fps")))
		part = 1;
	if (v->t == J_OBJ && name && !strcmp(name, "scroll_fps"))
		part = 1;

	if (v->t == J_NUM && key && (fps_key(key) || !strcmp(key, "window_fps")))
		check_fps(where, v->num);
	/* frame_ms.p50 is the frames' own durations for a layer with no present times */
	if (v->t == J_NUM && key && (!strcmp(key, "p50") || !strcmp(key, "p50_ms")))
		check_p50(where, v->num, !strcmp(key, "p50_ms"));
	if (v->t == J_OBJ && key && fps_key(key)) {
		/* a summary over recordings: its mean, min and max are FPS too */
		static const char *const f[] = { "mean", "min", "max" };

		for (i = 0; i < 3; i++)
			if (jget(v, f[i]) && jget(v, f[i])->t == J_NUM)
				check_fps(where, jget(v, f[i])->num);
	}
	if (v->t == J_OBJ && key && !strcmp(key, "p50_ms"))
		for (i = 0; i < 2; i++) {
			const struct jv *x = jget(v, i ? "min" : "mean");

			if (x && x->t == J_NUM)
				check_p50(where, x->num, 1);
		}
	if (v->t == J_OBJ && name && (fps_key(name) || !strcmp(name, "p50_ms"))) {
		/* a compared metric: both sides' values */
		for (i = 0; i < 2; i++) {
			const struct jv *x = jget(v, i ? "new" : "base");

			if (!x || x->t != J_NUM)
				continue;
			if (fps_key(name))
				check_fps(where, x->num);
			else
				check_p50(where, x->num, 1);
		}
	}
	if (v->t == J_OBJ && metric && jget(v, "value") && jget(v, "value")->t == J_NUM) {
		/* a gate's value: NEW's */
		if (fps_key(metric))
			check_fps(jstr(v, "app") ? jstr(v, "app") : where, jget(v, "value")->num);
		else if (!strcmp(metric, "p50_ms"))
			check_p50(jstr(v, "app") ? jstr(v, "app") : where, jget(v, "value")->num,
				  1);
	}
	for (i = 0; i < v->n; i++)
		jcheck(&v->kid[i], v->t == J_OBJ ? v->kid[i].key : key, here);
	part = was;
}

/* the highest refresh rate of a document's header, 0 when it has none */
static double header_hz(const struct jv *doc)
{
	const struct jv *r = jget(jget(doc, "header"), "refresh");
	double hz = 0;
	size_t i;

	for (i = 0; r && r->t == J_ARR && i < r->n; i++) {
		const struct jv *h = jget(&r->kid[i], "hz");

		if (h && h->t == J_NUM && h->num > hz)
			hz = h->num;
	}
	return hz;
}

static int load(const char *path, struct jv *doc, char **text)
{
	memset(doc, 0, sizeof(*doc));
	cur_file = path;
	*text = slurp(path);
	if (!*text) {
		printf("violation: %s: cannot be read\n", path);
		return -1;
	}
	jp = *text;
	if (jvalue(doc)) {
		printf("violation: %s: not JSON (at byte %ld)\n", path, (long)(jp - *text));
		jfree(doc);
		free(*text);
		return -1;
	}
	return 0;
}

static int json_main(int n, char **files)
{
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		struct jv doc;
		char *text;

		if (load(files[i], &doc, &text)) {
			bad = 1;
			continue;
		}
		if (!jget(&doc, "header")) {
			/* every JSON output starts with the header (docs/output.md) */
			violations++;
			printf("violation: %s: no header\n", files[i]);
		}
		fps_limit = 1.02 * header_hz(&doc);
		if (fps_limit <= 0)
			printf("note: %s: no refresh rate in its header (frames without one): FPS "
			       "not bounded\n", files[i]);
		jcheck(&doc, NULL, "(document)");
		jfree(&doc);
		free(text);
	}
	if (violations)
		printf("violations: %lld\n", violations);
	return violations || bad ? 1 : 0;
}

/* "path<TAB>app<TAB>frames" of every app of @layers (an analyze layers array) */
static void frames_of_layers(const char *path, const struct jv *ls)
{
	size_t i;

	for (i = 0; ls && ls->t == J_ARR && i < ls->n; i++) {
		const struct jv *l = &ls->kid[i], *f = jget(l, "frames");
		const char *kind = jstr(l, "kind"), *app = jstr(l, "app");

		if (kind && !strcmp(kind, "app") && app && f && f->t == J_NUM)
			printf("%s\t%s\t%.0f\n", path, app, f->num);
	}
}

/* --layer-fps: "fps<TAB>layer" of each layer of an analyze JSON with an FPS, as inspect
 * prints its rate (one decimal) */
static int layer_fps_main(int n, char **files)
{
	int i, bad = 0;
	size_t k;

	for (i = 0; i < n; i++) {
		struct jv doc;
		const struct jv *ls;
		char *text;

		if (load(files[i], &doc, &text)) {
			bad = 1;
			continue;
		}
		for (k = 0, ls = jget(&doc, "layers"); ls && ls->t == J_ARR && k < ls->n; k++) {
			const struct jv *l = &ls->kid[k], *f = jget(l, "fps");
			const char *kind = jstr(l, "kind");

			if (kind && !strcmp(kind, "layer") && f && f->t == J_NUM && f->num > 0)
				printf("%.1f\t%s\n", f->num, jstr(l, "layer"));
		}
		jfree(&doc);
		free(text);
	}
	return bad;
}

static int frames_main(int n, char **files)
{
	int i, bad = 0;
	size_t a, r, k;

	for (i = 0; i < n; i++) {
		struct jv doc;
		const struct jv *x, *in;
		char *text;

		if (load(files[i], &doc, &text)) {
			bad = 1;
			continue;
		}
		in = jget(jget(&doc, "header"), "inputs");
		if ((x = jget(&doc, "layers")) && in && in->t == J_ARR && in->n)
			frames_of_layers(jstr(&in->kid[0], "path"), x);
		for (r = 0, x = jget(&doc, "recordings"); x && x->t == J_ARR && r < x->n; r++)
			frames_of_layers(jstr(&x->kid[r], "input"), jget(&x->kid[r], "layers"));
		for (a = 0, x = jget(&doc, "apps"); x && x->t == J_ARR && a < x->n; a++)
			for (k = 0; k < 2; k++) {
				const struct jv *rs = jget(&x->kid[a], k ? "new_recordings"
									 : "base_recordings");

				for (r = 0; rs && rs->t == J_ARR && r < rs->n; r++)
					printf("%s\t%s\t%.0f\n", jstr(&rs->kid[r], "path"),
					       jstr(&x->kid[a], "name"),
					       jget(&rs->kid[r], "frames")->num);
			}
		jfree(&doc);
		free(text);
	}
	return bad;
}

/* ---- text tables ---------------------------------------------------------------------- */

/* the numbers of @s (a "-" is NAN), at most @max, into @v; return how many */
static int numbers(const char *s, double *v, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;
		double x;

		if (*s == '-' && (s[1] == ' ' || !s[1]) && (s[-1] == ' ')) {
			v[n++] = NAN;
			s++;
			continue;
		}
		if ((*s >= '0' && *s <= '9') || ((*s == '-' || *s == '+') && s[1] >= '0' &&
						  s[1] <= '9')) {
			x = strtod(s, &end);
			v[n++] = x;
			s = end;
			continue;
		}
		s++;
	}
	return n;
}

/* --hz HZ: the highest refresh rate of the run (a JSON header's), as tables print only each
 * layer's most common one */
static double given_hz;

static int table_main(int n, char **files)
{
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		char *text = slurp(files[i]), *line, *save = NULL;
		double hz = given_hz;
		long long ln = 0, rates = 0;
		int is_compare;
		const char *p;

		cur_file = files[i];
		if (!text) {
			printf("violation: %s: cannot be read\n", files[i]);
			bad = 1;
			continue;
		}
		/* the highest refresh rate any line names: the limit for every FPS */
		for (p = text; (p = strstr(p, " Hz")); p++) {
			const char *b = p;

			while (b > text && ((b[-1] >= '0' && b[-1] <= '9') || b[-1] == '.'))
				b--;
			if (b < p && strtod(b, NULL) > hz)
				hz = strtod(b, NULL);
		}
		fps_limit = 1.02 * hz;
		/* a compare table says its refresh rate, or that no frame carries one */
		is_compare = strstr(text, "\n95 % interval: ") && !strstr(text, "; refresh unknown");
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			double v[8];
			char where[64];
			int k, m;

			ln++;
			snprintf(where, sizeof(where), "line %lld", ln);
			if ((p = strstr(line, " Hz: FPS ")))
				check_fps(where, strtod(p + 9, NULL));
			/* inspect: "   N frames   F fps over S s  layer" */
			if ((p = strstr(line, " fps over ")) && strstr(line, " frames ")) {
				const char *b = p;

				while (b > line && b[-1] != ' ')
					b--;
				check_fps(where, strtod(b, NULL));
			}
			if ((p = strstr(line, "frame ms  p50 ")))
				check_p50(where, strtod(p + 14, NULL), 1);
			/* --all: "FPS a (active)  w (wall)  median m  low 1% l  p95 x ms" */
			if (!strncmp(line, "  FPS ", 6) && (m = numbers(line + 5, v, 3)) == 3)
				for (k = 0; k < 3; k++)
					check_fps(where, v[k]);
			if (!strncmp(line, "  fps ", 6) || !strncmp(line, "  scroll_fps ", 13) ||
			    !strncmp(line, "  p50_ms ", 9)) {
				int fps = line[2] != 'p';

				m = numbers(strchr(line + 2, ' '), v, 8);
				rates += fps && m && !isnan(v[0]);
				/* a summary: mean +- sd (min .. max); compare: base new diff [CI] */
				if (strstr(line, "+-")) {
					int idx[3] = { 0, 2, 3 };

					for (k = 0; k < 3 && k < m; k++)
						if (!isnan(v[idx[k]]) && idx[k] < m)
							fps ? check_fps(where, v[idx[k]])
							    : check_p50(where, v[idx[k]], 1);
				} else {
					for (k = 0; k < 2 && k < m; k++)
						if (!isnan(v[k]))
							fps ? check_fps(where, v[k])
							    : check_p50(where, v[k], 1);
				}
			}
		}
		if (fps_limit <= 0 && is_compare && rates) {
			/* compare's table says, per app, the refresh rate its FPS are bounded by */
			violations++;
			printf("violation: %s: a compare table with no refresh rate\n", files[i]);
		} else if (fps_limit <= 0) {
			printf("note: %s: no refresh rate printed: FPS not bounded\n", files[i]);
		}
		free(text);
	}
	if (violations)
		printf("violations: %lld\n", violations);
	return violations || bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--json"))
		return json_main(argc - 2, argv + 2);
	if (argc > 3 && !strcmp(argv[1], "--table") && !strcmp(argv[2], "--hz")) {
		given_hz = strtod(argv[3], NULL);
		return table_main(argc - 4, argv + 4);
	}
	if (argc > 1 && !strcmp(argv[1], "--table"))
		return table_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--hz")) {
		/* the highest refresh rate of each JSON document's header, for --table --hz */
		int i, bad = 0;

		for (i = 2; i < argc; i++) {
			struct jv doc;
			char *text;

			if (load(argv[i], &doc, &text)) {
				bad = 1;
				continue;
			}
			printf("%.3f\n", header_hz(&doc));
			jfree(&doc);
			free(text);
		}
		return bad;
	}
	if (argc > 1 && !strcmp(argv[1], "--frames"))
		return frames_main(argc - 2, argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--layer-fps"))
		return layer_fps_main(argc - 2, argv + 2);
	if (argc > 1) {
		fprintf(stderr, "usage: plausible [--json|--table [--hz HZ]|--frames|--layer-fps|"
			"--hz FILE...] < frames.csv\n");
		return 2;
	}
	return frames_csv();
}
