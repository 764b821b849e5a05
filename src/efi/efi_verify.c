// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_verify.h"

#include <efilib.h>
#include <stdio.h>

#include "device_path.h"
#include "efi_boot_record.h"
#include "efi_log.h"

/* The image into PCR 4 (measure.h), logged with @path when there is one. */
static void measure_image_event(const struct efi_verifier *verifier, const void *data, UINTN size,
				const EFI_DEVICE_PATH *path)
{
	const char *reason;
	size_t path_size = 0;

	/* a malformed path is measured as none (its image is decided all the same) */
	if (path &&
	    device_path_size((const uint8_t *)path, DEVICE_PATH_BOUND, &path_size, &reason) < 0) {
		log_warning("TPM: the image's device path is malformed (%s): measured without it",
			    reason);
		path_size = 0;
	}
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

/*
 * The record line of @verdict (verdict_reason.h) on @image, after its
 * sentence, also kept in the record of this boot (efi_boot_record.h):
 * lockshim's own starts as its state, what a second stage asks about
 * (@request VERIFY_FOR_LOADER) as the records that give way when it is full.
 */
static void log_record(const struct verdict *verdict, enum verify_request request, const char *word,
		       const char *image)
{
	char record[VERDICT_RECORD_SIZE];

	verdict_record(record, sizeof(record), word, image, verdict->reason, verdict->list,
		       verdict->entry);
	efi_record(request == VERIFY_FOR_LOADER ? BOOT_RECORD_IMAGE : BOOT_RECORD_STATE, "%s",
		   record);
	efi_boot_record_say();
}

/*
 * Decide and say so, the sentence then the record naming the image @image
 * (UTF-8); EFI_SUCCESS when the image may run.
 */
static EFI_STATUS decide(const struct efi_verifier *verifier, const void *data, UINTN size,
			 enum verify_request request, const CHAR16 *what, const char *image,
			 const char *verb, struct verdict *verdict)
{
	verify_image(data, size, verifier->policy, request, verdict);
	if (!verdict->allowed && verifier->enforcing) {
		log_error("refusing %ls: %s", what, verdict->message);
		log_record(verdict, request, "refused", image);
		return EFI_SECURITY_VIOLATION;
	}
	if (verdict->allowed) {
		log_info("%s %ls: %s", verb, what, verdict->message);
		log_record(verdict, request, "allowed", image);
	} else {
		log_info("%s %ls unverified: %s", verb, what, verdict->message);
		log_record(verdict, request, "unverified", image);
	}
	return EFI_SUCCESS;
}

EFI_STATUS efi_verify_image(const struct efi_verifier *verifier, const void *data, UINTN size,
			    enum verify_request request, const CHAR16 *what, const char *verb,
			    const EFI_DEVICE_PATH *path)
{
	struct verdict verdict;
	char image[256];
	EFI_STATUS status;

	snprintf(image, sizeof(image), "%ls", what);
	if (request == VERIFY_TO_START) {
		/* the image lockshim starts itself: its verdict follows (boot_record.h) */
		char line[VERDICT_RECORD_SIZE] = "";

		record_add_field(line, sizeof(line), "next-stage", image);
		efi_record(BOOT_RECORD_STATE, "%s", line);
	}
	status = decide(verifier, data, size, request, what, image, verb, &verdict);
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
	char image[32];
	EFI_STATUS status;

	snprintf(image, sizeof(image), "buffer:%llu", (unsigned long long)size);
	measure_image_event(verifier, data, size, NULL);
	status = decide(verifier, data, size, VERIFY_FOR_LOADER, what, image, "allowing", &verdict);
	if (!EFI_ERROR(status))
		measure_authority_event(verifier, &verdict);
	return status;
}

EFI_STATUS efi_verify_candidate(const struct efi_verifier *verifier, const void *data, UINTN size,
				const CHAR16 *what)
{
	struct verdict verdict;
	char image[256];

	snprintf(image, sizeof(image), "%ls", what);
	return decide(verifier, data, size, VERIFY_TO_START, what, image, "fallback: allowing",
		      &verdict);
}
