/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* What lockshim itself needs to know of the MOK state. */
#ifndef LOCKSHIM_EFI_MOK_H
#define LOCKSHIM_EFI_MOK_H

#include <efi.h>

#include "lockshim_table.h"
#include "variables.h"

/* Is any request mokutil can leave (MokNew, MokDel, MokSB, ...) waiting? */
BOOLEAN efi_mok_request_pending(void);

/*
 * Does the owner want the MOK manager now? With a MokTimeout of N > 0
 * seconds (mokutil --timeout N), lockshim counts down visibly and a key
 * press says yes; without one (or 0) it does not wait at all.
 */
BOOLEAN efi_mok_entry_requested(void);

/* One variable of the MOK manager's as lockshim read it (efi_mok_state_read). */
struct efi_mok_value {
	EFI_STATUS status; /* EFI_NOT_FOUND: absent, or an OS wrote it (deleted) */
	void *data;        /* a pool buffer (NULL when empty) */
	UINTN size;
};

/* The owner's variables (variables.h: the table's first), indexed by enum variable_id. */
struct efi_mok_state {
	struct efi_mok_value var[MOK_OWNER_VARIABLES];
};

/*
 * Read each variable only the MOK manager writes, once per boot, before
 * anything decides from them. One with other attributes than the
 * manager's (an OS wrote it: it says nothing of the owner's wishes) is
 * deleted, said on the console, and absent from @state. What lockshim
 * decides, hands on and measures comes from @state.
 */
void efi_mok_state_read(struct efi_mok_state *state);
void efi_mok_state_free(struct efi_mok_state *state);
void efi_mok_value_free(struct efi_mok_value *value);

/*
 * MokSBState as the manager wrote it: 1 when the owner turned validation
 * off, else its value, or LOCKSHIM_VAR_ABSENT. The one reading lockshim
 * decides from and hands on (the lockdown table, MokSBStateRT).
 */
UINT8 efi_mok_sb_state(const struct efi_mok_state *state);

/* Has the owner told lockshim not to trust db for kernels (MokDBState = 1; unreadable: yes)? */
BOOLEAN efi_mok_db_ignored(const struct efi_mok_state *state);

/* Has the owner asked kernels to trust MOK keys (MokListTrusted = 1)? */
BOOLEAN efi_mok_trusted_for_kernel(const struct efi_mok_state *state);

#endif
