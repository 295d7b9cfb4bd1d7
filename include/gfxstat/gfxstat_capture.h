/* SPDX-License-Identifier: MIT */
/*
 * Live capture from an Android device: probing it, choosing the best frame source it allows
 * (and falling back when that source gives nothing), streaming trace_pipe, running Perfetto,
 * polling `dumpsys SurfaceFlinger --latency`, `dumpsys gfxinfo framestats` and the display's
 * page-flip counter, switching tracing off at the end, and the phone-side recorder's launch,
 * stop and pull.
 *
 * The library never forks, prints or exits: it reaches the device only through a struct
 * gfxstat_adb_transport the caller provides (the CLI runs the real `adb` client with an
 * argument vector; on the phone itself, `sh -c` and the files). Frames of trace and Perfetto
 * captures go through the one entry point (gfxstat_source.h), as if the raw capture were read
 * from a file; every raw byte is handed to the caller to keep.
 *
 * Ownership: gfxstat_capture_new() pairs with gfxstat_capture_free(), which accepts NULL;
 * the options' strings and the transport must outlive the capture. Pointers handed to sink
 * callbacks are valid only during the callback.
 */
#ifndef GFXSTAT_CAPTURE_H
#define GFXSTAT_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "gfxstat.h"
#include "gfxstat_device.h"
#include "gfxstat_source.h"

/* ---------------------------------------------------------------------------------------- */
/* The transport                                                                             */

/*
 * How the library reaches a device. Every @args is what follows `adb [-s SERIAL]`, NULL
 * terminated ({"shell", "getprop ro.product.model", NULL}, {"exec-out", "cat", PATH, NULL},
 * {"push", LOCAL, REMOTE, NULL}, {"pull", REMOTE, LOCAL, NULL}, {"wait-for-device", NULL}).
 * adb joins the words after "shell" and "exec-out" with spaces and the device's shell reads
 * the line, so the library writes them as shell text: every string it did not write itself
 * (a layer name, a package, a path, a category) is one gfxstat_shell_quote() word. push and
 * pull take their paths as they are (no shell).
 */
struct gfxstat_adb_transport {
	/* Run it; its standard output into @out (at most @cap - 1 bytes, NUL-terminated; @out
	 * may be NULL). @timeout_s 0: the transport's default. Return: the exit status
	 * (0-255), or -1 when it could not start or ran over the time. */
	int (*run)(void *ctx, const char *const *args, char *out, size_t cap, int timeout_s);
	/* Start it with its standard output piped back; @in (@in_n bytes) is written to its
	 * standard input, which is then closed (NULL: nothing). Return: a handle, or NULL. */
	void *(*stream_start)(void *ctx, const char *const *args, const void *in, size_t in_n);
	/* Read what is there, waiting at most @timeout_ms. Return: bytes read (> 0), 0 when
	 * nothing came in time, -1 when the stream ended. */
	long (*stream_read)(void *stream, void *buf, size_t cap, int timeout_ms);
	/* End it (stopped if still running) and free the handle. Return: its exit status. */
	int (*stream_stop)(void *stream);
	void *ctx;
};

/* ---------------------------------------------------------------------------------------- */
/* Words for the device's shell                                                              */

/**
 * gfxstat_shell_quote() - @s (@n bytes) as one word of a command line for the device's shell
 * (POSIX sh; Android's mksh and toybox sh read single quotes the same way)
 * @s: any bytes but NUL
 * @n: its length
 * @out: the word, NUL-terminated: @s itself when it is not empty and every byte is one of
 *	 A-Z a-z 0-9 _ - . / : , + @ %; else @s between single quotes with each ' written '\''
 * @cap: room in @out (4 * @n + 3 is always enough)
 * @len: set to the word's length without the NUL (0 on error); may be NULL
 *
 * The shell reads the word back as exactly @s: nothing between single quotes is special.
 * Return: 0; GFXSTAT_E_INVAL when @s holds a NUL byte (no word can carry one: refused, never
 * cut); GFXSTAT_E_LIMIT when @cap is too small. On error @out is "" (when @cap > 0).
 */
