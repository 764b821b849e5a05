// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "variable_data.h"

#include <stdbool.h>
#include <string.h>

#include "guid.h"
#include "reason.h"
#include "safe_math.h"
#include "signature_list.h"

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

/* esl_walk_lists's visitor when only whether every list parses matters */
static int accept_list(const struct esl_list *list, void *ctx)
{
	(void)list;
	(void)ctx;
	return 0;
}

/* Do @size bytes at @data parse whole as signature lists? @why says why not. */
static bool lists_parse(const uint8_t *data, size_t size, const char **why)
{
	*why = "empty";
	return size == 0 || esl_walk_lists(data, size, accept_list, NULL, why) == 0;
}

int signature_lists_in(const uint8_t *data, size_t size, enum list_form *form,
		       const uint8_t **lists, size_t *lists_size, uint32_t *attributes,
		       const char **reason, struct reason_buf *buf)
{
	const char *as_lists, *as_var = "", *as_auth;
	const uint8_t *value;
	size_t value_size;

	*attributes = 0;
	if (lists_parse(data, size, &as_lists)) {
		*form = LIST_FORM_LISTS;
		*lists = data;
		*lists_size = size;
		return 0;
	}
	/* a variable's attributes: only the bits UEFI 2.10 defines, NV|BS at least */
	if (efivarfs_split(data, size, attributes, &value, &value_size, &as_var) == 0) {
		if ((*attributes & ~0x7fu) || (*attributes & 0x3u) != 0x3u)
			as_var = "its first 4 bytes are not a variable's attributes";
		else if (value_size && lists_parse(value, value_size, &as_var)) {
			*form = LIST_FORM_EFIVARFS;
			*lists = value;
			*lists_size = value_size;
			return 0;
		}
	}
	*attributes = 0;
	if (auth2_payload(data, size, &value, &value_size, &as_auth) == 0) {
		if (value_size && lists_parse(value, value_size, &as_auth)) {
			*form = LIST_FORM_AUTH2;
			*lists = value;
			*lists_size = value_size;
			return 0;
		}
		as_auth = value_size ? "its payload is not a signature list" : "an empty payload";
	}
	return refusef(reason, buf,
		       "neither signature lists (%s), nor an efivarfs file of them (%s), nor a "
		       "signed update of them (%s)",
		       as_lists, as_var, as_auth);
}
