/* SPDX-License-Identifier: MIT */
/*
 * gfxstat gfxinfo's machine-readable outputs (docs/output.md): --format csv (one line per
 * window), --format json (the common header, then the same facts per block) and --rows
 * (one CSV line per framestats row). The command itself is cmd_gfxinfo.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd_gfxinfo_out.h"

enum gfxinfo_cover cmd_gfxinfo_coverage(const struct gfxstat_gfxinfo_block *b)
{
	if (!b->has_rows || !b->has_summary || b->dump.total_frames < 0 ||
	    b->calc.total_frames < 0)
		return COVER_NONE;
	if (b->dump.total_frames == b->calc.total_frames)
		return COVER_ALL;
	return b->dump.total_frames > b->calc.total_frames ? COVER_PART : COVER_MORE;
}

/* A count the dump or the rows may not give (-1): empty in CSV, null in JSON (docs/output.md). */
static void csv_count(long long v)
{
	if (v >= 0)
		printf(",%lld", v);
	else
		putchar(',');
}

static void json_count(FILE *o, long long v)
{
	if (v >= 0)
		fprintf(o, "%lld", v);
	else
		fputs("null", o);
}

static void csv_profile(const struct gfxstat_profile *p)
{
	int i;

	csv_count(p->total_frames);
	csv_count(p->janky_frames);
	csv_count(p->janky_legacy);
	for (i = 0; i < 4; i++)
		csv_count(p->percentile[i]);
	for (i = 0; i < GFXSTAT_JANK_COUNT; i++)
		csv_count(p->jank_counts[i]);
}

static void csv_quoted(struct gfxstat_str s)
{
	size_t i;

	putchar('"');
	for (i = 0; i < s.n; i++) {
		if (s.p[i] == '"')
			putchar('"');
		putchar(s.p[i]);
	}
	putchar('"');
}

void cmd_gfxinfo_csv_header(void)
{
	static const char *const part[] = { "total", "janky", "janky_legacy", "p50", "p90", "p95",
					    "p99", "missed_vsync", "high_input_latency",
					    "slow_ui", "slow_bitmap", "slow_draw",
					    "deadline_missed", "deadline_missed_legacy" };
	size_t i;

	/* layer: the Android window, as `frames` names it; kind says process or window */
	printf("pid,app,kind,layer,rules,columns,rows,rows_flagged,rows_incomplete,coverage");
	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		printf(",rows_%s", part[i]);
	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		printf(",dump_%s", part[i]);
	printf("\n");
}

void cmd_gfxinfo_csv_block(const struct gfxstat_gfxinfo_block *b)
{
	static const char *const cover_names[] = { "none", "all", "partial", "more" };

	printf("%d,", (int)b->pid);
	csv_quoted(b->app);
	printf(",%s,", b->kind == GFXSTAT_BLOCK_PROCESS ? "process" : "window");
	csv_quoted(b->name);
	printf(",%s,%d,%llu,%llu,%llu,%s", gfxstat_gfxinfo_rules_name(b->rules), b->columns,
	       (unsigned long long)b->rows, (unsigned long long)b->rows_flagged,
	       (unsigned long long)b->rows_incomplete, cover_names[cmd_gfxinfo_coverage(b)]);
	csv_profile(&b->calc);
	csv_profile(&b->dump);
	printf("\n");
}

static void json_profile(FILE *o, const struct gfxstat_profile *p)
{
	static const char *const pct[4] = { "p50", "p90", "p95", "p99" };
	int i;

	fputs("{\"total\":", o);
	json_count(o, p->total_frames);
	fputs(",\"janky\":", o);
	json_count(o, p->janky_frames);
	fputs(",\"janky_legacy\":", o);
	json_count(o, p->janky_legacy);
	fputs(",\"percentile_ms\":{", o);
	for (i = 0; i < 4; i++) {
		fprintf(o, "%s\"%s\":", i ? "," : "", pct[i]);
		json_count(o, p->percentile[i]);
	}
	fputs("},\"jank_counts\":{", o);
	for (i = 0; i < GFXSTAT_JANK_COUNT; i++) {
		cli_json_str(o, gfxstat_jank_type_name((enum gfxstat_jank_type)i));
		fputc(':', o);
		json_count(o, p->jank_counts[i]);
		if (i + 1 < GFXSTAT_JANK_COUNT)
			fputc(',', o);
	}
	fputs("}}", o);
}

static void json_strn(FILE *o, struct gfxstat_str s)
{
	char *z = malloc(s.n + 1);

	if (!z || !s.n) {
		fputs("null", o);
		free(z);
		return;
	}
	memcpy(z, s.p, s.n);
	z[s.n] = 0;
	cli_json_str(o, z);
	free(z);
}

