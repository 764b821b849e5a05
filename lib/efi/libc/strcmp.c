/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return (*p > *q) - (*p < *q);
}
