// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_verify.h"

#include <efilib.h>

#include "efi_log.h"

/* The image into PCR 4 (measure.h), logged with @path when there is one. */
static void measure_image_event(const struct efi_verifier *verifier, const void *data, UINTN size,
				const EFI_DEVICE_PATH *path)
{
	UINTN path_size = path ? DevicePathSize((EFI_DEVICE_PATH *)path) : 0;

	if (verifier->measurer && measure_image(verifier->measurer, data, size, (UINT64)(UINTN)data,
						(const uint8_t *)path, path_size) < 0)
		log_warning("TPM: the image was not measured");
}

/* What allowed the image into PCR 7, under enforcement, as shim logs only what it verified. */
static void measure_authority_event(const struct efi_verifier *verifier,
				    const struct verdict *verdict)
{
	if (verifier->measurer && verifier->enforcing &&
	    measure_authority(verifier->measurer, verifier->policy, verdict) < 0)
		log_warning("TPM: the image's authority was not measured");
}

/* Decide and say so; EFI_SUCCESS when the image may run. */
static EFI_STATUS decide(const struct efi_verifier *verifier, const void *data, UINTN size,
			 enum verify_request request, const CHAR16 *what, const char *verb,
			 struct verdict *verdict)
{
	verify_image(data, size, verifier->policy, request, verdict);
	if (!verdict->allowed && verifier->enforcing) {
		log_error("refusing %ls: %s", what, verdict->message);
		return EFI_SECURITY_VIOLATION;
	}
	if (verdict->allowed)
		log_info("%s %ls: %s", verb, what, verdict->message);
	else
		log_info("%s %ls unverified: %s", verb, what, verdict->message);
	return EFI_SUCCESS;
}

EFI_STATUS efi_verify_image(const struct efi_verifier *verifier, const void *data, UINTN size,
			    enum verify_request request, const CHAR16 *what, const char *verb,
			    const EFI_DEVICE_PATH *path)
{
	struct verdict verdict;
	EFI_STATUS status;

	status = decide(verifier, data, size, request, what, verb, &verdict);
	if (EFI_ERROR(status))
		return status;
	measure_authority_event(verifier, &verdict);
	measure_image_event(verifier, data, size, path);
	return EFI_SUCCESS;
}

EFI_STATUS efi_verify_shim_lock_image(const struct efi_verifier *verifier, const void *data,
				      UINTN size, const CHAR16 *what)
{
	struct verdict verdict;
	EFI_STATUS status;

	measure_image_event(verifier, data, size, NULL);
	status = decide(verifier, data, size, VERIFY_FOR_LOADER, what, "allowing", &verdict);
	if (!EFI_ERROR(status))
		measure_authority_event(verifier, &verdict);
	return status;
}
