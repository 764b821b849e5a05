/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The firmware's TPM 2.0 event log (TCG PC Client Platform Firmware
 * Profile, crypto-agile format: a TCG_PCR_EVENT holding the Spec ID event,
 * then TCG_PCR_EVENT2 records), as Linux exposes it in
 * /sys/kernel/security/tpm0/binary_bios_measurements, and a bank of
 * simulated SHA-256 PCRs to replay it into.
 *
 * `lockshim pcr --predict` starts from the firmware's part of a log (what
 * it measured up to lockshim itself), then extends lockshim's own events
 * (measure.c) on top.
 */
#ifndef LOCKSHIM_TCG_LOG_H
#define LOCKSHIM_TCG_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure.h"

#define PCR_COUNT    24
#define EV_NO_ACTION 0x00000003

struct pcr_bank {
	uint8_t pcr[PCR_COUNT][32]; /* SHA-256; all zero at reset (PCRs 0-15 as used here) */
};

void pcr_bank_reset(struct pcr_bank *bank);

/* PCR[@pcr] = SHA-256(PCR[@pcr] || @digest). Returns 0, or -1 for a PCR out of range. */
int pcr_bank_extend(struct pcr_bank *bank, uint32_t pcr, const uint8_t digest[32]);

/* A measure_extend_fn (measure.h) into the bank at @ctx. */
int pcr_bank_extend_event(const struct measure_event *event, void *ctx);

struct tcg_log_event {
	uint32_t pcr;
	uint32_t type;
	const uint8_t *sha256; /* this event's SHA-256 digest; NULL when the log has none */
	const uint8_t *data;   /* the event data */
	size_t size;
};

/* Called for each event after the Spec ID header; a non-zero return stops the walk and is returned. */
typedef int (*tcg_log_visit_fn)(const struct tcg_log_event *event, void *ctx);

/*
 * Walk the crypto-agile log of @size bytes at @data. Returns 0 when every
 * event was visited, the visitor's non-zero return, or -1 with *@reason for
 * a log that is not one (wrong header, a digest size the header does not
 * give, a record running past the end).
 */
int tcg_log_walk(const uint8_t *data, size_t size, tcg_log_visit_fn visit, void *ctx,
		 const char **reason);

/*
 * Replay into @bank what the firmware measured before lockshim ran: every
 * event up to and including its measurement of the first stage (lockshim),
 * the last EV_EFI_BOOT_SERVICES_APPLICATION in PCR 4 before the first
 * stage's first event in PCR 14 (MokList), or the first application when
 * no event is in PCR 14. Images the firmware tried before (a boot option
 * that failed, its shell refused under Secure Boot) are the firmware's
 * part. Returns 0, or -1 with *@reason (not a log, no such event, an
 * event without a SHA-256 digest).
 */
int tcg_log_replay_firmware(const uint8_t *data, size_t size, struct pcr_bank *bank,
			    const char **reason);

/*
 * tcg_log_replay_firmware, and the SHA-256 digest of that first stage's
 * application event into @application (NULL: not wanted): the Authenticode hash
 * of the first stage this boot started, which a prediction for another
 * first stage must not build on (lockshim check).
 */
int tcg_log_replay_until_application(const uint8_t *data, size_t size, struct pcr_bank *bank,
				     uint8_t application[32], const char **reason);

#endif
