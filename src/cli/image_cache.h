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

/* The file at host path @path, read at most once. Returns 0, or -1 having said why. */
int image_cache_read(struct image_cache *cache, const char *path, const uint8_t **data,
		     size_t *size);

/* The digests kept for the cached file whose bytes are @data; NULL when none is. */
struct image_digests *image_cache_digests(struct image_cache *cache, const uint8_t *data);

#endif
