/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

/* C semantics: copies at most n bytes and pads the rest of dst with NULs. */
char *strncpy(char *restrict dst, const char *restrict src, size_t n)
{
	size_t i = 0;

	for (; i < n && src[i] != '\0'; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = '\0';
	return dst;
}
