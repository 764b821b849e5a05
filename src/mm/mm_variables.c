// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mm.h"

#include <efilib.h>

#include <openssl/crypto.h>

#include "efi_guid.h"
#include "efi_log.h"
#include "efi_vars.h"

EFI_STATUS mm_variable_read(enum variable_id id, struct mok_variable *variable)
{
	return efi_var_read(EFI_VAR_NAME(id), &shim_lock_guid, &variable->data, &variable->size,
			    &variable->attributes);
}

EFI_STATUS mm_owner_variable_read(enum variable_id id, struct mok_variable *variable)
{
	EFI_STATUS status = mm_variable_read(id, variable);

	if (EFI_ERROR(status) || variable_attributes_trusted(&variables[id], variable->attributes))
		return status;
	log_warning("ignoring %ls: attributes 0x%X are not the MOK manager's 0x%X",
		    EFI_VAR_NAME(id), variable->attributes, variables[id].attributes);
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

void mm_request_take(enum variable_id id, struct mok_variable *request)
{
	const CHAR16 *name = EFI_VAR_NAME(id);
	EFI_STATUS status = mm_variable_read(id, request);

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
	if (request->present && !variable_attributes_trusted(&variables[id], request->attributes)) {
		log_warning("ignoring %ls: attributes 0x%X are not mokutil's 0x%X", name,
			    request->attributes, variables[id].attributes);
		request->present = FALSE;
	}
}

EFI_STATUS mm_variable_write(enum variable_id id, const void *data, UINTN size)
{
	if (!size)
		return efi_var_delete(EFI_VAR_NAME(id), &shim_lock_guid);
	/* one call: the firmware replaces the variable whole, or not at all */
	return RT->SetVariable((CHAR16 *)EFI_VAR_NAME(id), &shim_lock_guid,
			       variables[id].attributes, size, (void *)data);
}
