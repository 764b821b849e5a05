/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The core's one way to grow memory: a byte buffer appended to (a signature
 * list being built, a measured payload) and an array gaining elements. The
 * memory is OPENSSL_malloc'd, as every buffer the core hands its callers,
 * who OPENSSL_free it.
 *
 * On failure (the size overflows, or memory runs out) nothing is freed:
 * the buffer or array is left as it was and stays its owner's to free.
 * A function promising to free its caller's buffer on failure
 * (esl_append_entry) does it itself.
 */
#ifndef LOCKSHIM_BUFFER_H
#define LOCKSHIM_BUFFER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Grow the buffer *@data of *@size bytes (NULL and 0 for none yet) by @n
 * bytes, left uninitialised; *@at (when @at is not NULL) points at them.
 * After a success *@data is never NULL, even when *@size is 0.
 * Returns 0 or -1.
 */
int buffer_extend(uint8_t **data, size_t *size, size_t n, uint8_t **at);

/* Append the @n bytes of @src (NULL when @n is 0) to *@data of *@size bytes: 0 or -1. */
int buffer_append(uint8_t **data, size_t *size, const void *src, size_t n);

/*
 * Room for one more element in the array *@array of *@capacity elements of
 * @element_size bytes, @used of them in use: it doubles (from 16) when they
 * all are. Returns 0 or -1.
 */
int buffer_reserve_one(void **array, size_t *capacity, size_t used, size_t element_size);

#endif
