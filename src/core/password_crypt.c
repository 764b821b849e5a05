// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * crypt(3) as glibc and mokutil compute it: MD5-crypt (Poul-Henning Kamp's
 * "$1$") and SHA-crypt (Ulrich Drepper's "$5$"/"$6$" specification),
 * returning the final digest before crypt's base64 step.
 */
#include "password_crypt.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "reason.h"
#include "safe_math.h"

#define SHA_CRYPT_ROUNDS_MIN 1000
#define SHA_CRYPT_ROUNDS_MAX 999999999
/* a boot-time bound: 5000 is mokutil's default; 10^6 SHA-512 rounds take seconds already */
#define SHA_CRYPT_ROUNDS_ACCEPTED 1000000
#define SHA_CRYPT_SALT_MAX        16
#define MD5_CRYPT_SALT_MAX        8
#define MD5_CRYPT_ROUNDS          1000

int password_crypt_parse(const uint8_t *data, size_t size, struct password_crypt *pc,
			 const char **reason)
{
	if (size != PASSWORD_CRYPT_SIZE)
		return refuse(reason, "password structure has the wrong size");
	pc->method = read_le16(data);
	pc->iterations = read_le64(data + 2);
	pc->salt_size = read_le16(data + 10);
	memcpy(pc->salt, data + 12, sizeof(pc->salt));
	memcpy(pc->hash, data + 44, sizeof(pc->hash));

	switch (pc->method) {
	case PASSWORD_MD5:
		if (pc->salt_size > MD5_CRYPT_SALT_MAX)
			return refuse(reason, "MD5-crypt salt too long");
		return 0;
	case PASSWORD_SHA256:
	case PASSWORD_SHA512:
		if (pc->salt_size > SHA_CRYPT_SALT_MAX)
			return refuse(reason, "SHA-crypt salt too long");
		if (pc->iterations < SHA_CRYPT_ROUNDS_MIN || pc->iterations > SHA_CRYPT_ROUNDS_MAX)
			return refuse(reason, "SHA-crypt rounds out of range");
		if (pc->iterations > SHA_CRYPT_ROUNDS_ACCEPTED)
			return refuse(reason, "SHA-crypt rounds too many to check at boot");
		return 0;
	default:
		return refuse(reason,
			      "password hash method not supported (DES and Blowfish are not)");
	}
}

static int md_update(EVP_MD_CTX *ctx, const void *data, size_t len)
{
	return EVP_DigestUpdate(ctx, data, len) == 1 ? 0 : -1;
}

/* Drepper's SHA-crypt with @md (SHA-256 or SHA-512). */
static int sha_crypt(const EVP_MD *md, const uint8_t *pw, size_t pw_len, const uint8_t *salt,
		     size_t salt_len, uint64_t rounds, uint8_t *out, size_t *out_len)
{
	const size_t n = (size_t)EVP_MD_get_size(md);
	uint8_t a[EVP_MAX_MD_SIZE], b[EVP_MAX_MD_SIZE], dp[EVP_MAX_MD_SIZE], ds[EVP_MAX_MD_SIZE];
	uint8_t p[PASSWORD_MAX_CHARS], s[SHA_CRYPT_SALT_MAX];
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int r = -1;

	if (!ctx || pw_len > sizeof(p) || salt_len > sizeof(s))
		goto out_cleanse;
	/* B = H(pw salt pw) */
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1 || md_update(ctx, pw, pw_len) ||
	    md_update(ctx, salt, salt_len) || md_update(ctx, pw, pw_len) ||
	    EVP_DigestFinal_ex(ctx, b, NULL) != 1)
		goto out_cleanse;
	/* A = H(pw salt B-repeated-to-len(pw) bits-of-len(pw)) */
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1 || md_update(ctx, pw, pw_len) ||
	    md_update(ctx, salt, salt_len))
		goto out_cleanse;
	for (size_t i = pw_len; i > 0; i -= i > n ? n : i)
		if (md_update(ctx, b, i > n ? n : i))
			goto out_cleanse;
	for (size_t i = pw_len; i > 0; i >>= 1)
		if (md_update(ctx, (i & 1) ? b : pw, (i & 1) ? n : pw_len))
			goto out_cleanse;
	if (EVP_DigestFinal_ex(ctx, a, NULL) != 1)
		goto out_cleanse;
	/* P: H(pw repeated len(pw) times), stretched to len(pw) */
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1)
		goto out_cleanse;
	for (size_t i = 0; i < pw_len; i++)
		if (md_update(ctx, pw, pw_len))
			goto out_cleanse;
	if (EVP_DigestFinal_ex(ctx, dp, NULL) != 1)
		goto out_cleanse;
	for (size_t i = 0; i < pw_len; i++)
		p[i] = dp[i % n];
	/* S: H(salt repeated 16 + A[0] times), stretched to len(salt) */
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1)
		goto out_cleanse;
	for (size_t i = 0; i < 16u + a[0]; i++)
		if (md_update(ctx, salt, salt_len))
			goto out_cleanse;
	if (EVP_DigestFinal_ex(ctx, ds, NULL) != 1)
		goto out_cleanse;
	for (size_t i = 0; i < salt_len; i++)
		s[i] = ds[i % n];

	for (uint64_t round = 0; round < rounds; round++) {
		if (EVP_DigestInit_ex(ctx, md, NULL) != 1 ||
		    md_update(ctx, (round & 1) ? p : a, (round & 1) ? pw_len : n) ||
		    (round % 3 && md_update(ctx, s, salt_len)) ||
		    (round % 7 && md_update(ctx, p, pw_len)) ||
		    md_update(ctx, (round & 1) ? a : p, (round & 1) ? n : pw_len) ||
		    EVP_DigestFinal_ex(ctx, a, NULL) != 1)
			goto out_cleanse;
	}
	memcpy(out, a, n);
	*out_len = n;
	r = 0;
