/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * OpenSSL's seeding hooks for UEFI (not C library functions, but linked from
 * libc-efi.a too). OpenSSL built with --with-rand-seed=none leaves these to
 * the platform; its default provider (SEED-SRC and the DRBGs) calls them.
 *
 * Entropy comes only from EFI_RNG_PROTOCOL. Without it, no entropy is
 * reported and RAND_bytes() fails: nothing is ever faked. Signature
 * verification (RSA public-key operations, digests) never needs randomness.
 */
#include <stddef.h>

#include "libc-efi.h"

struct rand_pool_st; /* RAND_POOL, opaque here */

/* From libcrypto (crypto/rand/rand_pool.c, include/crypto/rand_pool.h). */
size_t ossl_rand_pool_bytes_needed(struct rand_pool_st *pool, unsigned int entropy_factor);
size_t ossl_rand_pool_entropy_available(struct rand_pool_st *pool);
int ossl_rand_pool_add(struct rand_pool_st *pool, const unsigned char *buffer,
		       size_t len, size_t entropy);
unsigned char *ossl_rand_pool_add_begin(struct rand_pool_st *pool, size_t len);
int ossl_rand_pool_add_end(struct rand_pool_st *pool, size_t len, size_t entropy);

/* Implemented here (declared in OpenSSL's include/crypto/rand.h). */
int ossl_rand_pool_init(void);
void ossl_rand_pool_cleanup(void);
void ossl_rand_pool_keep_random_devices_open(int keep);
size_t ossl_pool_acquire_entropy(struct rand_pool_st *pool);
int ossl_pool_add_nonce_data(struct rand_pool_st *pool);

int ossl_rand_pool_init(void)
{
	return 1;
}

void ossl_rand_pool_cleanup(void)
{
}

void ossl_rand_pool_keep_random_devices_open(int keep)
{
	(void)keep;
}

size_t ossl_pool_acquire_entropy(struct rand_pool_st *pool)
{
	static EFI_GUID rng_guid = EFI_RNG_PROTOCOL_GUID;
	EFI_RNG_PROTOCOL *rng = NULL;
	size_t need = ossl_rand_pool_bytes_needed(pool, 1);
	unsigned char *buf;
	EFI_STATUS st;

	if (need == 0 || BS == NULL)
		return ossl_rand_pool_entropy_available(pool);
	st = BS->LocateProtocol(&rng_guid, NULL, (void **)&rng);
	if (EFI_ERROR(st) || rng == NULL)
		return ossl_rand_pool_entropy_available(pool);
	buf = ossl_rand_pool_add_begin(pool, need);
	if (buf == NULL)
		return ossl_rand_pool_entropy_available(pool);
	/* Default algorithm: the platform's best (a DRBG or raw source). */
	st = rng->GetRNG(rng, NULL, (UINTN)need, buf);
	if (EFI_ERROR(st))
		ossl_rand_pool_add_end(pool, 0, 0);
	else
		ossl_rand_pool_add_end(pool, need, 8 * need);
	return ossl_rand_pool_entropy_available(pool);
}

/* A nonce must be unique, not secret: time, a counter, an address. */
int ossl_pool_add_nonce_data(struct rand_pool_st *pool)
{
	static UINT64 counter;
	struct {
		EFI_TIME time;
		UINT64 count;
		const void *where;
	} data = { 0 };

	if (RT != NULL)
		RT->GetTime(&data.time, NULL);
	data.count = ++counter;
	data.where = &data;
	return ossl_rand_pool_add(pool, (const unsigned char *)&data, sizeof(data), 0);
}
