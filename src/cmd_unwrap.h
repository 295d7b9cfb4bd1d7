/* SPDX-License-Identifier: MIT */
/* gfxstat unwrap (cmd_unwrap.c) and gfxstat latency (cmd_latency.c). */
#ifndef CMD_UNWRAP_H
#define CMD_UNWRAP_H

#include <stddef.h>

struct gfxstat_unwrap;
struct gfxstat_unwrap_stats;

int cmd_unwrap(int argc, char **argv);
int cmd_latency(int argc, char **argv);

/* Warn of each non-INFO counter. Return: the ERROR-severity ones (data lost), summed. */
unsigned long long cmd_unwrap_report(const char *name, const struct gfxstat_unwrap_stats *st);
/* The layers the unwrapper detected, outermost first: "gzip > systrace-html > ftrace-text". */
void cmd_unwrap_layers_text(const struct gfxstat_unwrap *u, char *buf, size_t cap);

#endif
