/* SPDX-License-Identifier: MIT */
/*
 * gfxstat unwrap: decode a container (systrace HTML, atrace -z, gzip, UTF-16) to trace text.
 * (gfxstat latency, which reads through the same unwrapper, is in cmd_latency.c.)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_output.h"
#include "cmd_unwrap.h"
#include "gfxstat/gfxstat.h"
#include "gfxstat/gfxstat_container.h"

unsigned long long cmd_unwrap_report(const char *name, const struct gfxstat_unwrap_stats *st)
{
	unsigned long long damaged = 0;
	int i;

	for (i = 0; i < GFXSTAT_UNWRAP_STAT_COUNT; i++) {
		enum gfxstat_severity sev = gfxstat_unwrap_stat_severity((enum gfxstat_unwrap_stat)i);

		if (!st->v[i] || sev == GFXSTAT_SEV_INFO)
			continue;
		if (sev == GFXSTAT_SEV_ERROR)
			damaged += st->v[i];
		cli_warn("%s: %" PRIu64 " %s", name, st->v[i],
			 gfxstat_unwrap_stat_doc((enum gfxstat_unwrap_stat)i));
	}
	return damaged;
}

void cmd_unwrap_layers_text(const struct gfxstat_unwrap *u, char *buf, size_t cap)
{
	enum gfxstat_format f[8];
	int n = gfxstat_unwrap_layers(u, f, 8), i;
	size_t off = 0;

	buf[0] = 0;
	if (n > 8)
		n = 8;
	for (i = 0; i < n && off < cap; i++) {
		int w = snprintf(buf + off, cap - off, "%s%s", i ? " > " : "", gfxstat_format_name(f[i]));

		if (w < 0)
			break;
		off += (size_t)w;
	}
	if (!n)
		snprintf(buf, cap, "%s", gfxstat_format_name(GFXSTAT_FMT_UNKNOWN));
}

/* unwrap ----------------------------------------------------------------------------------- */

static const struct cli_opt unwrap_opts[] = {
	{ 'o', "output", "FILE", "write the decoded text to FILE (default: standard output)" },
	{ 'q', "quiet", NULL, "do not print the detected format" },
	{ 0, NULL, NULL, NULL },
};

static const char unwrap_details[] =
	"Reads a capture and writes the ftrace text inside it, so any text tool can use it:\n"
	"  systrace HTML (every <script class=\"trace-data\"> block of ftrace text; trace2html\n"
	"  base64+gzip viewer-data; the 2012 'var linuxPerfData = \"...\"' form); JSON and\n"
	"  PROCESS DUMP blocks are skipped\n"
	"  atrace output ('TRACE:' then text, or a zlib stream with -z; CRLF added by an\n"
	"  'adb shell' pty before the zlib stream is undone, as catapult does)\n"
	"  gzip and zlib files, also around HTML; UTF-16LE/BE text with a BOM\n"
	"  a zip (systrace .zip): its one trace member; with several, their names\n"
	"  plain text: a UTF-8 BOM is dropped and CRLF line ends become LF\n"
	"  Perfetto protobuf: copied unchanged\n"
	"The detected layers are printed on standard error, e.g. 'gzip > systrace-html >\n"
	"ftrace-text'. No byte exits 3; a damaged input 3 after what could be decoded.\n";

static const struct cli_cmd unwrap_cmd = {
	"gfxstat unwrap",
	"gfxstat unwrap [-o FILE] [-q] [FILE|-]",
	"Decode a container (systrace HTML, atrace -z, gzip, UTF-16) to trace text.",
	unwrap_details,
	unwrap_opts,
};

struct unwrap_run {
	const char *out_path;
	FILE *out;
	struct cli_output o; /* out_path: replaced once the input is decoded, not before */
	int write_failed;
	struct gfxstat_unwrap *u;
	struct gfxstat_unwrap_stats st;
	int lib_rc;
};

static int unwrap_opt(void *user, int id, const char *arg)
{
	struct unwrap_run *r = user;

	switch (id) {
	case 'o':
		r->out_path = arg;
		return 0;
	case 'q':
		cli_quiet = 1;
		return 0;
	}
	return -1;
}

