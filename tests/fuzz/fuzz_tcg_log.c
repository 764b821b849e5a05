// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: the firmware's TPM event log as `lockshim pcr --predict
 * --event-log` reads it (tcg_log_walk, tcg_log_replay_firmware).
 *
 * The visitor reads every byte of each event's data and SHA-256 digest, so
 * ASan reports one handed out past the input; each event must lie inside
 * the input. The replay must fail with a reason or succeed, never both.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "tcg_log.h"

struct walk {
	const uint8_t *data;
	size_t size;
	unsigned sink;
};

static int visit(const struct tcg_log_event *event, void *ctx)
{
	struct walk *w = ctx;

	FUZZ_ASSERT(event->data >= w->data && event->size <= w->size &&
		    (size_t)(event->data - w->data) <= w->size - event->size);
	for (size_t i = 0; i < event->size; i++)
		w->sink += event->data[i];
	if (event->sha256)
		for (size_t i = 0; i < 32; i++)
			w->sink += event->sha256[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct walk w = { data, size, 0 };
	struct pcr_bank bank;
	const char *reason = NULL;
	int r;

	r = tcg_log_walk(data, size, visit, &w, &reason);
	FUZZ_ASSERT(r == 0 || (r == -1 && reason));
	reason = NULL;
	pcr_bank_reset(&bank);
	r = tcg_log_replay_firmware(data, size, &bank, &reason);
	FUZZ_ASSERT((r == 0 && !reason) || (r == -1 && reason));
	return w.sink == 0xdeadbeef; /* keep the reads */
}
