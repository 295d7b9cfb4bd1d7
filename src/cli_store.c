/* SPDX-License-Identifier: MIT */
/* The history store on SQLite or PostgreSQL: one schema, migrations, the same SQL for both. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_gate.h"
#include "cli_store.h"
#include "gfxstat/gfxstat.h"

const char *cli_store_default(char *buf, size_t cap)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int e;

	if (xdg && xdg[0] == '/')
		snprintf(buf, cap, "%s/gfxstat", xdg);
	else if (home && home[0])
		snprintf(buf, cap, "%s/.local/share/gfxstat", home);
	else {
		cli_error("no history store: neither XDG_DATA_HOME nor HOME is set; use --db PATH");
		return NULL;
	}
	e = cli_mkdir_p(buf);
	if (e) {
		cli_error("cannot create '%s': %s", buf, strerror(e));
		return NULL;
	}
	snprintf(buf + strlen(buf), cap - strlen(buf), "/history.db");
	return buf;
}

/* ---- passwords stay out of messages, logs and pages ------------------------------------ */

struct sink {
	char *p;
	size_t cap, n;
};

static void put(struct sink *o, const char *s, size_t n)
{
	size_t k = o->n + 1 < o->cap ? o->cap - o->n - 1 : 0;

	if (n > k)
		n = k;
	memcpy(o->p + o->n, s, n);
	o->n += n;
	o->p[o->n] = 0;
}

static int is_url(const char *db)
{
	return !strncmp(db, "postgres://", 11) || !strncmp(db, "postgresql://", 13);
}

/*
 * The end of the password=VALUE value at @v: in a URL's query up to '&' or '#'; in a
 * keyword/value conninfo a 'quoted string' (backslash escapes) or up to white space.
 */
static const char *value_end(const char *v, int url)
{
	if (url)
		return v + strcspn(v, "&#");
	if (*v == '\'') {
		for (v++; *v && *v != '\''; v++)
			if (*v == '\\' && v[1])
				v++;
		return *v ? v + 1 : v;
	}
	return v + strcspn(v, " \t\n\r\f\v");
}

/* The passwords @db holds, where they are in it (at most MAX_SECRETS). */
#define MAX_SECRETS 4
struct secrets {
	const char *p[MAX_SECRETS];
	size_t n[MAX_SECRETS], count;
};

static void secret(struct secrets *k, const char *p, const char *end)
{
	if (k && k->count < MAX_SECRETS && end > p) {
		k->p[k->count] = p;
		k->n[k->count++] = (size_t)(end - p);
	}
}

static void redact(const char *db, struct sink *o, struct secrets *k)
{
	const char *s = db, *q;
	int url = is_url(db);

	if (url) {
		/* postgresql://user:SECRET@host: the userinfo ends at the authority's last '@' */
		const char *auth = strstr(db, "://") + 3, *end = auth + strcspn(auth, "/?#"), *at;
		const char *colon;

		for (at = NULL, q = auth; q < end; q++)
			if (*q == '@')
				at = q;
		colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
		if (colon) {
			put(o, db, (size_t)(colon + 1 - db));
			put(o, "***", 3);
			secret(k, colon + 1, at);
			s = at;
		}
	}
	/* password=VALUE: a URL's query parameter, or a keyword of a keyword/value string */
	while ((q = strstr(s, "password")) != NULL) {
		const char *v = q + 8, *e;
		int word = q == db || strchr(url ? "?&" : " \t\n", q[-1]) != NULL;

		while (!url && (*v == ' ' || *v == '\t'))
			v++;
		if (!word || *v != '=') {
			put(o, s, (size_t)(q + 8 - s));
			s = q + 8;
			continue;
		}
		for (v++; !url && (*v == ' ' || *v == '\t'); v++)
			;
		put(o, s, (size_t)(v - s));
		put(o, "***", 3);
		e = value_end(v, url);
		if (*v == '\'' && !url)
			secret(k, v + 1, e > v + 1 && e[-1] == '\'' ? e - 1 : e);
		else
			secret(k, v, e);
		s = e;
	}
	put(o, s, strlen(s));
}

const char *cli_store_redact(const char *db, char *buf, size_t cap)
{
	struct sink o = { buf, cap, 0 };

	if (cap) {
		buf[0] = 0;
		redact(db, &o, NULL);
	}
	return buf;
}


#ifdef GFXSTAT_STORE
#include <sqlite3.h>

#include "cli_pq.h"

/* libpq, once a postgresql:// store was opened (cli_pq_load()) */
static const struct cli_pq *pq;

struct cli_store {
	sqlite3 *db;   /* one of the two */
	PGconn *pg;
	char name[512]; /* what --db named, its passwords as *** */
	char *conn;     /* what --db named: the passwords to keep out of the server's messages */
};

