// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_measure.h"

#include <efilib.h>

#include "efi_cleanup.h"
#include "efi_log.h"
#include "efi_mok.h"
#include "efi_policy.h"

void efi_measure_open(struct efi_measure *measure)
{
	efi_tpm_open(&measure->tpm);
	measurer_init(&measure->measurer, efi_tpm_extend, &measure->tpm);
	if (measure->tpm.tcg2)
		log_info("TPM: measuring into PCR 4, 7 and 14");
}

void efi_measure_close(struct efi_measure *measure)
{
	measurer_free(&measure->measurer);
}

void efi_measure_mok_state(struct efi_measure *measure, const struct sbat *sbat_level)
{
	_cleanup_pool_ void *mok_list = NULL, *mok_list_x = NULL, *mok_sb_state = NULL,
			    *trusted = NULL;
	struct mok_state_data state = {
		.vendor_cert = vendor_cert,
		.vendor_cert_size = (size_t)(vendor_cert_end - vendor_cert),
		.vendor_dbx = vendor_dbx,
		.vendor_dbx_size = (size_t)(vendor_dbx_end - vendor_dbx),
		.sbat_level = (const uint8_t *)sbat_level->text,
		.sbat_level_size = sbat_level->text ? sbat_level->size : 0,
	};
	UINTN size;

	if (!measure->tpm.tcg2)
		return;
	if (!EFI_ERROR(efi_mok_variable_read(L"MokList", &mok_list, &size))) {
		state.mok_list = mok_list;
		state.mok_list_size = size;
	}
	if (!EFI_ERROR(efi_mok_variable_read(L"MokListX", &mok_list_x, &size))) {
		state.mok_list_x = mok_list_x;
		state.mok_list_x_size = size;
	}
	if (!EFI_ERROR(efi_mok_variable_read(L"MokSBState", &mok_sb_state, &size))) {
		state.mok_sb_state = mok_sb_state;
		state.mok_sb_state_size = size;
	}
	state.mok_list_trusted =
		!EFI_ERROR(efi_mok_variable_read(L"MokListTrusted", &trusted, &size));
	if (measure_mok_state(&measure->measurer, &state) < 0)
		log_warning("TPM: the MOK state was not measured whole");
}
