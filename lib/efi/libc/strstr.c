/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

/* Plain O(n*m) search; OpenSSL only uses it on short strings. */
char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (n == 0)
		return (char *)hay;
	for (; *hay != '\0'; hay++)
		if (*hay == *needle && strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return NULL;
}
