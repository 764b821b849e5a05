/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The state the next boot decides with (struct machine_state,
 * boot_chain.h), read for `lockshim check` from efivarfs (or a copy) and
 * the MokVar table: SecureBoot and SetupMode, db and dbx, and, since a
 * running system cannot read the boot-services-only originals, the MOK
 * lists, SbatLevel and MOK state from the mirrors lockshim or shim wrote
 * at this boot (the MokVar table's first: only the loader writes it).
 */
#ifndef LOCKSHIM_MACHINE_STATE_H
#define LOCKSHIM_MACHINE_STATE_H

#include "boot_chain.h"

/*
 * Read @m from the efivarfs directory @efivars and the MokVar table's
 * directory @mokvars (NULL: none). Returns 0, or -1 having named the
 * variable that cannot be used (truncated, a one-byte variable of another
 * size, an SbatLevelRT that does not parse, a mirror an OS wrote).
 */
int machine_state_read(const char *efivars, const char *mokvars, struct machine_state *m);

/* A deep copy of @from into @to (for a what-if): 0, or -1 said. */
int machine_state_dup(struct machine_state *to, const struct machine_state *from);

void machine_state_free(struct machine_state *m);

#endif
