/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <string.h>

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (*s == '\0')
			return NULL;
	}
}
