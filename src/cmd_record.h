/* SPDX-License-Identifier: MIT */
/* gfxstat record's pieces: the options (cmd_record.c), one device's session
 * (cmd_record_session.c), devices/stop/pull (cmd_record_devices.c). */
#ifndef CMD_RECORD_H
#define CMD_RECORD_H

#include <stdio.h>
#include <zlib.h>

#include "adb.h"
#include "cli.h"
#include "cli_live.h"
#include "cmd_record_context.h"
#include "cmd_record_pageflip.h"
#include "gfxstat/gfxstat_capture.h"
#include "gfxstat/gfxstat_screens.h"

/* A say in when a session stops (record --repeat: the command ended, plus the settle time). */
struct rec_hook {
	const char *(*stop)(void *user);  /* non-NULL: stop now, for that reason */
	void *user;
	/* Where the session will be once its run replaces the one there (record --repeat
	 * --overwrite), for the history; NULL: where it is written. */
	const char *final_path;
};

/* One device's recording: the capture (the library's) and its session folder. */
struct rec {
	struct adb a;
	struct gfxstat_adb_transport t;
	struct gfxstat_capture_opts co;
	struct gfxstat_capture *cap;
	const char *pid_file;
	const char *dir;      /* -o, or NULL for a fresh gfxstat-SERIAL-TIME; while a session
			       * is being replaced, the temporary folder inside final_dir */
	char dirbuf[512];
	int replace;          /* --overwrite: -o DIR's session may be replaced */
	/* The -o DIR whose session this one replaces once it holds a capture (NULL: none):
	 * written beside it until then, so a failed run leaves the old one as it was. */
	const char *final_dir;
	char tmpbuf[600];
	int said_error;       /* an error was printed: the reason of a failure is out */
	int tty, width;
	const char *prefix;   /* the serial, when several devices record at once */
	int ready;            /* the session folder exists and its files are open */
	/* outputs */
	char raw_name[32];
	gzFile rawz;
	FILE *rawf, *frames, *fps, *drop;
	struct cli_rowbuf rb;
	struct cmd_pageflip pf;
	struct cmd_context ctx;   /* context.csv */
	struct gfxstat_gfx_model *gfx;
	struct gfxstat_metrics *m;
	struct cli_live *live;
	double t0, next_view;
	int write_failed;
	struct rec_hook hook;  /* consulted before the signals; zero: none */
	/* --screenshots SEC (cmd_record_session.c): screens/ and screens.csv */
	double screens_s;              /* the period; 0: none */
	struct gfxstat_screens *shots;
	FILE *shots_csv;
	int64_t trace_off_ns;          /* trace clock - host clock, estimated from the frames */
	int have_off;
};

/* --save [--db PATH] [--label TEXT]: every session is stored in the history as it ends. */
struct cmd_record_store {
	int save;
	const char *db, *label;
};
extern struct cmd_record_store cmd_record_store;

/* record --repeat N [--settle SEC] [--before CMD] [--after CMD] -- CMD [ARG...] */
struct rec_repeat {
	long n;                 /* iterations; 0: a single recording */
	double settle;          /* seconds captured after the command exits */
	const char *before, *after; /* shell commands on the host, or NULL */
	char **cmd;             /* the command and its arguments (argv, no shell) */
	int ncmd;
};

/* One iteration's session: record @serial into @dir, asking @hook when to stop. */
typedef int (*rec_one_fn)(const void *opts, const char *serial, const char *dir,
			  const struct rec_hook *hook);

/*
 * cmd_record_repeat_check() - the usage checks of --repeat: a command, one device (@multi:
 * --all, --local or --on-device given)
 * Return: CLI_OK or CLI_USAGE after saying why.
 */
int cmd_record_repeat_check(struct rec_repeat *rp, char **cmd, int ncmd, int multi);

/*
 * cmd_record_repeat() - @rp->n iterations of @rp->cmd, each its own session folder
 * (iter-01, ...) in the run folder @dir (NULL: a fresh gfxstat-run-SERIAL-UTCTIME) with its
 * iteration.json, and run.json listing them; a failing iteration is kept and marked
 * Return: the first capture's failure as a CLI exit code, else CLI_OK.
 */
int cmd_record_repeat(const struct rec_repeat *rp, const char *serial, const char *dir,
		      int overwrite, rec_one_fn one, const void *opts);

/*
 * cmd_record_one() - record one device into its session folder, live
 * Return: a CLI exit code.
 */
int cmd_record_one(struct rec *r);

/*
 * cmd_record_dir_check() - refuse an output folder that holds a session already (exit 2,
 * saying what to do) unless @overwrite; nothing is removed (the session is replaced only
 * once the new one holds a capture: cmd_record_one())
 * Return: CLI_OK or CLI_USAGE.
 */
int cmd_record_dir_check(const char *dir, int overwrite);

/*
 * cmd_record_dir_clear() - remove the session files of @dir, so that no two sessions mix
 * Return: CLI_OK, or CLI_OUTPUT after saying which could not be removed.
 */
int cmd_record_dir_clear(const char *dir);

/*
 * cmd_record_report() - SESSION/report.html, also after a stop signal (which would end the
 * report's reading)
 * Return: CLI_OUTPUT when it could not be written; a capture the report cannot read (said
 * why) is not the session's failure: its files are all there.
 */
int cmd_record_report(const char *dir);

/* cmd_record_dir_captured() - whether the session in @dir holds a capture: a frame in
 * frames.csv or a sample in pageflip.csv. */
int cmd_record_dir_captured(const char *dir);

/* The CLI exit code of a GFXSTAT_CAP_E_* code. */
int cmd_record_exit(int cap_err);

/* The adb client named by --adb (NULL: $ADB, else adb). */
extern const char *cmd_record_adb_path;

/* Say why @e cannot be used, with what to do. Return: CLI_DEVICE. */
int cmd_record_state_error(const struct gfxstat_device_entry *e);

#endif
