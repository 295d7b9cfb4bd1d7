/* SPDX-License-Identifier: MIT */
/*
 * gfxstat record: measure a phone over adb, live, with the best source it allows (trace,
 * perfetto, latency, gfxinfo, pageflip: see gfxstat_capture.h, where the capture is). This
 * file parses the options and picks the device(s); cmd_record_session.c keeps one device's
 * session folder and live view; cmd_record_devices.c is `devices`, `stop` and `pull`.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd_record.h"

enum {
	OPT_ADB = 256, OPT_ALL, OPT_DURATION, OPT_APP, OPT_SOURCE, OPT_CATEGORIES, OPT_RECONNECT,
	OPT_LOCAL, OPT_PID_FILE, OPT_ON_DEVICE, OPT_DEVICE_BINARY, OPT_POLL_MS, OPT_OVERWRITE,
	OPT_REPEAT, OPT_SETTLE, OPT_BEFORE, OPT_AFTER, OPT_SAVE, OPT_DB, OPT_LABEL, OPT_CONTEXT_MS,
	OPT_SCREENSHOTS
};

#define DEV_BIN GFXSTAT_PHONE_BIN
#define DEV_SESSIONS GFXSTAT_PHONE_SESSIONS

struct rec_opts {
	const char *serial;
	int all, local, on_device, overwrite;
	const char *pid_file, *device_binary;
	double duration;
	const char *app;
	enum gfxstat_capture_source source;
	const char *dir;
	const char *categories;
	long reconnect;
	long poll_ms;
	long context_ms;
	double screenshots;  /* --screenshots SEC; 0: none */
	struct rec_repeat rep;
};

static int rec_opt(void *user, int id, const char *arg)
{
	struct rec_opts *o = user;

	switch (id) {
	case 's':
		o->serial = arg;
		return 0;
	case OPT_ALL:
		o->all = 1;
		return 0;
	case OPT_ADB:
		cmd_record_adb_path = arg;
		return 0;
	case OPT_DURATION:
		return cli_double("--duration", arg, 0.001, 1e7, &o->duration);
	case OPT_APP:
		/* it reaches the phone's shell: only what Android's names are made of */
		if (gfxstat_capture_app_valid(arg)) {
			o->app = arg;
			return 0;
		}
		cli_error("--app takes a package or process name: letters, digits, '_', '.' and "
			  "':' (com.example.app, com.example.app:remote), not '%s'", arg);
		return -1;
	case OPT_SOURCE:
		if (!gfxstat_capture_source_parse(arg, &o->source))
			return 0;
		cli_error("--source takes auto, trace, perfetto, latency, gfxinfo or pageflip, not "
			  "'%s'", arg);
		return -1;
	case OPT_POLL_MS:
		return cli_long("--poll-ms", arg, 50, 60000, &o->poll_ms);
	case OPT_CONTEXT_MS:
		if (cli_long("--context-ms", arg, 0, 600000, &o->context_ms))
			return -1;
		/* each sample is an adb round trip: faster would steal the frames' time */
		if (o->context_ms > 0 && o->context_ms < 100) {
			cli_error("--context-ms takes 0 (off) or 100 to 600000 ms, not %ld",
				  o->context_ms);
			return -1;
		}
		return 0;
	case OPT_SCREENSHOTS:
		/* a screencap is a PNG encoded on the phone (some 0.3-1 s): faster would only
		 * queue them */
		return cli_double("--screenshots", arg, 0.5, 3600, &o->screenshots);
	case 'o':
		o->dir = arg;
		return 0;
	case OPT_OVERWRITE:
		o->overwrite = 1;
		return 0;
	case OPT_CATEGORIES:
		if (gfxstat_capture_categories_valid(arg)) {
			o->categories = arg;
			return 0;
		}
		cli_error("--categories takes atrace category names (letters, digits, '_') "
			  "separated by spaces or commas (\"gfx view input\"), not '%s'", arg);
		return -1;
	case OPT_RECONNECT:
		return cli_long("--reconnect-wait", arg, 0, 3600, &o->reconnect);
	case 'q':
		cli_quiet = 1;
		return 0;
	case OPT_LOCAL:
		o->local = 1;
		return 0;
	case OPT_PID_FILE:
		o->pid_file = arg;
		return 0;
	case OPT_ON_DEVICE:
		o->on_device = 1;
		return 0;
	case OPT_DEVICE_BINARY:
		o->device_binary = arg;
		return 0;
	case OPT_REPEAT:
		return cli_long("--repeat", arg, 1, 1000, &o->rep.n);
	case OPT_SETTLE:
		return cli_double("--settle", arg, 0, 3600, &o->rep.settle);
	case OPT_BEFORE:
		o->rep.before = arg;
		return 0;
	case OPT_AFTER:
		o->rep.after = arg;
		return 0;
	case OPT_SAVE:
		cmd_record_store.save = 1;
		return 0;
	case OPT_DB:
		cmd_record_store.db = arg;
		return 0;
	case OPT_LABEL:
		cmd_record_store.label = arg;
		return 0;
	}
	return -1;
}