int gfxstat_shell_quote(const char *s, size_t n, char *out, size_t cap, size_t *len);

/**
 * gfxstat_shell_unquote() - the bytes of a word gfxstat_shell_quote() wrote, for a caller that
 * is itself the device's side (the local transport reading `exec-out cat WORD`)
 * @w: the word: bare bytes of the set above, '...' runs and \' only, no NUL (nothing else
 *     a shell reads is accepted)
 * @n: its length
 * @out, @cap, @len: as gfxstat_shell_quote()
 * Return: 0; GFXSTAT_E_INVAL when @w is not such a word; GFXSTAT_E_LIMIT when @cap is too
 * small.
 */
int gfxstat_shell_unquote(const char *w, size_t n, char *out, size_t cap, size_t *len);

/*
 * gfxstat_capture_app_valid() - whether @app is a package or process name as Android writes
 * them: 1 to 255 letters, digits, '_', '.' and ':' ("com.example.app:remote").
 */
int gfxstat_capture_app_valid(const char *app);

/*
 * gfxstat_capture_categories_valid() - whether @list is atrace category names (letters,
 * digits, '_') separated by spaces or commas, at least one and at most
 * GFXSTAT_CATEGORIES_MAX.
 */
int gfxstat_capture_categories_valid(const char *list);
#define GFXSTAT_CATEGORIES_MAX 64

/* ---------------------------------------------------------------------------------------- */
/* Devices                                                                                   */

/* Errors of this header: negative, apart from gfxstat_err.h's and errno. */
enum gfxstat_capture_err {
	GFXSTAT_CAP_OK = 0,
	GFXSTAT_CAP_E_NO_ADB = -200,     /* the adb client could not be run */
	GFXSTAT_CAP_E_NO_DEVICE,         /* no device attached, or not the one asked for */
	GFXSTAT_CAP_E_UNAUTHORIZED,      /* the phone has not accepted this computer's key */
	GFXSTAT_CAP_E_OFFLINE,           /* adb sees the device but cannot talk to it */
	GFXSTAT_CAP_E_NO_PERMISSIONS,    /* the host may not open the USB device (udev) */
	GFXSTAT_CAP_E_STATE,             /* another state: recovery, sideload, bootloader... */
	GFXSTAT_CAP_E_NOT_ANSWERING,     /* the device's shell does not answer */
	GFXSTAT_CAP_E_PERMISSION,        /* the device refused: trace_pipe, atrace, 1013 */
	GFXSTAT_CAP_E_NO_PROCESS,        /* no such app or process on the device */
	GFXSTAT_CAP_E_NO_LAYER,          /* no SurfaceFlinger layer for the app */
	GFXSTAT_CAP_E_NO_COUNTER,        /* no usable page-flip counter */
	GFXSTAT_CAP_E_NEED_APP,          /* the source needs an app and none was found */
	GFXSTAT_CAP_E_LOST,              /* the device or adb went away during the capture */
	GFXSTAT_CAP_E_TRACING_ON,        /* tracing could not be switched off */
	GFXSTAT_CAP_E_FAILED,            /* a device command failed (said why) */
	GFXSTAT_CAP_E_NOMEM,
	GFXSTAT_CAP_E_NO_SOURCE,         /* the device cannot give the source asked for */
	GFXSTAT_CAP_E_BAD_OPTION,        /* an app or category list outside its grammar */
};

/* A short text for a GFXSTAT_CAP_E_* code (the log message says more). */
const char *gfxstat_capture_strerror(int err);

/* An adb state as a GFXSTAT_CAP_E_* code: 0 for a usable "device". */
int gfxstat_capture_state_err(enum gfxstat_adb_state state);

#define GFXSTAT_DEVICES_MAX 64

/* One device of `adb devices -l`, copied. */
struct gfxstat_device_entry {
	char serial[128];
	char state_text[128];
	enum gfxstat_adb_state state;
	char model[64];      /* from `adb devices -l`, "" when not printed */
};

