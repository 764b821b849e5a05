/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * qsort as an in-place heapsort: O(n log n) on any input (no quadratic case
 * for crafted data), no recursion, no allocation.
 */
#include <stdlib.h>

typedef int (*cmp_fn)(const void *, const void *);

static void swap(unsigned char *a, unsigned char *b, size_t size)
{
	while (size--) {
		unsigned char t = *a;
		*a++ = *b;
		*b++ = t;
	}
}

static void sift_down(unsigned char *base, size_t root, size_t n, size_t size, cmp_fn cmp)
{
	for (;;) {
		size_t child = 2 * root + 1, big = root;

		if (child < n && cmp(base + child * size, base + big * size) > 0)
			big = child;
		if (child + 1 < n && cmp(base + (child + 1) * size, base + big * size) > 0)
			big = child + 1;
		if (big == root)
			return;
		swap(base + root * size, base + big * size, size);
		root = big;
	}
}

void qsort(void *base, size_t nmemb, size_t size, cmp_fn cmp)
{
	unsigned char *b = base;
	size_t i;

	if (nmemb < 2 || size == 0)
		return;
	/* Indices stay below nmemb; 2*i+2 cannot wrap for any object that fits. */
	for (i = nmemb / 2; i-- > 0;)
		sift_down(b, i, nmemb, size, cmp);
	for (i = nmemb - 1; i > 0; i--) {
		swap(b, b + i * size, size);
		sift_down(b, 0, i, size, cmp);
	}
}
