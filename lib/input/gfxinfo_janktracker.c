/* SPDX-License-Identifier: MIT */
/*
 * hwui's JankTracker and ProfileData, release by release (FORMATS.md section 5), so that
 * PROFILEDATA rows give the numbers `dumpsys gfxinfo` prints. Arithmetic on input values
 * wraps (as the int64 code it copies does in practice) instead of overflowing.
 */
#include "janktracker_local.h"

#define MS (1000000LL)
#define IGNORE_EXCEEDING (10LL * GFXSTAT_NSEC_PER_SEC)
#define INCOMPLETE_AFTER (3600LL * GFXSTAT_NSEC_PER_SEC)

/* FrameInfoFlags */
#define FLAG_WINDOW_LAYOUT_CHANGED 1
#define FLAG_SURFACE_CANVAS 4


const char *gfxstat_gfxinfo_rules_name(enum gfxstat_gfxinfo_rules r)
{
	switch (r) {
	case GFXSTAT_RULES_6:
		return "6.0-7.0";
	case GFXSTAT_RULES_7:
		return "7.1";
	case GFXSTAT_RULES_8:
		return "8-9";
	case GFXSTAT_RULES_10:
		return "10-11";
	case GFXSTAT_RULES_12:
		return "12+";
	case GFXSTAT_RULES_UNKNOWN:
		break;
	}
	return "unknown";
}

static int64_t sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static int64_t add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

void gfxstat_profile_init(struct gfxstat_profile *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->stats_since_ns = GFXSTAT_NS_NONE;
	p->total_frames = p->janky_frames = p->janky_legacy = -1;
	for (i = 0; i < 4; i++)
		p->percentile[i] = p->gpu_percentile[i] = -1;
	for (i = 0; i < GFXSTAT_JANK_COUNT; i++)
		p->jank_counts[i] = -1;
}

/* ProfileData::frameCountIndexForFrameTime, uint32 arithmetic and all */
static uint32_t fast_index(int64_t ns)
{
	uint32_t index = (uint32_t)(ns / MS);
	uint32_t mask = -(uint32_t)(index > 5);

	index = ((index - 48) >> (index > 48)) + 48;
	index = ((index - 32) >> (index > 32)) + 32;
	index = (index - 5) & mask;
	return index;
}

unsigned gfxstat_profile_bucket(int64_t duration_ns)
{
	uint32_t b = fast_index(duration_ns);
	int64_t q;

	/* "<= size": index 57 writes one past mFrameCounts, i.e. mSlowFrameCounts[0] */
	if (b <= GFXSTAT_HIST_FAST)
		return b;
	q = (duration_ns / MS - 150) / 50;
	if (q < 0 || q > GFXSTAT_HIST_SLOW - 1) /* negative wraps as uint32, then min() */
		q = GFXSTAT_HIST_SLOW - 1;
	return GFXSTAT_HIST_FAST + (unsigned)q;
}

uint32_t gfxstat_profile_bucket_ms(unsigned i)
{
	uint32_t index;

	if (i >= GFXSTAT_HIST_BUCKETS)
		return 0;
	if (i >= GFXSTAT_HIST_FAST)
		return (i - GFXSTAT_HIST_FAST) * 50 + 150;
	index = i + 5;
	if (index > 32)
		index += index - 32;
	if (index > 48)
		index += index - 48 + 1;
	return index;
}

uint32_t gfxstat_profile_gpu_bucket_ms(unsigned i)
{
	if (i >= GFXSTAT_GPU_BUCKETS)
		return 0;
	return i != GFXSTAT_GPU_BUCKETS - 1 ? i + 1 : 4950;
}

static uint32_t walk(const uint32_t *counts, int n, int64_t total, int pct,
		     uint32_t (*label)(unsigned))
{
	int64_t pos = (int64_t)pct * total / 100, remaining = total - pos;
	int i;

	for (i = n - 1; i >= 0; i--) {
		remaining -= counts[i];
		if (remaining <= 0)
			return label((unsigned)i);
	}
	return 0;
}

