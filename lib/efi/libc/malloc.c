/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * malloc, free, realloc, calloc on top of BS->AllocatePool (EfiLoaderData).
 *
 * Each block carries a 16-byte header just before the returned pointer: the
 * pointer AllocatePool returned and the requested size (realloc needs it).
 * Pool memory is only 8-byte aligned, so the user pointer is aligned up to 16
 * (the x86_64 max_align_t) inside a slightly larger pool allocation.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libc-efi.h"

#define BLOCK_ALIGN 16u

struct hdr {
	void *raw;   /* what AllocatePool returned */
	size_t size; /* bytes requested by the caller */
};

_Static_assert(sizeof(struct hdr) <= BLOCK_ALIGN, "header fits in the alignment gap");

/* Header + worst-case alignment slack (pool memory is >= 8-byte aligned). */
#define OVERHEAD (BLOCK_ALIGN + BLOCK_ALIGN)

static struct hdr *hdr_of(void *p)
{
	return (struct hdr *)((unsigned char *)p - sizeof(struct hdr));
}

void *malloc(size_t size)
{
	void *raw = NULL;
	uintptr_t user;
	EFI_STATUS st;

	if (size > SIZE_MAX - OVERHEAD) {
		errno = ENOMEM;
		return NULL;
	}
	st = BS->AllocatePool(EfiLoaderData,
			       (UINTN)(size + OVERHEAD), &raw);
	if (EFI_ERROR(st) || raw == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	user = ((uintptr_t)raw + sizeof(struct hdr) + BLOCK_ALIGN - 1) & ~(uintptr_t)(BLOCK_ALIGN - 1);
	hdr_of((void *)user)->raw = raw;
	hdr_of((void *)user)->size = size;
	return (void *)user;
}

void free(void *p)
{
	if (p == NULL)
		return;
	BS->FreePool(hdr_of(p)->raw);
}

void *realloc(void *p, size_t size)
{
	size_t old;
	void *n;

	if (p == NULL)
		return malloc(size);
	if (size == 0) {
		free(p);
		return NULL;
	}
	old = hdr_of(p)->size;
	n = malloc(size);
	if (n == NULL)
		return NULL; /* the old block stays valid, as C requires */
	lockshim_memcpy(n, p, old < size ? old : size);
	free(p);
	return n;
}

void *calloc(size_t nmemb, size_t size)
{
	size_t total;
	void *p;

	if (__builtin_mul_overflow(nmemb, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(total);
	if (p != NULL)
		lockshim_memset(p, 0, total);
	return p;
}
