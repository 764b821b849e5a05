/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The TPM through the firmware's EFI_TCG2_PROTOCOL (TCG EFI Protocol
 * Specification): measure.c's events are hashed, extended and logged by
 * HashLogExtendEvent, as rhboot/shim 16.1's tpm.c calls it. Without the
 * protocol, or with it but no TPM present, nothing is measured and nothing
 * is said: most machines have no TPM.
 */
#ifndef LOCKSHIM_EFI_TPM_H
#define LOCKSHIM_EFI_TPM_H

#include <efi.h>

#include "measure.h"

struct tcg2_protocol;

struct efi_tpm {
	struct tcg2_protocol *tcg2; /* NULL: no TPM, nothing is measured */
};

/* Find the TCG2 protocol and a TPM behind it; @tpm stays empty without either. */
void efi_tpm_open(struct efi_tpm *tpm);

/*
 * A measure_extend_fn (measure.h), @ctx the struct efi_tpm: hash, extend
 * and log one event; a PE image with the PE/COFF flag, so that the firmware
 * computes its Authenticode digest (retried as a plain hash if the
 * firmware refuses, as shim does). A full log is not an error (the PCR was
 * extended). Returns 0, or -1 with the error on the console.
 */
int efi_tpm_extend(const struct measure_event *event, void *ctx);

#endif
