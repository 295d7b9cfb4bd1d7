/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the Perfetto decoder on cases seen in recordings made elsewhere:
 * - a process named by the kernel's 15-character comm (ProcessTree falls back to it when
 *   /proc/<pid>/cmdline is empty). Android names an app's main thread after the last 15
 *   characters of its process name (frameworks/base core/jni/AndroidRuntime.cpp,
 *   AndroidRuntime::setArgv0): the app is the one listed package that ends with it;
 * - a refresh period SurfaceFlinger declares ("VSP-setPeriod"): FrameTimeline's frames carry
 *   it, as the markers' frames do, not the spacing of its predictions.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "pb_write.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_perfetto.h"

/* ProcessTree.Process { pid = 1, cmdline = 3 } (no uid: the name alone decides) */
static void process(struct pb *tree, int pid, const char *cmdline)
{
	struct pb pr = { { 0 }, 0 };

	pb_varint(&pr, 1 << 3);
	pb_varint(&pr, (uint64_t)pid);
	pb_bytes(&pr, 3, cmdline, strlen(cmdline));
	pb_bytes(tree, 1, pr.b, pr.n);
}

/* PackagesList.PackageInfo { name = 1 } */
static void package(struct pb *list, const char *name)
{
	struct pb pk = { { 0 }, 0 };

	pb_bytes(&pk, 1, name, strlen(name));
	pb_bytes(list, 1, pk.b, pk.n);
}

static int is(struct gfxstat_str s, const char *lit)
{
	return s.n == strlen(lit) && !memcmp(s.p, lit, s.n);
}

/*
 * Listed: com.android.systemui, com.facebook.katana, org.facebook.katana, com.example.app.
 *   100 "ndroid.systemui"  -> com.android.systemui (the one package ending with it)
 *   200 "facebook.katana"  -> none (two packages end with it: the name is truncated)
 *   300 "nknown.app.name"  -> none (no package ends with it)
 *   400 "com.example.app"  -> com.example.app (listed as is: a 15-character package)
 * Before: 100, 200 and 300 got their cut name as the app.
 */
