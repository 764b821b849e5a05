/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The files `lockshim check` reads (images, grub.cfg, loader entries), each
 * read once for every chain and entry that names it, and an image's
 * Authenticode digests kept beside its bytes: hashed once, whatever decides
 * on it (verify_image_digests).
 */
#ifndef LOCKSHIM_IMAGE_CACHE_H
#define LOCKSHIM_IMAGE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "verify.h"

struct image_cache;

struct image_cache *image_cache_new(void);
void image_cache_free(struct image_cache *cache);

/*
 * What one run of `lockshim check` holds of the files it reads: each at
 * most IMAGE_CACHE_FILE_MAX bytes, all of them together at most
 * IMAGE_CACHE_TOTAL_MAX (docs/check.md, "Memory", says so); a file past either is
 * refused before it is read.
 */
#define IMAGE_CACHE_FILE_MAX  (512UL * 1024 * 1024)
#define IMAGE_CACHE_TOTAL_MAX (1024UL * 1024 * 1024)

/*
 * The regular file at host path @path, read at most once. Returns 1 read, 0
 * when it does not exist, -1 when it cannot be used (not a regular file,
 * too large, unreadable): why in @why (@why_size bytes), not said.
 */
int image_cache_load(struct image_cache *cache, const char *path, const uint8_t **data,
		     size_t *size, char *why, size_t why_size);

/* image_cache_load for a file that must be there. Returns 0, or -1 having said why. */
int image_cache_read(struct image_cache *cache, const char *path, const uint8_t **data,
		     size_t *size);

/* The digests kept for the cached file whose bytes are @data; NULL when none is. */
struct image_digests *image_cache_digests(struct image_cache *cache, const uint8_t *data);

#endif
