// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "what_if.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "buffer.h"
#include "dbx_revocation.h"
#include "file.h"
#include "json.h"
#include "policy_args.h"
#include "sbat.h"
#include "sbat_level.h"
#include "sbat_level_arg.h"
#include "signature_list.h"
#include "variable_data.h"
#include "variables.h"

/* The list of @m a KEK, db or dbx update changes. */
static struct blob *updated_list(struct machine_state *m, enum variable_id id)
{
	switch (id) {
	case VAR_KEK:
		return &m->kek;
	case VAR_DB:
		return &m->db;
	case VAR_DBX:
		return &m->dbx;
	default:
		return NULL;
	}
}

/*
 * A recorded dbx update given by its name (dbx_warning.h): what it adds,
 * the revoked CA's certificate as this machine's db holds it. Without it
 * in db, it revokes nothing db trusts: dbx as it is, said.
 */
static int apply_revocation(const struct dbx_revocation *r, bool replace, struct machine_state *m)
{
	uint8_t *payload = NULL;
	size_t size = 0;

	if (dbx_revocation_payload(r, &m->db, &payload, &size) < 0)
		return -1;
	if (!size) {
		say_error("%s: db holds no certificate it revokes: dbx stays as it is", r->name);
		return 0;
	}
	if (replace) {
		OPENSSL_free(m->dbx.data);
		m->dbx = (struct blob){ 0 };
	}
	m->dbx.present = true;
	if (buffer_append(&m->dbx.data, &m->dbx.size, payload, size) < 0) {
		OPENSSL_free(payload);
		say_error("out of memory");
		return -1;
	}
	OPENSSL_free(payload);
	return 0;
}

/* An update (struct list_update), appended to its list or replacing it. */
static int apply_list_update(const struct list_update *u, struct machine_state *m)
{
	struct blob *list = updated_list(m, u->variable);
	const char *path = u->path;
	const uint8_t *payload;
	size_t size, payload_size;
	struct reason_buf why_buf;
	struct dbx_revocation revocation;
	enum list_form form;
	uint32_t attributes;
	const char *reason;
	uint8_t *data;
	int r = -1;

	if (u->variable == VAR_DBX && dbx_revocation_find(path, &revocation) == 1)
		return apply_revocation(&revocation, u->replace, m);
	if (read_file(path, &data, &size) < 0)
		return -1;
	if (signature_lists_in(data, size, &form, &payload, &payload_size, &attributes, &reason,
			       &why_buf) < 0) {
		say_error("%s: malformed update: %s", path, reason);
		goto out;
	}
	if (!payload_size) {
		say_error("%s: malformed update: empty", path);
		goto out;
	}
	if (u->replace) {
		OPENSSL_free(list->data);
		*list = (struct blob){ 0 };
	}
	list->present = true;
	if (buffer_append(&list->data, &list->size, payload, payload_size) < 0) {
		say_error("out of memory");
		goto out;
	}
	r = 0;
out:
	free(data);
	return r;
}

static int apply_sbat_level(const char *arg, struct machine_state *m)
{
	struct reason_buf why_buf;
	struct sbat level;
	const char *why;
	uint8_t *data;
	size_t size;

	if (strcmp(arg, "latest") == 0 || strcmp(arg, "automatic") == 0) {
		m->sbat_policy = arg[0] == 'l' ? SBAT_POLICY_LATEST : SBAT_POLICY_AUTOMATIC;
		return 0;
	}
	if (sbat_level_arg_read(arg, &data, &size) < 0)
		return -1;
	if (sbat_parse(data, size, SBAT_LEVEL, &level, &why, &why_buf) < 0) {
		say_error("%s: not a usable SbatLevel: %s", arg, why);
		free(data);
		return -1;
	}
	OPENSSL_free(m->sbat_level.data);
	m->sbat_level = (struct blob){ true, NULL, 0 };
	if (buffer_append(&m->sbat_level.data, &m->sbat_level.size, data, size) < 0) {
		say_error("out of memory");
		free(data);
		return -1;
	}
	free(data);
	m->sbat_policy = SBAT_POLICY_NONE;
	return 0;
}

/* The certificates to delete: a signature list as policy_cert_file_bytes makes of a file. */
struct mok_delete {
	const uint8_t *esl;
	size_t size;
};

/* esl_walk's visitor: 1 (stop) when @e is the certificate @ctx points at. */
static int same_cert(const struct esl_entry *e, void *ctx)
{
	const struct esl_entry *wanted = ctx;

	return e->type == ESL_X509 && e->size == wanted->size &&
	       memcmp(e->data, wanted->data, e->size) == 0;
}

static bool keep_unless_deleted(const struct esl_entry *e, void *ctx)
{
	const struct mok_delete *d = ctx;
	const char *reason;

	return e->type != ESL_X509 || esl_walk(d->esl, d->size, same_cert, (void *)e, &reason) != 1;
}

struct list_rebuild {
	struct mok_delete del;
	uint8_t *data;
	size_t size, dropped;
	int failed;
};

