// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "mok_pending.h"

#include <stdio.h>
#include <string.h>

#include <openssl/x509.h>

#include "efivars.h"
#include "file.h"
#include "json.h"
#include "macro.h"
#include "mok_request.h"
#include "signature_list.h"

static int describe_entry(const struct esl_entry *e, void *ctx)
{
	char *out = ctx;
	size_t len = strlen(out);
	char subject[200] = "";

	if (e->type == ESL_X509) {
		esl_entry_subject(e, subject, sizeof(subject));
	} else {
		for (size_t i = 0; i < e->size && i < 32; i++)
			snprintf(subject + 2 * i, sizeof(subject) - 2 * i, "%02x", e->data[i]);
	}
	snprintf(out + len, 600 - len, "%s%s %s", len ? "; " : "", esl_type_name(e->type), subject);
	return 0;
}

/*
 * The requests mokutil leaves for the MOK manager (the table's), with what
 * each would change: a key list's @effect names the list, a state
 * request's (mok_request.h) says what its state 0 and 1 do.
 */
static const struct {
	enum variable_id id;
	const char *effect[2]; /* %s: the variable it changes */
} requests[] = {
	{ VAR_MOK_NEW, { "adds to %s" } },
	{ VAR_MOK_DEL, { "deletes from %s" } },
	{ VAR_MOK_X_NEW, { "adds to %s" } },
	{ VAR_MOK_X_DEL, { "deletes from %s" } },
	{ VAR_MOK_SB,
	  { "turns validation off (%s set)", "turns validation back on (%s cleared)" } },
	{ VAR_MOK_DB,
	  { "stops trusting db for kernels (%s set)",
	    "trusts db for kernels again (%s cleared)" } },
	{ VAR_MOK_PW, { "sets or clears the MOK password (%s)" } },
	{ VAR_MOK_LIST_TRUSTED_NEW,
	  { "lets the kernel trust MOK keys in its machine keyring (%s set)",
	    "stops the kernel trusting MOK keys in its machine keyring (%s cleared)" } },
	{ VAR_SBAT_POLICY, { "asks for another SbatLevel at the next boot" } },
};

/*
 * The table's mokutil commands of @var (variables.h) into @out: the one of
 * state @state for a state request, else all, said as alternatives.
 */
static void mokutil_option(const struct variable *var, int state, char *out, size_t size)
{
	const char *p = var->mokutil ? var->mokutil : "";
	size_t n = 0, len;

	out[0] = '\0';
	for (int i = 0;; i++) {
		len = strcspn(p, "|");
		if (state < 0 || state == i)
			n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s%.*s",
					      n ? " or " : "", (int)len, p);
		if (!p[len] || n >= size)
			break;
		p += len + 1;
	}
}

/*
 * What @v (request @i) would change into @effect and @option (its mokutil
 * option), its keys into @what. Returns 0, or -1 having said why it cannot
 * be read (the MOK manager refuses it too).
 */
static int request_describe(size_t i, const struct efivar *v, char *effect, size_t effect_size,
			    char *option, size_t option_size, char *what)
{
	const struct variable *var = &variables[requests[i].id];
	const char *changes = var->changes ? var->changes->name : "";
	struct mok_state_request req;
	const char *reason;
	size_t state = 0;

	if (requests[i].effect[1]) {
		if (mok_state_request_parse(v->data, v->size, &req, &reason) < 0) {
			say_error("%s: malformed request: %s", v->source, reason);
			return -1;
		}
		state = req.state;
		mok_state_request_wipe(&req); /* its password in clear */
	} else if (var->changes && var->changes->role == ROLE_OWNER_LIST &&
		   esl_walk(v->data, v->size, describe_entry, what, &reason) > 0) {
		say_error("%s: malformed request: %s", v->source, reason);
		return -1;
	}
	snprintf(effect, effect_size, requests[i].effect[state], changes);
	/* a key request's data does not tell which of its commands wrote it */
	mokutil_option(var, requests[i].effect[1] ? (int)state : -1, option, option_size);
	return 0;
}

int mok_pending_print(const char *efivars, bool json)
{
	size_t shown = 0;

	for (size_t i = 0; i < ARRAY_SIZE(requests); i++) {
		const char *name = variables[requests[i].id].name;
		char what[600] = "", effect[200], option[64];
		struct efivar v;
		int r;

		/* one with other attributes than mokutil's is said and ignored, as the manager does */
		if (efivar_read_var(efivars, requests[i].id, NULL, &v) < 0)
			return -1;
		if (!v.present)
			continue;
		r = request_describe(i, &v, effect, sizeof(effect), option, sizeof(option), what);
		efivar_free(&v);
		if (r < 0)
			return -1;
		if (json) {
			printf("%s{", shown ? ", " : "");
			json_print_key("variable", false);
			json_print_string(name);
			json_print_key("mokutil", true);
			json_print_string(option);
			json_print_key("effect", true);
			json_print_string(effect);
			json_print_key("entries", true);
			json_print_string(what);
			printf("}");
		} else {
			printf("pending %s (mokutil %s): once confirmed at the console, %s%s%s\n",
			       name, option, effect, what[0] ? ": " : "", what);
		}
		shown++;
	}
	return 0;
}
