// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mok_list.h"

#include <stdbool.h>
#include <string.h>

#include <openssl/crypto.h>

#include "buffer.h"
#include "reason.h"
#include "signature_list.h"

struct entries {
	struct esl_entry *items;
	size_t count, capacity;
};

static int collect(const struct esl_entry *e, void *ctx)
{
	struct entries *list = ctx;

	if (buffer_reserve_one((void **)&list->items, &list->capacity, list->count,
			       sizeof(*list->items)) < 0)
		return -1;
	list->items[list->count++] = *e;
	return 0;
}

/* All entries of @data, which must be entirely valid. */
static int collect_all(const uint8_t *data, size_t size, struct entries *list, const char *what,
		       const char **reason)
{
	int r = esl_walk(data, size, collect, list, reason);

	if (r > 0)
		return refuse(reason, what);
	if (r < 0) /* collect could not grow the list */
		return refuse(reason, "out of memory");
	return 0;
}

static bool contains(const struct entries *list, const struct esl_entry *e)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->items[i].type == e->type && list->items[i].size == e->size &&
		    memcmp(list->items[i].data, e->data, e->size) == 0)
			return true;
	return false;
}

/* What rewrite_list needs: the request's entries and the list being written. */
struct rewrite {
	enum mok_list_op op;
	const struct entries *requested;
	uint8_t **out;
	size_t *out_size;
	size_t *changed;
};

static bool not_requested(const struct esl_entry *e, void *ctx)
{
	return !contains(ctx, e);
}

/* Copy one current list: whole, or (MOK_LIST_DELETE) less the requested entries. */
static int rewrite_list(const struct esl_list *list, void *ctx)
{
	struct rewrite *rw = ctx;
	size_t dropped;

	if (esl_append_list(list, rw->op == MOK_LIST_DELETE ? not_requested : NULL,
			    (void *)rw->requested, rw->out, rw->out_size, &dropped) < 0)
		return -1;
	*rw->changed += dropped;
	return 0;
}

int mok_list_apply(enum mok_list_op op, const uint8_t *list, size_t list_size,
		   const uint8_t *request, size_t request_size, uint8_t **out, size_t *out_size,
		   size_t *changed, const char **reason)
{
	struct entries current = { 0 }, requested = { 0 };
	struct rewrite rw = { op, &requested, out, out_size, changed };
	const char *ignored;
	int r = -1;

	*out = NULL;
	*out_size = 0;
	*changed = 0;
	if (collect_all(list, list_size, &current, "the current list is malformed", reason) < 0 ||
	    collect_all(request, request_size, &requested, "the request is malformed", reason) < 0)
		goto out_free_entries;
	if (requested.count == 0) {
		r = refuse(reason, "the request holds no entries");
		goto out_free_entries;
	}

	/* every list of the current one, all of them well-formed (collect_all) */
	if (esl_walk_lists(list, list_size, rewrite_list, &rw, &ignored) != 0)
		goto out_free_result;
	for (size_t i = 0; op == MOK_LIST_ENROLL && i < requested.count; i++) {
		/* the request itself may name one key twice */
		if (contains(&current, &requested.items[i]))
			continue;
		if (esl_append_entry(&requested.items[i], out, out_size) < 0)
			goto out_free_result;
		if (collect(&requested.items[i], &current) < 0)
			goto out_free_result;
		(*changed)++;
	}
	r = 0;
	goto out_free_entries;
out_free_result:
	r = refuse(reason, "out of memory");
	OPENSSL_free(*out);
	*out = NULL;
	*out_size = 0;
out_free_entries:
	OPENSSL_free(current.items);
	OPENSSL_free(requested.items);
	return r;
}

int mok_list_apply_read(enum mok_list_op op, const struct mok_list_read *current,
			const uint8_t *request, size_t request_size, uint8_t **out,
			size_t *out_size, size_t *changed, bool *os_written, const char **reason)
{
	*os_written = current->data &&
		      !variable_attributes_trusted(&variables[current->list], current->attributes);
	if (*os_written)
		return mok_list_apply(op, NULL, 0, request, request_size, out, out_size, changed,
				      reason);
	return mok_list_apply(op, current->data, current->size, request, request_size, out,
			      out_size, changed, reason);
}
