// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The MOK manager's confirmation decisions: only the typed word "yes"
 * confirms; a state request's password is asked at three distinct
 * positions whatever the random input, and one too short for that is
 * refused.
 */
#include "mok_confirm.h"
#include "unit.h"

/* splitmix64: varied 64-bit inputs, the same on every run. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static bool answer_is_yes(const char *s)
{
	uint16_t typed[MOK_ANSWER_MAX_CHARS];
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++)
		typed[i] = (unsigned char)s[i];
	return confirm_answer_is_yes(typed, len);
}

static void test_answers(void)
{
	static const char *const refused[] = { "", "y", "Y", "ye", "yes ", " yes", "yess", "no",
					       "YES", "Yes", "n", "\r" };

	CHECK(answer_is_yes("yes"), "\"yes\" confirms");
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		CHECK(!answer_is_yes(refused[i]), unit_name("\"%s\" does not confirm", refused[i]));
}

/* For each length, many random inputs: three distinct positions inside the password. */
static void test_positions_distinct(void)
{
	uint64_t state = 1;

	for (size_t len = MOK_POSITIONS_ASKED; len <= 16; len++) {
		unsigned seen_at[16] = { 0 };
		bool distinct = true, inside = true, all_seen = true;
		size_t pos[MOK_POSITIONS_ASKED];
		const char *why;

		for (int n = 0; n < 2000; n++) {
			if (password_positions_pick(len, next_random(&state), pos, &why) < 0) {
				inside = false;
				break;
			}
			for (int i = 0; i < MOK_POSITIONS_ASKED; i++) {
				inside &= pos[i] < len;
				if (pos[i] < len)
					seen_at[pos[i]] |= 1u << i;
			}
			distinct &= pos[0] != pos[1] && pos[0] != pos[2] && pos[1] != pos[2];
		}
		for (size_t p = 0; p < len; p++)
			all_seen &= seen_at[p] == 7; /* asked first, second and third */
		CHECK(inside, unit_name("length %zu: positions inside the password", len));
		CHECK(distinct, unit_name("length %zu: three distinct positions", len));
		CHECK(all_seen, unit_name("length %zu: every position asked in every place", len));
	}
}

static void test_positions_edges(void)
{
	static const uint64_t extremes[] = { 0, 1, 0xffffffffffffffffULL, 0x8000000000000000ULL };
	size_t pos[MOK_POSITIONS_ASKED];
	unsigned orders_seen = 0;
	uint64_t state = 7;
	const char *why;

	for (size_t i = 0; i < sizeof(extremes) / sizeof(extremes[0]); i++)
		for (size_t len = MOK_POSITIONS_ASKED; len <= 16; len++)
			CHECK(password_positions_pick(len, extremes[i], pos, &why) == 0 &&
				      pos[0] != pos[1] && pos[0] != pos[2] && pos[1] != pos[2],
			      unit_name("random %#llx, length %zu: distinct positions",
					(unsigned long long)extremes[i], len));
	/* three characters: the six orders all come up */
	for (int n = 0; n < 200; n++)
		if (password_positions_pick(3, next_random(&state), pos, &why) == 0)
			orders_seen |= 1u << (pos[0] * 3 + pos[1]);
	CHECK_EQ(__builtin_popcount(orders_seen), 6, "length 3: all six orders asked");

	/* too short for three distinct positions, or longer than a state request holds */
	for (size_t len = 0; len < MOK_POSITIONS_ASKED; len++) {
		why = NULL;
		CHECK(password_positions_pick(len, 12345, pos, &why) < 0 && why &&
			      strstr(why, "shorter than 3"),
		      unit_name("length %zu refused: too short to ask three positions", len));
	}
	why = NULL;
	CHECK(password_positions_pick(17, 12345, pos, &why) < 0 && why,
	      "length 17 refused: longer than a state request holds");
}

int main(void)
{
	test_answers();
	test_positions_distinct();
	test_positions_edges();
	UNIT_EXIT();
}
