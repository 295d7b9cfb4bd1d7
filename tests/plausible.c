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
 */
#define _POSIX_C_SOURCE 200809L
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

int main(void)
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
