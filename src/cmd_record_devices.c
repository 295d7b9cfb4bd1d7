/* SPDX-License-Identifier: MIT */
/*
 * gfxstat devices: what each attached phone can give (a table, or --format json).
 * gfxstat stop / gfxstat pull: the recorder `record --on-device` left on the phone.
 * The device work is the library's (gfxstat_capture.h); this is options and printing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_output.h"
#include "cmd_record.h"

enum { OPT_ADB = 256, OPT_FORMAT };

const char *cmd_record_adb_path;

int cmd_record_state_error(const struct gfxstat_device_entry *e)
{
	switch (gfxstat_capture_state_err(e->state)) {
	case GFXSTAT_CAP_E_UNAUTHORIZED:
		cli_error("%s is unauthorized: unlock the phone and accept its 'Allow USB "
			  "debugging?' prompt for this computer", e->serial);
		break;
	case GFXSTAT_CAP_E_OFFLINE:
		cli_error("%s is offline: reconnect the cable, or run 'adb reconnect offline'",
			  e->serial);
		break;
	case GFXSTAT_CAP_E_NO_PERMISSIONS:
		cli_error("no permission to open %s's USB device: add a udev rule for it (Debian: "
			  "apt-get install android-sdk-platform-tools-common) and plug it in again",
			  e->serial);
		break;
	default:
		cli_error("%s is in state '%s', not 'device': boot it normally", e->serial,
			  e->state_text);
		break;
	}
	return CLI_DEVICE;
}

static const char *state_hint(enum gfxstat_adb_state s)
{
	switch (gfxstat_capture_state_err(s)) {
	case GFXSTAT_CAP_E_UNAUTHORIZED: return "accept the USB debugging prompt on the phone";
	case GFXSTAT_CAP_E_OFFLINE: return "reconnect, or 'adb reconnect offline'";
	case GFXSTAT_CAP_E_NO_PERMISSIONS: return "needs a udev rule for the USB device";
	default: return "";
	}
}

struct dev_opts {
	const char *serial;
	const char *out;
	int json;
};

static int dev_opt(void *user, int id, const char *arg)
{
	struct dev_opts *o = user;

	switch (id) {
	case OPT_ADB:
		cmd_record_adb_path = arg;
		return 0;
	case 's':
		o->serial = arg;
		return 0;
	case 'o':
		o->out = arg;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "json") || !strcmp(arg, "table")) {
			o->json = !strcmp(arg, "json");
			return 0;
		}
		cli_error("--format takes table or json, not '%s'", arg);
		return -1;
	}
	return -1;
}

static const struct cli_opt devices_opts[] = {
	{ OPT_FORMAT, "format", "FMT", "table (default) or json" },
	{ 'o', "output", "FILE", "write there instead of standard output" },
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd devices_cmd = {
	"gfxstat devices",
	"gfxstat devices [--format table|json] [-o FILE] [--adb PATH]",
	"List attached devices: model, Android version, refresh rates, tracing, Perfetto, root,\n"
	"focused window.",
	"--format json prints {\"header\":{...},\"devices\":[...]} (docs/output.md): the common\n"
	"header (its device is the one usable device, null with several), then one object per\n"
	"device: serial, state, hint, model, android, sdk, refresh_hz, refresh_modes_hz, tracefs,\n"
	"tracing_on, perfetto, root, focus (null when unknown, or when the device is not usable:\n"
	"see state and hint).\n"
	"Exit status: 0 ok, 2 usage, 4 adb failed or no device, 5 cannot write FILE.\n",
	devices_opts,
};

static void json_str_or_null(FILE *f, const char *s)
{
	if (s && *s)
		cli_json_str(f, s);
	else
		fputs("null", f);
}

static void device_json(FILE *f, const struct gfxstat_device_entry *e,
			const struct gfxstat_device_info *d)
{
	fprintf(f, "{\"serial\":");
	cli_json_str(f, e->serial);
	fprintf(f, ",\"state\":");
	cli_json_str(f, d || e->state != GFXSTAT_ADB_DEVICE ? e->state_text : "not answering");
	fprintf(f, ",\"hint\":");
	json_str_or_null(f, state_hint(e->state));
	fprintf(f, ",\"model\":");
	json_str_or_null(f, d ? d->model : e->model);
	if (!d) {
		fprintf(f, ",\"android\":null,\"sdk\":null,\"refresh_hz\":null,"
			   "\"refresh_modes_hz\":null,\"tracefs\":null,\"tracing_on\":null,"
			   "\"perfetto\":null,\"root\":null,\"focus\":null}");
		return;
	}
	fprintf(f, ",\"android\":");
	json_str_or_null(f, d->release);
	fprintf(f, d->sdk > 0 ? ",\"sdk\":%d" : ",\"sdk\":null", d->sdk);
	if (d->period_ns > 0)
		fprintf(f, ",\"refresh_hz\":%.3f", 1e9 / (double)d->period_ns);
	else
		fprintf(f, ",\"refresh_hz\":null");
	fprintf(f, ",\"refresh_modes_hz\":[");
	{
		const char *s = d->modes;
		int first = 1;

		while (*s) {
			size_t n = strcspn(s, " ");

			if (n)
				fprintf(f, "%s%.*s", first ? "" : ",", (int)n, s);
			first = first && !n;
			s += n;
			s += strspn(s, " ");
		}
	}
	fprintf(f, "],\"tracefs\":");
	json_str_or_null(f, d->tracefs);
	fprintf(f, ",\"tracing_on\":%s,\"perfetto\":%s,\"root\":%s,\"focus\":",
		d->tracing_on < 0 ? "null" : d->tracing_on ? "true" : "false",
		d->perfetto ? "true" : "false", d->root ? "true" : "false");
	json_str_or_null(f, d->focus);
	fprintf(f, "}");
}

static void device_table(FILE *f, const struct gfxstat_device_entry *e,
			 const struct gfxstat_device_info *d)
{
	if (!d) {
		const char *hint = state_hint(e->state);

		fprintf(f, "%s\t%s%s%s\n", cli_shown(e->serial),
			e->state == GFXSTAT_ADB_DEVICE ? "not answering" : cli_shown(e->state_text),
			*hint ? ": " : "", hint);
		return;
	}
	/* what the device says is shown, never sent raw to the terminal */
	fprintf(f, "%s\n  model: %s\n  android: %s (SDK %d)\n", cli_shown(e->serial),
		cli_shown(d->model), cli_shown(d->release), d->sdk);
	fprintf(f, "  refresh: %s", d->period_ns > 0 ? "" : "unknown");
	if (d->period_ns > 0)
		fprintf(f, "%.1f Hz now", 1e9 / (double)d->period_ns);
	if (d->modes[0])
		fprintf(f, " (modes: %s Hz)", cli_shown(d->modes));
	fprintf(f, "\n  tracefs: %s%s\n", d->tracefs[0] ? cli_shown(d->tracefs) : "not reachable",
		d->tracing_on == 1 ? " (tracing is ON now)" : "");
	fprintf(f, "  perfetto: %s\n  root: %s\n  focus: %s\n", d->perfetto ? "yes" : "no",
		d->root ? "yes" : "no", d->focus[0] ? cli_shown(d->focus) : "unknown");
}

