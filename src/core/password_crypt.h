/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * MOK passwords: the PASSWORD_CRYPT structure mokutil writes to MokAuth,
 * MokDelAuth, MokXAuth, MokXDelAuth and MokPW (rhboot/shim's format), and
 * the crypt(3) algorithms that check a typed password against it.
 *
 *   struct { u16 method; u64 iterations; u16 salt_size; u8 salt[32]; u8 hash[128]; } packed
 *
 * hash holds the raw crypt digest (not crypt's base64 text). The legacy
 * form is a bare 32-byte SHA-256 over the request data and the password's
 * UCS-2 characters.
 */
#ifndef LOCKSHIM_PASSWORD_CRYPT_H
#define LOCKSHIM_PASSWORD_CRYPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PASSWORD_CRYPT_SIZE  172
#define PASSWORD_LEGACY_SIZE 32
#define PASSWORD_MAX_CHARS   256

enum password_method {
	PASSWORD_DES = 0,
	PASSWORD_BSDI_DES = 1,
	PASSWORD_MD5 = 2,
	PASSWORD_SHA256 = 3,
	PASSWORD_SHA512 = 4,
	PASSWORD_BLOWFISH = 5,
};

struct password_crypt {
	uint16_t method;
	uint64_t iterations;
	uint16_t salt_size;
	uint8_t salt[32];
	uint8_t hash[128];
};

/*
 * Decode a PASSWORD_CRYPT of @size bytes. Refuses methods lockshim cannot
 * check (DES, BSDI DES, Blowfish), salts longer than the method allows, and
 * round counts outside crypt(3)'s range. Returns 0, or -1 with a reason.
 */
int password_crypt_parse(const uint8_t *data, size_t size, struct password_crypt *pc,
			 const char **reason);

/*
 * The raw crypt digest of @password (@len bytes) with @pc's method, salt and
 * rounds, into @out (64 bytes at most); its length in *@out_len. 0 or -1.
 */
int password_crypt_digest(const struct password_crypt *pc, const uint8_t *password, size_t len,
			  uint8_t *out, size_t *out_len);

/*
 * May a password typed at the console be checked at all? 0, or -1 with a
 * reason: never an empty one (shim refuses it too: a bare Enter must not
 * confirm a request made with crypt("") or the legacy hash over the request
 * alone), nor one longer than PASSWORD_MAX_CHARS.
 */
int password_typed_check(size_t chars, const char **reason);

/*
 * Does the typed password (UCS-2, @chars characters) match @auth, a MokAuth
 * style variable of @auth_size bytes, for the request @data of @data_size
 * bytes (used only by the legacy form)? Returns 1 match, 0 mismatch, -1 with
 * a reason when @auth cannot be used. An empty password never matches.
 * Constant-time comparison.
 */
int password_matches(const uint8_t *auth, size_t auth_size, const uint8_t *data, size_t data_size,
		     const uint16_t *password, size_t chars, const char **reason);

#endif
