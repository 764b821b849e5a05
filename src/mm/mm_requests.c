// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mm_requests.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_vars.h"
#include "mm_prompt.h"
#include "mok_request.h"
#include "password_crypt.h"

const struct key_request mm_key_requests[KEY_REQUESTS] = {
	[KEY_ENROLL_MOK] = { VAR_MOK_NEW, VAR_MOK_AUTH, VAR_MOK_LIST, MOK_LIST_ENROLL, "Enroll MOK",
			     "Enroll these keys in MokList (trusted)" },
	[KEY_DELETE_MOK] = { VAR_MOK_DEL, VAR_MOK_DEL_AUTH, VAR_MOK_LIST, MOK_LIST_DELETE,
			     "Delete MOK", "Delete these keys from MokList" },
	[KEY_ENROLL_MOKX] = { VAR_MOK_X_NEW, VAR_MOK_X_AUTH, VAR_MOK_LIST_X, MOK_LIST_ENROLL,
			      "Enroll MOKX", "Enroll these keys in MokListX (refused)" },
	[KEY_DELETE_MOKX] = { VAR_MOK_X_DEL, VAR_MOK_X_DEL_AUTH, VAR_MOK_LIST_X, MOK_LIST_DELETE,
			      "Delete MOKX", "Delete these keys from MokListX" },
};

const struct state_request mm_state_requests[STATE_REQUESTS] = {
	[STATE_MOK_SB] = { VAR_MOK_SB,
			   VAR_MOK_SB_STATE,
			   { "Disable Secure Boot validation", "Enable Secure Boot validation" },
			   { "lockshim will boot images it cannot verify (MokSBState set).",
			     "lockshim will verify every image again (MokSBState cleared)." } },
	[STATE_MOK_DB] = { VAR_MOK_DB,
			   VAR_MOK_DB_STATE,
			   { "Ignore db for kernel verification",
			     "Use db for kernel verification" },
			   { "Keys in db will no longer be trusted for kernels (MokDBState set).",
			     "Keys in db will be trusted for kernels again (MokDBState cleared)." } },
	[STATE_MOK_LIST_TRUSTED] = { VAR_MOK_LIST_TRUSTED_NEW,
				     VAR_MOK_LIST_TRUSTED,
				     { "Trust MOK keys in the kernel's machine keyring",
				       "Stop trusting MOK keys in the machine keyring" },
				     { "The kernel will put MOK keys in its machine keyring "
				       "(MokListTrusted set).",
				       "The kernel will no longer put MOK keys in its machine keyring "
				       "(MokListTrusted cleared)." } },
};

BOOLEAN mm_key_request_serve(const struct key_request *kr, const struct mok_variable *request,
			     const struct mok_variable *auth)
{
	const char *reason;

	Print(L"\n==== %a ====\n", kr->title);
	if (!auth->present) {
		log_error("%ls has no %ls: request refused", EFI_VAR_NAME(kr->request),
			  EFI_VAR_NAME(kr->auth));
		return FALSE;
	}
	if (mm_signature_lists_show(request->data, request->size, &reason) != 0) {
		log_error("malformed %ls: %s: request refused", EFI_VAR_NAME(kr->request), reason);
		return FALSE;
	}
	if (EFI_ERROR(mm_confirm_typed_yes(kr->title, kr->question)) ||
	    EFI_ERROR(mm_confirm_with_password(kr->title, auth, request)))
		return FALSE;
	return mm_key_request_apply(kr, request->data, request->size);
}

BOOLEAN mm_key_request_apply(const struct key_request *kr, const void *request, UINTN request_size)
{
	_cleanup_(mm_variable_free) struct mok_variable list = {};
	_cleanup_(openssl_freep) uint8_t *result = NULL;
	size_t result_size = 0, changed = 0;
	const CHAR16 *name = EFI_VAR_NAME(kr->list);
	const char *reason;
	bool os_written;
	EFI_STATUS status;

	status = mm_variable_read(kr->list, &list);
	if (EFI_ERROR(status) && status != EFI_NOT_FOUND) {
		log_error_status(status, "cannot read %ls", name);
		return FALSE;
	}
	/* only what the owner enrolled is carried over (the owner-variable check) */
	if (mok_list_apply_read(kr->op,
				&(struct mok_list_read){ kr->list, list.data, list.size,
							 list.attributes },
				request, request_size, &result, &result_size, &changed, &os_written,
				&reason) < 0) {
		log_error("%s: %s", kr->title, reason);
		return FALSE;
	}
	if (os_written)
		log_warning("ignoring %ls: attributes 0x%X are not the MOK manager's 0x%X", name,
			    list.attributes, variables[kr->list].attributes);
	if (changed == 0) {
		log_info("%s: nothing to change", kr->title);
		return FALSE;
	}
	/* in the way of the manager's write (the firmware keeps a variable's attributes) */
	if (os_written) {
		status = efi_var_delete(name, &shim_lock_guid);
		if (EFI_ERROR(status)) {
			log_error_status(status, "cannot delete %ls: %m; it is unchanged", name);
			return FALSE;
		}
	}
	status = mm_variable_write(kr->list, result, result_size);
	if (EFI_ERROR(status)) {
		log_error_status(status, "cannot write %ls: %m; it is unchanged", name);
		return FALSE;
	}
	log_info("%s: done (%zu entr%s)", kr->title, changed, changed == 1 ? "y" : "ies");
	return TRUE;
}

