/* SPDX-License-Identifier: MIT */
/* gfxstat history and gfxstat trend (src/main.c's table). */
#ifndef CMD_HISTORY_H
#define CMD_HISTORY_H

int cmd_history(int argc, char **argv);
int cmd_trend(int argc, char **argv);

#endif