/* One block of `gfxinfo --format json` (docs/output.md): the --format csv line's facts. */
void cmd_gfxinfo_json_block(struct gfxinfo_run *r, const struct gfxstat_gfxinfo_block *b)
{
	static const char *const cover_names[] = { "none", "all", "partial", "more" };
	FILE *o = r->jo;

	fprintf(o, "%s{\"pid\":", r->jblocks++ ? ",\n" : "\n");
	if (b->pid >= 0)
		fprintf(o, "%d", (int)b->pid);
	else
		fputs("null", o);
	fputs(",\"app\":", o);
	json_strn(o, b->app);
	fprintf(o, ",\"kind\":\"%s\",\"layer\":",
		b->kind == GFXSTAT_BLOCK_PROCESS ? "process" : "window");
	json_strn(o, b->name);
	fprintf(o, ",\"rules\":\"%s\",\"columns\":%d,\"rows\":%llu,\"rows_flagged\":%llu,"
		"\"rows_incomplete\":%llu,\"coverage\":\"%s\",\"period_ns\":",
		gfxstat_gfxinfo_rules_name(b->rules), b->columns, (unsigned long long)b->rows,
		(unsigned long long)b->rows_flagged, (unsigned long long)b->rows_incomplete,
		cover_names[cmd_gfxinfo_coverage(b)]);
	cli_json_ns(o, b->frame_interval_ns > 0 ? b->frame_interval_ns : GFXSTAT_NS_NONE);
	fputs(",\"recomputed\":", o);
	if (b->has_rows)
		json_profile(o, &b->calc);
	else
		fputs("null", o);
	fputs(",\"dump\":", o);
	if (b->has_summary)
		json_profile(o, &b->dump);
	else
		fputs("null", o);
	fputc('}', o);
}

void cmd_gfxinfo_rows_header(void)
{
	int i;

	printf("pid,app,layer,row,flags,janky,jank_reasons,jank_reasons_raw,present_ns,"
	       "interval_ns,vsync_period_ns,duration_ns");
	for (i = 0; i < GFXSTAT_FI_COUNT; i++)
		printf(",%s", gfxstat_frameinfo_name((enum gfxstat_frameinfo)i));
	printf("\n");
}

void cmd_gfxinfo_row(struct gfxinfo_run *r, const struct gfxstat_frame *f)
{
	int i, first = 1;

	printf("%d,", (int)f->pid);
	csv_quoted(f->app);
	putchar(',');
	csv_quoted(f->layer);
	printf(",%llu,%lld,", (unsigned long long)r->row_no++, (long long)f->fi[GFXSTAT_FI_FLAGS]);
	if (f->janky >= 0) /* unknown is empty */
		printf("%d", (int)f->janky);
	/* names, as `frames` writes them, then the raw bits */
	printf(",\"");
	for (i = 0; i < GFXSTAT_JANK_COUNT; i++) {
		unsigned k = gfxstat_jank_reason_count(f->jank_reasons, (enum gfxstat_jank_type)i);

		if (k) {
			printf("%s%s", first ? "" : ", ",
			       gfxstat_jank_type_name((enum gfxstat_jank_type)i));
			if (k > 1)
				printf(" x%u", k); /* both 12+ trackers reported it */
			first = 0;
		}
	}
	printf("\",%u,", (unsigned)f->jank_reasons);
	if (f->present_ns != GFXSTAT_NS_NONE)
		printf("%lld", (long long)f->present_ns);
	printf(",");
	if (f->interval_ns != GFXSTAT_NS_NONE)
		printf("%lld", (long long)f->interval_ns);
	printf(",");
	if (f->vsync_period_ns != GFXSTAT_NS_NONE)
		printf("%lld", (long long)f->vsync_period_ns);
	printf(",");
	if (f->duration_ns != GFXSTAT_NS_NONE)
		printf("%lld", (long long)f->duration_ns);
	for (i = 0; i < GFXSTAT_FI_COUNT; i++) {
		printf(",");
		if (f->fi[i] != GFXSTAT_NS_NONE)
			printf("%lld", (long long)f->fi[i]);
	}
	printf("\n");
}

/* `gfxinfo --format json`: the header (each input's size, the rows' span and period), then
 * the blocks held in memory until now */
void cmd_gfxinfo_json_document(struct gfxinfo_run *r, char **paths, int n,
			       unsigned long long bytes)
{
	struct stat st;
	int i;

	for (i = 0; i < n || (!n && !i); i++) {
		const char *p = n ? paths[i] : "-";
		unsigned long long size = bytes;

		if (strcmp(p, "-") && !stat(p, &st))
			size = (unsigned long long)st.st_size;
		cli_json_header_input(&r->hdr, p, "gfxinfo", NULL, size);
		if (!n)
			break;
	}
	fclose(r->jo);
	cli_json_begin(stdout, &r->hdr);
	fputs("\n\"blocks\":[", stdout);
	fwrite(r->jbody, 1, r->njbody, stdout);
	fputs("]}\n", stdout);
	free(r->jbody);
	cli_json_header_free(&r->hdr);
}
