// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_mok.h"

#include <efilib.h>

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

/*
 * A MokSBState/MokDBState of 1, written by the MOK manager: NV+BS only, so no
 * OS wrote it. One that is there but cannot be read is taken as @unreadable,
 * the side that trusts less.
 */
static BOOLEAN mok_state_set(const CHAR16 *name, BOOLEAN unreadable)
{
	UINT32 attributes;
	UINT8 value;
	EFI_STATUS status = efi_var_read_u8(name, &shim_lock_guid, &value, &attributes);

	if (status == EFI_NOT_FOUND || status == EFI_BAD_BUFFER_SIZE)
		return FALSE;
	if (EFI_ERROR(status)) {
		log_error(status, L"cannot read %s: %r; taking %a", name, status,
			  unreadable ? "it as set" : "it as not set");
		return unreadable;
	}
	return value == 1 &&
	       attributes == (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS);
}

BOOLEAN efi_mok_validation_disabled(void)
{
	return mok_state_set(L"MokSBState", FALSE);
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
