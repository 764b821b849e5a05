/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Word-wise memset (see libc-efi.h for why it is not named memset). */
#include <stdint.h>

#include "libc-efi.h"

typedef uint64_t __attribute__((may_alias, aligned(1))) u64_unaligned;

/* Keep GCC from turning the loops back into a call to (byte-wise) memset. */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
void *lockshim_memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t w = (uint64_t)(unsigned char)c * 0x0101010101010101ull;

	while (n >= 32) {
		u64_unaligned *dw = (u64_unaligned *)d;
		dw[0] = w;
		dw[1] = w;
		dw[2] = w;
		dw[3] = w;
		d += 32;
		n -= 32;
	}
	while (n >= 8) {
		*(u64_unaligned *)d = w;
		d += 8;
		n -= 8;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