/* @src into @dst of @cap bytes, cut to fit */
static void copy_str(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

/* The header of `devices --format json`: the device, when exactly one answered the probe. */
static void devices_header(FILE *f, const struct gfxstat_device_info *infos, const int *ok,
			   int n)
{
	struct cli_json_header h;
	int i, usable = -1;

	cli_json_header_init(&h, "devices");
	for (i = 0; i < n; i++)
		if (ok[i])
			usable = usable == -1 ? i : -2;
	if (usable >= 0) {
		const struct gfxstat_device_info *d = &infos[usable];

		copy_str(h.dev.serial, sizeof(h.dev.serial), d->serial);
		copy_str(h.dev.model, sizeof(h.dev.model), d->model);
		copy_str(h.dev.android, sizeof(h.dev.android), d->release);
		h.dev.sdk = d->sdk;
	}
	cli_json_begin(f, &h);
	cli_json_header_free(&h);
}

int cmd_devices(int argc, char **argv)
{
	static struct gfxstat_device_entry devs[GFXSTAT_DEVICES_MAX];
	static struct gfxstat_device_info infos[GFXSTAT_DEVICES_MAX];
	int ok[GFXSTAT_DEVICES_MAX];
	struct dev_opts o = { NULL, NULL, 0 };
	struct gfxstat_adb_transport t;
	struct adb a;
	struct cli_output out;
	FILE *f;
	int first, n, i;

	first = cli_parse(&devices_cmd, argc, argv, dev_opt, &o);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first < argc) {
		cli_error("unexpected argument '%s'", argv[first]);
		return CLI_USAGE;
	}
	adb_init(&a, cmd_record_adb_path, NULL);
	adb_transport(&a, &t);
	n = gfxstat_device_list(&t, devs, GFXSTAT_DEVICES_MAX);
	if (n < 0) {
		cli_error("cannot run '%s devices': is adb installed? (Debian: apt-get install adb)",
			  a.path);
		return CLI_DEVICE;
	}
	if (!n) {
		cli_error("no device attached");
		return CLI_DEVICE;
	}
	/* every probe first: the JSON header names the device */
	for (i = 0; i < n; i++) {
		struct gfxstat_device_info *d = &infos[i];

		memset(d, 0, sizeof(*d));
		ok[i] = devs[i].state == GFXSTAT_ADB_DEVICE;
		if (ok[i]) {
			adb_init(&a, cmd_record_adb_path, devs[i].serial);
			copy_str(d->serial, sizeof(d->serial), devs[i].serial);
			ok[i] = gfxstat_device_probe(&t, NULL, d) == 0;
		}
	}
	/* the output is created only once adb has answered: nothing replaced for nothing */
	if (cli_output_create(&out, o.out, 0))
		return CLI_OUTPUT;
	f = out.f;
	if (o.json) {
		devices_header(f, infos, ok, n);
		fputs("\n\"devices\":[", f);
	}
	for (i = 0; i < n; i++) {
		if (o.json) {
			fprintf(f, "%s\n", i ? "," : "");
			device_json(f, &devs[i], ok[i] ? &infos[i] : NULL);
		} else {
			device_table(f, &devs[i], ok[i] ? &infos[i] : NULL);
		}
	}
	if (o.json)
		fprintf(f, "\n]}\n");
	return cli_output_finish(&out, 1);
}

