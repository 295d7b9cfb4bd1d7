/* SPDX-License-Identifier: MIT */
/* libpq loaded on first use (cli_pq.h): a host build's start-up does not map it. */
#ifdef GFXSTAT_STORE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_pq.h"

/* The soname Debian's libpq5 installs; its ABI has been stable since PostgreSQL 8.4. */
#define LIBPQ "libpq.so.5"

static struct cli_pq pq;
static int loaded;

static int sym(void *h, const char *name, void **out, char *why, size_t cap)
{
	*out = dlsym(h, name);
	if (!*out)
		snprintf(why, cap, "%s has no %s (too old a libpq?)", LIBPQ, name);
	return *out == NULL;
}

const struct cli_pq *cli_pq_load(char *why, size_t cap)
{
	const char *path = getenv("GFXSTAT_LIBPQ");
	void *h;
	int bad = 0;

	if (loaded)
		return &pq;
	h = dlopen(path && *path ? path : LIBPQ, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, cap, "the PostgreSQL client library is not installed (%s: %s); "
			 "install it (Debian: apt-get install libpq5) or use a SQLite file with "
			 "--db PATH", path && *path ? path : LIBPQ, dlerror());
		return NULL;
	}
	/* POSIX: a function pointer travels through void * (dlsym's own contract) */
#define GET(field, name) bad = bad || sym(h, name, (void **)&pq.field, why, cap)
	GET(connectdb, "PQconnectdb");
	GET(status, "PQstatus");
	GET(error_message, "PQerrorMessage");
	GET(finish, "PQfinish");
	GET(set_notice_processor, "PQsetNoticeProcessor");
	GET(exec, "PQexec");
	GET(exec_params, "PQexecParams");
	GET(result_status, "PQresultStatus");
	GET(clear, "PQclear");
	GET(nfields, "PQnfields");
	GET(ntuples, "PQntuples");
	GET(getisnull, "PQgetisnull");
	GET(getvalue, "PQgetvalue");
#undef GET
	if (bad) {
		dlclose(h);
		return NULL;
	}
	loaded = 1;
	return &pq;
}
#else
/* the phone build has no history store (mk/store.mk) */
typedef int cli_pq_unused;
#endif
