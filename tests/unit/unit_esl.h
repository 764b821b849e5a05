/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Signature lists for unit tests, written byte by byte (not with the
 * code under test): a list of any type, sizes and entries, and GUIDs from
 * their text.
 */
#ifndef LOCKSHIM_UNIT_ESL_H
#define LOCKSHIM_UNIT_ESL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "signature_list.h"
#include "unit_image.h"

struct buf {
	uint8_t *data;
	size_t size;
};

/* Append one list: @n entries of @sig_size bytes, entry i filled with byte i+1 after its owner. */
static inline void append_list(struct buf *b, const uint8_t *type, uint32_t header_size,
			       uint32_t sig_size, uint32_t n, const uint8_t *payload,
			       size_t payload_size)
{
	size_t size = ESL_HEADER_SIZE + header_size + (size_t)n * sig_size;
	uint8_t *p;

	b->data = realloc(b->data, b->size + size);
	p = b->data + b->size;
	memset(p, 0, size);
	memcpy(p, type, 16);
	put32(p + 16, (uint32_t)size);
	put32(p + 20, header_size);
	put32(p + 24, sig_size);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *entry = p + ESL_HEADER_SIZE + header_size + (size_t)i * sig_size;

		memset(entry, 0xee, sig_size < ESL_OWNER_SIZE ? sig_size : ESL_OWNER_SIZE);
		if (payload && payload_size <= sig_size - ESL_OWNER_SIZE)
			memcpy(entry + ESL_OWNER_SIZE, payload, payload_size);
		else if (sig_size > ESL_OWNER_SIZE)
			memset(entry + ESL_OWNER_SIZE, (int)(i + 1), sig_size - ESL_OWNER_SIZE);
	}
	b->size += size;
}

/* @text (8-4-4-4-12) as EFI stores the GUID: the first three fields little-endian. */
static inline void guid_bytes(const char *text, uint8_t out[16])
{
	static const uint8_t order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	unsigned int b[16];

	sscanf(text, "%2x%2x%2x%2x-%2x%2x-%2x%2x-%2x%2x-%2x%2x%2x%2x%2x%2x", &b[0], &b[1], &b[2],
	       &b[3], &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12], &b[13],
	       &b[14], &b[15]);
	for (size_t i = 0; i < 16; i++)
		out[order[i]] = (uint8_t)b[i];
}

#endif
