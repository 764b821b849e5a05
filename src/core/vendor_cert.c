// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "vendor_cert.h"

#include "reason.h"
#include "safe_math.h"

/* One part of the table: @offset and @length must lie inside the section. */
static int table_part(const uint8_t *data, size_t size, uint32_t offset, uint32_t length,
		      const uint8_t **part, size_t *part_size)
{
	if (!range_inside(offset, length, size))
		return -1;
	*part = length ? data + offset : NULL;
	*part_size = length;
	return 0;
}

int vendor_cert_table_parse(const uint8_t *data, size_t size, struct vendor_cert_table *out,
			    const char **reason)
{
	if (size < VENDOR_CERT_TABLE_SIZE)
		return refuse(reason, ".vendor_cert shorter than its table");
	if (table_part(data, size, read_le32(data + 8), read_le32(data), &out->authorized,
		       &out->authorized_size) < 0)
		return refuse(reason, ".vendor_cert: vendor certificate runs past the section");
	if (table_part(data, size, read_le32(data + 12), read_le32(data + 4), &out->deauthorized,
		       &out->deauthorized_size) < 0)
		return refuse(reason, ".vendor_cert: vendor dbx runs past the section");
	return 0;
}
