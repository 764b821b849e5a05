// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * mmx64.efi, lockshim's MOK manager: carries out the requests mokutil left
 * in variables (rhboot/shim's names and formats) once the machine's owner
 * confirms them at the console with the password given to mokutil.
 *
 * Every request is read and then deleted before anything is asked, so none
 * can be replayed, whatever the outcome; one whose variables carry other
 * attributes than mokutil's (NV|BS|RT) is ignored. A changed MokList or
 * MokListX is computed whole (mok_list.c) and written with one SetVariable,
 * non-volatile and boot-services only. After any change the machine
 * reboots, so that lockshim starts again from the new lists. A MOK password
 * (MokPW, kept in MokPWStore) guards the menu the owner enters on purpose.
 */
#include <efi.h>
#include <efilib.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include "cpu_features.h"
#include "efi_console.h"
#include "efi_file.h"
#include "efi_guid.h"
#include "efi_policy.h"
#include "efi_vars.h"
#include "macro.h"
#include "mok_list.h"
#include "mok_request.h"
#include "pe.h"
#include "password_crypt.h"
#include "signature_list.h"

#define REQUEST_ATTRIBUTES \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define LIST_ATTRIBUTES    (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)
#define PASSWORD_TRIES     3
#define KEY_TIMEOUT        60 /* seconds for each key at a prompt */

const CHAR16 log_prefix[] = L"MOK manager";

struct key_request {
	const CHAR16 *request, *auth, *list;
	enum mok_list_op op;
	const char *title;
};

static const struct key_request key_requests[] = {
	{ L"MokNew", L"MokAuth", L"MokList", MOK_LIST_ENROLL, "Enroll MOK" },
	{ L"MokDel", L"MokDelAuth", L"MokList", MOK_LIST_DELETE, "Delete MOK" },
	{ L"MokXNew", L"MokXAuth", L"MokListX", MOK_LIST_ENROLL, "Enroll MOKX" },
	{ L"MokXDel", L"MokXDelAuth", L"MokListX", MOK_LIST_DELETE, "Delete MOKX" },
};

struct state_request {
	const CHAR16 *request, *state;
	const char *titles[2]; /* for state 0 and state 1 */
};

static const struct state_request state_requests[] = {
	{ L"MokSB", L"MokSBState", { "Disable Secure Boot validation", "Enable Secure Boot validation" } },
	{ L"MokDB", L"MokDBState", { "Ignore db for kernel verification", "Use db for kernel verification" } },
	{ L"MokListTrustedNew", L"MokListTrusted",
	  { "Trust MOK keys in the kernel's machine keyring", "Stop trusting MOK keys in the machine keyring" } },
};

#define N_STATE_REQUESTS (ARRAY_SIZE(state_requests))

struct variable {
	void *data;
	UINTN size;
	UINT32 attributes;
	BOOLEAN present; /* there and usable */
	BOOLEAN seen;    /* there, usable or not */
};

/* Read a request variable and delete it at once: it is never replayed. */
static void take_request(const CHAR16 *name, struct variable *v)
{
	EFI_STATUS status = efi_var_read(name, &shim_lock_guid, &v->data, &v->size, &v->attributes);

	v->present = v->seen = !EFI_ERROR(status);
	if (status != EFI_NOT_FOUND)
		efi_var_delete(name, &shim_lock_guid);
	if (v->present && v->attributes != REQUEST_ATTRIBUTES) {
		Print(L"MOK manager: ignoring %s: attributes 0x%x are not mokutil's 0x%x\n", name,
		      v->attributes, REQUEST_ATTRIBUTES);
		v->present = FALSE;
	}
}

static void release(struct variable *v)
{
	if (v->data)
		FreePool(v->data);
	ZeroMem(v, sizeof(*v));
}

static void print_certificate(const uint8_t *der, size_t size)
{
	const unsigned char *p = der;
	X509 *cert = d2i_X509(NULL, &p, (long)size);
	char text[256];
	unsigned char fingerprint[EVP_MAX_MD_SIZE];
	unsigned int len;
	BIO *bio;

	if (!cert) {
		Print(L"  (undecodable certificate)\n");
		return;
	}
	X509_NAME_oneline(X509_get_subject_name(cert), text, sizeof(text));
	Print(L"  Subject:  %a\n", text);
	X509_NAME_oneline(X509_get_issuer_name(cert), text, sizeof(text));
	Print(L"  Issuer:   %a\n", text);
	bio = BIO_new(BIO_s_mem());
	if (bio) {
		int n;

		i2a_ASN1_INTEGER(bio, X509_get0_serialNumber(cert));
		BIO_puts(bio, "\n  Valid:    ");
		ASN1_TIME_print(bio, X509_get0_notBefore(cert));
		BIO_puts(bio, " to ");
		ASN1_TIME_print(bio, X509_get0_notAfter(cert));
		n = BIO_read(bio, text, sizeof(text) - 1);
		text[n > 0 ? n : 0] = '\0';
		Print(L"  Serial:   %a\n", text);
		BIO_free(bio);
	}
	if (X509_digest(cert, EVP_sha256(), fingerprint, &len) == 1) {
		Print(L"  SHA-256:  ");
		for (unsigned int i = 0; i < len; i++)
			Print(L"%02x%a", fingerprint[i], i + 1 < len ? ":" : "\n");
	}
	X509_free(cert);
}

static int print_entry(const struct esl_entry *e, void *ctx)
{
	(void)ctx;
	if (e->type == ESL_X509) {
		Print(L" Certificate:\n");
		print_certificate(e->data, e->size);
		return 0;
	}
	Print(L" %a: ", esl_type_name(e->type));
	for (size_t i = 0; i < e->size; i++)
		Print(L"%02x", e->data[i]);
	Print(L"\n");
	return 0;
}

/* Up to PASSWORD_TRIES attempts; TRUE when the typed password matches @auth. */
static BOOLEAN confirm_with_password(const char *title, const struct variable *auth,
				     const struct variable *request)
{
	CHAR16 typed[PASSWORD_MAX_CHARS];
	const char *reason;
	UINTN len;

	for (int attempt = 1; attempt <= PASSWORD_TRIES; attempt++) {
		int r;

		Print(L"Password for %a (attempt %d of %d): ", title, attempt, PASSWORD_TRIES);
		if (EFI_ERROR(efi_console_read_line(typed, PASSWORD_MAX_CHARS, &len, TRUE, KEY_TIMEOUT))) {
			Print(L"\nMOK manager: no answer: %a refused\n", title);
			return FALSE;
		}
		r = password_matches(auth->data, auth->size, request ? request->data : NULL,
				     request ? request->size : 0, typed, len, &reason);
		ZeroMem(typed, sizeof(typed));
		if (r < 0) {
			Print(L"MOK manager: %a: unusable password data: %a\n", title, reason);
			return FALSE;
		}
		if (r == 1)
			return TRUE;
		Print(L"MOK manager: wrong password\n");
	}
	Print(L"MOK manager: too many wrong passwords: %a refused\n", title);
	return FALSE;
}

static EFI_STATUS write_list(const CHAR16 *name, const uint8_t *data, size_t size)
{
	/* one call: the firmware replaces the variable whole, or not at all */
	return RT->SetVariable((CHAR16 *)name, &shim_lock_guid,
				 size ? LIST_ATTRIBUTES : 0, size, (void *)data);
}

static BOOLEAN apply_to_list(const struct key_request *kr, const struct variable *request);

/* Returns TRUE when a list was changed. */
static BOOLEAN handle_key_request(const struct key_request *kr, struct variable *request,
				  struct variable *auth)
{
	const char *reason;

	Print(L"\n==== %a ====\n", kr->title);
	if (!auth->present) {
		Print(L"MOK manager: %s has no %s: request refused\n", kr->request, kr->auth);
		return FALSE;
	}
	if (esl_walk(request->data, request->size, print_entry, NULL, &reason) != 0) {
		Print(L"MOK manager: malformed %s: %a: request refused\n", kr->request, reason);
		return FALSE;
	}
	if (!confirm_with_password(kr->title, auth, request))
		return FALSE;
	return apply_to_list(kr, request);
}

/* Apply a confirmed request to its list, written whole. TRUE when it changed. */
static BOOLEAN apply_to_list(const struct key_request *kr, const struct variable *request)
{
	struct variable list = { 0 };
	uint8_t *result = NULL;
	size_t result_size = 0, changed = 0;
	const char *reason;
	EFI_STATUS status;
	BOOLEAN done = FALSE;

	status = efi_var_read(kr->list, &shim_lock_guid, &list.data, &list.size, &list.attributes);
	if (EFI_ERROR(status) && status != EFI_NOT_FOUND) {
		Print(L"MOK manager: cannot read %s: %r\n", kr->list, status);
		return FALSE;
	}
	if (mok_list_apply(kr->op, list.data, list.size, request->data, request->size, &result,
			   &result_size, &changed, &reason) < 0) {
		Print(L"MOK manager: %a: %a\n", kr->title, reason);
	} else if (changed == 0) {
		Print(L"MOK manager: %a: nothing to change\n", kr->title);
	} else if (status = write_list(kr->list, result, result_size), EFI_ERROR(status)) {
		Print(L"MOK manager: cannot write %s: %r; it is unchanged\n", kr->list, status);
	} else {
		Print(L"MOK manager: %a: done (%d entr%a)\n", kr->title, changed, changed == 1 ? "y" : "ies");
		done = TRUE;
	}
	OPENSSL_free(result);
	release(&list);
	return done;
}

/* MokAuth without MokNew: mokutil --reset, clear MokList. */
static BOOLEAN handle_reset(struct variable *auth)
{
	EFI_STATUS status;

	Print(L"\n==== Reset MOK list ====\nEvery enrolled MOK will be removed.\n");
	if (!confirm_with_password("Reset MOK list", auth, NULL))
		return FALSE;
	status = write_list(L"MokList", NULL, 0);
	if (EFI_ERROR(status) && status != EFI_NOT_FOUND) {
		Print(L"MOK manager: cannot clear MokList: %r\n", status);
		return FALSE;
	}
	Print(L"MOK manager: MOK list reset\n");
	return TRUE;
}

static BOOLEAN all_zero(const struct variable *v)
{
	for (UINTN i = 0; i < v->size; i++)
		if (((const UINT8 *)v->data)[i])
			return FALSE;
	return TRUE;
}

/*
 * MokPW (mokutil --password): the new MOK password, confirmed by typing it,
 * kept in MokPWStore (NV+BS); all zero (--clear-password) removes it, which
 * takes the current one.
 */
static BOOLEAN handle_password_request(struct variable *request)
{
	struct variable store = { 0 };
	const char *reason;
	struct password_crypt pc;
	EFI_STATUS status;
	BOOLEAN done = FALSE;

	if (request->size != PASSWORD_CRYPT_SIZE) {
		Print(L"\nMOK manager: malformed MokPW: request refused\n");
		return FALSE;
	}
	if (all_zero(request)) {
		Print(L"\n==== Clear MOK password ====\n");
		if (EFI_ERROR(efi_var_read(L"MokPWStore", &shim_lock_guid, &store.data, &store.size,
					   &store.attributes))) {
			Print(L"MOK manager: no MOK password is set\n");
			return FALSE;
		}
		if (confirm_with_password("Clear MOK password", &store, NULL)) {
			status = efi_var_delete(L"MokPWStore", &shim_lock_guid);
			done = !EFI_ERROR(status);
			Print(L"MOK manager: Clear MOK password: %a\n", done ? "done" : "failed");
		}
		release(&store);
		return done;
	}
	if (password_crypt_parse(request->data, request->size, &pc, &reason) < 0) {
		Print(L"\nMOK manager: malformed MokPW: %a: request refused\n", reason);
		return FALSE;
	}
	Print(L"\n==== Set MOK password ====\n");
	if (!confirm_with_password("Set MOK password", request, NULL))
		return FALSE;
	status = RT->SetVariable(L"MokPWStore", &shim_lock_guid, LIST_ATTRIBUTES,
				   request->size, request->data);
	if (EFI_ERROR(status)) {
		Print(L"MOK manager: cannot set MokPWStore: %r\n", status);
		return FALSE;
	}
	Print(L"MOK manager: Set MOK password: done\n");
	return TRUE;
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

/* The owner types three characters of the request's password, each asked at random. */
static BOOLEAN confirm_with_characters(const char *title, const struct mok_state_request *req)
{
	for (int attempt = 1; attempt <= PASSWORD_TRIES; attempt++) {
		BOOLEAN right = TRUE;

		for (int i = 0; i < 3; i++) {
			UINTN position = random_below(req->password_len);
			EFI_INPUT_KEY key;

			Print(L"Enter password character %d (attempt %d of %d): ", position + 1, attempt,
			      PASSWORD_TRIES);
			if (EFI_ERROR(efi_console_read_key(KEY_TIMEOUT, &key))) {
				Print(L"\nMOK manager: no answer: %a refused\n", title);
				return FALSE;
			}
			Print(L"*\n");
			right &= key.UnicodeChar == req->password[position];
		}
		if (right)
			return TRUE;
		Print(L"MOK manager: wrong password characters\n");
	}
	Print(L"MOK manager: too many wrong answers: %a refused\n", title);
	return FALSE;
}

static BOOLEAN handle_state_request(const struct state_request *sr, struct variable *request)
{
	struct mok_state_request req;
	const char *reason, *title;
	EFI_STATUS status;
	UINT8 one = 1;

	if (mok_state_request_parse(request->data, request->size, &req, &reason) < 0) {
		Print(L"\nMOK manager: malformed %s: %a: request refused\n", sr->request, reason);
		return FALSE;
	}
	title = sr->titles[req.state];
	Print(L"\n==== %a ====\n", title);
	if (!confirm_with_characters(title, &req))
		return FALSE;
	/* state 0 asks to set the variable (validation off, db ignored, MOK trusted); 1 to clear it */
	status = RT->SetVariable((CHAR16 *)sr->state, &shim_lock_guid,
				   req.state == 0 ? LIST_ATTRIBUTES : 0, req.state == 0 ? 1 : 0, &one);
	if (EFI_ERROR(status) && status != EFI_NOT_FOUND) {
		Print(L"MOK manager: cannot set %s: %r\n", sr->state, status);
		return FALSE;
	}
	Print(L"MOK manager: %a: done\n", title);
	return TRUE;
}

/* An X509 or SHA256 entry from a file on the manager's own disk, as a MokNew would hold it. */
static int entry_from_file(EFI_HANDLE device, const CHAR16 *path, BOOLEAN image_hash,
			   uint8_t **esl, size_t *esl_size)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	struct esl_entry entry = { .owner = esl_owner_shim };
	struct pe_image *img = NULL;
	const unsigned char *p;
	const char *reason;
	unsigned int len;
	EFI_STATUS status;
	X509 *cert = NULL;
	struct efi_file_data file;
	int r = -1;

	status = efi_file_read(device, path, &file);
	if (EFI_ERROR(status)) {
		Print(L"MOK manager: cannot read %s: %r\n", path, status);
		return -1;
	}
	if (image_hash) {
		img = AllocatePool(sizeof(*img));
		if (!img || pe_parse(file.data, file.size, img, &reason) < 0 ||
		    pe_authenticode_digest(img, EVP_sha256(), digest, &len, &reason) < 0) {
			Print(L"MOK manager: %s: %a\n", path, img ? reason : "out of memory");
			goto out;
		}
		entry.type = ESL_SHA256;
		entry.data = digest;
		entry.size = len;
	} else {
		p = file.data;
		cert = d2i_X509(NULL, &p, (long)file.size);
		if (!cert || p != (const unsigned char *)file.data + file.size) {
			Print(L"MOK manager: %s is not a DER certificate\n", path);
			goto out;
		}
		entry.type = ESL_X509;
		entry.data = file.data;
		entry.size = file.size;
	}
	r = esl_append_entry(&entry, esl, esl_size);
out:
	X509_free(cert);
	if (img)
		FreePool(img);
	efi_file_data_free(&file);
	return r;
}

/*
 * Entered on purpose (no request): the machine's owner, at the console, may
 * enroll a key or an image hash from this disk. Presence at the console is
 * what authorises it, as in rhboot/shim's MokManager.
 */
static BOOLEAN owner_menu(EFI_HANDLE device)
{
	struct variable store = { 0 };
	CHAR16 path[256];
	EFI_INPUT_KEY key;
	UINTN len;

	/* a MOK password, once set, guards the menu */
	if (!EFI_ERROR(efi_var_read(L"MokPWStore", &shim_lock_guid, &store.data, &store.size,
				    &store.attributes))) {
		BOOLEAN ok = store.attributes == LIST_ATTRIBUTES &&
			     confirm_with_password("MOK manager", &store, NULL);

		release(&store);
		if (!ok)
			return FALSE;
	}

	for (;;) {
		struct variable request = { 0 };
		BOOLEAN image_hash, changed;
		size_t size = 0;

		Print(L"\n==== MOK manager ====\n"
		      L"1) Enroll a key (.der/.cer) from a file on this disk\n"
		      L"2) Enroll the hash of an image on this disk\n"
		      L"3) Continue booting\n"
		      L"4) Reboot\n"
		      L"Choice (continues booting after %d s): ", KEY_TIMEOUT);
		if (EFI_ERROR(efi_console_read_key(KEY_TIMEOUT, &key)) || key.UnicodeChar == L'3') {
			Print(L"\n");
			return FALSE;
		}
		Print(L"%c\n", key.UnicodeChar);
		if (key.UnicodeChar == L'4')
			RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
		if (key.UnicodeChar != L'1' && key.UnicodeChar != L'2')
			continue;
		image_hash = key.UnicodeChar == L'2';
		Print(L"File on this disk, e.g. \\EFI\\lockshim\\%a (Escape: back): ",
		      image_hash ? "vmlinuz.efi" : "mykey.der");
		if (EFI_ERROR(efi_console_read_line(path, 255, &len, FALSE, KEY_TIMEOUT)) || len == 0)
			continue;
		path[len] = L'\0';
		if (entry_from_file(device, path, image_hash, (uint8_t **)&request.data, &size) < 0)
			continue;
		request.size = size;
		esl_walk(request.data, request.size, print_entry, NULL, &(const char *){ NULL });
		Print(L"Enroll it? (y/n): ");
		changed = !EFI_ERROR(efi_console_read_key(KEY_TIMEOUT, &key)) &&
			  (key.UnicodeChar == L'y' || key.UnicodeChar == L'Y');
		Print(L"\n");
		if (changed)
			changed = apply_to_list(&key_requests[0], &request);
		OPENSSL_free(request.data);
		if (changed)
			return TRUE;
	}
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	struct variable requests[4] = { 0 }, auths[4] = { 0 }, states[N_STATE_REQUESTS] = { 0 };
	struct variable password = { 0 };
	BOOLEAN changed = FALSE, any = FALSE;

	InitializeLib(image, system_table);
	crypto_cpu_init(); /* no constructors under UEFI: before any OpenSSL call */
	Print(L"lockshim MOK manager %a\n", LOCKSHIM_VERSION);

	for (UINTN i = 0; i < 4; i++) {
		take_request(key_requests[i].request, &requests[i]);
		take_request(key_requests[i].auth, &auths[i]);
	}
	for (UINTN i = 0; i < N_STATE_REQUESTS; i++)
		take_request(state_requests[i].request, &states[i]);
	take_request(L"MokPW", &password);

	for (UINTN i = 0; i < 4; i++) {
		if (!requests[i].present)
			continue;
		any = TRUE;
		changed |= handle_key_request(&key_requests[i], &requests[i], &auths[i]);
	}
	/* MokAuth alone is a reset; beside an ignored MokNew it is not */
	if (!requests[0].seen && auths[0].present) {
		any = TRUE;
		changed |= handle_reset(&auths[0]);
	}
	for (UINTN i = 0; i < N_STATE_REQUESTS; i++) {
		if (!states[i].present)
			continue;
		any = TRUE;
		changed |= handle_state_request(&state_requests[i], &states[i]);
	}

	if (password.present) {
		any = TRUE;
		changed |= handle_password_request(&password);
	}

	for (UINTN i = 0; i < 4; i++) {
		release(&requests[i]);
		release(&auths[i]);
	}
	release(&password);
	for (UINTN i = 0; i < N_STATE_REQUESTS; i++)
		release(&states[i]);

	if (!any) {
		EFI_LOADED_IMAGE *self;

		if (!EFI_ERROR(BS->HandleProtocol(image, &LoadedImageProtocol,
						 (void **)&self)))
			changed = owner_menu(self->DeviceHandle);
	}
	if (changed) {
		Print(L"MOK manager: rebooting\n");
		RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	}
	return EFI_SUCCESS;
}
