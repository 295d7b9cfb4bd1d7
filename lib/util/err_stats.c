/* SPDX-License-Identifier: MIT */
/* Message tables generated from the X-macros in the public headers. */
#include <string.h>

#include "../gx_local.h"

#define GX_ERRMSG(code, msg) msg,
static const char *const err_msgs[] = { GFXSTAT_ERRORS(GX_ERRMSG) };
#undef GX_ERRMSG

const char *gfxstat_strerror(int err)
{
	if (err == 0)
		return "success";
	if (err > GFXSTAT_E__START && err < GFXSTAT_E__END)
		return err_msgs[err - GFXSTAT_E__START - 1];
	return strerror(err < 0 ? -err : err);
}

#define GX_STAT_ROW(name, sev, doc) { #name, doc, GFXSTAT_SEV_##sev },
static const struct {
	const char *name;
	const char *doc;
	enum gfxstat_severity sev;
} stat_rows[] = { GFXSTAT_STATS(GX_STAT_ROW) };
#undef GX_STAT_ROW

const char *gfxstat_stat_name(enum gfxstat_stat stat)
{
	return (unsigned)stat < GFXSTAT_STAT_COUNT ? stat_rows[stat].name : "?";
}

const char *gfxstat_stat_doc(enum gfxstat_stat stat)
{
	return (unsigned)stat < GFXSTAT_STAT_COUNT ? stat_rows[stat].doc : "?";
}

enum gfxstat_severity gfxstat_stat_severity(enum gfxstat_stat stat)
{
	return (unsigned)stat < GFXSTAT_STAT_COUNT ? stat_rows[stat].sev : GFXSTAT_SEV_INFO;
}
