// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The fallback's core (fallback.c): BOOTX64.CSV in its spellings (BOM or
 * not, CRLF or LF) and hostile ones, the load option it writes read back
 * by boot_option.c as `lockshim check` reads it, the match against
 * existing options and the new BootOrder. Each CSV is in a heap block of
 * exactly its size, so ASan sees a read past it.
 */
#include "boot_option.h"
#include "device_path.h"
#include "fallback.h"
#include "load_options.h"
#include "macro.h"
#include "safe_math.h"
#include "unit.h"

#include <stdlib.h>

/* @text (ASCII, \x escapes for others as given) as UCS-2 LE, with a BOM when @bom. */
static uint8_t *ucs2(const char *text, bool bom, size_t *size)
{
	size_t len = strlen(text), n = 0;
	uint8_t *out = malloc(2 * (len + 1));

	if (bom) {
		out[n++] = 0xff;
		out[n++] = 0xfe;
	}
	for (size_t i = 0; i < len; i++) {
		out[n++] = (uint8_t)text[i];
		out[n++] = 0;
	}
	*size = n;
	return out;
}

static struct fallback_csv csv;

static int parse_text(const char *text, bool bom, const char **reason)
{
	struct reason_buf buf;
	size_t size;
	uint8_t *data = ucs2(text, bom, &size);
	int r;

	*reason = NULL;
	r = fallback_csv_parse(data, size, &csv, &buf, reason);
	free(data);
	/* the reason lives in buf: keep a copy */
	if (r < 0) {
		static char kept[256];

		snprintf(kept, sizeof(kept), "%s", *reason);
		*reason = kept;
	}
	return r;
}

/* The @len UCS-2 characters at @s as ASCII (others as '?'). */
static const char *ascii(const uint16_t *s, size_t len)
{
	static char out[2][2048];
	static int which;
	char *o = out[which ^= 1];
	size_t i;

	for (i = 0; i < len && i + 1 < sizeof(out[0]); i++)
		o[i] = s[i] < 0x80 ? (char)s[i] : '?';
	o[i] = '\0';
	return o;
}

