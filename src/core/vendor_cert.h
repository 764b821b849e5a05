/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The `.vendor_cert` section, in rhboot/shim's layout (shim.h, struct
 * cert_table), which lockshim's image carries too (src/efi/vendor_certs.S),
 * so that a host reads the keys of either first stage the same way:
 *
 *   UINT32 vendor_authorized_size, vendor_deauthorized_size;
 *   UINT32 vendor_authorized_offset, vendor_deauthorized_offset;
 *
 * offsets counted from the start of the section. The authorized part is a
 * DER certificate, or an EFI signature list when shim was built with
 * VENDOR_DB_FILE; the deauthorized part is an EFI signature list (the
 * vendor dbx). Either may be empty.
 */
#ifndef LOCKSHIM_VENDOR_CERT_H
#define LOCKSHIM_VENDOR_CERT_H

#include <stddef.h>
#include <stdint.h>

#define VENDOR_CERT_TABLE_SIZE 16

struct vendor_cert_table {
	const uint8_t *authorized; /* point into the section; NULL when empty */
	size_t authorized_size;
	const uint8_t *deauthorized;
	size_t deauthorized_size;
};

/*
 * Parse a `.vendor_cert` section of @size bytes at @data into @out.
 * Returns 0, or -1 with a reason when the header or a part does not fit.
 */
int vendor_cert_table_parse(const uint8_t *data, size_t size, struct vendor_cert_table *out,
			    const char **reason);

#endif
