// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_mok.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_console.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_policy.h"
#include "efi_vars.h"
#include "macro.h"

static const CHAR16 *const requests[] = {
	L"MokNew", L"MokDel", L"MokXNew", L"MokXDel",           L"MokAuth",
	L"MokSB",  L"MokDB",  L"MokPW",   L"MokListTrustedNew",
};

BOOLEAN efi_mok_request_pending(void)
{
	for (UINTN i = 0; i < ARRAY_SIZE(requests); i++) {
		UINTN size = 0;
		UINT32 attributes;
		EFI_STATUS status = RT->GetVariable((CHAR16 *)requests[i], &shim_lock_guid,
						    &attributes, &size, NULL);

		if (status == EFI_BUFFER_TOO_SMALL || status == EFI_SUCCESS)
			return TRUE;
	}
	return FALSE;
}

/* How the MOK manager writes its state and lists: never visible to an OS. */
#define MOK_STATE_ATTRIBUTES (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

/*
 * The variables only the MOK manager writes (shim checks the same ones);
 * MokPWStore too: one the OS wrote would keep the owner out of the menu.
 */
static const CHAR16 *const owner_variables[] = {
	L"MokSBState", L"MokDBState", L"MokListTrusted", L"MokList", L"MokListX", L"MokPWStore",
};

void efi_mok_variables_sanitize(void)
{
	for (UINTN i = 0; i < ARRAY_SIZE(owner_variables); i++) {
		_cleanup_pool_ void *data = NULL;
		UINT32 attributes = 0;
		EFI_STATUS status;
		UINTN size;

		status = efi_var_read(owner_variables[i], &shim_lock_guid, &data, &size,
				      &attributes);
		if (EFI_ERROR(status) || attributes == MOK_STATE_ATTRIBUTES)
			continue;
		/* an OS wrote it: deleted, so the owner's next enrollment can write it again */
		status = efi_var_delete(owner_variables[i], &shim_lock_guid);
		if (EFI_ERROR(status))
			log_warning_status(
				status,
				"%ls has attributes 0x%X, not the MOK manager's 0x%X, and cannot be deleted: %m; ignoring it",
				owner_variables[i], attributes, MOK_STATE_ATTRIBUTES);
		else
			log_error("deleted %ls: attributes 0x%X are not the MOK manager's 0x%X",
				  owner_variables[i], attributes, MOK_STATE_ATTRIBUTES);
		/* the record (verdict_reason.h) */
		log_info("variable=%ls action=%s reason=attributes attributes=0x%x",
			 owner_variables[i], EFI_ERROR(status) ? "ignored" : "deleted", attributes);
	}
}

EFI_STATUS efi_mok_variable_read(const CHAR16 *name, void **data, UINTN *size)
{
	UINT32 attributes = 0;
	EFI_STATUS status = efi_var_read(name, &shim_lock_guid, data, size, &attributes);

	if (EFI_ERROR(status) || attributes == MOK_STATE_ATTRIBUTES)
		return status;
	FreePool(*data);
	*data = NULL;
	*size = 0;
	return EFI_NOT_FOUND;
}

/*
 * A one-byte MOK state as the MOK manager wrote it (NV+BS, so no OS did),
 * else LOCKSHIM_VAR_ABSENT. One that is there but cannot be read is taken
 * as @unreadable: the caller chooses the side that trusts less.
 */
static UINT8 mok_state_read(const CHAR16 *name, UINT8 unreadable)
{
	UINT32 attributes;
	UINT8 value;
	EFI_STATUS status = efi_var_read_u8(name, &shim_lock_guid, &value, &attributes);

	if (status == EFI_NOT_FOUND || status == EFI_BAD_BUFFER_SIZE)
		return LOCKSHIM_VAR_ABSENT;
	if (EFI_ERROR(status)) {
		log_warning_status(status, "cannot read %ls: %m; taking it as %s", name,
				   unreadable == 1 ? "set" : "not set");
		return unreadable;
	}
	return attributes == MOK_STATE_ATTRIBUTES ? value : LOCKSHIM_VAR_ABSENT;
}

static BOOLEAN mok_state_set(const CHAR16 *name, BOOLEAN unreadable_means_set)
{
	return mok_state_read(name, unreadable_means_set ? 1 : LOCKSHIM_VAR_ABSENT) == 1;
}

UINT8 efi_mok_sb_state(void)
{
	/* unreadable: validation stays on */
	return mok_state_read(L"MokSBState", LOCKSHIM_VAR_ABSENT);
}

BOOLEAN efi_mok_db_ignored(void)
{
	return mok_state_set(L"MokDBState", TRUE);
}

BOOLEAN efi_mok_trusted_for_kernel(void)
{
	return mok_state_set(L"MokListTrusted", FALSE);
}

#define MOK_TIMEOUT_MAX 60 /* a hostile MokTimeout must not stall the boot for long */

BOOLEAN efi_mok_entry_requested(void)
{
	INT32 timeout = 0;
	UINTN size = sizeof(timeout);
	UINT32 attributes;
	EFI_INPUT_KEY key;

	if (EFI_ERROR(RT->GetVariable(L"MokTimeout", &shim_lock_guid, &attributes, &size,
				      &timeout)) ||
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
