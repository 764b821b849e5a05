// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mok_confirm.h"

#include "mok_request.h"
#include "reason.h"

/* every state request mok_state_request_parse() accepts can be asked */
_Static_assert(MOK_STATE_PASSWORD_MIN >= MOK_POSITIONS_ASKED, "state passwords too short");

bool confirm_answer_is_yes(const uint16_t *typed, size_t len)
{
	return len == 3 && typed[0] == 'y' && typed[1] == 'e' && typed[2] == 's';
}

int password_positions_pick(size_t password_len, uint64_t random,
			    size_t positions[MOK_POSITIONS_ASKED], const char **reason)
{
	size_t left[MOK_STATE_PASSWORD_MAX];

	if (password_len < MOK_POSITIONS_ASKED)
		return refuse(reason, "state request password shorter than 3 characters");
	if (password_len > MOK_STATE_PASSWORD_MAX)
		return refuse(reason, "state request password longer than 16 characters");
	for (size_t i = 0; i < password_len; i++)
		left[i] = i;
	/*
	 * A partial Fisher-Yates shuffle: each position is drawn from those
	 * not yet asked, so the three are distinct. At most 16 * 15 * 14
	 * outcomes from 64 bits: the bias of the remainders is below 2^-50.
	 */
	for (size_t i = 0; i < MOK_POSITIONS_ASKED; i++) {
		size_t n = password_len - i, k = i + (size_t)(random % n), chosen = left[k];

		random /= n;
		left[k] = left[i];
		left[i] = chosen;
		positions[i] = chosen;
	}
	return 0;
}