/**
 * gfxstat_device_list() - the devices adb knows
 * @t: the transport (without a serial)
 * @out: filled with at most @max entries
 * @max: room in @out
 * Return: the number of devices (0 or more), or GFXSTAT_CAP_E_NO_ADB.
 */
int gfxstat_device_list(const struct gfxstat_adb_transport *t, struct gfxstat_device_entry *out,
			int max);

/* What a device can give, as probed. Strings are "" when unknown. */
struct gfxstat_device_info {
	char serial[128];
	char model[128], release[32];
	int sdk;
	char tracefs[512];    /* the tracefs folder, "" when trace_pipe is not reachable */
	int root;
	int perfetto;         /* a perfetto binary is there */
	int64_t period_ns;    /* the --latency refresh period, 0 when unknown */
	char modes[128];      /* refresh rates in Hz, "60 90 120" */
	char focus[256];      /* the focused "pkg/full.Activity" */
	int tracing_on;       /* 1, 0, or -1 unknown */
	/* The app measured, set by gfxstat_capture_start() (gfxstat_device_probe() leaves
	 * them alone): --app, else the focused app's package, "" when none; and its version
	 * from one `dumpsys package PKG` at the start ("" and -1 when unknown). */
	char app[256];
	char app_version_name[128];
	int64_t app_version_code;
};

/**
 * gfxstat_device_probe() - ask the device what it can give
 * @t: the transport to that device
 * @tracefs: the tracefs folder to use instead of probing for it, or NULL
 * @d: filled (the caller sets d->serial)
 * Return: 0, or GFXSTAT_CAP_E_NOT_ANSWERING.
 */
int gfxstat_device_probe(const struct gfxstat_adb_transport *t, const char *tracefs,
			 struct gfxstat_device_info *d);

/* ---------------------------------------------------------------------------------------- */
/* A capture                                                                                 */

enum gfxstat_capture_source {
	GFXSTAT_CAPTURE_AUTO = 0,
	GFXSTAT_CAPTURE_TRACE,     /* atrace streamed from trace_pipe */
	GFXSTAT_CAPTURE_PERFETTO,  /* Perfetto with FrameTimeline, pulled at the end */
	GFXSTAT_CAPTURE_LATENCY,   /* dumpsys SurfaceFlinger --latency <layer>, polled */
	GFXSTAT_CAPTURE_GFXINFO,   /* dumpsys gfxinfo <pkg> framestats, polled */
	GFXSTAT_CAPTURE_PAGEFLIP,  /* service call SurfaceFlinger 1013, polled: display only */
};

/* "auto", "trace", "perfetto", "latency", "gfxinfo", "pageflip" */
const char *gfxstat_capture_source_name(enum gfxstat_capture_source s);
/* Return: 0 and @out set, or GFXSTAT_E_INVAL for an unknown name. */
int gfxstat_capture_source_parse(const char *name, enum gfxstat_capture_source *out);

enum gfxstat_capture_level { GFXSTAT_LOG_INFO, GFXSTAT_LOG_WARN, GFXSTAT_LOG_ERROR };

/* One poll of the page-flip counter. */
enum gfxstat_pageflip_note {
	GFXSTAT_PF_FIRST, GFXSTAT_PF_OK, GFXSTAT_PF_WRAP, GFXSTAT_PF_RESET, GFXSTAT_PF_TOO_FAST,
	GFXSTAT_PF_BAD_TIME,
};

struct gfxstat_pageflip_sample {
	int64_t time_ns;      /* since the capture started, host clock (the read's midpoint) */
	uint32_t count;
	enum gfxstat_pageflip_note note;
	uint32_t flips;       /* counted in the interval (OK, WRAP, TOO_FAST) */
	int64_t interval_ns;  /* since the previous read; 0 for FIRST */
	int64_t span_ns;      /* the time the rate is over (OK, WRAP) */
	uint32_t fps_mhz;     /* OK, WRAP: the rate, milli-Hz */
};

