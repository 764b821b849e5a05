/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] != '\0' && strchr(accept, s[n]) != NULL)
		n++;
	return n;
}
