// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_handoff.h"

#include <efilib.h>

#include "efi_boot_record.h"
#include "efi_cleanup.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_mok.h"
#include "efi_policy.h"
#include "efi_vars.h"
#include "macro.h"

#define MOKVAR_NAME_SIZE 256 /* each entry: char name[256]; u64 size; u8 data[size] */

struct mokvar {
	const CHAR16 *name; /* in the MokVar table (ASCII there) and as a variable */
	BOOLEAN variable;   /* lockshim sets the variable here (FALSE: elsewhere) */
	const uint8_t *data;
	size_t size;
};

/* A copy of @data in runtime-services memory, where the kernel can still find it. */
static void *runtime_copy(const void *data, UINTN size, UINTN *pages)
{
	EFI_PHYSICAL_ADDRESS address;

	*pages = EFI_SIZE_TO_PAGES(size);
	/* whole pages: the kernel wants the table inside one memory descriptor */
	if (EFI_ERROR(
		    BS->AllocatePages(AllocateAnyPages, EfiRuntimeServicesData, *pages, &address)))
		return NULL;
	ZeroMem((void *)(UINTN)address, *pages * EFI_PAGE_SIZE);
	CopyMem((void *)(UINTN)address, (void *)data, size);
	return (void *)(UINTN)address;
}

static EFI_STATUS install_lockdown_table(const struct lockdown_state *state,
					 const struct verify_policy *policy)
{
	uint8_t *table;
	size_t size;
	UINTN pages;
	void *copy;
	EFI_STATUS status;

	if (lockdown_table_build(state, policy, &table, &size) < 0)
		return EFI_OUT_OF_RESOURCES;
#ifdef LOCKSHIM_TEST_CORRUPT_TABLE
	table[size - 1] ^= 0xff; /* test builds only: the kernel must fail closed */
#endif
	copy = runtime_copy(table, size, &pages);
	OPENSSL_free(table);
	if (!copy)
		return EFI_OUT_OF_RESOURCES;
	status = BS->InstallConfigurationTable(&lockshim_table_guid, copy);
	if (EFI_ERROR(status))
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(UINTN)copy, pages);
	return status;
}

static EFI_STATUS install_mokvar_table(const struct mokvar *vars, size_t n)
{
	UINTN size = MOKVAR_NAME_SIZE + 8, pages; /* the all-zero terminating entry */
	_cleanup_pool_ uint8_t *table = NULL;
	uint8_t *at;
	EFI_STATUS status;
	void *copy;

	for (size_t i = 0; i < n; i++)
		if (vars[i].size)
			size += MOKVAR_NAME_SIZE + 8 + vars[i].size;
	table = AllocateZeroPool(size);
	if (!table) {
		log_error("cannot build the MokVar table: out of memory");
		return EFI_OUT_OF_RESOURCES;
	}
	at = table;
	for (size_t i = 0; i < n; i++) {
		UINT64 entry_size = vars[i].size;

		if (!vars[i].size)
			continue;
		for (UINTN c = 0; vars[i].name[c] && c < MOKVAR_NAME_SIZE - 1; c++)
			at[c] = (uint8_t)vars[i].name[c]; /* the names are ASCII */
		CopyMem(at + MOKVAR_NAME_SIZE, &entry_size, 8);
		CopyMem(at + MOKVAR_NAME_SIZE + 8, (void *)vars[i].data, vars[i].size);
		at += MOKVAR_NAME_SIZE + 8 + vars[i].size;
	}
	copy = runtime_copy(table, size, &pages);
	if (!copy) {
		log_error("cannot install the MokVar table: out of memory");
		return EFI_OUT_OF_RESOURCES;
	}
	status = BS->InstallConfigurationTable(&mok_variable_table_guid, copy);
	if (EFI_ERROR(status)) {
		BS->FreePages((EFI_PHYSICAL_ADDRESS)(UINTN)copy, pages);
		return log_error_status(status, "cannot install the MokVar table");
	}
	return EFI_SUCCESS;
}

