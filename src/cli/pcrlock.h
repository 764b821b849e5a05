/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The PCRs `lockshim check` predicts for a chain (boot_chain.h, struct
 * chain_pcrs), as text, as JSON, and as systemd-pcrlock(5) component files:
 * JSON objects {"records": [{"pcr": N, "digests": [{"hashAlg": "sha256",
 * "digest": HEX}]}, ...]}, one record per event in the order extended, so
 * that `systemd-pcrlock make-policy` can build a policy that survives a
 * change (pcrlock has no generator for lockshim's or shim's PCR 14).
 */
#ifndef LOCKSHIM_PCRLOCK_H
#define LOCKSHIM_PCRLOCK_H

#include "boot_chain.h"

/* "  PCR 4 HEX" lines for 4, 7, 14, or one saying why there are none; nothing when not asked. */
void chain_pcrs_print_text(const struct chain_pcrs *pcrs);

/* , "pcrs": {"4": HEX, "7": HEX, "14": HEX} or null, with "pcrs_note" when null. */
void chain_pcrs_print_json(const struct chain_pcrs *pcrs);

/*
 * Write @pcrs's events into @dir as three component files, each event of
 * one kind in the order lockshim extends them: 630-lockshim-mok-state
 * (PCR 14, and PCR 7's MokSBState and SbatLevel, before anything runs),
 * 640-lockshim-authority (PCR 7), 650-lockshim-images (PCR 4), each
 * NAME.pcrlock; @dir is created when it is not there. Returns 0, or -1
 * having said why.
 */
int pcrlock_write(const char *dir, const struct chain_pcrs *pcrs);

#endif