/* ---------------------------------------------------------------------------------------- */
/* gfxstat stop / gfxstat pull                                                               */

static const struct cli_opt stop_opts[] = {
	{ 's', "serial", "SERIAL", "the device (adb -s)" },
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd stop_cmd = {
	"gfxstat stop",
	"gfxstat stop [-s SERIAL] [--adb PATH]",
	"End the recording that 'gfxstat record --on-device' started on the phone.",
	"It is stopped like Ctrl-C: it flushes its session and switches tracing off.\n"
	"Exit status: 0 stopped, 3 nothing was recording, 4 adb failed.\n",
	stop_opts,
};

int cmd_stop(int argc, char **argv)
{
	struct dev_opts o = { NULL, NULL, 0 };
	struct gfxstat_adb_transport t;
	struct adb a;
	int first, rc;

	first = cli_parse(&stop_cmd, argc, argv, dev_opt, &o);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	adb_init(&a, cmd_record_adb_path, o.serial);
	adb_transport(&a, &t);
	rc = gfxstat_phone_stop(&t);
	if (rc == GFXSTAT_CAP_E_NO_PROCESS) {
		cli_error("nothing is recording on the device (no " GFXSTAT_PHONE_PID ")");
		return CLI_INPUT;
	}
	if (rc) {
		cli_error("the recording on the device did not stop within 15 s");
		return CLI_DEVICE;
	}
	printf("stopped; fetch the session with 'gfxstat pull'\n");
	return CLI_OK;
}

static const struct cli_opt pull_opts[] = {
	{ 's', "serial", "SERIAL", "the device (adb -s)" },
	{ 'o', "output", "DIR", "where to put the session (default: here)" },
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 0, NULL, NULL, NULL },
};

static const struct cli_cmd pull_cmd = {
	"gfxstat pull",
	"gfxstat pull [-s SERIAL] [-o DIR] [--adb PATH] [SESSION]",
	"Fetch a session recorded on the phone (the newest when SESSION is not given).",
	"Exit status: 0 fetched, 2 usage (SESSION with a '/'), 3 no such session, 4 adb failed.\n",
	pull_opts,
};

int cmd_pull(int argc, char **argv)
{
	struct dev_opts o = { NULL, ".", 0 };
	struct gfxstat_adb_transport t;
	struct adb a;
	char name[256];
	int first, rc;

	first = cli_parse(&pull_cmd, argc, argv, dev_opt, &o);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	adb_init(&a, cmd_record_adb_path, o.serial);
	adb_transport(&a, &t);
	rc = gfxstat_phone_pull(&t, first < argc ? argv[first] : NULL, o.out, name, sizeof(name));
	if (rc == GFXSTAT_CAP_E_BAD_OPTION) {
		cli_error("SESSION is the name of a session in " GFXSTAT_PHONE_SESSIONS " (as 'gfxstat "
			  "record --on-device' printed it), not '%s'", argv[first]);
		return CLI_USAGE;
	}
	if (rc == GFXSTAT_CAP_E_NO_PROCESS) {
		cli_error("no sessions on the device (" GFXSTAT_PHONE_SESSIONS ")");
		return CLI_INPUT;
	}
	if (rc) {
		cli_error("cannot pull " GFXSTAT_PHONE_SESSIONS "/%s", name);
		return CLI_DEVICE;
	}
	printf("%s/%s\n", o.out, name);
	return CLI_OK;
}
