// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "verdict_reason.h"

#include <stdbool.h>
#include <string.h>

#include "macro.h"
#include "reason.h"

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
	[VERDICT_UNREADABLE] = "unreadable",
};

const char *verdict_reason_name(enum verdict_reason reason)
{
	if ((unsigned int)reason >= ARRAY_SIZE(names) || !names[reason])
		return names[VERDICT_UNSET];
	return names[reason];
}

static const char hex[] = "0123456789abcdef";

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

void record_add_field(char *out, size_t size, const char *key, const char *value)
{
	struct record r = { out, size, 0 };

	if (!size)
		return;
	r.len = strlen(out); /* terminated, as the caller promises */
	if (r.len >= size)
		r.len = size - 1;
	put_field(&r, key, value);
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

/* ---- reading a record line ------------------------------------------------------ */

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* The value of the lower-case hex digit @c, as put_field writes it; -1 for any other byte. */
static int hex_digit(char c)
{
	const char *at = c ? memchr(hex, c, 16) : NULL;

	return at ? (int)(at - hex) : -1;
}

/* The value at @line[*at] (to @len) into @value, unquoted; *@at moves past it. */
static int parse_value(const char *line, size_t len, size_t *at, char *value, const char **reason)
{
	size_t i = *at, n = 0;

	if (i >= len || line[i] == ' ')
		return refuse(reason, "a field without a value");
	if (line[i] != '"') {
		for (; i < len && line[i] != ' '; i++) {
			if (line[i] < '!' || line[i] > '~')
				return refuse(reason, "a byte that is not printable ASCII");
			if (n + 1 >= VERDICT_RECORD_SIZE)
				return refuse(reason, "a value too long");
			value[n++] = line[i];
		}
		value[n] = '\0';
		*at = i;
		return 0;
	}
	for (i++;; i++) {
		char c;

		if (i >= len)
			return refuse(reason, "a quoted value without its closing quote");
		c = line[i];
		if (c == '"')
			break;
		if (c < ' ' || c > '~')
			return refuse(reason, "a byte that is not printable ASCII");
		if (c == '\\') {
			if (i + 1 < len && (line[i + 1] == '"' || line[i + 1] == '\\')) {
				c = line[++i];
			} else if (i + 3 < len && line[i + 1] == 'x' &&
				   hex_digit(line[i + 2]) >= 0 && hex_digit(line[i + 3]) >= 0) {
				c = (char)(hex_digit(line[i + 2]) << 4 | hex_digit(line[i + 3]));
				if (!c)
					return refuse(reason, "a NUL byte in a value");
				i += 3;
			} else {
				return refuse(reason, "a '\\' that is not \\\", \\\\ or \\xHH");
			}
		}
		if (n + 1 >= VERDICT_RECORD_SIZE)
			return refuse(reason, "a value too long");
		value[n++] = c;
	}
	value[n] = '\0';
	*at = i + 1;
	return 0;
}

int record_parse(const char *line, size_t len, struct record_fields *out, const char **reason)
{
	size_t at = 0;

	out->n = 0;
	if (!len)
		return refuse(reason, "an empty line");
	while (at < len) {
		struct record_field *f;
		size_t k = 0;

		if (out->n == RECORD_FIELDS_MAX)
			return refuse(reason, "too many fields");
		f = &out->field[out->n];
		for (; at < len && key_char(line[at]); at++) {
			if (k + 1 >= RECORD_KEY_MAX)
				return refuse(reason, "a key too long");
			f->key[k++] = line[at];
		}
		f->key[k] = '\0';
		if (!k || at >= len || line[at] != '=')
			return refuse(reason, "not KEY=VALUE");
		at++;
		if (parse_value(line, len, &at, f->value, reason) < 0)
			return -1;
		if (record_value(out, f->key))
			return refuse(reason, "a key given twice");
		out->n++;
		if (at < len && (line[at] != ' ' || at + 1 == len))
			return refuse(reason, "fields not separated by one space");
		if (at < len)
			at++;
	}
	return 0;
}

const char *record_value(const struct record_fields *fields, const char *key)
{
	for (size_t i = 0; i < fields->n; i++)
		if (strcmp(fields->field[i].key, key) == 0)
			return fields->field[i].value;
	return NULL;
}
