/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Throughput of lockshim's verification core on the host (tests/bench/bench.mk).
 *
 *   bench_verify-VARIANT [--runs N] [--json] verify [--vendor-cert F]... [--db F]... IMAGE
 *   bench_verify-VARIANT [--runs N] [--json] sha256 IMAGE
 *
 * verify: verify_image() on IMAGE, which must be allowed (a refusal would
 * measure a shortcut); sha256: one SHA-256 over IMAGE's bytes, through the
 * same libcrypto. F is a DER or PEM certificate or an EFI signature list;
 * verify takes every trust-list option of `lockshim verify`
 * (src/cli/policy_args.h), not only the two shown.
 * Each is run once to warm up, then N times (default 7); the median time
 * gives MB/s (MB = 10^6 bytes). The variants differ only in the libcrypto
 * linked: the one built for UEFI with assembly (-asm) or without (-noasm),
 * or the system's (-system, the CPU's reference).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "file.h"
#include "policy_args.h"
#include "verify.h"

#ifdef BENCH_UEFI_CRYPTO
#include "cpu_features.h"
#endif

#define MAX_RUNS 101

const char program_name[] = "bench_verify";

static int usage(void)
{
	fprintf(stderr, "usage: bench_verify [--runs N] [--json] verify [--vendor-cert F]... [--db F]... IMAGE\n"
			"       bench_verify [--runs N] [--json] sha256 IMAGE\n");
	return 2;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One measured operation; 0 on success. */
struct bench_op {
	int (*run)(const struct bench_op *op);
	const uint8_t *data;
	size_t size;
	const struct verify_policy *policy;
};

static int run_verify(const struct bench_op *op)
{
	struct verdict verdict;

	verify_image(op->data, op->size, op->policy, VERIFY_TO_START, &verdict);
	if (!verdict.allowed) {
		fprintf(stderr, "bench_verify: image refused: %s\n", verdict.message);
		return -1;
	}
	return 0;
}

static int run_sha256(const struct bench_op *op)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len;

	return EVP_Digest(op->data, op->size, md, &len, EVP_sha256(), NULL) == 1 ? 0 : -1;
}

static const char *crypto_description(char *buf, size_t size)
{
#ifdef BENCH_UEFI_CRYPTO
	return crypto_cpu_describe(buf, size);
#else
	snprintf(buf, size, "system %s", OpenSSL_version(OPENSSL_VERSION));
	return buf;
#endif
}

int main(int argc, char **argv)
{
	struct verify_policy policy;
	struct bench_op op = { NULL, NULL, 0, &policy };
	double times[MAX_RUNS], t0, median;
	const char *mode, *image_path = NULL;
	char description[256];
	uint8_t *image = NULL;
	bool json = false;
	int runs = 7, i, r = 2;

#ifdef BENCH_UEFI_CRYPTO
	crypto_cpu_init();
#endif
	verify_policy_init(&policy);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (strcmp(argv[i], "--json") == 0)
			json = true;
		else
			goto out_usage;
	}
	if (i >= argc || runs < 1 || runs > MAX_RUNS)
		goto out_usage;
	mode = argv[i++];
	if (strcmp(mode, "verify") == 0)
		op.run = run_verify;
	else if (strcmp(mode, "sha256") == 0)
		op.run = run_sha256;
	else
		goto out_usage;
	for (; i < argc; i++) {
		struct sig_db *db = NULL;

		if (op.run == run_verify) /* sha256 takes no lists */
			db = policy_list_option(&policy, argv[i]);

		if (db && i + 1 < argc) {
			if (policy_add_list_file(&policy, db, argv[++i]) < 0)
				goto out;
		} else if (argv[i][0] == '-' || image_path) {
			goto out_usage;
		} else {
			image_path = argv[i];
		}
	}
	if (!image_path)
		goto out_usage;
	if (read_file(image_path, &image, &op.size) < 0)
		goto out;
	op.data = image;

	r = 1;
	if (op.run(&op) < 0) /* warm-up: first-use initialisation, page faults */
		goto out;
	for (i = 0; i < runs; i++) {
		t0 = now();
		if (op.run(&op) < 0)
			goto out;
		times[i] = now() - t0;
	}
	qsort(times, (size_t)runs, sizeof(times[0]), compare_double);
	median = runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2;
	crypto_description(description, sizeof(description));
	if (json)
		printf("{\"mode\": \"%s\", \"bytes\": %zu, \"runs\": %d, \"median_s\": %.6f, "
		       "\"mb_per_s\": %.1f, \"crypto\": \"%s\"}\n",
		       mode, op.size, runs, median, (double)op.size / 1e6 / median, description);
	else
		printf("%-6s %8.1f MB  median of %d: %.4f s  %8.1f MB/s  [%s]\n", mode,
		       (double)op.size / 1e6, runs, median, (double)op.size / 1e6 / median, description);
	r = 0;
	goto out;
out_usage:
	r = usage();
out:
	free(image);
	verify_policy_free(&policy);
	return r;
}
