/* SPDX-License-Identifier: MIT */
/*
 * Unit tests: the app of a process named by the kernel's 15-character comm. Android names an
 * app's main thread after the last 15 characters of its process name (frameworks/base
 * core/jni/AndroidRuntime.cpp, AndroidRuntime::setArgv0), so "com.android.systemui" shows as
 * "ndroid.systemui": the app is the one package named elsewhere in the recording that ends
 * with it; with none or several, no app (never the cut name).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_model.h"

struct apps {
	int n;
	char layer[16][64], app[16][64];
};

static int keep(void *user, const struct gfxstat_frame *f)
{
	struct apps *a = user;

	if (a->n < 16) {
		snprintf(a->layer[a->n], sizeof(a->layer[0]), "%.*s", (int)f->layer.n, f->layer.p);
		snprintf(a->app[a->n], sizeof(a->app[0]), "%.*s", (int)f->app.n, f->app.p);
	}
	a->n++;
	return 0;
}

static void proc(struct gfxstat_model *m, int32_t pid, const char *name)
{
	struct gfxstat_str s = { name, strlen(name) };

	CHECK_EQ(gfxstat_model_process(m, pid, s), 0);
}

static void frame(struct gfxstat_model *m, const char *layer, int32_t pid, int64_t present)
{
	struct gfxstat_frame f;

	gfxstat_frame_init(&f, GFXSTAT_SRC_FTRACE);
	f.layer.p = layer;
	f.layer.n = strlen(layer);
	f.pid = pid;
	f.present_ns = present;
	f.vsync_period_ns = 16666667;
	CHECK_EQ(gfxstat_model_frame(m, &f), 0);
}

static const char *app_of(const struct apps *a, const char *layer)
{
	int i;

	for (i = 0; i < a->n && i < 16; i++)
		if (!strcmp(a->layer[i], layer))
			return a->app[i];
	return "(no frame)";
}

/*
 * Processes 100 "ndroid.systemui" (cut) and 101 "com.android.systemui:screenshot" (whole):
 *   StatusBar#0 of 100 -> com.android.systemui (the one package ending with the comm)
 * Process 200 "facebook.katana", the layer com.facebook.katana/...#12 shown first:
 *   SurfaceView#5 of 200 -> com.facebook.katana
 * Process 300 "ple.mail.client", processes com.apple.mail.client and
 * org.purple.mail.client (both end with it):
 *   Window#9 of 300 -> no app (the name is truncated, two packages fit)
 * Process 400 "com.example.app" (a package of exactly 15 characters), its layer shown first:
 *   Popup#4 of 400 -> com.example.app
 * Process 500 "nknown.app.name", nothing else names a package ending so:
 *   Toast#7 of 500 -> no app
 * Before the rule every cut name was taken as the package ("ndroid.systemui", ...). The two
 * frames left without an app (Window#9, Toast#7) are counted as truncated names, and said.
 */
TEST(cut_process_names)
{
	struct apps a;
	struct gfxstat_model *m;

	memset(&a, 0, sizeof(a));
	m = gfxstat_model_new(keep, &a);
	CHECK(m != NULL);
	if (!m)
		return;
	gfxstat_model_input_begin(m, 0, "ftrace-text");
	proc(m, 100, "ndroid.systemui");
	proc(m, 101, "com.android.systemui:screenshot");
	proc(m, 200, "facebook.katana");
	proc(m, 300, "ple.mail.client");
	proc(m, 301, "com.apple.mail.client");
	proc(m, 302, "org.purple.mail.client");
	proc(m, 400, "com.example.app");
	proc(m, 500, "nknown.app.name");
	frame(m, "com.facebook.katana/com.facebook.katana.LoginActivity#12", -1, 1000000000);
	frame(m, "com.example.app/com.example.app.Main#3", -1, 1000000000);
	frame(m, "StatusBar#0", 100, 1016666667);
	frame(m, "SurfaceView#5", 200, 1016666667);
	frame(m, "Window#9", 300, 1016666667);
	frame(m, "Popup#4", 400, 1016666667);
	frame(m, "Toast#7", 500, 1016666667);
	CHECK_EQ(gfxstat_model_input_end(m), 0);
	CHECK_EQ(a.n, 7);
	CHECK_CSTR(app_of(&a, "StatusBar#0"), "com.android.systemui");
	CHECK_CSTR(app_of(&a, "SurfaceView#5"), "com.facebook.katana");
	CHECK_CSTR(app_of(&a, "Window#9"), "");
	CHECK_CSTR(app_of(&a, "Popup#4"), "com.example.app");
	CHECK_CSTR(app_of(&a, "Toast#7"), "");
	CHECK_EQ(gfxstat_model_stats(m)->v[GFXSTAT_MODEL_truncated_names], 2);
	gfxstat_model_free(m);
}

TEST_SUITE(test_model_comm)
{
	RUN(cut_process_names);
}
