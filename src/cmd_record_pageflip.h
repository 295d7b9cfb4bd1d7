/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record --source pageflip: the last resort, the whole display's page-flip count
 * (`service call SurfaceFlinger 1013`) polled. The caller owns every pointer it sets.
 */
#ifndef CMD_RECORD_PAGEFLIP_H
#define CMD_RECORD_PAGEFLIP_H

#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#define CMD_PAGEFLIP_POLL_MS 1000

struct cmd_pageflip {
	/* set by the caller */
	const char *serial;
	const char *prefix;   /* the serial, when several devices record at once, or NULL */
	const char *why;      /* why this source was chosen */
	const char *dir;      /* the session folder: pageflip.csv goes there */
	int tty;
	const char *modes;    /* the display's refresh rates, "60 90", or "" */
	int64_t period_ns;    /* the --latency refresh period, used when @modes is empty */
	double t0;            /* cli_now() at the start */
	int64_t duration_ns;  /* 0: until a signal */
	long poll_ms;
	int (*shell)(const void *ctx, char *out, size_t cap, const char *cmd);
	const void *ctx;
	gzFile raw;           /* every answer, as the other poll sources keep theirs; or NULL */
	/* results, for summary.json */
	const char *stop_reason;
	int exit_code;
	int write_failed;     /* an errno value */
	uint32_t max_mhz;     /* the highest refresh rate, milli-Hz; 0 unknown */
	uint64_t samples, intervals, flips, gaps, too_fast, failed;
	int64_t span_ns;      /* the time the counted flips are over */
};

/*
 * cmd_pageflip_record() - poll until a signal, the duration, or the device stops answering;
 * write pageflip.csv as it goes and show the display's FPS live
 * Return: CLI_OK, or CLI_DEVICE when the device has no usable counter (said why).
 */
int cmd_pageflip_record(struct cmd_pageflip *p);

/* cmd_pageflip_json() - the summary's ,"display":{...} member. */
void cmd_pageflip_json(FILE *f, const struct cmd_pageflip *p);

#endif
