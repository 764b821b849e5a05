/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Firmware variables as files, for `lockshim check`:
 *
 * - efivarfs (the kernel's Documentation/filesystems/efivarfs.rst) and a
 *   copy of it: one file per variable, 4 bytes of little-endian attributes,
 *   then the data;
 * - a signed update as dbxtool and fwupd ship one for dbx: an
 *   EFI_VARIABLE_AUTHENTICATION_2 header (an EFI_TIME, then a
 *   WIN_CERTIFICATE_UEFI_GUID of type EFI_CERT_TYPE_PKCS7_GUID whose
 *   dwLength covers itself and the signature), then the payload the
 *   firmware appends to the variable (UEFI 2.10, 8.2.2).
 *
 * The signature of an update is not checked here: the firmware checks it
 * against KEK when it is applied, and `check` asks what the machine does
 * once it has been.
 */
#ifndef LOCKSHIM_VARIABLE_DATA_H
#define LOCKSHIM_VARIABLE_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "reason.h"

#define EFIVARFS_ATTRIBUTES_SIZE 4

/* EFI_VARIABLE_* attributes */
#define EFI_VARIABLE_NON_VOLATILE       0x1u
#define EFI_VARIABLE_BOOTSERVICE_ACCESS 0x2u
#define EFI_VARIABLE_RUNTIME_ACCESS     0x4u

/*
 * Split an efivarfs file of @size bytes at @data: *@attributes, and the
 * variable's data at *@value (pointing into @data) of *@value_size bytes.
 * Returns 0, or -1 with a reason when the file is shorter than the
 * attributes.
 */
int efivarfs_split(const uint8_t *data, size_t size, uint32_t *attributes, const uint8_t **value,
		   size_t *value_size, const char **reason);

/*
 * The payload of a time-based authenticated write of @size bytes at @data
 * (EFI_VARIABLE_AUTHENTICATION_2 first): *@payload points into @data,
 * *@payload_size bytes. Returns 0, or -1 with a reason when it has no such
 * header (too short, another revision or certificate type, a dwLength that
 * does not fit).
 */
int auth2_payload(const uint8_t *data, size_t size, const uint8_t **payload, size_t *payload_size,
		  const char **reason);

/* How a file holds signature lists (signature_lists_in). */
enum list_form {
	LIST_FORM_LISTS,    /* the lists themselves (efitools' .esl) */
	LIST_FORM_EFIVARFS, /* an efivarfs file: attributes, then the lists */
	LIST_FORM_AUTH2,    /* a signed update (.auth): its payload */
};

/*
 * The signature lists a file of @size bytes at @data holds, in the first
 * of the forms above that parses whole: *@lists points into @data,
 * *@lists_size bytes (0 for an empty file), *@form says which, and
 * *@attributes an efivarfs file's (else 0). Returns 0, or -1 with a
 * reason naming why each form failed.
 */
int signature_lists_in(const uint8_t *data, size_t size, enum list_form *form,
		       const uint8_t **lists, size_t *lists_size, uint32_t *attributes,
		       const char **reason, struct reason_buf *buf);

#endif