/* The page-flip source's totals. */
struct gfxstat_pageflip_totals {
	uint32_t max_mhz;     /* the highest refresh rate, 0 unknown */
	uint64_t samples, intervals, flips, gaps, too_fast, failed;
	int64_t span_ns;
	long poll_ms;
};

/* ---------------------------------------------------------------------------------------- */
/* The device's context, sampled beside the frames                                           */

#define GFXSTAT_CONTEXT_NONE INT64_MIN  /* a series with no value in a sample */
#define GFXSTAT_CONTEXT_MAX 192         /* series kept; more CPUs or zones are left out, said */
#define GFXSTAT_CONTEXT_MS 1000         /* the default period */

/*
 * What a series measures, and its unit. Loads are permille (the CSV's percent with one
 * decimal); the others are the device's integers in the unit named.
 */
enum gfxstat_context_kind {
	GFXSTAT_CTX_CPU_LOAD,        /* permille busy of busy + idle, /proc/stat deltas; index:
				      * the CPU, -1 for all */
	GFXSTAT_CTX_CPU_FREQ,        /* kHz, cpuN/cpufreq/scaling_cur_freq */
	GFXSTAT_CTX_GPU_FREQ,        /* kHz, the kernel's Hz / 1000 (kgsl gpuclk, Mali or
				      * devfreq cur_freq: the path is the series') */
	GFXSTAT_CTX_GPU_BUSY,        /* permille, kgsl gpubusy's last window */
	GFXSTAT_CTX_THERMAL,         /* millidegrees C as the zone reports it; index: the zone */
	GFXSTAT_CTX_BATTERY_CURRENT, /* uA, current_now as the device reports it: Android's
				      * convention (BatteryManager) is < 0 while discharging,
				      * which most devices follow; some report > 0 */
	GFXSTAT_CTX_BATTERY_VOLTAGE, /* uV, voltage_now */
	GFXSTAT_CTX_BATTERY_TEMP,    /* tenths of a degree C, temp */
	GFXSTAT_CTX_BATTERY_LEVEL,   /* percent, capacity */
	GFXSTAT_CTX_BATTERY_POWER,   /* mW = voltage x current of the same sample, with the
				      * current's sign: < 0 drawn from the battery (Android's
				      * convention) */
	GFXSTAT_CTX_APP_CPU,         /* permille of one CPU: the app's utime + stime deltas
				      * (USER_HZ 100, as on every Android) over the uptime's */
	GFXSTAT_CTX_APP_RSS,         /* kB, VmRSS of /proc/PID/status */
};

/* One series: a column of context.csv, with its summary so far. */
struct gfxstat_context_series {
	enum gfxstat_context_kind kind;
	char name[96];        /* "cpu_load_pct", "cpu3_freq_khz", "thermal_mC.skin-therm": the
			       * device's names with bytes outside [A-Za-z0-9._+-] made '_' */
	const char *unit;     /* "permille", "kHz", "mC", "uA", "uV", "dC", "%", "mW", "kB" */
	char path[192];       /* where it is read ("/sys/class/kgsl/kgsl-3d0/gpuclk") */
	int32_t index;        /* the CPU or zone, -1 */
	uint64_t n;           /* samples with a value */
	int64_t min, max, sum;
};

/* A reading the device refused at the first sample (its series is left out). */
struct gfxstat_context_refusal {
	char what[96];        /* the series ("thermal_mC.skin-therm"), or the group ("thermal") */
	char path[192];
	char reason[96];      /* the device's words: "Permission denied" */
};

/* The context so far: what gfxstat_capture_context() returns. */
struct gfxstat_context_info {
	long period_ms;                /* 0: not sampled */
	uint64_t samples, failed;      /* samples read; reads that got no answer */
	size_t nseries;                /* fixed by the first sample */
	const struct gfxstat_context_series *series;
	const int64_t *last;           /* the newest sample's values (nseries) */
	int64_t last_ns;               /* its time, as gfxstat_context_sample's; 0: none */
	size_t nrefused;
	const struct gfxstat_context_refusal *refused;
};

