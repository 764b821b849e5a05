// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_verify.h"

#include <efilib.h>

#include "efi_log.h"

/* The image about to run, and what allowed it, into the TPM (efi_verify.h). */
static void measure_approved(const struct efi_verifier *verifier, const void *data, UINTN size,
			     const struct verdict *verdict, const EFI_DEVICE_PATH *path)
{
	UINTN path_size = path ? DevicePathSize((EFI_DEVICE_PATH *)path) : 0;

	if (!verifier->measurer)
		return;
	if (verifier->enforcing &&
	    measure_authority(verifier->measurer, verifier->policy, verdict) < 0)
		log_error(EFI_DEVICE_ERROR, L"TPM: the image's authority was not measured");
	if (measure_image(verifier->measurer, data, size, (UINT64)(UINTN)data,
			  (const uint8_t *)path, path_size) < 0)
		log_error(EFI_DEVICE_ERROR, L"TPM: the image was not measured");
}

EFI_STATUS efi_verify_image(const struct efi_verifier *verifier, const void *data, UINTN size,
			    enum verify_request request, const CHAR16 *what, const char *verb,
			    const EFI_DEVICE_PATH *path)
{
	struct verdict verdict;

	verify_image(data, size, verifier->policy, request, &verdict);
	if (!verdict.allowed && verifier->enforcing)
		return log_error(EFI_SECURITY_VIOLATION, L"refusing %s: %a", what, verdict.message);
	if (verdict.allowed)
		log_info(L"%a %s: %a", verb, what, verdict.message);
	else
		log_info(L"%a %s unverified: %a", verb, what, verdict.message);
	measure_approved(verifier, data, size, &verdict, path);
	return EFI_SUCCESS;
}
