// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_policy.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_vars.h"

/*
 * Add signature lists to @db; returns sig_db_add_esl's count (-1: out of
 * memory) and *@why. Lists of a type lockshim does not know are well-formed,
 * not rejected: they are skipped, and said once.
 */
static int add_esl(struct sig_db *db, const CHAR16 *source, const void *data, UINTN size,
		   const char **why)
{
	int rejected = sig_db_add_esl(db, data, size, why);
	char guid[ESL_GUID_TEXT_SIZE];
	const uint8_t *first;
	size_t unknown = esl_count_unknown(data, size, &first);

	if (unknown) {
		esl_guid_text(first, guid);
		log_info(
			"%ls: skipping %d signature list(s) of a type lockshim does not know (%s%s)",
			source, (int)unknown, guid, unknown > 1 ? ", ..." : "");
	}
	if (rejected < 0)
		log_error("%ls: out of memory", source);
	else if (rejected > 0)
		log_error("%ls: %d signature list(s) rejected: %s", source, rejected, *why);
	return rejected;
}

/*
 * Add the signature lists of variable @name, read with @status into @data
 * (@size bytes), to @db. Returns how reading it went, with add_esl's count
 * in *@rejected and reason in *@why when it was read.
 */
static enum list_read load_value(struct sig_db *db, const CHAR16 *name, EFI_STATUS status,
				 const void *data, UINTN size, int *rejected, const char **why)
{
	*rejected = 0;
	if (status == EFI_NOT_FOUND)
		return LIST_ABSENT;
	if (EFI_ERROR(status)) {
		log_error_status(status, "cannot read %ls", name);
		return LIST_UNREADABLE;
	}
	if (data)
		*rejected = add_esl(db, name, data, size, why);
	return LIST_READ;
}

/* Record how @db was loaded (verify_policy_list_loaded); say so when the policy became unusable. */
static void list_loaded(struct verify_policy *policy, const struct sig_db *db, enum list_read read,
			int rejected, const char *why)
{
	if (verify_policy_list_loaded(policy, db, read, rejected, why) < 0)
		log_error("%s is unusable: under Secure Boot only the MOK manager may start",
			  db->name);
}

/* Add @status, @data and @size, as read of variable @name, to @db; record how it went in @policy. */
static void load_list(struct verify_policy *policy, struct sig_db *db, const CHAR16 *name,
		      EFI_STATUS status, const void *data, UINTN size)
{
	const char *why = NULL;
	int rejected;
	enum list_read read = load_value(db, name, status, data, size, &rejected, &why);

	list_loaded(policy, db, read, rejected, why);
}

/* The firmware's list @id (db, dbx) into @db: the firmware enforces its attributes. */
static void load_firmware_list(struct verify_policy *policy, struct sig_db *db, enum variable_id id)
{
	const CHAR16 *name = EFI_VAR_NAME(id);
	_cleanup_pool_ void *data = NULL;
	UINTN size;
	EFI_STATUS status = efi_var_read(name, efi_var_guid(id), &data, &size, NULL);

	load_list(policy, db, name, status, data, size);
}

/* The MOK manager's list @which, as lockshim read it once (efi_mok.c). */
static void load_mok_list(struct verify_policy *policy, struct sig_db *db,
			  const struct efi_mok_state *mok, enum variable_id which)
{
	const struct efi_mok_value *value = &mok->var[which];

	load_list(policy, db, EFI_VAR_NAME(which), value->status, value->data, value->size);
}

EFI_STATUS efi_policy_load(struct verify_policy *policy, const struct efi_mok_state *mok)
{
	const unsigned char *p = vendor_cert;
	const char *why = NULL;
	int rejected;
	X509 *cert;
	int r;

	cert = d2i_X509(NULL, &p, vendor_cert_end - vendor_cert);
	r = cert ? sig_db_add_cert(&policy->vendor, cert, NULL) : -1;
	X509_free(cert);
	if (r < 0) {
		log_error("the embedded vendor certificate cannot be decoded");
		return EFI_LOAD_ERROR;
	}
	rejected = add_esl(&policy->vendor_dbx, L"vendor dbx", vendor_dbx,
			   vendor_dbx_end - vendor_dbx, &why);
	list_loaded(policy, &policy->vendor_dbx, LIST_READ, rejected, why);

	load_firmware_list(policy, &policy->db, VAR_DB);
	load_firmware_list(policy, &policy->dbx, VAR_DBX);
	load_mok_list(policy, &policy->mok, mok, VAR_MOK_LIST);
	load_mok_list(policy, &policy->mokx, mok, VAR_MOK_LIST_X);
	policy->mok_manager_sha256 = mok_manager_sha256;
	return EFI_SUCCESS;
}
