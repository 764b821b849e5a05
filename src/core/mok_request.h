/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * MOK state requests as mokutil writes them (MokSB, MokDB,
 * MokListTrustedNew): { u32 state; u32 password_length; u16 password[16]; },
 * 40 bytes, the password in clear UCS-2; the owner confirms by typing
 * characters of it at the console.
 */
#ifndef LOCKSHIM_MOK_REQUEST_H
#define LOCKSHIM_MOK_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#define MOK_STATE_REQUEST_SIZE 40
#define MOK_STATE_PASSWORD_MAX 16
/* Three characters are asked at distinct positions (mok_confirm.h); mokutil makes 8 to 16. */
#define MOK_STATE_PASSWORD_MIN 3

struct mok_state_request {
	uint32_t state; /* MokSB: 0 disable validation, 1 enable; MokDB: 0 ignore db */
	uint16_t password[MOK_STATE_PASSWORD_MAX];
	size_t password_len; /* the characters actually stored (see below) */
};

/*
 * Decode a state request of @size bytes. mokutil 0.6.0 stores at most 15
 * characters and a NUL even when it records a length of 16, so the stored
 * password ends at the first NUL within the recorded length; the bytes
 * after it are never read. A password shorter than MOK_STATE_PASSWORD_MIN
 * is refused. Returns 0, or -1 with a reason and @req wiped.
 */
int mok_state_request_parse(const uint8_t *data, size_t size, struct mok_state_request *req,
			    const char **reason);

/* Wipe @req, which holds a password in clear (OPENSSL_cleanse: never optimized away). */
void mok_state_request_wipe(struct mok_state_request *req);

#endif
