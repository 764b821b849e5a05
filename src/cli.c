// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * build/lockshim: the verification core on the host, so that "would this
 * kernel boot?" can be answered without rebooting.
 *
 *   lockshim verify --vendor-cert CERT... IMAGE
 *
 * Exit status: 0 allowed, 1 refused, 2 unusable arguments or files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/pem.h>
#include <openssl/x509.h>

#include "verify.h"

#define EXIT_REFUSED  1
#define EXIT_USAGE    2
#define MAX_FILE_SIZE (1024UL * 1024 * 1024)

static int usage(void)
{
	fprintf(stderr, "usage: lockshim verify --vendor-cert CERT [--vendor-cert CERT]... IMAGE\n");
	return EXIT_USAGE;
}

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long length;

	if (!f) {
		fprintf(stderr, "lockshim: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 ||
	    (unsigned long)length > MAX_FILE_SIZE || fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "lockshim: %s: cannot read or too large\n", path);
		fclose(f);
		return -1;
	}
	*size = (size_t)length;
	*data = malloc(*size ? *size : 1);
	if (!*data || fread(*data, 1, *size, f) != *size) {
		fprintf(stderr, "lockshim: %s: read failed\n", path);
		free(*data);
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* A certificate file in DER or PEM form. */
static X509 *load_certificate(const char *path)
{
	const unsigned char *p;
	uint8_t *data;
	size_t size;
	X509 *cert;
	BIO *bio;

	if (read_file(path, &data, &size) < 0)
		return NULL;
	p = data;
	cert = d2i_X509(NULL, &p, (long)size);
	if (!cert) {
		bio = BIO_new_mem_buf(data, (int)size);
		cert = bio ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
		BIO_free(bio);
	}
	free(data);
	if (!cert)
		fprintf(stderr, "lockshim: %s: not a DER or PEM certificate\n", path);
	return cert;
}

static int cmd_verify(int argc, char **argv)
{
	struct verify_policy policy = { .vendor_certs = sk_X509_new_null() };
	const char *image_path = NULL;
	struct verdict verdict;
	uint8_t *image;
	size_t size;
	int r = EXIT_USAGE;

	if (!policy.vendor_certs)
		return EXIT_USAGE;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--vendor-cert") == 0 && i + 1 < argc) {
			X509 *cert = load_certificate(argv[++i]);

			if (!cert || !sk_X509_push(policy.vendor_certs, cert)) {
				X509_free(cert);
				goto out;
			}
		} else if (argv[i][0] == '-' || image_path) {
			usage();
			goto out;
		} else {
			image_path = argv[i];
		}
	}
	if (!image_path) {
		usage();
		goto out;
	}
	if (read_file(image_path, &image, &size) < 0)
		goto out;

	verify_image(image, size, &policy, &verdict);
	free(image);
	if (verdict.allowed)
		printf("allowed: %s: %s%s%s\n", image_path, verdict.reason,
		       verdict.detail[0] ? ": " : "", verdict.detail);
	else
		printf("refused: %s: %s\n", image_path, verdict.reason);
	r = verdict.allowed ? EXIT_SUCCESS : EXIT_REFUSED;
out:
	sk_X509_pop_free(policy.vendor_certs, X509_free);
	return r;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "verify") == 0)
		return cmd_verify(argc - 1, argv + 1);
	return usage();
}