static const struct cli_opt record_opts[] = {
	{ 's', "serial", "SERIAL", "the device (adb -s); needed when several are attached" },
	{ OPT_ALL, "all", NULL, "record every attached device at once, one session each" },
	{ OPT_DURATION, "duration", "SEC", "stop after SEC seconds (default: until Ctrl-C)" },
	{ OPT_APP, "app", "PKG", "the app or process to measure (default: the focused one)" },
	{ OPT_SOURCE, "source", "NAME", "auto, trace, perfetto, latency, gfxinfo, pageflip (auto)" },
	{ OPT_POLL_MS, "poll-ms", "MS", "pageflip: poll the counter every MS ms (1000)" },
	{ OPT_CONTEXT_MS, "context-ms", "MS", "sample CPU, GPU, thermal, battery, app (1000; 0 off)" },
	{ OPT_SCREENSHOTS, "screenshots", "SEC", "a screenshot every SEC s, and at long janky frames" },
	{ 'o', "output", "DIR", "session folder (default: a new gfxstat-SERIAL-UTCTIME)" },
	{ OPT_OVERWRITE, "overwrite", NULL, "replace the session that -o DIR already holds" },
	{ OPT_CATEGORIES, "categories", "LIST", "atrace categories (\"gfx view input\", gfx,view)" },
	{ OPT_RECONNECT, "reconnect-wait", "SEC", "wait this long for a lost device at the end (10)" },
	{ OPT_REPEAT, "repeat", "N", "N iterations of the command after --, one session each" },
	{ OPT_SETTLE, "settle", "SEC", "--repeat: keep capturing SEC s after the command (1)" },
	{ OPT_BEFORE, "before", "CMD", "--repeat: run this shell command before each iteration" },
	{ OPT_AFTER, "after", "CMD", "--repeat: run this shell command after each iteration" },
	{ OPT_SAVE, "save", NULL, "store every session in the history ('gfxstat history')" },
	{ OPT_DB, "db", "PATH|URL", "--save: the store, SQLite file or postgresql:// URL" },
	{ OPT_LABEL, "label", "TEXT", "--save: the run's label (build id, git sha, branch)" },
	{ OPT_ON_DEVICE, "on-device", NULL, "run on the phone, detached: survives unplugging" },
	{ OPT_DEVICE_BINARY, "device-binary", "PATH", "the phone's gfxstat (default: make android's)" },
	{ OPT_LOCAL, "local", NULL, "this is the phone: read trace_pipe here, no adb" },
	{ OPT_PID_FILE, "pid-file", "PATH", "write the process id there while recording" },
	{ OPT_ADB, "adb", "PATH", "the adb client (default: $ADB, else adb from PATH)" },
	{ 'q', "quiet", NULL, "no live view and no closing table" },
	{ 0, NULL, NULL, NULL },
};

