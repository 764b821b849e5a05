/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

char *strcpy(char *restrict dst, const char *restrict src)
{
	char *d = dst;

	while ((*d++ = *src++) != '\0')
		;
	return dst;
}
