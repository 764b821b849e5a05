/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What lockshim measures into the TPM besides the images (efi_verify.c
 * measures those): the MOK state, as shim 16.1 does before it starts
 * anything (measure.h has the events).
 */
#ifndef LOCKSHIM_EFI_MEASURE_H
#define LOCKSHIM_EFI_MEASURE_H

#include <efi.h>

#include "efi_mok.h"

#include "efi_tpm.h"
#include "measure.h"
#include "sbat.h"

struct efi_measure {
	struct efi_tpm tpm;
	struct measurer measurer; /* hands its events to @tpm */
};

/* Find the TPM (none: nothing is measured, quietly) and start the boot's record. */
void efi_measure_open(struct efi_measure *measure);
void efi_measure_close(struct efi_measure *measure);

/*
 * MokList, MokListX (with the built-in vendor certificate and dbx),
 * MokSBState and MokListTrusted as the MOK manager wrote them (@mok, the
 * one reading), and
 * @sbat_level (the SbatLevel in force), into PCR 7 and 14. Before the MOK
 * manager or any other image runs. Failures are said and not fatal.
 */
void efi_measure_mok_state(struct efi_measure *measure, const struct sbat *sbat_level,
			   const struct efi_mok_state *mok);

#endif
