/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The MOK manager's console prompts: the owner confirms a request with its
 * password, or with characters of it, after seeing what it will do and
 * typing yes. An empty password is never accepted. Each prompt waits
 * KEY_TIMEOUT seconds for a key; no answer refuses.
 */
#ifndef LOCKSHIM_MM_PROMPT_H
#define LOCKSHIM_MM_PROMPT_H

#include <efi.h>

#include "mm.h"
#include "mok_request.h"

/*
 * Up to PASSWORD_TRIES attempts at the password in @auth (a MokAuth-style
 * PASSWORD_CRYPT; @request, or NULL, is what a legacy hash covers).
 * EFI_SUCCESS when typed right; the refusal, already logged, otherwise.
 */
EFI_STATUS mm_confirm_with_password(const char *title, const struct mok_variable *auth,
				    const struct mok_variable *request);

/*
 * Up to PASSWORD_TRIES attempts at three characters of @req's password, at
 * distinct random positions (lib/efi/efi_random.h), new ones each attempt.
 * EFI_SUCCESS when all are right.
 */
EFI_STATUS mm_confirm_with_characters(const char *title, const struct mok_state_request *req);

/*
 * Ask "@question? Type 'yes' to continue: ", once what it is about has
 * been shown. EFI_SUCCESS only for the typed word yes; Enter alone, any
 * other answer, Escape or no answer refuses @title (logged).
 */
EFI_STATUS mm_confirm_typed_yes(const char *title, const char *question);

/*
 * Show each key and hash of the signature lists at @data. Returns
 * esl_walk()'s result: non-zero, with *@reason (when not NULL), for lists
 * that are malformed past what was shown.
 */
int mm_signature_lists_show(const void *data, UINTN size, const char **reason);

#endif
