// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_vars.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_log.h"

EFI_STATUS efi_var_read_u8(const CHAR16 *name, EFI_GUID *vendor, UINT8 *value, UINT32 *attributes)
{
	UINT8 buffer[2];
	UINTN size = sizeof(buffer);
	UINT32 ignored;
	EFI_STATUS status;

	status = RT->GetVariable((CHAR16 *)name, vendor, attributes ? attributes : &ignored, &size,
				 buffer);
	if (status == EFI_BUFFER_TOO_SMALL)
		return EFI_BAD_BUFFER_SIZE;
	if (EFI_ERROR(status))
		return status;
	if (size != 1)
		return EFI_BAD_BUFFER_SIZE;
	*value = buffer[0];
	return EFI_SUCCESS;
}

EFI_STATUS efi_var_read(const CHAR16 *name, EFI_GUID *vendor, void **data, UINTN *size,
			UINT32 *attributes)
{
	_cleanup_pool_ void *buffer = NULL;
	EFI_STATUS status;

	*data = NULL;
	*size = 0;
	status = RT->GetVariable((CHAR16 *)name, vendor, attributes, size, NULL);
	if (status != EFI_BUFFER_TOO_SMALL)
		return EFI_ERROR(status) ? status : EFI_SUCCESS; /* absent, or empty */
	buffer = AllocatePool(*size ? *size : 1);
	if (!buffer)
		return EFI_OUT_OF_RESOURCES;
	status = RT->GetVariable((CHAR16 *)name, vendor, attributes, size, buffer);
	if (EFI_ERROR(status)) {
		*size = 0;
		return status;
	}
	*data = TAKE_PTR(buffer);
	return EFI_SUCCESS;
}

/* Far past any name the firmware stores (edk2: a variable is at most a few KiB). */
#define VAR_NAME_MAX (64 * 1024)

EFI_STATUS efi_var_next_name(CHAR16 **name, UINTN *size, EFI_GUID *vendor)
{
	UINTN want;
	EFI_STATUS status;

	if (!*name) {
		*size = 128 * sizeof(CHAR16);
		*name = AllocateZeroPool(*size);
		if (!*name)
			return EFI_OUT_OF_RESOURCES;
	}
	want = *size;
	status = RT->GetNextVariableName(&want, *name, vendor);
	if (status == EFI_BUFFER_TOO_SMALL && want > *size && want <= VAR_NAME_MAX) {
		/* the buffer holds the name to go on from: grown, not replaced */
		CHAR16 *grown = ReallocatePool(*name, *size, want);

		if (!grown)
			return EFI_OUT_OF_RESOURCES;
		*name = grown;
		*size = want;
		status = RT->GetNextVariableName(&want, *name, vendor);
	}
	return status;
}

EFI_STATUS efi_var_delete(const CHAR16 *name, EFI_GUID *vendor)
{
	EFI_STATUS status = RT->SetVariable((CHAR16 *)name, vendor, 0, 0, NULL);

	return status == EFI_NOT_FOUND ? EFI_SUCCESS : status;
}

EFI_STATUS efi_var_set_volatile(const CHAR16 *name, EFI_GUID *vendor, const void *data, UINTN size)
{
	EFI_STATUS status = efi_var_delete(name, vendor);

	if (!EFI_ERROR(status) && size)
		status = RT->SetVariable((CHAR16 *)name, vendor,
					 EFI_VARIABLE_BOOTSERVICE_ACCESS |
						 EFI_VARIABLE_RUNTIME_ACCESS,
					 size, (void *)data);
	return status;
}

EFI_STATUS efi_var_set_runtime_mirror(const CHAR16 *name, EFI_GUID *vendor, const void *data,
				      UINTN size)
{
	EFI_STATUS status = efi_var_set_volatile(name, vendor, data, size);

	if (EFI_ERROR(status))
		/* e.g. created by the OS as a time-authenticated variable, which only its key deletes */
		log_warning_status(
			status,
			"cannot write %ls as lockshim's own volatile variable: %m; the OS's copy stays, kernels get lockshim's from the MokVar table",
			name);
	return status;
}

void efi_var_store_space(struct variable_store_space space[STORE_SETS])
{
	for (int s = 0; s < STORE_SETS; s++) {
		EFI_STATUS status = EFI_UNSUPPORTED;

		space[s] = (struct variable_store_space){};
		if (RT->Hdr.Revision >> 16 >= 2)
			status = RT->QueryVariableInfo(variable_store_attributes[s],
						       &space[s].max_storage, &space[s].remaining,
						       &space[s].max_variable);
		space[s].known = !EFI_ERROR(status);
	}
}
