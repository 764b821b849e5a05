// SPDX-License-Identifier: BSD-2-Clause-Patent
/* The lockdown table: built from a policy, checked as the kernel checks it. */
#include "lockdown_table.h"
#include "unit.h"
#include "unit_x509.h"

#include <stddef.h>
#include <stdlib.h>

#include <openssl/sha.h>

static int count_entry(const struct esl_entry *e, void *ctx)
{
	(*(int *)ctx)+= e->type == ESL_X509 ? 100 : 1;
	return 0;
}

/* the digest again, after a field was changed on purpose */
static void redigest(uint8_t *table, size_t size)
{
	uint8_t *digest = table + offsetof(struct lockshim_table, digest);

	memset(digest, 0, 32);
	SHA256(table, size, digest);
}

static int check_copy(const uint8_t *table, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);
	const char *why = NULL;
	int r;

	memcpy(copy, table, size);
	r = lockdown_table_check(copy, size, &why);
	free(copy);
	return r == 0 ? 0 : (why ? -1 : -2);
}

int main(void)
{
	struct lockdown_state state = { .locked = true, .lock_reason = LOCKSHIM_LOCK_SECURE_BOOT,
					.secure_boot = 1, .setup_mode = 0,
					.mok_sb_state = LOCKSHIM_VAR_ABSENT,
					.mok_trusted = true, .sbat_required = true };
	static const char level[] = "sbat,1,2025021800\nshim,4\ngrub,5\n";
	const struct lockshim_table *h;
	struct verify_policy policy;
	X509 *vendor = unit_make_cert("vendor"), *mok = unit_make_cert("mok");
	X509 *db = unit_make_cert("db");
	uint8_t *table, revoked[32];
	size_t size;
	size_t wrong;
	int count = 0;

	CHECK_EQ(sizeof(struct lockshim_table), 88, "ABI header is 88 bytes (versions 2 and 3)");
	state.sbat_level = level;
	state.sbat_level_size = sizeof(level) - 1;
	verify_policy_init(&policy);
	sig_db_add_cert(&policy.vendor, vendor, NULL);
	sig_db_add_cert(&policy.mok, mok, NULL);
	sig_db_add_cert(&policy.db, db, NULL);
	memset(revoked, 0x5a, sizeof(revoked));
	{
		/* a one-entry SHA-256 list for MokListX */
		uint8_t esl[28 + 16 + 32] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
					      0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28,
					      sizeof(esl), 0, 0, 0, 0, 0, 0, 0, 48, 0, 0, 0 };
		const char *why;

		memcpy(esl + 44, revoked, 32);
		CHECK_EQ(sig_db_add_esl(&policy.mokx, esl, sizeof(esl), &why), 0,
			 "MokListX digest added");
	}

	if (!CHECK_EQ(lockdown_table_build(&state, &policy, &table, &size), 0, "table built"))
		return 1;
	h = (const struct lockshim_table *)table;
	CHECK_EQ(check_copy(table, size), 0, "built table passes the kernel's checks");
	CHECK_EQ(h->flags, LOCKSHIM_TABLE_LOCKED | LOCKSHIM_TABLE_SBAT_REQUIRED,
		 "flags recorded: locked, .sbat required");
	CHECK_EQ(h->lock_reason, LOCKSHIM_LOCK_SECURE_BOOT, "lock reason recorded: Secure Boot");
	CHECK_EQ(h->secure_boot, 1, "Secure Boot state recorded");
	CHECK_EQ(h->mok_sb_state, LOCKSHIM_VAR_ABSENT, "MokSBState recorded: absent");
	esl_walk(table + h->trusted_keys_offset, h->trusted_keys_size, count_entry, &count, &(const char *){ 0 });
	CHECK_EQ(count, 200, "trusted keys: vendor and MOK certificates, not db");
	count = 0;
	esl_walk(table + h->denied_offset, h->denied_size, count_entry, &count, &(const char *){ 0 });
	CHECK_EQ(count, 1, "denied: the MokListX digest");
	CHECK_EQ(h->version, 3, "version 3");
	CHECK(h->sbat_level_size == sizeof(level) - 1 &&
		      memcmp(table + h->sbat_level_offset, level, sizeof(level) - 1) == 0,
	      "SbatLevel area: the level applied, byte for byte");
	CHECK_EQ(h->sbat_level_offset + h->sbat_level_size, size, "SbatLevel area ends the table");
	{
		/* consistent but for one field: each refused with its reason */
		struct lockshim_table *w = (struct lockshim_table *)table;
		const char *why = NULL;

		w->sbat_level_size += 1;
		redigest(table, size);
		CHECK(lockdown_table_check(table, size, &why) < 0 && why &&
			      strstr(why, "SbatLevel outside"),
		      "SbatLevel running past the table: refused, said");
		w->sbat_level_size -= 1;
		w->reserved1 = 1;
		redigest(table, size);
		CHECK(lockdown_table_check(table, size, &why) < 0 && why && strstr(why, "reserved"),
		      "reserved field set: refused, said");
		w->reserved1 = 0;
		w->flags |= 1u << 7;
		redigest(table, size);
		CHECK(lockdown_table_check(table, size, &why) < 0 && why && strstr(why, "flags"),
		      "unknown flag set: refused, said");
		w->flags &= ~(1u << 7);
		redigest(table, size);
		CHECK_EQ(lockdown_table_check(table, size, &why), 0, "restored: valid again");
	}

	wrong = 0;
	for (size_t i = 0; i < size; i++) {
		table[i] ^= 0x01;
		if (check_copy(table, size) != -1 && !wrong++)
			printf("# bit 0 of byte %zu flipped: not refused with a reason\n", i);
		table[i] ^= 0x01;
	}
	CHECK_EQ(wrong, 0, "any flipped bit is caught, with a reason");
	wrong = 0;
	for (size_t cut = 0; cut < size; cut++)
		if (check_copy(table, cut) != -1 && !wrong++)
			printf("# cut at %zu of %zu bytes: not refused with a reason\n", cut, size);
	CHECK_EQ(wrong, 0, "any truncation is caught, with a reason");
	OPENSSL_free(table);

	/* without mokutil --trust-mok, MOK keys are not the kernel's to trust */
	state.mok_trusted = false;
	if (CHECK_EQ(lockdown_table_build(&state, &policy, &table, &size), 0,
		     "MOK not trusted: table built")) {
		h = (const struct lockshim_table *)table;
		count = 0;
		esl_walk(table + h->trusted_keys_offset, h->trusted_keys_size, count_entry, &count,
			 &(const char *){ 0 });
		CHECK_EQ(count, 100, "MOK not trusted: only the vendor certificate is trusted");
		count = 0;
		esl_walk(table + h->denied_offset, h->denied_size, count_entry, &count,
			 &(const char *){ 0 });
		CHECK_EQ(count, 1, "MOK not trusted: MokListX still denied");
		OPENSSL_free(table);
	}
	state.mok_trusted = true;

	/* .sbat not required of what lockshim started (no level): the flag clear */
	state.sbat_required = false;
	if (CHECK_EQ(lockdown_table_build(&state, &policy, &table, &size), 0,
		     ".sbat not required: table built")) {
		h = (const struct lockshim_table *)table;
		CHECK_EQ(h->flags, LOCKSHIM_TABLE_LOCKED, ".sbat not required: only LOCKED");
		OPENSSL_free(table);
	}
	state.sbat_required = true;

	/* an empty level: the area is empty, the table still valid */
	state.sbat_level_size = 0;
	if (CHECK_EQ(lockdown_table_build(&state, &policy, &table, &size), 0,
		     "no SbatLevel: table built")) {
		h = (const struct lockshim_table *)table;
		CHECK_EQ(h->sbat_level_size, 0, "no SbatLevel: empty area");
		CHECK_EQ(check_copy(table, size), 0, "no SbatLevel: passes the kernel's checks");
		OPENSSL_free(table);
	}
	state.sbat_level_size = sizeof(level) - 1;

	state.locked = false;
	if (CHECK_EQ(lockdown_table_build(&state, &policy, &table, &size), 0,
		     "not locked: table built")) {
		h = (const struct lockshim_table *)table;
		CHECK_EQ(h->flags, 0, "not locked: flags clear, .sbat rule too");
		CHECK_EQ(h->lock_reason, LOCKSHIM_LOCK_NONE, "not locked: reason none");
		OPENSSL_free(table);
	}

	verify_policy_free(&policy);
	X509_free(vendor);
	X509_free(mok);
	X509_free(db);
	UNIT_EXIT();
}
