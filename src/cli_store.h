/* SPDX-License-Identifier: MIT */
/*
 * The history store: every saved run and its per-app/layer metrics, in SQLite (a file) or
 * PostgreSQL (a postgres:// or postgresql:// URL), one schema and one set of queries.
 * Left out of the phone build: there every call fails with "not in this build".
 */
#ifndef CLI_STORE_H
#define CLI_STORE_H

#include <stddef.h>
#include <stdint.h>

struct cli_store;
struct gfxstat_layer_metrics;
struct gfxstat_metrics;

/* The schema version this build writes; older stores are migrated when opened. */
#define CLI_STORE_SCHEMA 2

/* What is known about one run; NULL fields are stored as NULL. */
struct cli_store_run {
	int64_t when_ns;          /* wall clock, ns since the epoch (0: now) */
	const char *device_serial, *device_model, *android, *refresh_modes;
	const char *app_version;  /* versionName (versionCode) when the recorder knows it */
	const char *app_package;  /* the package @app_version is of: only its rows get it (NULL:
				   * every row, as for a run of one app) */
	const char *label;        /* --label: build id, git sha, branch */
	const char *source;       /* trace, perfetto, latency, gfxinfo, or the input's format */
	const char *session_path; /* the session folder or input file */
	const char *kind;         /* "record", "analyze", "compare" */
};

/*
 * cli_store_default() - $XDG_DATA_HOME/gfxstat/history.db (else ~/.local/share/...), into
 * @buf; the folder is created. Return: @buf, or NULL after printing why.
 */
const char *cli_store_default(char *buf, size_t cap);

/*
 * cli_store_open() - open (creating and migrating) the store @db: a file path, a postgres://
 * or postgresql:// URL, or NULL for the default
 * Return: CLI_OK, or CLI_OUTPUT / CLI_USAGE after printing why.
 */
int cli_store_open(const char *db, struct cli_store **out);
void cli_store_close(struct cli_store *s);

/*
 * cli_store_redact() - @db as it may be printed or stored: the password of a postgres:// URL
 * (user:SECRET@host) and every password=VALUE (a URL's query, a keyword/value string) as ***
 * Return: @buf, truncated to @cap.
 */
const char *cli_store_redact(const char *db, char *buf, size_t cap);
/* "sqlite" or "postgresql" */
const char *cli_store_backend(const struct cli_store *s);

/*
 * cli_store_save() - one run and the metrics of @rows (layers and apps) in one transaction,
 * safe with other writers at once (SQLite WAL + busy timeout, PostgreSQL transactions)
 * Return: CLI_OK, or CLI_OUTPUT after printing why; *@run_id (may be NULL) gets the run's id.
 */
int cli_store_save(struct cli_store *s, const struct cli_store_run *run,
		   const struct gfxstat_layer_metrics *const *rows, size_t nrows, int64_t *run_id);

/* cli_store_save_all() - cli_store_save() of every layer and app of @m (analyze --save). */
int cli_store_save_all(struct cli_store *s, const struct cli_store_run *run,
		       const struct gfxstat_metrics *m, int64_t *run_id);

/*
 * cli_store_query() - run @sql (parameters $1..$n, each used once and in order) with text
 * @params, calling @row with each row's columns as text (NULL for SQL NULL)
 * Return: CLI_OK, or CLI_OUTPUT after printing why.
 */
int cli_store_query(struct cli_store *s, const char *sql, const char *const *params,
		    int nparams, int (*row)(void *user, int ncol, const char *const *col),
		    void *user);

#endif
