/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Shared by the libFuzzer targets. */
#ifndef LOCKSHIM_FUZZ_H
#define LOCKSHIM_FUZZ_H

#include <stdio.h>
#include <stdlib.h>

/* A property the code under test promises; breaking it is a finding, like a crash. */
#define FUZZ_ASSERT(cond)                                                              \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "%s:%d: broken promise: %s\n", __FILE__, __LINE__, \
				#cond);                                                \
			abort();                                                       \
		}                                                                      \
	} while (0)

#endif
