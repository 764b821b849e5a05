// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "buffer.h"

#include <string.h>

#include <openssl/crypto.h>

#include "safe_math.h"

#define FIRST_CAPACITY 16

int buffer_extend(uint8_t **data, size_t *size, size_t n, uint8_t **at)
{
	size_t new_size;
	uint8_t *grown;

	if (add_overflows(*size, n, &new_size))
		return -1;
	grown = OPENSSL_realloc(*data, new_size ? new_size : 1);
	if (!grown)
		return -1;
	*data = grown;
	if (at)
		*at = grown + *size;
	*size = new_size;
	return 0;
}

int buffer_append(uint8_t **data, size_t *size, const void *src, size_t n)
{
	uint8_t *at;

	if (buffer_extend(data, size, n, &at) < 0)
		return -1;
	if (n)
		memcpy(at, src, n);
	return 0;
}

int buffer_reserve_one(void **array, size_t *capacity, size_t used, size_t element_size)
{
	size_t n = *capacity ? 0 : FIRST_CAPACITY;
	void *grown;

	if (used < *capacity)
		return 0;
	if (*capacity && add_overflows(*capacity, *capacity, &n))
		return -1;
	if (element_size == 0 || n > SIZE_MAX / element_size)
		return -1;
	grown = OPENSSL_realloc(*array, n * element_size);
	if (!grown)
		return -1;
	*array = grown;
	*capacity = n;
	return 0;
}
