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

/* @which's bytes into *@data and *@size when the manager wrote it and the table measures it. */
static void mok_bytes(const struct efi_mok_state *mok, enum variable_id which, const uint8_t **data,
		      size_t *size)
{
	if (!variables[which].pcr || EFI_ERROR(mok->var[which].status))
		return;
	*data = mok->var[which].data;
	*size = mok->var[which].size;
}

void efi_measure_mok_state(struct efi_measure *measure, const struct sbat *sbat_level,
			   const struct efi_mok_state *mok)
{
	struct mok_state_data state = {
		.vendor_cert = vendor_cert,
		.vendor_cert_size = (size_t)(vendor_cert_end - vendor_cert),
		.vendor_dbx = vendor_dbx,
		.vendor_dbx_size = (size_t)(vendor_dbx_end - vendor_dbx),
		.sbat_level = (const uint8_t *)sbat_level->text,
		.sbat_level_size = sbat_level->text ? sbat_level->size : 0,
		.mok_list_trusted = variables[VAR_MOK_LIST_TRUSTED].pcr &&
				    !EFI_ERROR(mok->var[VAR_MOK_LIST_TRUSTED].status),
	};

	if (!measure->tpm.tcg2)
		return;
	mok_bytes(mok, VAR_MOK_LIST, &state.mok_list, &state.mok_list_size);
	mok_bytes(mok, VAR_MOK_LIST_X, &state.mok_list_x, &state.mok_list_x_size);
	mok_bytes(mok, VAR_MOK_SB_STATE, &state.mok_sb_state, &state.mok_sb_state_size);
	if (measure_mok_state(&measure->measurer, &state) < 0)
		log_warning("TPM: the MOK state was not measured whole");
}
