// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_option.h"

#include <string.h>

#include "device_path.h"
#include "macro.h"
#include "reason.h"
#include "safe_math.h"
#include "signature_list.h"

int boot_order_parse(const uint8_t *data, size_t size, uint16_t *out, size_t *count,
		     const char **reason)
{
	if (size % 2)
		return refuse(reason, "BootOrder has an odd number of bytes");
	if (size / 2 > BOOT_ORDER_MAX)
		return refuse(reason, "BootOrder names too many options");
	for (size_t i = 0; i < size / 2; i++)
		out[i] = read_le16(data + 2 * i);
	*count = size / 2;
	return 0;
}

/* The NUL-terminated UCS-2 description at @data; *@used its bytes with the NUL. */
static int parse_description(const uint8_t *data, size_t size, struct boot_option *out,
			     size_t *used, const char **reason)
{
	size_t n = 0;

	for (size_t at = 0; range_inside(at, 2, size); at += 2) {
		uint16_t c = read_le16(data + at);

		if (c == 0) {
			out->description[n] = '\0';
			*used = at + 2;
			return 0;
		}
		if (n + 1 < sizeof(out->description))
			out->description[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	return refuse(reason, "boot option description has no terminator");
}

/* The file path the device path names, into out->path as printable ASCII. */
static int file_path(const uint8_t *dp, size_t size, struct boot_option *out, const char **reason)
{
	uint16_t text[BOOT_OPTION_MAX_PATH];
	size_t len;

	if (device_path_file_text(dp, size, text, ARRAY_SIZE(text), &len, reason) < 0)
		return -1;
	if (len >= ARRAY_SIZE(text))
		return refuse(reason, "boot option file path too long");
	for (size_t i = 0; i < len; i++) {
		if (text[i] < 0x20 || text[i] >= 0x7f)
			return refuse(reason, "boot option file path is not printable ASCII");
		out->path[i] = (char)text[i];
	}
	out->path[len] = '\0';
	return 0;
}

/* Walk the device path of @size bytes at @dp, one node at a time, up to its end node. */
static int parse_device_path(const uint8_t *dp, size_t size, struct boot_option *out,
			     const char **reason)
{
	bool firmware = false;
	struct dp_node node;
	size_t at = 0;
	int r;

	while ((r = device_path_next(dp, size, &at, &node, reason)) > 0) {
		const uint8_t *guid;
		int gpt;

		if (node.type != DP_TYPE_MEDIA)
			continue;
		if (node.subtype == DP_SUBTYPE_HARD_DRIVE) {
			gpt = device_path_gpt_partition(&node, &guid, reason);
			if (gpt < 0)
				return -1;
			if (gpt > 0)
				esl_guid_text(guid, out->partition_guid);
		} else if (node.subtype == DP_SUBTYPE_PIWG_FILE ||
			   node.subtype == DP_SUBTYPE_PIWG_FV) {
			firmware = true;
		}
	}
	if (r < 0 || file_path(dp, size, out, reason) < 0)
		return -1;
	if (firmware)
		out->target = BOOT_TARGET_FIRMWARE;
	else if (out->path[0])
		out->target = BOOT_TARGET_FILE;
	else
		out->target = BOOT_TARGET_OTHER;
	return 0;
}

int boot_option_parse(const uint8_t *data, size_t size, struct boot_option *out,
		      const char **reason)
{
	size_t description_size, path_at, path_end;
	uint16_t path_size;

	memset(out, 0, sizeof(*out));
	if (size < 6)
		return refuse(reason, "boot option shorter than its header");
	out->attributes = read_le32(data);
	path_size = read_le16(data + 4);
	if (parse_description(data + 6, size - 6, out, &description_size, reason) < 0)
		return -1;
	path_at = 6 + description_size;
	if (!range_inside(path_at, path_size, size))
		return refuse(reason, "boot option device path runs past its end");
	if (parse_device_path(data + path_at, path_size, out, reason) < 0)
		return -1;
	path_end = path_at + path_size;
	if (path_end < size) {
		out->optional_data = data + path_end;
		out->optional_data_size = size - path_end;
	}
	return 0;
}
