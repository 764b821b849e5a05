// SPDX-License-Identifier: BSD-2-Clause-Patent
/* measure.c and tcg_log.c: the events lockshim extends, as shim 16.1 builds them. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "measure.h"
#include "signature_list.h"
#include "tcg_log.h"
#include "unit.h"

struct recorded {
	int n;
	struct measure_event last;
	uint8_t last_event[512];
};

static int record(const struct measure_event *event, void *ctx)
{
	struct recorded *r = ctx;

	r->n++;
	r->last = *event;
	if (event->event_size <= sizeof(r->last_event))
		memcpy(r->last_event, event->event, event->event_size);
	return 0;
}

static const uint8_t sha256_list_guid[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
					      0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };

static void test_empty_mok_list_is_a_dummy(void)
{
	struct mok_state_data state = {};
	uint8_t *out;
	size_t size;

	CHECK_EQ(measure_mok_list_payload(&state, false, &out, &size), 0, "empty MokList payload");
	CHECK_EQ(size, (size_t)(ESL_HEADER_SIZE + 16 + 32), "dummy: one SHA-256 list of one entry");
	CHECK_MEMEQ(out, sha256_list_guid, 16, "dummy: a SHA-256 list");
	CHECK_MEMEQ(out + ESL_HEADER_SIZE, esl_owner_shim, 16, "dummy: owned by SHIM_LOCK");
	OPENSSL_free(out);
}

static void test_mok_list_appends_the_variable(void)
{
	uint8_t der[3] = { 1, 2, 3 }, var[5] = { 9, 8, 7, 6, 5 }, *out;
	struct mok_state_data state = { .vendor_cert = der, .vendor_cert_size = 3,
					.mok_list = var, .mok_list_size = 5 };
	size_t size;

	CHECK_EQ(measure_mok_list_payload(&state, false, &out, &size), 0, "MokList payload");
	CHECK_EQ(size, (size_t)(ESL_HEADER_SIZE + 16 + 3 + 5), "vendor list, then the variable");
	CHECK_MEMEQ(out + ESL_HEADER_SIZE + 16, der, 3, "the vendor certificate's DER");
	CHECK_MEMEQ(out + size - 5, var, 5, "the MokList variable as stored");
	OPENSSL_free(out);
}

static void test_mok_state_events(void)
{
	struct recorded r = {};
	struct measurer m;
	uint8_t sb = 1;
	struct mok_state_data state = { .mok_sb_state = &sb, .mok_sb_state_size = 1,
					.sbat_level = (const uint8_t *)"sbat,1,1\n",
					.sbat_level_size = 9 };
	uint8_t digest[32], want[32];
	unsigned int len;

	measurer_init(&m, record, &r);
	CHECK_EQ(measure_mok_state(&m, &state), 0, "MOK state measured");
	/* MokList, MokListX, MokSBState x2, SbatLevel, MokListTrusted */
	CHECK_EQ(r.n, 6, "six events");
	CHECK_EQ(r.last.pcr, 14u, "MokListTrusted last, in PCR 14");
	CHECK_EQ(r.last.event_size, sizeof("MokListTrusted"), "its name with the NUL");
	CHECK(measure_event_sha256(&r.last, digest) == 0, "EV_IPL digest");
	EVP_Digest("\x01", 1, want, &len, EVP_sha256(), NULL);
	CHECK_MEMEQ(digest, want, 32, "MokListTrusted absent: the byte 1 is hashed");
	r.n = 0;
	CHECK_EQ(measure_mok_state(&m, &state), 0, "measured again");
	CHECK_EQ(r.n, 4, "the PCR 7 records (MokSBState, SbatLevel) only once per boot");
	measurer_free(&m);
}

static void test_authority_from_the_verdict(void)
{
	struct verify_policy policy;
	struct verdict verdict = { .allowed = true };
	struct recorded r = {};
	struct measurer m;
	uint8_t list[ESL_HEADER_SIZE + 16 + 32] = {}, owner[16] = { 0xaa };
	const char *reason;

	memcpy(list, sha256_list_guid, 16);
	list[16] = sizeof(list);
	list[24] = 48;
	memcpy(list + ESL_HEADER_SIZE, owner, 16);
	memset(list + ESL_HEADER_SIZE + 16, 0x5a, 32);
	verify_policy_init(&policy);
	CHECK_EQ(sig_db_add_esl(&policy.db, list, sizeof(list), &reason), 0, "db with a hash");
	verdict.authority = (struct verdict_authority){ &policy.db, false, 0 };
	measurer_init(&m, record, &r);
	CHECK_EQ(measure_authority(&m, &policy, &verdict), 0, "authority measured");
	CHECK_EQ(r.n, 1, "one event");
	CHECK_EQ(r.last.pcr, 7u, "in PCR 7");
	CHECK_EQ(r.last.type, (uint32_t)EV_EFI_VARIABLE_AUTHORITY, "EV_EFI_VARIABLE_AUTHORITY");
	CHECK_EQ(r.last.event_size, (size_t)(32 + 2 * 2 + 16 + 32), "UEFI_VARIABLE_DATA size");
	CHECK_MEMEQ(r.last_event + 32, "d\0b\0", 4, "named db, UTF-16, no NUL");
	CHECK_MEMEQ(r.last_event + 36, owner, 16, "the entry's own owner");
	CHECK_EQ(measure_authority(&m, &policy, &verdict), 0, "measured again");
	CHECK_EQ(r.n, 1, "once per boot");
	verdict.authority.db = NULL;
	CHECK_EQ(measure_authority(&m, &policy, &verdict), 0, "no entry: nothing");
	CHECK_EQ(r.n, 1, "no event without an entry");
	measurer_free(&m);
	verify_policy_free(&policy);
}

static void test_log_rejects_garbage(void)
{
	uint8_t junk[64] = { 0 };
	struct pcr_bank bank;
	const char *reason = NULL;

	pcr_bank_reset(&bank);
	CHECK_EQ(tcg_log_replay_firmware(junk, sizeof(junk), &bank, &reason), -1,
		 "not a log: refused");
	CHECK(reason != NULL, "with a reason");
	CHECK_EQ(tcg_log_replay_firmware(junk, 3, &bank, &reason), -1, "truncated: refused");
}

int main(void)
{
	test_empty_mok_list_is_a_dummy();
	test_mok_list_appends_the_variable();
	test_mok_state_events();
	test_authority_from_the_verdict();
	test_log_rejects_garbage();
	return unit_failed;
}
