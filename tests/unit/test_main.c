/* SPDX-License-Identifier: MIT */
/* Runs every suite registered with TEST_SUITE(), in link order. */
#include <stdlib.h>

#include "check.h"

int check_passed, check_failed;
const char *check_case = "";

#define MAX_SUITES 64
static struct {
	const char *name;
	void (*fn)(void);
} suites[MAX_SUITES];
static int nsuites;

void check_register(const char *name, void (*fn)(void))
{
	if (nsuites < MAX_SUITES) {
		suites[nsuites].name = name;
		suites[nsuites].fn = fn;
		nsuites++;
	} else {
		fprintf(stderr, "unit: too many suites, %s not run\n", name);
		check_failed++;
	}
}

int main(int argc, char **argv)
{
	int i;

	for (i = 0; i < nsuites; i++) {
		/* "test_unit NAME" runs one suite */
		if (argc > 1 && strcmp(argv[1], suites[i].name) != 0)
			continue;
		suites[i].fn();
	}
	printf("unit: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