static const char record_details[] =
	"Sources, best first (auto picks the first the device allows, and says why):\n"
	"  trace     atrace gfx view input, streamed from trace_pipe and parsed live\n"
	"  perfetto  Android 12+: FrameTimeline for --duration (10 s by default), then pulled\n"
	"  latency   dumpsys SurfaceFlinger --latency <the app's layer>, polled, stitched\n"
	"  gfxinfo   dumpsys gfxinfo <pkg> framestats, polled (needs --app or a focused app)\n"
	"  pageflip  the whole display's page-flip count (service call SurfaceFlinger 1013),\n"
	"            polled: the display's FPS only, no frames, layers or apps; pageflip.csv\n"
	"            holds every sample; more flips than the highest refresh rate allows are\n"
	"            reported as a problem, a count that goes down as a gap (reboot)\n"
	"The live view refreshes every second: per layer FPS since the last view and since the\n"
	"start, on the trace's clock (frame present times, not the host's), jank and big jank\n"
	"(PerfDog), the longest frame; it fits the terminal's width. Without a terminal it\n"
	"prints plain lines. A table per layer closes the capture.\n"
	"The session folder holds the raw capture (compressed), device.json, frames.csv,\n"
	"summary.json (the metrics of 'gfxstat analyze --json') and android_FPS_frome_GFX's\n"
	"fps.csv/dropFrames.csv, written as it goes.\n"
	"Beside the frames it samples the device every --context-ms (1000; 0: off), one adb\n"
	"round trip each, without root: CPU load per core (/proc/stat) and frequency, the GPU's\n"
	"frequency and busy time (kgsl, Mali's /sys/kernel/gpu or devfreq: the paths are\n"
	"named), thermal zones, the battery's current, voltage, temperature, level and power\n"
	"(V x I, with current_now's sign: below 0 discharging on most devices; 'dumpsys\n"
	"battery' when its files are refused: no current then), the app's CPU and RSS.\n"
	"context.csv gets a row per sample (flushed), summary.json min/mean/max per series;\n"
	"a reading the device refuses is said once and left out. The trace also gets the\n"
	"thread-state atrace categories (sched freq idle binder_driver) the device lists; a\n"
	"Perfetto capture the scheduler's, CPU and GPU frequency and thermal ftrace events.\n"
	"--screenshots SEC saves the screen (adb exec-out screencap -p) every SEC seconds\n"
	"(0.5 or more), and at once when a live source shows a janky frame of 125 ms or more (at\n"
	"most one such every 2 s), as screens/SSSSSS.mmm.png (seconds from the start), each\n"
	"written whole then renamed, and a row of screens.csv each (flushed): its time, the\n"
	"device's clock, and its time on the trace's clock, which the report uses to put it on\n"
	"the timeline. A screencap the device refuses is said once; none is taken after it.\n"
	"Each run gets a new folder gfxstat-SERIAL-YYYYmmddTHHMMSSZ (UTC); -o DIR holding a\n"
	"session is refused unless --overwrite, which writes the new session beside it and\n"
	"replaces it only once the new one holds a capture (a failed run leaves the old\n"
	"session as it was).\n"
	"--source NAME that the device cannot give (perfetto without a perfetto binary, trace\n"
	"without a readable trace_pipe) is refused before anything starts, saying what it can\n"
	"give. --app and --categories reach the phone's shell: they take only what Android's\n"
	"names are made of (a package or process name: letters, digits, '_', '.', ':'; atrace\n"
	"categories: letters, digits, '_', separated by spaces or commas), and every string\n"
	"sent to the phone's shell, the app's layer names too, goes as one quoted word.\n"
	"Ctrl-C, --duration, a device that goes away or adb dying all stop it the\n"
	"same way: nothing captured is lost, and tracing is switched off (waiting for the\n"
	"device to come back if it went away). As it ends, every session gets report.html\n"
	"(as 'gfxstat report'), and with --save it is stored in the history (--db, --label).\n"
	"\n"
	"--repeat N -- CMD [ARG...] runs CMD on the host (no shell) N times, each iteration a\n"
	"session folder iter-01, iter-02... of one run folder (-o DIR, or a new\n"
	"gfxstat-run-SERIAL-YYYYmmddTHHMMSSZ): --before, the capture starts, CMD runs (its\n"
	"output goes to the iteration's command.log), the capture stops --settle SEC after CMD\n"
	"exits, --after. iteration.json holds the command, its exit status and times, and\n"
	"\"failed\":true when CMD, --before or the capture failed: such an iteration is kept\n"
	"and marked, and 'gfxstat compare' leaves it out. run.json lists the iterations.\n"
	"-o DIR holding a run is replaced (--overwrite) only once an iteration captured.\n"
	"\n"
	"--on-device pushes the phone build (make android) to " DEV_BIN ", starts it\n"
	"detached with --local, and returns: the capture survives unplugging the cable, like\n"
	"android_FPS_frome_GFX's gfx.sh. 'gfxstat stop' ends it, 'gfxstat pull' fetches the\n"
	"session from " DEV_SESSIONS ". The phone's recorder gets --source, --app,\n"
	"--categories, --duration, --poll-ms and --context-ms; auto picks trace, latency,\n"
	"gfxinfo or pageflip there (Perfetto's trace is pulled by a host: --source perfetto,\n"
	"-o, --save and --all do not go with --on-device). GFXSTAT_TRACEFS overrides where\n"
	"--local finds trace_pipe.\n"
	"\n"
	"Exit status: 0 stopped by Ctrl-C or --duration, 2 usage (or -o DIR holds a session,\n"
	"or --app/--categories outside their grammar), 3 no frames captured (nor page-flip\n"
	"samples), 4 the device or adb failed: no device, unauthorized, offline, no USB\n"
	"permission, no such app or process, permission denied on the device, a source it\n"
	"cannot give, the device went away (what was captured is still saved), 5 the session,\n"
	"its report or its history entry could not be written. -q hides progress, never why a\n"
	"run failed. --repeat: the first failing capture's status (a failing CMD is marked,\n"
	"exit 0).\n";

