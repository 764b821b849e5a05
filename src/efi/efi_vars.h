/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Reading and writing the firmware's variables. */
#ifndef LOCKSHIM_EFI_VARS_H
#define LOCKSHIM_EFI_VARS_H

#include <efi.h>

#include "variable_store.h"

/*
 * A one-byte variable such as SecureBoot or SetupMode, and its attributes
 * when @attributes is not NULL. Returns EFI_NOT_FOUND when absent and
 * EFI_BAD_BUFFER_SIZE when it is not exactly one byte.
 */
EFI_STATUS efi_var_read_u8(const CHAR16 *name, EFI_GUID *vendor, UINT8 *value, UINT32 *attributes);

/*
 * A whole variable, in a new pool buffer (FreePool it), with its attributes.
 * Returns EFI_NOT_FOUND when absent.
 */
EFI_STATUS efi_var_read(const CHAR16 *name, EFI_GUID *vendor, void **data, UINTN *size,
			UINT32 *attributes);

/*
 * The variable after (*@name, *@vendor) as GetNextVariableName walks them:
 * start with *@name NULL (*@size then set here); *@name is a pool buffer
 * of *@size bytes, grown here, that the caller frees. Returns
 * EFI_NOT_FOUND after the last one.
 */
EFI_STATUS efi_var_next_name(CHAR16 **name, UINTN *size, EFI_GUID *vendor);

/* Delete a variable; absent is success. */
EFI_STATUS efi_var_delete(const CHAR16 *name, EFI_GUID *vendor);

/*
 * Set a volatile variable the OS can read (BOOTSERVICE_ACCESS |
 * RUNTIME_ACCESS): delete whatever is there first, so neither a stale copy
 * nor one pre-created with other attributes survives; an empty @size leaves
 * it deleted. Returns the firmware's status, saying nothing.
 */
EFI_STATUS efi_var_set_volatile(const CHAR16 *name, EFI_GUID *vendor, const void *data, UINTN size);

/*
 * Set the volatile, runtime-visible copy an OS reads (MokListRT,
 * SbatLevelRT...) with efi_var_set_volatile(). A failure (someone else's copy that lockshim cannot delete)
 * is said on the console and returned.
 */
EFI_STATUS efi_var_set_runtime_mirror(const CHAR16 *name, EFI_GUID *vendor, const void *data,
				      UINTN size);

/*
 * QueryVariableInfo's answer for each set of attributes into @space; a set
 * the firmware does not answer for (an EFI 1.x firmware has no such call)
 * stays unknown.
 */
void efi_var_store_space(struct variable_store_space space[STORE_SETS]);

#endif
