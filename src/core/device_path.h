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
/*
 * A device path the firmware hands over comes without its size: it is
 * walked within this many bytes, and refused when no end node comes first.
 */
#define DEVICE_PATH_BOUND (64 * 1024)

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
 * The size of the device path at @dp, its end node included, walked within
 * @bound bytes into *@size. Returns 0, or -1 with a reason as
 * device_path_next; a node shorter than its header, of any type, stops it
 * (walking on would loop on a zero-length one).
 */
int device_path_size(const uint8_t *dp, size_t bound, size_t *size, const char **reason);

/*
 * The file path nodes of the device path at @dp (walked within @size
 * bytes to its end node) joined as one UCS-2 path: '\' between nodes, '/'
 * as '\', each node's text up to its NUL. *@len is the characters the
 * whole text has, without its NUL; as much of it as fits in the @max
 * characters at @out is written there, NUL-terminated (@out may be NULL
 * when @max is 0). Returns 0, or -1 with a reason for a malformed path.
 */
int device_path_file_text(const uint8_t *dp, size_t size, uint16_t *out, size_t max, size_t *len,
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
