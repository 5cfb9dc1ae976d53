/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fr_timeout.h - FR_TEST_TIMEOUT_SCALE=N multiplies every test timeout by N
 * (1 to 100; default 1): the harness's per-case alarm (30 s, or what
 * TEST_F_TIMEOUT says), the alarms the tests set themselves, and
 * fr_wait_timeout().  `make check-debug` sets it: the debug kernel (KASAN,
 * lockdep, kmemleak) runs the suite several times slower.
 *
 * tests/Makefile includes this file ahead of every test source (-include),
 * so that the harness's alarm() calls are the scaled one.
 */
#ifndef FR_TIMEOUT_H
#define FR_TIMEOUT_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline unsigned int fr_timeout_scale(void)
{
	const char *s = getenv("FR_TEST_TIMEOUT_SCALE");
	unsigned long v;
	char *end;

	if (!s || !*s)
		return 1;
	v = strtoul(s, &end, 10);
	if (*end || v < 1 || v > 100) {
		fprintf(stderr, "FR_TEST_TIMEOUT_SCALE='%s': not a whole number from 1 to 100\n", s);
		exit(2);
	}
	return v;
}

static inline unsigned int fr_alarm_scaled(unsigned int seconds)
{
	return alarm(seconds * fr_timeout_scale());
}
#define alarm(seconds) fr_alarm_scaled(seconds)

#endif /* FR_TIMEOUT_H */
