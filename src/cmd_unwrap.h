/* SPDX-License-Identifier: MIT */
/* gfxstat unwrap and gfxstat latency. */
#ifndef CMD_UNWRAP_H
#define CMD_UNWRAP_H

int cmd_unwrap(int argc, char **argv);
int cmd_latency(int argc, char **argv);

#endif
