/* SPDX-License-Identifier: MIT */
/*
 * perfetto_sim: write a Perfetto trace of one app drawing every frame at 120 Hz for SECONDS,
 * with what a capture with the "gfx" and "view" atrace categories holds for each frame: the
 * app's sections as ftrace print events (Choreographer#doFrame <vsync id> on its main thread,
 * with input, animation and traversal inside, then DrawFrames <vsync id> and queueBuffer on its
 * RenderThread) and SurfaceFlinger's FrameTimeline (expected and actual surface and display
 * frames, each closed by a FrameEnd). For make bench: the real samples are either
 * frame-dense without the app's sections (nowinandroid) or sections with few frames (api32),
 * and it is the two together that make the causes keep every frame's work to the end.
 *   perfetto_sim SECONDS OUT
 * prints one line of "key=value" pairs: vsyncs (display frames), frames (the app's), janky,
 * bytes, packets.
 *
 * SurfaceFlinger composes a display frame at every vsync, presented two vsyncs later; the
 * app's frame of that vsync goes out in it. Every 40th frame the app misses its deadline: its
 * doFrame takes two and a half periods, FrameTimeline says App Deadline Missed (jank_type
 * 0x40, JANK_APP_DEADLINE_MISSED in frame_timeline_event.proto) and it is presented two
 * vsyncs late, in the display frame of the vsync two after its own; the app draws nothing on
 * the two vsyncs its main thread was busy. Field numbers: google/perfetto's
 * trace_packet.proto (ftrace_events = 1, timestamp = 8, frame_timeline_event = 76,
 * process_tree = 2), ftrace_event_bundle.proto (cpu = 1, event = 2), ftrace_event.proto
 * (timestamp = 1, pid = 2, print = 3; PrintFtraceEvent.buf = 2), frame_timeline_event.proto
 * (expected_display_frame_start = 1, actual_display_frame_start = 2,
 * expected_surface_frame_start = 3, actual_surface_frame_start = 4, frame_end = 5), as
 * docs/perfetto.md lists them.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERIOD 8333333LL /* 120 Hz */
#define T0 1000000000000LL
#define APP_PID 5000
#define RT_TID 5020
#define SF_PID 600
#define LAYER "com.example.sim/com.example.sim.MainActivity#0"

static void die(const char *msg)
{
	fprintf(stderr, "perfetto_sim: error: %s\n", msg);
	exit(1);
}

#include "pb_out.h"

static void msg(struct out *o, uint32_t field, const struct out *m)
{
	put_len_field(o, field, m->p, m->n);
}

static struct out out, pkt, ev, sub, fte;
static uint64_t packets, cookie = 1;

static void packet(const struct out *p)
{
	msg(&out, 1, p);
	packets++;
}

/* one FrameTimeline event @member of @ev at @ts */
static void ft(int64_t ts, uint32_t member, const struct out *e)
{
	fte.n = 0;
	msg(&fte, member, e);
	pkt.n = 0;
	put_varint_field(&pkt, 8, (uint64_t)ts);
	msg(&pkt, 76, &fte);
	packet(&pkt);
}

static void ft_end(int64_t ts, uint64_t c)
{
	ev.n = 0;
	put_varint_field(&ev, 1, c);
	ft(ts, 5, &ev);
}

/* the bundle of one CPU being filled: print events of the app */
static struct out bundle;

static void print(int64_t ts, int tid, const char *buf)
{
	sub.n = 0;
	put_len_field(&sub, 2, buf, strlen(buf));
	ev.n = 0;
	put_varint_field(&ev, 1, (uint64_t)ts);
	put_varint_field(&ev, 2, (uint64_t)tid);
	msg(&ev, 3, &sub);
	msg(&bundle, 2, &ev);
}

static void flush_bundle(int cpu)
{
	struct out b = { NULL, 0, 0 };

	put_varint_field(&b, 1, (uint64_t)cpu);
	put_bytes(&b, bundle.p, bundle.n);
	pkt.n = 0;
	msg(&pkt, 1, &b);
	packet(&pkt);
	free(b.p);
	bundle.n = 0;
}

