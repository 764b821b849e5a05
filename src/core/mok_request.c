// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mok_request.h"

#include <string.h>

#include <openssl/crypto.h>

#include "reason.h"
#include "safe_math.h"

static int state_request_decode(const uint8_t *data, size_t size, struct mok_state_request *req,
				const char **reason)
{
	uint32_t length;

	memset(req, 0, sizeof(*req));
	if (size != MOK_STATE_REQUEST_SIZE)
		return refuse(reason, "state request has the wrong size");
	req->state = read_le32(data);
	length = read_le32(data + 4);
	if (req->state > 1)
		return refuse(reason, "state request asks for an unknown state");
	if (length == 0 || length > MOK_STATE_PASSWORD_MAX)
		return refuse(reason, "state request password length out of range");
	for (uint32_t i = 0; i < length; i++) {
		uint16_t c = read_le16(data + 8 + 2 * i);

		if (c == 0)
			break;
		if (c < 0x20 || c > 0x7e)
			return refuse(reason, "state request password is not printable ASCII");
		req->password[req->password_len++] = c;
	}
	if (req->password_len == 0)
		return refuse(reason, "state request password is empty");
	if (req->password_len < MOK_STATE_PASSWORD_MIN)
		return refuse(reason, "state request password shorter than 3 characters");
	return 0;
}

int mok_state_request_parse(const uint8_t *data, size_t size, struct mok_state_request *req,
			    const char **reason)
{
	if (state_request_decode(data, size, req, reason) == 0)
		return 0;
	/* what was copied of the password before the refusal is not left behind */
	mok_state_request_wipe(req);
	return -1;
}

void mok_state_request_wipe(struct mok_state_request *req)
{
	OPENSSL_cleanse(req, sizeof(*req));
}
