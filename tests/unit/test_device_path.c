// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The device path walker (device_path.c): a node shorter than its header,
 * a zero-length one above all, stops the walk with a reason whatever its
 * type and subtype, the end node's included (walking on would loop on it,
 * or read the next "node" from the middle of this one); so do the size of
 * a path (device_path_size) and the file path it names
 * (device_path_file_text). Every path is in a heap block of exactly its
 * size, so ASan sees a read past it.
 */
#include "device_path.h"
#include "macro.h"
#include "unit.h"

#include <stdlib.h>

/* A node of @length (as its header says) and @data_size bytes of data, at @p. */
static size_t node(uint8_t *p, uint8_t type, uint8_t subtype, uint16_t length, size_t data_size)
{
	p[0] = type;
	p[1] = subtype;
	p[2] = (uint8_t)length;
	p[3] = (uint8_t)(length >> 8);
	memset(p + DP_HEADER_SIZE, 0x41, data_size);
	return DP_HEADER_SIZE + data_size;
}

/* A file path node of @text (ASCII), NUL-terminated, at @p. */
static size_t file_node(uint8_t *p, const char *text)
{
	size_t len = strlen(text), size = DP_HEADER_SIZE + 2 * (len + 1);

	node(p, DP_TYPE_MEDIA, DP_SUBTYPE_FILE_PATH, (uint16_t)size, 0);
	for (size_t i = 0; i <= len; i++) {
		p[DP_HEADER_SIZE + 2 * i] = (uint8_t)text[i];
		p[DP_HEADER_SIZE + 2 * i + 1] = 0;
	}
	return size;
}

static size_t end_node(uint8_t *p)
{
	return node(p, DP_TYPE_END, DP_SUBTYPE_END_ENTIRE, DP_HEADER_SIZE, 0);
}

/* A heap copy of exactly @size bytes. */
static uint8_t *held(const uint8_t *data, size_t size)
{
	uint8_t *p = malloc(size);

	memcpy(p, data, size);
	return p;
}

/*
 * A node of @type and @subtype with a @length under its header, after a
 * file path node and with more file path nodes and an end node after it:
 * device_path_next refuses it where it stands, device_path_size and
 * device_path_file_text refuse the path. Returns whether all three did.
 */
static bool short_node_stops(uint8_t type, uint8_t subtype, uint16_t length)
{
	uint8_t buf[256], *dp;
	uint16_t text[64];
	size_t n = 0, first, at, size, len;
	struct dp_node nd;
	const char *reason = NULL;
	bool stops;

	n += file_node(buf + n, "\\EFI");
	first = n;
	n += node(buf + n, type, subtype, length, 8);
	n += file_node(buf + n, "boot.efi");
	n += end_node(buf + n);
	dp = held(buf, n);
	at = first;
	stops = device_path_next(dp, n, &at, &nd, &reason) == -1 && at == first && reason &&
		strcmp(reason, "device path node has a bad length") == 0 &&
		device_path_size(dp, n, &size, &reason) == -1 &&
		device_path_file_text(dp, n, text, ARRAY_SIZE(text), &len, &reason) == -1;
	free(dp);
	return stops;
}

/* Every type, the subtypes that mean something to lockshim (the end node's two among them). */
static void test_short_node_any_type(void)
{
	static const uint8_t subtypes[] = { 0x00, 0x01, DP_SUBTYPE_HARD_DRIVE, DP_SUBTYPE_FILE_PATH,
					    DP_SUBTYPE_PIWG_FILE, DP_SUBTYPE_PIWG_FV,
					    DP_SUBTYPE_END_ENTIRE };
	unsigned int wrong = 0, cases = 0;

	for (unsigned int type = 0; type < 256; type++)
		for (size_t s = 0; s < ARRAY_SIZE(subtypes); s++)
			for (uint16_t length = 0; length < DP_HEADER_SIZE; length++, cases++)
				if (!short_node_stops((uint8_t)type, subtypes[s], length) &&
				    !wrong++)
					printf("# first that did not stop: type 0x%02x subtype 0x%02x length %u\n",
					       type, subtypes[s], length);
	CHECK_EQ(cases, 256u * ARRAY_SIZE(subtypes) * DP_HEADER_SIZE,
		 "a node of length 0 to 3 tried for every type");
	CHECK_EQ(wrong, 0u, "every node shorter than its header stops the walk, with a reason");
}