BOOLEAN mm_reset_request_serve(const struct mok_variable *auth)
{
	EFI_STATUS status;

	Print(L"\n==== Reset MOK list ====\nEvery enrolled MOK will be removed.\n");
	if (EFI_ERROR(mm_confirm_typed_yes("Reset MOK list", "Remove every MOK from MokList")) ||
	    EFI_ERROR(mm_confirm_with_password("Reset MOK list", auth, NULL)))
		return FALSE;
	status = efi_var_delete(EFI_VAR_NAME(VAR_MOK_LIST), &shim_lock_guid);
	if (EFI_ERROR(status)) {
		log_error_status(status, "cannot clear %ls", EFI_VAR_NAME(VAR_MOK_LIST));
		return FALSE;
	}
	log_info("MOK list reset");
	return TRUE;
}

BOOLEAN mm_state_request_serve(const struct state_request *sr, const struct mok_variable *request)
{
	_cleanup_(mok_state_request_wipe) struct mok_state_request req; /* its password in clear */
	const char *reason, *title;
	EFI_STATUS status;
	UINT8 one = 1;

	if (mok_state_request_parse(request->data, request->size, &req, &reason) < 0) {
		Print(L"\n");
		log_error("malformed %ls: %s: request refused", EFI_VAR_NAME(sr->request), reason);
		return FALSE;
	}
	title = sr->titles[req.state];
	Print(L"\n==== %a ====\n%a\n", title, sr->effects[req.state]);
	if (EFI_ERROR(mm_confirm_typed_yes(title, title)) ||
	    EFI_ERROR(mm_confirm_with_characters(title, &req)))
		return FALSE;
	/* state 0 sets the variable (validation off, db ignored, MOK trusted); 1 deletes it */
	status = mm_variable_write(sr->state, &one, req.state == 0 ? sizeof(one) : 0);
	if (EFI_ERROR(status)) {
		log_error_status(status, "cannot set %ls", EFI_VAR_NAME(sr->state));
		return FALSE;
	}
	log_info("%s: done", title);
	return TRUE;
}

/* MokPW all zero (--clear-password): remove the MOK password, which takes the current one. */
static BOOLEAN password_clear(void)
{
	_cleanup_(mm_variable_free) struct mok_variable store = {};
	EFI_STATUS status;

	Print(L"\n==== Clear MOK password ====\n"
	      L"The MOK manager's menu will no longer ask for a password.\n");
	status = mm_owner_variable_read(VAR_MOK_PW_STORE, &store);
	if (EFI_ERROR(status)) {
		log_error("no MOK password is set");
		return FALSE;
	}
	if (EFI_ERROR(mm_confirm_typed_yes("Clear MOK password", "Clear the MOK password")) ||
	    EFI_ERROR(mm_confirm_with_password("Clear MOK password", &store, NULL)))
		return FALSE;
	status = efi_var_delete(EFI_VAR_NAME(VAR_MOK_PW_STORE), &shim_lock_guid);
	if (EFI_ERROR(status)) {
		log_error("Clear MOK password: failed");
		return FALSE;
	}
	log_info("Clear MOK password: done");
	return TRUE;
}

/* The new MOK password, confirmed by typing it, kept in MokPWStore (NV|BS). */
static BOOLEAN password_set(const struct mok_variable *request)
{
	struct password_crypt pc;
	const char *reason;
	EFI_STATUS status;
	int parsed = password_crypt_parse(request->data, request->size, &pc, &reason);

	OPENSSL_cleanse(&pc, sizeof(pc)); /* only checked: the hash is the request's */
	if (parsed < 0) {
		Print(L"\n");
		log_error("malformed %ls: %s: request refused", EFI_VAR_NAME(VAR_MOK_PW), reason);
		return FALSE;
	}
	Print(L"\n==== Set MOK password ====\n"
	      L"The MOK manager's menu will ask for this new password.\n");
	if (EFI_ERROR(mm_confirm_typed_yes("Set MOK password", "Set the MOK password")) ||
	    EFI_ERROR(mm_confirm_with_password("Set MOK password", request, NULL)))
		return FALSE;
	status = mm_variable_write(VAR_MOK_PW_STORE, request->data, request->size);
	if (EFI_ERROR(status)) {
		log_error_status(status, "cannot set %ls", EFI_VAR_NAME(VAR_MOK_PW_STORE));
		return FALSE;
	}
	log_info("Set MOK password: done");
	return TRUE;
}

static BOOLEAN all_zero(const struct mok_variable *variable)
{
	for (UINTN i = 0; i < variable->size; i++)
		if (((const UINT8 *)variable->data)[i])
			return FALSE;
	return TRUE;
}

BOOLEAN mm_password_request_serve(const struct mok_variable *request)
{
	if (request->size != PASSWORD_CRYPT_SIZE) {
		Print(L"\n");
		log_error("malformed %ls: request refused", EFI_VAR_NAME(VAR_MOK_PW));
		return FALSE;
	}
	if (all_zero(request))
		return password_clear();
	return password_set(request);
}
