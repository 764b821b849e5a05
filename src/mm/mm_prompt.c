// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mm_prompt.h"

#include <efilib.h>

#include <openssl/evp.h>

#include "efi_cleanup.h"
#include "efi_console.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "macro.h"
#include "password_crypt.h"
#include "signature_list.h"

#define PASSWORD_TRIES       3
#define PASSWORD_CHARS_ASKED 3 /* characters of a state request's password per attempt */

EFI_STATUS confirm_with_password(const char *title, const struct mok_variable *auth,
				 const struct mok_variable *request)
{
	CHAR16 typed[PASSWORD_MAX_CHARS];
	const char *reason;
	EFI_STATUS status;
	UINTN len;

	for (int attempt = 1; attempt <= PASSWORD_TRIES; attempt++) {
		int match;

		Print(L"Password for %a (attempt %d of %d): ", title, attempt, PASSWORD_TRIES);
		status = efi_console_read_line(typed, ARRAY_SIZE(typed), &len, TRUE, KEY_TIMEOUT);
		if (EFI_ERROR(status)) {
			Print(L"\n");
			return log_error(status, L"no answer: %a refused", title);
		}
		match = password_matches(auth->data, auth->size, request ? request->data : NULL,
					 request ? request->size : 0, typed, len, &reason);
		ZeroMem(typed, sizeof(typed));
		if (match < 0)
			return log_error(EFI_INVALID_PARAMETER, L"%a: unusable password data: %a",
					 title, reason);
		if (match == 1)
			return EFI_SUCCESS;
		log_error(EFI_SECURITY_VIOLATION, L"wrong password");
	}
	return log_error(EFI_SECURITY_VIOLATION, L"too many wrong passwords: %a refused", title);
}

static UINTN random_below(UINTN n)
{
	EFI_RNG_PROTOCOL *rng = NULL;
	UINT64 value = 0;
	EFI_TIME now;

	if (!EFI_ERROR(LibLocateProtocol(&rng_protocol_guid, (void **)&rng)) && rng &&
	    !EFI_ERROR(rng->GetRNG(rng, NULL, sizeof(value), (UINT8 *)&value)))
		return (UINTN)(value % n);
	/* no RNG: the clock, which is enough to keep a typist from guessing ahead */
	RT->GetTime(&now, NULL);
	return (UINTN)((now.Nanosecond / 1000 + now.Second * 7919u) % n);
}

EFI_STATUS confirm_with_characters(const char *title, const struct mok_state_request *req)
{
	for (int attempt = 1; attempt <= PASSWORD_TRIES; attempt++) {
		BOOLEAN right = TRUE;

		for (int i = 0; i < PASSWORD_CHARS_ASKED; i++) {
			UINTN position = random_below(req->password_len);
			EFI_INPUT_KEY key;
			EFI_STATUS status;

			Print(L"Enter password character %d (attempt %d of %d): ", position + 1,
			      attempt, PASSWORD_TRIES);
			status = efi_console_read_key(KEY_TIMEOUT, &key);
			if (EFI_ERROR(status)) {
				Print(L"\n");
				return log_error(status, L"no answer: %a refused", title);
			}
			Print(L"*\n");
			right &= key.UnicodeChar == req->password[position];
		}
		if (right)
			return EFI_SUCCESS;
		log_error(EFI_SECURITY_VIOLATION, L"wrong password characters");
	}
	return log_error(EFI_SECURITY_VIOLATION, L"too many wrong answers: %a refused", title);
}

BOOLEAN confirm_yes_no(const CHAR16 *question)
{
	EFI_INPUT_KEY key;
	BOOLEAN yes;

	Print(L"%s", question);
	yes = !EFI_ERROR(efi_console_read_key(KEY_TIMEOUT, &key)) &&
	      (key.UnicodeChar == L'y' || key.UnicodeChar == L'Y');
	Print(L"\n");
	return yes;
}

/* The serial number and the validity, which OpenSSL prints only to a BIO. */
static void certificate_serial_show(X509 *cert)
{
	_cleanup_(bio_freep) BIO *bio = BIO_new(BIO_s_mem());
	char text[256];
	int n;

	if (!bio)
		return;
	i2a_ASN1_INTEGER(bio, X509_get0_serialNumber(cert));
	BIO_puts(bio, "\n  Valid:    ");
	ASN1_TIME_print(bio, X509_get0_notBefore(cert));
	BIO_puts(bio, " to ");
	ASN1_TIME_print(bio, X509_get0_notAfter(cert));
	n = BIO_read(bio, text, sizeof(text) - 1);
	text[n > 0 ? n : 0] = '\0';
	Print(L"  Serial:   %a\n", text);
}

static void certificate_show(const uint8_t *der, size_t size)
{
	const unsigned char *p = der;
	_cleanup_(x509_freep) X509 *cert = d2i_X509(NULL, &p, (long)size);
	unsigned char fingerprint[EVP_MAX_MD_SIZE];
	char text[256];
	unsigned int len;

	if (!cert) {
		Print(L"  (undecodable certificate)\n");
		return;
	}
	X509_NAME_oneline(X509_get_subject_name(cert), text, sizeof(text));
	Print(L"  Subject:  %a\n", text);
	X509_NAME_oneline(X509_get_issuer_name(cert), text, sizeof(text));
	Print(L"  Issuer:   %a\n", text);
	certificate_serial_show(cert);
	if (X509_digest(cert, EVP_sha256(), fingerprint, &len) == 1) {
		Print(L"  SHA-256:  ");
		for (unsigned int i = 0; i < len; i++)
			Print(L"%02x%a", fingerprint[i], i + 1 < len ? ":" : "\n");
	}
}

static int entry_show(const struct esl_entry *entry, void *ctx)
{
	(void)ctx;
	if (entry->type == ESL_X509) {
		Print(L" Certificate:\n");
		certificate_show(entry->data, entry->size);
		return 0;
	}
	Print(L" %a: ", esl_type_name(entry->type));
	for (size_t i = 0; i < entry->size; i++)
		Print(L"%02x", entry->data[i]);
	Print(L"\n");
	return 0;
}

int signature_lists_show(const void *data, UINTN size, const char **reason)
{
	const char *ignored;

	return esl_walk(data, size, entry_show, NULL, reason ? reason : &ignored);
}
