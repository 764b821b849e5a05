// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "verify.h"

#include <string.h>

#include "authenticode.h"
#include "pe.h"

static void verdict_set(struct verdict *v, bool allowed, const char *reason, X509 *cert)
{
	v->allowed = allowed;
	v->reason = reason;
	v->detail[0] = '\0';
	if (cert)
		X509_NAME_oneline(X509_get_subject_name(cert), v->detail, sizeof(v->detail));
}

/* Is one WIN_CERTIFICATE entry a valid signature of @img by a vendor key? */
static int check_entry(const struct pe_image *img, const uint8_t *der, size_t der_len,
		       X509_STORE *vendor, X509 **anchor, const char **reason)
{
	struct authenticode_signature sig;
	int r;

	if (authenticode_signature_parse(der, der_len, &sig, reason) < 0)
		return -1;
	r = authenticode_check_image(&sig, img, reason);
	if (r == 0)
		r = authenticode_check_signer(&sig, vendor, anchor, reason);
	authenticode_signature_free(&sig);
	return r;
}

void verify_image(const uint8_t *data, size_t size, const struct verify_policy *policy,
		  struct verdict *verdict)
{
	struct pe_image *img;
	X509_STORE *vendor = NULL;
	const char *reason = "image is not signed";
	const uint8_t *der;
	size_t der_len, cursor = 0;
	X509 *anchor = NULL;
	int r;

	/* struct pe_image is a few KiB: keep it off the firmware's small stack */
	img = OPENSSL_zalloc(sizeof(*img));
	if (!img) {
		verdict_set(verdict, false, "out of memory", NULL);
		return;
	}
	if (pe_parse(data, size, img, &reason) < 0) {
		verdict_set(verdict, false, reason, NULL);
		goto out;
	}
	vendor = authenticode_trust_store(policy->vendor_certs);
	if (!vendor) {
		verdict_set(verdict, false, "out of memory", NULL);
		goto out;
	}

	while ((r = authenticode_next_entry(img, &cursor, &der, &der_len, &reason)) == 1)
		if (check_entry(img, der, der_len, vendor, &anchor, &reason) == 0) {
			verdict_set(verdict, true, "signed by a vendor certificate", anchor);
			X509_free(anchor);
			goto out;
		}
	verdict_set(verdict, false, reason, NULL);
out:
	X509_STORE_free(vendor);
	OPENSSL_free(img);
}
