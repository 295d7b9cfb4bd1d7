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

GX_COUNTER_TABLE(GFXSTAT_STATS, enum gfxstat_stat, GFXSTAT_STAT_COUNT, gfxstat_stat_name,
		 gfxstat_stat_doc, gfxstat_stat_severity)