uint32_t gfxstat_profile_percentile(const struct gfxstat_profile *p, int pct)
{
	/* slow buckets first, then fast: the same order as the array */
	return walk(p->hist, GFXSTAT_HIST_BUCKETS, p->total_frames > 0 ? p->total_frames : 0,
		    pct, gfxstat_profile_bucket_ms);
}

uint32_t gfxstat_profile_gpu_percentile(const struct gfxstat_profile *p, int pct)
{
	int64_t total = 0;
	int i;

	for (i = 0; i < GFXSTAT_GPU_BUCKETS; i++)
		total += p->gpu_hist[i];
	return walk(p->gpu_hist, GFXSTAT_GPU_BUCKETS, total, pct, gfxstat_profile_gpu_bucket_ms);
}

void gx_jank_tracker_init(struct gx_jank_tracker *t, enum gfxstat_gfxinfo_rules rules,
			  int64_t interval, int64_t forgiveness, struct gfxstat_profile *data)
{
	int i, ntypes;

	memset(t, 0, sizeof(*t));
	t->rules = rules;
	t->interval = interval;
	t->forgiveness = forgiveness;
	t->swap_deadline = -1;
	t->swap_deadline_legacy = -1;
	t->next_unstuffed = -1;
	t->data = data;
	gfxstat_profile_init(data);
	data->total_frames = 0;
	data->janky_frames = 0;
	if (rules == GFXSTAT_RULES_12)
		data->janky_legacy = 0;
	ntypes = rules <= GFXSTAT_RULES_7 ? 5 : rules < GFXSTAT_RULES_12 ? 6 : 7;
	for (i = 0; i < ntypes; i++)
		data->jank_counts[i] = 0;
	data->hist_entries = GFXSTAT_HIST_BUCKETS;
	if (rules >= GFXSTAT_RULES_10)
		data->gpu_hist_entries = GFXSTAT_GPU_BUCKETS;
}

static int64_t get(const int64_t *fi, int i)
{
	return fi[i] == GFXSTAT_NS_NONE ? 0 : fi[i];
}

/* FrameInfo::duration(): the stall between SyncQueued and SyncStart is left out */
static int64_t duration(const int64_t *fi, int start, int end)
{
	int64_t st = get(fi, start), gap = sub(get(fi, end), st);

	gap = st > 0 ? gap : 0;
	if (end > GFXSTAT_FI_SYNC_QUEUED && start < GFXSTAT_FI_SYNC_QUEUED) {
		int64_t offset = sub(get(fi, GFXSTAT_FI_SYNC_START), get(fi, GFXSTAT_FI_SYNC_QUEUED));

		if (offset > 0)
			gap = sub(gap, offset);
	}
	return gap > 0 ? gap : 0;
}

/* the dequeue forgiveness; Return: the amount to take off the total duration */
static int64_t forgive(const struct gx_jank_tracker *t, const int64_t *fi)
{
	int64_t dq = get(fi, GFXSTAT_FI_DEQUEUE_BUFFER_DURATION), expected;

	if (!t->forgiveness || dq <= 500 * 1000)
		return 0;
	expected = sub(add(t->forgiveness, get(fi, GFXSTAT_FI_VSYNC)),
		       get(fi, GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START));
	if (expected <= 0)
		return 0;
	return expected < dq ? expected : dq;
}

/*
 * Android 12+ runs two trackers on one frame (calculateLegacyJank, then finishFrame) and both
 * may report High input latency: "Number High input latency" counts it twice, so the frame
 * says so (GFXSTAT_JANK_REASON_TWICE) and per-frame sums equal the recomputed counts.
 */
static void report_type(struct gx_jank_tracker *t, uint32_t *reasons, int type)
{
	t->data->jank_counts[type]++;
	if (*reasons & (1u << type))
		*reasons |= GFXSTAT_JANK_REASON_TWICE;
	*reasons |= 1u << type;
}


