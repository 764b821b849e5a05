/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Applying MOK requests to MokList / MokListX: the new list is computed
 * whole, so the MOK manager can write it with one SetVariable (a power cut
 * leaves the old list or the new one, never a mix).
 */
#ifndef LOCKSHIM_MOK_LIST_H
#define LOCKSHIM_MOK_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "variables.h"

enum mok_list_op {
	MOK_LIST_ENROLL, /* add the request's entries not already present */
	MOK_LIST_DELETE, /* remove the entries equal to the request's */
};

/*
 * The list that results from applying @request (EFI_SIGNATURE_LISTs, as
 * mokutil writes MokNew/MokDel) to @list (the current variable, possibly
 * empty). Refuses a malformed request, and a malformed current list (its
 * entries could not all be carried over: nothing enrolled may be lost).
 * Entries are compared by type and data; owners are kept. Every list of
 * the current one that the request does not change is kept byte for byte,
 * lists of types lockshim does not know included (shim, or a newer
 * lockshim, may have written them: a revocation must not be lost); a list
 * that loses entries keeps its header and its other entries, in order, and
 * goes when it loses them all; new entries follow, one list each. A
 * request's lists of unknown types are not enrolled. Returns 0 with an
 * OPENSSL_malloc'd result (NULL when empty) and the number of entries
 * changed, or -1 with a reason.
 */
int mok_list_apply(enum mok_list_op op, const uint8_t *list, size_t list_size,
		   const uint8_t *request, size_t request_size, uint8_t **out, size_t *out_size,
		   size_t *changed, const char **reason);

/* An owner list (MokList, MokListX) as the MOK manager read it; @data NULL: absent. */
struct mok_list_read {
	enum variable_id list;
	const uint8_t *data;
	size_t size;
	uint32_t attributes;
};

/*
 * mok_list_apply to @current, a list read through the owner-variable check:
 * with other attributes than the MOK manager's (variables.c) an OS wrote
 * it, so none of its entries is carried over, the result starts from no
 * list and *@os_written is set (the caller deletes it before writing; it is
 * in the way of the manager's write).
 */
int mok_list_apply_read(enum mok_list_op op, const struct mok_list_read *current,
			const uint8_t *request, size_t request_size, uint8_t **out,
			size_t *out_size, size_t *changed, bool *os_written, const char **reason);

#endif
