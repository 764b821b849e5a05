/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* glibc's <errno.h> reads errno through __errno_location(); no threads. */
#include <errno.h>

static int errno_value;

int *__errno_location(void)
{
	return &errno_value;
}
