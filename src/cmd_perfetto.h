/* SPDX-License-Identifier: MIT */
/* gfxstat perfetto-dump: what the Perfetto decoder finds in a trace (a developer command). */
#ifndef CMD_PERFETTO_H
#define CMD_PERFETTO_H

/**
 * cmd_perfetto_dump() - "gfxstat perfetto-dump [--frames] [--markers] FILE"
 * @argc: arguments, the command name first
 * @argv: their values
 *
 * Return: the exit status: 0, 2 (usage) or 3 (unreadable or undecodable input).
 */
int cmd_perfetto_dump(int argc, char **argv);

#endif
