/* SPDX-License-Identifier: MIT */
#include "check.h"

int check_passed, check_failed;
const char *check_case = "";

void test_ftrace_line(void);
void test_atrace_marker(void);
void test_line_reader(void);
void test_gfx_monitor(void);

int main(void)
{
	test_ftrace_line();
	test_atrace_marker();
	test_line_reader();
	test_gfx_monitor();
	printf("unit: %d passed, %d failed\n", check_passed, check_failed);
	return check_failed != 0;
}
