/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	/* strchr(reject, '\0') would match the terminator: test s[n] first. */
	while (s[n] != '\0' && strchr(reject, s[n]) == NULL)
		n++;
	return n;
}
