// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mm_prompt.h"

#include <efilib.h>

#include <openssl/evp.h>

#include "efi_cleanup.h"
#include "efi_console.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_random.h"
#include "macro.h"
#include "mok_confirm.h"
#include "password_crypt.h"
#include "signature_list.h"

#define PASSWORD_TRIES 3

/* What the owner typed at a password prompt: wiped after each check and on every way out. */
static void typed_password_wipe(CHAR16 (*typed)[PASSWORD_MAX_CHARS])
{
	OPENSSL_cleanse(*typed, sizeof(*typed));
}

EFI_STATUS mm_confirm_with_password(const char *title, const struct mok_variable *auth,
				    const struct mok_variable *request)
{
	_cleanup_(typed_password_wipe) CHAR16 typed[PASSWORD_MAX_CHARS];
	const char *reason;
	EFI_STATUS status;
	UINTN len;

	for (int attempt = 1; attempt <= PASSWORD_TRIES; attempt++) {
		int match;

		Print(L"Password for %a (attempt %d of %d): ", title, attempt, PASSWORD_TRIES);
		status = efi_console_read_line(typed, ARRAY_SIZE(typed), &len, TRUE, KEY_TIMEOUT);
		if (EFI_ERROR(status)) {
			Print(L"\n");
			log_error("no answer: %s refused", title);
			return status;
		}
		if (password_typed_check(len, &reason) < 0) {
			log_error("%s: not accepted", reason);
			continue;
		}
		match = password_matches(auth->data, auth->size, request ? request->data : NULL,
					 request ? request->size : 0, typed, len, &reason);
		typed_password_wipe(&typed);
		if (match < 0) {
			log_error("%s: unusable password data: %s", title, reason);
			return EFI_INVALID_PARAMETER;
		}
		if (match == 1)
			return EFI_SUCCESS;
		log_error("wrong password");
	}
	log_error("too many wrong passwords: %s refused", title);
	return EFI_SECURITY_VIOLATION;
}

EFI_STATUS mm_confirm_with_characters(const char *title, const struct mok_state_request *req)
{
	for (int attempt = 1; attempt <= PASSWORD_TRIES; attempt++) {
		size_t positions[MOK_POSITIONS_ASKED];
		const char *source, *reason;
		BOOLEAN right = TRUE;
		UINT64 random;

		random = efi_random64(BS, &source);
		log_info("random positions from %s", source);
		if (password_positions_pick(req->password_len, random, positions, &reason) < 0) {
			log_error("%s: %s: refused", title, reason);
			return EFI_INVALID_PARAMETER;
		}
		for (int i = 0; i < MOK_POSITIONS_ASKED; i++) {
			_cleanup_(input_key_wipe) EFI_INPUT_KEY key;
			EFI_STATUS status;

			Print(L"Enter password character %d (attempt %d of %d): ",
			      (int)positions[i] + 1, attempt, PASSWORD_TRIES);
			status = efi_console_read_key(KEY_TIMEOUT, &key);
			if (EFI_ERROR(status)) {
				Print(L"\n");
				log_error("no answer: %s refused", title);
				return status;
			}
			Print(L"*\n");
			right &= key.UnicodeChar == req->password[positions[i]];
		}
		if (right)
			return EFI_SUCCESS;
		log_error("wrong password characters");
	}
	log_error("too many wrong answers: %s refused", title);
	return EFI_SECURITY_VIOLATION;
}

EFI_STATUS mm_confirm_typed_yes(const char *title, const char *question)
{
	CHAR16 typed[MOK_ANSWER_MAX_CHARS];
	EFI_STATUS status;
	UINTN len;

	Print(L"%a? Type 'yes' to continue: ", question);
	status = efi_console_read_line(typed, ARRAY_SIZE(typed), &len, FALSE, KEY_TIMEOUT);
	if (EFI_ERROR(status)) {
		Print(L"\n");
		log_error("no answer: %s refused", title);
		return status;
	}
	if (!confirm_answer_is_yes(typed, len)) {
		log_error("not confirmed: %s refused", title);
		return EFI_ABORTED;
	}
	return EFI_SUCCESS;
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

int mm_signature_lists_show(const void *data, UINTN size, const char **reason)
{
	const char *ignored;

	return esl_walk(data, size, entry_show, NULL, reason ? reason : &ignored);
}
