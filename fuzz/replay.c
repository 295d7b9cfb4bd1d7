/* SPDX-License-Identifier: MIT */
/*
 * Replays fuzz inputs without libFuzzer, so ordinary CI runs every corpus (as zstd's
 * tests/fuzz/regression_driver.c). Linked with one fuzz_<name>.o:
 *
 *   build/replay_<name> FILE|DIR...
 *
 * Each file is read into a buffer of exactly its size (so AddressSanitizer sees any read
 * past the input) and passed to LLVMFuzzerTestOneInput(); directories are walked
 * recursively. Ends with "replayed N inputs" and exit status 0. A crash or a sanitizer
 * report is the failure signal; a path that cannot be read is an error (status 1) after the
 * other inputs have been replayed, and no argument at all is a usage error (status 2).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;
static int io_errors;

static void io_error(const char *what, const char *path)
{
	fprintf(stderr, "replay: cannot %s '%s': %s\n", what, path, strerror(errno));
	io_errors++;
}

static void replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL, *grown;
	size_t len = 0, cap = 0, got;

	if (!f) {
		io_error("open", path);
		return;
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			grown = realloc(data, cap);
			if (!grown) {
				errno = ENOMEM;
				io_error("read", path);
				free(data);
				fclose(f);
				return;
			}
			data = grown;
		}
		got = fread(data + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		io_error("read", path);
		free(data);
		fclose(f);
		return;
	}
	fclose(f);
	/* exactly @len bytes (at least one, so the pointer is never NULL): no slack to hide in */
	grown = malloc(len ? len : 1);
	if (!grown) {
		errno = ENOMEM;
		io_error("read", path);
		free(data);
		return;
	}
	memcpy(grown, data, len);
	free(data);
	LLVMFuzzerTestOneInput(grown, len);
	free(grown);
	replayed++;
}

static void replay_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (stat(path, &st)) {
		io_error("stat", path);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	d = opendir(path);
	if (!d) {
		io_error("open directory", path);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		size_t n;
		char *sub;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n = strlen(path) + strlen(e->d_name) + 2;
		sub = malloc(n);
		if (!sub) {
			errno = ENOMEM;
			io_error("read", path);
			break;
		}
		snprintf(sub, n, "%s/%s", path, e->d_name);
		replay_path(sub);
		free(sub);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s <file|dir>...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		replay_path(argv[i]);
	printf("replayed %lu inputs\n", replayed);
	return io_errors ? 1 : 0;
}
