/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The verification policy: given an image and the trust lists, decide
 * whether it may run, and say why. The loader and the host CLI both call
 * verify_image; neither decides anything on its own.
 */
#ifndef LOCKSHIM_VERIFY_H
#define LOCKSHIM_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/x509.h>

struct verify_policy {
	STACK_OF(X509) *vendor_certs; /* the certificates built into lockshim */
};

struct verdict {
	bool allowed;
	const char *reason;   /* one line, static text */
	char detail[256];     /* the certificate that decided it, or empty */
};

/* Decide on the PE image of @size bytes at @data. Never fails: a refusal is a verdict. */
void verify_image(const uint8_t *data, size_t size, const struct verify_policy *policy,
		  struct verdict *verdict);

#endif
