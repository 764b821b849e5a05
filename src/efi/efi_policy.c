// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_policy.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_vars.h"

/* MokList and MokListX as the MOK manager writes them: no runtime access. */
#define MOK_LIST_ATTRIBUTES (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

/* Linked in by src/vendor_certs.S. */
extern const UINT8 vendor_cert[], vendor_cert_end[];
extern const UINT8 vendor_dbx[], vendor_dbx_end[];

static EFI_STATUS add_esl(struct sig_db *db, const CHAR16 *source, const void *data, UINTN size)
{
	const char *reason;
	int rejected = sig_db_add_esl(db, data, size, &reason);

	if (rejected < 0)
		return log_error(EFI_OUT_OF_RESOURCES, L"%s: out of memory", source);
	if (rejected > 0)
		log_error(EFI_INVALID_PARAMETER, L"%s: %d signature list(s) rejected: %a", source,
			  rejected, reason);
	return EFI_SUCCESS;
}

/*
 * Add the variable @name to @db. An error is returned only when @db could
 * not be filled: for a list of what is refused (dbx, MokListX), a list left
 * out would let through what it refuses, so the caller stops there.
 */
static EFI_STATUS load_variable(struct sig_db *db, const CHAR16 *name, EFI_GUID *guid,
				BOOLEAN boot_services_only)
{
	_cleanup_pool_ void *data = NULL;
	UINT32 attributes = 0;
	EFI_STATUS status;
	UINTN size;

	status = efi_var_read(name, guid, &data, &size, &attributes);
	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return log_error(status, L"cannot read %s: %r", name, status);
	if (boot_services_only && attributes != MOK_LIST_ATTRIBUTES) {
		/* an OS could have written it: it proves nothing about the owner's wishes */
		log_error(EFI_SECURITY_VIOLATION,
			  L"ignoring %s: attributes 0x%x are not non-volatile boot-services-only",
			  name, attributes);
		return EFI_SUCCESS;
	}
	return data ? add_esl(db, name, data, size) : EFI_SUCCESS;
}

EFI_STATUS efi_policy_load(struct verify_policy *policy)
{
	const unsigned char *p = vendor_cert;
	X509 *cert;
	int r;

	cert = d2i_X509(NULL, &p, vendor_cert_end - vendor_cert);
	r = cert ? sig_db_add_cert(&policy->vendor, cert) : -1;
	X509_free(cert);
	if (r < 0) {
		return log_error(EFI_LOAD_ERROR,
				 L"the embedded vendor certificate cannot be decoded");
	}
	/* without a list of what is refused, nothing can be verified; without db or MokList, less */
	if (EFI_ERROR(add_esl(&policy->vendor_dbx, L"vendor dbx", vendor_dbx,
			      vendor_dbx_end - vendor_dbx)) ||
	    EFI_ERROR(load_variable(&policy->dbx, L"dbx", &image_security_database_guid, FALSE)) ||
	    EFI_ERROR(load_variable(&policy->mokx, L"MokListX", &shim_lock_guid, TRUE)))
		return log_error(EFI_SECURITY_VIOLATION,
				 L"a revocation list is unreadable: nothing can be verified");
	load_variable(&policy->db, L"db", &image_security_database_guid, FALSE);
	load_variable(&policy->mok, L"MokList", &shim_lock_guid, TRUE);
	return EFI_SUCCESS;
}
