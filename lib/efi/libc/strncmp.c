/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
		if (*p == '\0')
			break;
	}
	return 0;
}
