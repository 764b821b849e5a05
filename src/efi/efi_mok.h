/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* What lockshim itself needs to know of the MOK state. */
#ifndef LOCKSHIM_EFI_MOK_H
#define LOCKSHIM_EFI_MOK_H

#include <efi.h>

/* Is any request mokutil can leave (MokNew, MokDel, MokSB, ...) waiting? */
BOOLEAN efi_mok_request_pending(void);

/*
 * Does the owner want the MOK manager now? With a MokTimeout of N > 0
 * seconds (mokutil --timeout N), lockshim counts down visibly and a key
 * press says yes; without one (or 0) it does not wait at all.
 */
BOOLEAN efi_mok_entry_requested(void);

/*
 * Has the machine owner turned validation off with the MOK manager
 * (MokSBState = 1, non-volatile and boot-services only, so no OS wrote it)?
 */
BOOLEAN efi_mok_validation_disabled(void);

/* Has the owner told lockshim not to trust db for kernels (MokDBState = 1, likewise)? */
BOOLEAN efi_mok_db_ignored(void);

/* Has the owner asked kernels to trust MOK keys (MokListTrusted = 1, likewise)? */
BOOLEAN efi_mok_trusted_for_kernel(void);

#endif