static void test_spellings(void)
{
	static const struct {
		const char *name, *text;
		bool bom;
	} cases[] = {
		{ "Debian's: no BOM, LF", "shimx64.efi,debian,,This is the boot entry for debian\n",
		  false },
		{ "BOM and CRLF", "shimx64.efi,debian,,This is the boot entry for debian\r\n", true },
		{ "no line end at all", "shimx64.efi,debian,,This is the boot entry for debian",
		  false },
		{ "no options, no comment", "shimx64.efi,debian\n", false },
		{ "blank lines around it", "\r\n\n  \nshimx64.efi,debian,,c\n\n", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *reason;

		if (!CHECK_EQ(parse_text(cases[i].text, cases[i].bom, &reason), 0,
			      unit_name("CSV %s: parses", cases[i].name)))
			printf("#   %s\n", reason);
		CHECK_EQ(csv.count, 1u, unit_name("CSV %s: one option", cases[i].name));
		CHECK_STREQ(ascii(csv.entry[0].file, csv.entry[0].file_len), "shimx64.efi",
			    unit_name("CSV %s: file", cases[i].name));
		CHECK_STREQ(ascii(csv.entry[0].label, csv.entry[0].label_len), "debian",
			    unit_name("CSV %s: label", cases[i].name));
		CHECK_EQ(csv.entry[0].options_len, 0u, unit_name("CSV %s: no options", cases[i].name));
	}
}

static void test_lines(void)
{
	const char *reason;

	CHECK_EQ(parse_text("a.efi,A,vmlinuz.efi console=ttyS0,first, with commas\r\n"
			    "\r\n"
			    "b.efi,B b,,second\r\n",
			    true, &reason),
		 0, "CSV two options: parses");
	CHECK_EQ(csv.count, 2u, "CSV two options: both");
	CHECK_STREQ(ascii(csv.entry[0].options, csv.entry[0].options_len),
		    "vmlinuz.efi console=ttyS0", "CSV two options: the options up to the comment");
	CHECK_EQ(csv.entry[0].line, 1u, "CSV two options: first on line 1");
	CHECK_EQ(csv.entry[1].line, 3u, "CSV two options: CRLF counts one line each");
	CHECK_STREQ(ascii(csv.entry[1].label, csv.entry[1].label_len), "B b",
		    "CSV two options: a label with a space");
	CHECK_EQ(csv.entry[0].file[csv.entry[0].file_len], 0, "CSV: names are NUL-terminated");

	CHECK_EQ(parse_text("a.efi,A\nb.efi,B\rc.efi,C\n", false, &reason), 0,
		 "CSV lone CR ends a line: parses");
	CHECK_EQ(csv.entry[2].line, 3u, "CSV lone CR ends a line: the third on line 3");
}

static void test_nul_ends_text(void)
{
	static const uint8_t data[] = { 'a', 0, ',', 0, 'A', 0, 0, 0, 'x', 0 };
	struct reason_buf buf;
	const char *reason = NULL;
	uint8_t *copy = malloc(sizeof(data));

	memcpy(copy, data, sizeof(data));
	CHECK_EQ(fallback_csv_parse(copy, sizeof(data), &csv, &buf, &reason), 0,
		 "CSV: a NUL ends the text, as shim reads it");
	CHECK_EQ(csv.count, 1u, "CSV: what follows the NUL is not read");
	free(copy);
}

static void test_hostile(void)
{
	static const struct {
		const char *name, *text, *reason;
	} cases[] = {
		{ "empty", "", "names no boot option" },
		{ "only blank lines", "\r\n\n \n", "names no boot option" },
		{ "no label", "shimx64.efi\n", "line 1: no label" },
		{ "empty label", "shimx64.efi,,opts\n", "line 1: no label" },
		{ "no file name", ",debian,,\n", "line 1: no file name" },
		{ "second line bad", "a.efi,A\n\n,B\n", "line 3: no file name" },
		{ "a path, not a name", "..\\BOOT\\BOOTX64.EFI,x\n", "line 1: file name has" },
		{ "a forward slash", "sub/a.efi,x\n", "line 1: file name has" },
		{ "a drive colon", "fs0:a.efi,x\n", "line 1: file name has" },
		{ "dot dot", "..,x\n", "line 1: file name is a directory" },
		{ "control character in label", "a.efi,x\x01y\n", "line 1: label has character U+0001" },
		{ "tab in options", "a.efi,x,a\tb\n", "line 1: options has character U+0009" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *reason;

		CHECK_EQ(parse_text(cases[i].text, false, &reason), -1,
			 unit_name("CSV %s: refused", cases[i].name));
		CHECK_STRSTR(reason, cases[i].reason, unit_name("CSV %s: says why", cases[i].name));
	}
}

static void test_encoding(void)
{
	static const uint8_t odd[] = { 'a', 0, ',' };
	static const uint8_t swapped[] = { 0xfe, 0xff, 0, 'a', 0, ',', 0, 'A' };
	static const uint8_t surrogate[] = { 'a', 0, ',', 0, 0x00, 0xd8, '\n', 0 };
	static const uint8_t unicode[] = { 'a', 0, ',', 0, 0xe9, 0x00, 0x3a, 0x04, '\n', 0 };
	static const struct {
		const char *name;
		const uint8_t *data;
		size_t size;
		int r;
		const char *reason;
	} cases[] = {
		{ "odd size", odd, sizeof(odd), -1, "odd number of bytes" },
		{ "big-endian BOM", swapped, sizeof(swapped), -1, "big-endian" },
		{ "a lone surrogate in the label", surrogate, sizeof(surrogate), -1, "U+D800" },
		{ "a non-ASCII label", unicode, sizeof(unicode), 0, NULL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct reason_buf buf;
		const char *reason = NULL;
		uint8_t *copy = malloc(cases[i].size);

		memcpy(copy, cases[i].data, cases[i].size);
		CHECK_EQ(fallback_csv_parse(copy, cases[i].size, &csv, &buf, &reason), cases[i].r,
			 unit_name("CSV %s: %s", cases[i].name, cases[i].r ? "refused" : "parses"));
		if (cases[i].reason)
			CHECK_STRSTR(reason, cases[i].reason,
				     unit_name("CSV %s: says why", cases[i].name));
		free(copy);
	}
	CHECK_EQ(csv.entry[0].label[1], 0x043a, "CSV: a non-ASCII label kept as it is");
}

static void test_limits(void)
{
	char *text = malloc(64 * 1024);
	const char *reason;
	size_t n;

	/* options of exactly the maximum, then one more */
	for (size_t extra = 0; extra < 2; extra++) {
		n = (size_t)sprintf(text, "a.efi,A,");
		memset(text + n, 'o', FALLBACK_OPTIONS_MAX + extra);
		strcpy(text + n + FALLBACK_OPTIONS_MAX + extra, "\n");
		CHECK_EQ(parse_text(text, false, &reason), extra ? -1 : 0,
			 unit_name("CSV options of %zu characters", FALLBACK_OPTIONS_MAX + extra));
	}
	CHECK_STRSTR(reason, "options longer than", "CSV options too long: says why");

	n = (size_t)sprintf(text, "a.efi,");
	memset(text + n, 'L', FALLBACK_LABEL_MAX + 1);
	strcpy(text + n + FALLBACK_LABEL_MAX + 1, "\n");
	CHECK_EQ(parse_text(text, false, &reason), -1, "CSV label too long: refused");

	memset(text, 'f', FALLBACK_NAME_MAX + 1);
	strcpy(text + FALLBACK_NAME_MAX + 1, ",A\n");
	CHECK_EQ(parse_text(text, false, &reason), -1, "CSV file name too long: refused");

	text[0] = '\0';
	for (size_t i = 0; i <= FALLBACK_MAX_ENTRIES; i++)
		strcat(text, "a.efi,A\n");
	CHECK_EQ(parse_text(text, false, &reason), -1, "CSV too many lines: refused");
	CHECK_STRSTR(reason, "line 17: more than 16 options", "CSV too many lines: says which");

	/* past the size bound, whatever it holds */
	{
		struct reason_buf buf;
		uint8_t *data = calloc(FALLBACK_CSV_MAX_SIZE + 2, 1);

		memcpy(data, "a\0,\0A\0", 6);
		CHECK_EQ(fallback_csv_parse(data, FALLBACK_CSV_MAX_SIZE + 2, &csv, &buf, &reason),
			 -1, "CSV larger than the bound: refused");
		CHECK_STRSTR(reason, "larger than", "CSV larger than the bound: says why");
		free(data);
	}
	free(text);
}

static void test_vendor_dir(void)
{
	static const struct {
		const char *name;
		int r;
	} cases[] = {
		{ "debian", 1 }, { "Fedora", 1 }, { "BOOT", 0 },       { "boot", 0 },
		{ "Boot", 0 },   { ".", 0 },      { "..", 0 },         { "bootx", 1 },
		{ "", -1 },      { "a:b", -1 },   { "x\x7fy", -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint16_t name[16];
		size_t len = strlen(cases[i].name);
		const char *reason = NULL;

		for (size_t c = 0; c < len; c++)
			name[c] = (uint8_t)cases[i].name[c];
		CHECK_EQ(fallback_vendor_dir(name, len, &reason), cases[i].r,
			 unit_name("vendor directory \"%s\"", cases[i].name));
	}
}

/* A GPT HD() node: partition 1 from LBA 2048, GUID 0c4e5a1d-5e5f-4c0c-9d1a-6c6f636b7368. */
static const uint8_t hd_node[FALLBACK_HD_NODE_SIZE] = {
	0x04, 0x01, 42,   0,	1,    0,    0,	  0, /* header, partition 1 */
	0x00, 0x08, 0,	  0,	0,    0,    0,	  0, /* start 2048 */
	0x00, 0x80, 0,	  0,	0,    0,    0,	  0, /* size 32768 */
	0x1d, 0x5a, 0x4e, 0x0c, 0x5f, 0x5e, 0x0c, 0x4c, 0x9d, 0x1a, 0x6c,
	0x6f, 0x63, 0x6b, 0x73, 0x68, 0x02, 0x02, /* GUID, GPT, GUID signature */
};
#define HD_GUID "0c4e5a1d-5e5f-4c0c-9d1a-6c6f636b7368"

static void test_load_option(void)
{
	static const uint16_t dir[] = { 'd', 'e', 'b', 'i', 'a', 'n' };
	uint8_t *option = malloc(FALLBACK_LOAD_OPTION_MAX);
	struct fallback_path path;
	struct boot_option bo;
	struct load_options lo;
	const char *reason = NULL;
	size_t size;
	uint8_t *copy;

	CHECK_EQ(parse_text("lockshimx64.efi,Debian (lockshim),vmlinuz.efi console=ttyS0,c\n", false,
			    &reason),
		 0, "load option: CSV parses");
	fallback_entry_path(dir, ARRAY_SIZE(dir), &csv.entry[0], &path);
	CHECK_STREQ(path.ascii, "\\EFI\\debian\\lockshimx64.efi", "load option: the path");
	CHECK_EQ(path.ucs2[path.len], 0, "load option: the UCS-2 path is terminated");
	size = fallback_load_option(hd_node, &csv.entry[0], &path, option);
	CHECK_LE(size, (size_t)FALLBACK_LOAD_OPTION_MAX, "load option: within its bound");

	/* read back as `lockshim check` reads a Boot#### variable, in a block of its size */
	copy = malloc(size);
	memcpy(copy, option, size);
	if (!CHECK_EQ(boot_option_parse(copy, size, &bo, &reason), 0, "load option: parses back"))
		printf("#   %s\n", reason);
	CHECK_EQ(bo.attributes, LOAD_OPTION_ACTIVE, "load option: active");
	CHECK_STREQ(bo.description, "Debian (lockshim)", "load option: the label");
	CHECK_STREQ(bo.path, "\\EFI\\debian\\lockshimx64.efi", "load option: the file");
	CHECK_STREQ(bo.partition_guid, HD_GUID, "load option: the partition");
	CHECK_EQ(bo.target, BOOT_TARGET_FILE, "load option: a file");
	CHECK_EQ(bo.optional_data_size, 2u * (25 + 1), "load option: options with their NUL");
	CHECK_MEMEQ(copy + 6 + 2 * 18, hd_node, sizeof(hd_node),
		    "load option: the device path starts with the HD() node as given");
	CHECK_EQ(read_le16(copy + 4), 42u + 4 + 2 * (27 + 1) + 4,
		 "load option: the path list length");
	CHECK(fallback_option_matches(&bo, path.ascii, HD_GUID), "load option: matches itself");
	if (CHECK_EQ(load_options_parse(bo.optional_data, bo.optional_data_size, &lo, &reason), 0,
		     "load option: lockshim reads its options"))
		CHECK_EQ(lo.kernel_path_len, 11u, "load option: the kernel it names");
	free(copy);

	/* no options: no optional data at all, as shim writes it */
	CHECK_EQ(parse_text("lockshimx64.efi,Debian\n", false, &reason), 0,
		 "load option without options: CSV parses");
	size = fallback_load_option(hd_node, &csv.entry[0], &path, option);
	copy = malloc(size);
	memcpy(copy, option, size);
	CHECK_EQ(boot_option_parse(copy, size, &bo, &reason), 0,
		 "load option without options: parses back");
	CHECK_PTR_EQ(bo.optional_data, NULL, "load option without options: no optional data");
	free(copy);
	free(option);
}

static void test_matches(void)
{
	static const struct {
		const char *name, *path, *guid;
		enum boot_option_target target;
		bool match;
	} cases[] = {
		{ "same path and partition", "\\EFI\\debian\\lockshimx64.efi", HD_GUID,
		  BOOT_TARGET_FILE, true },
		{ "other case", "\\efi\\DEBIAN\\LockshimX64.EFI", HD_GUID, BOOT_TARGET_FILE, true },
		{ "uppercase GUID", "\\EFI\\debian\\lockshimx64.efi",
		  "0C4E5A1D-5E5F-4C0C-9D1A-6C6F636B7368", BOOT_TARGET_FILE, true },
		{ "no HD() node: any partition", "\\EFI\\debian\\lockshimx64.efi", "",
		  BOOT_TARGET_FILE, true },
		{ "another partition", "\\EFI\\debian\\lockshimx64.efi",
		  "11111111-5e5f-4c0c-9d1a-6c6f636b7368", BOOT_TARGET_FILE, false },
		{ "another file", "\\EFI\\debian\\grubx64.efi", HD_GUID, BOOT_TARGET_FILE, false },
		{ "a prefix of it", "\\EFI\\debian\\lockshimx64.ef", HD_GUID, BOOT_TARGET_FILE,
		  false },
		{ "the firmware's", "\\EFI\\debian\\lockshimx64.efi", "", BOOT_TARGET_FIRMWARE,
		  false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct boot_option bo = { .target = cases[i].target };

		snprintf(bo.path, sizeof(bo.path), "%s", cases[i].path);
		snprintf(bo.partition_guid, sizeof(bo.partition_guid), "%s", cases[i].guid);
		CHECK_EQ(fallback_option_matches(&bo, "\\EFI\\debian\\lockshimx64.efi", HD_GUID),
			 cases[i].match, unit_name("match: %s", cases[i].name));
	}
}

static void test_option_number(void)
{
	static const struct {
		const char *name;
		int number;
	} cases[] = {
		{ "Boot0000", 0 },    { "Boot000A", 10 },  { "Boot00ff", 255 }, { "BootFFFF", 0xffff },
		{ "BootOrder", -1 },  { "Boot000", -1 },   { "Boot0000x", -1 }, { "boot0001", -1 },
		{ "Boot00G1", -1 },   { "Driver0001", -1 }, { "BootNext", -1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint16_t name[16];
		size_t len = strlen(cases[i].name);

		for (size_t c = 0; c < len; c++)
			name[c] = (uint8_t)cases[i].name[c];
		CHECK_EQ(fallback_option_number(name, len), cases[i].number,
			 unit_name("option number of %s", cases[i].name));
	}
}

static void test_boot_order(void)
{
	static const struct {
		const char *name;
		uint16_t order[6];
		size_t count;
		uint16_t first[3];
		size_t first_count;
		uint16_t want[8];
		size_t want_count;
		int changed;
	} cases[] = {
		{ "no BootOrder", {}, 0, { 3 }, 1, { 3 }, 1, 1 },
		{ "new option first", { 0, 1 }, 2, { 3 }, 1, { 3, 0, 1 }, 3, 1 },
		{ "existing one moved first", { 0, 1, 2 }, 3, { 1 }, 1, { 1, 0, 2 }, 3, 1 },
		{ "already first", { 1, 0 }, 2, { 1 }, 1, { 1, 0 }, 2, 0 },
		{ "two in CSV order", { 0, 4 }, 2, { 4, 3 }, 2, { 4, 3, 0 }, 3, 1 },
		{ "duplicates dropped", { 0, 1, 0, 1 }, 4, { 1 }, 1, { 1, 0 }, 2, 1 },
		{ "the same option twice", { 0 }, 1, { 2, 2 }, 2, { 2, 0 }, 2, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint16_t out[BOOT_ORDER_MAX];
		size_t n = 99;
		const char *reason = NULL;

		CHECK_EQ(fallback_boot_order(cases[i].order, cases[i].count, cases[i].first,
					     cases[i].first_count, out, &n, &reason),
			 cases[i].changed, unit_name("BootOrder %s: changed or not", cases[i].name));
		if (CHECK_EQ(n, cases[i].want_count, unit_name("BootOrder %s: count", cases[i].name)))
			CHECK_MEMEQ(out, cases[i].want, n * sizeof(uint16_t),
				    unit_name("BootOrder %s: order", cases[i].name));
	}

	{
		uint16_t *full = calloc(BOOT_ORDER_MAX, sizeof(uint16_t)), out[BOOT_ORDER_MAX];
		uint16_t first = 0xffff;
		size_t n;
		const char *reason = NULL;

		for (size_t i = 0; i < BOOT_ORDER_MAX; i++)
			full[i] = (uint16_t)i;
		CHECK_EQ(fallback_boot_order(full, BOOT_ORDER_MAX, &first, 1, out, &n, &reason), -1,
			 "BootOrder: one too many is refused");
		CHECK_STRSTR(reason, "too many", "BootOrder too long: says why");
		CHECK(fallback_order_has(full, BOOT_ORDER_MAX, 511), "order has: the last");
		CHECK(!fallback_order_has(full, BOOT_ORDER_MAX, 512), "order has: not one past");
		free(full);
	}
}

static void test_gpt_find(void)
{
	uint8_t dp[FALLBACK_HD_NODE_SIZE + 8];
	struct dp_node hd;
	const uint8_t *guid;
	const char *reason = NULL;

	memcpy(dp, hd_node, sizeof(hd_node));
	memcpy(dp + sizeof(hd_node), "\x7f\xff\x04\x00", 4);
	CHECK_EQ(device_path_gpt_find(dp, sizeof(hd_node) + 4, &hd, &guid, &reason), 1,
		 "GPT find: the HD() node");
	CHECK_PTR_EQ(hd.data, dp, "GPT find: points at the node");
	CHECK_EQ(device_path_gpt_find(dp + sizeof(hd_node), 4, &hd, &guid, &reason), 0,
		 "GPT find: none in an empty path");
	CHECK_EQ(device_path_gpt_find(dp, sizeof(hd_node), &hd, &guid, &reason), -1,
		 "GPT find: a path without its end node");
}

int main(void)
{
	test_spellings();
	test_lines();
	test_nul_ends_text();
	test_hostile();
	test_encoding();
	test_limits();
	test_vendor_dir();
	test_load_option();
	test_matches();
	test_option_number();
	test_boot_order();
	test_gpt_find();
	return unit_failed;
}
