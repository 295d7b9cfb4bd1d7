/* SPDX-License-Identifier: MIT */
/* The per-frame record shared by every source. */
#include "../gx_local.h"
#include "gfxstat/gfxstat_gfxinfo.h"
#include "gfxstat/gfxstat_perfetto.h"

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

size_t gfxstat_frame_jank_type_str(int32_t jank_type, char *buf, size_t cap)
{
	return gfxstat_perfetto_jank_type_str(jank_type, buf, cap);
}

const char *gfxstat_frame_present_type_name(int32_t present_type)
{
	return gfxstat_perfetto_present_type_name(present_type);
}

const char *gfxstat_frame_reason_name(unsigned bit)
{
	return bit < GFXSTAT_GFXINFO_REASONS ? gfxstat_jank_type_name((enum gfxstat_jank_type)bit)
					     : "?";
}

int gx_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

struct gfxstat_str gx_process_package(const char *name)
{
	struct gfxstat_str s = { name, 0 };
	size_t n = strcspn(name, ": ");
	int dot = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || gx_isdigit(c) ||
		      c == '_' || c == '.'))
			return s;
		dot |= c == '.';
	}
	if (dot && n && name[0] != '.' && name[n - 1] != '.')
		s.n = n;
	return s;
}
