/* SPDX-License-Identifier: MIT */
/* A minimal unit-test harness: every CHECK is one counted assertion. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

extern int check_passed, check_failed;
extern const char *check_case;

#define CHECK(cond)                                                                        \
	do {                                                                               \
		if (cond) {                                                                \
			check_passed++;                                                    \
		} else {                                                                   \
			check_failed++;                                                    \
			fprintf(stderr, "FAIL %s:%d [%s]: %s\n", __FILE__, __LINE__,       \
				check_case, #cond);                                        \
		}                                                                          \
	} while (0)

#define CHECK_EQ(a, b)                                                                     \
	do {                                                                               \
		long long a_ = (long long)(a), b_ = (long long)(b);                        \
		if (a_ == b_) {                                                            \
			check_passed++;                                                    \
		} else {                                                                   \
			check_failed++;                                                    \
			fprintf(stderr, "FAIL %s:%d [%s]: %s == %s (%lld != %lld)\n",      \
				__FILE__, __LINE__, check_case, #a, #b, a_, b_);           \
		}                                                                          \
	} while (0)

/* a gfxstat_str (p, n) equals a C string */
#define CHECK_STR(s, lit)                                                                  \
	do {                                                                               \
		const char *l_ = (lit);                                                    \
		if ((s).n == strlen(l_) && memcmp((s).p, l_, (s).n) == 0) {                \
			check_passed++;                                                    \
		} else {                                                                   \
			check_failed++;                                                    \
			fprintf(stderr, "FAIL %s:%d [%s]: %s is '%.*s', not '%s'\n",       \
				__FILE__, __LINE__, check_case, #s, (int)(s).n, (s).p, l_); \
		}                                                                          \
	} while (0)

#define CHECK_CSTR(a, b)                                                                   \
	do {                                                                               \
		const char *a_ = (a), *b_ = (b);                                           \
		if (strcmp(a_, b_) == 0) {                                                 \
			check_passed++;                                                    \
		} else {                                                                   \
			check_failed++;                                                    \
			fprintf(stderr, "FAIL %s:%d [%s]:\n  got  '%s'\n  want '%s'\n",    \
				__FILE__, __LINE__, check_case, a_, b_);                   \
		}                                                                          \
	} while (0)

#define TEST(name) static void name(void)

/* Each test file registers its suite function; test_main.c runs them all. */
void check_register(const char *name, void (*fn)(void));
#define TEST_SUITE(fn)                                                                     \
	void fn(void);                                                                     \
	__attribute__((constructor)) static void register_##fn(void)                       \
	{                                                                                  \
		check_register(#fn, fn);                                                   \
	}                                                                                  \
	void fn(void)
#define RUN(name)                                                                          \
	do {                                                                               \
		check_case = #name;                                                        \
		name();                                                                    \
	} while (0)

#endif
