// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "policy_args.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/pem.h>
#include <openssl/x509.h>

#include "buffer.h"
#include "file.h"
#include "macro.h"

struct sig_db *policy_list_for(struct verify_policy *policy, int code)
{
	struct sig_db *lists[] = {
		[POLICY_OPT_DB - POLICY_OPT_DB] = &policy->db,
		[POLICY_OPT_DBX - POLICY_OPT_DB] = &policy->dbx,
		[POLICY_OPT_MOK - POLICY_OPT_DB] = &policy->mok,
		[POLICY_OPT_MOKX - POLICY_OPT_DB] = &policy->mokx,
		[POLICY_OPT_VENDOR_CERT - POLICY_OPT_DB] = &policy->vendor,
		[POLICY_OPT_VENDOR_DBX - POLICY_OPT_DB] = &policy->vendor_dbx,
	};

	if (code < POLICY_OPT_DB || code >= POLICY_OPT_END)
		return NULL;
	return lists[code - POLICY_OPT_DB];
}

struct sig_db *policy_list_option(struct verify_policy *policy, const char *arg)
{
	static const struct option options[] = { POLICY_LIST_OPTIONS };

	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (strcmp(arg + 2, options[i].name) == 0)
			return policy_list_for(policy, options[i].val);
	return NULL;
}

/* The whole of @data as one DER certificate, or one PEM certificate; NULL otherwise. */
static X509 *parse_certificate(const uint8_t *data, size_t size)
{
	const unsigned char *p = data;
	X509 *cert;
	BIO *bio;

	cert = d2i_X509(NULL, &p, (long)size);
	if (cert && p == data + size)
		return cert;
	X509_free(cert);
	if (size > INT_MAX)
		return NULL;
	bio = BIO_new_mem_buf(data, (int)size);
	cert = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
	BIO_free(bio);
	return cert;
}

int policy_add_list_file(struct verify_policy *policy, struct sig_db *db, const char *path)
{
	size_t before, size, unknown;
	char guid[ESL_GUID_TEXT_SIZE];
	const uint8_t *first;
	const char *reason;
	uint8_t *data;
	int added, rejected;
	X509 *cert;

	if (read_file(path, &data, &size) < 0)
		return -1;
	cert = parse_certificate(data, size);
	if (cert) {
		added = sig_db_add_cert(db, cert, NULL);
		X509_free(cert);
		free(data);
		return added;
	}
	before = (size_t)sk_X509_num(db->certs) + db->n_digests;
	rejected = sig_db_add_esl(db, data, size, &reason);
	unknown = esl_count_unknown(data, size, &first);
	if (unknown) {
		esl_guid_text(first, guid);
		say_error(
			"%s: skipping %zu signature list(s) of a type lockshim does not know (%s%s)",
			path, unknown, guid, unknown > 1 ? ", ..." : "");
	}
	free(data);
	if (rejected < 0)
		return -1;
	if (rejected > 0 && (size_t)sk_X509_num(db->certs) + db->n_digests == before) {
		say_error("%s: neither a certificate nor a usable signature list (%s)", path,
			  reason);
		return -1;
	}
	if (rejected > 0)
		say_error("%s: %d signature list(s) rejected: %s", path, rejected, reason);
	verify_policy_list_loaded(policy, db, LIST_READ, rejected, reason);
	return 0;
}

/* The file as a list; @only_cert: a certificate or nothing. */
static int file_bytes(const char *path, bool only_cert, uint8_t **esl, size_t *size)
{
	unsigned char *der = NULL;
	size_t file_size;
	uint8_t *data;
	int der_len, r = -1;
	X509 *cert;

	if (read_file(path, &data, &file_size) < 0)
		return -1;
	cert = parse_certificate(data, file_size);
	if (!cert && only_cert) {
		say_error("%s: not a certificate (DER or PEM, as mokutil takes)", path);
		free(data);
		return -1;
	}
	if (!cert) {
		r = buffer_append(esl, size, data, file_size);
	} else if ((der_len = i2d_X509(cert, &der)) > 0) {
		struct esl_entry entry = { ESL_X509, esl_owner_shim, der, (size_t)der_len };

		r = esl_append_entry(&entry, esl, size);
	}
	if (r < 0)
		say_error("%s: out of memory", path);
	OPENSSL_free(der);
	X509_free(cert);
	free(data);
	return r;
}

int policy_list_file_bytes(const char *path, uint8_t **esl, size_t *size)
{
	return file_bytes(path, false, esl, size);
}

int policy_cert_file_bytes(const char *path, uint8_t **esl, size_t *size)
{
	return file_bytes(path, true, esl, size);
}
