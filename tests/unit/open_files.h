/* SPDX-License-Identifier: MIT */
/* What the tests of held frames ask of the process's own open files (Linux's /proc). */
#ifndef GFXSTAT_TESTS_OPEN_FILES_H
#define GFXSTAT_TESTS_OPEN_FILES_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Can this process see its open files (/proc/self/fd)? Elsewhere the checks below are left. */
static inline int can_see_open_files(void)
{
	return access("/proc/self/fd", F_OK) == 0;
}

/* Does this process hold an open file under @dir (an unnamed one shows as "dir/#ino")? */
static inline int holds_file_in(const char *dir)
{
	char path[64], to[4096];
	int fd;

	for (fd = 0; fd < 1024; fd++) {
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, to, sizeof(to) - 1);
		if (n <= 0)
			continue;
		to[n] = 0;
		if (strncmp(to, dir, strlen(dir)) == 0 && to[strlen(dir)] == '/')
			return 1;
	}
	return 0;
}

#endif
