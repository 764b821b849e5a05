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

#include "variables.h"

/* The running system's: efivarfs, and the MokVar table the kernel shows when a loader made one. */
#define LIVE_EFIVARS "/sys/firmware/efi/efivars"
#define LIVE_MOKVARS "/sys/firmware/efi/mok-variables"

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

/*
 * The table's variable @id (src/core/variables.h; @name, when not NULL, for
 * one of a family such as Boot####) from @dir, trusted only with the
 * attributes its writer gives it, as the boot would treat it: one that the
 * MOK manager or lockshim would delete or ignore is said and not present;
 * a mirror lockshim could not replace, or a firmware variable with other
 * attributes than the firmware's, cannot be predicted from: -1, said.
 */
int efivar_read_var(const char *dir, enum variable_id id, const char *name, struct efivar *var);

/* The MokVar table's entry @name from @dir (NULL: none) into @var, likewise. */
int mokvar_read(const char *dir, const char *name, struct efivar *var);

void efivar_free(struct efivar *var);

/*
 * A UTF-16LE variable (LoaderDevicePartUUID) as ASCII into @out (@size
 * bytes, terminated); false when it is not printable ASCII or too long.
 */
bool efivar_ascii(const struct efivar *var, char *out, size_t size);

#endif