/* @msg (a libpq or SQLite message, which may quote the connection string) without the
 * passwords of @db, on one line. Return: @buf. */
static const char *scrub(const char *msg, const char *db, char *buf, size_t cap)
{
	char tmp[8];
	struct sink o = { tmp, sizeof(tmp), 0 }, out = { buf, cap, 0 };
	struct secrets k;
	size_t i;

	memset(&k, 0, sizeof(k));
	redact(db, &o, &k);
	buf[0] = 0;
	while (*msg) {
		/* (a password of 1 to 3 characters would blot out common words, and tells
		 * little: libpq does not quote passwords, this is for when it would) */
		for (i = 0; i < k.count; i++)
			if (k.n[i] >= 4 && !strncmp(msg, k.p[i], k.n[i]))
				break;
		if (i < k.count) {
			put(&out, "***", 3);
			msg += k.n[i];
		} else if (*msg == '\n') {
			/* libpq's message is lines ("\n\tIs the server running...?\n"): one line */
			msg += strspn(msg, "\n\t ");
			if (*msg)
				put(&out, " ", 1);
		} else {
			put(&out, msg++, 1);
		}
	}
	return buf;
}

/*
 * The migrations, oldest first; each brings the schema to version i + 1. Only the id column
 * differs between the backends (SQLite's rowid alias, PostgreSQL's identity column).
 */
static const char *const migrations[CLI_STORE_SCHEMA] = {
	"CREATE TABLE runs (id @ID@, created_ns BIGINT NOT NULL, device_serial TEXT,"
	" device_model TEXT, android TEXT, refresh_modes TEXT, label TEXT, source TEXT,"
	" session_path TEXT, kind TEXT);"
	"CREATE TABLE metrics (run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, app TEXT, is_app INTEGER NOT NULL, metric TEXT NOT NULL,"
	" value DOUBLE PRECISION);",
	/* 2: the app's version per row (one run may hold several apps), and the query paths */
	"ALTER TABLE metrics ADD COLUMN app_version TEXT;"
	"CREATE INDEX metrics_app_metric ON metrics (app, metric);"
	"CREATE INDEX runs_label ON runs (label);",
};

const char *cli_store_backend(const struct cli_store *s)
{
	return s->pg ? "postgresql" : "sqlite";
}

static int store_fail(struct cli_store *s, const char *what)
{
	char msg[1024];

	cli_error("history store %s: %s: %s", s->name, what,
		  scrub(s->pg ? pq->error_message(s->pg) : sqlite3_errmsg(s->db), s->conn, msg,
			sizeof(msg)));
	return CLI_OUTPUT;
}

/* Statements without parameters or results (several at once). */
static int exec_plain(struct cli_store *s, const char *sql)
{
	if (s->pg) {
		PGresult *r = pq->exec(s->pg, sql);
		int ok = pq->result_status(r) == PGRES_COMMAND_OK ||
			 pq->result_status(r) == PGRES_TUPLES_OK;

		pq->clear(r);
		return ok ? CLI_OK : store_fail(s, sql);
	}
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? CLI_OK
									: store_fail(s, sql);
}

int cli_store_query(struct cli_store *s, const char *sql, const char *const *params,
		    int nparams, int (*row)(void *user, int ncol, const char *const *col),
		    void *user)
{
	const char *col[32];
	int i, n, rc = CLI_OK;

	if (s->pg) {
		PGresult *r = pq->exec_params(s->pg, sql, nparams, NULL, params, NULL, NULL, 0);
		int st = pq->result_status(r), t;

		if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
			pq->clear(r);
			return store_fail(s, "query failed");
		}
		n = pq->nfields(r) < 32 ? pq->nfields(r) : 32;
		for (t = 0; row && t < pq->ntuples(r) && !rc; t++) {
			for (i = 0; i < n; i++)
				col[i] = pq->getisnull(r, t, i) ? NULL : pq->getvalue(r, t, i);
			rc = row(user, n, col);
		}
		pq->clear(r);
		return rc;
	}
	{
		sqlite3_stmt *st;
		char name[16];
		int e;

		if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
			return store_fail(s, "query failed");
		/* "$1".."$n" are named parameters to SQLite: bind them by name */
		for (i = 0; i < nparams; i++) {
			int idx;

			snprintf(name, sizeof(name), "$%d", i + 1);
			idx = sqlite3_bind_parameter_index(st, name);
			if (idx && (params[i] ? sqlite3_bind_text(st, idx, params[i], -1,
								   SQLITE_TRANSIENT)
					      : sqlite3_bind_null(st, idx)) != SQLITE_OK) {
				sqlite3_finalize(st);
				return store_fail(s, "bind failed");
			}
		}
		while ((e = sqlite3_step(st)) == SQLITE_ROW && !rc) {
			n = sqlite3_column_count(st) < 32 ? sqlite3_column_count(st) : 32;
			for (i = 0; i < n; i++)
				col[i] = (const char *)sqlite3_column_text(st, i);
			rc = row ? row(user, n, col) : 0;
		}
		if (!rc && e != SQLITE_DONE && e != SQLITE_ROW)
			rc = store_fail(s, "query failed");
		sqlite3_finalize(st);
		return rc;
	}
}

