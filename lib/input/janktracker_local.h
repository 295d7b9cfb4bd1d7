/* SPDX-License-Identifier: MIT */
/* hwui JankTracker, per Android release (FORMATS.md section 5). Library-internal. */
#ifndef JANKTRACKER_LOCAL_H
#define JANKTRACKER_LOCAL_H

#include "../gx_local.h"
#include "gfxstat/gfxstat_gfxinfo.h"

struct gx_jank_tracker {
	enum gfxstat_gfxinfo_rules rules;
	int64_t interval;        /* pre-12 frame interval, 12+ legacy interval; 0 = per row */
	int64_t forgiveness;     /* dequeue-time forgiveness; 0 = none */
	int64_t swap_deadline;   /* 8-11 mSwapDeadline */
	int64_t swap_deadline_legacy; /* 12+ mSwapDeadlineLegacy */
	int64_t next_unstuffed;  /* 12+ mNextFrameStartUnstuffed */
	struct gfxstat_profile *data;
};

/*
 * gx_jank_tracker_init() - a fresh tracker (as after `dumpsys gfxinfo reset`) writing @data
 * @data is re-initialised: zero counts for the fields the release has, -1 for the others.
 */
GFXSTAT_HIDDEN void gx_jank_tracker_init(struct gx_jank_tracker *t,
					 enum gfxstat_gfxinfo_rules rules, int64_t interval,
					 int64_t forgiveness, struct gfxstat_profile *data);

/*
 * gx_frame_incomplete() - a ring slot that never finished: FrameCompleted <= 0 or more than
 * an hour after IntendedVsync (garbage such as 288234774265332736 in real dumps)
 */
GFXSTAT_HIDDEN int gx_frame_incomplete(const int64_t fi[GFXSTAT_FI_COUNT]);

/*
 * gx_frame_total_duration() - hwui's FrameInfo::totalDuration(): FrameCompleted -
 * IntendedVsync less the SyncQueued..SyncStart stall, 0 when negative
 */
GFXSTAT_HIDDEN int64_t gx_frame_total_duration(const int64_t fi[GFXSTAT_FI_COUNT]);

/*
 * gx_jank_tracker_frame() - feed one frame (FrameInfo by meaning; GFXSTAT_NS_NONE = absent)
 * @reasons: set to the jank types reported for this frame (bit i = type i)
 * Return: 1 janky ("Janky frames"), 0 not, -1 not counted (incomplete, or no duration).
 */
GFXSTAT_HIDDEN int gx_jank_tracker_frame(struct gx_jank_tracker *t,
					 const int64_t fi[GFXSTAT_FI_COUNT], uint32_t *reasons);

/* gx_jank_tracker_done() - fill the percentiles from the histograms */
GFXSTAT_HIDDEN void gx_jank_tracker_done(struct gx_jank_tracker *t);

#endif
