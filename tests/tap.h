/* SPDX-License-Identifier: MIT */
/*
 * TAP lines for the C test programs, one copy for all of them: each check
 * is "ok N - what" or "not ok N - what"; the suite's shell relays them
 * (tap_relay in scripts/tap.sh). A program ends with tap_done(), whose
 * status is non-zero when a check failed.
 */
#ifndef NB_TESTS_TAP_H
#define NB_TESTS_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_passed, tap_failed;

/* tap(OK, FMT, ...): one check; returns OK. */
static inline int tap(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", tap_passed + tap_failed + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		tap_passed++;
	else
		tap_failed++;
	return ok;
}

/* tap_skip(WHY, WHAT): a check not made, and why; counted as passed. */
static inline void tap_skip(const char *why, const char *what)
{
	printf("ok %d - %s # SKIP %s\n", tap_passed + tap_failed + 1, what, why);
	fflush(stdout);
	tap_passed++;
}

/* tap_count(): the checks so far */
static inline int tap_count(void)
{
	return tap_passed + tap_failed;
}

/* tap_done(NAME): the plan, or NAME's summary line when NAME is not NULL;
 * returns the exit status: 1 when a check failed. */
static inline int tap_done(const char *name)
{
	if (name)
		printf("%s: %d passed, %d failed\n", name, tap_passed, tap_failed);
	else
		printf("1..%d\n", tap_count());
	return tap_failed ? 1 : 0;
}

#endif /* NB_TESTS_TAP_H */