static int get_first(void *user, int ncol, const char *const *col)
{
	char *out = user;

	snprintf(out, 32, "%s", ncol && col[0] ? col[0] : "");
	return 0;
}

/* Bring the schema up to date, with writers kept out meanwhile. */
static int migrate(struct cli_store *s)
{
	char ver[32] = "", ddl[1024];
	int v, rc;

	rc = exec_plain(s, s->pg ? "BEGIN; SELECT pg_advisory_xact_lock(20251010)"
				 : "BEGIN IMMEDIATE");
	if (rc)
		return rc;
	rc = exec_plain(s, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
	if (!rc)
		rc = cli_store_query(s, "SELECT max(version) FROM schema_version", NULL, 0,
				     get_first, ver);
	v = (int)strtol(ver, NULL, 10);
	if (!rc && v > CLI_STORE_SCHEMA) {
		cli_error("history store %s has schema %d, newer than this gfxstat's %d", s->name,
			  v, CLI_STORE_SCHEMA);
		rc = CLI_OUTPUT;
	}
	for (; !rc && v < CLI_STORE_SCHEMA; v++) {
		char num[16];
		const char *p[1] = { num };
		/* only the id column differs between the backends */
		const char *at = strstr(migrations[v], "@ID@");

		if (at)
			snprintf(ddl, sizeof(ddl), "%.*s%s%s", (int)(at - migrations[v]),
				 migrations[v], s->pg ? "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"
						      : "INTEGER PRIMARY KEY", at + 4);
		else
			snprintf(ddl, sizeof(ddl), "%s", migrations[v]);
		snprintf(num, sizeof(num), "%d", v + 1);
		rc = exec_plain(s, ddl);
		if (!rc)
			rc = cli_store_query(s, "INSERT INTO schema_version (version) VALUES "
					     "(CAST($1 AS INTEGER))", p, 1, NULL, NULL);
	}
	if (rc) {
		exec_plain(s, "ROLLBACK");
		return rc;
	}
	return exec_plain(s, "COMMIT");
}

static void no_notice(void *user, const char *msg)
{
	(void)user, (void)msg;
}

int cli_store_open(const char *db, struct cli_store **out)
{
	struct cli_store *s = calloc(1, sizeof(*s));
	char def[4096];
	int rc;

	*out = NULL;
	if (!s) {
		cli_error("out of memory");
		return CLI_OUTPUT;
	}
	if (!db && !(db = cli_store_default(def, sizeof(def)))) {
		free(s);
		return CLI_OUTPUT;
	}
	/* the passwords (if any) stay out of messages, CI logs and report pages */
	cli_store_redact(db, s->name, sizeof(s->name));
	if (!(s->conn = strdup(db))) {
		cli_error("out of memory");
		free(s);
		return CLI_OUTPUT;
	}
	if (is_url(db)) {
		char msg[1024];

		pq = cli_pq_load(msg, sizeof(msg));
		if (!pq) {
			cli_error("cannot open %s: %s", s->name, msg);
			cli_store_close(s);
			return CLI_OUTPUT;
		}
		s->pg = pq->connectdb(db);
		if (!s->pg || pq->status(s->pg) != CONNECTION_OK) {
			cli_error("cannot connect to %s: %s", s->name,
				  s->pg ? scrub(pq->error_message(s->pg), db, msg, sizeof(msg))
					: "out of memory");
			cli_store_close(s);
			return CLI_OUTPUT;
		}
		pq->set_notice_processor(s->pg, no_notice, NULL); /* "already exists, skipping" */
	} else {
		if (sqlite3_open_v2(db, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
				    NULL) != SQLITE_OK) {
			rc = store_fail(s, "cannot open");
			cli_store_close(s);
			return rc;
		}
		/* several `record --all` writers at once: wait for the lock rather than fail */
		sqlite3_busy_timeout(s->db, 30000);
		rc = exec_plain(s, "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON");
		if (rc) {
			cli_store_close(s);
			return rc;
		}
	}
	rc = migrate(s);
	if (rc) {
		cli_store_close(s);
		return rc;
	}
	*out = s;
	return CLI_OK;
}

void cli_store_close(struct cli_store *s)
{
	if (!s)
		return;
	if (s->pg)
		pq->finish(s->pg);
	if (s->db)
		sqlite3_close(s->db);
	free(s->conn);
	free(s);
}

static int save_rows(struct cli_store *s, const char *id,
		     const struct gfxstat_layer_metrics *const *rows, size_t nrows,
		     const char *version, const char *package)
{
	static const char sql[] =
		"INSERT INTO metrics (run_id, name, app, is_app, metric, value, app_version) "
		"VALUES (CAST($1 AS BIGINT), $2, $3, CAST($4 AS INTEGER), $5, "
		"CAST($6 AS DOUBLE PRECISION), $7)";
	char val[64], frames[32];
	size_t i;
	int j, rc = CLI_OK;

	for (i = 0; i < nrows && !rc; i++) {
		const struct gfxstat_layer_metrics *l = rows[i];
		/* the version is the measured app's: another app of the same run has its own */
		const char *ver = !package || (l->app && !strcmp(l->app, package)) ? version : NULL;
		const char *p[7] = { id, l->name, l->app && l->app[0] ? l->app : NULL,
				     l->is_app ? "1" : "0", NULL, val, ver };

		snprintf(frames, sizeof(frames), "%llu", (unsigned long long)l->frames);
		p[4] = "frames";
		p[5] = frames;
		rc = cli_store_query(s, sql, p, 7, NULL, NULL);
		for (j = 0; j < CLI_M_COUNT && !rc; j++) {
			double v = cli_metric_value(l, j);

			snprintf(val, sizeof(val), "%.17g", v);
			p[4] = cli_metrics[j].name;
			p[5] = isnan(v) ? NULL : val;
			rc = cli_store_query(s, sql, p, 7, NULL, NULL);
		}
	}
	return rc;
}

int cli_store_save(struct cli_store *s, const struct cli_store_run *run,
		   const struct gfxstat_layer_metrics *const *rows, size_t nrows, int64_t *run_id)
{
	static const char sql[] =
		"INSERT INTO runs (created_ns, device_serial, device_model, android, refresh_modes,"
		" label, source, session_path, kind) VALUES (CAST($1 AS BIGINT), $2, $3, $4, $5,"
		" $6, $7, $8, $9) RETURNING id";
	char when[32], id[32] = "";
	struct timespec ts;
	const char *p[9] = { when, run->device_serial, run->device_model, run->android,
			     run->refresh_modes, run->label, run->source, run->session_path,
			     run->kind };
	int rc;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(when, sizeof(when), "%lld", run->when_ns ? (long long)run->when_ns
				 : (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	rc = exec_plain(s, s->pg ? "BEGIN" : "BEGIN IMMEDIATE");
	if (!rc)
		rc = cli_store_query(s, sql, p, 9, get_first, id);
	if (!rc && !id[0])
		rc = store_fail(s, "no run id");
	if (!rc)
		rc = save_rows(s, id, rows, nrows, run->app_version, run->app_package);
	if (rc) {
		exec_plain(s, "ROLLBACK");
		return rc;
	}
	rc = exec_plain(s, "COMMIT");
	if (!rc && run_id)
		*run_id = strtoll(id, NULL, 10);
	return rc;
}

#else /* the phone build: no SQLite, no libpq */

const char *cli_store_backend(const struct cli_store *s)
{
	(void)s;
	return "none";
}

static int not_here(void)
{
	cli_error("the history store is not in this build (the phone build has no SQLite or "
		  "libpq): save on the host");
	return CLI_OUTPUT;
}

int cli_store_open(const char *db, struct cli_store **out)
{
	(void)db;
	*out = NULL;
	return not_here();
}

void cli_store_close(struct cli_store *s)
{
	(void)s;
}

int cli_store_save(struct cli_store *s, const struct cli_store_run *run,
		   const struct gfxstat_layer_metrics *const *rows, size_t nrows, int64_t *run_id)
{
	(void)s, (void)run, (void)rows, (void)nrows, (void)run_id;
	return not_here();
}

int cli_store_query(struct cli_store *s, const char *sql, const char *const *params,
		    int nparams, int (*row)(void *user, int ncol, const char *const *col),
		    void *user)
{
	(void)s, (void)sql, (void)params, (void)nparams, (void)row, (void)user;
	return not_here();
}
#endif

int cli_store_save_all(struct cli_store *s, const struct cli_store_run *run,
		       const struct gfxstat_metrics *m, int64_t *run_id)
{
	size_t i, n = gfxstat_metrics_count(m);
	const struct gfxstat_layer_metrics **rows = malloc((n ? n : 1) * sizeof(*rows));
	int rc;

	if (!rows) {
		cli_error("out of memory");
		return CLI_OUTPUT;
	}
	for (i = 0; i < n; i++)
		rows[i] = gfxstat_metrics_get(m, i);
	rc = cli_store_save(s, run, rows, n, run_id);
	free(rows);
	return rc;
}
