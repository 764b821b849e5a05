/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What lockshim leaves for the kernel, installed just before it starts it:
 *  - the lockdown table (include/lockshim_table.h), for the patched kernel;
 *  - the MokVar configuration table (MokListRT, MokListXRT, MokSBStateRT,
 *    MokListTrustedRT, SbatLevelRT) and the volatile variables of the same
 *    names, which stock kernels and mokutil read as rhboot/shim provides them.
 */
#ifndef LOCKSHIM_EFI_HANDOFF_H
#define LOCKSHIM_EFI_HANDOFF_H

#include <efi.h>

#include "lockdown_table.h"
#include "sbat.h"

/*
 * Install all of it (@sbat_level: the level in force, for the MokVar
 * table); failures to mirror are printed, a failure to install the
 * lockdown table is returned.
 */
EFI_STATUS efi_handoff_install(const struct lockdown_state *state,
			       const struct verify_policy *policy, const struct sbat *sbat_level);

#endif
