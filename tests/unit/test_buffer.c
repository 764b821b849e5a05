// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "buffer.h"
#include "unit.h"

#include <openssl/crypto.h>

static void test_append(void)
{
	uint8_t *data = NULL, *at;
	size_t size = 0;

	CHECK_EQ(buffer_append(&data, &size, NULL, 0), 0, "append nothing to no buffer");
	CHECK(data != NULL, "an empty buffer is still a buffer");
	CHECK_EQ(size, 0, "and holds nothing");
	CHECK_EQ(buffer_append(&data, &size, "abc", 3), 0, "append three bytes");
	CHECK_EQ(buffer_append(&data, &size, "de", 2), 0, "append two more");
	CHECK_EQ(size, 5, "five bytes");
	CHECK_MEMEQ(data, "abcde", 5, "in order");
	CHECK_EQ(buffer_extend(&data, &size, 3, &at), 0, "extend by three");
	CHECK_PTR_EQ(at, data + 5, "the new bytes follow the old");
	memcpy(at, "fgh", 3);
	CHECK_MEMEQ(data, "abcdefgh", 8, "the old bytes kept");
	OPENSSL_free(data);
}

static void test_overflow(void)
{
	uint8_t *data = NULL;
	size_t size = 0;
	uint8_t *kept;

	CHECK_EQ(buffer_append(&data, &size, "xy", 2), 0, "a two-byte buffer");
	kept = data;
	CHECK_EQ(buffer_extend(&data, &size, SIZE_MAX - 1, NULL), -1, "a size past SIZE_MAX");
	CHECK_PTR_EQ(data, kept, "the buffer is not freed");
	CHECK_EQ(size, 2, "nor its size changed");
	CHECK_MEMEQ(data, "xy", 2, "nor its bytes");
	OPENSSL_free(data);
}

static void test_reserve_one(void)
{
	uint32_t *array = NULL;
	size_t capacity = 0, used = 0;
	bool all = true;

	for (uint32_t i = 0; i < 100; i++) {
		if (buffer_reserve_one((void **)&array, &capacity, used, sizeof(*array)) < 0) {
			all = false;
			break;
		}
		array[used++] = i;
	}
	CHECK(all, "room for a hundred elements, one at a time");
	CHECK_EQ(capacity, 128, "doubling from 16");
	for (uint32_t i = 0; all && i < 100; i++)
		all = array[i] == i;
	CHECK(all, "every element kept");
	CHECK_EQ(buffer_reserve_one((void **)&array, &capacity, 50, sizeof(*array)), 0,
		 "no growth while there is room");
	CHECK_EQ(capacity, 128, "the capacity unchanged");
	capacity = SIZE_MAX / 2 + 1;
	CHECK_EQ(buffer_reserve_one((void **)&array, &capacity, capacity, sizeof(*array)), -1,
		 "a capacity that would overflow");
	OPENSSL_free(array);
}

int main(void)
{
	test_append();
	test_overflow();
	test_reserve_one();
	UNIT_EXIT();
}
