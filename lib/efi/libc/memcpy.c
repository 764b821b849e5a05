/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Word-wise memcpy (see libc-efi.h for why it is not named memcpy). */
#include <stdint.h>

#include "libc-efi.h"

typedef uint64_t __attribute__((may_alias, aligned(1))) u64_unaligned;

/* Keep GCC from turning the loops back into a call to (byte-wise) memcpy. */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
void *lockshim_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* x86_64 does unaligned 8-byte accesses at full speed. */
	while (n >= 32) {
		u64_unaligned *dw = (u64_unaligned *)d;
		const u64_unaligned *sw = (const u64_unaligned *)s;
		uint64_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
		dw[0] = a;
		dw[1] = b;
		dw[2] = c;
		dw[3] = e;
		d += 32;
		s += 32;
		n -= 32;
	}
	while (n >= 8) {
		*(u64_unaligned *)d = *(const u64_unaligned *)s;
		d += 8;
		s += 8;
		n -= 8;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}
