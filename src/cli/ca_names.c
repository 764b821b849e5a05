// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "ca_names.h"

#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "file.h"
#include "json.h"
#include "signature_list.h"
#include "verify.h"

/*
 * The DER files of microsoft/secureboot_objects (PreSignedObjects/{KEK,DB}/
 * Certificates/, commit 06fe58a), which Microsoft publishes for firmware
 * vendors; the 2011 ones are also what Debian's OVMF_VARS_4M.ms.fd enrolls
 * (tests/cli/test_check.sh reads it).
 */
static const struct well_known_ca cas[] = {
	{ "Microsoft Corporation KEK CA 2011",
	  "a1117f516a32cefcba3f2d1ace10a87972fd6bbe8fe0d0b996e09e65d802a503",
	  "KEK: db and dbx updates", "2026-06-24" },
	{ "Microsoft Corporation KEK 2K CA 2023",
	  "3cd3f0309edae228767a976dd40d9f4affc4fbd5218f2e8cc3c9dd97e8ac6f9d",
	  "KEK: db and dbx updates", "2038-03-02" },
	{ "Microsoft Windows Production PCA 2011",
	  "e8e95f0733a55e8bad7be0a1413ee23c51fcea64b3c8fa6a786935fddcc71961",
	  "Windows Boot Manager", "2026-10-19" },
	{ "Windows UEFI CA 2023",
	  "076f1fea90ac29155ebf77c17682f75f1fdd1be196da302dc8461e350a9ae330",
	  "Windows Boot Manager", "2035-06-13" },
	{ "Microsoft Corporation UEFI CA 2011",
	  "48e99b991f57fc52f76149599bff0a58c47154229b9f8d603ac40d3500248507",
	  "third-party boot loaders (shim) and option ROMs", "2026-06-27" },
	{ "Microsoft UEFI CA 2023",
	  "f6124e34125bee3fe6d79a574eaa7b91c0e7bd9d929c1a321178efd611dad901",
	  "third-party boot loaders (shim)", "2038-06-13" },
	{ "Microsoft Option ROM UEFI CA 2023",
	  "e5be3e64c6e66a281457ecdece0d6d0787577aad2a3a0144262c10c14ba8d8f1", "option ROMs",
	  "2038-10-26" },
};

static void hex(const uint8_t *data, size_t size, char *out)
{
	for (size_t i = 0; i < size; i++)
		snprintf(out + 2 * i, 3, "%02x", data[i]);
}

const struct well_known_ca *well_known_ca_find(const uint8_t digest[32])
{
	char text[65];

	hex(digest, 32, text);
	for (size_t i = 0; i < sizeof(cas) / sizeof(cas[0]); i++)
		if (strcmp(cas[i].sha256, text) == 0)
			return &cas[i];
	return NULL;
}

void ca_name(X509 *cert, char *out, size_t size)
{
	const struct well_known_ca *known;
	unsigned char *der = NULL;
	uint8_t digest[32];
	int len = i2d_X509(cert, &der);

	known = len > 0 && EVP_Digest(der, (size_t)len, digest, NULL, EVP_sha256(), NULL) ?
			well_known_ca_find(digest) :
			NULL;
	OPENSSL_free(der);
	if (known)
		snprintf(out, size, "%s", known->name);
	else
		verdict_subject(cert, out, size);
}

struct listing {
	bool json;
	size_t certs, others;
	const struct ca_dependent *dependents;
	size_t n_dependents;
};

/* The first stages @subject allows: indented lines, or the JSON array. */
static void print_dependents(const struct listing *l, const char *subject)
{
	bool first = true;

	if (l->json) {
		json_print_key("first_stages", true);
		printf("[");
	}
	for (size_t i = 0; i < l->n_dependents; i++) {
		const struct ca_dependent *d = &l->dependents[i];

		if (strcmp(d->subject, subject) != 0)
			continue;
		if (l->json) {
			printf("%s{", first ? "" : ", ");
			json_print_key("option", false);
			json_print_string(d->option);
			json_print_key("image", true);
			json_print_string(d->image);
			printf("}");
		} else {
			printf("    allows the first stage of %s: %s\n", d->option, d->image);
		}
		first = false;
	}
	if (l->json)
		printf("]");
}

static int print_entry(const struct esl_entry *e, void *ctx)
{
	struct listing *l = ctx;
	const struct well_known_ca *known;
	char subject[256], text[65];
	uint8_t digest[32];

	if (e->type != ESL_X509) {
		l->others++;
		return 0;
	}
	EVP_Digest(e->data, e->size, digest, NULL, EVP_sha256(), NULL);
	hex(digest, sizeof(digest), text);
	known = well_known_ca_find(digest);
	esl_entry_subject(e, subject, sizeof(subject));
	if (l->json) {
		printf("%s{", l->certs ? ", " : "");
		json_print_key("name", false);
		json_print_string(known ? known->name : subject);
		json_print_key("sha256", true);
		json_print_string(text);
		json_print_key("well_known", true);
		printf("%s", known ? "true" : "false");
		json_print_key("signs", true);
		json_print_string_or_null(known ? known->signs : NULL);
		json_print_key("not_after", true);
		json_print_string_or_null(known ? known->not_after : NULL);
		print_dependents(l, subject);
		printf("}");
	} else {
		if (known)
			printf("  %s (%s; until %s)\n", known->name, known->signs,
			       known->not_after);
		else
			printf("  %s (sha256 %s)\n", subject, text);
		print_dependents(l, subject);
	}
	l->certs++;
	return 0;
}

int ca_names_print(const char *name, const uint8_t *esl, size_t size,
		   const struct ca_dependent *dependents, size_t n, bool json)
{
	struct listing l = { json, 0, 0, dependents, n };
	const char *reason = NULL;

	if (!json)
		printf("%s holds:\n", name);
	if (esl_walk(esl, size, print_entry, &l, &reason) < 0) {
		say_error("%s: %s", name, reason);
		return -1;
	}
	if (!json && !l.certs)
		printf("  no certificate\n");
	if (!json && l.others)
		printf("  and %zu hash%s\n", l.others, l.others == 1 ? "" : "es");
	return 0;
}