int main(int argc, char **argv)
{
	char line[128];
	double secs;
	long k, vsyncs, frames = 0, janky = 0, busy = 0;
	FILE *f;

	if (argc != 3 || (secs = atof(argv[1])) <= 0) {
		fprintf(stderr, "usage: perfetto_sim SECONDS OUT\n");
		return 2;
	}
	vsyncs = (long)(secs * 1e9 / (double)PERIOD);
	for (k = 0; k < vsyncs; k++) {
		int64_t vs = T0 + k * PERIOD;  /* the vsync the app's frame starts on */
		int late = frames % 40 == 39;
		int64_t work = late ? 5 * PERIOD / 2 : PERIOD / 2; /* the doFrame's length */
		int64_t present = vs + 2 * PERIOD; /* of this vsync's display frame */
		int64_t token = 100000 + 2 * k, dtoken = 100001 + 2 * (k + (late ? 2 : 0));
		int64_t draw = vs + 200000 + work, done = draw + 2000000;

		/* SurfaceFlinger's display frame of this vsync */
		ev.n = 0;
		put_varint_field(&ev, 1, cookie);
		put_varint_field(&ev, 2, (uint64_t)(100001 + 2 * k));
		put_varint_field(&ev, 3, SF_PID);
		ft(present - PERIOD, 1, &ev);
		ft_end(present, cookie);
		ev.n = 0;
		put_varint_field(&ev, 1, cookie + 1);
		put_varint_field(&ev, 2, (uint64_t)(100001 + 2 * k));
		put_varint_field(&ev, 3, SF_PID);
		/* present_type ON_TIME: SurfaceFlinger was in time */
		put_varint_field(&ev, 4, 1);
		put_varint_field(&ev, 7, 1);  /* jank_type NONE */
		ft(present - PERIOD + 500000, 2, &ev);
		ft_end(present + 100000, cookie + 1);
		cookie += 2;
		if (busy) { /* the main thread is still in a late doFrame */
			busy--;
			continue;
		}
		frames++;
		janky += late;
		busy = late ? 2 : 0;
		/* the app's sections, on its main thread then its RenderThread */
		snprintf(line, sizeof(line), "B|%d|Choreographer#doFrame %" PRId64, APP_PID, token);
		print(vs + 200000, APP_PID, line);
		snprintf(line, sizeof(line), "B|%d|input", APP_PID);
		print(vs + 250000, APP_PID, line);
		snprintf(line, sizeof(line), "E|%d", APP_PID);
		print(vs + 400000, APP_PID, line);
		snprintf(line, sizeof(line), "B|%d|animation", APP_PID);
		print(vs + 420000, APP_PID, line);
		print(vs + 900000, APP_PID, "E|5000");
		snprintf(line, sizeof(line), "B|%d|traversal", APP_PID);
		print(vs + 920000, APP_PID, line);
		print(vs + 200000 + work - 50000, APP_PID, "E|5000");
		print(vs + 200000 + work, APP_PID, "E|5000");
		flush_bundle((int)(k % 4));
		snprintf(line, sizeof(line), "B|%d|DrawFrames %" PRId64, APP_PID, token);
		print(draw, RT_TID, line);
		snprintf(line, sizeof(line), "B|%d|queueBuffer", APP_PID);
		print(done - 300000, RT_TID, line);
		print(done - 100000, RT_TID, "E|5000");
		print(done, RT_TID, "E|5000");
		flush_bundle((int)((k + 2) % 4));
		/* FrameTimeline: the surface frame (expected, actual) and its display frame */
		ev.n = 0;
		put_varint_field(&ev, 1, cookie);
		put_varint_field(&ev, 2, (uint64_t)token);
		put_varint_field(&ev, 3, (uint64_t)dtoken);
		put_varint_field(&ev, 4, APP_PID);
		put_len_field(&ev, 5, LAYER, strlen(LAYER));
		ft(vs, 3, &ev);
		ft_end(vs + 2 * PERIOD - 2000000, cookie);
		ev.n = 0;
		put_varint_field(&ev, 1, cookie + 1);
		put_varint_field(&ev, 2, (uint64_t)token);
		put_varint_field(&ev, 3, (uint64_t)dtoken);
		put_varint_field(&ev, 4, APP_PID);
		put_len_field(&ev, 5, LAYER, strlen(LAYER));
		put_varint_field(&ev, 6, late ? 2 : 1);  /* present_type: LATE or ON_TIME */
		put_varint_field(&ev, 9, late ? 0x40 : 1);  /* jank_type: APP_DEADLINE_MISSED or NONE */
		ft(vs + 200000, 4, &ev);
		ft_end(done, cookie + 1);
		cookie += 2;
	}
	/* ProcessTree { processes = 1 { pid = 1, ppid = 2, cmdline = 3 } } */
	ev.n = 0;
	put_varint_field(&ev, 1, APP_PID);
	put_varint_field(&ev, 2, 1);
	put_len_field(&ev, 3, "com.example.sim", 15);
	sub.n = 0;
	msg(&sub, 1, &ev);
	pkt.n = 0;
	msg(&pkt, 2, &sub);
	packet(&pkt);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out.p, 1, out.n, f) != out.n || fclose(f)) {
		fprintf(stderr, "perfetto_sim: cannot write %s\n", argv[2]);
		return 1;
	}
	printf("vsyncs=%ld frames=%ld janky=%ld bytes=%zu packets=%" PRIu64 "\n", vsyncs, frames,
	       janky, out.n, packets);
	return 0;
}
