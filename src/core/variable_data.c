// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "variable_data.h"

#include <string.h>

#include "guid.h"
#include "reason.h"
#include "safe_math.h"

/* EFI_VARIABLE_AUTHENTICATION_2: EFI_TIME, then WIN_CERTIFICATE_UEFI_GUID. */
#define EFI_TIME_SIZE             16
#define WIN_CERTIFICATE_GUID_SIZE 24 /* dwLength, wRevision, wCertificateType, CertType */
#define WIN_CERT_REVISION         0x0200
#define WIN_CERT_TYPE_EFI_GUID    0x0ef1

int efivarfs_split(const uint8_t *data, size_t size, uint32_t *attributes, const uint8_t **value,
		   size_t *value_size, const char **reason)
{
	if (size < EFIVARFS_ATTRIBUTES_SIZE)
		return refuse(reason, "truncated: shorter than its 4 bytes of attributes");
	*attributes = read_le32(data);
	*value = data + EFIVARFS_ATTRIBUTES_SIZE;
	*value_size = size - EFIVARFS_ATTRIBUTES_SIZE;
	return 0;
}

int auth2_payload(const uint8_t *data, size_t size, const uint8_t **payload, size_t *payload_size,
		  const char **reason)
{
	static const uint8_t pkcs7[16] = GUID_BYTES(CERT_TYPE_PKCS7_GUID_FIELDS);
	const uint8_t *cert = data + EFI_TIME_SIZE;
	size_t length, end;

	if (!range_inside(EFI_TIME_SIZE, WIN_CERTIFICATE_GUID_SIZE, size))
		return refuse(reason, "shorter than an EFI_VARIABLE_AUTHENTICATION_2 header");
	length = read_le32(cert);
	if (read_le16(cert + 4) != WIN_CERT_REVISION ||
	    read_le16(cert + 6) != WIN_CERT_TYPE_EFI_GUID || memcmp(cert + 8, pkcs7, 16) != 0)
		return refuse(reason, "not an EFI_VARIABLE_AUTHENTICATION_2 header (PKCS7 GUID)");
	if (length < WIN_CERTIFICATE_GUID_SIZE || !range_inside(EFI_TIME_SIZE, length, size))
		return refuse(reason, "authentication header's dwLength runs past the file");
	end = EFI_TIME_SIZE + length;
	*payload = data + end;
	*payload_size = size - end;
	return 0;
}