static int unwrap_out(void *user, const void *buf, size_t n)
{
	struct unwrap_run *r = user;

	if (fwrite(buf, 1, n, r->out) != n) {
		r->write_failed = errno ? errno : EIO;
		return 1;
	}
	return 0;
}

static int unwrap_feed(void *user, const void *buf, size_t n)
{
	struct unwrap_run *r = user;

	r->lib_rc = gfxstat_unwrap_feed(r->u, buf, n);
	return r->lib_rc;
}

static int unwrap_eof(void *user)
{
	struct unwrap_run *r = user;

	r->lib_rc = gfxstat_unwrap_finish(r->u);
	return r->lib_rc;
}

int cmd_unwrap(int argc, char **argv)
{
	struct unwrap_run r;
	unsigned long long bytes = 0;
	char layers[256];
	const char *name;
	unsigned long long damaged;
	int first, rc;

	memset(&r, 0, sizeof(r));
	first = cli_parse(&unwrap_cmd, argc, argv, unwrap_opt, &r);
	if (first == -2)
		return CLI_OK;
	if (first < 0 || cli_check_path("-o/--output", r.out_path))
		return CLI_USAGE;
	if (argc - first > 1) {
		cli_error("unwrap takes one input, not %d", argc - first);
		return CLI_USAGE;
	}
	name = argc > first && strcmp(argv[first], "-") ? argv[first] : "standard input";
	if (r.out_path && !strcmp(r.out_path, "-"))
		r.out_path = NULL;
	/* a live stream's text is in FILE as it comes, and stays when a signal ends it */
	if (cli_output_create(&r.o, r.out_path,
			      cli_input_is_live(argc > first ? argv[first] : "-") ? CLI_OUT_LIVE : 0))
		return CLI_OUTPUT;
	r.out = r.o.f;
	r.u = gfxstat_unwrap_new(unwrap_out, &r, &r.st);
	if (!r.u) {
		cli_error("out of memory");
		rc = CLI_INPUT;
		goto out;
	}
	cli_catch_signals();
	gfxstat_unwrap_set_path(r.u, argc > first ? argv[first] : NULL); /* a zip: random access */
	rc = cli_read_inputs(argv + first, argc - first, unwrap_feed, unwrap_eof, &r, &bytes);
	if (cli_interrupted()) {
		rc = cli_interrupted();
		goto out;
	}
	if (fflush(r.out) && !r.write_failed)
		r.write_failed = errno ? errno : EIO;
	if (r.write_failed) {
		cli_error("cannot write '%s': %s", r.out_path ? r.out_path : "standard output",
			  strerror(r.write_failed));
		rc = CLI_OUTPUT;
		goto out;
	}
	if (r.lib_rc && r.lib_rc != GFXSTAT_E_ABORTED) {
		cli_error("%s", gfxstat_strerror(r.lib_rc));
		rc = CLI_INPUT;
		goto out;
	}
	if (!rc && !bytes && !cli_stop_signal && (rc = cli_empty_input(name)))
		goto out;
	cmd_unwrap_layers_text(r.u, layers, sizeof(layers));
	cli_info("%s: %s, %" PRIu64 " bytes in, %" PRIu64 " out", name, layers,
		 r.st.v[GFXSTAT_UNWRAP_STAT_in_bytes], r.st.v[GFXSTAT_UNWRAP_STAT_out_bytes]);
	damaged = cmd_unwrap_report(name, &r.st);
	if (*gfxstat_unwrap_zip_names(r.u))
		cli_info("%s: zip members: %s", name, gfxstat_unwrap_zip_names(r.u));
	if (damaged && !rc)
		rc = cli_damaged(name, damaged);
out:
	gfxstat_unwrap_free(r.u);
	{
		/* what was decoded replaces FILE; nothing does when nothing was */
		int keep = !r.write_failed && (rc == CLI_OK ||
					       r.st.v[GFXSTAT_UNWRAP_STAT_out_bytes]);
		int orc = cli_output_finish(&r.o, keep && rc < CLI_OUTPUT);

		if (orc && (rc < CLI_OUTPUT || orc > CLI_OUTPUT))
			rc = orc;
	}
	return rc;
}