static void report_frame(struct gfxstat_profile *p, int64_t d)
{
	p->total_frames++;
	p->hist[gfxstat_profile_bucket(d)]++;
}

static void report_gpu(struct gfxstat_profile *p, const int64_t *fi)
{
	int64_t gpu = get(fi, GFXSTAT_FI_GPU_COMPLETED), ms;

	if (gpu <= 0)
		return; /* gpuDrawTime() is -1 */
	gpu = sub(gpu, get(fi, GFXSTAT_FI_SWAP_BUFFERS));
	if (gpu < 0)
		return;
	ms = gpu / MS;
	p->gpu_hist[ms > GFXSTAT_GPU_BUCKETS - 1 ? GFXSTAT_GPU_BUCKETS - 1 : ms]++;
}

struct comparison {
	int type;
	double factor; /* threshold = (int64)(factor * interval); 0 means 1 ns */
	int start, end;
};

/* 8.x+ COMPARISONS */
static const struct comparison comparisons[] = {
	{ GFXSTAT_JANK_MISSED_VSYNC, 0, GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_VSYNC },
	{ GFXSTAT_JANK_SLOW_UI, .5, GFXSTAT_FI_VSYNC, GFXSTAT_FI_SYNC_START },
	{ GFXSTAT_JANK_SLOW_SYNC, .2, GFXSTAT_FI_SYNC_START, GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START },
	{ GFXSTAT_JANK_SLOW_RT, .75, GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START,
	  GFXSTAT_FI_FRAME_COMPLETED },
};

/* 7.x: one per type, kHighInputLatency from OldestInputEvent */
static const struct comparison comparisons7[] = {
	{ GFXSTAT_JANK_MISSED_VSYNC, 0, GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_VSYNC },
	{ GFXSTAT_JANK_HIGH_INPUT_LATENCY, 1.5, GFXSTAT_FI_OLDEST_INPUT_EVENT, GFXSTAT_FI_VSYNC },
	{ GFXSTAT_JANK_SLOW_UI, .5, GFXSTAT_FI_VSYNC, GFXSTAT_FI_SYNC_START },
	{ GFXSTAT_JANK_SLOW_SYNC, .2, GFXSTAT_FI_SYNC_START, GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START },
	{ GFXSTAT_JANK_SLOW_RT, .75, GFXSTAT_FI_ISSUE_DRAW_COMMANDS_START,
	  GFXSTAT_FI_FRAME_COMPLETED },
};

static void compare(struct gx_jank_tracker *t, const int64_t *fi, const struct comparison *c,
		    size_t n, int64_t interval, uint32_t *reasons)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t thr = c[i].factor == 0 ? 1 : (int64_t)(c[i].factor * (double)interval);
		int64_t delta = duration(fi, c[i].start, c[i].end);

		if (delta >= thr && delta < IGNORE_EXCEEDING)
			report_type(t, reasons, c[i].type);
	}
}

/* FrameInfo::totalDuration() (frameworks/base libs/hwui/FrameInfo.h): what hwui buckets */
int64_t gx_frame_total_duration(const int64_t fi[GFXSTAT_FI_COUNT])
{
	return duration(fi, GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_FRAME_COMPLETED);
}

int gx_frame_incomplete(const int64_t fi[GFXSTAT_FI_COUNT])
{
	int64_t fc = get(fi, GFXSTAT_FI_FRAME_COMPLETED), iv = get(fi, GFXSTAT_FI_INTENDED_VSYNC);

	return fc <= 0 || (fc > iv && (uint64_t)fc - (uint64_t)iv > (uint64_t)INCOMPLETE_AFTER);
}

static int64_t offset_in(int64_t jitter, int64_t interval)
{
	return interval > 0 ? jitter % interval : 0;
}