/* One sample: a row of context.csv. */
struct gfxstat_context_sample {
	int64_t time_ns;      /* since the capture started, host clock (the read's midpoint) */
	int64_t uptime_ns;    /* the device's /proc/uptime, or GFXSTAT_CONTEXT_NONE */
	size_t n;             /* the series, as gfxstat_capture_context() lists them */
	const int64_t *v;     /* v[i] of series i, or GFXSTAT_CONTEXT_NONE */
};

struct gfxstat_capture_sink {
	gfxstat_frame_fn frame;  /* every frame of the capture, in order */
	/* Raw bytes, to keep as @name ("trace.txt.gz", "latency.txt.gz", "gfxinfo.txt.gz",
	 * "pageflip.txt.gz", "trace.pftrace"); non-zero: writing failed (an errno value). */
	int (*raw)(void *user, const char *name, const void *buf, size_t n);
	void (*log)(void *user, enum gfxstat_capture_level level, const char *msg);
	/* Called every 50-200 ms while capturing: the live view, flushing. */
	void (*tick)(void *user);
	/* Non-NULL: stop now, for the reason returned (a signal's name, "duration reached"). */
	const char *(*stop)(void *user);
	/* The source was chosen, or changed after a fallback. */
	void (*source)(void *user);
	void (*pageflip)(void *user, const struct gfxstat_pageflip_sample *s);
	void *user;
	/* A context sample (after the user pointer: older initializers leave it NULL). */
	void (*context)(void *user, const struct gfxstat_context_sample *s);
};

struct gfxstat_capture_opts {
	enum gfxstat_capture_source want;
	const char *serial;        /* for messages */
	const char *app;           /* package or process (gfxstat_capture_app_valid()), or
				    * NULL for the focused one */
	const char *categories;    /* atrace categories, spaces or commas between
				    * (gfxstat_capture_categories_valid()); NULL: "gfx view input" */
	const char *tracefs;       /* use this tracefs instead of probing (on the phone) */
	int local;                 /* on the phone: no adb, no waiting for a lost device */
	int64_t duration_ns;       /* Perfetto's length (10 s when 0) */
	int reconnect_s;           /* how long to wait for a lost device at the end */
	long poll_ms;              /* the page-flip poll period; 0: 1000 */
	long context_ms;           /* sample the device's context this often; 0: not at all.
				    * Also adds the thread-state atrace categories (sched freq
				    * idle binder_driver) the device lists. */
};

struct gfxstat_capture;

struct gfxstat_capture *gfxstat_capture_new(const struct gfxstat_adb_transport *t,
					    const struct gfxstat_capture_opts *o,
					    const struct gfxstat_capture_sink *sink);
void gfxstat_capture_free(struct gfxstat_capture *c);

/**
 * gfxstat_capture_start() - probe the device, read the app's version when there is an app
 * (an unknown package or no answer leaves it unknown, never an error), and choose the
 * source (sink->source is called). A source asked for that the device cannot give is
 * refused here, before anything starts: the message says what it can give.
 * Return: 0, or a GFXSTAT_CAP_E_* code after a GFXSTAT_LOG_ERROR message (BAD_OPTION: the
 * app or categories outside their grammar, nothing sent to the device).
 */
int gfxstat_capture_start(struct gfxstat_capture *c);

/**
 * gfxstat_capture_run() - capture until sink->stop, the device going away or the source
 * ending; fall back to the next source when one gives nothing; flush every parser and
 * switch the device's tracing off (waiting for a lost device up to reconnect_s)
 * Return: 0, or a GFXSTAT_CAP_E_* code (what was captured is still delivered).
 */
int gfxstat_capture_run(struct gfxstat_capture *c);

