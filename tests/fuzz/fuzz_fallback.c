// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: the fallback's core (fallback.c), what lockshim reads
 * from an ESP anyone with the disk can write, and what it then writes.
 *
 * Input: the whole of it is read as a BOOTX64.CSV, from a heap block of
 * exactly its size (ASan reports a read past it). Each option of a CSV it
 * accepts is built into the load option lockshim writes, which must stay
 * within FALLBACK_LOAD_OPTION_MAX, read back (boot_option.c) as what was
 * asked (label, file, partition, options) and match its own path. The
 * input is also read as a BootOrder (up to BOOT_ORDER_MAX numbers), with
 * its first numbers reversed put first: the new order must start with
 * them, hold every old number, and none twice. And its first characters
 * as a variable name and a directory name, which must not crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot_option.h"
#include "fallback.h"
#include "fuzz.h"
#include "safe_math.h"

static const uint8_t hd_node[FALLBACK_HD_NODE_SIZE] = {
	0x04, 0x01, 42,	  0,	1,    0,    0,	  0,    0x00, 0x08, 0,	  0,	0,    0,
	0,    0,    0x00, 0x80, 0,    0,    0,	  0,    0,    0,    0x1d, 0x5a, 0x4e, 0x0c,
	0x5f, 0x5e, 0x0c, 0x4c, 0x9d, 0x1a, 0x6c, 0x6f, 0x63, 0x6b, 0x73, 0x68, 0x02, 0x02,
};
#define HD_GUID "0c4e5a1d-5e5f-4c0c-9d1a-6c6f636b7368"

static void check_csv(const uint8_t *data, size_t size)
{
	static const uint16_t dir[] = { 'v', 'e', 'n', 'd', 'o', 'r' };
	static struct fallback_csv csv;
	static uint8_t option[FALLBACK_LOAD_OPTION_MAX];
	struct reason_buf buf;
	const char *reason = NULL;

	if (fallback_csv_parse(data, size, &csv, &buf, &reason) < 0) {
		FUZZ_ASSERT(reason && reason[0]);
		return;
	}
	FUZZ_ASSERT(csv.count > 0 && csv.count <= FALLBACK_MAX_ENTRIES);
	for (size_t i = 0; i < csv.count; i++) {
		const struct fallback_entry *e = &csv.entry[i];
		struct fallback_path path;
		struct boot_option bo;
		size_t n;
		uint8_t *copy;

		FUZZ_ASSERT(e->file_len > 0 && e->file_len <= FALLBACK_NAME_MAX);
		FUZZ_ASSERT(e->label_len > 0 && e->label_len <= FALLBACK_LABEL_MAX);
		FUZZ_ASSERT(e->options_len <= FALLBACK_OPTIONS_MAX);
		FUZZ_ASSERT(e->file[e->file_len] == 0 && e->label[e->label_len] == 0 &&
			    e->options[e->options_len] == 0);
		fallback_entry_path(dir, sizeof(dir) / sizeof(dir[0]), e, &path);
		FUZZ_ASSERT(path.len <= FALLBACK_PATH_MAX && path.ascii[path.len] == '\0');
		n = fallback_load_option(hd_node, e, &path, option);
		FUZZ_ASSERT(n <= sizeof(option));
		copy = malloc(n);
		memcpy(copy, option, n);
		FUZZ_ASSERT(boot_option_parse(copy, n, &bo, &reason) == 0);
		FUZZ_ASSERT(strcmp(bo.path, path.ascii) == 0);
		FUZZ_ASSERT(strcmp(bo.partition_guid, HD_GUID) == 0);
		FUZZ_ASSERT(fallback_option_matches(&bo, path.ascii, HD_GUID));
		FUZZ_ASSERT(bo.optional_data_size == (e->options_len ? 2 * (e->options_len + 1) : 0));
		for (size_t c = 0; c < e->label_len && c + 1 < sizeof(bo.description); c++)
			FUZZ_ASSERT(bo.description[c] == (e->label[c] >= 0x20 && e->label[c] < 0x7f ?
								  (char)e->label[c] :
								  '?'));
		free(copy);
	}
}

static void check_boot_order(const uint8_t *data, size_t size)
{
	static uint16_t order[BOOT_ORDER_MAX], out[BOOT_ORDER_MAX];
	uint16_t first[FALLBACK_MAX_ENTRIES];
	size_t count = 0, first_count = 0, n = 0;
	const char *reason = NULL;
	int r;

	size &= ~(size_t)1;
	if (size > 2 * BOOT_ORDER_MAX)
		size = 2 * BOOT_ORDER_MAX;
	FUZZ_ASSERT(boot_order_parse(data, size, order, &count, &reason) == 0);
	for (size_t i = count; i > 0 && first_count < FALLBACK_MAX_ENTRIES; i--)
		first[first_count++] = (uint16_t)(order[i - 1] ^ (i & 1 ? 0 : 0x8000));
	r = fallback_boot_order(order, count, first, first_count, out, &n, &reason);
	if (r < 0) {
		FUZZ_ASSERT(reason && reason[0]);
		return;
	}
	FUZZ_ASSERT(n <= BOOT_ORDER_MAX);
	for (size_t i = 0; i < n; i++)
		FUZZ_ASSERT(!fallback_order_has(out, i, out[i]));
	for (size_t i = 0; i < count; i++)
		FUZZ_ASSERT(fallback_order_has(out, n, order[i]));
	for (size_t i = 0, at = 0; i < first_count; i++) {
		if (fallback_order_has(first, i, first[i]))
			continue;
		FUZZ_ASSERT(out[at++] == first[i]);
	}
	FUZZ_ASSERT(r == 1 || (n == count && memcmp(out, order, n * sizeof(*out)) == 0));
}

static void check_names(const uint8_t *data, size_t size)
{
	uint16_t name[FALLBACK_NAME_MAX + 8];
	size_t len = size / 2 < sizeof(name) / 2 ? size / 2 : sizeof(name) / 2;
	const char *reason = NULL;
	int n;

	for (size_t i = 0; i < len; i++)
		name[i] = read_le16(data + 2 * i);
	n = fallback_option_number(name, len);
	FUZZ_ASSERT(n >= -1 && n <= 0xffff);
	if (fallback_vendor_dir(name, len, &reason) < 0)
		FUZZ_ASSERT(reason && reason[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_csv(data, size);
	check_boot_order(data, size);
	check_names(data, size);
	return 0;
}