/* Android 6.0-7.1: JankTracker::addFrame */
static int frame7(struct gx_jank_tracker *t, const int64_t *fi, uint32_t *reasons)
{
	struct gfxstat_profile *p = t->data;
	int64_t total = duration(fi, GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_FRAME_COMPLETED);
	int64_t exempt = t->rules == GFXSTAT_RULES_6 ?
				 FLAG_SURFACE_CANVAS | FLAG_WINDOW_LAYOUT_CHANGED :
				 FLAG_SURFACE_CANVAS;

	p->total_frames++;
	if (t->rules == GFXSTAT_RULES_7)
		total = sub(total, forgive(t, fi));
	if (total < t->interval) {
		p->hist[gfxstat_profile_bucket(total)]++;
		return 0;
	}
	if (get(fi, GFXSTAT_FI_FLAGS) & exempt)
		return 0;
	p->hist[gfxstat_profile_bucket(total)]++;
	p->janky_frames++;
	compare(t, fi, comparisons7, 5, t->interval, reasons);
	return 1;
}

/* Android 8-11: JankTracker::finishFrame with one swap deadline */
static int frame8(struct gx_jank_tracker *t, const int64_t *fi, uint32_t *reasons)
{
	struct gfxstat_profile *p = t->data;
	int64_t total = duration(fi, GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_FRAME_COMPLETED);
	int64_t iv = get(fi, GFXSTAT_FI_INTENDED_VSYNC), fc = get(fi, GFXSTAT_FI_FRAME_COMPLETED);
	int64_t in = t->interval, a, b;
	int janky = 0, triple, on_time;

	total = sub(total, forgive(t, fi));
	report_frame(p, total);
	if (t->rules == GFXSTAT_RULES_10)
		report_gpu(p, fi); /* finishGpuDraw */
	if (get(fi, GFXSTAT_FI_FLAGS) & FLAG_SURFACE_CANVAS)
		return 0;
	if (total > in) {
		p->janky_frames++;
		janky = 1;
	}
	if (t->rules == GFXSTAT_RULES_10)
		triple = (double)sub(t->swap_deadline, iv) > (double)in * 0.1;
	else
		triple = t->swap_deadline > iv;
	a = add(t->swap_deadline, in);
	b = add(iv, in);
	t->swap_deadline = a > b ? a : b;
	on_time = fc < t->swap_deadline || (t->rules == GFXSTAT_RULES_10 && total < in);
	if (on_time) {
		if (triple)
			report_type(t, reasons, GFXSTAT_JANK_HIGH_INPUT_LATENCY);
		return janky;
	}
	report_type(t, reasons, GFXSTAT_JANK_MISSED_DEADLINE);
	t->swap_deadline = add(sub(fc, offset_in(sub(fc, get(fi, GFXSTAT_FI_VSYNC)), in)), in);
	compare(t, fi, comparisons, 4, in, reasons);
	return janky;
}

/* Android 12+: calculateLegacyJank */
static void legacy12(struct gx_jank_tracker *t, const int64_t *fi, uint32_t *reasons)
{
	struct gfxstat_profile *p = t->data;
	int64_t total = duration(fi, GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_SWAP_BUFFERS_COMPLETED);
	int64_t iv = get(fi, GFXSTAT_FI_INTENDED_VSYNC), fc = get(fi, GFXSTAT_FI_FRAME_COMPLETED);
	int64_t in = t->interval ? t->interval : get(fi, GFXSTAT_FI_FRAME_INTERVAL);
	int64_t f = forgive(t, fi), a, b;
	int triple;

	if (f) {
		if (f >= total)
			return;
		total -= f;
	}
	if (total <= 0)
		return;
	if (get(fi, GFXSTAT_FI_FLAGS) & FLAG_SURFACE_CANVAS)
		return;
	if (total > in)
		p->janky_legacy++;
	if (t->swap_deadline_legacy < 0)
		t->swap_deadline_legacy = add(iv, in);
	triple = (double)sub(t->swap_deadline_legacy, iv) > (double)in * 0.1;
	a = add(t->swap_deadline_legacy, in);
	b = add(iv, in);
	t->swap_deadline_legacy = a > b ? a : b;
	if (fc < t->swap_deadline_legacy || total < in) {
		if (triple)
			report_type(t, reasons, GFXSTAT_JANK_HIGH_INPUT_LATENCY);
		return;
	}
	report_type(t, reasons, GFXSTAT_JANK_MISSED_DEADLINE_LEGACY);
	t->swap_deadline_legacy =
		add(sub(fc, offset_in(sub(fc, get(fi, GFXSTAT_FI_VSYNC)), in)), in);
}

