// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_verify.h"

#include <efilib.h>

#include "efi_log.h"

EFI_STATUS efi_verify_image(const struct efi_verifier *verifier, const void *data, UINTN size,
			    enum verify_request request, const CHAR16 *what, const char *verb)
{
	struct verdict verdict;

	verify_image(data, size, verifier->policy, request, &verdict);
	if (!verdict.allowed && verifier->enforcing)
		return log_error(EFI_SECURITY_VIOLATION, L"refusing %s: %a", what, verdict.message);
	if (verdict.allowed)
		log_info(L"%a %s: %a", verb, what, verdict.message);
	else
		log_info(L"%a %s unverified: %a", verb, what, verdict.message);
	return EFI_SUCCESS;
}
