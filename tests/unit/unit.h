/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * A minimal unit test harness: each CHECK prints one TAP line; main()
 * returns non-zero when any failed. tests/run.sh counts the lines.
 */
#ifndef LOCKSHIM_UNIT_H
#define LOCKSHIM_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_failed;

#define CHECK(cond, name)                                                           \
	do {                                                                        \
		if (cond) {                                                         \
			printf("ok - %s\n", name);                                  \
		} else {                                                            \
			printf("not ok - %s (%s:%d: %s)\n", name, __FILE__, __LINE__, #cond); \
			unit_failed = 1;                                            \
		}                                                                   \
	} while (0)

#define UNIT_EXIT() return unit_failed ? 1 : 0

#endif
