// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mm_menu.h"

#include <efilib.h>

#include <openssl/evp.h>

#include "efi_cleanup.h"
#include "efi_console.h"
#include "efi_file.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "macro.h"
#include "mm.h"
#include "mm_prompt.h"
#include "mm_requests.h"
#include "pe.h"
#include "signature_list.h"

/*
 * A MOK password the manager set guards the menu. None, or one an OS wrote
 * (not NV|BS, said on the console), leaves it open, as with shim when none
 * is set; one that cannot be read keeps it closed.
 */
static EFI_STATUS owner_password_check(void)
{
	_cleanup_(mm_variable_free) struct mok_variable store = {};
	EFI_STATUS status = mm_owner_variable_read(VAR_MOK_PW_STORE, &store);

	if (status == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(status))
		return log_error_status(status, "cannot read %ls", EFI_VAR_NAME(VAR_MOK_PW_STORE));
	return mm_confirm_with_password("MOK manager", &store, NULL);
}

/* @entry for the Authenticode SHA-256 of the image in @file, into @digest. */
static EFI_STATUS image_hash_entry(const CHAR16 *path, const struct efi_file_data *file,
				   uint8_t digest[EVP_MAX_MD_SIZE], struct esl_entry *entry)
{
	_cleanup_pool_ struct pe_image *img = AllocatePool(sizeof(*img));
	const char *reason;
	unsigned int len;

	if (!img) {
		log_error("%ls: %s", path, "out of memory");
		return EFI_OUT_OF_RESOURCES;
	}
	if (pe_parse(file->data, file->size, img, &reason) < 0 ||
	    pe_authenticode_digest(img, EVP_sha256(), digest, &len, &reason) < 0) {
		log_error("%ls: %s", path, reason);
		return EFI_UNSUPPORTED;
	}
	entry->type = ESL_SHA256;
	entry->data = digest;
	entry->size = len;
	return EFI_SUCCESS;
}

/* @entry for the certificate that is the whole of @file, in DER. */
static EFI_STATUS certificate_entry(const CHAR16 *path, const struct efi_file_data *file,
				    struct esl_entry *entry)
{
	const unsigned char *p = file->data;
	_cleanup_(x509_freep) X509 *cert = d2i_X509(NULL, &p, (long)file->size);

	if (!cert || p != (const unsigned char *)file->data + file->size) {
		log_error("%ls is not a DER certificate", path);
		return EFI_UNSUPPORTED;
	}
	entry->type = ESL_X509;
	entry->data = file->data;
	entry->size = file->size;
	return EFI_SUCCESS;
}

/*
 * A signature list of the key in @path on @device, or with @image_hash of
 * the image's hash, owned by shim as a MokNew would hold it, appended to
 * *@esl (OPENSSL_malloc'd).
 */
static EFI_STATUS esl_from_file(EFI_HANDLE device, const CHAR16 *path, BOOLEAN image_hash,
				uint8_t **esl, size_t *esl_size)
{
	_cleanup_(efi_file_data_free) struct efi_file_data file = {};
	struct esl_entry entry = { .owner = esl_owner_shim };
	uint8_t digest[EVP_MAX_MD_SIZE];
	EFI_STATUS status;

	status = efi_file_read(device, path, &file);
	if (EFI_ERROR(status))
		return log_error_status(status, "cannot read %ls", path);
	if (image_hash)
		status = image_hash_entry(path, &file, digest, &entry);
	else
		status = certificate_entry(path, &file, &entry);
	if (EFI_ERROR(status))
		return status;
	return esl_append_entry(&entry, esl, esl_size) < 0 ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
}

/* The owner's choice of the menu's entries; L'3' (continue booting) when no key came. */
static CHAR16 owner_menu_choice(void)
{
	EFI_INPUT_KEY key;

	Print(L"\n==== MOK manager ====\n"
	      L"1) Enroll a key (.der/.cer) from a file on this disk\n"
	      L"2) Enroll the hash of an image on this disk\n"
	      L"3) Continue booting\n"
	      L"4) Reboot\n"
	      L"Choice (continues booting after %d s): ",
	      KEY_TIMEOUT);
	if (EFI_ERROR(efi_console_read_key(KEY_TIMEOUT, &key)) || key.UnicodeChar == L'3') {
		Print(L"\n");
		return L'3';
	}
	Print(L"%c\n", key.UnicodeChar);
	return key.UnicodeChar;
}

/* Enroll a key, or with @image_hash an image's hash, from a file the owner names. */
static BOOLEAN owner_enroll_from_file(EFI_HANDLE device, BOOLEAN image_hash)
{
	_cleanup_(openssl_freep) uint8_t *esl = NULL;
	size_t esl_size = 0;
	CHAR16 path[256];
	EFI_STATUS status;
	UINTN len;

	Print(L"File on this disk, e.g. \\EFI\\lockshim\\%a (Escape: back): ",
	      image_hash ? "vmlinuz.efi" : "mykey.der");
	/* one element kept for the terminator */
	status = efi_console_read_line(path, ARRAY_SIZE(path) - 1, &len, FALSE, KEY_TIMEOUT);
	if (EFI_ERROR(status) || len == 0)
		return FALSE;
	path[len] = L'\0';
	if (EFI_ERROR(esl_from_file(device, path, image_hash, &esl, &esl_size)))
		return FALSE;
	mm_signature_lists_show(esl, esl_size, NULL);
	if (EFI_ERROR(mm_confirm_typed_yes("Enroll MOK", "Enroll it in MokList")))
		return FALSE;
	return mm_key_request_apply(&mm_key_requests[KEY_ENROLL_MOK], esl, esl_size);
}

BOOLEAN mm_owner_menu(EFI_HANDLE device)
{
	if (EFI_ERROR(owner_password_check()))
		return FALSE;
	for (;;) {
		CHAR16 choice = owner_menu_choice();

		if (choice == L'3')
			return FALSE;
		if (choice == L'4')
			RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
		if ((choice == L'1' || choice == L'2') &&
		    owner_enroll_from_file(device, choice == L'2'))
			return TRUE;
	}
}
