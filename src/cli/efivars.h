/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Firmware variables as `lockshim check` reads them: from efivarfs or a
 * copy of it (a file NAME-GUID per variable: 4 bytes of attributes, then
 * the data; src/core/variable_data.h) and from the MokVar table's files
 * (/sys/firmware/efi/mok-variables: a file per name, the data alone).
 */
#ifndef LOCKSHIM_EFIVARS_H
#define LOCKSHIM_EFIVARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EFI_GLOBAL_GUID_TEXT   "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define EFI_SECURITY_GUID_TEXT "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
#define SHIM_GUID_TEXT         "605dab50-e046-4300-abb6-3dd810dd8b23"
#define LOADER_GUID_TEXT       "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define LOCKSHIM_GUID_TEXT     "fa4589c8-983f-4879-98de-41989578e75d" /* src/core/guid.h */

/* One variable read whole; @data points into @file. */
struct efivar {
	bool present;
	uint32_t attributes; /* 0 for a MokVar table entry, which has none */
	uint8_t *file;       /* malloc'd */
	const uint8_t *data;
	size_t size;
	char source[600]; /* the file it came from, for messages */
};

/*
 * Variable @name of @guid from the efivarfs directory @dir into @var
 * (present false when there is no such file). Returns 0, or -1 having
 * said which file could not be used (unreadable, truncated).
 */
int efivar_read(const char *dir, const char *name, const char *guid, struct efivar *var);

/* The MokVar table's entry @name from @dir (NULL: none) into @var, likewise. */
int mokvar_read(const char *dir, const char *name, struct efivar *var);

void efivar_free(struct efivar *var);

/*
 * A UTF-16LE variable (LoaderDevicePartUUID) as ASCII into @out (@size
 * bytes, terminated); false when it is not printable ASCII or too long.
 */
bool efivar_ascii(const struct efivar *var, char *out, size_t size);

#endif
