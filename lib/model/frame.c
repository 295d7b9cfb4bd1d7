/* SPDX-License-Identifier: MIT */
/* The per-frame record shared by every source. */
#include "../gx_local.h"

void gfxstat_frame_init(struct gfxstat_frame *f, enum gfxstat_frame_source source)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->source = source;
	f->layer.p = f->app.p = "";
	f->pid = -1;
	f->present_ns = GFXSTAT_NS_NONE;
	f->interval_ns = GFXSTAT_NS_NONE;
	f->vsync_period_ns = GFXSTAT_NS_NONE;
	f->latch_ns = GFXSTAT_NS_NONE;
	f->desired_present_ns = GFXSTAT_NS_NONE;
	f->expected_start_ns = GFXSTAT_NS_NONE;
	f->expected_end_ns = GFXSTAT_NS_NONE;
	f->actual_start_ns = GFXSTAT_NS_NONE;
	f->actual_end_ns = GFXSTAT_NS_NONE;
	f->duration_ns = GFXSTAT_NS_NONE;
	f->token = -1;
	f->display_token = -1;
	f->jank_type = -1;
	f->present_type = -1;
	f->prediction_type = -1;
	f->janky = -1;
	f->input = -1;
	for (i = 0; i < GFXSTAT_FI_COUNT; i++)
		f->fi[i] = GFXSTAT_NS_NONE;
	for (i = 0; i < GFXSTAT_LEGACY_COUNT; i++)
		f->legacy_ns[i] = GFXSTAT_NS_NONE;
}

const char *gfxstat_frame_source_name(enum gfxstat_frame_source source)
{
	switch (source) {
	case GFXSTAT_SRC_FTRACE:
		return "ftrace";
	case GFXSTAT_SRC_FRAMETIMELINE:
		return "frametimeline";
	case GFXSTAT_SRC_FRAMETIMELINE_DISPLAY:
		return "frametimeline_display";
	case GFXSTAT_SRC_SF_LATENCY:
		return "sf-latency"; /* the format's own name: one spelling */
	case GFXSTAT_SRC_GFXINFO:
		return "gfxinfo";
	case GFXSTAT_SRC_APP:
		return "app";
	case GFXSTAT_SRC_FTRACE_DISPLAY:
		return "ftrace_display";
	}
	return "?";
}

#define GX_FI_NAME(id, name) name,
static const char *const fi_names[] = { GFXSTAT_FRAMEINFO(GX_FI_NAME) };
#undef GX_FI_NAME

const char *gfxstat_frameinfo_name(enum gfxstat_frameinfo i)
{
	return (unsigned)i < GFXSTAT_FI_COUNT ? fi_names[i] : "?";
}
