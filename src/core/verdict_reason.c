// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "verdict_reason.h"

#include <stdbool.h>
#include <string.h>

#include "macro.h"

static const char *const names[VERDICT_REASON_COUNT] = {
	[VERDICT_UNSET] = "unset",
	[VERDICT_ALLOWED_DIGEST] = "allowed-digest",
	[VERDICT_ALLOWED_CERT] = "allowed-cert",
	[VERDICT_DENY_DIGEST] = "deny-digest",
	[VERDICT_DENY_CERT] = "deny-cert",
	[VERDICT_DENY_CERT_DIGEST] = "deny-cert-digest",
	[VERDICT_DENY_KEY] = "deny-key",
	[VERDICT_DENY_SIGNATURE] = "deny-signature",
	[VERDICT_DENY_LIST_UNUSABLE] = "deny-list-unusable",
	[VERDICT_SBAT_MULTIPLE] = "sbat-multiple",
	[VERDICT_SBAT_MISSING] = "sbat-missing",
	[VERDICT_SBAT_MALFORMED] = "sbat-malformed",
	[VERDICT_SBAT_REVOKED] = "sbat-revoked",
	[VERDICT_NOT_SIGNED] = "not-signed",
	[VERDICT_BAD_SIGNATURE] = "bad-signature",
	[VERDICT_UNTRUSTED_SIGNER] = "untrusted-signer",
	[VERDICT_NOT_MOK_MANAGER] = "not-mok-manager",
	[VERDICT_NO_MOK_MANAGER] = "no-mok-manager-digest",
	[VERDICT_BAD_IMAGE] = "bad-image",
	[VERDICT_MALFORMED_SIGNATURE] = "malformed-signature",
	[VERDICT_BAD_CERT] = "bad-certificate",
	[VERDICT_OUT_OF_MEMORY] = "out-of-memory",
	[VERDICT_MISSING] = "missing",
	[VERDICT_NOT_ENFORCED] = "secure-boot-off",
	[VERDICT_NO_SHIM_LOCK] = "no-shim-lock",
};

const char *verdict_reason_name(enum verdict_reason reason)
{
	if ((unsigned int)reason >= ARRAY_SIZE(names) || !names[reason])
		return names[VERDICT_UNSET];
	return names[reason];
}

/* Where a record is being written: always terminated, cut when full. */
struct record {
	char *out;
	size_t size, len;
};

static void put(struct record *r, char c)
{
	if (r->len + 1 < r->size)
		r->out[r->len++] = c;
	r->out[r->len] = '\0';
}

static void put_text(struct record *r, const char *s)
{
	for (; *s; s++)
		put(r, *s);
}

/* " KEY=VALUE" (no space before the first), VALUE quoted when it must be. */
static void put_field(struct record *r, const char *key, const char *value)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *v = (const unsigned char *)value;
	bool quote = !*v || *v == '"';

	for (size_t i = 0; v[i]; i++)
		if (v[i] <= ' ' || v[i] >= 0x7f)
			quote = true;
	if (r->len)
		put(r, ' ');
	put_text(r, key);
	put(r, '=');
	if (!quote) {
		put_text(r, value);
		return;
	}
	put(r, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\') {
			put(r, '\\');
			put(r, (char)*v);
		} else if (*v < ' ' || *v >= 0x7f) {
			put(r, '\\');
			put(r, 'x');
			put(r, hex[*v >> 4]);
			put(r, hex[*v & 15]);
		} else {
			put(r, (char)*v);
		}
	}
	put(r, '"');
}

void verdict_record(char *out, size_t size, const char *word, const char *image,
		    enum verdict_reason reason, const char *list, const char *entry)
{
	struct record r = { out, size, 0 };

	if (!size)
		return;
	out[0] = '\0';
	put_field(&r, "verdict", word);
	put_field(&r, "image", image);
	put_field(&r, "reason", verdict_reason_name(reason));
	if (list && *list)
		put_field(&r, "list", list);
	if (entry && *entry)
		put_field(&r, "entry", entry);
}
