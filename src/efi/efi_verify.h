/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The one place the firmware shell asks the core about an image and says
 * on the console what was decided: for images lockshim starts itself, for
 * those a second stage hands to SHIM_LOCK's Verify, and for those it loads
 * through the firmware (efi_security_override.c). The verdict text is the
 * core's (verify.c), whichever way the image came.
 */
#ifndef LOCKSHIM_EFI_VERIFY_H
#define LOCKSHIM_EFI_VERIFY_H

#include <efi.h>

#include "measure.h"
#include "verify.h"

/* What decisions are made with; lives as long as lockshim runs. */
struct efi_verifier {
	const struct verify_policy *policy;
	BOOLEAN enforcing; /* Secure Boot enforced: a refusal stops the image */
	/* the TPM (efi_tpm.c): each image let run is measured; NULL: not measured */
	struct measurer *measurer;
};

/*
 * Decide on the @size bytes at @data for @request and print the verdict,
 * naming the image @what and, when it may run, what is done with it (@verb:
 * "booting", "starting", "allowing"); then the verdict's record
 * (verdict_reason.h), image= @what. Returns EFI_SUCCESS when it may run
 * (allowed, or Secure Boot not enforced) and EFI_SECURITY_VIOLATION when it
 * is refused.
 *
 * An image that may run is measured here, the one place every image
 * lockshim lets run passes (measure.h): the entry that allowed it into
 * PCR 7 (under enforcement, as shim logs only what it verified), the image
 * into PCR 4, logged with @path (lockshim's own starts, the firmware's
 * loads). A measurement that fails is said and does not stop the boot, as
 * under shim.
 */
EFI_STATUS efi_verify_image(const struct efi_verifier *verifier, const void *data, UINTN size,
			    enum verify_request request, const CHAR16 *what, const char *verb,
			    const EFI_DEVICE_PATH *path);

/*
 * The same for an image a second stage hands to SHIM_LOCK's Verify
 * (VERIFY_FOR_LOADER), measured as shim 16.1's Verify measures it: into
 * PCR 4 without a path before it is decided, whatever the verdict, so a
 * refused attempt leaves the same PCR 4 under lockshim as under shim; what
 * allowed it into PCR 7 afterwards. Its record says image=buffer:@size.
 */
EFI_STATUS efi_verify_shim_lock_image(const struct efi_verifier *verifier, const void *data,
				      UINTN size, const CHAR16 *what);

/*
 * The decision lockshim takes on an image it may start later (the
 * fallback's, efi_fallback.c), said and recorded as efi_verify_image's for
 * VERIFY_TO_START, but not measured: it has not run, and when it is
 * started it is decided, and measured, again.
 */
EFI_STATUS efi_verify_candidate(const struct efi_verifier *verifier, const void *data, UINTN size,
				const CHAR16 *what);

#endif
