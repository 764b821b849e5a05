/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* What lockshim itself needs to know of the MOK state. */
#ifndef LOCKSHIM_EFI_MOK_H
#define LOCKSHIM_EFI_MOK_H

#include <efi.h>

#include "lockshim_table.h"

/* Is any request mokutil can leave (MokNew, MokDel, MokSB, ...) waiting? */
BOOLEAN efi_mok_request_pending(void);

/*
 * Does the owner want the MOK manager now? With a MokTimeout of N > 0
 * seconds (mokutil --timeout N), lockshim counts down visibly and a key
 * press says yes; without one (or 0) it does not wait at all.
 */
BOOLEAN efi_mok_entry_requested(void);

/*
 * Delete MokSBState, MokDBState, MokListTrusted, MokList and MokListX when
 * their attributes are not the MOK manager's (non-volatile, boot-services
 * only): an OS wrote them, so they say nothing of the owner's wishes. Each
 * deletion (or failure to delete) is said on the console. Before anything
 * reads them.
 */
void efi_mok_variables_sanitize(void);

/*
 * MokSBState as the MOK manager wrote it (non-volatile and boot-services
 * only, so no OS wrote it): 1 when the owner turned validation off, else
 * its value, or LOCKSHIM_VAR_ABSENT. The one reading lockshim decides from
 * and hands on (the lockdown table, MokSBStateRT).
 */
UINT8 efi_mok_sb_state(void);

/*
 * The MOK variable @name (MokList, MokSBState, ...) in a new pool buffer,
 * when the MOK manager wrote it (non-volatile, boot-services only);
 * EFI_NOT_FOUND when absent or written by anyone else.
 */
EFI_STATUS efi_mok_variable_read(const CHAR16 *name, void **data, UINTN *size);

/* Has the owner told lockshim not to trust db for kernels (MokDBState = 1, likewise)? */
BOOLEAN efi_mok_db_ignored(void);

/* Has the owner asked kernels to trust MOK keys (MokListTrusted = 1, likewise)? */
BOOLEAN efi_mok_trusted_for_kernel(void);

#endif