static void test_walk(void)
{
	uint8_t buf[256], *dp;
	uint16_t text[64];
	struct dp_node nd;
	const char *reason = NULL;
	size_t n = 0, at = 0, size = 0, len = 0, path_end;
	int r;

	n += node(buf + n, 0x02, 0x01, 12, 8); /* ACPI */
	n += file_node(buf + n, "\\EFI\\lockshim");
	n += file_node(buf + n, "grub/x64.efi");
	n += node(buf + n, DP_TYPE_END, 0x01, DP_HEADER_SIZE, 0); /* the end of one instance */
	n += file_node(buf + n, "second");
	n += end_node(buf + n);
	path_end = n;
	n += node(buf + n, 0x01, 0x01, 0, 0); /* past the end node: never read */
	dp = held(buf, n);

	r = device_path_next(dp, n, &at, &nd, &reason);
	CHECK_EQ(r, 1, "the first node");
	CHECK_EQ(nd.type, 0x02, "its type");
	CHECK_EQ(nd.length, 12, "its length");
	CHECK_EQ(at, 12u, "the walk moved past it");
	CHECK_EQ(device_path_size(dp, n, &size, &reason), 0, "a path with a node after its end");
	CHECK_EQ(size, path_end, "its size ends with the end node");
	CHECK_EQ(device_path_size(dp, path_end, &size, &reason), 0, "bounded at its end node");
	CHECK_EQ(device_path_size(dp, path_end - 1, &size, &reason), -1,
		 "bounded one byte short: refused");
	CHECK_STREQ(reason, "device path has no end node", "no end node within the bound");
	CHECK_EQ(device_path_size(dp, 12 + DP_HEADER_SIZE + 2, &size, &reason), -1,
		 "bounded inside a node: refused");
	CHECK_STREQ(reason, "device path node has a bad length", "the node runs past the bound");

	CHECK_EQ(device_path_file_text(dp, n, text, ARRAY_SIZE(text), &len, &reason), 0,
		 "the file path text");
	CHECK_EQ(len, strlen("\\EFI\\lockshim\\grub\\x64.efi\\second"), "its length");
	{
		char ascii[64];

		for (size_t i = 0; i <= len; i++)
			ascii[i] = (char)text[i];
		CHECK_STREQ(ascii, "\\EFI\\lockshim\\grub\\x64.efi\\second",
			    "nodes joined with '\\', '/' as '\\'");
	}
	CHECK_EQ(device_path_file_text(dp, n, NULL, 0, &len, &reason), 0, "the length alone");
	CHECK_EQ(len, strlen("\\EFI\\lockshim\\grub\\x64.efi\\second"), "the same length");
	CHECK_EQ(device_path_file_text(dp, n, text, 5, &len, &reason), 0, "too little room");
	CHECK_EQ(len, strlen("\\EFI\\lockshim\\grub\\x64.efi\\second"), "says the room it needs");
	CHECK_EQ(text[4], 0, "and what it wrote is terminated");
	free(dp);

	n = end_node(buf);
	dp = held(buf, n);
	CHECK_EQ(device_path_file_text(dp, n, text, ARRAY_SIZE(text), &len, &reason), 0,
		 "a path of its end node alone");
	CHECK_EQ(len, 0u, "names no file");
	CHECK_EQ(text[0], 0, "an empty text");
	free(dp);
}

int main(void)
{
	test_short_node_any_type();
	test_walk();
	return unit_failed;
}
