/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Measured boot: the TPM events lockshim logs, built as rhboot/shim 16.1
 * builds them, so that disk keys sealed to PCR 4, 7 and 14 under shim and
 * event-log attestation keep working (docs/measured-boot.md):
 *
 *  - PCR 4, EV_EFI_BOOT_SERVICES_APPLICATION: every image lockshim lets
 *    run, digest its Authenticode hash (the firmware computes it: PE/COFF
 *    flag), event an EFI_IMAGE_LOAD_EVENT (pe.c tpm_log_pe);
 *  - PCR 7, EV_EFI_VARIABLE_AUTHORITY: the allow-list entry that let an
 *    image run, as a UEFI_VARIABLE_DATA ("db", or "MokListRT" for the
 *    vendor certificate and MOK entries, as shim 15.7+), MokSBState and
 *    SbatLevel; each distinct record once per boot (tpm.c tpm_measure_variable);
 *  - PCR 14, EV_IPL: MokList, MokListX, MokSBState and MokListTrusted as
 *    shim mirrors them (mok.c mirror_one_mok_variable), the event data the
 *    variable's name with its NUL.
 *
 * The core only builds events and hands them to an extend function: the
 * loader's sends them to EFI_TCG2_PROTOCOL (efi_tpm.c), the CLI's replays
 * them into simulated PCRs (pcr_bank.c) to predict the values a boot will
 * produce from the very same events.
 */
#ifndef LOCKSHIM_MEASURE_H
#define LOCKSHIM_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify.h"

#define PCR_BOOT_APPLICATIONS  4
#define PCR_SECURE_BOOT_POLICY 7
#define PCR_MOK                14

/* TCG PC Client Platform Firmware Profile event types */
#define EV_IPL                           0x0000000d
#define EV_EFI_BOOT_SERVICES_APPLICATION 0x80000003
#define EV_EFI_VARIABLE_AUTHORITY        0x800000e0

struct measure_event {
	uint32_t pcr;
	uint32_t type;
	const uint8_t *event; /* what the log records */
	size_t event_size;
	const uint8_t *data; /* what is hashed into the PCR */
	size_t data_size;
	/* @data is a PE image: its Authenticode digest is extended, not a hash of the file */
	bool pe_image;
};

/* Extend one event (the TPM, or a simulation); 0 when it was extended, else -1. */
typedef int (*measure_extend_fn)(const struct measure_event *event, void *ctx);

struct measurer {
	measure_extend_fn extend;
	void *ctx;
	/* SHA-256 of each PCR 7 record extended: none twice in one boot */
	uint8_t (*recorded)[32];
	size_t n_recorded, capacity;
};

void measurer_init(struct measurer *m, measure_extend_fn extend, void *ctx);
void measurer_free(struct measurer *m);

/*
 * The MOK state as lockshim reads it before anything runs: each pointer
 * may be NULL with size 0 (absent).
 */
struct mok_state_data {
	const uint8_t *vendor_cert; /* the built-in vendor certificate, DER */
	size_t vendor_cert_size;
	const uint8_t *vendor_dbx; /* the built-in vendor dbx, signature lists */
	size_t vendor_dbx_size;
	const uint8_t *mok_list; /* the MokList variable, as stored */
	size_t mok_list_size;
	const uint8_t *mok_list_x; /* MokListX, likewise */
	size_t mok_list_x_size;
	const uint8_t *mok_sb_state; /* MokSBState, likewise */
	size_t mok_sb_state_size;
	const uint8_t *sbat_level; /* the SbatLevel variable in force */
	size_t sbat_level_size;
	bool mok_list_trusted; /* the MokListTrusted variable exists */
};

/*
 * The MOK state's events, in shim's order: MokList and MokListX (PCR 14),
 * MokSBState (PCR 7, then 14), SbatLevel (PCR 7), MokListTrusted (PCR 14,
 * logged as the byte 1 when the variable is absent, nothing when present:
 * shim's MOK_VARIABLE_INVERSE). Returns 0, or -1 when an event could not be
 * built or extended (the rest are still tried).
 */
int measure_mok_state(struct measurer *m, const struct mok_state_data *state);

/*
 * The MokListRT payload shim measures for MokList: the vendor certificate
 * as one X509 signature list (owner SHIM_LOCK, no header), then the MokList
 * variable; when both are empty, one SHA-256 list holding 32 zero bytes.
 * @mok_list_x: MokListX's instead (the vendor dbx lists, then the
 * variable). An OPENSSL_malloc'd buffer in *@out; returns 0 or -1.
 */
int measure_mok_list_payload(const struct mok_state_data *state, bool mok_list_x, uint8_t **out,
			     size_t *out_size);

/*
 * The image of @size bytes at @image, about to run, into PCR 4. @location
 * is the buffer's address for the log (0 on the host). With @path (a device
 * path of @path_size bytes), as shim logs an image it starts: the image's
 * ImageBase and path; without, as shim's SHIM_LOCK Verify: neither.
 */
int measure_image(struct measurer *m, const uint8_t *image, size_t size, uint64_t location,
		  const uint8_t *path, size_t path_size);

/*
 * The allow-list entry of @verdict (verdict->authority, from @policy) into
 * PCR 7, once per boot; nothing when the verdict names no entry. Returns 0
 * or -1.
 */
int measure_authority(struct measurer *m, const struct verify_policy *policy,
		      const struct verdict *verdict);

/*
 * The digest @event extends in the SHA-256 bank: the Authenticode hash of a
 * PE image (a plain hash when it does not parse, as shim retries without
 * the PE/COFF flag), else the hash of its data. Returns 0 or -1.
 */
int measure_event_sha256(const struct measure_event *event, uint8_t digest[32]);

#endif