/*
 * Android 12+: finishFrame. The FrameDeadline in the dump already carries the "+= interval"
 * of a stuffed frame (the ring slot is the FrameInfo finishFrame modified), so it is not
 * added again: this is what makes every counter of the aNavMode sample's fully covered
 * windows come out equal.
 */
static int frame12(struct gx_jank_tracker *t, const int64_t *fi, uint32_t *reasons)
{
	struct gfxstat_profile *p = t->data;
	int64_t total, in, deadline, gpu, iv = get(fi, GFXSTAT_FI_INTENDED_VSYNC);
	int triple;

	legacy12(t, fi, reasons);
	total = duration(fi, GFXSTAT_FI_INTENDED_VSYNC, GFXSTAT_FI_FRAME_COMPLETED);
	if (total <= 0)
		return -1;
	report_frame(p, total);
	if (get(fi, GFXSTAT_FI_FLAGS) & FLAG_SURFACE_CANVAS)
		return 0;
	in = get(fi, GFXSTAT_FI_FRAME_INTERVAL);
	triple = (double)sub(t->next_unstuffed, iv) > (double)in * 0.1;
	deadline = get(fi, GFXSTAT_FI_FRAME_DEADLINE);
	gpu = get(fi, GFXSTAT_FI_GPU_COMPLETED);
	if (gpu < deadline) {
		if (triple) {
			report_type(t, reasons, GFXSTAT_JANK_HIGH_INPUT_LATENCY);
			t->next_unstuffed = add(t->next_unstuffed, in);
		}
		report_gpu(p, fi);
		return 0;
	}
	report_type(t, reasons, GFXSTAT_JANK_MISSED_DEADLINE);
	p->janky_frames++;
	t->next_unstuffed = add(sub(gpu, offset_in(sub(gpu, get(fi, GFXSTAT_FI_VSYNC)), in)), in);
	compare(t, fi, comparisons, 4, in, reasons);
	report_gpu(p, fi);
	return 1;
}

int gx_jank_tracker_frame(struct gx_jank_tracker *t, const int64_t fi[GFXSTAT_FI_COUNT],
			  uint32_t *reasons)
{
	*reasons = 0;
	if (gx_frame_incomplete(fi))
		return -1;
	switch (t->rules) {
	case GFXSTAT_RULES_6:
	case GFXSTAT_RULES_7:
		return frame7(t, fi, reasons);
	case GFXSTAT_RULES_8:
	case GFXSTAT_RULES_10:
		return frame8(t, fi, reasons);
	case GFXSTAT_RULES_12:
		return frame12(t, fi, reasons);
	case GFXSTAT_RULES_UNKNOWN:
		break;
	}
	return -1;
}

void gx_jank_tracker_done(struct gx_jank_tracker *t)
{
	static const int pcts[4] = { 50, 90, 95, 99 };
	struct gfxstat_profile *p = t->data;
	int i;

	for (i = 0; i < 4; i++) {
		p->percentile[i] = (int32_t)gfxstat_profile_percentile(p, pcts[i]);
		if (p->gpu_hist_entries)
			p->gpu_percentile[i] = (int32_t)gfxstat_profile_gpu_percentile(p, pcts[i]);
	}
}
