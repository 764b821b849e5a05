/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * SBAT in the loader: keep SbatLevel current (sbat_level.c decides), mirror
 * it as SbatLevelRT, and refuse to go on when it revokes lockshim itself.
 */
#ifndef LOCKSHIM_EFI_SBAT_H
#define LOCKSHIM_EFI_SBAT_H

#include <efi.h>

#include "sbat.h"

struct efi_sbat_level {
	struct sbat level; /* the level in force */
	void *stored;      /* the pool buffer @level may point into (efi_sbat_level_free) */
};

/*
 * Read SbatPolicy (and delete it: a request is served once) and SbatLevel,
 * store the level in force as sbat_level.c decides, mirror it as
 * SbatLevelRT, and return it in @out. @enforcing: Secure Boot is enforced
 * (a reset is only honoured when it is not). Fails only when lockshim's own
 * .sbatlevel is unusable (a build error).
 */
EFI_STATUS efi_sbat_level_apply(BOOLEAN enforcing, struct efi_sbat_level *out);
void efi_sbat_level_free(struct efi_sbat_level *level);

/* EFI_SECURITY_VIOLATION, with the reason printed, when @level revokes lockshim's own .sbat. */
EFI_STATUS efi_sbat_check_self(const struct sbat *level);

#endif
