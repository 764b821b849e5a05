/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * What the MOK manager takes as the owner's confirmation at the console:
 * the typed word "yes" after seeing what a request will do (a default, a
 * single key or a timeout never gives it), and, for a state request, its
 * password's characters at distinct positions drawn from random input.
 */
#ifndef LOCKSHIM_MOK_CONFIRM_H
#define LOCKSHIM_MOK_CONFIRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Characters of a state request's password asked per attempt, as shim does. */
#define MOK_POSITIONS_ASKED 3
/* Longest answer read at the yes prompt: "yes" and room to see it was not. */
#define MOK_ANSWER_MAX_CHARS 16

/* Is the typed answer (UCS-2, @len characters) exactly "yes"? */
bool confirm_answer_is_yes(const uint16_t *typed, size_t len);

/*
 * Choose MOK_POSITIONS_ASKED distinct positions (0-based) in a password of
 * @password_len characters from the 64 random bits @random, into
 * @positions. A password shorter than MOK_POSITIONS_ASKED (or longer than a
 * state request holds) is refused: its characters could not be asked at
 * distinct positions. Returns 0, or -1 with a reason.
 */
int password_positions_pick(size_t password_len, uint64_t random,
			    size_t positions[MOK_POSITIONS_ASKED], const char **reason);

#endif