/*
 * The volatile, runtime-visible copies an OS reads (mokutil, older kernels).
 * One the OS squatted (efi_var_set_runtime_mirror says so) stays the OS's:
 * kernels then have the MokVar table, which nothing but lockshim writes.
 */
static void set_runtime_mirrors(const struct mokvar *vars, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		EFI_STATUS status;

		if (!vars[i].variable)
			continue;
		status = efi_var_set_runtime_mirror(vars[i].name, &shim_lock_guid, vars[i].data,
						    vars[i].size);
		if (EFI_ERROR(status))
			efi_record_mirror_failed(vars[i].name, status);
	}
}

/* A signature list being built (sig_db_to_esl appends to it). */
struct esl_buffer {
	uint8_t *data;
	size_t size;
};

/* As shim mirrors them: the built-in vendor keys first, then the owner's lists. */
static int mok_lists_as_shim(const struct verify_policy *policy, struct esl_buffer *list,
			     struct esl_buffer *list_x)
{
	const uint8_t *owner = esl_owner_shim;

	if (sig_db_to_esl(&policy->vendor, owner, false, &list->data, &list->size) < 0 ||
	    sig_db_to_esl(&policy->mok, owner, false, &list->data, &list->size) < 0 ||
	    sig_db_to_esl(&policy->vendor_dbx, owner, false, &list_x->data, &list_x->size) < 0)
		return -1;
	return sig_db_to_esl(&policy->mokx, owner, false, &list_x->data, &list_x->size);
}

EFI_STATUS efi_handoff_install(const struct lockdown_state *state,
			       const struct verify_policy *policy, const struct sbat *sbat_level,
			       BOOLEAN mok_db_ignored)
{
	struct esl_buffer mok_list = {}, mok_list_x = {};
	uint8_t one = 1;
	EFI_STATUS status;

	status = install_lockdown_table(state, policy);
	if (EFI_ERROR(status))
		return log_error_status(status, "cannot install the lockdown table");

	if (mok_lists_as_shim(policy, &mok_list, &mok_list_x) < 0) {
		log_error("cannot mirror the MOK lists: out of memory");
		status = EFI_OUT_OF_RESOURCES;
	} else {
		/* what each mirror of the table (variables.c) holds */
		const struct {
			const uint8_t *data;
			size_t size;
		} mirrored[MOK_OWNER_VARIABLES] = {
			[VAR_MOK_LIST] = { mok_list.data, mok_list.size },
			[VAR_MOK_LIST_X] = { mok_list_x.data, mok_list_x.size },
			[VAR_MOK_SB_STATE] = { &one, state->mok_sb_state == 1 },
			[VAR_MOK_DB_STATE] = { &one, mok_db_ignored },
			[VAR_MOK_LIST_TRUSTED] = { &one, state->mok_trusted },
		};
		struct variable_store_space space[STORE_SETS];
		char space_text[VARIABLE_INFO_TEXT_MAX];
		struct mokvar vars[MOK_OWNER_VARIABLES + 2];
		size_t n = 0;

		for (size_t i = 0; i < MOK_OWNER_VARIABLES; i++)
			if (variables[i].mirror)
				vars[n++] = (struct mokvar){
					(const CHAR16 *)variables[i].mirror->name16, TRUE,
					mirrored[i].data, mirrored[i].size
				};
		/* as shim 15.7+ has it; its variable is set earlier (efi_sbat.c) */
		vars[n++] = (struct mokvar){ EFI_VAR_NAME(VAR_SBAT_LEVEL_RT), FALSE,
					     (const uint8_t *)sbat_level->text, sbat_level->size };
		/* the store's room, as shim 16.1 has it: for `lockshim check` before an update */
		efi_var_store_space(space);
		vars[n] = (struct mokvar){ (const CHAR16 *)VARIABLE_INFO_NAME16, FALSE,
					   (const uint8_t *)space_text,
					   variable_info_format(space, space_text) };
		if (vars[n].size)
			vars[n].size++; /* its NUL, as shim's */
		n++;
		status = install_mokvar_table(vars, n);
		set_runtime_mirrors(vars, n);
	}
	OPENSSL_free(mok_list.data);
	OPENSSL_free(mok_list_x.data);
	return status;
}
