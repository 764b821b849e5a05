/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include <stdint.h>
#include <string.h>

#include "libc-efi.h"

__attribute__((optimize("no-tree-loop-distribute-patterns")))
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || n == 0)
		return dst;
	/* No overlap: the fast copy is safe. */
	if ((uintptr_t)d + n <= (uintptr_t)s || (uintptr_t)s + n <= (uintptr_t)d)
		return lockshim_memcpy(dst, src, n);
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		d += n;
		s += n;
		while (n--)
			*--d = *--s;
	}
	return dst;
}