static int rebuild_list(const struct esl_list *list, void *ctx)
{
	struct list_rebuild *r = ctx;
	size_t dropped = 0;

	if (esl_append_list(list, keep_unless_deleted, &r->del, &r->data, &r->size, &dropped) < 0)
		return r->failed = -1;
	r->dropped += dropped;
	return 0;
}

/* MokList without the certificates of the file at @path (mokutil --delete). */
static int apply_mok_delete(const char *path, struct machine_state *m)
{
	struct list_rebuild r = { 0 };
	uint8_t *certs = NULL;
	size_t size = 0;
	const char *reason = "";
	int rejected = 0;

	if (policy_cert_file_bytes(path, &certs, &size) < 0)
		return -1;
	r.del = (struct mok_delete){ certs, size };
	if (m->mok_list.present)
		rejected = esl_walk_lists(m->mok_list.data, m->mok_list.size, rebuild_list, &r,
					  &reason);
	OPENSSL_free(certs);
	if (rejected != 0) {
		say_error("%s cannot be rewritten: %s", variables[VAR_MOK_LIST_RT].name,
			  r.failed ? "out of memory" : reason);
		OPENSSL_free(r.data);
		return -1;
	}
	if (!r.dropped) {
		say_error("%s: not in %s: nothing to delete", path, variables[VAR_MOK_LIST].name);
		OPENSSL_free(r.data);
		return -1;
	}
	OPENSSL_free(m->mok_list.data);
	m->mok_list = (struct blob){ r.data != NULL, r.data, r.size };
	return 0;
}

int what_if_apply(const struct what_if *a, struct machine_state *m)
{
	for (size_t i = 0; i < a->n_updates; i++)
		if (apply_list_update(&a->updates[i], m) < 0)
			return -1;
	if (a->sbat_level && apply_sbat_level(a->sbat_level, m) < 0)
		return -1;
	for (size_t i = 0; i < a->n_import; i++) {
		if (policy_cert_file_bytes(a->mok_import[i], &m->mok_list.data, &m->mok_list.size) <
		    0)
			return -1;
		m->mok_list.present = true;
	}
	for (size_t i = 0; i < a->n_delete; i++)
		if (apply_mok_delete(a->mok_delete[i], m) < 0)
			return -1;
	return 0;
}

bool what_if_given(const struct what_if *a)
{
	return a->n_updates || a->sbat_level || a->n_import || a->n_delete;
}

void what_if_store_print(const struct machine_state *today, const struct machine_state *after,
			 bool json)
{
	/* every NV variable shares one store: weighed with NV|BS|RT, which shim names alike */
	const struct variable_store_space *room = &today->store[STORE_BS_NV_RT];
	const struct {
		enum variable_id id;
		const struct blob *before, *after;
	} lists[] = {
		{ VAR_KEK, &today->kek, &after->kek },
		{ VAR_DB, &today->db, &after->db },
		{ VAR_DBX, &today->dbx, &after->dbx },
		{ VAR_MOK_LIST, &today->mok_list, &after->mok_list },
	};
	bool first = true;

	if (json) {
		json_print_key("variable_store", true);
		printf("{\"known\": %s, \"max_storage\": %llu, \"remaining\": %llu, "
		       "\"max_variable\": %llu, \"updates\": [",
		       room->known ? "true" : "false", (unsigned long long)room->max_storage,
		       (unsigned long long)room->remaining, (unsigned long long)room->max_variable);
	}
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const struct blob *b = lists[i].before, *a = lists[i].after;
		uint64_t need = 0;
		bool fits;

		if (b->size == a->size && (!a->size || !memcmp(a->data, b->data, a->size)))
			continue;
		fits = room->known && variable_store_fits(room, b->size, a->size, &need);
		if (json) {
			printf("%s{", first ? "" : ", ");
			json_print_key("variable", false);
			json_print_string(variables[lists[i].id].name);
			printf(", \"size_before\": %zu, \"size_after\": %zu, \"fits\": %s}",
			       b->size, a->size,
			       !room->known ? "null" :
			       fits         ? "true" :
					      "false");
		} else if (!room->known) {
			printf("%s: %zu -> %zu bytes; the variable store's room is unknown (the loader "
			       "handed over no VariableInfo)\n",
			       variables[lists[i].id].name, b->size, a->size);
		} else if (fits) {
			printf("%s: %zu -> %zu bytes: fits the variable store (%llu more of %llu left)\n",
			       variables[lists[i].id].name, b->size, a->size,
			       (unsigned long long)need, (unsigned long long)room->remaining);
		} else {
			printf("%s: %zu -> %zu bytes: does not fit the variable store (%llu more, %llu "
			       "left; at most %llu a variable): the firmware will refuse the update\n",
			       variables[lists[i].id].name, b->size, a->size,
			       (unsigned long long)need, (unsigned long long)room->remaining,
			       (unsigned long long)room->max_variable);
		}
		first = false;
	}
	if (json)
		printf("]}");
}