const struct gfxstat_device_info *gfxstat_capture_device(const struct gfxstat_capture *c);
enum gfxstat_capture_source gfxstat_capture_source(const struct gfxstat_capture *c);
/* Why this source: "trace_pipe is reachable: atrace streamed live" */
const char *gfxstat_capture_reason(const struct gfxstat_capture *c);
/* What stopped it, or NULL while running. */
const char *gfxstat_capture_stop_reason(const struct gfxstat_capture *c);
uint64_t gfxstat_capture_frames(const struct gfxstat_capture *c);
const struct gfxstat_pageflip_totals *gfxstat_capture_pageflip(const struct gfxstat_capture *c);
/* The entry point's summary of the last trace or Perfetto input, or NULL. */
const struct gfxstat_source_summary *gfxstat_capture_summary(const struct gfxstat_capture *c);

/*
 * gfxstat_capture_context() - the device's context sampled so far (opts.context_ms): the
 * series, fixed by the first sample that answered, with their summaries, the newest values
 * and the readings the device refused. Valid until the next sink call or
 * gfxstat_capture_free().
 */
const struct gfxstat_context_info *gfxstat_capture_context(const struct gfxstat_capture *c);

/* ---------------------------------------------------------------------------------------- */
/* The recorder on the phone (`record --on-device`, `stop`, `pull`)                          */

#define GFXSTAT_PHONE_DIR "/data/local/tmp"
#define GFXSTAT_PHONE_BIN GFXSTAT_PHONE_DIR "/gfxstat"
#define GFXSTAT_PHONE_SESSIONS GFXSTAT_PHONE_DIR "/gfxstat-sessions"
#define GFXSTAT_PHONE_PID GFXSTAT_PHONE_DIR "/gfxstat.pid"

/**
 * gfxstat_phone_abi() - the device's ABI ("arm64-v8a") into @out
 * Return: 0, or GFXSTAT_CAP_E_NOT_ANSWERING.
 */
int gfxstat_phone_abi(const struct gfxstat_adb_transport *t, char *out, size_t cap);

/* What the phone's recorder is asked for (`record --local` options). */
struct gfxstat_phone_opts {
	enum gfxstat_capture_source source; /* AUTO: the best the phone allows, Perfetto aside */
	const char *app;                    /* NULL: the focused one */
	const char *categories;             /* NULL: "gfx view input" */
	double duration_s;                  /* 0: until stopped */
	long poll_ms;                       /* 0: the default */
	long context_ms;                    /* < 0 or GFXSTAT_CONTEXT_MS: the default; 0: off */
};

/**
 * gfxstat_phone_launch() - push @binary and start `record --local` detached on the phone,
 * writing the session GFXSTAT_PHONE_SESSIONS/@name (it survives unplugging the cable)
 * @o: the options passed on, each a quoted word of the phone's command line
 * Return: 0; GFXSTAT_CAP_E_BAD_OPTION when @name, the app or the categories are outside their
 * grammar (nothing is pushed); GFXSTAT_CAP_E_FAILED (push or start failed).
 */
int gfxstat_phone_launch(const struct gfxstat_adb_transport *t, const char *binary,
			 const char *name, const struct gfxstat_phone_opts *o);

/**
 * gfxstat_phone_stop() - signal the phone's recorder and wait (15 s) until it has flushed
 * its session and switched tracing off
 * Return: 0; GFXSTAT_CAP_E_NO_PROCESS when nothing records; GFXSTAT_CAP_E_FAILED.
 */
int gfxstat_phone_stop(const struct gfxstat_adb_transport *t);

/**
 * gfxstat_phone_pull() - fetch session @name (the newest when NULL or "") into @dir
 * @got: set to the session's name
 * Return: 0; GFXSTAT_CAP_E_NO_PROCESS when there is no session; GFXSTAT_CAP_E_BAD_OPTION
 * when @name is not a plain file name ("." or "..", or with a '/'); GFXSTAT_CAP_E_FAILED.
 */
int gfxstat_phone_pull(const struct gfxstat_adb_transport *t, const char *name, const char *dir,
		       char *got, size_t cap);

#endif
