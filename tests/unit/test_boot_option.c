// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The boot manager's variables as `lockshim check` reads them
 * (boot_option.c): BootOrder and EFI_LOAD_OPTIONs, valid and hostile, each
 * in a heap block of exactly its size so ASan sees a read past it.
 */
#include "boot_option.h"
#include "macro.h"
#include "unit.h"

#include <stdlib.h>

/* An EFI_LOAD_OPTION under construction. */
struct opt {
	uint8_t b[1024];
	size_t n;
};

static void put(struct opt *o, const void *p, size_t n)
{
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void put_le(struct opt *o, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		o->b[o->n++] = (uint8_t)(v >> (8 * i));
}

static void put_ucs2(struct opt *o, const char *s, bool nul)
{
	for (; *s; s++)
		put_le(o, (unsigned char)*s, 2);
	if (nul)
		put_le(o, 0, 2);
}

/* A file path node for @path. */
static void file_node(struct opt *o, const char *path)
{
	put_le(o, 0x0404, 2);
	put_le(o, 4 + 2 * (strlen(path) + 1), 2);
	put_ucs2(o, path, true);
}

static void end_node(struct opt *o)
{
	put_le(o, 0xff7f, 2);
	put_le(o, 4, 2);
}

/* Attributes, path length @dp_len, description; the caller adds the path and data. */
static void header(struct opt *o, uint32_t attrs, const char *desc, uint16_t dp_len)
{
	o->n = 0;
	put_le(o, attrs, 4);
	put_le(o, dp_len, 2);
	put_ucs2(o, desc, true);
}

static int parse(const struct opt *o, struct boot_option *out, const char **reason)
{
	uint8_t *copy = malloc(o->n ? o->n : 1);
	int r;

	memcpy(copy, o->b, o->n);
	r = boot_option_parse(copy, o->n, out, reason);
	/* what points into the variable must lie inside it */
	if (r == 0 && out->optional_data)
		CHECK(out->optional_data >= copy &&
			      out->optional_data + out->optional_data_size == copy + o->n,
		      "optional data lies inside the variable");
	free(copy);
	return r;
}

static void test_boot_order(void)
{
	uint8_t data[] = { 0x01, 0x00, 0x0a, 0x00, 0x00, 0x80 },
		*big = calloc(2 * (BOOT_ORDER_MAX + 1), 1);
	uint16_t order[BOOT_ORDER_MAX];
	const char *reason = NULL;
	size_t n = 0;

	CHECK_EQ(boot_order_parse(data, sizeof(data), order, &n, &reason), 0, "BootOrder: parses");
	CHECK_EQ(n, 3u, "BootOrder: three options");
	CHECK_EQ(order[1], 0x000a, "BootOrder: little-endian numbers");
	CHECK_EQ(order[2], 0x8000, "BootOrder: the high byte");
	CHECK_EQ(boot_order_parse(data, 5, order, &n, &reason), -1,
		 "BootOrder: an odd size is refused");
	CHECK_STRSTR(reason, "odd", "BootOrder: says why");
	CHECK_EQ(boot_order_parse(big, 2 * (BOOT_ORDER_MAX + 1), order, &n, &reason), -1,
		 "BootOrder: more options than fit is refused, not cut");
	CHECK_EQ(boot_order_parse(data, 0, order, &n, &reason), 0, "BootOrder: empty");
	CHECK_EQ(n, 0u, "BootOrder: empty has no option");
	free(big);
}

static void test_valid(void)
{
	static const uint8_t guid[16] = { 0x0e, 0x6f, 0x5e, 0x0b, 0x11, 0x11, 0x22, 0x22,
					  0x33, 0x33, 0x44, 0x44, 0x55, 0x55, 0x66, 0x66 };
	struct boot_option bo;
	const char *reason = NULL;
	struct opt o;
	size_t dp_start, dp_len;

	header(&o, LOAD_OPTION_ACTIVE, "debian", 0);
	dp_start = o.n;
	put_le(&o, 0x0104, 2); /* HD(): partition 1, a GPT signature */
	put_le(&o, 42, 2);
	put_le(&o, 1, 4);
	put_le(&o, 2048, 8);
	put_le(&o, 100000, 8);
	put(&o, guid, 16);
	put_le(&o, 0x0202, 2);
	file_node(&o, "\\EFI\\debian"); /* two file nodes, as some firmware writes them */
	file_node(&o, "shimx64.efi");
	end_node(&o);
	dp_len = o.n - dp_start;
	o.b[4] = (uint8_t)dp_len;
	o.b[5] = (uint8_t)(dp_len >> 8);
	put_ucs2(&o, "vmlinuz.efi quiet", true);
	if (!CHECK_EQ(parse(&o, &bo, &reason), 0, "option: HD() and two file nodes parse"))
		printf("#   %s\n", reason);
	CHECK_STREQ(bo.description, "debian", "option: description");
	CHECK_STREQ(bo.path, "\\EFI\\debian\\shimx64.efi",
		    "option: file nodes joined with a separator");
	CHECK_STREQ(bo.partition_guid, "0b5e6f0e-1111-2222-3333-444455556666",
		    "option: the partition's GUID as text");
	CHECK_EQ(bo.target, BOOT_TARGET_FILE, "option: a file on a disk");
	CHECK_EQ(bo.optional_data_size, 2 * 18u, "option: the load options after the path");
}

static void test_hostile(void)
{
	static const struct {
		const char *name, *reason;
		int kind;
	} cases[] = {
		{ "shorter than its header", "shorter than its header", 0 },
		{ "description without its terminator", "no terminator", 1 },
		{ "path length past the end", "runs past its end", 2 },
		{ "node length under 4", "bad length", 3 },
		{ "node length past the path", "bad length", 4 },
		{ "no end node", "no end node", 5 },
		{ "non-ASCII file path", "not printable ASCII", 6 },
		{ "HD() of the wrong length", "HD() node", 7 },
		{ "odd-sized description", "no terminator", 8 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct boot_option bo;
		const char *reason = NULL;
		struct opt o = { .n = 0 };

		switch (cases[i].kind) {
		case 0:
			put_le(&o, 1, 4);
			break;
		case 1:
			put_le(&o, 1, 4);
			put_le(&o, 0, 2);
			put_ucs2(&o, "abc", false);
			break;
		case 2:
			header(&o, 1, "x", 200);
			end_node(&o);
			break;
		case 3:
			header(&o, 1, "x", 4);
			put_le(&o, 0x0404, 2);
			put_le(&o, 2, 2);
			break;
		case 4:
			header(&o, 1, "x", 8);
			put_le(&o, 0x0404, 2);
			put_le(&o, 0x100, 2);
			end_node(&o);
			break;
		case 5:
			header(&o, 1, "x", 8);
			file_node(&o, "a");
			break;
		case 6:
			header(&o, 1, "x", 4 + 4 + 4);
			put_le(&o, 0x0404, 2);
			put_le(&o, 8, 2);
			put_le(&o, 0x00e9, 2);
			put_le(&o, 0, 2);
			end_node(&o);
			break;
		case 7:
			header(&o, 1, "x", 8 + 4);
			put_le(&o, 0x0104, 2);
			put_le(&o, 8, 2);
			put_le(&o, 0, 4);
			end_node(&o);
			break;
		case 8:
			put_le(&o, 1, 4);
			put_le(&o, 0, 2);
			put_le(&o, 'a', 2);
			o.b[o.n++] = 0;
			break;
		}
		CHECK_EQ(parse(&o, &bo, &reason), -1,
			 unit_name("option: %s: refused", cases[i].name));
		CHECK_STRSTR(reason, cases[i].reason,
			     unit_name("option: %s: says why", cases[i].name));
	}
}

static void test_targets(void)
{
	struct boot_option bo;
	const char *reason = NULL;
	struct opt o;

	header(&o, 0, "UiApp", 4 + 16 + 4);
	put_le(&o, 0x0604, 2); /* a file in a firmware volume */
	put_le(&o, 20, 2);
	memset(o.b + o.n, 0, 16);
	o.n += 16;
	end_node(&o);
	CHECK_EQ(parse(&o, &bo, &reason), 0, "option: firmware application parses");
	CHECK_EQ(bo.target, BOOT_TARGET_FIRMWARE, "option: firmware application is not on a disk");
	CHECK_EQ(bo.attributes & LOAD_OPTION_ACTIVE, 0u, "option: inactive attribute kept");
	CHECK_PTR_EQ(bo.optional_data, NULL, "option: no optional data");
	header(&o, 1, "PXE", 4 + 4);
	put_le(&o, 0x0b03, 2); /* a MAC address node, truncated to its header */
	put_le(&o, 4, 2);
	end_node(&o);
	CHECK_EQ(parse(&o, &bo, &reason), 0, "option: network option parses");
	CHECK_EQ(bo.target, BOOT_TARGET_OTHER, "option: no file path: not a file on a disk");
}

int main(void)
{
	test_boot_order();
	test_valid();
	test_hostile();
	test_targets();
	return unit_failed;
}
