// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "tcg_log.h"

#include <string.h>

#include <openssl/evp.h>

#include "safe_math.h"

#define TPM_ALG_SHA256    0x000b
#define MAX_ALGORITHMS    16
#define SPEC_ID_SIGNATURE "Spec ID Event03"
/* TCG_PCR_EVENT: PCRIndex, EventType, SHA-1 digest, EventSize */
#define PCR_EVENT_HEADER_SIZE (4 + 4 + 20 + 4)
/* TCG_EfiSpecIDEventStruct up to the algorithm table */
#define SPEC_ID_FIXED_SIZE (16 + 4 + 4 + 4)

void pcr_bank_reset(struct pcr_bank *bank)
{
	memset(bank, 0, sizeof(*bank));
}

int pcr_bank_extend(struct pcr_bank *bank, uint32_t pcr, const uint8_t digest[32])
{
	uint8_t both[64];
	unsigned int len;

	if (pcr >= PCR_COUNT)
		return -1;
	memcpy(both, bank->pcr[pcr], 32);
	memcpy(both + 32, digest, 32);
	if (EVP_Digest(both, sizeof(both), bank->pcr[pcr], &len, EVP_sha256(), NULL) != 1)
		return -1;
	return 0;
}

int pcr_bank_extend_event(const struct measure_event *event, void *ctx)
{
	uint8_t digest[32];

	if (measure_event_sha256(event, digest) < 0)
		return -1;
	return pcr_bank_extend(ctx, event->pcr, digest);
}

struct algorithm {
	uint16_t id;
	uint16_t size;
};

/* The Spec ID event's algorithm table; *@offset is moved past the header event. */
static int read_spec_id(const uint8_t *data, size_t size, struct algorithm *algs, uint32_t *n_algs,
			size_t *offset, const char **reason)
{
	const uint8_t *spec;
	uint32_t event_size;

	if (size < PCR_EVENT_HEADER_SIZE) {
		*reason = "log shorter than its header event";
		return -1;
	}
	event_size = read_le32(data + 28);
	if (read_le32(data + 4) != EV_NO_ACTION || event_size > size - PCR_EVENT_HEADER_SIZE ||
	    event_size < SPEC_ID_FIXED_SIZE) {
		*reason = "the first event is not a Spec ID event";
		return -1;
	}
	spec = data + PCR_EVENT_HEADER_SIZE;
	if (memcmp(spec, SPEC_ID_SIGNATURE, sizeof(SPEC_ID_SIGNATURE)) != 0) {
		*reason = "not a crypto-agile log (no \"Spec ID Event03\")";
		return -1;
	}
	*n_algs = read_le32(spec + 24);
	if (*n_algs == 0 || *n_algs > MAX_ALGORITHMS ||
	    *n_algs * 4 > event_size - SPEC_ID_FIXED_SIZE) {
		*reason = "Spec ID event: unusable algorithm count";
		return -1;
	}
	for (uint32_t i = 0; i < *n_algs; i++) {
		algs[i].id = read_le16(spec + SPEC_ID_FIXED_SIZE + 4 * i);
		algs[i].size = read_le16(spec + SPEC_ID_FIXED_SIZE + 4 * i + 2);
		if (algs[i].size == 0 || algs[i].size > 64) {
			*reason = "Spec ID event: unusable digest size";
			return -1;
		}
		if (algs[i].id == TPM_ALG_SHA256 && algs[i].size != 32) {
			*reason = "Spec ID event: SHA-256 digest size is not 32";
			return -1;
		}
	}
	*offset = PCR_EVENT_HEADER_SIZE + event_size;
	return 0;
}

/* One TCG_PCR_EVENT2 at @data + *@offset into @event; *@offset moved past it. */
static int read_event(const uint8_t *data, size_t size, size_t *offset,
		      const struct algorithm *algs, uint32_t n_algs, struct tcg_log_event *event,
		      const char **reason)
{
	size_t at = *offset;
	uint32_t count, event_size;

	if (size - at < 12) {
		*reason = "event header runs past the end of the log";
		return -1;
	}
	event->pcr = read_le32(data + at);
	event->type = read_le32(data + at + 4);
	count = read_le32(data + at + 8);
	at += 12;
	event->sha256 = NULL;
	if (count > n_algs) {
		*reason = "event has more digests than the log has algorithms";
		return -1;
	}
	for (uint32_t i = 0; i < count; i++) {
		uint32_t k;
		uint16_t id;

		if (size - at < 2) {
			*reason = "digest runs past the end of the log";
			return -1;
		}
		id = read_le16(data + at);
		for (k = 0; k < n_algs && algs[k].id != id; k++)
			;
		if (k == n_algs) {
			*reason = "event digest of an algorithm the header does not list";
			return -1;
		}
		if (size - at - 2 < algs[k].size) {
			*reason = "digest runs past the end of the log";
			return -1;
		}
		if (id == TPM_ALG_SHA256)
			event->sha256 = data + at + 2;
		at += 2 + algs[k].size;
	}
	if (size - at < 4) {
		*reason = "event size runs past the end of the log";
		return -1;
	}
	event_size = read_le32(data + at);
	at += 4;
	if (event_size > size - at) {
		*reason = "event data runs past the end of the log";
		return -1;
	}
	event->data = data + at;
	event->size = event_size;
	*offset = at + event_size;
	return 0;
}

