// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_sbat.h"

#include <efilib.h>

#include "efi_boot_record.h"
#include "efi_guid.h"
#include "efi_log.h"
#include "efi_policy.h"
#include "efi_vars.h"
#include "sbat_data.h"
#include "sbat_level.h"

static void store_level(const struct sbat_level_update *update)
{
	EFI_STATUS status;

	if (update->delete_first) {
		status = efi_var_delete(EFI_VAR_NAME(VAR_SBAT_LEVEL), &shim_lock_guid);
		if (EFI_ERROR(status))
			log_error_status(status, "cannot delete SbatLevel");
	}
	status = RT->SetVariable((CHAR16 *)EFI_VAR_NAME(VAR_SBAT_LEVEL), &shim_lock_guid,
				 SBAT_LEVEL_ATTRIBUTES, update->level.size,
				 (void *)update->level.text);
	if (EFI_ERROR(status))
		/* still enforced for this boot; stored at the next one */
		log_error_status(status, "cannot store SbatLevel");
	else
		log_info("SbatLevel %lu stored", update->level.datestamp);
}

EFI_STATUS efi_sbat_level_apply(BOOLEAN enforcing, struct efi_sbat_level *out)
{
	struct sbat_levels embedded;
	struct sbat_level_stored stored = { 0 };
	struct sbat_level_update update;
	UINT8 policy = SBAT_POLICY_NONE;
	void *data = NULL;
	UINTN size = 0;
	UINT32 attributes = 0;
	struct reason_buf why_buf;
	const char *why;
	EFI_STATUS status;

	out->stored = NULL;
	if (sbat_levels_parse(lockshim_sbat_level, lockshim_sbat_level_end - lockshim_sbat_level,
			      &embedded, &why, &why_buf) < 0) {
		log_error("%s", why);
		return EFI_LOAD_ERROR;
	}

	status = efi_var_read_u8(EFI_VAR_NAME(VAR_SBAT_POLICY), &shim_lock_guid, &policy, NULL);
	if (status != EFI_NOT_FOUND) {
		if (EFI_ERROR(status)) {
			log_warning_status(status, "ignoring an unreadable SbatPolicy");
			policy = SBAT_POLICY_NONE;
		}
		efi_var_delete(EFI_VAR_NAME(VAR_SBAT_POLICY), &shim_lock_guid);
	}

	status = efi_var_read(EFI_VAR_NAME(VAR_SBAT_LEVEL), &shim_lock_guid, &data, &size,
			      &attributes);
	if (!EFI_ERROR(status)) {
		stored = (struct sbat_level_stored){ TRUE, data, size, attributes };
	} else if (status != EFI_NOT_FOUND) {
		/* unreadable is treated as absent: the embedded level replaces it */
		log_error_status(status, "cannot read SbatLevel");
	}

	sbat_level_update(&embedded, &stored, policy, enforcing, &update);
	if (update.note[0])
		log_info("%s", update.note);
	if (update.write)
		store_level(&update);
	efi_record(BOOT_RECORD_STATE, "sbat-level=%llu",
		   (unsigned long long)update.level.datestamp);

	status = efi_var_set_runtime_mirror(EFI_VAR_NAME(VAR_SBAT_LEVEL_RT), &shim_lock_guid,
					    update.level.text, update.level.size);
	if (EFI_ERROR(status))
		efi_record_mirror_failed(EFI_VAR_NAME(VAR_SBAT_LEVEL_RT), status);

	out->level = update.level;
	out->stored = data;
	return EFI_SUCCESS;
}

void efi_sbat_level_free(struct efi_sbat_level *level)
{
	if (level->stored)
		FreePool(level->stored);
	level->stored = NULL;
}

EFI_STATUS efi_sbat_check_self(const struct sbat *level)
{
	struct sbat self;
	struct reason_buf why_buf;
	const char *why;

	if (sbat_parse(lockshim_sbat, lockshim_sbat_end - lockshim_sbat, SBAT_SECTION, &self, &why,
		       &why_buf) < 0) {
		log_error("own .sbat section is malformed: %s", why);
		return EFI_SECURITY_VIOLATION;
	}
	if (sbat_check(&self, level, &why, &why_buf) < 0) {
		log_error("this lockshim is revoked: %s; refusing to boot anything", why);
		return EFI_SECURITY_VIOLATION;
	}
	return EFI_SUCCESS;
}
