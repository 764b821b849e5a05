// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_option.h"

#include <string.h>

#include "reason.h"
#include "safe_math.h"
#include "signature_list.h"

/* Device path node types and subtypes (UEFI 2.10, 10.3) that say where an image is. */
#define DP_HEADER_SIZE        4
#define DP_TYPE_MEDIA         0x04
#define DP_SUBTYPE_HARD_DRIVE 0x01
#define DP_SUBTYPE_FILE_PATH  0x04
#define DP_SUBTYPE_PIWG_FILE  0x06 /* a file in a firmware volume */
#define DP_SUBTYPE_PIWG_FV    0x07
#define DP_TYPE_END           0x7f
#define DP_SUBTYPE_END_ENTIRE 0xff
#define HD_NODE_SIZE          42
#define HD_SIGNATURE_OFFSET   24
#define HD_SIGNATURE_TYPE     41
#define HD_SIGNATURE_GUID     0x02

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

/* Append one file path node's UCS-2 text (up to its NUL) to out->path, '\' between nodes. */
static int append_file_path(const uint8_t *text, size_t size, struct boot_option *out,
			    const char **reason)
{
	size_t len = strlen(out->path);

	if (len && out->path[len - 1] != '\\' && size >= 2 && read_le16(text) != '\\') {
		if (len + 1 >= sizeof(out->path))
			return refuse(reason, "boot option file path too long");
		out->path[len++] = '\\';
	}
	for (size_t at = 0; range_inside(at, 2, size); at += 2) {
		uint16_t c = read_le16(text + at);

		if (c == 0)
			break;
		if (c < 0x20 || c >= 0x7f)
			return refuse(reason, "boot option file path is not printable ASCII");
		if (len + 1 >= sizeof(out->path))
			return refuse(reason, "boot option file path too long");
		out->path[len++] = c == '/' ? '\\' : (char)c;
	}
	out->path[len] = '\0';
	return 0;
}

/* Walk the device path of @size bytes at @dp, one node at a time, up to its end node. */
static int parse_device_path(const uint8_t *dp, size_t size, struct boot_option *out,
			     const char **reason)
{
	bool firmware = false;
	size_t at = 0;

	for (;;) {
		uint8_t type, subtype;
		uint16_t length;

		if (!range_inside(at, DP_HEADER_SIZE, size))
			return refuse(reason, "boot option device path has no end node");
		type = dp[at];
		subtype = dp[at + 1];
		length = read_le16(dp + at + 2);
		if (length < DP_HEADER_SIZE || !range_inside(at, length, size))
			return refuse(reason, "boot option device path node has a bad length");
		if (type == DP_TYPE_END && subtype == DP_SUBTYPE_END_ENTIRE)
			break;
		if (type == DP_TYPE_MEDIA && subtype == DP_SUBTYPE_HARD_DRIVE) {
			if (length != HD_NODE_SIZE)
				return refuse(reason, "boot option HD() node has a bad length");
			if (dp[at + HD_SIGNATURE_TYPE] == HD_SIGNATURE_GUID)
				esl_guid_text(dp + at + HD_SIGNATURE_OFFSET, out->partition_guid);
		} else if (type == DP_TYPE_MEDIA && subtype == DP_SUBTYPE_FILE_PATH) {
			if (append_file_path(dp + at + DP_HEADER_SIZE, length - DP_HEADER_SIZE, out,
					     reason) < 0)
				return -1;
		} else if (type == DP_TYPE_MEDIA &&
			   (subtype == DP_SUBTYPE_PIWG_FILE || subtype == DP_SUBTYPE_PIWG_FV)) {
			firmware = true;
		}
		at += length;
	}
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
