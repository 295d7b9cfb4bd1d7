/* SPDX-License-Identifier: MIT */
/*
 * The PostgreSQL client, loaded when a postgresql:// store is opened and not before: libpq
 * brings OpenSSL, Kerberos and LDAP with it, which every other command would pay for at start.
 * Only the calls the history store makes.
 */
#ifndef CLI_PQ_H
#define CLI_PQ_H

#include <libpq-fe.h>

struct cli_pq {
	PGconn *(*connectdb)(const char *conninfo);
	ConnStatusType (*status)(const PGconn *conn);
	char *(*error_message)(const PGconn *conn);
	void (*finish)(PGconn *conn);
	PQnoticeProcessor (*set_notice_processor)(PGconn *conn, PQnoticeProcessor fn, void *arg);
	PGresult *(*exec)(PGconn *conn, const char *query);
	PGresult *(*exec_params)(PGconn *conn, const char *command, int nparams,
				 const Oid *types, const char *const *values, const int *lengths,
				 const int *formats, int result_format);
	ExecStatusType (*result_status)(const PGresult *res);
	void (*clear)(PGresult *res);
	int (*nfields)(const PGresult *res);
	int (*ntuples)(const PGresult *res);
	int (*getisnull)(const PGresult *res, int row, int col);
	char *(*getvalue)(const PGresult *res, int row, int col);
};

/*
 * cli_pq_load() - libpq's calls, loaded once (libpq.so.5, or $GFXSTAT_LIBPQ)
 * Return: the table, or NULL with a sentence in @why saying what is missing and what to do.
 */
const struct cli_pq *cli_pq_load(char *why, size_t cap);

#endif
