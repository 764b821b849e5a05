// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_mok.h"

#include <efilib.h>

#include "efi_boot_record.h"
#include "efi_cleanup.h"
#include "efi_console.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_policy.h"
#include "efi_vars.h"
#include "macro.h"

/*
 * Any of mokutil's requests (the table's; MokAuth alone asks for a reset),
 * whatever its attributes: the MOK manager says why it ignores one.
 */
BOOLEAN efi_mok_request_pending(void)
{
	for (UINTN i = 0; i < VARIABLES; i++) {
		UINTN size = 0;
		UINT32 attributes;
		EFI_STATUS status;

		if (variables[i].role != ROLE_REQUEST && i != VAR_MOK_AUTH)
			continue;
		status = RT->GetVariable((CHAR16 *)EFI_VAR_NAME(i), &shim_lock_guid, &attributes,
					 &size, NULL);
		if (status == EFI_BUFFER_TOO_SMALL || status == EFI_SUCCESS)
			return TRUE;
	}
	return FALSE;
}

/*
 * One variable of the table, read once: kept when the MOK manager wrote it
 * (its attributes); deleted when an OS did (said), and then absent.
 */
static void owner_variable_read(enum variable_id id, struct efi_mok_value *value)
{
	const struct variable *spec = &variables[id];
	const CHAR16 *name = EFI_VAR_NAME(id);
	UINT32 attributes = 0;
	EFI_STATUS status;

	value->status =
		efi_var_read(name, &shim_lock_guid, &value->data, &value->size, &attributes);
	if (EFI_ERROR(value->status) || variable_attributes_trusted(spec, attributes))
		return;
	efi_mok_value_free(value);
	value->status = EFI_NOT_FOUND; /* an OS wrote it: not the owner's */
	if (spec->otherwise != OTHERWISE_DELETE)
		return;
	status = efi_var_delete(name, &shim_lock_guid);
	if (EFI_ERROR(status))
		log_warning_status(
			status,
			"%ls has attributes 0x%X, not the MOK manager's 0x%X, and cannot be deleted: %m; ignoring it",
			name, attributes, spec->attributes);
	else
		log_error("deleted %ls: attributes 0x%X are not the MOK manager's 0x%X", name,
			  attributes, spec->attributes);
	/* the record (verdict_reason.h) */
	efi_record(BOOT_RECORD_STATE, "variable=%ls action=%s reason=attributes attributes=0x%x",
		   name, EFI_ERROR(status) ? "ignored" : "deleted", attributes);
}

void efi_mok_value_free(struct efi_mok_value *value)
{
	if (value->data)
		FreePool(value->data);
	value->data = NULL;
	value->size = 0;
}

void efi_mok_state_read(struct efi_mok_state *state)
{
	for (UINTN i = 0; i < MOK_OWNER_VARIABLES; i++)
		owner_variable_read(i, &state->var[i]);
}

void efi_mok_state_free(struct efi_mok_state *state)
{
	for (UINTN i = 0; i < MOK_OWNER_VARIABLES; i++)
		efi_mok_value_free(&state->var[i]);
}

/*
 * A one-byte MOK state as the MOK manager wrote it, else
 * LOCKSHIM_VAR_ABSENT (absent, written by an OS, or not one byte). One that
 * is there but could not be read is taken as @unreadable: the caller
 * chooses the side that trusts less.
 */
static UINT8 mok_state_byte(const struct efi_mok_state *state, enum variable_id which,
			    UINT8 unreadable)
{
	const struct efi_mok_value *value = &state->var[which];

	if (value->status == EFI_NOT_FOUND)
		return LOCKSHIM_VAR_ABSENT;
	if (EFI_ERROR(value->status)) {
		log_warning_status(value->status, "cannot read %ls: %m; taking it as %s",
				   EFI_VAR_NAME(which), unreadable == 1 ? "set" : "not set");
		return unreadable;
	}
	return value->size == 1 ? *(const UINT8 *)value->data : LOCKSHIM_VAR_ABSENT;
}

UINT8 efi_mok_sb_state(const struct efi_mok_state *state)
{
	/* unreadable: validation stays on */
	return mok_state_byte(state, VAR_MOK_SB_STATE, LOCKSHIM_VAR_ABSENT);
}

BOOLEAN efi_mok_db_ignored(const struct efi_mok_state *state)
{
	/* unreadable: db is not trusted */
	return mok_state_byte(state, VAR_MOK_DB_STATE, 1) == 1;
}

BOOLEAN efi_mok_trusted_for_kernel(const struct efi_mok_state *state)
{
	/* unreadable: kernels keep MOK keys out of their machine keyring */
	return mok_state_byte(state, VAR_MOK_LIST_TRUSTED, LOCKSHIM_VAR_ABSENT) == 1;
}

#define MOK_TIMEOUT_MAX 60 /* a hostile MokTimeout must not stall the boot for long */

BOOLEAN efi_mok_entry_requested(void)
{
	INT32 timeout = 0;
	UINTN size = sizeof(timeout);
	UINT32 attributes;
	EFI_INPUT_KEY key;

	if (EFI_ERROR(RT->GetVariable((CHAR16 *)EFI_VAR_NAME(VAR_MOK_TIMEOUT), &shim_lock_guid,
				      &attributes, &size, &timeout)) ||
	    size != sizeof(timeout) || timeout <= 0)
		return FALSE;
	if (timeout > MOK_TIMEOUT_MAX)
		timeout = MOK_TIMEOUT_MAX;
	for (INT32 left = timeout; left > 0; left--) {
		Print(L"\r%s: press any key for the MOK manager (%d) ", log_prefix, left);
		if (!EFI_ERROR(efi_console_read_key(1, &key))) {
			Print(L"\n");
			return TRUE;
		}
	}
	Print(L"\n");
	return FALSE;
}