out_cleanse:
	/* every intermediate derives from the password (EVP_MD_CTX_free clears the context) */
	OPENSSL_cleanse(a, sizeof(a));
	OPENSSL_cleanse(b, sizeof(b));
	OPENSSL_cleanse(dp, sizeof(dp));
	OPENSSL_cleanse(ds, sizeof(ds));
	OPENSSL_cleanse(p, sizeof(p));
	OPENSSL_cleanse(s, sizeof(s));
	EVP_MD_CTX_free(ctx);
	return r;
}

/* Poul-Henning Kamp's MD5-crypt ("$1$"). */
static int md5_crypt(const uint8_t *pw, size_t pw_len, const uint8_t *salt, size_t salt_len,
		     uint8_t *out, size_t *out_len)
{
	static const uint8_t magic[] = "$1$";
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	const EVP_MD *md = EVP_md5();
	uint8_t final[16];
	int r = -1;

	if (!ctx || !md)
		goto out_cleanse;
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1 || md_update(ctx, pw, pw_len) ||
	    md_update(ctx, salt, salt_len) || md_update(ctx, pw, pw_len) ||
	    EVP_DigestFinal_ex(ctx, final, NULL) != 1)
		goto out_cleanse;
	if (EVP_DigestInit_ex(ctx, md, NULL) != 1 || md_update(ctx, pw, pw_len) ||
	    md_update(ctx, magic, 3) || md_update(ctx, salt, salt_len))
		goto out_cleanse;
	for (size_t i = pw_len; i > 0; i -= i > 16 ? 16 : i)
		if (md_update(ctx, final, i > 16 ? 16 : i))
			goto out_cleanse;
	for (size_t i = pw_len; i > 0; i >>= 1)
		if (md_update(ctx, (i & 1) ? (const uint8_t *)"" : pw, 1))
			goto out_cleanse;
	if (EVP_DigestFinal_ex(ctx, final, NULL) != 1)
		goto out_cleanse;
	for (int round = 0; round < MD5_CRYPT_ROUNDS; round++) {
		if (EVP_DigestInit_ex(ctx, md, NULL) != 1 ||
		    md_update(ctx, (round & 1) ? pw : final, (round & 1) ? pw_len : 16) ||
		    (round % 3 && md_update(ctx, salt, salt_len)) ||
		    (round % 7 && md_update(ctx, pw, pw_len)) ||
		    md_update(ctx, (round & 1) ? final : pw, (round & 1) ? 16 : pw_len) ||
		    EVP_DigestFinal_ex(ctx, final, NULL) != 1)
			goto out_cleanse;
	}
	memcpy(out, final, 16);
	*out_len = 16;
	r = 0;
