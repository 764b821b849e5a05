/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

char *strpbrk(const char *s, const char *accept)
{
	s += strcspn(s, accept);
	return *s != '\0' ? (char *)s : NULL;
}
