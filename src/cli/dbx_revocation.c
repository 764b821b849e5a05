// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "dbx_revocation.h"

#include <stdio.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "file.h"
#include "macro.h"
#include "signature_list.h"

extern const uint8_t dbx_revocations[], dbx_revocations_end[];

/* One line of certs/dbx-revocations.csv: name,CA SHA-256,status,what (the rest of the line). */
static bool parse_revocation(const char *line, size_t len, struct dbx_revocation *r)
{
	const char *field = line, *end = line + len;
	char *outs[] = { r->name, NULL, r->status, r->what };
	size_t sizes[] = { sizeof(r->name), 0, sizeof(r->status), sizeof(r->what) };
	char hex[65];

	memset(r, 0, sizeof(*r));
	for (size_t f = 0; f < ARRAY_SIZE(outs); f++) {
		const char *comma =
			f + 1 < ARRAY_SIZE(outs) ? memchr(field, ',', (size_t)(end - field)) : end;
		size_t n;

		if (!comma)
			return false;
		n = (size_t)(comma - field);
		if (!outs[f]) {
			if (n != 64)
				return false;
			memcpy(hex, field, 64);
			hex[64] = '\0';
			for (size_t i = 0; i < 32; i++)
				if (sscanf(hex + 2 * i, "%2hhx", &r->ca_sha256[i]) != 1)
					return false;
		} else {
			if (n >= sizes[f])
				return false;
			memcpy(outs[f], field, n);
		}
		field = comma + 1;
	}
	return true;
}

/* The file is built in (Makefile): a line that does not parse is the build's mistake, said. */
int dbx_revocation_each(int (*visit)(const struct dbx_revocation *r, void *ctx), void *ctx)
{
	const char *at = (const char *)dbx_revocations, *end = (const char *)dbx_revocations_end;

	while (at < end) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t len = nl ? (size_t)(nl - at) : (size_t)(end - at);
		struct dbx_revocation r;
		int stop;

		if (len && !parse_revocation(at, len, &r)) {
			say_error("certs/dbx-revocations.csv: a line does not parse: %.*s",
				  (int)len, at);
		} else if (len && (stop = visit(&r, ctx)) != 0) {
			return stop;
		}
		at += len + 1;
	}
	return 0;
}

struct find {
	const char *name;
	struct dbx_revocation *out;
};

static int find_one(const struct dbx_revocation *r, void *ctx)
{
	struct find *f = ctx;

	if (strcmp(r->name, f->name) != 0)
		return 0;
	*f->out = *r;
	return 1;
}

int dbx_revocation_find(const char *arg, struct dbx_revocation *out)
{
	struct find f = { arg, out };

	return dbx_revocation_each(find_one, &f);
}

struct payload {
	const uint8_t *sha256;
	uint8_t **data;
	size_t *size;
	bool failed;
};

static int add_if_revoked(const struct esl_entry *e, void *ctx)
{
	struct payload *p = ctx;
	uint8_t digest[32];

	if (e->type != ESL_X509 ||
	    !EVP_Digest(e->data, e->size, digest, NULL, EVP_sha256(), NULL) ||
	    memcmp(digest, p->sha256, sizeof(digest)) != 0)
		return 0;
	if (esl_append_entry(e, p->data, p->size) < 0) {
		p->failed = true;
		return 1;
	}
	return 0;
}

int dbx_revocation_payload(const struct dbx_revocation *r, const struct blob *db, uint8_t **data,
			   size_t *size)
{
	struct payload p = { r->ca_sha256, data, size, false };
	const char *reason = "";

	if (!db->present)
		return 0;
	if (esl_walk(db->data, db->size, add_if_revoked, &p, &reason) < 0 || p.failed) {
		say_error("%s: %s", r->name, p.failed ? "out of memory" : reason);
		return -1;
	}
	return 0;
}
