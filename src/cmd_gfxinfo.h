/* SPDX-License-Identifier: MIT */
/* gfxstat gfxinfo: dumpsys gfxinfo summaries recomputed from the framestats rows. */
#ifndef CMD_GFXINFO_H
#define CMD_GFXINFO_H

int cmd_gfxinfo(int argc, char **argv);

#endif
