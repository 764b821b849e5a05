/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Device paths (UEFI 2.10, 10.3) walked node by node: a one-byte type, a
 * one-byte subtype, a little-endian 16-bit length that counts the 4-byte
 * header, then the node's data; the path ends with the end-of-entire-path
 * node. Every length is hostile: a node shorter than its header or running
 * past the bytes the caller gives is refused, and the walk reads nothing
 * past the end node, so a firmware path of unknown size can be walked with
 * a generous bound.
 */
#ifndef LOCKSHIM_DEVICE_PATH_H
#define LOCKSHIM_DEVICE_PATH_H

#include <stddef.h>
#include <stdint.h>

#define DP_HEADER_SIZE        4
#define DP_TYPE_MEDIA         0x04
#define DP_SUBTYPE_HARD_DRIVE 0x01
#define DP_SUBTYPE_FILE_PATH  0x04
#define DP_SUBTYPE_PIWG_FILE  0x06 /* a file in a firmware volume */
#define DP_SUBTYPE_PIWG_FV    0x07
#define DP_TYPE_END           0x7f
#define DP_SUBTYPE_END_ENTIRE 0xff

/* One node: @data points at its @length bytes, header included. */
struct dp_node {
	uint8_t type;
	uint8_t subtype;
	uint16_t length;
	const uint8_t *data;
};

/*
 * The node at offset *@at of the device path of @size bytes at @dp into
 * *@node, *@at moved past it. Returns 1 for a node, 0 at the end node, -1
 * with a reason when @size ends before an end node or a node's length is
 * under its header or runs past @size.
 */
int device_path_next(const uint8_t *dp, size_t size, size_t *at, struct dp_node *node,
		     const char **reason);

/*
 * The unique partition GUID of @node (16 bytes as EFI stores a GUID) when it
 * is an HD() node of a GPT partition (signature type GUID): returns 1 with
 * *@guid set, 0 for any other node, -1 with a reason for an HD() node that
 * is not the 42 bytes UEFI defines.
 */
int device_path_gpt_partition(const struct dp_node *node, const uint8_t **guid,
			      const char **reason);

/*
 * The first HD() node of a GPT partition in the device path of at most
 * @size bytes at @dp, walked whole to its end node: returns 1 with *@hd
 * and *@guid set, 0 when it has none (a zero partition GUID names none),
 * -1 with a reason for a malformed path.
 */
int device_path_gpt_find(const uint8_t *dp, size_t size, struct dp_node *hd, const uint8_t **guid,
			 const char **reason);

#endif
