/* SPDX-License-Identifier: MIT */
/*
 * The names of the model's codes, for every stage that prints or reads them: FrameTimeline's
 * jank, present and prediction types (trace_processor's strings, so a gfxstat table reads like
 * Perfetto UI), and hwui JankTracker's reasons. The codes are the model's; the parsers that
 * set them and the reports that print them both use these names.
 */
#include "../gx_local.h"
#include "gfxstat/gfxstat_gfxinfo.h"
#include "gfxstat/gfxstat_perfetto.h"

static const struct {
	int32_t bit;
	const char *name;
} jank_names[] = {
	/* trace_processor's JankTypeBitmaskToStringId order (FORMATS.md 6.3) */
	{ GFXSTAT_JANK_SF_SCHEDULING, "SurfaceFlinger Scheduling" },
	{ GFXSTAT_JANK_PREDICTION_ERROR, "Prediction Error" },
	{ GFXSTAT_JANK_DISPLAY_HAL, "Display HAL" },
	{ GFXSTAT_JANK_SF_CPU_DEADLINE_MISSED, "SurfaceFlinger CPU Deadline Missed" },
	{ GFXSTAT_JANK_SF_GPU_DEADLINE_MISSED, "SurfaceFlinger GPU Deadline Missed" },
	{ GFXSTAT_JANK_APP_DEADLINE_MISSED, "App Deadline Missed" },
	{ GFXSTAT_JANK_APP_RESYNCED_JITTER, "App Resynced Jitter" },
	{ GFXSTAT_JANK_BUFFER_STUFFING, "Buffer Stuffing" },
	{ GFXSTAT_JANK_UNKNOWN, "Unknown Jank" },
	{ GFXSTAT_JANK_SF_STUFFING, "SurfaceFlinger Stuffing" },
	{ GFXSTAT_JANK_DROPPED, "Dropped Frame" },
	{ GFXSTAT_JANK_NON_ANIMATING, "Non Animating" },
	{ GFXSTAT_JANK_DISPLAY_NOT_ON, "Display not ON" },
	{ GFXSTAT_JANK_DISPLAY_MODE_CHANGE, "ModeChange in progress" },
	{ GFXSTAT_JANK_DISPLAY_POWER_MODE_CHANGE, "PowerModeChange in progress" },
};

size_t gfxstat_perfetto_jank_type_str(int32_t jank_type, char *buf, size_t cap)
{
	size_t len = 0, i, k;
	const char *s;

	if (cap)
		buf[0] = 0;
	if (jank_type < 0)
		return 0;
	if (jank_type == GFXSTAT_JANK_UNSPECIFIED || jank_type == GFXSTAT_JANK_NONE) {
		s = jank_type ? "None" : "Unspecified";
		len = strlen(s);
		if (len < cap)
			memcpy(buf, s, len + 1);
		return len;
	}
	for (i = 0; i < sizeof(jank_names) / sizeof(jank_names[0]); i++) {
		if (!(jank_type & jank_names[i].bit))
			continue;
		for (k = 0; k < 2; k++) {
			if (k == 0 && len == 0)
				continue;
			s = k ? jank_names[i].name : ", ";
			if (len + strlen(s) < cap)
				memcpy(buf + len, s, strlen(s) + 1);
			len += strlen(s);
		}
	}
	if (len >= cap && cap)
		buf[0] = 0;
	return len;
}

const char *gfxstat_perfetto_present_type_name(int32_t present_type)
{
	static const char *const names[] = { "Unspecified Present", "On-time Present",
					     "Late Present", "Early Present", "Dropped Frame",
					     "Unknown Present" };

	return present_type >= 1 && present_type <= 5 ? names[present_type] : names[0];
}

const char *gfxstat_perfetto_prediction_type_name(int32_t prediction_type)
{
	static const char *const names[] = { "Unspecified Prediction", "Valid Prediction",
					     "Expired Prediction", "Unknown Prediction" };

	return prediction_type >= 1 && prediction_type <= 3 ? names[prediction_type] : names[0];
}

/* hwui JankTracker's reasons, in JankType order (frameworks/base libs/hwui/JankTracker.cpp) */
static const char *const reason_names[GFXSTAT_JANK_COUNT] = {
	"Missed Vsync",        "High input latency",       "Slow UI thread",
	"Slow bitmap uploads", "Slow issue draw commands", "Frame deadline missed",
	"Frame deadline missed (legacy)",
};

const char *gfxstat_jank_type_name(enum gfxstat_jank_type t)
{
	return (unsigned)t < GFXSTAT_JANK_COUNT ? reason_names[t] : "?";
}

unsigned gfxstat_jank_reason_count(uint32_t reasons, enum gfxstat_jank_type t)
{
	if ((unsigned)t >= GFXSTAT_JANK_COUNT || !(reasons & (1u << t)))
		return 0;
	return t == GFXSTAT_JANK_HIGH_INPUT_LATENCY && (reasons & GFXSTAT_JANK_REASON_TWICE) ? 2 : 1;
}

/* The same names through the model's own API, for a program that reads frames from any
 * source. */
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

/*
 * The jank bits that make a FrameTimeline frame janky, trace_processor's rule (google/perfetto
 * src/trace_processor/importers/proto/frame_timeline_event_parser.cc, its janky-classification
 * functions; FORMATS.md 6.3): a surface frame by App Deadline Missed, App Resynced Jitter or
 * Unknown Jank; a display frame by SurfaceFlinger Scheduling, Prediction Error, Display HAL or
 * a SurfaceFlinger CPU/GPU deadline, unless its type is only Non Animating or Display not ON.
 * Buffer Stuffing alone is no jank. One rule for the verdict (perfetto_pb.c) and for the
 * cause a janky frame is labelled with (jank_cause.c). Return: those bits, 0 when not janky.
 */
int32_t gx_ft_janky_bits(int display, int32_t jank_type)
{
	if (jank_type == GFXSTAT_JANK_UNSPECIFIED || jank_type == GFXSTAT_JANK_NONE || jank_type < 0)
		return 0;
	if (!display)
		return jank_type & (GFXSTAT_JANK_APP_DEADLINE_MISSED |
				    GFXSTAT_JANK_APP_RESYNCED_JITTER | GFXSTAT_JANK_UNKNOWN);
	if (jank_type == GFXSTAT_JANK_NON_ANIMATING || jank_type == GFXSTAT_JANK_DISPLAY_NOT_ON)
		return 0;
	return jank_type & (GFXSTAT_JANK_SF_SCHEDULING | GFXSTAT_JANK_PREDICTION_ERROR |
			    GFXSTAT_JANK_DISPLAY_HAL | GFXSTAT_JANK_SF_CPU_DEADLINE_MISSED |
			    GFXSTAT_JANK_SF_GPU_DEADLINE_MISSED);
}