out_cleanse:
	OPENSSL_cleanse(final, sizeof(final));
	EVP_MD_CTX_free(ctx);
	return r;
}

int password_crypt_digest(const struct password_crypt *pc, const uint8_t *password, size_t len,
			  uint8_t *out, size_t *out_len)
{
	switch (pc->method) {
	case PASSWORD_MD5:
		return md5_crypt(password, len, pc->salt, pc->salt_size, out, out_len);
	case PASSWORD_SHA256:
		return sha_crypt(EVP_sha256(), password, len, pc->salt, pc->salt_size,
				 pc->iterations, out, out_len);
	case PASSWORD_SHA512:
		return sha_crypt(EVP_sha512(), password, len, pc->salt, pc->salt_size,
				 pc->iterations, out, out_len);
	default:
		return -1;
	}
}

int password_typed_check(size_t chars, const char **reason)
{
	if (chars == 0)
		return refuse(reason, "empty password");
	if (chars > PASSWORD_MAX_CHARS)
		return refuse(reason, "password too long");
	return 0;
}

/* The legacy form: SHA-256 over the request and the password's UCS-2 characters. */
static int legacy_matches(const uint8_t *auth, const uint8_t *data, size_t data_size,
			  const uint16_t *password, size_t chars, const char **reason)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	uint8_t digest[EVP_MAX_MD_SIZE], le[2];
	int r = -1;

	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 ||
	    md_update(ctx, data, data_size))
		goto out_cleanse;
	for (size_t i = 0; i < chars; i++) {
		le[0] = (uint8_t)password[i];
		le[1] = (uint8_t)(password[i] >> 8);
		if (md_update(ctx, le, 2))
			goto out_cleanse;
	}
	if (EVP_DigestFinal_ex(ctx, digest, NULL) == 1)
		r = CRYPTO_memcmp(digest, auth, PASSWORD_LEGACY_SIZE) == 0;
out_cleanse:
	OPENSSL_cleanse(digest, sizeof(digest));
	OPENSSL_cleanse(le, sizeof(le));
	EVP_MD_CTX_free(ctx);
	return r < 0 ? refuse(reason, "digest failed") : r;
}

int password_matches(const uint8_t *auth, size_t auth_size, const uint8_t *data, size_t data_size,
		     const uint16_t *password, size_t chars, const char **reason)
{
	uint8_t digest[EVP_MAX_MD_SIZE], ascii[PASSWORD_MAX_CHARS];
	struct password_crypt pc;
	size_t digest_len;
	int r;

	if (chars == 0)
		return 0; /* whatever @auth holds: see password_typed_check() */
	if (password_typed_check(chars, reason) < 0)
		return -1;
	if (auth_size == PASSWORD_LEGACY_SIZE)
		return legacy_matches(auth, data, data_size, password, chars, reason);
	/* crypt(3) takes bytes: mokutil hashed what was typed, ASCII at the console */
	for (size_t i = 0; i < chars; i++) /* checked whole before any is copied */
		if (password[i] > 0x7e || password[i] < 0x20)
			return refuse(reason, "password is not printable ASCII");
	r = password_crypt_parse(auth, auth_size, &pc, reason);
	if (r == 0) {
		for (size_t i = 0; i < chars; i++)
			ascii[i] = (uint8_t)password[i];
		if (password_crypt_digest(&pc, ascii, chars, digest, &digest_len) < 0)
			r = refuse(reason, "digest failed");
		else
			r = CRYPTO_memcmp(digest, pc.hash, digest_len) == 0;
	}
	/* the typed password, its digest and the stored hash, on every way out */
	OPENSSL_cleanse(ascii, sizeof(ascii));
	OPENSSL_cleanse(digest, sizeof(digest));
	OPENSSL_cleanse(&pc, sizeof(pc));
	return r;
}