TEST(cut_cmdline)
{
	struct pb t = { { 0 }, 0 }, tree = { { 0 }, 0 }, list = { { 0 }, 0 };
	struct pb pkt = { { 0 }, 0 };
	struct gfxstat_perfetto_sink sink;
	struct gfxstat_perfetto *p;

	memset(&sink, 0, sizeof(sink));
	process(&tree, 100, "ndroid.systemui");
	process(&tree, 200, "facebook.katana");
	process(&tree, 300, "nknown.app.name");
	process(&tree, 400, "com.example.app");
	pb_bytes(&pkt, 2, tree.b, tree.n);          /* TracePacket.process_tree = 2 */
	pb_bytes(&t, 1, pkt.b, pkt.n);
	package(&list, "com.android.systemui");
	package(&list, "com.facebook.katana");
	package(&list, "org.facebook.katana");
	package(&list, "com.example.app");
	pkt.n = 0;
	pb_bytes(&pkt, 47, list.b, list.n);         /* TracePacket.packages_list = 47 */
	pb_bytes(&t, 1, pkt.b, pkt.n);
	p = gfxstat_perfetto_new(&sink, NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_EQ(gfxstat_perfetto_feed(p, t.b, t.n), 0);
	CHECK_EQ(gfxstat_perfetto_finish(p), 0);
	CHECK(is(gfxstat_perfetto_app(p, 100), "com.android.systemui"));
	CHECK_EQ(gfxstat_perfetto_app(p, 200).n, 0);
	CHECK_EQ(gfxstat_perfetto_app(p, 300).n, 0);
	CHECK(is(gfxstat_perfetto_app(p, 400), "com.example.app"));
	gfxstat_perfetto_free(p);
}

/* TracePacket { timestamp = 8, frame_timeline_event = 76 { @member = @ev } } */
static void ft_packet(struct pb *t, uint64_t ts, uint32_t member, const struct pb *ev)
{
	struct pb fte = { { 0 }, 0 }, pkt = { { 0 }, 0 };

	pb_bytes(&fte, member, ev->b, ev->n);
	pb_u(&pkt, 8, ts);
	pb_bytes(&pkt, 76, fte.b, fte.n);
	pb_bytes(t, 1, pkt.b, pkt.n);
}

/* An expected display frame (member 1) [@es, @ee] and its actual (member 2) [@as, @ae], each
 * closed by a FrameEnd (member 5) of its cookie; token @tok, SurfaceFlinger pid 600 */
static void display_frame(struct pb *t, uint64_t cookie, int64_t tok, uint64_t es, uint64_t ee,
			  uint64_t as, uint64_t ae)
{
	struct pb ev = { { 0 }, 0 };
	int k;

	for (k = 0; k < 2; k++) {
		ev.n = 0;
		pb_u(&ev, 1, cookie + (uint64_t)k);
		pb_u(&ev, 2, (uint64_t)tok);
		pb_u(&ev, 3, 600);
		if (k)
			pb_u(&ev, 7, GFXSTAT_JANK_NONE);
		ft_packet(t, k ? as : es, k ? 2 : 1, &ev);
		ev.n = 0;
		pb_u(&ev, 1, cookie + (uint64_t)k);
		ft_packet(t, k ? ae : ee, 5, &ev);
	}
}

struct periods {
	int n;
	long long v[16];
};

static int keep_period(void *user, const struct gfxstat_frame *f)
{
	struct periods *o = user;

	if (o->n < 16)
		o->v[o->n] = f->vsync_period_ns;
	o->n++;
	return 0;
}

/*
 * Ten display frames whose expected presents (SurfaceFlinger's predictions) come every
 * 8183000 ns, and a print event "C|600|VSP-setPeriod|8333333" (pid 600, the declaration)
 * before them: every frame carries 8333333, the period the system declared, as
 * lib/produce/sf_frames.c gives the markers' frames. Before: 8183000 (the spacing).
 */
TEST(declared_period)
{
	struct pb t = { { 0 }, 0 }, ev = { { 0 }, 0 }, pr = { { 0 }, 0 }, b = { { 0 }, 0 };
	struct pb pkt = { { 0 }, 0 };
	struct gfxstat_perfetto_sink sink;
	struct periods o = { 0, { 0 } };
	struct gfxstat_perfetto *p;
	const uint64_t t0 = 5000000000ULL, iv = 8183000;
	int k, declared = 0;

	/* FtraceEventBundle { cpu = 1, event = 2 { timestamp = 1, pid = 2, print = 3 {
	 * buf = 2 } } } in TracePacket.ftrace_events = 1 */
	pb_bytes(&pr, 2, "C|600|VSP-setPeriod|8333333", 27);
	pb_u(&ev, 1, t0 - 1000000);
	pb_u(&ev, 2, 600);
	pb_bytes(&ev, 3, pr.b, pr.n);
	pb_u(&b, 1, 0);
	pb_bytes(&b, 2, ev.b, ev.n);
	pb_bytes(&pkt, 1, b.b, b.n);
	pb_bytes(&t, 1, pkt.b, pkt.n);
	for (k = 0; k < 10; k++) {
		uint64_t e = t0 + (uint64_t)k * iv;

		display_frame(&t, 100 + 2 * (uint64_t)k, 700 + k, e - 6000000, e, e - 5000000,
			      e + 100000);
	}
	memset(&sink, 0, sizeof(sink));
	sink.frame = keep_period;
	sink.user = &o;
	p = gfxstat_perfetto_new(&sink, NULL);
	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_EQ(gfxstat_perfetto_feed(p, t.b, t.n), 0);
	CHECK_EQ(gfxstat_perfetto_finish(p), 0);
	CHECK_EQ(o.n, 10);
	for (k = 0; k < o.n && k < 16; k++)
		declared += o.v[k] == 8333333;
	CHECK_EQ(declared, 10);
	gfxstat_perfetto_free(p);
}

TEST_SUITE(test_perfetto_recordings)
{
	RUN(cut_cmdline);
	RUN(declared_period);
}
