// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mm.h"

#include <efilib.h>

#include <openssl/crypto.h>

#include "efi_guid.h"
#include "efi_log.h"
#include "efi_mok_table.h"
#include "efi_vars.h"

EFI_STATUS mm_variable_read(const CHAR16 *name, struct mok_variable *variable)
{
	return efi_var_read(name, &shim_lock_guid, &variable->data, &variable->size,
			    &variable->attributes);
}

EFI_STATUS mm_owner_variable_read(const CHAR16 *name, struct mok_variable *variable)
{
	const struct mok_owner_variable_spec *spec = mok_owner_variable_spec(name);
	EFI_STATUS status = mm_variable_read(name, variable);
	UINT32 attributes = spec ? spec->attributes : LIST_ATTRIBUTES;

	if (EFI_ERROR(status) || variable->attributes == attributes)
		return status;
	log_warning("ignoring %ls: attributes 0x%X are not the MOK manager's 0x%X", name,
		    variable->attributes, attributes);
	mm_variable_free(variable);
	return EFI_NOT_FOUND;
}

void mm_variable_free(struct mok_variable *variable)
{
	if (variable->data) {
		OPENSSL_cleanse(variable->data, variable->size);
		FreePool(variable->data);
	}
	ZeroMem(variable, sizeof(*variable));
}

void mm_request_take(const CHAR16 *name, struct mok_variable *request)
{
	EFI_STATUS status = mm_variable_read(name, request);

	request->present = request->seen = !EFI_ERROR(status);
	/* deleted even when unreadable: whatever is there is not served twice */
	if (status != EFI_NOT_FOUND) {
		status = efi_var_delete(name, &shim_lock_guid);
		if (EFI_ERROR(status) && request->present) {
			/* still there on the next boot: served now, it would be served twice */
			log_warning_status(status, "cannot delete %ls: %m; not served", name);
			request->present = FALSE;
		}
	}
	if (request->present && request->attributes != REQUEST_ATTRIBUTES) {
		log_warning("ignoring %ls: attributes 0x%X are not mokutil's 0x%X", name,
			    request->attributes, REQUEST_ATTRIBUTES);
		request->present = FALSE;
	}
}

EFI_STATUS mm_variable_write(const CHAR16 *name, const void *data, UINTN size)
{
	if (!size)
		return efi_var_delete(name, &shim_lock_guid);
	/* one call: the firmware replaces the variable whole, or not at all */
	return RT->SetVariable((CHAR16 *)name, &shim_lock_guid, LIST_ATTRIBUTES, size,
			       (void *)data);
}
