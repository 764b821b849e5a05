// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "lockdown_table.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "guid.h"
#include "reason.h"
#include "safe_math.h"

/* The owner GUID of the entries lockshim writes: the table's own GUID, as stored. */
static const uint8_t table_owner[16] = GUID_BYTES(LOCKSHIM_TABLE_GUID_FIELDS);

static int table_digest(const uint8_t *table, size_t size, uint8_t *out)
{
	const size_t digest_at = offsetof(struct lockshim_table, digest);
	static const uint8_t zero[32];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int len;
	int ok;

	ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 &&
	     EVP_DigestUpdate(ctx, table, digest_at) == 1 &&
	     EVP_DigestUpdate(ctx, zero, sizeof(zero)) == 1 &&
	     EVP_DigestUpdate(ctx, table + digest_at + 32, size - digest_at - 32) == 1 &&
	     EVP_DigestFinal_ex(ctx, out, &len) == 1;
	EVP_MD_CTX_free(ctx);
	return ok ? 0 : -1;
}

#define FIELD(name) offsetof(struct lockshim_table, name)

int lockdown_table_build(const struct lockdown_state *state, const struct verify_policy *policy,
			 uint8_t **table, size_t *size)
{
	uint8_t *trusted = NULL, *denied = NULL, *t;
	size_t trusted_size = 0, denied_size = 0, total;
	uint32_t flags = 0;
	int r = -1;

	*table = NULL;
	if (sig_db_to_esl(&policy->vendor, table_owner, true, &trusted, &trusted_size) < 0 ||
	    (state->mok_trusted &&
	     sig_db_to_esl(&policy->mok, table_owner, true, &trusted, &trusted_size) < 0) ||
	    sig_db_to_esl(&policy->vendor_dbx, table_owner, false, &denied, &denied_size) < 0 ||
	    sig_db_to_esl(&policy->mokx, table_owner, false, &denied, &denied_size) < 0)
		goto out_free_lists;
	if (add_overflows(sizeof(struct lockshim_table), trusted_size, &total) ||
	    add_overflows(total, denied_size, &total) ||
	    add_overflows(total, state->sbat_level_size, &total) || total > UINT32_MAX)
		goto out_free_lists;
	t = OPENSSL_zalloc(total);
	if (!t)
		goto out_free_lists;

	memcpy(t + FIELD(magic), LOCKSHIM_TABLE_MAGIC, 8);
	write_le16(t + FIELD(version), LOCKSHIM_TABLE_VERSION);
	write_le16(t + FIELD(header_size), sizeof(struct lockshim_table));
	write_le32(t + FIELD(total_size), (uint32_t)total);
	if (state->locked) /* the .sbat rule is for the kernel a locked boot verified */
		flags = LOCKSHIM_TABLE_LOCKED |
			(state->sbat_required ? LOCKSHIM_TABLE_SBAT_REQUIRED : 0);
	write_le32(t + FIELD(flags), flags);
	write_le32(t + FIELD(lock_reason), state->locked ? state->lock_reason : LOCKSHIM_LOCK_NONE);
	t[FIELD(secure_boot)] = state->secure_boot;
	t[FIELD(setup_mode)] = state->setup_mode;
	t[FIELD(mok_sb_state)] = state->mok_sb_state;
	write_le32(t + FIELD(trusted_keys_offset), sizeof(struct lockshim_table));
	write_le32(t + FIELD(trusted_keys_size), (uint32_t)trusted_size);
	write_le32(t + FIELD(denied_offset),
		   (uint32_t)(sizeof(struct lockshim_table) + trusted_size));
	write_le32(t + FIELD(denied_size), (uint32_t)denied_size);
	write_le32(t + FIELD(sbat_level_offset),
		   (uint32_t)(sizeof(struct lockshim_table) + trusted_size + denied_size));
	write_le32(t + FIELD(sbat_level_size), (uint32_t)state->sbat_level_size);
	if (trusted_size)
		memcpy(t + sizeof(struct lockshim_table), trusted, trusted_size);
	if (denied_size)
		memcpy(t + sizeof(struct lockshim_table) + trusted_size, denied, denied_size);
	if (state->sbat_level_size)
		memcpy(t + sizeof(struct lockshim_table) + trusted_size + denied_size,
		       state->sbat_level, state->sbat_level_size);
	if (table_digest(t, total, t + FIELD(digest)) < 0) {
		OPENSSL_free(t);
		goto out_free_lists;
	}
	*table = t;
	*size = total;
	r = 0;
out_free_lists:
	OPENSSL_free(trusted);
	OPENSSL_free(denied);
	return r;
}

/* The area whose offset and size the header holds at @off_at and @size_at:
 * inside the table's @total bytes and, when not empty, past the header. */
static bool area_inside(const uint8_t *data, size_t off_at, size_t size_at, uint32_t total)
{
	uint32_t off = read_le32(data + off_at), len = read_le32(data + size_at);

	return range_inside(off, len, total) && (!len || off >= sizeof(struct lockshim_table));
}

int lockdown_table_check(const uint8_t *data, size_t size, const char **reason)
{
	uint8_t digest[32];
	uint32_t total;

	if (size < sizeof(struct lockshim_table))
		return refuse(reason, "table smaller than its header");
	if (memcmp(data + FIELD(magic), LOCKSHIM_TABLE_MAGIC, 8) != 0)
		return refuse(reason, "bad magic");
	if (read_le16(data + FIELD(version)) != LOCKSHIM_TABLE_VERSION ||
	    read_le16(data + FIELD(header_size)) != sizeof(struct lockshim_table))
		return refuse(reason, "unknown version or header size");
	total = read_le32(data + FIELD(total_size));
	if (total < sizeof(struct lockshim_table) || total > size)
		return refuse(reason, "total size out of range");
	if (!area_inside(data, FIELD(trusted_keys_offset), FIELD(trusted_keys_size), total))
		return refuse(reason, "trusted keys outside the table");
	if (!area_inside(data, FIELD(denied_offset), FIELD(denied_size), total))
		return refuse(reason, "denied entries outside the table");
	if (!area_inside(data, FIELD(sbat_level_offset), FIELD(sbat_level_size), total))
		return refuse(reason, "SbatLevel outside the table");
	if (read_le32(data + FIELD(flags)) &
	    ~(LOCKSHIM_TABLE_LOCKED | LOCKSHIM_TABLE_SBAT_REQUIRED))
		return refuse(reason, "unknown flags");
	if (data[FIELD(reserved0)] || read_le32(data + FIELD(reserved1)))
		return refuse(reason, "reserved fields not zero");
	if (table_digest(data, total, digest) < 0 ||
	    CRYPTO_memcmp(digest, data + FIELD(digest), sizeof(digest)) != 0)
		return refuse(reason, "digest mismatch");
	return 0;
}
