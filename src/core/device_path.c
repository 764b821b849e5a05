// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "device_path.h"

#include <string.h>

#include "reason.h"
#include "safe_math.h"

/* HARDDRIVE_DEVICE_PATH: header, partition number, start, size, signature, MBR and signature types */
#define HD_NODE_SIZE        42
#define HD_SIGNATURE_OFFSET 24
#define HD_SIGNATURE_TYPE   41
#define HD_SIGNATURE_GUID   0x02

int device_path_next(const uint8_t *dp, size_t size, size_t *at, struct dp_node *node,
		     const char **reason)
{
	if (!range_inside(*at, DP_HEADER_SIZE, size))
		return refuse(reason, "device path has no end node");
	node->type = dp[*at];
	node->subtype = dp[*at + 1];
	node->length = read_le16(dp + *at + 2);
	node->data = dp + *at;
	if (node->length < DP_HEADER_SIZE || !range_inside(*at, node->length, size))
		return refuse(reason, "device path node has a bad length");
	if (node->type == DP_TYPE_END && node->subtype == DP_SUBTYPE_END_ENTIRE)
		return 0;
	*at += node->length;
	return 1;
}

int device_path_size(const uint8_t *dp, size_t bound, size_t *size, const char **reason)
{
	struct dp_node node;
	size_t at = 0;
	int r;

	while ((r = device_path_next(dp, bound, &at, &node, reason)) > 0)
		;
	if (r < 0)
		return -1;
	*size = at + node.length;
	return 0;
}

/* Character @c at position @n of the text, kept when there is room for it and the NUL. */
static void put_char(uint16_t *out, size_t max, size_t n, uint16_t c)
{
	if (n + 1 < max)
		out[n] = c;
}

int device_path_file_text(const uint8_t *dp, size_t size, uint16_t *out, size_t max, size_t *len,
			  const char **reason)
{
	struct dp_node node;
	size_t at = 0, n = 0;
	uint16_t last = 0;
	int r;

	while ((r = device_path_next(dp, size, &at, &node, reason)) > 0) {
		const uint8_t *text = node.data + DP_HEADER_SIZE;
		size_t text_size = node.length - DP_HEADER_SIZE;
		uint16_t first = text_size >= 2 ? read_le16(text) : 0;

		if (node.type != DP_TYPE_MEDIA || node.subtype != DP_SUBTYPE_FILE_PATH)
			continue;
		/* firmware may split a path across nodes, with or without their '\' */
		if (n && last != '\\' && first && first != '\\' && first != '/')
			put_char(out, max, n++, last = '\\');
		for (size_t i = 0; range_inside(i, 2, text_size); i += 2) {
			uint16_t c = read_le16(text + i);

			if (c == 0)
				break;
			last = c == '/' ? '\\' : c;
			put_char(out, max, n++, last);
		}
	}
	if (r < 0)
		return -1;
	if (max)
		out[n + 1 < max ? n : max - 1] = 0;
	*len = n;
	return 0;
}

int device_path_gpt_partition(const struct dp_node *node, const uint8_t **guid, const char **reason)
{
	if (node->type != DP_TYPE_MEDIA || node->subtype != DP_SUBTYPE_HARD_DRIVE)
		return 0;
	if (node->length != HD_NODE_SIZE)
		return refuse(reason, "device path HD() node has a bad length");
	if (node->data[HD_SIGNATURE_TYPE] != HD_SIGNATURE_GUID)
		return 0;
	*guid = node->data + HD_SIGNATURE_OFFSET;
	return 1;
}

int device_path_gpt_find(const uint8_t *dp, size_t size, struct dp_node *hd, const uint8_t **guid,
			 const char **reason)
{
	static const uint8_t zero[16];
	struct dp_node node;
	size_t at = 0;
	int r;

	*guid = NULL;
	while ((r = device_path_next(dp, size, &at, &node, reason)) > 0) {
		const uint8_t *found;
		int gpt = device_path_gpt_partition(&node, &found, reason);

		if (gpt < 0)
			return -1;
		if (gpt > 0 && !*guid) {
			*hd = node;
			*guid = found;
		}
	}
	if (r < 0)
		return -1;
	if (!*guid || memcmp(*guid, zero, sizeof(zero)) == 0)
		return 0;
	return 1;
}