int tcg_log_walk(const uint8_t *data, size_t size, tcg_log_visit_fn visit, void *ctx,
		 const char **reason)
{
	struct algorithm algs[MAX_ALGORITHMS];
	struct tcg_log_event event;
	uint32_t n_algs;
	size_t offset;
	int r;

	if (read_spec_id(data, size, algs, &n_algs, &offset, reason) < 0)
		return -1;
	while (offset < size) {
		/* firmware logs are often followed by zeros up to the area's end */
		if (size - offset >= 8 && read_le32(data + offset + 4) == 0 &&
		    read_le32(data + offset) == 0)
			break;
		if (read_event(data, size, &offset, algs, n_algs, &event, reason) < 0)
			return -1;
		r = visit(&event, ctx);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Where the firmware's part ends: at the first stage's application event,
 * the last one in PCR 4 before the first stage's own first event, MokList
 * in PCR 14 (shim and lockshim measure it before anything runs). The
 * firmware logs each image it tries, and those it refuses too (OVMF's
 * shell, tried before the removable path), so the first application is not
 * always the first stage's. A log without PCR 14 (a first stage that does
 * not measure it) ends at its first application.
 */
struct first_stage {
	size_t index;       /* of the event being visited */
	size_t first, last; /* the first application's index, and the last's so far */
	bool found;         /* an application seen */
};

#define FIRST_STAGE_FOUND 1

static bool is_application(const struct tcg_log_event *event)
{
	return event->pcr == PCR_BOOT_APPLICATIONS &&
	       event->type == EV_EFI_BOOT_SERVICES_APPLICATION;
}

static int first_stage_event(const struct tcg_log_event *event, void *ctx)
{
	struct first_stage *fs = ctx;
	size_t index = fs->index++;

	if (event->pcr == PCR_MOK && fs->found)
		return FIRST_STAGE_FOUND;
	if (is_application(event)) {
		if (!fs->found)
			fs->first = index;
		fs->last = index;
		fs->found = true;
	}
	return 0;
}

struct replay {
	struct pcr_bank *bank;
	const char *reason;
	uint8_t *application; /* the first stage's SHA-256 digest; NULL: not wanted */
	size_t index, until;  /* of the event being visited; of the first stage's */
};

#define REPLAY_DONE   1
#define REPLAY_FAILED 2

static int replay_event(const struct tcg_log_event *event, void *ctx)
{
	struct replay *replay = ctx;
	size_t index = replay->index++;

	if (event->type == EV_NO_ACTION)
		return 0; /* logged, never extended */
	if (!event->sha256) {
		replay->reason = "an event has no SHA-256 digest";
		return REPLAY_FAILED;
	}
	if (pcr_bank_extend(replay->bank, event->pcr, event->sha256) < 0) {
		replay->reason = "an event names a PCR out of range";
		return REPLAY_FAILED;
	}
	if (index == replay->until) {
		if (replay->application)
			memcpy(replay->application, event->sha256, 32);
		return REPLAY_DONE;
	}
	return 0;
}

int tcg_log_replay_firmware(const uint8_t *data, size_t size, struct pcr_bank *bank,
			    const char **reason)
{
	return tcg_log_replay_until_application(data, size, bank, NULL, reason);
}

int tcg_log_replay_until_application(const uint8_t *data, size_t size, struct pcr_bank *bank,
				     uint8_t application[32], const char **reason)
{
	struct first_stage fs = {};
	struct replay replay = { bank, NULL, application, 0, 0 };
	int r = tcg_log_walk(data, size, first_stage_event, &fs, reason);

	if (r < 0)
		return -1;
	if (!fs.found) {
		*reason = "the log has no boot application in PCR 4 (was lockshim started?)";
		return -1;
	}
	replay.until = r == FIRST_STAGE_FOUND ? fs.last : fs.first;
	r = tcg_log_walk(data, size, replay_event, &replay, reason);

	if (r == REPLAY_DONE)
		return 0;
	if (r == REPLAY_FAILED)
		*reason = replay.reason;
	else if (r == 0)
		*reason = "the log has no boot application in PCR 4 (was lockshim started?)";
	return -1;
}
