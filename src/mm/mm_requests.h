/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The requests mokutil leaves, in rhboot/shim's names and formats, and how
 * the MOK manager serves each once it has been read (mm_request_take):
 * shown, confirmed by the owner at the console (the typed word yes, then
 * the request's password or characters of it), then carried out. Each
 * handler returns TRUE when it changed a variable, so the machine reboots.
 */
#ifndef LOCKSHIM_MM_REQUESTS_H
#define LOCKSHIM_MM_REQUESTS_H

#include <efi.h>

#include "mm.h"
#include "mok_list.h"

/* A change to MokList or MokListX, confirmed with the password in its auth variable. */
struct key_request {
	enum variable_id request, auth, list;
	enum mok_list_op op;
	const char *title;
	const char *question; /* asked, to be answered yes, once the entries are shown */
};

/* The key requests, in the order they are served: indexes into mm_key_requests[]. */
enum key_request_index {
	KEY_ENROLL_MOK,  /* MokNew; its MokAuth alone asks for a reset */
	KEY_DELETE_MOK,  /* MokDel */
	KEY_ENROLL_MOKX, /* MokXNew */
	KEY_DELETE_MOKX, /* MokXDel */
	KEY_REQUESTS
};

extern const struct key_request mm_key_requests[KEY_REQUESTS];

/* A one-byte state variable set or cleared, confirmed with characters of a password. */
struct state_request {
	enum variable_id request, state;
	const char *titles[2];  /* for state 0 and state 1 */
	const char *effects[2]; /* what each will change, in one line */
};

/* The state requests, in the order they are served: indexes into mm_state_requests[]. */
enum state_request_index {
	STATE_MOK_SB,           /* MokSB: Secure Boot validation */
	STATE_MOK_DB,           /* MokDB: db for kernels */
	STATE_MOK_LIST_TRUSTED, /* MokListTrustedNew: MOK keys in the machine keyring */
	STATE_REQUESTS
};

extern const struct state_request mm_state_requests[STATE_REQUESTS];

/* MokNew, MokDel, MokXNew or MokXDel (@request) with its @auth. */
BOOLEAN mm_key_request_serve(const struct key_request *kr, const struct mok_variable *request,
			     const struct mok_variable *auth);

/*
 * Apply the confirmed signature lists @request to @kr's list, written whole.
 * TRUE when the list changed.
 */
BOOLEAN mm_key_request_apply(const struct key_request *kr, const void *request, UINTN request_size);

/* MokAuth without MokNew (mokutil --reset): clear MokList. */
BOOLEAN mm_reset_request_serve(const struct mok_variable *auth);

/* MokSB, MokDB or MokListTrustedNew. */
BOOLEAN mm_state_request_serve(const struct state_request *sr, const struct mok_variable *request);

/* MokPW (mokutil --password, --clear-password). */
BOOLEAN mm_password_request_serve(const struct mok_variable *request);

#endif
