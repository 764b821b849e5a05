/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The MOK manager's variables, all of the shim GUID: the requests mokutil
 * leaves (read and deleted at once), and the lists, states and password
 * the manager writes.
 */
#ifndef LOCKSHIM_MM_H
#define LOCKSHIM_MM_H

#include <efi.h>

#include "variables.h"

/*
 * mokutil writes its requests NV|BS|RT: a request with other attributes is
 * ignored. What the manager writes is NV|BS: no OS can have written it.
 * Both are the table's (variables.c).
 */
/* Seconds the console waits for each key at a prompt or menu. */
#define KEY_TIMEOUT 60

/* A variable as read, in pool memory. */
struct mok_variable {
	void *data;
	UINTN size;
	UINT32 attributes;
	BOOLEAN present; /* a request: there and usable */
	BOOLEAN seen;    /* a request: there, usable or not */
};

/* Read @name (EFI_NOT_FOUND when absent); release with mm_variable_free(). */
EFI_STATUS mm_variable_read(enum variable_id id, struct mok_variable *variable);

/*
 * Read @id, which only the manager writes (NV|BS). One with other
 * attributes was written by an OS (lockshim deletes it when it can): it is
 * said on the console and taken as absent, EFI_NOT_FOUND.
 */
EFI_STATUS mm_owner_variable_read(enum variable_id id, struct mok_variable *variable);

/*
 * Wipe and free what @variable holds (requests carry passwords, MokSB's and
 * MokDB's in clear) and leave it empty; also its cleanup function.
 */
void mm_variable_free(struct mok_variable *variable);

/*
 * Read the request @id and delete it at once, so it is never replayed;
 * one whose attributes are not mokutil's is not present.
 */
void mm_request_take(enum variable_id id, struct mok_variable *request);

/* Write @id whole, with the table's attributes (NV|BS), in one call; @size 0 deletes it. */
EFI_STATUS mm_variable_write(enum variable_id id, const void *data, UINTN size);

#endif
