// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_policy.h"

#include <efilib.h>

#include "efi_vars.h"

#define EFI_IMAGE_SECURITY_DATABASE_GUID \
	{ 0xd719b2cb, 0x3d3a, 0x4596, { 0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f } }

/* MokList and MokListX as the MOK manager writes them: no runtime access. */
#define MOK_LIST_ATTRIBUTES (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

/* Linked in by src/vendor_certs.S. */
extern const UINT8 vendor_cert[], vendor_cert_end[];
extern const UINT8 vendor_dbx[], vendor_dbx_end[];

static void add_esl(struct sig_db *db, const CHAR16 *source, const void *data, UINTN size)
{
	const char *reason;
	int rejected = sig_db_add_esl(db, data, size, &reason);

	if (rejected < 0)
		Print(L"lockshim: %s: out of memory\n", source);
	else if (rejected > 0)
		Print(L"lockshim: %s: %d signature list(s) rejected: %a\n", source, rejected, reason);
}

static void load_variable(struct sig_db *db, const CHAR16 *name, EFI_GUID *guid,
			  BOOLEAN boot_services_only)
{
	UINT32 attributes = 0;
	EFI_STATUS status;
	void *data;
	UINTN size;

	status = efi_var_read(name, guid, &data, &size, &attributes);
	if (status == EFI_NOT_FOUND)
		return;
	if (EFI_ERROR(status)) {
		Print(L"lockshim: cannot read %s: %r\n", name, status);
		return;
	}
	if (boot_services_only && attributes != MOK_LIST_ATTRIBUTES) {
		/* an OS could have written it: it proves nothing about the owner's wishes */
		Print(L"lockshim: ignoring %s: attributes 0x%x are not non-volatile boot-services-only\n",
		      name, attributes);
	} else if (data) {
		add_esl(db, name, data, size);
	}
	if (data)
		FreePool(data);
}

EFI_STATUS efi_policy_load(struct verify_policy *policy)
{
	EFI_GUID security_db = EFI_IMAGE_SECURITY_DATABASE_GUID;
	EFI_GUID shim_lock = SHIM_LOCK_GUID;
	const unsigned char *p = vendor_cert;
	X509 *cert;
	int r;

	cert = d2i_X509(NULL, &p, vendor_cert_end - vendor_cert);
	r = cert ? sig_db_add_cert(&policy->vendor, cert) : -1;
	X509_free(cert);
	if (r < 0) {
		Print(L"lockshim: the embedded vendor certificate cannot be decoded\n");
		return EFI_LOAD_ERROR;
	}
	add_esl(&policy->vendor_dbx, L"vendor dbx", vendor_dbx, vendor_dbx_end - vendor_dbx);

	load_variable(&policy->db, L"db", &security_db, FALSE);
	load_variable(&policy->dbx, L"dbx", &security_db, FALSE);
	load_variable(&policy->mok, L"MokList", &shim_lock, TRUE);
	load_variable(&policy->mokx, L"MokListX", &shim_lock, TRUE);
	return EFI_SUCCESS;
}
