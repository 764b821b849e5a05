// SPDX-License-Identifier: BSD-2-Clause-Patent
/* The lockdown table: built from a policy, checked as the kernel checks it. */
#include "lockdown_table.h"
#include "unit.h"
#include "unit_x509.h"

#include <stdlib.h>

static int count_entry(const struct esl_entry *e, void *ctx)
{
	(*(int *)ctx)+= e->type == ESL_X509 ? 100 : 1;
	return 0;
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
					.mok_sb_state = LOCKSHIM_VAR_ABSENT };
	const struct lockshim_table *h;
	struct verify_policy policy;
	X509 *vendor = unit_make_cert("vendor"), *mok = unit_make_cert("mok");
	X509 *db = unit_make_cert("db");
	uint8_t *table, revoked[32];
	size_t size;
	int count = 0, all = 1;

	CHECK(sizeof(struct lockshim_table) == 80, "ABI header is 80 bytes");
	verify_policy_init(&policy);
	sig_db_add_cert(&policy.vendor, vendor);
	sig_db_add_cert(&policy.mok, mok);
	sig_db_add_cert(&policy.db, db);
	memset(revoked, 0x5a, sizeof(revoked));
	{
		/* a one-entry SHA-256 list for MokListX */
		uint8_t esl[28 + 16 + 32] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
					      0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28,
					      sizeof(esl), 0, 0, 0, 0, 0, 0, 0, 48, 0, 0, 0 };
		const char *why;

		memcpy(esl + 44, revoked, 32);
		CHECK(sig_db_add_esl(&policy.mokx, esl, sizeof(esl), &why) == 0, "MokListX digest added");
	}

	CHECK(lockdown_table_build(&state, &policy, &table, &size) == 0, "table built");
	h = (const struct lockshim_table *)table;
	CHECK(check_copy(table, size) == 0, "built table passes the kernel's checks");
	CHECK(h->flags == LOCKSHIM_TABLE_LOCKED && h->lock_reason == LOCKSHIM_LOCK_SECURE_BOOT &&
		      h->secure_boot == 1 && h->mok_sb_state == LOCKSHIM_VAR_ABSENT,
	      "flags and state recorded");
	esl_walk(table + h->trusted_keys_offset, h->trusted_keys_size, count_entry, &count, &(const char *){ 0 });
	CHECK(count == 200, "trusted keys: vendor and MOK certificates, not db");
	count = 0;
	esl_walk(table + h->denied_offset, h->denied_size, count_entry, &count, &(const char *){ 0 });
	CHECK(count == 1, "denied: the MokListX digest");

	for (size_t i = 0; i < size; i++) {
		table[i] ^= 0x01;
		if (check_copy(table, size) != -1)
			all = 0;
		table[i] ^= 0x01;
	}
	CHECK(all, "any flipped bit is caught, with a reason");
	all = 1;
	for (size_t cut = 0; cut < size; cut++)
		if (check_copy(table, cut) != -1)
			all = 0;
	CHECK(all, "any truncation is caught, with a reason");
	OPENSSL_free(table);

	state.locked = false;
	CHECK(lockdown_table_build(&state, &policy, &table, &size) == 0 &&
		      ((struct lockshim_table *)table)->flags == 0 &&
		      ((struct lockshim_table *)table)->lock_reason == LOCKSHIM_LOCK_NONE,
	      "not locked: flags clear, reason none");
	OPENSSL_free(table);

	verify_policy_free(&policy);
	X509_free(vendor);
	X509_free(mok);
	X509_free(db);
	UNIT_EXIT();
}
