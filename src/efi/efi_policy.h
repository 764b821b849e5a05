/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The trust lists the loader verifies against: the vendor certificate and
 * vendor dbx built into lockshim, the firmware's db and dbx, and the
 * machine owner's MokList and MokListX when their attributes show that only
 * boot-time code (the MOK manager) can have written them.
 */
#ifndef LOCKSHIM_EFI_POLICY_H
#define LOCKSHIM_EFI_POLICY_H

#include <efi.h>

#include "verify.h"

/*
 * Fill @policy (initialised by the caller). Problems with one list are
 * printed and that list is left out or partly used; the call fails when
 * the embedded vendor certificate is unusable, or when a list of what is
 * refused (vendor dbx, dbx, MokListX) exists but cannot be read whole.
 */
EFI_STATUS efi_policy_load(struct verify_policy *policy);

#endif
