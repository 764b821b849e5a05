/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What lockshim leaves for the kernel, installed before anything starts
 * (the MOK manager too, as shim installs its table before it looks at MOK
 * requests), so that no image lockshim starts finds only what the OS wrote:
 *  - the lockdown table (include/lockshim_table.h), for the patched kernel;
 *  - the MokVar configuration table (MokListRT, MokListXRT, MokSBStateRT,
 *    MokIgnoreDB, MokListTrustedRT, SbatLevelRT) and the volatile variables
 *    of the same names (SbatLevelRT's is set by efi_sbat.c), which stock
 *    kernels and mokutil read as rhboot/shim 16.1 provides them. Not
 *    mirrored: MokPolicyRT (lockshim has no MokPolicy).
 */
#ifndef LOCKSHIM_EFI_HANDOFF_H
#define LOCKSHIM_EFI_HANDOFF_H

#include <efi.h>

#include "lockdown_table.h"
#include "sbat.h"

/*
 * Install all of it (@sbat_level: the level in force, for the MokVar
 * table; @mok_db_ignored: the owner's MokDBState, mirrored as MokIgnoreDB).
 * A failure to install either table is said and returned: a stock kernel
 * without the MokVar table reads variables the OS can write. A mirror
 * variable that cannot be written is said and not returned: the table
 * holds lockshim's copy.
 */
EFI_STATUS efi_handoff_install(const struct lockdown_state *state,
			       const struct verify_policy *policy, const struct sbat *sbat_level,
			       BOOLEAN mok_db_ignored);

#endif