static const struct cli_cmd record_cmd = {
	"gfxstat record",
	"gfxstat record [-s SERIAL | --all] [--duration SEC] [--app PKG] [--source NAME]\n"
	"                      [-o DIR [--overwrite]] [--categories LIST] [--context-ms MS]\n"
	"                      [--screenshots SEC]\n"
	"                      [--adb PATH] [-q]\n"
	"                      [--save [--db PATH|URL] [--label TEXT]]\n"
	"       gfxstat record --repeat N [--settle SEC] [--before CMD] [--after CMD] [options]\n"
	"                      -- CMD [ARG...]",
	"Measure a phone over adb, live, from the best source it allows.",
	record_details,
	record_opts,
};

/* The phone build for @abi, next to this binary as `make android` leaves it. */
static int device_binary(const char *abi, char *out, size_t cap)
{
	char self[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *arch = strstr(abi, "arm64") ? "arm64" : strstr(abi, "armeabi") ? "armv7" : NULL;
	char *slash;

	if (n <= 0 || !arch)
		return -1;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	/* build/gfxstat -> build-android/<arch>/gfxstat */
	snprintf(out, cap, "%s/../build-android/%s/gfxstat", self, arch);
	return access(out, R_OK) ? -1 : 0;
}

static int launch_on_device(const struct adb *a, const struct rec_opts *o)
{
	struct gfxstat_adb_transport t;
	struct gfxstat_phone_opts po;
	char abi[64], bin[600], name[128];
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	adb_transport(a, &t);
	if (gfxstat_phone_abi(&t, abi, sizeof(abi))) {
		cli_error("the device does not answer");
		return CLI_DEVICE;
	}
	if (o->device_binary)
		snprintf(bin, sizeof(bin), "%s", o->device_binary);
	else if (device_binary(abi, bin, sizeof(bin))) {
		cli_error("no gfxstat build for '%s' next to this binary: run 'make android' (or give "
			  "--device-binary PATH)", abi);
		return CLI_USAGE;
	}
	gmtime_r(&now, &tm);
	snprintf(name, sizeof(name), "gfxstat-%04d%02d%02dT%02d%02d%02dZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	po.source = o->source;
	po.app = o->app;
	po.categories = o->categories;
	po.duration_s = o->duration;
	po.poll_ms = o->poll_ms;
	po.context_ms = o->context_ms;
	rc = gfxstat_phone_launch(&t, bin, name, &po);
	if (rc == GFXSTAT_CAP_E_BAD_OPTION) {
		/* rec_opt checked --app and --categories: only the binary's path is left */
		cli_error("cannot build the phone's command line (a name outside its grammar)");
		return CLI_USAGE;
	}
	if (rc) {
		cli_error("cannot push '%s' to " DEV_BIN " or start it there", bin);
		return CLI_DEVICE;
	}
	printf("recording on the phone in " DEV_SESSIONS "/%s\n"
	       "unplugging is fine; 'gfxstat stop' ends it, 'gfxstat pull %s' fetches it\n",
	       name, name);
	return CLI_OK;
}

/*
 * --on-device: the phone's recorder runs --local with --source, --app, --categories,
 * --duration and --poll-ms; what it cannot honour is refused here, before the phone is
 * touched. Return: CLI_OK, or CLI_USAGE after saying why.
 */
static int on_device_check(const struct rec_opts *o)
{
	const char *opt = o->dir ? "-o" : o->overwrite ? "--overwrite" :
			  cmd_record_store.save ? "--save" : o->all ? "--all" : NULL;

	if (o->source == GFXSTAT_CAPTURE_PERFETTO) {
		cli_error("--source perfetto does not go with --%s: Perfetto's trace is pulled by "
			  "this computer at the end; record it without --%s", o->local ? "local" :
			  "on-device", o->local ? "local" : "on-device");
		return CLI_USAGE;
	}
	if (o->local || !opt)
		return CLI_OK;
	if (!strcmp(opt, "--all"))
		cli_error("--on-device starts one phone's recorder: choose the phone with -s SERIAL");
	else
		cli_error("%s does not go with --on-device: the session stays on the phone until "
			  "'gfxstat pull [-o DIR]' fetches it", opt);
	return CLI_USAGE;
}

/* One device's recording with the options; @replace: -o DIR's session may be replaced. */
static int record_device(const struct rec_opts *o, const char *serial, const char *dir,
			 int replace, const char *prefix, const struct rec_hook *hook)
{
	struct rec *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return CLI_INPUT;
	adb_init(&r->a, cmd_record_adb_path, serial);
	adb_transport(&r->a, &r->t);
	r->co.want = o->source;
	r->co.serial = serial;
	r->co.app = o->app;
	r->co.categories = o->categories;
	r->co.duration_ns = (int64_t)(o->duration * 1e9);
	r->co.reconnect_s = (int)o->reconnect;
	r->co.poll_ms = o->poll_ms;
	r->co.context_ms = o->context_ms;
	r->screens_s = o->screenshots;
	r->dir = dir;
	r->replace = replace;
	r->prefix = prefix;
	r->tty = !prefix && isatty(1);
	if (hook)
		r->hook = *hook;
	rc = cmd_record_one(r);
	free(r);
	return rc;
}

/* One iteration of record --repeat (cmd_record_repeat.c). */
static int record_iteration(const void *o, const char *serial, const char *dir,
			    const struct rec_hook *hook)
{
	/* an iteration's folder is new and empty: nothing to replace */
	return record_device(o, serial, dir, 0, NULL, hook);
}

/* On the phone itself (--local): no adb, trace_pipe read directly. */
static int record_local(const struct rec_opts *o)
{
	struct rec *r = calloc(1, sizeof(*r));
	const char *tfs = getenv("GFXSTAT_TRACEFS");
	int rc;

	if (!r)
		return CLI_INPUT;
	/* detached from adb's session: unplugging the cable must not reach us */
	if (o->pid_file)
		setsid();
	adb_local_transport(&r->t);
	r->co.want = o->source;
	r->co.serial = "local";
	r->co.local = 1;
	r->co.tracefs = tfs && *tfs ? tfs : NULL;
	r->co.app = o->app;
	r->co.categories = o->categories;
	r->co.duration_ns = (int64_t)(o->duration * 1e9);
	r->co.poll_ms = o->poll_ms;
	r->co.context_ms = o->context_ms;
	r->dir = o->dir;
	r->replace = o->overwrite;
	r->pid_file = o->pid_file;
	r->tty = isatty(1);
	rc = cmd_record_one(r);
	free(r);
	return rc;
}

/* --all: one process per device, in parallel; plain lines prefixed with the serial. */
static int record_all(const struct rec_opts *o, const struct gfxstat_device_entry *devs, int n)
{
	pid_t pids[GFXSTAT_DEVICES_MAX];
	char dir[GFXSTAT_DEVICES_MAX][512];
	int i, np = 0, rc = CLI_OK;

	for (i = 0; i < n && o->dir; i++) {
		if ((size_t)snprintf(dir[i], sizeof(dir[i]), "%s/%.128s", o->dir, devs[i].serial) >=
		    sizeof(dir[i])) {
			cli_error("folder name too long: '%s'", o->dir);
			return CLI_USAGE;
		}
		if (devs[i].state == GFXSTAT_ADB_DEVICE &&
		    (rc = cmd_record_dir_check(dir[i], o->overwrite)))
			return rc;
	}
	for (i = 0; i < n; i++) {
		pid_t pid;

		if (devs[i].state != GFXSTAT_ADB_DEVICE)
			continue;
		pid = fork();
		if (pid == 0)
			_exit(record_device(o, devs[i].serial, o->dir ? dir[i] : NULL,
					    o->overwrite, devs[i].serial, NULL));
		if (pid > 0)
			pids[np++] = pid;
	}
	for (i = 0; i < np; i++) {
		int st;

		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(st) && WEXITSTATUS(st) && !rc)
			rc = WEXITSTATUS(st);
	}
	return rc;
}

/* The device to record: -s SERIAL, else the only usable one. NULL after saying why. */
static const char *pick_device(const struct rec_opts *o, const struct gfxstat_device_entry *devs,
			       int n, int *rc)
{
	int i, ready = 0, pick = -1;

	*rc = CLI_DEVICE;
	for (i = 0; i < n; i++) {
		if (o->serial && !strcmp(devs[i].serial, o->serial)) {
			if (devs[i].state != GFXSTAT_ADB_DEVICE) {
				cmd_record_state_error(&devs[i]);
				return NULL;
			}
			return devs[i].serial;
		}
		if (devs[i].state == GFXSTAT_ADB_DEVICE && !ready++)
			pick = i;
	}
	if (o->serial) {
		cli_error("no device '%s' attached ('gfxstat devices' lists them)", o->serial);
		return NULL;
	}
	if (ready == 1 && !o->all)
		return devs[pick].serial;
	if (ready > 1 && !o->all) {
		cli_error("%d devices attached: choose one with -s SERIAL, or --all", ready);
		*rc = CLI_USAGE;
		return NULL;
	}
	if (ready)
		return "";
	/* none usable: say why for each, as adb sees it */
	if (!n)
		cli_error("no device attached: plug one in and enable USB debugging");
	for (i = 0; i < n; i++)
		cmd_record_state_error(&devs[i]);
	return NULL;
}

int cmd_record(int argc, char **argv)
{
	static struct gfxstat_device_entry devs[GFXSTAT_DEVICES_MAX];
	struct gfxstat_adb_transport t;
	struct rec_opts o;
	struct adb a;
	const char *serial;
	int first, n, rc;

	memset(&o, 0, sizeof(o));
	o.categories = "gfx view input";
	o.reconnect = 10;
	o.context_ms = GFXSTAT_CONTEXT_MS;
	o.rep.settle = 1.0;
	first = cli_parse(&record_cmd, argc, argv, rec_opt, &o);
	if (first == -2)
		return CLI_OK;
	if (first < 0)
		return CLI_USAGE;
	if (first < argc && !o.rep.n) {
		cli_error("unexpected argument '%s'", argv[first]);
		return CLI_USAGE;
	}
	if (o.rep.n && cmd_record_repeat_check(&o.rep, argv + first, argc - first,
						o.all || o.local || o.on_device))
		return CLI_USAGE;
	if ((o.on_device || o.local) && (rc = on_device_check(&o)))
		return rc;
	if ((o.on_device || o.local) && o.screenshots > 0) {
		/* the phone's recorder has no adb to run screencap through */
		cli_error("--screenshots does not go with --%s: record from this computer to get "
			  "them", o.local ? "local" : "on-device");
		return CLI_USAGE;
	}
	/* a session already in -o DIR is refused before the device is touched */
	if (o.dir && !o.all && (rc = cmd_record_dir_check(o.dir, o.overwrite)))
		return rc;
	cli_catch_signals();
	signal(SIGPIPE, SIG_IGN);
	if (o.local)
		return record_local(&o);
	adb_init(&a, cmd_record_adb_path, NULL);
	adb_transport(&a, &t);
	n = gfxstat_device_list(&t, devs, GFXSTAT_DEVICES_MAX);
	if (n < 0) {
		cli_error("cannot run '%s devices': is adb installed? (Debian: apt-get install adb)",
			  a.path);
		return CLI_DEVICE;
	}
	serial = pick_device(&o, devs, n, &rc);
	if (!serial)
		return rc;
	if (o.on_device) {
		adb_init(&a, cmd_record_adb_path, *serial ? serial : NULL);
		return launch_on_device(&a, &o);
	}
	/* (record --repeat hooks in here: cmd_record_repeat.c) */
	if (o.rep.n)
		return cmd_record_repeat(&o.rep, serial, o.dir, o.overwrite, record_iteration, &o);
	if (o.all)
		return record_all(&o, devs, n);
	return record_device(&o, serial, o.dir, o.overwrite, NULL, NULL);
}
